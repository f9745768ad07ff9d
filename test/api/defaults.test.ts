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

// Upstream defaults_test.go (kubernetes/kubernetes pkg/apis/core/v1/defaults_test.go, index commit
// b0d609f0) TestPodDefaults and TestWorkloadDefaults: every field a pod (a template) gets by
// default, found upstream by filling every struct with its zero value. Here the same zero-valued
// structs are built by hand, one volume per source (Bulkhead defaults each source on its own), and
// each upstream path is checked; the volume paths are the volumedefaults.test.ts rows.
function zeroContainer(): Container {
  const probe = () => ({ httpGet: { port: 0 }, grpc: { port: 0 } }) as unknown as Container['livenessProbe'];
  return {
    name: '', image: '', env: [{ name: '', valueFrom: { fieldRef: {} } }], ports: [{ containerPort: 0 }],
    livenessProbe: probe(), readinessProbe: probe(), startupProbe: probe(),
    lifecycle: { postStart: { httpGet: { port: 0 } }, preStop: { httpGet: { port: 0 } } },
    resources: { limits: { '': '0' } },
  } as unknown as Container;
}
function zeroSpec(): Pod['spec'] {
  return { containers: [zeroContainer()], initContainers: [zeroContainer()], ephemeralContainers: [zeroContainer()] } as Pod['spec'];
}
function at(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);
}
function containerDefaults(prefix: string, requests: boolean): [string, unknown][] {
  const rows: [string, unknown][] = [
    ['env.0.valueFrom.fieldRef.apiVersion', 'v1'], ['imagePullPolicy', 'IfNotPresent'],
    ['lifecycle.postStart.httpGet.path', '/'], ['lifecycle.postStart.httpGet.scheme', 'HTTP'],
    ['lifecycle.preStop.httpGet.path', '/'], ['lifecycle.preStop.httpGet.scheme', 'HTTP'],
    ['ports.0.protocol', 'TCP'], ['terminationMessagePath', '/dev/termination-log'], ['terminationMessagePolicy', 'File'],
  ];
  for (const p of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    rows.push([`${p}.failureThreshold`, 3], [`${p}.periodSeconds`, 10], [`${p}.successThreshold`, 1], [`${p}.timeoutSeconds`, 1],
      [`${p}.httpGet.path`, '/'], [`${p}.httpGet.scheme`, 'HTTP'], [`${p}.grpc.service`, '']);
  }
  rows.push(['resources.requests', requests ? { '': '0' } : undefined]);
  return rows.map(([k, v]) => [`${prefix}.${k}`, v]);
}
const specDefaults: [string, unknown][] = [
  ['dnsPolicy', 'ClusterFirst'], ['restartPolicy', 'Always'], ['schedulerName', 'default-scheduler'],
  ['securityContext', {}], ['terminationGracePeriodSeconds', 30],
];

describe('upstream TestPodDefaults: every default of a pod', () => {
  for (const [variant, gates] of [['enabled_features', ON], ['disabled_features', OFF]] as const) {
    const out = defaultPod({ metadata: {}, spec: zeroSpec() } as Pod, gates).spec;
    const rows: [string, unknown][] = [
      ...specDefaults, ['enableServiceLinks', true],
      ...containerDefaults('containers.0', true), ...containerDefaults('initContainers.0', true),
      // Ephemeral containers are never defaulted from limits (SetDefaults_Pod walks the other two lists).
      ...containerDefaults('ephemeralContainers.0', false),
    ];
    for (const [path, want] of rows) it(`${variant}: .spec.${path}`, () => assert.deepEqual(at(out, path), want));
  }
});

describe('upstream TestWorkloadDefaults: every default of a pod template', () => {
  for (const [variant, gates] of [['enabled_features', ON], ['disabled_features', OFF]] as const) {
    it(`${variant}: empty PodTemplateSpec`, () => {
      const out = defaultPodTemplateSpec(zeroSpec(), gates);
      const rows: [string, unknown][] = [
        ...specDefaults, ['enableServiceLinks', undefined],
        ...containerDefaults('containers.0', false), ...containerDefaults('initContainers.0', false), ...containerDefaults('ephemeralContainers.0', false),
      ];
      for (const [path, want] of rows) assert.deepEqual(at(out, path), want, path);
    });
  }
  // The enabled_features variant expects the hostPort because DefaultHostNetworkHostPortsInPodTemplates
  // is on there; Bulkhead has no such gate (off by default upstream, deprecated): its disabled row only.
  it('disabled_features: hostnet PodTemplateSpec with ports', () => {
    const out = defaultPodTemplateSpec({ hostNetwork: true, containers: [{ name: '', ports: [{ containerPort: 12345, protocol: 'TCP' }] } as Container] } as Pod['spec'], OFF);
    assert.deepEqual(out.containers, [{ name: '', ports: [{ containerPort: 12345, protocol: 'TCP' }], resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }]);
  });
});

describe('upstream TestPodHostNetworkDefaults (gate DefaultHostNetworkHostPortsInPodTemplates disabled; Bulkhead has no such gate)', () => {
  for (const hostNet of [false, true]) {
    it(`gate disabled, hostNetwork=${hostNet}`, () => {
      const spec = () => ({ hostNetwork: hostNet, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 12345, protocol: 'TCP' }] }] }) as Pod['spec'];
      assert.equal(defaultPod({ metadata: {}, spec: spec() } as Pod, ON).spec.containers[0]!.ports![0]!.hostPort, hostNet ? 12345 : undefined);
      assert.equal(defaultPodTemplateSpec(spec(), ON).containers[0]!.ports![0]!.hostPort, undefined);
    });
  }
});

