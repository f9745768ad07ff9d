// Pod defaulting of resources. Rows ported from upstream (read, not copied):
//   kubernetes/kubernetes pkg/apis/core/v1/defaults_test.go TestSetDefaultRequestsPod,
//   TestSetMinimumScalePod and TestPodResourcesDefaults (pod-level rows; the stored upstream copies
//   predate that test, so its rows are taken by name from a third-party port and each expectation is
//   re-derived from upstream pkg/apis/core/v1/defaults.go at 023f88a3: defaultHugePagePodLimits,
//   then defaultPodRequests, which defaults only overcommittable resources (cpu, memory) from the
//   container aggregate and everything else from pod-level limits), plus SetDefaults_ResourceList
//   (every quantity rounded up to milli scale) and the parse-time echo of reference §4 ("an API-server
//   round trip preserves those spellings").

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultPod, defaultPodTemplateSpec } from '../../src/api/defaults.js';
import { defaultDeployment } from '../../src/api/appsdefaults.js';
import { defaultJob } from '../../src/api/batchdefaults.js';
import type { Container, Pod, ResourceList, ResourceRequirements } from '../../src/api/types.js';

const ON = { gates: { PodLevelResources: true } };
const OFF = { gates: { PodLevelResources: false } };

function c(name: string, limits?: ResourceList, requests?: ResourceList): Container {
  const ctr: Container = { name, image: 'img:1' };
  if (limits || requests) ctr.resources = {};
  if (limits) ctr.resources!.limits = limits;
  if (requests) ctr.resources!.requests = requests;
  return ctr;
}
function pod(containers: Container[], o: { init?: Container[]; resources?: ResourceRequirements; overhead?: ResourceList; ephemeral?: Container[] } = {}): Pod {
  const p: Pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers } };
  if (o.init) p.spec.initContainers = o.init;
  if (o.resources) p.spec.resources = o.resources;
  if (o.overhead) p.spec.overhead = o.overhead;
  if (o.ephemeral) p.spec.ephemeralContainers = o.ephemeral;
  return p;
}

describe('container requests default from limits (SetDefaults_Pod; upstream TestSetDefaultRequestsPod)', () => {
  it('"verify we default if limits are specified (and that request=0 is preserved)": containers', () => {
    const out = defaultPod(pod([c('a', { cpu: '100m', memory: '1Gi' }, { memory: '0' })], { init: [c('i', { cpu: '100m', memory: '1Gi' }, { memory: '0' })] }), ON);
    assert.deepEqual(out.spec.containers[0]!.resources!.requests, { cpu: '100m', memory: '0' });
  });
  it('"verify we default if limits are specified (and that request=0 is preserved)": init containers', () => {
    const out = defaultPod(pod([c('a')], { init: [c('i', { cpu: '100m', memory: '1Gi' }, { memory: '0' })] }), ON);
    assert.deepEqual(out.spec.initContainers![0]!.resources!.requests, { cpu: '100m', memory: '0' });
  });
  it('"verify we do nothing if no limits are specified"', () => {
    const out = defaultPod(pod([c('a')], { init: [c('i')] }), ON);
    assert.equal(out.spec.containers[0]!.resources!.requests, undefined);
    assert.equal(out.spec.initContainers![0]!.resources!.requests, undefined);
  });
  it('an explicit request wins over the limit; only missing keys are filled', () => {
    const out = defaultPod(pod([c('a', { cpu: '500m', memory: '128Mi' }, { cpu: '100m' })]), ON);
    assert.deepEqual(out.spec.containers[0]!.resources!.requests, { cpu: '100m', memory: '128Mi' });
  });
  it('an explicit empty limits map materialises an empty requests map', () => {
    const out = defaultPod(pod([c('a', {})]), ON);
    assert.deepEqual(out.spec.containers[0]!.resources!.requests, {});
  });
  it('ephemeral containers are not defaulted from limits', () => {
    const out = defaultPod(pod([c('a')], { ephemeral: [c('debug', { cpu: '100m' })] }), ON);
    assert.equal(out.spec.ephemeralContainers![0]!.resources!.requests, undefined);
  });
  it('extended resources and hugepages are copied too', () => {
    const out = defaultPod(pod([c('a', { 'example.com/gpu': '1', 'hugepages-2Mi': '4Mi' })]), ON);
    assert.deepEqual(out.spec.containers[0]!.resources!.requests, { 'example.com/gpu': '1', 'hugepages-2Mi': '4Mi' });
  });
  it('the caller\'s pod is not modified', () => {
    const input = pod([c('a', { cpu: '1' })]);
    const before = JSON.stringify(input);
    defaultPod(input, ON);
    assert.equal(JSON.stringify(input), before);
  });
});

