// Fuzz test of the whole API surface: a real `bulkhead server` process gets thousands of
// generated requests (test/apiserver/fuzz/requests.ts) over every endpoint its discovery
// lists, every verb and body type, as the admin, a node and anonymous. A client's mistake must
// get a 4xx Status, never a 5xx; the server must not die and its peak memory must stay
// bounded. Two seeds run: a fixed one, and a random one that is printed so a failure can be
// replayed with BULKHEAD_FUZZ_SEED=<seed>.

import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from './childserver.js';
import { fuzzRequests, type Endpoint, type FuzzRequest } from './fuzz/requests.js';

const fixedSeed = 20261126;
const randomSeed = process.env.BULKHEAD_FUZZ_SEED ? Number(process.env.BULKHEAD_FUZZ_SEED) : randomInt(1, 2 ** 31);
const requestsPerSeed = Number(process.env.BULKHEAD_FUZZ_REQUESTS ?? 5000);
/** A server holding a few hundred small objects lives in ~150 MB; an unbounded body or buffer would blow far past this. */
const peakRSSBound = 768 * 1024 * 1024;

interface Answer {
  status: number;
  text: string;
  error?: string;
}

/**
 * The 5xx answers upstream gives that are no client's mistake: a resourceVersion from the future
 * is 504 Timeout; a pod's log or a node's proxy when the node cannot be reached (the fuzz node
 * has no address) is the 500 that ErrorToAPIStatus makes of the dial error, without a reason; an
 * eviction of a pod that two PodDisruptionBudgets select is eviction.go's reasonless 500.
 */
function allowed5xx(q: FuzzRequest, a: Answer): boolean {
  let st: { reason?: string; message?: string };
  try {
    st = JSON.parse(a.text) as { reason?: string; message?: string };
  } catch {
    return false;
  }
  if (a.status === 504) return st.reason === 'Timeout' && /Too large resource version/.test(st.message ?? '');
  const evictionPath = /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/eviction(\?|$)/.test(q.path);
  if (a.status === 500 && evictionPath && st.reason === undefined && st.message === 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.') return true;
  const logPath = /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/log(\?|$)/.test(q.path);
  // nodes/proxy: the same missing address, or the 503 of an agent that cannot be reached.
  const proxyPath = /^\/api\/v1\/nodes\/[^/]+\/proxy(\/|\?|$)/.test(q.path);
  if (a.status === 503) return proxyPath && st.reason === 'ServiceUnavailable' && /^error trying to reach service: /.test(st.message ?? '');
  return a.status === 500 && (logPath || proxyPath) && st.reason === undefined && /^no preferred addresses found|dial tcp/.test(st.message ?? '');
}

function send(s: ChildServer, agent: Agent, tokens: Record<string, string | undefined>, q: FuzzRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const token = tokens[q.identity];
    const req = request(
      {
        host: '127.0.0.1',
        port: s.port,
        method: q.method,
        path: q.path,
        agent,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(q.contentType !== undefined ? { 'Content-Type': q.contentType } : {}),
          ...(q.body ? { 'Content-Length': String(q.body.length) } : {}),
          Accept: 'application/json',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= 1 << 20) chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, text: '', error: e.message }));
      },
    );
    // A deadline for an answer, not a speed check: a request that never answers is a hang.
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', (e) => resolve({ status: 0, text: '', error: e.message }));
    req.end(q.body);
  });
}