describe('upstream defaults_test.go single-case pod tests', () => {
  const rows: { name: string; spec: Pod['spec']; check: (s: Pod['spec']) => void }[] = [
    {
      name: 'TestSetDefaultPodSpecHostNetwork: containers and init containers get hostPort = containerPort',
      spec: { hostNetwork: true, containers: [{ name: 'a', ports: [{ containerPort: 8080 }] }], initContainers: [{ name: 'b', ports: [{ containerPort: 8080 }] }] } as Pod['spec'],
      check: (s) => assert.deepEqual([s.containers[0]!.ports![0]!.hostPort, s.initContainers![0]!.ports![0]!.hostPort], [8080, 8080]),
    },
    {
      name: 'TestSetDefaultObjectFieldSelectorAPIVersion',
      spec: { containers: [{ name: 'a', env: [{ name: 'E', valueFrom: { fieldRef: {} } }] }] } as Pod['spec'],
      check: (s) => assert.equal((s.containers[0]!.env![0]!.valueFrom as { fieldRef: { apiVersion: string } }).fieldRef.apiVersion, 'v1'),
    },
    {
      name: 'TestSetDefaultProbe: an empty liveness probe gets timeout 1, period 10, success 1, failure 3',
      spec: { containers: [{ name: 'a', livenessProbe: {} }] } as Pod['spec'],
      check: (s) => assert.deepEqual(s.containers[0]!.livenessProbe, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 }),
    },
    { name: 'TestSetDefaultSchedulerName', spec: { containers: [] } as unknown as Pod['spec'], check: (s) => assert.equal(s.schedulerName, 'default-scheduler') },
    { name: 'TestSetDefaultEnableServiceLinks', spec: { containers: [] } as unknown as Pod['spec'], check: (s) => assert.equal(s.enableServiceLinks, true) },
    {
      name: 'Go string fields: an explicit "" is defaulted like an absent one (restartPolicy, dnsPolicy, schedulerName, terminationMessage*, imagePullPolicy, protocol)',
      spec: { restartPolicy: '', dnsPolicy: '', schedulerName: '', containers: [{ name: 'a', image: 'x:1', terminationMessagePath: '', terminationMessagePolicy: '', imagePullPolicy: '', ports: [{ containerPort: 1, protocol: '' }] }] } as unknown as Pod['spec'],
      check: (s) => assert.deepEqual([s.restartPolicy, s.dnsPolicy, s.schedulerName, s.containers[0]!.terminationMessagePath, s.containers[0]!.terminationMessagePolicy, s.containers[0]!.imagePullPolicy, s.containers[0]!.ports![0]!.protocol],
        ['Always', 'ClusterFirst', 'default-scheduler', '/dev/termination-log', 'File', 'IfNotPresent', 'TCP']),
    },
  ];
  for (const r of rows) it(r.name, () => r.check(defaultPod({ metadata: {}, spec: r.spec } as Pod, ON).spec));
});

// TestSetDefaultReplicationControllerInitContainers: the rows as a pod template's init container
// gets them (Bulkhead serves no ReplicationControllers; the template defaulting is the same).
describe('upstream TestSetDefaultReplicationControllerInitContainers rows, on a template', () => {
  const rows: { name: string; init: Container; check: (c: Container) => void }[] = [
    { name: 'imagePullIPolicy', init: { name: 'install', image: 'busybox' }, check: (c) => assert.equal(c.imagePullPolicy, 'Always') },
    { name: 'FieldRef', init: { name: 'fun', image: 'alpine', env: [{ name: 'MY_POD_IP', valueFrom: { fieldRef: { apiVersion: '', fieldPath: 'status.podIP' } } }] }, check: (c) => assert.deepEqual(c.env, [{ name: 'MY_POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }]) },
    { name: 'ContainerPort', init: { name: 'fun', image: 'alpine', ports: [{ name: 'default' } as never] }, check: (c) => assert.deepEqual(c.ports, [{ name: 'default', protocol: 'TCP' }]) },
    { name: 'Resources', init: c('fun', { cpu: '100m', memory: '100Mi' }, { cpu: '100m', memory: '100Mi' }), check: (x) => assert.deepEqual(x.resources, { limits: { cpu: '100m', memory: '100Mi' }, requests: { cpu: '100m', memory: '100Mi' } }) },
    {
      name: 'Probe', init: { name: 'fun', image: 'alpine', livenessProbe: { httpGet: { host: 'localhost' } }, readinessProbe: { httpGet: { host: 'localhost' } } } as unknown as Container,
      check: (x) => { for (const p of [x.livenessProbe, x.readinessProbe]) assert.deepEqual(p, { httpGet: { host: 'localhost', path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 }); },
    },
    {
      name: 'LifeCycle', init: { name: 'fun', image: 'alpine', ports: [{ name: 'default' }], lifecycle: { postStart: { httpGet: { host: 'localhost' } }, preStop: { httpGet: { host: 'localhost' } } } } as unknown as Container,
      check: (x) => assert.deepEqual(x.lifecycle, { postStart: { httpGet: { host: 'localhost', path: '/', scheme: 'HTTP' } }, preStop: { httpGet: { host: 'localhost', path: '/', scheme: 'HTTP' } } }),
    },
  ];
  for (const r of rows) it(r.name, () => r.check(defaultPodTemplateSpec({ containers: [], initContainers: [r.init] } as unknown as Pod['spec'], ON).initContainers![0]!));
  it('TestDefaultRequestIsNotSetForReplicationController: a template\'s limits are not copied to requests', () => {
    assert.equal(defaultPodTemplateSpec({ containers: [c('a', { cpu: '100m' })] } as Pod['spec'], ON).containers[0]!.resources!.requests, undefined);
  });
});