// SetDefaults_Pod's own part is the Pod's alone ("we only want this defaulting semantic to take
// place on a v1.Pod and not a v1.PodTemplate"): a workload's template keeps what it was given,
// and its pods get the rest when they are created.
describe('a pod template gets SetDefaults_PodSpec, not SetDefaults_Pod', () => {
  const hostNet = () => ({ ...pod([{ ...c('a', { cpu: '500m', memory: '64Mi' }), ports: [{ containerPort: 8080 }] }], { init: [c('i', { memory: '32Mi' })], resources: { limits: { cpu: '1' } } }).spec, hostNetwork: true });
  const rows: { name: string; check: (pod: Pod['spec'], template: Pod['spec']) => void }[] = [
    { name: 'requests are not copied from limits in a template (containers)', check: (p, t) => { assert.deepEqual(p.containers[0]!.resources!.requests, { cpu: '500m', memory: '64Mi' }); assert.equal(t.containers[0]!.resources!.requests, undefined); } },
    { name: 'requests are not copied from limits in a template (init containers)', check: (p, t) => { assert.deepEqual(p.initContainers![0]!.resources!.requests, { memory: '32Mi' }); assert.equal(t.initContainers![0]!.resources!.requests, undefined); } },
    { name: 'enableServiceLinks is a Pod default only', check: (p, t) => { assert.equal(p.enableServiceLinks, true); assert.equal(t.enableServiceLinks, undefined); } },
    { name: 'a hostNetwork container\'s hostPort is a Pod default only (since 1.28)', check: (p, t) => { assert.equal(p.containers[0]!.ports![0]!.hostPort, 8080); assert.equal(t.containers[0]!.ports![0]!.hostPort, undefined); } },
    { name: 'pod-level requests are a Pod default only', check: (p, t) => { assert.deepEqual(p.resources!.requests, { cpu: '500m', memory: '64Mi' }); assert.equal(t.resources!.requests, undefined); } },
    { name: 'SetDefaults_PodSpec applies to both (restartPolicy, dnsPolicy, grace, scheduler, securityContext)', check: (p, t) => { for (const s of [p, t]) assert.deepEqual([s.restartPolicy, s.dnsPolicy, s.terminationGracePeriodSeconds, s.schedulerName, s.securityContext], ['Always', 'ClusterFirst', 30, 'default-scheduler', {}]); } },
    { name: 'container defaults apply to both (imagePullPolicy, terminationMessagePath, port protocol)', check: (p, t) => { for (const s of [p, t]) assert.deepEqual([s.containers[0]!.imagePullPolicy, s.containers[0]!.terminationMessagePath, s.containers[0]!.ports![0]!.protocol], ['IfNotPresent', '/dev/termination-log', 'TCP']); } },
  ];
  for (const row of rows) {
    it(row.name, () => row.check(defaultPod({ metadata: {}, spec: hostNet() } as Pod, ON).spec, defaultPodTemplateSpec(hostNet(), ON)));
  }
  it('a Deployment\'s and a Job\'s templates keep limits-only resources as given', () => {
    const template = () => ({ spec: { containers: [c('a', { memory: '64Mi' })] } });
    const d = defaultDeployment({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: {}, template: template() } } as never, ON);
    const j = defaultJob({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: template() } } as never, ON);
    assert.deepEqual(d.spec!.template!.spec!.containers[0]!.resources, { limits: { memory: '64Mi' } });
    assert.deepEqual(j.spec!.template!.spec!.containers[0]!.resources, { limits: { memory: '64Mi' } });
  });
});