async function discover(s: ChildServer): Promise<Endpoint[]> {
  const accept = { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' };
  const out: Endpoint[] = [];
  for (const root of ['/api', '/apis']) {
    const doc = (await s.client.request('GET', root, undefined, accept)).json();
    for (const g of doc.items) {
      for (const v of g.versions) {
        for (const r of v.resources) {
          out.push({
            group: g.metadata?.name ?? '',
            version: v.version,
            resource: r.resource,
            kind: r.responseKind?.kind ?? '',
            namespaced: r.scope === 'Namespaced',
            verbs: r.verbs ?? [],
            subresources: (r.subresources ?? []).map((x: { subresource: string }) => x.subresource),
          });
        }
      }
    }
  }
  return out;
}

describe('fuzz: every endpoint, verb and body type answers a client mistake with 4xx, never 5xx', () => {
  let dir: string;
  let s: ChildServer;
  let endpoints: Endpoint[];
  let tokens: Record<string, string | undefined>;
  let agent: Agent;
  let nodeName: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-fuzz-'));
    s = await startChildServer(join(dir, 'data'));
    nodeName = s.nodeName();
    tokens = { admin: s.token('bulkhead-admin'), node: s.token(`system:node:${nodeName}`), anonymous: undefined };
    agent = new Agent({ ca: s.ca, keepAlive: true, maxSockets: 8 });
    endpoints = await discover(s);
    // Objects for the named requests to find: a namespace, a node and a pod bound to it.
    await s.client.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fuzz' } });
    await s.client.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } });
    for (const ns of ['default', 'fuzz']) {
      for (const name of ['f1', 'f2']) {
        await s.client.request('POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] } });
      }
    }
    console.log(`fuzz: ${endpoints.length} endpoints; seeds ${fixedSeed} (fixed) and ${randomSeed} (random; replay with BULKHEAD_FUZZ_SEED=${randomSeed}); ${requestsPerSeed} requests each`);
  });

  after(async () => {
    agent?.destroy();
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('discovery lists the core resources the fuzzer must cover', () => {
    const served = new Set(endpoints.map((e) => `${e.group}/${e.resource}`));
    for (const r of ['/pods', '/namespaces', '/nodes', '/resourcequotas', '/limitranges', '/events', '/configmaps', '/secrets', '/serviceaccounts', 'batch/jobs', 'batch/cronjobs', 'coordination.k8s.io/leases', 'scheduling.k8s.io/priorityclasses', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets', 'apps/controllerrevisions']) assert.ok(served.has(r), `discovery lacks ${r}`);
  });

  for (const [which, seed] of [['fixed', fixedSeed], ['random', randomSeed]] as const) {
    it(`seed ${seed} (${which}): no 5xx, every error is a Status, the server lives`, async () => {
      const failures: string[] = [];
      const counts = new Map<number, number>();
      const queue = fuzzRequests(seed, endpoints, requestsPerSeed, nodeName);
      let index = 0;
      const worker = async () => {
        for (;;) {
          const next = queue.next();
          if (next.done) return;
          const i = index++;
          const q = next.value;
          const a = await send(s, agent, tokens, q);
          counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
          const where = `#${i} ${q.identity} ${q.method} ${q.path} [${q.contentType ?? '-'}] ${q.label}`;
          if (a.error || a.status === 0) failures.push(`${where} → connection error: ${a.error}`);
          else if (a.status >= 500 && !allowed5xx(q, a)) failures.push(`${where} → ${a.status} ${a.text.slice(0, 300)}`);
          else if (a.status >= 400 && q.method !== 'HEAD') {
            let st: { kind?: string; code?: number } | undefined;
            try {
              st = JSON.parse(a.text);
            } catch {
              st = undefined;
            }
            if (st?.kind !== 'Status' || st.code !== a.status) failures.push(`${where} → ${a.status} without a matching Status body: ${a.text.slice(0, 200)}`);
          }
          if (failures.length >= 20) return;
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      const summary = [...counts].sort((x, y) => x[0] - y[0]).map(([c, n]) => `${c}:${n}`).join(' ');
      console.log(`fuzz seed ${seed}: ${index} requests; status counts ${summary}`);
      assert.equal(s.child.exitCode, null, `the server exited (seed ${seed}):\n${s.output().slice(-2000)}`);
      assert.deepEqual(failures, [], `seed ${seed}: replay with BULKHEAD_FUZZ_SEED=${seed}`);
      const ready = await s.client.request('GET', '/readyz');
      assert.equal(ready.status, 200);
      const peak = s.peakRSS();
      assert.ok(peak < peakRSSBound, `peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB exceeds ${peakRSSBound / 2 ** 20} MiB (seed ${seed})`);
    });
  }
});
