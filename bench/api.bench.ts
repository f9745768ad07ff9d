// Creates pods through the full admission chain of a real `bulkhead server` (HTTPS, bearer
// token, SQLite store, 10 ResourceQuotas and a LimitRange in the namespace, Pod Security
// labels) and prints creates/s with p50/p99 latency, next to the raw SQLite store's write rate
// measured in the same run on the same disk. The server runs in its own process; this one
// only generates load.
//   npm run bench:api      (BENCH_CREATES=N, BENCH_CONCURRENCY=C)

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { measureRawStoreWrites } from '../src/storage/bench.js';
import { SqliteStore } from '../src/storage/sqlite.js';
import { Client } from '../test/apiserver/client.js';
import { nodeFlags } from '../src/cli/nodeflags.js';

const creates = Number(process.env.BENCH_CREATES ?? 3000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const mainJs = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function rawBaseline(dir: string): Promise<number> {
  const store = await SqliteStore.open(join(dir, 'raw.db'));
  try {
    return (await measureRawStoreWrites(store, 5000)).perSecond;
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-bench-api-'));
  const dataDir = join(dir, 'data');
  const port = await freePort();
  // The server runs as ./bulkhead runs it, plus any extra flags (e.g. --cpu-prof) for profiling.
  const nodeArgs = [...nodeFlags, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const server = spawn(process.execPath, [...nodeArgs, mainJs, 'server', '--data-dir', dataDir, '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (d) => (log += d));
  server.stderr.on('data', (d) => (log += d));
  try {
    const deadline = Date.now() + 30_000;
    while (!log.includes('is running at')) {
      if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const token = (JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8')) as { token: string; user: string }[]).find((t) => t.user === 'bulkhead-admin')!.token;
    const client = new Client(`https://127.0.0.1:${port}`, readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8'), token, concurrency);
    const post = async (path: string, body: unknown) => {
      const r = await client.request('POST', path, body);
      if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
    };
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench', labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' } } });
    const quotas: [string, Record<string, string>, string[]?][] = [
      ['pods', { pods: '1000000' }],
      ['requests', { 'requests.cpu': '100000', 'requests.memory': '100000Gi' }],
      ['limits', { 'limits.cpu': '100000', 'limits.memory': '100000Gi' }],
      ['compute', { cpu: '100000', memory: '100000Gi' }],
      ['count', { 'count/pods': '1000000' }],
      ['best-effort', { pods: '1000000' }, ['BestEffort']],
      ['not-best-effort', { pods: '1000000', 'requests.cpu': '100000' }, ['NotBestEffort']],
      ['terminating', { pods: '1000000' }, ['Terminating']],
      ['not-terminating', { pods: '1000000', 'limits.memory': '100000Gi' }, ['NotTerminating']],
      ['ephemeral', { 'requests.ephemeral-storage': '100000Gi' }],
    ];
    for (const [name, hard, scopes] of quotas) {
      await post('/api/v1/namespaces/bench/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...(scopes ? { scopes } : {}) } });
    }
    await post('/api/v1/namespaces/bench/limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'defaults' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' }, max: { memory: '8Gi' } }] } });
    // The quota controller fills status before quotas constrain anything.
    while ((await client.request('GET', '/api/v1/namespaces/bench/resourcequotas')).json().items.some((q: { status?: { used?: unknown } }) => !q.status?.used)) {
      await new Promise((r) => setTimeout(r, 50));
    }

    const pod = (i: number) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `pod-${i}`, labels: { app: 'bench' } },
      spec: {
        containers: [{ name: 'app', image: 'busybox:1.36', oomKillMode: i % 2 ? 'Single' : 'Group', resources: i % 3 === 0 ? { limits: { cpu: '250m', memory: '128Mi' } } : {} }],
      },
    });
    // Warm-up, not measured.
    for (let i = 0; i < 100; i++) await post('/api/v1/namespaces/bench/pods', pod(-1 - i));

    const latencies: number[] = [];
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < creates) {
          const i = next++;
          const t = performance.now();
          await post('/api/v1/namespaces/bench/pods', pod(i));
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    client.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    const raw = await rawBaseline(dir);

    latencies.sort((a, b) => a - b);
    const rate = creates / seconds;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`);
    console.log(`load: ${creates} pod creates, ${concurrency} concurrent, namespace with 10 quotas, a LimitRange and Pod Security labels`);
    console.log(`baseline  raw SQLite store creates (1 KiB, one per write)  ${Math.round(raw).toLocaleString('en-US').padStart(7)} writes/s`);
    console.log(`api       POST pods through admission over HTTPS           ${Math.round(rate).toLocaleString('en-US').padStart(7)} creates/s   p50 ${p50.toFixed(1)} ms   p99 ${p99.toFixed(1)} ms`);
    const met = rate >= 1000 && p99 < 50;
    console.log(`target    >= 1,000 creates/s and p99 < 50 ms: ${met ? 'met' : 'NOT MET'}`);
    if (!met) process.exitCode = 1;
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
