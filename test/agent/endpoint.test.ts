// The agent endpoint (the kubelet's :10250 counterpart): HTTPS, the kubelet's authentication
// (client certificates of the cluster CA, bearer tokens) and authorization (the path's
// nodes/<subresource>, the method's verb) with its 401 and 403 texts; logs in kubectl's format
// from a conmon k8s-file log (tail, timestamps, limitBytes, follow until the container stops),
// the kubelet's error texts as Status bodies, and metrics.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { logsSince, startEndpoint, type LogTarget } from '../../src/agent/endpoint.js';
import { AgentMetrics } from '../../src/agent/metrics.js';
import { requestAttributes, type EndpointUser } from '../../src/agent/endpointauth.js';
import { fixedAuthenticator, httpsGet, testCerts, type TestCerts } from './endpointcerts.js';

const token = 'admin-token';
const users: Record<string, EndpointUser> = {
  [token]: { name: 'admin', groups: ['system:masters', 'system:authenticated'] },
  'pod-token': { name: 'system:serviceaccount:default:default', groups: ['system:serviceaccounts', 'system:authenticated'] },
  'metrics-token': { name: 'prometheus', groups: ['system:authenticated'] },
};
/** admin and the API server's identity everything; prometheus nodes/metrics only; others nothing. */
const allowed = (u: EndpointUser, _verb: string, sub: string) => u.name === 'admin' || u.name === 'kube-apiserver-kubelet-client' || (u.name === 'prometheus' && sub === 'metrics');
const dir = mkdtempSync(join(tmpdir(), 'bulkhead-endpoint-'));
const logFile = join(dir, '0.log');
writeFileSync(
  logFile,
  [
    '2026-11-22T05:40:26.395786010+00:00 stdout F one',
    '2026-11-22T05:40:27.000000000+00:00 stderr F two',
    '2026-11-22T05:40:28.5+00:00 stdout P thr',
    '2026-11-22T05:40:28.6+00:00 stdout F ee',
    '',
  ].join('\n'),
);
let running = true;
const metrics = new AgentMetrics();

describe('the kubelet\'s request attributes', () => {
  const rows: [string, string, string, string, string[]][] = [
    ['GET is get; /metrics is nodes/metrics', 'GET', '/metrics', 'get', ['metrics']],
    ['below /metrics too', 'GET', '/metrics/resource', 'get', ['metrics']],
    ['/metricsfoo is not below /metrics', 'GET', '/metricsfoo', 'get', ['proxy']],
    ['/stats/summary is nodes/stats', 'GET', '/stats/summary', 'get', ['stats']],
    ['/logs/ is nodes/log', 'GET', '/logs/', 'get', ['log']],
    ['/containerLogs is nodes/proxy', 'GET', '/containerLogs/ns/p/c', 'get', ['proxy']],
    ['POST /exec is create on nodes/proxy', 'POST', '/exec/ns/p/c', 'create', ['proxy']],
    ['PUT is update', 'PUT', '/x', 'update', ['proxy']],
    ['PATCH is patch', 'PATCH', '/x', 'patch', ['proxy']],
    ['DELETE is delete', 'DELETE', '/x', 'delete', ['proxy']],
    ['/pods is nodes/pods, then nodes/proxy (fine-grained)', 'GET', '/pods', 'get', ['pods', 'proxy']],
    ['/healthz is nodes/healthz, then nodes/proxy', 'GET', '/healthz', 'get', ['healthz', 'proxy']],
    ['/configz is nodes/configz, then nodes/proxy', 'GET', '/configz', 'get', ['configz', 'proxy']],
    ['/spec is nodes/proxy (no spec subresource since 1.31)', 'GET', '/spec/', 'get', ['proxy']],
  ];
  for (const [name, method, path, verb, subs] of rows) it(name, () => assert.deepEqual(requestAttributes(method, path), { verb, subresources: subs }));
});

