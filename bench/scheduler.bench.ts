// The scheduler's placement rate, in process, on fake Nodes as KWOK makes them (Node objects
// with allocatable and a Ready condition; no agent): pending pods are created first with the
// scheduler off, then a scheduler starts and the time until every pod is bound is measured.
// Printed beside the same-run baseline of the writes alone — the same number of bindings POSTed
// straight through the same loopback client — and with the client-side rate limit kube-scheduler
// uses remotely (50 QPS, burst 100) as well as without it (the default in process). The end is
// seen through a watch of the pods (each pod's first event with spec.nodeName), not by listing
// them, which took CPU from the scheduler that a real cluster's scheduler would not lose.
// Beside each wall-clock rate, the process's CPU time for the same work (the server, the
// scheduler and the bench share the process): on a machine shared with other work, pods per
// CPU-second is the figure that load changes least.
//   npm run bench:scheduler      (BENCH_PODS=N, BENCH_NODES=list, e.g. 100,1000; BENCH_REMOTE=0
//                                 leaves out the 50 QPS row)

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultFeatureGates } from '../src/api/featuregates.js';
import type { Node, Pod } from '../src/api/types.js';
import { SharedInformerFactory } from '../src/client/factory.js';
import { LoopbackClient } from '../src/client/loopback.js';
import { nodesRef, podsRef } from '../src/client/resources.js';
import { SchedulerController, schedulerIdentity } from '../src/controllers/scheduler.js';
import { startServer, type RunningServer } from '../src/server/start.js';

const podCount = Number(process.env.BENCH_PODS ?? 1000);
const nodeCounts = (process.env.BENCH_NODES ?? '100,1000').split(',').map(Number);

function fakeNode(name: string): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, type: 'kwok' } },
    spec: {},
    status: {
      capacity: { cpu: '32', memory: '256Gi', pods: '110' },
      allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'fake node' }],
    },
  } as Node;
}

function pendingPod(name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
  } as Pod;
}

const nodeName = (i: number) => `kwok-node-${i}`;

async function populateNodes(admin: LoopbackClient, nodes: number): Promise<void> {
  for (let i = 0; i < nodes; i++) {
    const n = await admin.create(nodesRef, undefined, fakeNode(nodeName(i)));
    await admin.update(nodesRef, undefined, { ...n, status: fakeNode(nodeName(i)).status }, { subresource: 'status' });
  }
}

async function populatePods(admin: LoopbackClient, pods: number, ns: string): Promise<void> {
  await admin.create({ group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false }, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const batch = 64;
  for (let i = 0; i < pods; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, pods - i) }, (_, j) => admin.create(podsRef, ns, pendingPod(`p-${i + j}`))));
  }
}

async function unbound(admin: LoopbackClient, ns: string): Promise<number> {
  return (await admin.list(podsRef, ns, { fieldSelector: 'spec.nodeName=' })).items.length;
}

/** Resolves when every one of `count` pods of `ns` has been seen bound by a watch started now. */
async function allBound(admin: LoopbackClient, ns: string, count: number): Promise<{ done: Promise<void>; stop: () => void }> {
  const { resourceVersion } = await admin.list(podsRef, ns, { limit: 1 });
  const bound = new Set<string>();
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  const w = await admin.watch<Pod>(podsRef, ns, { resourceVersion }, {
    event: (e) => {
      if (e.type !== 'MODIFIED' || !e.object.spec?.nodeName) return;
      bound.add(e.object.metadata.name ?? '');
      if (bound.size === count) resolve();
    },
    end: () => reject(new Error(`watch of ${ns} ended with ${bound.size} of ${count} pods bound`)),
  });
  return { done, stop: () => w.stop() };
}

interface Timing {
  seconds: number;
  cpuSeconds: number;
}

/** Wall-clock and process CPU seconds of `work`. */
async function timed(work: () => Promise<void>): Promise<Timing> {
  const t = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - t) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** The time for a scheduler (with this client rate limit) to bind every pending pod of `ns`, from its start. */
async function schedule(s: RunningServer, admin: LoopbackClient, ns: string, qps: number): Promise<Timing> {
  const informers = new SharedInformerFactory(new LoopbackClient(s.api, schedulerIdentity));
  const scheduler = new SchedulerController(new LoopbackClient(s.api, schedulerIdentity), informers, { gates: defaultFeatureGates, qps, burst: qps ? 100 : 0 });
  const watch = await allBound(admin, ns, podCount);
  const timing = await timed(async () => {
    await scheduler.start();
    await watch.done;
  });
  watch.stop();
  await scheduler.stop();
  informers.stop();
  const left = await unbound(admin, ns);
  if (left > 0) throw new Error(`${left} pods of ${ns} left unbound`);
  return timing;
}

/** The baseline: the same bindings POSTed one after another through the loopback client. */
async function rawBindings(admin: LoopbackClient, ns: string, nodes: number): Promise<Timing> {
  return timed(async () => {
    for (let i = 0; i < podCount; i++) await admin.bind(ns, `p-${i}`, nodeName(i % nodes));
  });
}

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
  for (const nodes of nodeCounts) {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-bench-scheduler-'));
    // The fake nodes never renew a Lease: a grace period longer than the run keeps them Ready.
    const s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, workloadControllers: false, nodeLifecycle: { gracePeriodMs: 3_600_000 } });
    try {
      const rows: [string, Timing][] = [];
      const admin = new LoopbackClient(s.api, { user: 'bench-admin', groups: ['system:masters'], userAgent: 'bench' });
      await populateNodes(admin, nodes);
      await populatePods(admin, podCount, 'raw');
      rows.push(['bindings alone (baseline)', await rawBindings(admin, 'raw', nodes)]);
      const runs = [['scheduler, unthrottled (in process)', 0], ['scheduler, 50 QPS burst 100 (remote default)', 50]] as const;
      for (const [label, qps] of runs.filter(([, q]) => q === 0 || process.env.BENCH_REMOTE !== '0')) {
        const ns = qps ? 'throttled' : 'free';
        await populatePods(admin, podCount, ns);
        rows.push([label, await schedule(s, admin, ns, qps)]);
      }
      console.log(`\n${podCount} pending pods, ${nodes} fake nodes (SQLite store, loopback client):`);
      for (const [label, t] of rows) {
        console.log(`  ${label.padEnd(46)} ${(podCount / t.seconds).toFixed(0).padStart(6)} pods/s  (CPU ${(t.cpuSeconds * 1000).toFixed(0).padStart(5)} ms: ${(podCount / t.cpuSeconds).toFixed(0).padStart(5)} pods per CPU-second)`);
      }
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
