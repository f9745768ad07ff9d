// The cluster's certificates, all ECDSA P-256 and kept in the data directory: a CA made on first
// start, a serving certificate for the addresses the server answers on, the server's client
// certificate towards agents (kubeadm's apiserver-kubelet-client) and the agents' serving
// certificates (pki/nodes/<node>.crt), which the server issues with the node's credentials;
// and the signing of approved CertificateSigningRequests (parseCSR, signCSR) for nodes that join.
// Beside them the service account signing key (ensureServiceAccountKey), kubeadm's sa.key/sa.pub.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createPublicKey, generateKeyPairSync, webcrypto } from 'node:crypto';
import type { Pkcs10CertificateRequest, SubjectAlternativeNameExtension } from '@peculiar/x509';
import type { RequestSubject } from '../api/certificates.js';
import { kubeletClientUser } from '../policy/rbacbootstrap.js';

/**
 * @peculiar/x509 (with its reflect-metadata peer) takes 0.1–0.4 s to load, most of a server
 * start: it is loaded when a certificate is made or a request parsed, never on a start that finds
 * every certificate in the data directory.
 */
let x509Loading: Promise<typeof import('@peculiar/x509')> | undefined;
function loadX509(): Promise<typeof import('@peculiar/x509')> {
  return (x509Loading ??= (async () => {
    await import('reflect-metadata');
    const lib = await import('@peculiar/x509');
    lib.cryptoProvider.set(webcrypto as unknown as Crypto);
    return lib;
  })());
}

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface PKI {
  caCert: string;
  serverCert: string;
  serverKey: string;
  /** The API server's client certificate towards agents (CN kube-apiserver-kubelet-client). */
  kubeletClientCert: string;
  kubeletClientKey: string;
}

async function exportKey(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey);
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return (await webcrypto.subtle.importKey('pkcs8', der, alg, true, ['sign'])) as unknown as CryptoKey;
}

function serial(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1');
}

async function makeCA(): Promise<{ cert: string; key: string }> {
  const x509 = await loadX509();
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=bulkhead-ca',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 10 * 365 * 864e5),
    keys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
}

/** What a certificate is for: the names it serves (SANs) or the identity it proves (CN, O). */
export interface CertRequest {
  commonName: string;
  organizations?: string[];
  /** DNS names or IPs for a serving certificate; none for a client certificate. */
  hosts?: string[];
  usage: 'server' | 'client';
}

