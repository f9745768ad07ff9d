// The read half of `npm run bench:api` (issue 13): LIST of the stored pods as JSON and as a
// Table (kubectl get's Accept), watch fan-out to 50 watchers, and the server's RSS. Each figure
// is printed beside a baseline measured in the same run: a no-op HTTPS round trip over the same
// connection pool, JSON.parse + JSON.stringify of the same list, a bare Node HTTPS server
// sending the same list body to the same client (the floor of a LIST here: TLS, loopback and
// the client's own reading of 13 MB), the creates' own round trips, and the server's RSS before
// anything was stored. The client asks as kubectl's does (Go's transport adds
// `Accept-Encoding: gzip` and decompresses as it reads), so the LISTs come gzipped (level 1, as
// kube-apiserver compresses bodies over 128 KiB) and the bare server compresses its body the
// same way; each LIST is also measured without Accept-Encoding, on its own labelled line. The LISTs start right after the creates, while the server still
// schedules and records events for them (their CPU is in the server's CPU per LIST);
// BENCH_LIST_SETTLE=1 waits until the server is quiet (under 50 ms of CPU in a second) first.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nodeFlags } from '../src/cli/nodeflags.js';
import { Client } from '../test/apiserver/client.js';
import { freePort } from '../test/freeport.js';

/** What kubectl's transport adds to every request (client-go leaves DisableCompression off). */
const gzipAsKubectl = { 'Accept-Encoding': 'gzip' };
/** kubectl get's Accept header. */
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const listRuns = 10;
const watchers = 50;
const watchCreates = 1000;
const watchConcurrency = 1;

export interface ReadFigures {
  pods: number;
  /** Mean server-side time of a LIST (apiserver_request_duration_seconds, to the response's last write). */
  serverJSONms: number;
  serverTablems: number;
  noop: Stats;
  /** GETs of the JSON list's body from a bare HTTPS server, alternating with the JSON LISTs. */
  floor: ByEncoding<Stats>;
  floorCPUms: ByEncoding<CPU>;
  /** The first LIST (JSON, not compressed): it encodes every object (they were created since). */
  firstListms: number;
  firstListCPUms: CPU;
  /** The server's CPU time for each later LIST, background work included. */
  serverCPUJSONms: ByEncoding<CPU[]>;
  serverCPUTablems: ByEncoding<CPU[]>;
  listJSON: ByEncoding<Stats>;
  listTable: ByEncoding<Stats>;
  /** Bytes on the wire of the gzipped JSON list. */
  listGzipBytes: number;
  parseStringify: Stats;
  listBytes: number;
  rssEmptyMB: number;
  rssStoredMB: number;
  rssAfterListsMB: number;
  memStored?: MemoryBreakdown;
  memAfterLists?: MemoryBreakdown;
  watch: { p50: number; p99: number; max: number; events: number; createP99: number };
}

interface Stats {
  min: number;
  median: number;
  max: number;
}

/** A figure with the client asking for gzip (as kubectl does) and without. */
interface ByEncoding<T> {
  gzip: T;
  plain: T;
}

/** A process's CPU time in ms: all its threads, and its main thread (JavaScript's). */
export interface CPU {
  total: number;
  main: number;
}

/** The median of each of total and main-thread CPU. */
function medianCPU(xs: CPU[]): CPU {
  return { total: stats(xs.map((x) => x.total)).median, main: stats(xs.map((x) => x.main)).median };
}

function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The server's resident set in MB (Linux). */
export function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Where a process's resident memory is, in MB: from /proc/PID/smaps and the server's /metrics. */
export interface MemoryBreakdown {
  rss: number;
  /** File-backed pages (the node binary, shared libraries, mapped files). */
  file: number;
  anon: number;
  /** glibc's main arena (the brk heap). */
  brk: number;
  /** Anonymous mappings starting on a 64 MiB boundary: glibc's per-thread malloc arenas (mostly). */
  arenas: number;
  /** Pages freed with MADV_FREE (V8 frees its pages so) that the kernel has not taken back yet: counted in RSS. */
  lazyFree: number;
  /** V8's heap as committed (all spaces) and as used by live and not yet collected objects. */
  v8Committed: number;
  v8Used: number;
  spaces: Record<string, { committed: number; used: number }>;
  external: number;
  arrayBuffers: number;
  malloced: number;
}

