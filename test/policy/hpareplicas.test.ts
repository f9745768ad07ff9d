// The horizontal pod autoscaler's replica calculator (src/policy/hpareplicas.ts), one row per rule
// of pkg/controller/podautoscaler/replica_calculator.go at 1.32: tolerance, missing, unready,
// pending, deleted and failed pods, the CPU initialization period and initial readiness delay,
// requests (sidecars included, a missing one an error), the errors' words, AverageValue targets
// and a container's own usage. The clock is fixed.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Pod } from '../../src/api/types.js';
import { rawResourceReplicas, resourceReplicas, type PodMetricsReading } from '../../src/policy/hpareplicas.js';

const now = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

interface PodOpts {
  cpu?: string;
  memory?: string;
  phase?: string;
  ready?: 'True' | 'False' | 'none';
  startedSecondsAgo?: number;
  readySinceSecondsAgo?: number;
  deleting?: boolean;
  sidecarCPU?: string;
}

function pod(name: string, o: PodOpts = {}): Pod {
  const requests: Record<string, string> = {};
  if (o.cpu !== '') requests.cpu = o.cpu ?? '100m';
  if (o.memory) requests.memory = o.memory;
  return {
    metadata: { name, namespace: 'default', labels: { app: 'web' }, ...(o.deleting ? { deletionTimestamp: ago(1) } : {}) },
    spec: {
      containers: [{ name: 'app', image: 'x', resources: { requests } }],
      ...(o.sidecarCPU ? { initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always', resources: { requests: { cpu: o.sidecarCPU } } }] } : {}),
    },
    status: {
      phase: o.phase ?? 'Running',
      ...(o.startedSecondsAgo === -1 ? {} : { startTime: ago(o.startedSecondsAgo ?? 3600) }),
      conditions: o.ready === 'none' ? [] : [{ type: 'Ready', status: o.ready ?? 'True', lastTransitionTime: ago(o.readySinceSecondsAgo ?? 3500) }],
    },
  } as unknown as Pod;
}

/** A reading of each named pod: its app container's cpu (and memory), read 10 s ago over a 15 s window. */
function readings(usage: Record<string, string>, opts: { memory?: Record<string, string>; sidecar?: Record<string, string>; atSecondsAgo?: number } = {}): PodMetricsReading[] {
  return Object.entries(usage).map(([name, cpu]) => ({
    namespace: 'default',
    name,
    containers: [{ name: 'app', usage: { cpu, memory: opts.memory?.[name] ?? '10Mi' } }, ...(opts.sidecar?.[name] ? [{ name: 'side', usage: { cpu: opts.sidecar[name]!, memory: '1Mi' } }] : [])],
    time: { timestamp: now - (opts.atSecondsAgo ?? 10) * 1000, windowMs: 15_000 },
  }));
}

interface Row {
  name: string;
  current: number;
  target: number;
  pods: Pod[];
  metrics: PodMetricsReading[];
  resource?: string;
  container?: string;
  want?: { replicas: number; utilization?: number };
  error?: string;
}

describe('replica calculator: Utilization targets (GetResourceReplicas)', () => {
  const rows: Row[] = [
    { name: 'within the 0.1 tolerance: the current count', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], metrics: readings({ a: '52m', b: '54m', c: '53m' }), want: { replicas: 3, utilization: 53 } },
    { name: 'above target: ceil(ratio × ready pods)', current: 2, target: 50, pods: [pod('a'), pod('b')], metrics: readings({ a: '90m', b: '90m' }), want: { replicas: 4, utilization: 90 } },
    { name: 'below target: ceil(ratio × ready pods)', current: 4, target: 50, pods: [pod('a'), pod('b'), pod('c'), pod('d')], metrics: readings({ a: '10m', b: '10m', c: '10m', d: '10m' }), want: { replicas: 1, utilization: 10 } },
    { name: 'utilization is whole percent of the summed requests', current: 2, target: 50, pods: [pod('a', { cpu: '300m' }), pod('b', { cpu: '100m' })], metrics: readings({ a: '100m', b: '100m' }), want: { replicas: 2, utilization: 50 } },
    { name: 'a missing pod on a scale-down counts as using all its request', current: 4, target: 50, pods: [pod('a'), pod('b'), pod('c'), pod('d')], metrics: readings({ a: '40m', b: '40m', c: '40m' }), want: { replicas: 4, utilization: 40 } },
    { name: 'without the missing pod the same readings scale down', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c')], metrics: readings({ a: '20m', b: '20m', c: '20m' }), want: { replicas: 2, utilization: 20 } },
    { name: 'a missing pod on a scale-down counts as the target when it is above 100%', current: 2, target: 200, pods: [pod('a'), pod('b')], metrics: readings({ a: '100m' }), want: { replicas: 2, utilization: 100 } },
    { name: 'a missing pod on a scale-up counts as using nothing', current: 2, target: 50, pods: [pod('a'), pod('b')], metrics: readings({ a: '200m' }), want: { replicas: 4, utilization: 200 } },
    { name: 'a pending pod on a scale-up counts as using nothing', current: 2, target: 50, pods: [pod('a'), pod('b', { phase: 'Pending' })], metrics: readings({ a: '150m' }), want: { replicas: 3, utilization: 150 } },
    { name: 'an unready pod on a scale-up counts as using nothing of its request (unequal requests show it)', current: 2, target: 50, pods: [pod('a'), pod('b', { phase: 'Pending', cpu: '300m' })], metrics: readings({ a: '260m' }), want: { replicas: 3, utilization: 260 } },
    { name: 'an unready pod on a scale-down is left out', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c', { ready: 'False', readySinceSecondsAgo: 3599 })], metrics: readings({ a: '10m', b: '10m', c: '90m' }), want: { replicas: 1, utilization: 10 } },
    { name: 'deleted and failed pods are ignored', current: 3, target: 50, pods: [pod('a'), pod('b', { deleting: true }), pod('c', { phase: 'Failed' })], metrics: readings({ a: '100m', b: '500m', c: '500m' }), want: { replicas: 2, utilization: 100 } },
    { name: 'within the CPU initialization period a reading whose window began before readiness is unready', current: 2, target: 50, pods: [pod('a'), pod('b', { startedSecondsAgo: 60, readySinceSecondsAgo: 20 })], metrics: readings({ a: '200m', b: '400m' }), want: { replicas: 4, utilization: 200 } },
    { name: 'within the CPU initialization period a pod ready for more than a window counts', current: 2, target: 50, pods: [pod('a'), pod('b', { startedSecondsAgo: 60, readySinceSecondsAgo: 40 })], metrics: readings({ a: '100m', b: '400m' }), want: { replicas: 10, utilization: 250 } },
    { name: 'after the initialization period a pod never ready (readiness changed within 30 s of start) is unready', current: 2, target: 50, pods: [pod('a'), pod('b', { ready: 'False', startedSecondsAgo: 600, readySinceSecondsAgo: 590 })], metrics: readings({ a: '200m', b: '400m' }), want: { replicas: 4, utilization: 200 } },
    { name: 'after the initialization period a pod that was ready and is not counts', current: 2, target: 50, pods: [pod('a'), pod('b', { ready: 'False', startedSecondsAgo: 600, readySinceSecondsAgo: 60 })], metrics: readings({ a: '100m', b: '400m' }), want: { replicas: 10, utilization: 250 } },
    { name: 'a pod without a Ready condition or start time is unready', current: 2, target: 50, pods: [pod('a'), pod('b', { ready: 'none' }), pod('c', { startedSecondsAgo: -1 })], metrics: readings({ a: '300m', b: '400m', c: '400m' }), want: { replicas: 6, utilization: 300 } },
    { name: 'the readiness rules are for cpu only: an unready pod counts for memory', current: 2, target: 50, resource: 'memory', pods: [pod('a', { memory: '100Mi' }), pod('b', { memory: '100Mi', ready: 'False', readySinceSecondsAgo: 3599 })], metrics: readings({ a: '1m', b: '1m' }, { memory: { a: '90Mi', b: '90Mi' } }), want: { replicas: 4, utilization: 90 } },
    { name: 'a restartable init container (sidecar) adds its request and usage', current: 2, target: 50, pods: [pod('a', { sidecarCPU: '100m' }), pod('b', { sidecarCPU: '100m' })], metrics: readings({ a: '50m', b: '50m' }, { sidecar: { a: '50m', b: '50m' } }), want: { replicas: 2, utilization: 50 } },
    { name: 'a container target reads that container alone', current: 2, target: 50, container: 'app', pods: [pod('a', { sidecarCPU: '900m' }), pod('b', { sidecarCPU: '900m' })], metrics: readings({ a: '100m', b: '100m' }, { sidecar: { a: '10m', b: '10m' } }), want: { replicas: 4, utilization: 100 } },
    { name: 'the assumptions turning the direction round keep the count', current: 3, target: 50, pods: [pod('a'), pod('b'), pod('c', { phase: 'Pending' })], metrics: readings({ a: '56m', b: '56m' }), want: { replicas: 3, utilization: 56 } },
    { name: 'no reading at all is the metrics API\'s error', current: 2, target: 50, pods: [pod('a')], metrics: [], error: 'unable to get metrics for resource cpu: no metrics returned from resource metrics API' },
    { name: 'no pod selected', current: 2, target: 50, pods: [], metrics: readings({ a: '10m' }), error: 'no pods returned by selector while calculating replica count' },
    { name: 'only unready pods have readings', current: 2, target: 50, pods: [pod('a', { phase: 'Pending' })], metrics: readings({ a: '10m' }), error: 'did not receive metrics for targeted pods (pods might be unready)' },
    { name: 'a container without a request', current: 2, target: 50, pods: [pod('a', { cpu: '' })], metrics: readings({ a: '10m' }), error: 'missing request for cpu in container app of Pod a' },
    { name: 'a target container absent from a reading', current: 2, target: 50, container: 'nope', pods: [pod('a')], metrics: readings({ a: '10m' }), error: 'unable to get metrics for resource cpu: failed to get container metrics: container nope not present in metrics for pod default/a' },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const run = () => resourceReplicas(r.current, r.target, r.resource ?? 'cpu', r.pods, r.metrics, now, undefined, r.container);
      if (r.error) return assert.throws(run, { message: r.error });
      const got = run();
      assert.deepEqual({ replicas: got.replicas, utilization: got.utilization }, r.want);
    });
  }
});

describe('replica calculator: AverageValue targets (GetRawResourceReplicas)', () => {
  const rows: Row[] = [
    { name: 'the average against the target, in milli-units', current: 2, target: 100, pods: [pod('a'), pod('b')], metrics: readings({ a: '300m', b: '100m' }), want: { replicas: 4 } },
    { name: 'within tolerance keeps the count', current: 2, target: 100, pods: [pod('a'), pod('b')], metrics: readings({ a: '105m', b: '100m' }), want: { replicas: 2 } },
    { name: 'a missing pod on a scale-down counts as exactly the target', current: 3, target: 100, pods: [pod('a'), pod('b'), pod('c')], metrics: readings({ a: '50m', b: '50m' }), want: { replicas: 2 } },
    { name: 'requests do not matter: none needed', current: 2, target: 100, pods: [pod('a', { cpu: '' }), pod('b', { cpu: '' })], metrics: readings({ a: '300m', b: '300m' }), want: { replicas: 6 } },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const got = rawResourceReplicas(r.current, r.target, 'cpu', r.pods, r.metrics, now);
      assert.equal(got.replicas, r.want!.replicas);
    });
  }
});
