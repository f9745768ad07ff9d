// The cluster's certificates, all ECDSA P-256 and kept in the data directory: a CA made on first
// start, a serving certificate for the addresses the server answers on, the server's client
// certificate towards agents (kubeadm's apiserver-kubelet-client) and the agents' serving
// certificates (pki/nodes/<node>.crt), which the server issues with the node's credentials.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIPv4 } from 'node:net';
import * as der from './der.js';

export interface PKI {
  caCert: string;
  serverCert: string;
  serverKey: string;
  /** The API server's client certificate towards agents (CN kube-apiserver-kubelet-client). */
  kubeletClientCert: string;
  kubeletClientKey: string;
}

const oid = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};
// KeyUsage bits (RFC 5280 4.2.1.3).
const digitalSignature = 0;
const keyEncipherment = 2;
const keyCertSign = 5;
const cRLSign = 6;

function newKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

const exportKey = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }) as string;

/** A positive 128-bit serial number. */
function serial(): Buffer {
  const b = randomBytes(16);
  b[0] = (b[0]! & 0x7f) || 1;
  return b;
}

/** A Name of one CN and any number of O attributes, each in its own RDN, CN first. */
function name(commonName: string, organizations: string[] = []): Buffer {
  const rdn = (type: string, value: string) => der.set(der.sequence(der.objectIdentifier(type), der.utf8String(value)));
  return der.sequence(rdn(oid.commonName, commonName), ...organizations.map((o) => rdn(oid.organization, o)));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.objectIdentifier(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  // IPv6, with at most one `::` and possibly a trailing dotted IPv4.
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number);
    text = text.slice(0, -v4[1]!.length) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(g, 2 * i));
  return out;
}

/** The SubjectAltName entries: IP addresses as iPAddress [7], the rest as dNSName [2]. */
function altNames(hosts: string[]): Buffer {
  return der.sequence(...hosts.map((h) => (/^[\d.]+$|:/.test(h) ? der.tlv(0x87, ipBytes(h)) : der.tlv(0x82, Buffer.from(h, 'ascii')))));
}

/** SubjectPublicKeyInfo's key bits, hashed with SHA-1 (RFC 5280 4.2.1.2, method 1). */
function keyIdentifier(spki: Buffer): Buffer {
  // An uncompressed P-256 point is the last 65 bytes of its SubjectPublicKeyInfo.
  return createHash('sha1').update(spki.subarray(spki.length - 65)).digest();
}

interface CertSpec {
  subject: Buffer;
  issuer: Buffer;
  notAfter: Date;
  publicKey: KeyObject;
  signingKey: KeyObject;
  extensions: Buffer[];
}

/** A v3 certificate, ECDSA P-256 with SHA-256, valid from a minute ago; PEM. */
function certificate(spec: CertSpec): string {
  const algorithm = der.sequence(der.objectIdentifier(oid.ecdsaWithSHA256));
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)),
    der.unsignedInteger(serial()),
    algorithm,
    spec.issuer,
    der.sequence(der.time(new Date(Date.now() - 60_000)), der.time(spec.notAfter)),
    spec.subject,
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(3, der.sequence(...spec.extensions)),
  );
  const signature = sign('sha256', tbs, spec.signingKey);
  return der.pem('CERTIFICATE', der.sequence(tbs, algorithm, der.bitString(signature)));
}

/** A new self-signed cluster CA (CN bulkhead-ca, ten years); PEM. */
export function makeCA(): { cert: string; key: string } {
  const { privateKey, publicKey } = newKey();
  const subject = name('bulkhead-ca');
  const cert = certificate({
    subject,
    issuer: subject,
    notAfter: new Date(Date.now() + 10 * 365 * 864e5),
    publicKey,
    signingKey: privateKey,
    extensions: [
      extension(oid.basicConstraints, true, der.sequence(der.boolean(true))),
      extension(oid.keyUsage, true, der.namedBits([digitalSignature, keyCertSign, cRLSign])),
      extension(oid.subjectKeyIdentifier, false, der.octetString(keyIdentifier(publicKey.export({ type: 'spki', format: 'der' })))),
    ],
  });
  return { cert, key: exportKey(privateKey) };
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
  const { privateKey, publicKey } = newKey();
  const hosts = req.hosts ?? [];
  const cert = certificate({
    subject: name(req.commonName, req.organizations),
    issuer: der.certificateSubject(der.pemBody(ca.cert)),
    notAfter: new Date(Date.now() + 365 * 864e5),
    publicKey,
    signingKey: createPrivateKey(ca.key),
    extensions: [
      extension(oid.basicConstraints, true, der.sequence()),
      extension(oid.keyUsage, true, der.namedBits([digitalSignature, keyEncipherment])),
      extension(oid.extKeyUsage, false, der.sequence(der.objectIdentifier(req.usage === 'server' ? oid.serverAuth : oid.clientAuth))),
      ...(hosts.length ? [extension(oid.subjectAltName, false, altNames(hosts))] : []),
    ],
  });
  return { cert, key: exportKey(privateKey) };
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

/** kubeadm's name for the API server's identity towards kubelets (apiserver-kubelet-client.crt). */
export const kubeletClientUser = 'kube-apiserver-kubelet-client';

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
    ca = makeCA();
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