function smapsBreakdown(pid: number): Pick<MemoryBreakdown, 'rss' | 'file' | 'anon' | 'brk' | 'arenas' | 'lazyFree'> {
  const out = { rss: 0, file: 0, anon: 0, brk: 0, arenas: 0, lazyFree: 0 };
  let name = '';
  let start = 0n;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      start = BigInt(`0x${m[1]}`);
      name = m[2]!;
      continue;
    }
    if (line.startsWith('LazyFree:')) out.lazyFree += Number(/(\d+)/.exec(line)![1]) / 1024;
    if (!line.startsWith('Rss:')) continue;
    const kb = Number(/(\d+)/.exec(line)![1]) / 1024;
    out.rss += kb;
    if (name.startsWith('/')) out.file += kb;
    else {
      out.anon += kb;
      if (name === '[heap]') out.brk += kb;
      else if (name === '' && start % (64n << 20n) === 0n) out.arenas += kb;
    }
  }
  return out;
}

export async function memoryBreakdown(pid: number, client: Client): Promise<MemoryBreakdown> {
  const text = (await client.request('GET', '/metrics')).text;
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  const spaces: MemoryBreakdown['spaces'] = {};
  for (const m of text.matchAll(/^nodejs_heap_space_size_(total|used)_bytes\{space="([^"]+)"\} (\S+)$/gm)) {
    const s = (spaces[m[2]!] ??= { committed: 0, used: 0 });
    s[m[1] === 'total' ? 'committed' : 'used'] = Number(m[3]) / 2 ** 20;
  }
  return {
    ...smapsBreakdown(pid),
    v8Committed: value('nodejs_heap_size_total_bytes'),
    v8Used: value('nodejs_heap_size_used_bytes'),
    spaces,
    external: value('nodejs_external_memory_bytes'),
    arrayBuffers: value('nodejs_array_buffers_bytes'),
    malloced: value('nodejs_malloced_memory_bytes'),
  };
}

export function printMemory(label: string, b: MemoryBreakdown): void {
  const f = (v: number) => v.toFixed(0);
  const spaces = Object.entries(b.spaces)
    .filter(([, s]) => s.committed >= 0.5)
    .map(([n, s]) => `${n} ${f(s.committed)}/${f(s.used)}`)
    .join(', ');
  console.log(`memory    ${label}: RSS ${f(b.rss)} MB = file-backed ${f(b.file)} + anonymous ${f(b.anon)} (brk heap ${f(b.brk)}, 64 MiB-aligned arenas ${f(b.arenas)}, lazily freed ${f(b.lazyFree)}); V8 heap committed ${f(b.v8Committed)} MiB, used ${f(b.v8Used)} (committed/used: ${spaces}); external ${f(b.external)} (ArrayBuffers ${f(b.arrayBuffers)}), V8 malloced ${f(b.malloced)}`);
}

