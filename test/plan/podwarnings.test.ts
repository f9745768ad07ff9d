// `bulkhead plan` shows the API server's pod warnings where the server would give them: a pod's
// with its own (after its unknown-field warnings, before Pod Security's), a workload's among the
// object warnings, from the same strategies (api/workloadwarnings.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { plan, type PlanObject } from '../../src/plan/engine.js';
import { renderPlanTable } from '../../src/plan/table.js';
import { parseEvictionThresholds } from '../../src/policy/eviction.js';

const node = { memoryBytes: 16n << 30n, milliCPU: 4000n, cgroupVersion: 2 as const, cgroupDriver: 'cgroupfs' as const };
const now = new Date(Date.UTC(2026, 10, 26, 12, 0, 0));
const run = (...os: KubeObject[]) =>
  plan(
    os.map((object, i): PlanObject => ({ object, source: { file: 'in.yaml', document: i + 1 } })),
    { node, gates: defaultFeatureGates, podSecurity: {}, evictionHard: parseEvictionThresholds('memory.available<100Mi'), now, fieldValidation: 'Warn' },
  );

const arch = 'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead';
const podSpec = { nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' }, containers: [{ name: 'c', image: 'busybox', resources: { limits: { memory: '100m' } } }] };
const memory = 'spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer';
// A pod's requests default to its limits (SetDefaults_Pod) before the strategy looks; a template's do not.
const memoryRequest = 'spec.containers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer';
const pod = (name: string, namespace = 'default', extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: podSpec, ...extra }) as KubeObject;
const warnNamespace: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'strict', labels: { 'pod-security.kubernetes.io/warn': 'restricted' } } } as KubeObject;
const labels = { app: 'web' };
const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web.v1' },
  spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
} as KubeObject;
const job: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' }, spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } } as KubeObject;

describe('plan: pod warnings', () => {
  it("a pod carries the server's warnings in the server's order", () => {
    const got = run(pod('web'));
    assert.deepEqual(got.pods[0]!.warnings, [arch, memory, memoryRequest]);
  });

  it("a pod name that is not a DNS label draws the Pod's hostname warning first", () => {
    const got = run(pod('web.v1'));
    assert.deepEqual(got.pods[0]!.warnings, ["metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]", arch, memory, memoryRequest]);
  });

  it("the unknown-field warnings come before, Pod Security's after", () => {
    const got = run(warnNamespace, pod('web', 'strict', { bogus: 1 }));
    const w = got.pods[0]!.warnings;
    assert.deepEqual(w.slice(0, 4), ['unknown field "bogus"', arch, memory, memoryRequest]);
    assert.equal(w.length, 5);
    assert.match(w[4]!, /^would violate PodSecurity "restricted:latest": /);
  });

  it('a refused pod (invalid) draws none: the strategy warns only once validation has passed', () => {
    const got = run({ ...pod('web'), spec: { ...podSpec, containers: [{ name: 'C', image: 'busybox', resources: { limits: { memory: '100m' } } }] } } as KubeObject);
    assert.equal(got.pods[0]!.admitted, false);
    assert.deepEqual(got.pods[0]!.warnings, []);
  });

  it("a Deployment's warnings are object warnings under spec.template; its pods carry their own", () => {
    const got = run(deployment);
    assert.deepEqual(
      got.objectWarnings?.map((w) => [w.kind, w.namespace, w.name, w.message]),
      [
        ['Deployment', 'default', 'web.v1', 'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]'],
        ['Deployment', 'default', 'web.v1', `spec.template.${arch}`],
        ['Deployment', 'default', 'web.v1', `spec.template.${memory}`],
      ],
    );
    assert.deepEqual(got.pods[0]!.warnings, [arch, memory, memoryRequest]);
  });

  it("a Job's template warnings", () => {
    const got = run(job);
    assert.deepEqual(got.objectWarnings?.map((w) => w.message), [`spec.template.${arch}`, `spec.template.${memory}`]);
  });

  it('the table prints them as it prints other warnings', () => {
    const table = renderPlanTable(run(deployment));
    assert.match(table, /^Deployment default\/web\.v1 \(in\.yaml#1\): warning: spec\.template\.spec\.nodeSelector\[beta\.kubernetes\.io\/arch\]: deprecated since v1\.14; use "kubernetes\.io\/arch" instead$/m);
    assert.match(table, /^ {4}warning: spec\.containers\[0\]\.resources\.limits\[memory\]: fractional byte value "100m" is invalid, must be an integer$/m);
  });
});
