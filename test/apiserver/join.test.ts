// Nodes that join with a bootstrap token, against a real server: `bulkhead token create` writes
// the token, the agent's bootstrap (src/agent/bootstrap) pins the CA, asks for its client and
// serving certificates by CertificateSigningRequest, and the server's approver and signer issue
// them; each node then is system:node:<name> by its certificate, and NodeRestriction holds per
// node. Also what a bootstrap token may and may not do, and the tokens the authenticator refuses.

import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bootstrapTokenSecret } from '../../src/api/bootstraptoken.js';
import { bootstrapNode, credentialPaths, type NodeCredentials } from '../../src/agent/bootstrap/bootstrap.js';
import { csrObject, makeCSR } from '../../src/agent/bootstrap/csr.js';
import { caCertHash } from '../../src/agent/bootstrap/discovery.js';
import { readKubeconfig } from '../../src/agent/kubeconfig.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { spawn } from 'node:child_process';
import { mainJs, repoRoot } from '../cli/run.js';
import { Client } from './client.js';

/** A command, run while this process keeps serving (spawnSync would block the server it talks to). */
function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env: { ...process.env, HOME: tmpdir() } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
const bulkhead = (args: string[]) => run(process.execPath, [mainJs, ...args]);

const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
const readyStatus = (name: string) => ({ ...node(name), status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ok', lastHeartbeatTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), lastTransitionTime: '2026-01-01T00:00:00Z' }] } });

describe('nodes that join with a bootstrap token', () => {
  let dir: string;
  let s: RunningServer;
  let admin: Client;
  let token: string;
  let pin: string;
  const creds = new Map<string, NodeCredentials>();
  const asNode = (n: string) => new Client(s.url, s.caCert, undefined, 4, { cert: creds.get(n)!.cert, key: creds.get(n)!.key });
  const join1 = (name: string, t = token, pins = [pin]) =>
    bootstrapNode({ server: s.url, token: t, caCertHashes: pins, unsafeSkipCAVerification: false, dataDir: join(dir, name), nodeName: name, servingHosts: ['127.0.0.1'], log: () => undefined, waitMs: 20_000 });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-join-'));
    s = await startServer({ dataDir: join(dir, 'server'), store: 'memory:', port: 0, scheduler: false, workloadControllers: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    // The command a person runs, against the server's admin kubeconfig.
    const r = await bulkhead(['token', 'create', '--data-dir', join(dir, 'server'), '--print-join-command']);
    assert.equal(r.code, 0, r.stderr);
    const m = /^bulkhead agent --server (\S+) --token (\S+) --discovery-token-ca-cert-hash (\S+)\n$/.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.equal(m[1], s.url);
    token = m[2]!;
    pin = m[3]!;
    assert.equal(pin, caCertHash(s.caCert));
  });
  after(async () => {
    admin.close();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the token is a bootstrap-token Secret in kube-system, as kubeadm writes it', async () => {
    const id = token.split('.')[0]!;
    const r = await admin.request('GET', `/api/v1/namespaces/kube-system/secrets/bootstrap-token-${id}`);
    assert.equal(r.status, 200, r.text);
    const sec = r.json();
    assert.equal(sec.type, 'bootstrap.kubernetes.io/token');
    const data = Object.fromEntries(Object.entries(sec.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    assert.equal(data['token-id'], id);
    assert.equal(data['usage-bootstrap-authentication'], 'true');
    assert.equal(data['usage-bootstrap-signing'], 'true');
    assert.equal(data['auth-extra-groups'], 'system:bootstrappers:kubeadm:default-node-token');
    // --ttl 24h by default.
    const ttl = (Date.parse(data.expiration!) - Date.now()) / 3600_000;
    assert.ok(ttl > 23 && ttl <= 24, `expires in ${ttl}h`);
    const list = await bulkhead(['token', 'list', '--data-dir', join(dir, 'server')]);
    assert.match(list.stdout, new RegExp(`^TOKEN\\s+TTL\\s+EXPIRES\\s+USAGES\\s+DESCRIPTION\\s+EXTRA GROUPS\\n${token.replace('.', '\\.')}\\s+2[34]h\\s`));
  });

  it('the token authenticates as system:bootstrap:<id> in system:bootstrappers', async () => {
    const c = new Client(s.url, s.caCert, token);
    const r = await c.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    c.close();
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().status.userInfo, { username: `system:bootstrap:${token.split('.')[0]}`, groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'] });
  });

  it('two nodes join, each with its own certificates and kubeconfig', async () => {
    for (const n of ['n1', 'n2']) creds.set(n, await join1(n));
    for (const n of ['n1', 'n2']) {
      const c = creds.get(n)!;
      const client = new X509Certificate(c.cert);
      assert.equal(client.subject, `CN=system:node:${n}\nO=system:nodes`);
      assert.ok(client.checkIssued(new X509Certificate(s.caCert)));
      const serving = new X509Certificate(c.tls.cert);
      assert.equal(serving.subjectAltName, `DNS:${n}, IP Address:127.0.0.1`);
      const kc = readKubeconfig(credentialPaths(join(dir, n)).kubeconfig);
      assert.deepEqual(kc, { server: s.url, ca: s.caCert, cert: c.cert, key: c.key });
    }
    const csrs = (await admin.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).json().items as { spec: { signerName: string; username: string }; status: { conditions: { type: string; reason: string }[]; certificate?: string } }[];
    assert.deepEqual(
      csrs.map((c) => [c.spec.signerName, c.spec.username.replace(/:[a-z0-9]{6}$/, ':<id>'), c.status.conditions.map((x) => `${x.type}/${x.reason}`).join(), !!c.status.certificate]).sort(),
      [
        ['kubernetes.io/kube-apiserver-client-kubelet', 'system:bootstrap:<id>', 'Approved/AutoApproved', true],
        ['kubernetes.io/kube-apiserver-client-kubelet', 'system:bootstrap:<id>', 'Approved/AutoApproved', true],
        ['kubernetes.io/kubelet-serving', 'system:node:n1', 'Approved/AutoApproved', true],
        ['kubernetes.io/kubelet-serving', 'system:node:n2', 'Approved/AutoApproved', true],
      ],
    );
  });

  it('a node that restarts reuses its identity without the token', async () => {
    const again = await join1('n1', 'zzzzzz.zzzzzzzzzzzzzzzz');
    assert.equal(again.cert, creds.get('n1')!.cert);
    assert.equal(again.tls.cert, creds.get('n1')!.tls.cert);
  });

  it('NodeRestriction holds per node: each writes its own Node, not the other\'s', async () => {
    const [a, b] = [asNode('n1'), asNode('n2')];
    const rows: [string, Client, string, string, unknown, number, RegExp?][] = [
      ['n1 registers its Node', a, 'POST', '/api/v1/nodes', node('n1'), 201],
      ['n2 registers its Node', b, 'POST', '/api/v1/nodes', node('n2'), 201],
      ['n1 cannot register a Node named n3', a, 'POST', '/api/v1/nodes', node('n3'), 403, /node "n1" is not allowed to modify node "n3"/],
      ['n1 updates its own status', a, 'PATCH', '/api/v1/nodes/n1/status', readyStatus('n1'), 200],
      ['n1 cannot update n2\'s status', a, 'PATCH', '/api/v1/nodes/n2/status', readyStatus('n2'), 403, /node "n1" is not allowed to modify node "n2"/],
      ['n2 cannot update n1\'s status', b, 'PATCH', '/api/v1/nodes/n1/status', readyStatus('n1'), 403, /node "n2" is not allowed to modify node "n1"/],
      ['n1 cannot read n2', a, 'GET', '/api/v1/nodes/n2', undefined, 403, /node 'n1' cannot read 'n2'/],
      ['n1 cannot delete n2', a, 'DELETE', '/api/v1/nodes/n2', undefined, 403],
    ];
    for (const [name, c, method, path, body, code, msg] of rows) {
      const r = await c.request(method, path, body, method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {});
      assert.equal(r.status, code, `${name}: ${r.text}`);
      if (msg) assert.match(r.json().message, msg, name);
    }
    a.close();
    b.close();
  });

  it('a bootstrap token may ask for a certificate and nothing else', async () => {
    const c = new Client(s.url, s.caCert, token);
    const rows: [string, string, string, number][] = [
      ['list CSRs', 'GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests', 200],
      ['read nodes', 'GET', '/api/v1/nodes', 403],
      ['read pods', 'GET', '/api/v1/pods', 403],
      ['read secrets', 'GET', '/api/v1/namespaces/kube-system/secrets', 403],
    ];
    for (const [name, method, path, code] of rows) assert.equal((await c.request(method, path)).status, code, name);
    c.close();
  });

  it('a token outside the node group may not ask for a node certificate', async () => {
    await admin.request('POST', '/api/v1/namespaces/kube-system/secrets', bootstrapTokenSecret({ id: 'other1', secret: '0123456789abcdef', usages: ['authentication'], extraGroups: [] }));
    const c = new Client(s.url, s.caCert, 'other1.0123456789abcdef');
    const req = await makeCSR('system:node:n9', ['system:nodes']);
    const r = await c.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', csrObject(req.request, 'kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth']));
    c.close();
    assert.equal(r.status, 403, r.text);
  });

  it('a node asking for another node\'s serving certificate is left pending; kubectl certificate approve issues it', async () => {
    const c = asNode('n1');
    const req = await makeCSR('system:node:n2', ['system:nodes'], ['127.0.0.1']);
    const obj = csrObject(req.request, 'kubernetes.io/kubelet-serving', ['digital signature', 'server auth']);
    assert.equal((await c.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', obj)).status, 201);
    await s.certificates!.approver.idle();
    await s.certificates!.signer.idle();
    const got = (await admin.request('GET', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${obj.metadata.name}`)).json();
    assert.equal(got.status.conditions, undefined);
    assert.equal(got.status.certificate, undefined);
    c.close();
    // A person may still approve it: kubectl certificate approve writes /approval, the signer issues.
    const approve = await run('kubectl', ['--kubeconfig', s.kubeconfigPath, 'certificate', 'approve', obj.metadata.name!]);
    assert.equal(approve.code, 0, approve.stderr);
    assert.equal(approve.stdout, `certificatesigningrequest.certificates.k8s.io/${obj.metadata.name} approved\n`);
    await s.certificates!.approver.idle();
    await s.certificates!.signer.idle();
    let issued = (await admin.request('GET', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${obj.metadata.name}`)).json();
    for (let i = 0; i < 50 && !issued.status.certificate; i++) {
      await new Promise((r) => setTimeout(r, 100));
      issued = (await admin.request('GET', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${obj.metadata.name}`)).json();
    }
    assert.deepEqual(issued.status.conditions.map((x: { type: string; reason: string }) => `${x.type}/${x.reason}`), ['Approved/KubectlApprove']);
    assert.equal(new X509Certificate(Buffer.from(issued.status.certificate, 'base64').toString()).subject, 'CN=system:node:n2\nO=system:nodes');
    // Approved is final: a deny after it is refused.
    const deny = await run('kubectl', ['--kubeconfig', s.kubeconfigPath, 'certificate', 'deny', obj.metadata.name!]);
    assert.notEqual(deny.code, 0);
  });

  it('refuses tokens that do not authenticate with 401', async () => {
    await admin.request('POST', '/api/v1/namespaces/kube-system/secrets', bootstrapTokenSecret({ id: 'expird', secret: '0123456789abcdef', expiration: '2020-01-01T00:00:00Z', usages: ['authentication'], extraGroups: [] }));
    for (const t of [`${token.split('.')[0]}.0000000000000000`, 'expird.0123456789abcdef', 'nosuch.0123456789abcdef']) {
      const c = new Client(s.url, s.caCert, t);
      assert.equal((await c.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).status, 401, t);
      c.close();
    }
  });

  it('a deleted token no longer joins; the CA pin is checked before the token is sent', async () => {
    await assert.rejects(join1('n4', token, ['sha256:' + '0'.repeat(64)]), /matches none of the pinned public key hashes/);
    const r = await bulkhead(['token', 'delete', '--data-dir', join(dir, 'server'), token]);
    assert.equal(r.stdout, `bootstrap token "${token.split('.')[0]}" deleted\n`, r.stderr);
    await assert.rejects(join1('n5'), /refused the bootstrap token/);
    assert.ok(!existsSync(credentialPaths(join(dir, 'n5')).kubeconfig));
  });

  it('kubectl-style tables show the requests', async () => {
    const r = await admin.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const t = r.json();
    assert.deepEqual(t.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    assert.ok(t.rows.some((row: { cells: string[] }) => row.cells[5] === 'Approved,Issued'));
    assert.ok(t.rows.some((row: { cells: string[] }) => row.cells[2] === 'kubernetes.io/kubelet-serving' && row.cells[3] === 'system:node:n1'));
  });
});