/** The server's own total and count of pod LIST durations, from its /metrics. */
async function listSeconds(client: Client): Promise<{ sum: number; count: number }> {
  const text = (await client.request('GET', '/metrics')).text;
  const read = (suffix: string) => {
    let total = 0;
    for (const line of text.split('\n')) {
      if (line.startsWith(`apiserver_request_duration_seconds_${suffix}{`) && line.includes('verb="LIST"') && line.includes('resource="pods"')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return total;
  };
  return { sum: read('sum'), count: read('count') };
}

/** A process's CPU time (user + system) in ms, from /proc; with `tid`, that thread's only. */
export function cpuMs(pid: number | undefined, tid?: number): number {
  try {
    // Fields after the command name (which may hold spaces) start at state; utime, stime are 14, 15.
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Main thread and total CPU of a process, in ms, from /proc (the main thread's task id is its pid). */
export function cpuOf(pid: number | undefined): CPU {
  return { total: cpuMs(pid), main: cpuMs(pid, pid) };
}

const cpuSince = (pid: number | undefined, c0: CPU): CPU => {
  const c = cpuOf(pid);
  return { total: c.total - c0.total, main: c.main - c0.main };
};

/**
 * The floor under a LIST: a bare Node HTTPS server with the API server's TLS settings
 * (certificate chain, client certificates asked for) and node flags, sending a prebuilt body as
 * the API server sends a LIST (64 KiB pieces, corked, chunked), gzipped as the API server
 * gzips it (zlib's stream at level 1) when the request asks for gzip.
 */
const bareListServer = `
const { createServer } = require('node:https');
const { readFileSync } = require('node:fs');
const { pipeline } = require('node:stream');
const { createGzip } = require('node:zlib');
const [pki, bodyFile, port] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const pieces = [];
for (let i = 0; i < body.length; i += 65536) pieces.push(body.subarray(i, i + 65536));
const ca = readFileSync(pki + '/ca.crt', 'utf8');
createServer({ cert: readFileSync(pki + '/apiserver.crt', 'utf8') + ca, key: readFileSync(pki + '/apiserver.key'), ca, requestCert: true, rejectUnauthorized: false }, (q, s) => {
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' };
  if (q.headers['accept-encoding'] === 'gzip') {
    s.writeHead(200, { ...headers, 'Content-Encoding': 'gzip', Vary: ['Accept-Encoding'] });
    const gz = createGzip({ level: 1 });
    pipeline(gz, s, () => {});
    for (const p of pieces) gz.write(p);
    gz.end();
    return;
  }
  s.writeHead(200, headers);
  s.cork();
  for (const p of pieces) s.write(p);
  s.end();
}).listen(+port, '127.0.0.1', () => process.stdout.write('ready\\n'));
`;

async function startBareListServer(pkiDir: string, body: Buffer): Promise<{ client: Client; pid: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-bench-floor-'));
  writeFileSync(join(dir, 'bare.cjs'), bareListServer);
  writeFileSync(join(dir, 'body.json'), body);
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, join(dir, 'bare.cjs'), pkiDir, join(dir, 'body.json'), String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
  const client = new Client(`https://127.0.0.1:${port}`, readFileSync(join(pkiDir, 'ca.crt'), 'utf8'));
  return {
    client,
    pid: child.pid!,
    stop: async () => {
      client.close();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export interface ReadOptions {
  client: Client;
  baseURL: string;
  ca: string;
  token: string;
  serverPid: number;
  /** The server's PKI (ca.crt, apiserver.crt, apiserver.key), for the bare server. */
  pkiDir: string;
  rssEmptyMB: number;
  namespace: string;
  /** Pods already in `namespace`. */
  stored: number;
  /** The pods to store before listing (created here beyond `stored`). */
  target: number;
  pod(i: number): unknown;
}

export async function measureReadPath(o: ReadOptions): Promise<ReadFigures> {
  const { client } = o;
  const post = async (path: string, body: unknown) => {
    const r = await client.request('POST', path, body);
    if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
  };
  // Top the namespace up to `target` pods.
  let next = o.stored;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < o.target) {
        const i = 100_000 + next++;
        await post(`/api/v1/namespaces/${o.namespace}/pods`, o.pod(i));
      }
    }),
  );
  const rssStoredMB = rssMB(o.serverPid);
  const memStored = await memoryBreakdown(o.serverPid, client);

  const noop: number[] = [];
  for (let i = 0; i < 50; i++) noop.push(await timed(async () => void (await client.request('GET', '/version'))));

  const listPath = `/api/v1/namespaces/${o.namespace}/pods`;
  const listJSON: ByEncoding<number[]> = { gzip: [], plain: [] };
  const listTable: ByEncoding<number[]> = { gzip: [], plain: [] };
  const floor: ByEncoding<number[]> = { gzip: [], plain: [] };
  const floorCPU: ByEncoding<CPU[]> = { gzip: [], plain: [] };
  const jsonCPU: ByEncoding<CPU[]> = { gzip: [], plain: [] };
  const tableCPU: ByEncoding<CPU[]> = { gzip: [], plain: [] };
  let listGzipBytes = 0;
  const encodings = ['gzip', 'plain'] as const;
  const headersFor = (e: 'gzip' | 'plain', h: Record<string, string> = {}) => (e === 'gzip' ? { ...h, ...gzipAsKubectl } : h);
  /** One LIST of `listPath`; its time and the server's CPU are pushed to `times` and `cpu`. */
  const list = async (e: 'gzip' | 'plain', table: boolean, times: number[], cpu: CPU[]): Promise<string> => {
    const c0 = cpuOf(o.serverPid);
    let text = '';
    times.push(
      await timed(async () => {
        const r = await client.request('GET', listPath, undefined, headersFor(e, table ? { Accept: tableAccept } : {}));
        if (r.status !== 200 || (table && !r.text.startsWith('{"kind":"Table"'))) throw new Error(`LIST${table ? ' as Table' : ''}: ${r.status} ${r.text.slice(0, 200)}`);
        if ((r.headers['content-encoding'] === 'gzip') !== (e === 'gzip')) throw new Error(`LIST: Content-Encoding ${r.headers['content-encoding']} for ${e}`);
        if (e === 'gzip' && !table) listGzipBytes = r.raw.length;
        text = r.text;
      }),
    );
    cpu.push(cpuSince(o.serverPid, c0));
    return text;
  };
  if (process.env.BENCH_LIST_SETTLE) {
    const t = performance.now();
    for (let last = cpuMs(o.serverPid), i = 0; i < 60; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const c = cpuMs(o.serverPid);
      if (c - last < 50) break;
      last = c;
    }
    console.log(`settle    server quiet after ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const m0 = await listSeconds(client);
  // The first LIST's body is the bare server's; then the floor and the LIST, with and without
  // gzip, alternate, so that the machine's busy moments fall on all of them alike.
  const first: number[] = [];
  const firstCPU: CPU[] = [];
  const body = await list('plain', false, first, firstCPU);
  const bare = await startBareListServer(o.pkiDir, Buffer.from(body));
  try {
    for (let i = 0; i < listRuns; i++) {
      for (const e of encodings) {
        const c0 = cpuOf(bare.pid);
        floor[e].push(
          await timed(async () => {
            const r = await bare.client.request('GET', '/', undefined, headersFor(e));
            if (r.status !== 200 || r.text.length !== body.length) throw new Error(`bare server: ${r.status}, ${r.text.length} characters`);
          }),
        );
        floorCPU[e].push(cpuSince(bare.pid, c0));
        await list(e, false, listJSON[e], jsonCPU[e]);
      }
    }
  } finally {
    await bare.stop();
  }
  const m1 = await listSeconds(client);
  for (let i = 0; i < listRuns; i++) for (const e of encodings) await list(e, true, listTable[e], tableCPU[e]);
  const m2 = await listSeconds(client);
  const serverJSONms = ((m1.sum - m0.sum) / Math.max(1, m1.count - m0.count)) * 1000;
  const serverTablems = ((m2.sum - m1.sum) / Math.max(1, m2.count - m1.count)) * 1000;
  const pods = (JSON.parse(body) as { items: unknown[] }).items.length;
  const parseStringify: number[] = [];
  for (let i = 0; i < 5; i++) parseStringify.push(await timed(async () => void JSON.stringify(JSON.parse(body))));
  const rssAfterListsMB = rssMB(o.serverPid);
  const memAfterLists = await memoryBreakdown(o.serverPid, client);

  const watch = await measureFanOut(o);
  const both = <T, U>(x: ByEncoding<T>, f: (v: T) => U): ByEncoding<U> => ({ gzip: f(x.gzip), plain: f(x.plain) });
  return {
    pods,
    serverJSONms,
    serverTablems,
    noop: stats(noop),
    floor: both(floor, stats),
    floorCPUms: both(floorCPU, medianCPU),
    firstListms: first[0]!,
    firstListCPUms: firstCPU[0]!,
    serverCPUJSONms: jsonCPU,
    serverCPUTablems: tableCPU,
    listJSON: both(listJSON, stats),
    listTable: both(listTable, stats),
    listGzipBytes,
    parseStringify: stats(parseStringify),
    listBytes: body.length,
    rssEmptyMB: o.rssEmptyMB,
    rssStoredMB,
    rssAfterListsMB,
    memStored,
    memAfterLists,
    watch,
  };
}

/**
 * 50 watchers of a namespace, then 1,000 pod creates into it, one at a time. A delivery's
 * latency runs from the create's request to that watcher reading the event; the creates' own
 * round trips are the floor (the server sends the events before the create's response).
 */
async function measureFanOut(o: ReadOptions): Promise<ReadFigures['watch']> {
  const ns = 'fanout';
  const r = await o.client.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  if (r.status !== 201) throw new Error(`namespace: ${r.status} ${r.text}`);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const agent = new Agent({ ca: o.ca, keepAlive: true, maxSockets: watchers });
  const open: { destroy(): void }[] = [];
  let received = 0;
  let allReceived!: () => void;
  const done = new Promise<void>((r) => (allReceived = r));
  const nameRe = /"name":"(fan-\d+)"/;
  await Promise.all(
    Array.from(
      { length: watchers },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = request(new URL(`/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=0`, o.baseURL), { agent, headers: { Authorization: `Bearer ${o.token}`, Accept: 'application/json' } }, (res) => {
            if (res.statusCode !== 200) return reject(new Error(`watch: ${res.statusCode}`));
            resolve();
            let rest = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              const now = performance.now();
              rest += chunk;
              let nl: number;
              while ((nl = rest.indexOf('\n')) >= 0) {
                const line = rest.slice(0, nl);
                rest = rest.slice(nl + 1);
                // Pods are modified after their create (status): only the ADDED counts.
                if (!line.startsWith('{"type":"ADDED"')) continue;
                const name = nameRe.exec(line)?.[1];
                const sent = name === undefined ? undefined : sentAt.get(name);
                if (sent === undefined) continue;
                latencies.push(now - sent);
                if (++received === watchers * watchCreates) allReceived();
              }
            });
          });
          req.on('error', reject);
          req.end();
          open.push(req);
        }),
    ),
  );
  const createLatencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: watchConcurrency }, async () => {
      while (next < watchCreates) {
        const name = `fan-${next++}`;
        const t = performance.now();
        sentAt.set(name, t);
        const c = await o.client.request('POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } });
        if (c.status !== 201) throw new Error(`create: ${c.status} ${c.text}`);
        createLatencies.push(performance.now() - t);
      }
    }),
  );
  const timeout = new Promise<void>((r) => setTimeout(r, 30_000).unref());
  await Promise.race([done, timeout]);
  for (const req of open) req.destroy();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  createLatencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? NaN, events: latencies.length, createP99: percentile(createLatencies, 99) };
}

export function printReadPath(f: ReadFigures): boolean {
  const ms = (s: Stats) => `${s.min.toFixed(1)} / ${s.median.toFixed(1)} / ${s.max.toFixed(1)} ms`;
  const cpu = (c: CPU) => `${c.total.toFixed(0)} ms (main thread ${c.main.toFixed(0)})`;
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  console.log(`baseline  no-op HTTPS round trip (GET /version, same pool)  min/median/max ${ms(f.noop)}`);
  console.log(`baseline  JSON.parse + stringify of the list (${mib(f.listBytes)})   min/median/max ${ms(f.parseStringify)}`);
  console.log(`baseline  bare HTTPS server sending that list body gzipped (same TLS, client; ${mib(f.listGzipBytes)} on the wire)   min/median/max ${ms(f.floor.gzip)}   its CPU ${cpu(f.floorCPUms.gzip)} per GET`);
  console.log(`baseline  bare HTTPS server sending that list body, no gzip                              min/median/max ${ms(f.floor.plain)}   its CPU ${cpu(f.floorCPUms.plain)} per GET`);
  console.log(`list      LIST ${f.pods} pods as JSON (kubectl's Accept-Encoding: gzip)   min/median/max ${ms(f.listJSON.gzip)}`);
  console.log(`list      LIST ${f.pods} pods as JSON, no gzip                            min/median/max ${ms(f.listJSON.plain)}`);
  console.log(`list      LIST ${f.pods} pods as Table (kubectl get, gzip)                min/median/max ${ms(f.listTable.gzip)}`);
  console.log(`list      LIST ${f.pods} pods as Table, no gzip                           min/median/max ${ms(f.listTable.plain)}`);
  console.log(`list      first LIST (JSON, no gzip: encodes every object) ${f.firstListms.toFixed(1)} ms, server CPU ${cpu(f.firstListCPUms)}`);
  console.log(`list      server-side mean (request metrics, both encodings): JSON ${f.serverJSONms.toFixed(1)} ms, Table ${f.serverTablems.toFixed(1)} ms`);
  const med = (xs: CPU[]) => cpu(medianCPU(xs));
  console.log(`list      server CPU per LIST, median (background work included): JSON gzip ${med(f.serverCPUJSONms.gzip)}, no gzip ${med(f.serverCPUJSONms.plain)}; Table gzip ${med(f.serverCPUTablems.gzip)}, no gzip ${med(f.serverCPUTablems.plain)}`);
  console.log(`baseline  creates' own round trip (${watchConcurrency} client)              p99 ${f.watch.createP99.toFixed(1)} ms`);
  console.log(`watch     ${watchers} watchers × ${watchCreates} creates, delivery (${f.watch.events} events)   p50 ${f.watch.p50.toFixed(1)} ms   p99 ${f.watch.p99.toFixed(1)} ms   max ${f.watch.max.toFixed(1)} ms`);
  console.log(`baseline  server RSS, empty store                                 ${f.rssEmptyMB.toFixed(0)} MB`);
  console.log(`rss       server RSS with ${f.pods} pods stored / after the LISTs     ${f.rssStoredMB.toFixed(0)} MB / ${f.rssAfterListsMB.toFixed(0)} MB`);
  if (f.memStored) printMemory(`${f.pods} pods stored`, f.memStored);
  if (f.memAfterLists) printMemory('after the LISTs', f.memAfterLists);
  const met = f.listJSON.gzip.median <= 100 && f.listTable.gzip.median <= 100 && f.watch.p99 <= 100 && f.watch.events === watchers * watchCreates && f.rssStoredMB <= 150;
  console.log(`target    LIST <= 100 ms median, watch p99 <= 100 ms, RSS <= 150 MB with 5,000 pods: ${met ? 'met' : 'NOT MET'}`);
  return met;
}