describe('quantities are rounded up to milli scale (SetDefaults_ResourceList; upstream TestSetMinimumScalePod)', () => {
  it('container request memory 1n becomes 1m; limit cpu 2n becomes 1m and so does the request defaulted from it', () => {
    const out = defaultPod(pod([c('a', { cpu: '2n' }, { memory: '1n' })]), ON);
    assert.deepEqual(out.spec.containers[0]!.resources, { limits: { cpu: '1m' }, requests: { cpu: '1m', memory: '1m' } });
  });
  it('init container request memory 1n becomes 1m', () => {
    const out = defaultPod(pod([c('a')], { init: [c('i', { cpu: '2n' }, { memory: '1n' })] }), ON);
    assert.deepEqual(out.spec.initContainers![0]!.resources, { limits: { cpu: '1m' }, requests: { cpu: '1m', memory: '1m' } });
  });
  const rows: [string, string, string][] = [
    ['1500u rounds up to 2m', '1500u', '2m'],
    ['1.0001 rounds up to 1001m', '1.0001', '1001m'],
    ['100m is already milli: unchanged', '100m', '100m'],
    ['0.5 is printed canonically as 500m', '0.5', '500m'],
    ['1024Mi is printed canonically as 1Gi (not a cached spelling)', '1024Mi', '1Gi'],
    ['100.035k keeps its parse-time spelling (reference §4 echo)', '100.035k', '100.035k'],
    ['+1 keeps its parse-time spelling', '+1', '+1'],
    ['1E6 keeps its parse-time spelling', '1E6', '1E6'],
  ];
  for (const [name, input, want] of rows) {
    it(`${name}`, () => {
      const out = defaultPod(pod([c('a', undefined, { cpu: input })]), ON);
      assert.equal(out.spec.containers[0]!.resources!.requests!.cpu, want);
    });
  }
  it('overhead is rounded up too', () => {
    const out = defaultPod(pod([c('a')], { overhead: { cpu: '1n', memory: '64Mi' } }), ON);
    assert.deepEqual(out.spec.overhead, { cpu: '1m', memory: '64Mi' });
  });
  it('pod-level requests and limits are rounded up too', () => {
    const out = defaultPod(pod([c('a')], { resources: { limits: { cpu: '1500u' } } }), ON);
    assert.deepEqual(out.spec.resources, { limits: { cpu: '2m' }, requests: { cpu: '2m' } });
  });
  it('pod-level requests are aggregated before rounding (defaulting runs before the ResourceList pass): 1n + 1n -> 2n -> 1m', () => {
    const out = defaultPod(pod([c('a', { cpu: '1n' }), c('b', { cpu: '1n' })], { resources: { limits: { cpu: '5m' }, requests: {} } }), ON);
    assert.deepEqual(out.spec.resources!.requests, { cpu: '1m' });
  });
  it('an unparsable quantity is left for validation to report', () => {
    const out = defaultPod(pod([c('a', undefined, { cpu: 'lots' })]), ON);
    assert.equal(out.spec.containers[0]!.resources!.requests!.cpu, 'lots');
  });
});

interface PodLevelRow {
  name: string;
  pod: Pod;
  gates?: typeof ON;
  requests: ResourceList | undefined;
  limits: ResourceList | undefined;
}

const hugepageContainers = () => [c('a', { cpu: '2m', 'hugepages-2Mi': '4Mi' }), c('b', { cpu: '1m', 'hugepages-2Mi': '2Mi' })];

