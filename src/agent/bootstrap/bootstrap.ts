// `bulkhead agent --server URL --token T`: the node obtains its own identity as the kubelet does
// with a bootstrap kubeconfig (pkg/kubelet/certificate/bootstrap): with the bootstrap token it
// asks, by CertificateSigningRequest to kubernetes.io/kube-apiserver-client-kubelet, for a
// client certificate for system:node:<name> in system:nodes, waits for the server's controllers
// to approve and sign it, and writes a kubeconfig with it into the data directory. Then, as that
// node, it asks kubernetes.io/kubelet-serving for its endpoint's serving certificate (which
// Bulkhead approves for a node's own request). A later start reuses both while they are valid.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signers, nodesOrganization, nodeCommonNamePrefix } from '../../api/certificates.js';
import type { CertificateSigningRequest } from '../../api/types.js';
import { HttpClient } from '../../client/http.js';
import { isStatus } from '../../client/errors.js';
import { certificateSigningRequestsRef } from '../../client/resources.js';
import { certKubeconfig, readKubeconfig, type ClientConfig } from '../kubeconfig.js';
import { certificateFacts, csrObject, makeCSR } from './csr.js';
import { discoverCA } from './discovery.js';

export class BootstrapError extends Error {}

export interface BootstrapOptions {
  server: string;
  token: string;
  /** kubeadm's --discovery-token-ca-cert-hash values. */
  caCertHashes: string[];
  unsafeSkipCAVerification: boolean;
  dataDir: string;
  nodeName: string;
  /** Names and addresses of the agent endpoint, for its serving certificate. */
  servingHosts: string[];
  log(msg: string): void;
  /** How long to wait for each certificate (the kubelet waits without end; a person may need to approve). */
  waitMs?: number;
}

export interface NodeCredentials extends ClientConfig {
  cert: string;
  key: string;
  tls: { cert: string; key: string };
}

/** Where a joined node keeps its identity in its data directory. */
export function credentialPaths(dataDir: string) {
  return {
    kubeconfig: join(dataDir, 'kubelet.kubeconfig'),
    servingCert: join(dataDir, 'pki', 'kubelet-server.crt'),
    servingKey: join(dataDir, 'pki', 'kubelet-server.key'),
    servingFor: join(dataDir, 'pki', 'kubelet-server.for'),
  };
}

/** Valid for at least a minute more and issued to `subjectCN`. */
function stillGood(pem: string, subjectCN: string): boolean {
  try {
    const f = certificateFacts(pem);
    return f.notAfter.getTime() > Date.now() + 60_000 && f.subject.split(/,\s*/).includes(`CN=${subjectCN}`);
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates the request and waits for its certificate: csr.WaitForCertificate, by polling. */
async function requestCertificate(client: HttpClient, obj: CertificateSigningRequest, waitMs: number, log: (m: string) => void): Promise<string> {
  const name = obj.metadata.name!;
  try {
    await client.create(certificateSigningRequestsRef, undefined, obj);
  } catch (e) {
    if (isStatus(e, 401)) throw new BootstrapError(`the server refused the bootstrap token (expired, deleted or mistyped?): ${(e as Error).message}`);
    if (!isStatus(e, 409)) throw new BootstrapError(`cannot create CertificateSigningRequest ${name}: ${(e as Error).message}`);
  }
  log(`waiting for CertificateSigningRequest ${name} (${obj.spec.signerName}) to be approved and signed`);
  const deadline = Date.now() + waitMs;
  for (let delay = 100; Date.now() < deadline; delay = Math.min(delay * 2, 2000)) {
    const csr = await client.get<CertificateSigningRequest>(certificateSigningRequestsRef, undefined, name);
    const refused = csr.status?.conditions?.find((c) => (c.type === 'Denied' || c.type === 'Failed') && c.status === 'True');
    if (refused) throw new BootstrapError(`CertificateSigningRequest ${name} was ${refused.type.toLowerCase()}: ${refused.reason ?? ''} ${refused.message ?? ''}`.trim());
    if (csr.status?.certificate) return Buffer.from(csr.status.certificate, 'base64').toString('utf8');
    await sleep(delay);
  }
  throw new BootstrapError(`CertificateSigningRequest ${name} was not signed within ${waitMs / 1000}s (approve it with: kubectl certificate approve ${name})`);
}

/** The node's client credentials and serving certificate: from the data directory, or by bootstrap. */
export async function bootstrapNode(o: BootstrapOptions): Promise<NodeCredentials> {
  const paths = credentialPaths(o.dataDir);
  const user = `${nodeCommonNamePrefix}${o.nodeName}`;
  const waitMs = o.waitMs ?? 15 * 60_000;
  mkdirSync(join(o.dataDir, 'pki'), { recursive: true, mode: 0o700 });
  let conn: (ClientConfig & { cert: string; key: string }) | undefined;
  if (existsSync(paths.kubeconfig)) {
    const c = readKubeconfig(paths.kubeconfig);
    if (c.cert && c.key && stillGood(c.cert, user)) conn = { ...c, cert: c.cert, key: c.key };
    else o.log(`${paths.kubeconfig} holds no valid client certificate for ${user}; bootstrapping again`);
  }
  if (!conn) {
    const ca = await discoverCA(o.server, o.caCertHashes, o.unsafeSkipCAVerification);
    const bootstrapClient = new HttpClient({ server: o.server, ca, token: o.token, userAgent: `bulkhead-agent/${o.nodeName} (bootstrap)` });
    try {
      const req = await makeCSR(user, [nodesOrganization]);
      const cert = await requestCertificate(bootstrapClient, csrObject(req.request, signers.kubeletClient, ['digital signature', 'key encipherment', 'client auth']), waitMs, o.log);
      conn = { server: o.server, ca, cert, key: req.key };
      writeFileSync(paths.kubeconfig, certKubeconfig(o.server, ca, user, cert, req.key), { mode: 0o600 });
      o.log(`wrote ${paths.kubeconfig} with the client certificate of ${user}`);
    } finally {
      bootstrapClient.close();
    }
  }
  const hosts = [...new Set([o.nodeName, ...o.servingHosts].filter(Boolean))];
  const servingFor = hosts.join('\n');
  let tls: { cert: string; key: string } | undefined;
  if (existsSync(paths.servingCert) && existsSync(paths.servingKey) && existsSync(paths.servingFor) && readFileSync(paths.servingFor, 'utf8') === servingFor) {
    const cert = readFileSync(paths.servingCert, 'utf8');
    if (stillGood(cert, user)) tls = { cert, key: readFileSync(paths.servingKey, 'utf8') };
  }
  if (!tls) {
    const nodeClient = new HttpClient({ server: conn.server, ca: conn.ca, cert: conn.cert, key: conn.key, userAgent: `bulkhead-agent/${o.nodeName}` });
    try {
      const req = await makeCSR(user, [nodesOrganization], hosts);
      const cert = await requestCertificate(nodeClient, csrObject(req.request, signers.kubeletServing, ['digital signature', 'key encipherment', 'server auth']), waitMs, o.log);
      tls = { cert, key: req.key };
    } finally {
      nodeClient.close();
    }
    writeFileSync(paths.servingKey, tls.key, { mode: 0o600 });
    writeFileSync(paths.servingCert, tls.cert, { mode: 0o644 });
    writeFileSync(paths.servingFor, servingFor);
  }
  return { ...conn, tls };
}
