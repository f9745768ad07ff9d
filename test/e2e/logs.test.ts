// The real kubectl: a pod created with `kubectl run` is scheduled by the server's scheduler onto
// a registered node, and `kubectl logs` reaches that node's agent through the API server. The
// agent's /containerLogs endpoint is played by a small HTTPS server in this test (a fake kubelet
// with the node serving certificate the server issues, answering as src/agent/endpoint.ts does);
// the API server's side is real.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../src/api/types.js';
import { kubectlAvailable, startCluster, type TestCluster } from './cluster.js';

const missing = kubectlAvailable();
if (missing) console.error(`\n*** SKIPPING kubectl logs end-to-end tests: ${missing} ***\n`);

describe('kubectl logs through the node', { skip: missing }, () => {
  let c: TestCluster;
  let kubelet: Server;
  let port: number;
  const auth: (string | undefined)[] = [];
  const clients: (string | undefined)[] = [];

  const node = (name: string, kubeletPort: number) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: {
      capacity: { cpu: '2', memory: '2Gi', pods: '110' },
      allocatable: { cpu: '2', memory: '2Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
    },
  });

  before(async () => {
    c = await startCluster();
    const tls = await c.server.nodeServingCert('worker', ['127.0.0.1']);
    kubelet = createServer({ ...tls, ca: c.server.caCert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      auth.push(req.headers.authorization);
      const socket = req.socket as TLSSocket;
      clients.push(socket.authorized ? String(socket.getPeerCertificate().subject.CN) : undefined);
      const url = new URL(req.url ?? '/', 'http://kubelet');
      const [, , , name, container] = url.pathname.split('/');
      if (url.searchParams.get('previous') === 'true') {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `previous terminated container "${container}" in pod "${name}" not found`, reason: 'BadRequest', code: 400 }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      if (url.searchParams.get('follow') === 'true') {
        res.write('first\n');
        const t = setInterval(() => res.write('more\n'), 50);
        res.on('close', () => clearInterval(t));
        return;
      }
      res.end('line one\nline two\n');
    });
    await new Promise<void>((r) => kubelet.listen(0, '127.0.0.1', () => r()));
    port = (kubelet.address() as AddressInfo).port;
    const api = c.server.api;
    const admin = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore' as const, warnings: [] };
    await api.create(api.def('nodes'), undefined, node('worker', port), { ...admin, warnings: [] });
    // A node whose agent is down.
    await api.create(api.def('nodes'), undefined, { ...node('dead', 1), metadata: { name: 'dead', labels: { 'kubernetes.io/hostname': 'dead', role: 'dead' } } }, { ...admin, warnings: [] });
  });
  after(async () => {
    await c?.stop();
    await new Promise<void>((r) => (kubelet ? kubelet.close(() => r()) : r()));
  });

  const ok = async (args: string[]) => {
    const r = await c.kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  const boundTo = async (name: string) => {
    const end = Date.now() + 10_000;
    for (;;) {
      const p = await c.server.api.tryGet<Pod>(c.server.api.def('pods'), 'default', name);
      if (p?.spec.nodeName) return p.spec.nodeName;
      if (Date.now() > end) throw new Error(`${name} was not scheduled`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('kubectl run is scheduled, and kubectl logs shows what the agent returns', async () => {
    await ok(['run', 'app', '--image=busybox:1.36', '--overrides={"spec":{"nodeSelector":{"kubernetes.io/hostname":"worker"}}}', '--', 'sleep', '3600']);
    assert.equal(await boundTo('app'), 'worker');
    assert.equal((await ok(['logs', 'app'])).stdout, 'line one\nline two\n');
    // The API server's own client certificate; the caller's token stays behind.
    assert.deepEqual([auth.at(-1), clients.at(-1)], [undefined, 'kube-apiserver-kubelet-client']);
    const describe = (await ok(['describe', 'pod', 'app'])).stdout;
    assert.match(describe, /Normal\s+Scheduled\s+.*default-scheduler\s+Successfully assigned default\/app to worker/);
  });

  it('kubectl logs --previous prints the kubelet-worded 400', async () => {
    const r = await c.kubectl(['logs', 'app', '--previous']);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), 'Error from server (BadRequest): previous terminated container "app" in pod "app" not found');
  });

  it('kubectl logs -f streams until kubectl is stopped', async () => {
    const run = c.kubectlAsync(['logs', '-f', 'app']);
    const end = Date.now() + 10_000;
    while (!run.output().includes('more\nmore\n') && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    run.kill();
    await run.done;
    assert.match(run.output(), /^first\nmore\nmore\n/);
  });

  it('an unreachable agent is reported as kube-apiserver reports it', async () => {
    await ok(['run', 'stranded', '--image=busybox:1.36', '--overrides={"spec":{"nodeSelector":{"role":"dead"}}}']);
    assert.equal(await boundTo('stranded'), 'dead');
    const r = await c.kubectl(['logs', 'stranded']);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), 'Error from server: Get "https://127.0.0.1:1/containerLogs/default/stranded/stranded": dial tcp 127.0.0.1:1: connect: connection refused');
  });
});
