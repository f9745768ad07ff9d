// The scheduler's placement rate, in process, on fake Nodes as KWOK makes them (Node objects
// with allocatable and a Ready condition; no agent): pending pods are created first with the
// scheduler off, then a scheduler starts and the time until every pod is bound is measured.
// Printed beside the same-run baseline of the writes alone — the same number of bindings POSTed
// straight through the same loopback client — and with the client-side rate limit kube-scheduler
// uses remotely (50 QPS, burst 100) as well as without it (the default in process).
//   npm run bench:scheduler      (BENCH_PODS=N, BENCH_NODES=list, e.g. 100,1000)

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

/** Seconds for a scheduler (with this client rate limit) to bind every pending pod of `ns`. */
async function schedule(s: RunningServer, admin: LoopbackClient, ns: string, qps: number): Promise<number> {
  const informers = new SharedInformerFactory(new LoopbackClient(s.api, schedulerIdentity));
  const scheduler = new SchedulerController(new LoopbackClient(s.api, schedulerIdentity), informers, { gates: defaultFeatureGates, qps, burst: qps ? 100 : 0 });
  const t = performance.now();
  await scheduler.start();
  while ((await unbound(admin, ns)) > 0) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - t) / 1000;
  await scheduler.stop();
  informers.stop();
  return seconds;
}

/** The baseline: the same bindings POSTed one after another through the loopback client. */
async function rawBindings(admin: LoopbackClient, ns: string, nodes: number): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < podCount; i++) await admin.bind(ns, `p-${i}`, nodeName(i % nodes));
  return (performance.now() - t) / 1000;
}

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
  for (const nodes of nodeCounts) {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-bench-scheduler-'));
    // The fake nodes never renew a Lease: a grace period longer than the run keeps them Ready.
    const s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, workloadControllers: false, nodeLifecycle: { gracePeriodMs: 3_600_000 } });
    try {
      const rows: [string, number][] = [];
      const admin = new LoopbackClient(s.api, { user: 'bench-admin', groups: ['system:masters'], userAgent: 'bench' });
      await populateNodes(admin, nodes);
      await populatePods(admin, podCount, 'raw');
      rows.push(['bindings alone (baseline)', podCount / (await rawBindings(admin, 'raw', nodes))]);
      for (const [label, qps] of [['scheduler, unthrottled (in process)', 0], ['scheduler, 50 QPS burst 100 (remote default)', 50]] as const) {
        const ns = qps ? 'throttled' : 'free';
        await populatePods(admin, podCount, ns);
        rows.push([label, podCount / (await schedule(s, admin, ns, qps))]);
      }
      console.log(`\n${podCount} pending pods, ${nodes} fake nodes (SQLite store, loopback client):`);
      for (const [label, rate] of rows) console.log(`  ${label.padEnd(46)} ${rate.toFixed(0).padStart(6)} pods/s`);
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
