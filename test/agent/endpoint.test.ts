// The agent endpoint (the kubelet's :10250 counterpart): bearer-token authentication, logs in
// kubectl's format from a conmon k8s-file log (tail, timestamps, limitBytes, follow until the
// container stops), the kubelet's error texts as Status bodies, and metrics.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEndpoint, type LogTarget } from '../../src/agent/endpoint.js';
import { AgentMetrics } from '../../src/agent/metrics.js';

const token = 'node-secret';
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

describe('agent endpoint', () => {
  let ep: Awaited<ReturnType<typeof startEndpoint>>;
  let base: string;
  before(async () => {
    ep = await startEndpoint({
      host: '127.0.0.1',
      port: 0,
      token,
      logs: (ns, pod, container, previous): LogTarget => {
        if (previous) return { missing: `previous terminated container "${container}" in pod "${pod}" not found`, running: () => false };
        if (container === 'waiting') return { missing: `container "waiting" in pod "${pod}" is waiting to start: ContainerCreating`, running: () => false };
        return { path: logFile, running: () => running };
      },
      metrics: () => metrics.render(),
      metricsContentType: metrics.contentType,
    });
    base = `http://127.0.0.1:${ep.port}`;
  });
  after(async () => {
    await ep.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const get = (path: string, auth = token) => fetch(base + path, { headers: { Authorization: `Bearer ${auth}` } });

  const rows: [string, string, number, string | RegExp][] = [
    ['healthz needs no token', '/healthz', 200, 'ok'],
    ['logs as kubectl prints them, partial lines joined', '/containerLogs/default/p/c', 200, 'one\ntwo\nthree\n'],
    ['tailLines keeps the last lines', '/containerLogs/default/p/c?tailLines=1', 200, 'three\n'],
    ['timestamps in RFC 3339 nanoseconds, UTC', '/containerLogs/default/p/c?timestamps=true&tailLines=2', 200, '2026-11-22T05:40:27Z two\n2026-11-22T05:40:28.5Z three\n'],
    ['limitBytes cuts the output', '/containerLogs/default/p/c?limitBytes=6', 200, 'one\ntw'],
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

  it('refuses a wrong or missing token with 401', async () => {
    assert.equal((await get('/containerLogs/default/p/c', 'wrong')).status, 401);
    assert.equal((await fetch(`${base}/metrics`)).status, 401);
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
    const r = await get('/containerLogs/default/p/c?follow=true&tailLines=0');
    const reader = r.body!.getReader();
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