const podLevelRows: PodLevelRow[] = [
  {
    name: '"pod requests=unset limits=set, container resources=unset": pod requests default to pod limits',
    pod: pod([c('a')], { resources: { limits: { cpu: '2m', memory: '1Mi' } } }),
    requests: { cpu: '2m', memory: '1Mi' },
    limits: { cpu: '2m', memory: '1Mi' },
  },
  {
    name: '"pod limits=nil": no pod-level requests appear',
    pod: pod([c('a', { cpu: '2m', memory: '1Mi' })], { resources: {} }),
    requests: undefined,
    limits: undefined,
  },
  {
    name: '"pod limits=empty map": no pod-level requests appear',
    pod: pod([c('a', { cpu: '2m', memory: '1Mi' })], { resources: { limits: {} } }),
    requests: undefined,
    limits: {},
  },
  {
    name: '"pod requests=empty map limits=set, container requests=unset limits=set": aggregated container requests (3m, 6Mi), not the pod limits',
    pod: pod([c('a', { cpu: '2m', memory: '1Mi' }), c('b', { cpu: '1m', memory: '5Mi' })], { resources: { limits: { cpu: '5m', memory: '7Mi' }, requests: {} } }),
    requests: { cpu: '3m', memory: '6Mi' },
    limits: { cpu: '5m', memory: '7Mi' },
  },
  {
    name: '"pod hugepages requests=unset limits=set, container hugepages ... different hugepagesizes": hugepage requests come from pod limits, the 1Gi limit from the containers',
    pod: pod([c('a', { cpu: '2m', 'hugepages-1Gi': '1Gi' }), c('b', { cpu: '1m', 'hugepages-2Mi': '2Mi' })], { resources: { limits: { cpu: '5m', 'hugepages-2Mi': '10Mi' } } }),
    requests: { cpu: '3m', 'hugepages-1Gi': '1Gi', 'hugepages-2Mi': '10Mi' },
    limits: { cpu: '5m', 'hugepages-1Gi': '1Gi', 'hugepages-2Mi': '10Mi' },
  },
  {
    name: '"pod has cpu limit with hugepages requests=unset limits=unset, container hugepages requests=unset limits=set": pod limit gains the aggregated 6Mi',
    pod: pod(hugepageContainers(), { resources: { limits: { cpu: '5m' } } }),
    requests: { cpu: '3m', 'hugepages-2Mi': '6Mi' },
    limits: { cpu: '5m', 'hugepages-2Mi': '6Mi' },
  },
  {
    name: '"pod has cpu request with hugepages requests=unset limits=unset": requests alone make the stanza partly specified',
    pod: pod(hugepageContainers(), { resources: { requests: { cpu: '5m' } } }),
    requests: { cpu: '5m', 'hugepages-2Mi': '6Mi' },
    limits: { 'hugepages-2Mi': '6Mi' },
  },
  {
    name: '"pod hugepages requests=set limits=set, container hugepages requests=unset limits=set": a pod-level hugepage request suppresses limit defaulting',
    pod: pod(hugepageContainers(), { resources: { limits: { cpu: '5m', 'hugepages-2Mi': '10Mi' }, requests: { cpu: '5m', 'hugepages-2Mi': '10Mi' } } }),
    requests: { cpu: '5m', 'hugepages-2Mi': '10Mi' },
    limits: { cpu: '5m', 'hugepages-2Mi': '10Mi' },
  },
  {
    name: 'a container hugepage request is never copied into the pod-level request (hugepages are not overcommittable)',
    pod: pod([c('a', undefined, { cpu: '2m', 'hugepages-2Mi': '4Mi' })], { resources: { limits: { cpu: '5m' } } }),
    requests: { cpu: '2m' },
    limits: { cpu: '5m' },
  },
  {
    name: '"pod limits=set, container unsupported requests=set limits=set": unsupported names never reach the pod level',
    pod: pod([c('a', { storage: '1Mi', 'ephemeral-storage': '5Mi' })], { resources: { limits: { storage: '1Mi' } } }),
    requests: undefined,
    limits: { storage: '1Mi' },
  },
  {
    name: 'unsupported pod-level limits are not copied to requests; cpu and memory are',
    pod: pod([c('a', { storage: '1Mi' })], { resources: { limits: { cpu: '2m', memory: '1Mi', storage: '1Mi' } } }),
    requests: { cpu: '2m', memory: '1Mi' },
    limits: { cpu: '2m', memory: '1Mi', storage: '1Mi' },
  },
  {
    name: 'sidecar-aware aggregate: sidecar 2m + init 4m beats app 1m + sidecar 2m',
    pod: pod([c('app', { cpu: '1m' })], { init: [{ ...c('side', { cpu: '2m' }), restartPolicy: 'Always' }, c('init', { cpu: '4m' })], resources: { limits: { cpu: '10m' } } }),
    requests: { cpu: '6m' },
    limits: { cpu: '10m' },
  },
  {
    name: 'gate PodLevelResources off: pod-level resources are left as submitted',
    pod: pod([c('a')], { resources: { limits: { cpu: '2m' } } }),
    gates: OFF,
    requests: undefined,
    limits: { cpu: '2m' },
  },
];

describe('pod-level resources defaulting (upstream TestPodResourcesDefaults rows, defaults.go)', () => {
  for (const row of podLevelRows) {
    it(row.name, () => {
      const out = defaultPod(row.pod, row.gates ?? ON);
      assert.deepEqual(out.spec.resources?.requests, row.requests);
      assert.deepEqual(out.spec.resources?.limits, row.limits);
    });
  }
});
