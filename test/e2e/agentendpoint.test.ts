// The agent's endpoint as the kubelet's, on `bulkhead up` with the real kubectl 1.29, 1.31,
// 1.32 (on PATH) and 1.33: the admin reaches it through nodes/proxy (`kubectl get --raw
// /api/v1/nodes/NODE/proxy/metrics`); called directly it speaks only HTTPS with the node
// certificate the cluster CA signed, and refuses no credentials, a wrong token, a certificate of
// another CA (401) and identities without the nodes/<subresource> right (403, the kubelet's
// words). There are no ServiceAccount tokens yet: "a pod's token" is a bearer token the server
// knows for the identity a pod's token would carry (system:serviceaccount:default:default,
// added to tokens.json and the server restarted). Then `kubectl logs` as the kubelet serves it:
// --tail, --timestamps, --since-time, --limit-bytes, -c, --all-containers, --prefix, --previous,
// and -f following new lines until the container ends.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueCert, ensurePKI } from '../../src/apiserver/pki.js';
import { startUp, type Result, type UpCluster } from './upcluster.js';

const kubectls = [
  { name: 'kubectl 1.29', bin: '/usr/lib/google-cloud-sdk/bin/kubectl.1.29' },
  { name: 'kubectl 1.31', bin: '/usr/lib/google-cloud-sdk/bin/kubectl.1.31' },
  { name: 'kubectl 1.32 (PATH)', bin: 'kubectl' },
  { name: 'kubectl 1.33', bin: '/usr/lib/google-cloud-sdk/bin/kubectl.1.33' },
];
const missing =
  (process.getuid?.() !== 0 ? 'needs root (bulkhead up runs pods with runc)' : undefined) ??
  (spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0 ? undefined : 'kubectl is not on PATH') ??
  kubectls.map((k) => (k.bin === 'kubectl' || existsSync(k.bin) ? undefined : `${k.bin} is missing`)).find((m) => m);
if (missing) console.error(`\n*** SKIPPING the agent endpoint end-to-end tests: ${missing} ***\n`);

const podToken = 'pod-token-for-system-serviceaccount-default-default';

interface Answer {
  status: number;
  text: string;
}