/** A certificate for `req`, signed by `ca`, with a new key; PEM. */
export async function issueCert(ca: { cert: string; key: string }, req: CertRequest): Promise<{ cert: string; key: string }> {
  const x509 = await loadX509();
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const caCert = new x509.X509Certificate(ca.cert);
  const names = (req.hosts ?? []).map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  // RFC 4514 escaping of the few characters a name here may carry (system:node:<name> has none).
  const rdn = (v: string) => v.replace(/([,+"\\<>;=])/g, '\\$1');
  const subject = [`CN=${rdn(req.commonName)}`, ...(req.organizations ?? []).map((o) => `O=${rdn(o)}`)].join(', ');
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: caCert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 365 * 864e5),
    signingKey: await importKey(ca.key),
    publicKey: keys.publicKey,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([req.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
      ...(names.length ? [new x509.SubjectAlternativeNameExtension(names)] : []),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
}

function makeServing(ca: { cert: string; key: string }, hosts: string[]): Promise<{ cert: string; key: string }> {
  return issueCert(ca, { commonName: 'bulkhead-apiserver', hosts, usage: 'server' });
}

/**
 * A certificate kept as NAME.crt and NAME.key in `dir`, issued again when what it was issued for
 * (kept as NAME.for) changed.
 */
async function ensureIssued(dir: string, name: string, ca: { cert: string; key: string }, req: CertRequest): Promise<{ cert: string; key: string }> {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  const forPath = join(dir, `${name}.for`);
  const what = JSON.stringify(req);
  const same = existsSync(forPath) && readFileSync(forPath, 'utf8') === what;
  if (!(existsSync(certPath) && existsSync(keyPath) && same)) {
    const issued = await issueCert(ca, req);
    writeFileSync(keyPath, issued.key, { mode: 0o600 });
    writeFileSync(certPath, issued.cert, { mode: 0o644 });
    writeFileSync(forPath, what);
  }
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

function subjectAltNames(x509: typeof import('@peculiar/x509'), csr: Pkcs10CertificateRequest): SubjectAlternativeNameExtension | undefined {
  const ext = csr.extensions.find((e) => e.type === '2.5.29.17');
  return ext ? new x509.SubjectAlternativeNameExtension(ext.rawData) : undefined;
}

/** What a PEM PKCS#10 request asks for, after its signature is checked; a message when it does not parse or verify. */
export async function parseCSR(pem: string): Promise<{ subject: RequestSubject; csr: Pkcs10CertificateRequest } | { problem: string }> {
  const x509 = await loadX509();
  let csr: Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem);
  } catch (e) {
    return { problem: `x509: malformed certificate request: ${(e as Error).message}` };
  }
  try {
    if (!(await csr.verify())) return { problem: 'x509: certificate request signature does not verify' };
  } catch (e) {
    return { problem: `x509: cannot check the certificate request's signature: ${(e as Error).message}` };
  }
  const san = subjectAltNames(x509, csr);
  const names = san?.names.items ?? [];
  const of = (type: string) => names.filter((n) => n.type === type).map((n) => n.value);
  return {
    csr,
    subject: {
      commonName: csr.subjectName.getField('CN')[0] ?? '',
      organizations: csr.subjectName.getField('O'),
      dnsNames: of('dns'),
      ipAddresses: of('ip'),
      emailAddresses: of('email'),
      uris: of('url'),
    },
  };
}

/** certificates.k8s.io usages as X.509 key usage bits and extended key usages (pkg/apis/certificates/v1 helpers: keyUsageDict, extKeyUsageDict). */
function x509Usages(x509: typeof import('@peculiar/x509'), usages: readonly string[]): { keyUsage: number; extended: string[] } {
  const bits: Record<string, number> = {
    'signing': x509.KeyUsageFlags.digitalSignature,
    'digital signature': x509.KeyUsageFlags.digitalSignature,
    'content commitment': x509.KeyUsageFlags.nonRepudiation,
    'key encipherment': x509.KeyUsageFlags.keyEncipherment,
    'key agreement': x509.KeyUsageFlags.keyAgreement,
    'data encipherment': x509.KeyUsageFlags.dataEncipherment,
    'cert sign': x509.KeyUsageFlags.keyCertSign,
    'crl sign': x509.KeyUsageFlags.cRLSign,
    'encipher only': x509.KeyUsageFlags.encipherOnly,
    'decipher only': x509.KeyUsageFlags.decipherOnly,
  };
  const ext: Record<string, string> = {
    'server auth': x509.ExtendedKeyUsage.serverAuth,
    'client auth': x509.ExtendedKeyUsage.clientAuth,
    'code signing': x509.ExtendedKeyUsage.codeSigning,
    'email protection': x509.ExtendedKeyUsage.emailProtection,
    'timestamping': x509.ExtendedKeyUsage.timeStamping,
    'ocsp signing': x509.ExtendedKeyUsage.ocspSigning,
  };
  let keyUsage = 0;
  const extended: string[] = [];
  for (const u of usages) {
    if (bits[u]) keyUsage |= bits[u]!;
    if (ext[u]) extended.push(ext[u]!);
  }
  return { keyUsage, extended };
}

/**
 * The cluster CA's certificate for a parsed request, as csrsigning's local signer issues it:
 * the request's subject and names, the usages the CSR object lists, valid from five minutes ago
 * (the signer's backdate) for `seconds`. PEM.
 */
export async function signCSR(pkiDir: string, csr: Pkcs10CertificateRequest, usages: readonly string[], seconds: number): Promise<string> {
  const x509 = await loadX509();
  const ca = loadCA(pkiDir);
  const caCert = new x509.X509Certificate(ca.cert);
  const { keyUsage, extended } = x509Usages(x509, usages);
  const san = subjectAltNames(x509, csr);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: csr.subjectName,
    issuer: caCert.subject,
    notBefore: new Date(now - 5 * 60_000),
    notAfter: new Date(Math.min(now + seconds * 1000, caCert.notAfter.getTime())),
    signingKey: await importKey(ca.key),
    publicKey: await csr.publicKey.export(alg, ['verify']),
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      ...(keyUsage ? [new x509.KeyUsagesExtension(keyUsage, true)] : []),
      ...(extended.length ? [new x509.ExtendedKeyUsageExtension(extended)] : []),
      ...(san ? [new x509.SubjectAlternativeNameExtension(san.names.toJSON())] : []),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return cert.toString('pem') + '\n';
}

/** kubeadm's name for the API server's identity towards kubelets (apiserver-kubelet-client.crt). */
export { kubeletClientUser };

function loadCA(dir: string): { cert: string; key: string } {
  return { cert: readFileSync(join(dir, 'ca.crt'), 'utf8'), key: readFileSync(join(dir, 'ca.key'), 'utf8') };
}

/**
 * A node's serving certificate (CN system:node:<name>, O system:nodes, the node's names and
 * addresses as SANs), as the kubelet's serving-cert CSR asks for it; kept in pki/nodes/.
 */
export async function ensureNodeServingCert(pkiDir: string, nodeName: string, hosts: string[]): Promise<{ cert: string; key: string }> {
  const dir = join(pkiDir, 'nodes');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const uniq = [...new Set([nodeName, ...hosts].filter(Boolean))];
  return ensureIssued(dir, nodeName, loadCA(pkiDir), { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'], hosts: uniq, usage: 'server' });
}

/** Loads the PKI from `dir`, creating what is missing; the serving cert covers `extraHosts` too. */
export async function ensurePKI(dir: string, extraHosts: string[] = []): Promise<PKI> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caCertPath = join(dir, 'ca.crt');
  const caKeyPath = join(dir, 'ca.key');
  let ca: { cert: string; key: string };
  if (existsSync(caCertPath) && existsSync(caKeyPath)) {
    ca = { cert: readFileSync(caCertPath, 'utf8'), key: readFileSync(caKeyPath, 'utf8') };
  } else {
    ca = await makeCA();
    writeFileSync(caKeyPath, ca.key, { mode: 0o600 });
    writeFileSync(caCertPath, ca.cert, { mode: 0o644 });
  }
  const hosts = [...new Set(['localhost', '127.0.0.1', '::1', hostname(), ...extraHosts])];
  const certPath = join(dir, 'apiserver.crt');
  const keyPath = join(dir, 'apiserver.key');
  const hostsPath = join(dir, 'apiserver.hosts');
  const sameHosts = existsSync(hostsPath) && readFileSync(hostsPath, 'utf8') === hosts.join('\n');
  if (!(existsSync(certPath) && existsSync(keyPath) && sameHosts)) {
    const serving = await makeServing(ca, hosts);
    writeFileSync(keyPath, serving.key, { mode: 0o600 });
    writeFileSync(certPath, serving.cert, { mode: 0o644 });
    writeFileSync(hostsPath, hosts.join('\n'));
  }
  const kubeletClient = await ensureIssued(dir, 'apiserver-kubelet-client', ca, { commonName: kubeletClientUser, usage: 'client' });
  return { caCert: ca.cert, serverCert: readFileSync(certPath, 'utf8'), serverKey: readFileSync(keyPath, 'utf8'), kubeletClientCert: kubeletClient.cert, kubeletClientKey: kubeletClient.key };
}

/** The service account key pair's files in the PKI directory (kubeadm's sa.key and sa.pub). */
export const serviceAccountKeyFile = 'service-account.key';
export const serviceAccountPublicKeyFile = 'service-account.pub';

/**
 * The key that signs service account tokens (kube-apiserver's --service-account-signing-key-file,
 * verified with --service-account-key-file): ECDSA P-256, so tokens are ES256 as kube-apiserver
 * signs with an EC key; made on first start and kept, like the CA. PEM (PKCS#8 and SPKI).
 */
export function ensureServiceAccountKey(dir: string): { privateKey: string; publicKey: string } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyPath = join(dir, serviceAccountKeyFile);
  const pubPath = join(dir, serviceAccountPublicKeyFile);
  if (!existsSync(keyPath)) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(keyPath, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  const privateKey = readFileSync(keyPath, 'utf8');
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  if (!existsSync(pubPath) || readFileSync(pubPath, 'utf8') !== publicKey) writeFileSync(pubPath, publicKey, { mode: 0o644 });
  return { privateKey, publicKey };
}