describe('the kubelet\'s since', () => {
  const now = Date.parse('2026-11-22T06:00:00Z');
  const rows: [string, { sinceSeconds?: number; sinceTime?: number }, number | undefined][] = [
    ['neither: everything', {}, undefined],
    ['sinceSeconds back from now', { sinceSeconds: 60 }, now - 60_000],
    ['sinceTime alone', { sinceTime: now - 5_000 }, now - 5_000],
    ['the later of the two wins (sinceTime)', { sinceSeconds: 60, sinceTime: now - 5_000 }, now - 5_000],
    ['the later of the two wins (sinceSeconds)', { sinceSeconds: 60, sinceTime: now - 600_000 }, now - 60_000],
  ];
  for (const [name, q, want] of rows) it(name, () => assert.equal(logsSince(q, now), want));
});

describe('agent endpoint', () => {
  let ep: Awaited<ReturnType<typeof startEndpoint>>;
  let base: string;
  let certs: TestCerts;
  before(async () => {
    certs = await testCerts();
    ep = await startEndpoint({
      host: '127.0.0.1',
      port: 0,
      tls: { ...certs.serving, clientCA: certs.ca },
      auth: fixedAuthenticator(users, allowed),
      logs: (ns, pod, container, previous): LogTarget => {
        if (previous) return { missing: `previous terminated container "${container}" in pod "${pod}" not found`, running: () => false };
        if (container === 'waiting') return { missing: `container "waiting" in pod "${pod}" is waiting to start: ContainerCreating`, running: () => false };
        return { path: logFile, running: () => running };
      },
      metrics: () => metrics.render(),
      metricsContentType: metrics.contentType,
    });
    base = `https://127.0.0.1:${ep.port}`;
  });
  after(async () => {
    await ep.close();
    certs.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
  const get = async (path: string, auth = token) => {
    const r = await httpsGet(base + path, { ca: certs.ca, token: auth });
    return { status: r.status, text: async () => r.text };
  };

  const rows: [string, string, number, string | RegExp][] = [
    ['healthz is served to who may get nodes/healthz or nodes/proxy', '/healthz', 200, 'ok'],
    ['logs as kubectl prints them, partial lines joined', '/containerLogs/default/p/c', 200, 'one\ntwo\nthree\n'],
    ['tailLines keeps the last lines', '/containerLogs/default/p/c?tailLines=1', 200, 'three\n'],
    ['timestamps in RFC 3339 nanoseconds, UTC', '/containerLogs/default/p/c?timestamps=true&tailLines=2', 200, '2026-11-22T05:40:27Z two\n2026-11-22T05:40:28.5Z three\n'],
    ['limitBytes cuts the output', '/containerLogs/default/p/c?limitBytes=6', 200, 'one\ntw'],
    ['sinceTime skips the lines written before it', '/containerLogs/default/p/c?sinceTime=2026-11-22T05:40:27Z', 200, 'two\nthree\n'],
    ['sinceTime after every line: nothing', '/containerLogs/default/p/c?sinceTime=2026-11-22T05:41:00Z', 200, ''],
    ['sinceTime and tailLines together', '/containerLogs/default/p/c?sinceTime=2026-11-22T05:40:27Z&tailLines=1', 200, 'three\n'],
    ['limitBytes counts the timestamps too', '/containerLogs/default/p/c?timestamps=true&limitBytes=25', 200, '2026-11-22T05:40:26.39578'],
    ['previous without a previous instance is the kubelet\'s 400', '/containerLogs/default/p/c?previous=true', 400, /"message":"previous terminated container \\"c\\" in pod \\"p\\" not found"/],
    ['a container that never started', '/containerLogs/default/p/waiting', 400, /is waiting to start: ContainerCreating/],
    ['unknown paths are 404', '/spec', 404, /404 page not found/],
  ];
  for (const [name, path, code, body] of rows) {
    it(name, async () => {
      const r = await get(path);
      assert.equal(r.status, code);
      const text = await r.text();
      if (typeof body === 'string') assert.equal(text, body);
      else assert.match(text, body);
    });
  }

  const refusals: { name: string; path: string; token?: string; cert?: 'apiserver' | 'stranger' | 'nobody'; status: number; text: string | RegExp }[] = [
    { name: 'no credentials: 401 Unauthorized', path: '/metrics', status: 401, text: 'Unauthorized' },
    { name: 'a wrong token: 401 Unauthorized', path: '/containerLogs/default/p/c', token: 'wrong', status: 401, text: 'Unauthorized' },
    { name: 'a client certificate of another CA: 401 Unauthorized', path: '/metrics', cert: 'stranger', status: 401, text: 'Unauthorized' },
    { name: 'a pod\'s token: 403 as the kubelet words it', path: '/metrics', token: 'pod-token', status: 403, text: 'Forbidden (user=system:serviceaccount:default:default, verb=get, resource=nodes, subresource(s)=[metrics])' },
    { name: 'nodes/metrics does not open nodes/proxy', path: '/containerLogs/default/p/c', token: 'metrics-token', status: 403, text: 'Forbidden (user=prometheus, verb=get, resource=nodes, subresource(s)=[proxy])' },
    { name: 'nodes/metrics opens /metrics', path: '/metrics', token: 'metrics-token', status: 200, text: /container_oom/ },
    { name: 'the API server\'s client certificate is kube-apiserver-kubelet-client', path: '/containerLogs/default/p/c?tailLines=1', cert: 'apiserver', status: 200, text: 'three\n' },
    { name: 'a certificate of the CA for someone without rights: 403', path: '/healthz', cert: 'nobody', status: 403, text: 'Forbidden (user=nobody, verb=get, resource=nodes, subresource(s)=[healthz proxy])' },
  ];
  for (const r of refusals) {
    it(r.name, async () => {
      const cert = r.cert === 'apiserver' ? await certs.client('kube-apiserver-kubelet-client') : r.cert === 'stranger' ? await certs.stranger('kube-apiserver-kubelet-client') : r.cert === 'nobody' ? await certs.client('nobody', ['devs']) : undefined;
      const a = await httpsGet(base + r.path, { ca: certs.ca, ...(r.token ? { token: r.token } : {}), ...(cert ? { cert } : {}) });
      assert.equal(a.status, r.status);
      if (typeof r.text === 'string') assert.equal(a.text, r.text);
      else assert.match(a.text, r.text);
      if (r.status === 401 || r.status === 403) assert.equal(a.contentType, 'text/plain; charset=utf-8');
    });
  }

  it('serves HTTPS with the node certificate the cluster CA signed (plain HTTP is not spoken)', async () => {
    const plain = await fetch(`http://127.0.0.1:${ep.port}/healthz`).then((r) => r.status, () => 'refused');
    assert.notEqual(plain, 200);
    assert.equal((await httpsGet(`${base}/healthz`, { ca: certs.ca, token })).status, 200);
  });

  it('serves the OOM kill mode metrics', async () => {
    metrics.oomConfig.configured('Single', 0.05);
    metrics.oomConfig.configError();
    metrics.oomEvent('Group');
    const text = await (await get('/metrics')).text();
    assert.match(text, /^container_oom_kill_mode_total\{mode="Single"\} 1$/m);
    assert.match(text, /^container_oom_config_errors_total 1$/m);
    assert.match(text, /^container_oom_events_by_mode\{mode="Group"\} 1$/m);
    assert.match(text, /^container_oom_config_duration_seconds_count 1$/m);
  });

  it('follow streams new lines and ends when the container stops', async () => {
    running = true;
    const body = await new Promise<import('node:http').IncomingMessage>((ok, fail) => {
      request(`${base}/containerLogs/default/p/c?follow=true&tailLines=0`, { ca: certs.ca, agent: false, headers: { Authorization: `Bearer ${token}` } }, ok).on('error', fail).end();
    });
    const it = body[Symbol.asyncIterator]();
    const reader = { read: async () => { const n = await it.next(); return { done: !!n.done, value: n.value as Buffer }; } };
    appendFileSync(logFile, '2026-11-22T05:40:29.0+00:00 stdout F four\n');
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes('four') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    assert.equal(text, 'four\n');
    running = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    assert.equal(text, 'four\n', 'nothing more, and the stream ended');
  });
});