describe('the agent endpoint as the kubelet\'s, and kubectl logs', { skip: missing }, () => {
  let c: UpCluster;
  let port: string;
  let ca: string;

  const agent = (path: string, o: { token?: string; cert?: { cert: string; key: string }; plain?: boolean } = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(`https://127.0.0.1:${port}${path}`, { ca, agent: false, ...(o.cert ?? {}), headers: o.token ? { Authorization: `Bearer ${o.token}` } : {} }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end();
    });

  const kubectl = (bin: string, args: string[]): Promise<Result> =>
    new Promise((resolve) => {
      const p = spawn(bin, ['--request-timeout', '60s', ...args], { env: { ...process.env, KUBECONFIG: c.kubeconfig, HOME: c.dir } });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d) => (stdout += d));
      p.stderr.on('data', (d) => (stderr += d));
      const t = setTimeout(() => p.kill('SIGKILL'), 120_000);
      p.on('close', (code) => {
        clearTimeout(t);
        resolve({ code: code ?? -1, stdout, stderr });
      });
    });

  before(async () => {
    c = await startUp();
    // The identity a pod's ServiceAccount token would carry, known to the server after a restart.
    const tokensPath = join(c.dataDir, 'tokens.json');
    const tokens = JSON.parse(readFileSync(tokensPath, 'utf8')) as unknown[];
    tokens.push({ token: podToken, user: 'system:serviceaccount:default:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:default'] });
    writeFileSync(tokensPath, JSON.stringify(tokens), { mode: 0o600 });
    await c.restart();
    port = (await c.ok(['get', 'node', c.nodeName, '-o', 'jsonpath={.status.daemonEndpoints.kubeletEndpoint.Port}'])).trim();
    ca = readFileSync(join(c.dataDir, 'pki', 'ca.crt'), 'utf8');
  });
  after(async () => {
    await c?.stop();
  });

  for (const k of kubectls) {
    it(`${k.name}: get --raw /api/v1/nodes/NODE/proxy/metrics reaches the agent for the admin`, async () => {
      const r = await kubectl(k.bin, ['get', '--raw', `/api/v1/nodes/${c.nodeName}/proxy/metrics`]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^# TYPE container_oom_events_by_mode counter$/m);
    });
  }

  it('a user without nodes/proxy is refused by the API server before the agent', async () => {
    const r = await c.kubectl(['get', '--raw', `/api/v1/nodes/${c.nodeName}/proxy/metrics`, '--token', podToken]);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), `Error from server (Forbidden): nodes "${c.nodeName}" is forbidden: User "system:serviceaccount:default:default" cannot get resource "nodes/proxy" in API group "" at the cluster scope`);
  });

  const refusals: { name: string; path: string; token?: () => string; cert?: () => Promise<{ cert: string; key: string }>; status: number; text: string | RegExp }[] = [
    { name: 'no credentials', path: '/metrics', status: 401, text: 'Unauthorized' },
    { name: 'a wrong token', path: '/metrics', token: () => 'not-a-token', status: 401, text: 'Unauthorized' },
    { name: 'a pod\'s token (nodes/metrics)', path: '/metrics', token: () => podToken, status: 403, text: 'Forbidden (user=system:serviceaccount:default:default, verb=get, resource=nodes, subresource(s)=[metrics])' },
    { name: 'a pod\'s token (nodes/proxy)', path: '/containerLogs/default/x/y', token: () => podToken, status: 403, text: 'Forbidden (user=system:serviceaccount:default:default, verb=get, resource=nodes, subresource(s)=[proxy])' },
    { name: 'the node\'s own token (the node authorizer gives no node its kubelet API)', path: '/metrics', token: () => nodeToken(), status: 403, text: /^Forbidden \(user=system:node:node-[0-9a-f]+, verb=get, resource=nodes, subresource\(s\)=\[metrics\]\)$/ },
    {
      name: 'a client certificate from another CA, even for the API server\'s name',
      path: '/metrics',
      cert: async () => {
        await ensurePKI(join(c.dir, 'other-pki'));
        const other = { cert: readFileSync(join(c.dir, 'other-pki', 'ca.crt'), 'utf8'), key: readFileSync(join(c.dir, 'other-pki', 'ca.key'), 'utf8') };
        return issueCert(other, { commonName: 'kube-apiserver-kubelet-client', usage: 'client' });
      },
      status: 401,
      text: 'Unauthorized',
    },
    { name: 'the admin token is allowed', path: '/metrics', token: () => adminToken(), status: 200, text: /container_oom_events_by_mode/ },
    {
      name: 'the API server\'s client certificate is allowed',
      path: '/healthz',
      cert: async () => ({ cert: readFileSync(join(c.dataDir, 'pki', 'apiserver-kubelet-client.crt'), 'utf8'), key: readFileSync(join(c.dataDir, 'pki', 'apiserver-kubelet-client.key'), 'utf8') }),
      status: 200,
      text: 'ok',
    },
  ];
  const tokenOf = (user: string) => (JSON.parse(readFileSync(join(c.dataDir, 'tokens.json'), 'utf8')) as { user: string; token: string }[]).find((e) => e.user === user)!.token;
  const nodeToken = () => tokenOf(`system:node:${c.nodeName}`);
  const adminToken = () => tokenOf('bulkhead-admin');
  for (const r of refusals) {
    it(`the agent endpoint directly: ${r.name} → ${r.status}`, async () => {
      const a = await agent(r.path, { ...(r.token ? { token: r.token() } : {}), ...(r.cert ? { cert: await r.cert() } : {}) });
      assert.equal(a.status, r.status, a.text);
      if (typeof r.text === 'string') assert.equal(a.text, r.text);
      else assert.match(a.text, r.text);
    });
  }

  it('the agent endpoint speaks no plain HTTP', async () => {
    const plain = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.status, () => 'no HTTP answer');
    assert.notEqual(plain, 200);
  });

  // kubectl logs as the kubelet serves it.
  const logsPod = `apiVersion: v1
kind: Pod
metadata: {name: talker}
spec:
  restartPolicy: Never
  initContainers:
  - {name: init, image: busybox, command: ["sh", "-c", "echo init-done"]}
  containers:
  - {name: a, image: busybox, command: ["sh", "-c", "echo a-1; echo a-2; echo a-3; sleep 3600"]}
  - {name: b, image: busybox, command: ["sh", "-c", "echo b-1; sleep 3600"]}
`;

  it('kubectl logs: a pod with an init container and two containers runs', async () => {
    await c.ok(['apply', '-f', c.file('talker.yaml', logsPod)]);
    await c.until('talker running with its lines written', async () => {
      const p = await c.pod('talker');
      if (p.status.phase !== 'Running') return undefined;
      const out = await c.kubectl(['logs', 'talker', '-c', 'a']);
      return out.stdout === 'a-1\na-2\na-3\n' ? true : undefined;
    }, 90_000);
  });

  for (const k of kubectls) {
    it(`${k.name}: logs -c, --tail, --timestamps, --since-time, --limit-bytes, --all-containers --prefix`, async () => {
      const run = async (args: string[]) => {
        const r = await kubectl(k.bin, ['logs', 'talker', ...args]);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
        return r.stdout;
      };
      assert.equal(await run(['-c', 'a']), 'a-1\na-2\na-3\n');
      assert.equal(await run(['-c', 'a', '--tail', '2']), 'a-2\na-3\n');
      assert.equal(await run(['-c', 'a', '--tail', '0']), '');
      assert.equal(await run(['-c', 'a', '--limit-bytes', '5']), 'a-1\na');
      const stamped = await run(['-c', 'a', '--timestamps']);
      assert.match(stamped, /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z a-\d\n){3}$/);
      const second = stamped.split('\n')[1]!.split(' ')[0]!;
      // --since-time at the second line's second: kubectl sends whole seconds, the kubelet keeps
      // the lines at or after it (the first line may share that second, so it is not asserted).
      assert.match(await run(['-c', 'a', '--since-time', second.replace(/\.\d+Z$/, 'Z')]), /a-2\na-3\n$/);
      assert.equal(await run(['-c', 'a', '--since-time', '2099-01-01T00:00:00Z']), '');
      assert.equal(await run(['-c', 'a', '--since', '1h']), 'a-1\na-2\na-3\n');
      assert.equal(await run(['-c', 'init']), 'init-done\n');
      assert.equal(await run(['--all-containers', '--prefix']), '[pod/talker/init] init-done\n[pod/talker/a] a-1\n[pod/talker/a] a-2\n[pod/talker/a] a-3\n[pod/talker/b] b-1\n');
      const noContainer = await kubectl(k.bin, ['logs', 'talker']);
      // Two containers and no -c: kubectl picks the default container (the first) and says so.
      assert.equal(noContainer.stdout, 'a-1\na-2\na-3\n', noContainer.stderr);
    });
  }

  for (const k of kubectls) {
    const name = `follow-${k.name.replace(/[^0-9]/g, '')}`;
    it(`${k.name}: logs -f shows new lines as they are written and ends when the container ends`, async () => {
      await c.ok(['run', name, '--image=busybox', '--restart=Never', '--', 'sh', '-c', 'i=0; while [ $i -lt 4 ]; do echo line-$i; i=$((i+1)); sleep 1; done']);
      await c.until(`${name} started`, async () => ((await c.pod(name)).status.containerStatuses?.[0]?.state.running || (await c.pod(name)).status.containerStatuses?.[0]?.state.terminated ? true : undefined), 90_000);
      const r = await kubectl(k.bin, ['logs', '-f', name]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'line-0\nline-1\nline-2\nline-3\n');
      await c.ok(['delete', 'pod', name, '--grace-period=0', '--force']).catch(() => undefined);
    });
  }

  it('logs --previous shows the instance before the restart', async () => {
    await c.ok(['run', 'restarter', '--image=busybox', '--restart=Always', '--', 'sh', '-c', 'echo run-$(cat /proc/sys/kernel/random/uuid); sleep 1; exit 3']);
    await c.until('restarter restarted', async () => ((await c.pod('restarter')).status.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? true : undefined, 120_000);
    for (const k of kubectls) {
      const r = await kubectl(k.bin, ['logs', 'restarter', '--previous']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^run-[0-9a-f-]{36}\n$/, k.name);
    }
  });

  it('a deleted pod\'s log directory goes with it', async () => {
    const logs = join(c.dataDir, 'agent', 'run', 'logs');
    const uid = (await c.pod('talker')).metadata.uid;
    assert.ok(readdirLogs(logs).some((d) => d.endsWith(`_${uid}`)));
    await c.ok(['delete', 'pod', 'talker', '--grace-period=1', '--wait=true']);
    await c.until('talker\'s log directory removed', async () => (readdirLogs(logs).some((d) => d.endsWith(`_${uid}`)) ? undefined : true), 60_000);
  });
});

function readdirLogs(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}
