// Finding the cluster CA before trusting the server, as kubeadm's token discovery pins it
// (cmd/kubeadm/app/discovery/token and util/pubkeypin): the server presents its CA behind its
// serving certificate, and the CA is trusted only when the SHA-256 of its SubjectPublicKeyInfo
// is one of the hashes the person joining the node was given (`sha256:<hex>`, what
// `bulkhead token create --print-join-command` prints), or when told to skip the check.

import { createHash, X509Certificate } from 'node:crypto';
import { connect, type PeerCertificate, type DetailedPeerCertificate } from 'node:tls';

export class DiscoveryError extends Error {}

/** pubkeypin.Hash: `sha256:` and the hex SHA-256 of the certificate's SubjectPublicKeyInfo. */
export function caCertHash(pem: string): string {
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(spki).digest('hex')}`;
}

function toPEM(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

/** The chain the server presents, leaf first. */
function chainOf(leaf: DetailedPeerCertificate): PeerCertificate[] {
  const out: PeerCertificate[] = [];
  let c: DetailedPeerCertificate | undefined = leaf;
  while (c && c.raw && !out.some((o) => o.fingerprint256 === c!.fingerprint256)) {
    out.push(c);
    c = c.issuerCertificate;
  }
  return out;
}

/** The certificates the server at `server` presents (PEM, leaf first), read without trusting them. */
export function presentedChain(server: string, timeoutMs = 10_000): Promise<string[]> {
  const u = new URL(server);
  return new Promise((resolve, reject) => {
    const s = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 443), rejectUnauthorized: false, servername: /^[\d.]+$|:/.test(u.hostname) ? undefined : u.hostname });
    const t = setTimeout(() => s.destroy(new DiscoveryError(`no TLS answer from ${server} within ${timeoutMs / 1000}s`)), timeoutMs);
    s.once('secureConnect', () => {
      clearTimeout(t);
      const chain = chainOf(s.getPeerCertificate(true));
      s.end();
      resolve(chain.map((c) => toPEM(c.raw)));
    });
    s.once('error', (e) => {
      clearTimeout(t);
      reject(new DiscoveryError(`cannot reach ${server}: ${e.message}`));
    });
  });
}

/**
 * The cluster CA: the certificate in the server's chain whose key one of `pins` names, checked
 * to have signed the serving certificate. With no pins (and `unsafeSkip`), the chain's root.
 */
export async function discoverCA(server: string, pins: readonly string[], unsafeSkip: boolean): Promise<string> {
  if (!pins.length && !unsafeSkip) {
    throw new DiscoveryError('the server\'s CA must be pinned: pass --discovery-token-ca-cert-hash sha256:<hex> (bulkhead token create --print-join-command prints it) or, to trust any, --discovery-token-unsafe-skip-ca-verification');
  }
  const chain = await presentedChain(server);
  if (chain.length < 2) throw new DiscoveryError(`${server} presents no CA certificate behind its serving certificate (is it a Bulkhead server?)`);
  const leaf = new X509Certificate(chain[0]!);
  const cas = chain.slice(1).filter((pem) => new X509Certificate(pem).ca);
  let ca: string | undefined;
  if (pins.length) {
    ca = cas.find((pem) => pins.includes(caCertHash(pem)));
    if (!ca) throw new DiscoveryError(`the CA of ${server} (${cas.map(caCertHash).join(', ') || 'none'}) matches none of the pinned public key hashes`);
  } else {
    ca = cas[cas.length - 1];
    if (!ca) throw new DiscoveryError(`${server} presents no CA certificate`);
  }
  if (!leaf.checkIssued(new X509Certificate(ca)) || !leaf.verify(new X509Certificate(ca).publicKey)) {
    throw new DiscoveryError(`the serving certificate of ${server} is not signed by its pinned CA`);
  }
  return ca;
}
