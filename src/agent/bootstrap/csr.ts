// A node's key pair and PKCS#10 request (ECDSA P-256, as client-go's certificate manager makes
// them), and the CertificateSigningRequest object that carries it, named as the kubelet names
// its own (node-csr-<digest of the key and subject>).

import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CertificateSigningRequest } from '../../api/types.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface NodeCSR {
  /** The private key, PKCS#8 PEM; it never leaves the node. */
  key: string;
  /** The request, PEM. */
  request: string;
}

/** A new key and a request for `commonName` in `organizations`, with DNS names and IPs as SANs. */
export async function makeCSR(commonName: string, organizations: string[], hosts: string[] = []): Promise<NodeCSR> {
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const rdn = (v: string) => v.replace(/([,+"\\<>;=])/g, '\\$1');
  const names = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [`CN=${rdn(commonName)}`, ...organizations.map((o) => `O=${rdn(o)}`)].join(', '),
    keys,
    signingAlgorithm: alg,
    extensions: names.length ? [new x509.SubjectAlternativeNameExtension(names)] : [],
  });
  const der = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey);
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return { key: `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`, request: csr.toString('pem') + '\n' };
}

/** The CertificateSigningRequest for a request to `signerName` with `usages`. */
export function csrObject(request: string, signerName: string, usages: string[]): CertificateSigningRequest {
  const digest = createHash('sha256').update(request).update(signerName).digest('base64url');
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: `node-csr-${digest}` },
    spec: { request: Buffer.from(request).toString('base64'), signerName, usages },
  };
}

/** When a PEM certificate stops being valid, and the names it was issued for. */
export function certificateFacts(pem: string): { notAfter: Date; subject: string } {
  const c = new x509.X509Certificate(pem);
  return { notAfter: c.notAfter, subject: c.subject };
}
