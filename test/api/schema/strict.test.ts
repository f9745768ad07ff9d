// Strict decoding: unknown fields (kube-apiserver's paths), type errors (Go's encoding/json
// wording) and the custom decoders (Quantity, IntOrString, Time, MicroTime). Valid objects,
// including every upstream PSA fixture pod, must produce nothing.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ERR_FORMAT_WRONG } from '../../../src/api/quantity.js';
import { decodeErrorMessage, strictDecodingMessage, strictProblems } from '../../../src/api/schema/index.js';
import { fixturePods, samplePod } from './helpers.js';

const POD = 'io.k8s.api.core.v1.Pod';
type Json = Record<string, unknown>;

/** A minimal valid pod with `mutate` applied. */
function pod(mutate: (p: Json & { spec: Json & { containers: Json[] }; metadata: Json }) => void = () => {}): Json {
  const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] as Json[] } };
  mutate(p);
  return p;
}

const c0 = (p: { spec: { containers: Json[] } }) => p.spec.containers[0]!;

/** The problems alone (not the quantity rewrites a valid object may carry). */
const problemsOf = (p: { unknownFields: string[]; typeErrors: unknown[] }) => ({ unknownFields: p.unknownFields, typeErrors: p.typeErrors });

describe('strict decoding: unknown fields', () => {
  const rows: [string, Json, string[]][] = [
    ['top level', { ...pod(), foo: 1 }, ['foo']],
    ['spec and a container (the reference example)', pod((p) => { p.spec = { foo: 1, containers: [{ name: 'c', bogus: true }] } as never; }), ['spec.foo', 'spec.containers[0].bogus']],
    ['document order is kept', pod((p) => { p.spec['foo'] = 1; c0(p)['bogus'] = true; }), ['spec.containers[0].bogus', 'spec.foo']],
    ['second container, securityContext.ulimits[1]', pod((p) => { p.spec.containers.push({ name: 'd', securityContext: { ulimits: [{ name: 'nofile', soft: 1, hard: 1 }, { name: 'core', soft: 1, hard: 1, unit: 'x' }] } }); }), ['spec.containers[1].securityContext.ulimits[1].unit']],
    ['deep in a projected volume', pod((p) => { p.spec['volumes'] = [{ name: 'v', projected: { sources: [{ configMap: { name: 'a' } }, { secret: { name: 's', items: [{ key: 'k', path: 'p', extra: 1 }] } }] } }]; }), ['spec.volumes[0].projected.sources[1].secret.items[0].extra']],
    ['metadata.ownerReferences[0]', pod((p) => { p.metadata['ownerReferences'] = [{ apiVersion: 'v1', kind: 'X', name: 'n', uid: 'u', extra: 1 }]; }), ['metadata.ownerReferences[0].extra']],
    ['case matters (Go decodes case-sensitively here)', pod((p) => { c0(p)['Image'] = 'x'; p.spec['NodeName'] = 'n'; }), ['spec.containers[0].Image', 'spec.NodeName']],
    ['inside initContainers and ephemeralContainers', pod((p) => { p.spec['initContainers'] = [{ name: 'i', x: 1 }]; p.spec['ephemeralContainers'] = [{ name: 'e', targetContainerName: 'c', y: 2 }]; }), ['spec.initContainers[0].x', 'spec.ephemeralContainers[0].y']],
    ['an unknown subtree is reported once, at its root', pod((p) => { p.spec['extra'] = { a: { b: 1 } }; }), ['spec.extra']],
    ['probe handler fields are inlined into Probe', pod((p) => { c0(p)['livenessProbe'] = { exec: { command: ['true'] }, periodSeconds: 1, sleep: { seconds: 1 } }; }), ['spec.containers[0].livenessProbe.sleep']],
    ['status is decoded too', pod((p) => { p['status'] = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', foo: 1 }] }; }), ['status.conditions[0].foo']],
  ];
  for (const [name, obj, want] of rows) {
    it(name, () => {
      const got = strictProblems(obj, POD);
      assert.deepEqual(got.unknownFields, want);
      assert.deepEqual(got.typeErrors, []);
    });
  }

  it('formats the strict decoding error as kube-apiserver does', () => {
    assert.equal(strictDecodingMessage(['spec.foo', 'spec.containers[0].bogus']), 'strict decoding error: unknown field "spec.foo", unknown field "spec.containers[0].bogus"');
    assert.equal(strictDecodingMessage([]), undefined);
  });

  it('stops collecting after 100 unknown fields', () => {
    const p = pod();
    for (let i = 0; i < 150; i++) p[`x${i}`] = i;
    assert.equal(strictProblems(p, POD).unknownFields.length, 100);
  });
});

describe('strict decoding: type errors (Go encoding/json wording)', () => {
  const rows: [string, Json, string][] = [
    ['string for a list (the reference example)', pod((p) => { p.spec.containers = 'x' as never; }), 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container'],
    ['string as a list element struct', pod((p) => { p.spec.containers = ['x'] as never; }), 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container'],
    ['number for a string', pod((p) => { c0(p)['image'] = 5; }), 'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string'],
    ['string for an int32', pod((p) => { c0(p)['ports'] = [{ containerPort: '80' }]; }), 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['fraction for an int32', pod((p) => { c0(p)['ports'] = [{ containerPort: 1.5 }]; }), 'json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['int32 overflow', pod((p) => { c0(p)['ports'] = [{ containerPort: 3000000000 }]; }), 'json: cannot unmarshal number 3000000000 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['string for an *int64', pod((p) => { p.spec['terminationGracePeriodSeconds'] = '30'; }), 'json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64'],
    ['string for a bool', pod((p) => { p.spec['hostNetwork'] = 'true'; }), 'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool'],
    ['number for a named string type', pod((p) => { p.spec['restartPolicy'] = 1; }), 'json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy'],
    ['label values must be strings', pod((p) => { p.metadata['labels'] = { app: 1 }; }), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    ['labels must be a map', pod((p) => { p.metadata['labels'] = 'app=x'; }), 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    ['resource list must be a map', pod((p) => { c0(p)['resources'] = { limits: [] }; }), 'json: cannot unmarshal array into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList'],
    ['element of a named-string list', pod((p) => { c0(p)['securityContext'] = { capabilities: { add: [1] } }; }), 'json: cannot unmarshal number into Go struct field Capabilities.spec.containers.securityContext.capabilities.add of type v1.Capability'],
    ['array for a struct', pod((p) => { p['spec'] = [] as never; }), 'json: cannot unmarshal array into Go struct field Pod.spec of type v1.PodSpec'],
    ['ephemeral container fields belong to EphemeralContainer', pod((p) => { p.spec['ephemeralContainers'] = [{ name: 'e', image: true }]; }), 'json: cannot unmarshal bool into Go struct field EphemeralContainer.spec.ephemeralContainers.image of type string'],
    ['volume sources are inlined into Volume', pod((p) => { p.spec['volumes'] = [{ name: 'v', hostPath: 'x' }]; }), 'json: cannot unmarshal string into Go struct field Volume.spec.volumes.hostPath of type v1.HostPathVolumeSource'],
    ['ulimit soft must be an integer', pod((p) => { c0(p)['securityContext'] = { ulimits: [{ name: 'nofile', soft: '1', hard: 2 }] }; }), 'json: cannot unmarshal string into Go struct field Ulimit.spec.containers.securityContext.ulimits.soft of type int64'],
    ['oomKillMode must be a string', pod((p) => { c0(p)['oomKillMode'] = 1; }), 'json: cannot unmarshal number into Go struct field Container.spec.containers.oomKillMode of type v1.OOMKillMode'],
    ['object for a string', pod((p) => { p.metadata['name'] = { a: 1 }; }), 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.name of type string'],
  ];
  for (const [name, obj, want] of rows) {
    it(name, () => {
      const got = strictProblems(obj, POD);
      assert.equal(got.typeErrors.length, 1, JSON.stringify(got));
      assert.equal(got.typeErrors[0]!.message, want);
      assert.equal(decodeErrorMessage(got), want);
    });
  }

  it('a non-object body', () => {
    assert.equal(strictProblems([], POD).typeErrors[0]!.message, 'json: cannot unmarshal array into Go value of type v1.Pod');
    assert.equal(strictProblems('x', POD).typeErrors[0]!.message, 'json: cannot unmarshal string into Go value of type v1.Pod');
  });

  it('reports paths in kube style and keeps going; the first error is the one Go returns', () => {
    const p = pod((q) => {
      q.metadata['labels'] = { a: 1 };
      c0(q)['ports'] = [{ containerPort: 80 }, { containerPort: 'x' }];
      q['bogus'] = 1;
    });
    const got = strictProblems(p, POD);
    assert.deepEqual(got.typeErrors.map((e) => e.path), ['metadata.labels[a]', 'spec.containers[0].ports[1].containerPort']);
    assert.deepEqual(got.unknownFields, ['bogus']);
    assert.equal(decodeErrorMessage(got), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
  });
});

describe('strict decoding: types with their own decoders stop decoding', () => {
  const rows: [string, Json, string][] = [
    ['quantity with a bad suffix', pod((p) => { c0(p)['resources'] = { limits: { cpu: '1x' } }; }), ERR_FORMAT_WRONG],
    ['quantity that is empty', pod((p) => { c0(p)['resources'] = { requests: { memory: '' } }; }), ERR_FORMAT_WRONG],
    ['quantity that is a bool', pod((p) => { c0(p)['resources'] = { requests: { memory: true } }; }), ERR_FORMAT_WRONG],
    ['quantity that is an object', pod((p) => { p.spec['overhead'] = { cpu: { m: 1 } }; }), ERR_FORMAT_WRONG],
    ['quantity in an emptyDir sizeLimit', pod((p) => { p.spec['volumes'] = [{ name: 'v', emptyDir: { sizeLimit: '1 Gi' } }]; }), ERR_FORMAT_WRONG],
    ['IntOrString given a bool', pod((p) => { c0(p)['livenessProbe'] = { httpGet: { port: true } }; }), 'json: cannot unmarshal bool into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32'],
    ['IntOrString given a fraction', pod((p) => { c0(p)['readinessProbe'] = { tcpSocket: { port: 80.5 } }; }), 'json: cannot unmarshal number 80.5 into Go struct field TCPSocketAction.spec.containers.readinessProbe.tcpSocket.port of type int32'],
    ['IntOrString given an object', pod((p) => { c0(p)['readinessProbe'] = { tcpSocket: { port: {} } }; }), 'json: cannot unmarshal object into Go struct field TCPSocketAction.spec.containers.readinessProbe.tcpSocket.port of type int32'],
    ['Time given a number', pod((p) => { p.metadata['creationTimestamp'] = 5; }), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
    ['Time that is not RFC 3339', pod((p) => { p.metadata['creationTimestamp'] = 'yesterday'; }), 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    ['Time with a space', pod((p) => { p.metadata['creationTimestamp'] = '2024-01-01 00:00:00Z'; }), 'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"'],
    ['Time without a zone', pod((p) => { p.metadata['deletionTimestamp'] = '2024-01-01T00:00:00'; }), 'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
    ['Time with month 13', pod((p) => { p.metadata['creationTimestamp'] = '2024-13-01T00:00:00Z'; }), 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['Time on 30 February', pod((p) => { p.metadata['creationTimestamp'] = '2024-02-30T00:00:00Z'; }), 'parsing time "2024-02-30T00:00:00Z": day out of range'],
    ['Time with trailing text', pod((p) => { p.metadata['creationTimestamp'] = '2024-01-01T00:00:00Zjunk'; }), 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
  ];
  for (const [name, obj, want] of rows) {
    it(name, () => {
      const got = strictProblems(obj, POD);
      assert.equal(got.typeErrors.length, 1, JSON.stringify(got));
      assert.equal(got.typeErrors[0]!.message, want);
      assert.equal(got.typeErrors[0]!.fatal, true);
    });
  }

  it('MicroTime needs exactly six fractional digits', () => {
    const ev = (t: string) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p' }, eventTime: t });
    assert.deepEqual(strictProblems(ev('2024-01-01T00:00:00.123456Z'), 'io.k8s.api.core.v1.Event').typeErrors, []);
    assert.equal(
      strictProblems(ev('2024-01-01T00:00:00Z'), 'io.k8s.api.core.v1.Event').typeErrors[0]!.message,
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });

  it('a fatal error ends decoding and wins over an earlier type error', () => {
    const p = pod((q) => {
      q.spec['hostPID'] = 'yes';
      c0(q)['resources'] = { limits: { cpu: 'lots' } };
      c0(q)['image'] = 1; // after the fatal error: never reached
      q['bogus'] = 1;
    });
    const got = strictProblems(p, POD);
    assert.equal(got.typeErrors.length, 2);
    assert.equal(decodeErrorMessage(got), ERR_FORMAT_WRONG);
    assert.deepEqual(got.unknownFields, []);
  });

  it('accepts every quantity spelling upstream accepts, and valid times', () => {
    const p = pod((q) => {
      c0(q)['resources'] = { limits: { cpu: 2, memory: '1.5Gi', 'ephemeral-storage': '1e3', 'example.com/x': ' 5 ', a: '+1', b: '0.5', c: '100m', d: '1Ei' } };
      q.metadata['creationTimestamp'] = '2024-02-29T23:59:59.5+05:30';
      c0(q)['livenessProbe'] = { httpGet: { port: 'http' } };
      c0(q)['readinessProbe'] = { tcpSocket: { port: 8080 } };
    });
    const got = strictProblems(p, POD);
    assert.deepEqual(problemsOf(got), { unknownFields: [], typeErrors: [] });
    // And each is written back as the Go types write it: those whose text changes, in order.
    assert.deepEqual(got.quantityRewrites.map((r) => [r.segs.at(-1), r.text]), [[{ key: 'cpu' }, '2'], [{ key: 'memory' }, '1536Mi'], [{ key: 'example.com/x' }, '5'], [{ key: 'b' }, '500m']]);
  });
});

describe('strict decoding: valid objects produce nothing', () => {
  it('null is accepted everywhere', () => {
    const p = pod((q) => {
      q.metadata['labels'] = null;
      q.metadata['creationTimestamp'] = null;
      q.spec['volumes'] = null;
      c0(q)['resources'] = { limits: { cpu: null } };
      c0(q)['livenessProbe'] = { httpGet: { port: null } };
      q['status'] = { conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] };
    });
    const got = strictProblems(p, POD);
    assert.deepEqual(problemsOf(got), { unknownFields: [], typeErrors: [] });
    // A Quantity a map holds as null is a zero Quantity in Go (UnmarshalJSON), written back as "0".
    assert.deepEqual(got.quantityRewrites, [{ segs: ['spec', 'containers', 0, 'resources', 'limits', { key: 'cpu' }], text: '0' }]);
  });

  it('the sample pod (nearly every PodSpec field)', () => {
    assert.deepEqual(problemsOf(strictProblems(samplePod(), POD)), { unknownFields: [], typeErrors: [] });
  });

  it('every PSA fixture pod (real upstream pods)', () => {
    const fixtures = fixturePods();
    assert.ok(fixtures.length > 4000, `only ${fixtures.length} fixtures`);
    const bad = fixtures
      .map(({ file, pod: p }) => ({ file, problems: strictProblems(p, POD) }))
      .filter((r) => r.problems.unknownFields.length > 0 || r.problems.typeErrors.length > 0);
    assert.deepEqual(bad.slice(0, 5), []);
  });

  it('other kinds', () => {
    const cases: [string, unknown][] = [
      ['io.k8s.api.core.v1.Node', {
        apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'node-role.kubernetes.io/worker': '' } },
        spec: { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], taints: [{ key: 'k', effect: 'NoSchedule', timeAdded: '2024-01-01T00:00:00Z' }], unschedulable: false },
        status: {
          capacity: { cpu: '4', memory: '16Gi', pods: '110' }, allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
          conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-01-01T00:00:00Z', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'KubeletReady', message: 'ok' }],
          addresses: [{ type: 'InternalIP', address: '10.0.0.11' }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
          nodeInfo: { machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6.1', osImage: 'Debian', containerRuntimeVersion: 'containerd://1.7', kubeletVersion: 'v1.32.4', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64', swap: { capacity: 0 } },
          images: [{ names: ['nginx:1.25'], sizeBytes: 1000 }], runtimeHandlers: [{ name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: false } }],
          features: { supplementalGroupsPolicy: true }, declaredFeatures: ['ContainerUlimits', 'ContainerOOMKillMode'],
        },
      }],
      ['io.k8s.api.core.v1.Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active', conditions: [{ type: 'NamespaceDeletionContentFailure', status: 'False' }] } }],
      ['io.k8s.api.core.v1.ResourceQuota', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '10', 'requests.cpu': '2' }, scopes: ['NotBestEffort'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }, status: { hard: { pods: '10' }, used: { pods: '1' } } }],
      ['io.k8s.api.core.v1.LimitRange', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '10m' }, default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, maxLimitRequestRatio: { cpu: '4' } }] } }],
      ['io.k8s.api.core.v1.Event', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u', apiVersion: 'v1', fieldPath: 'spec.containers{nginx}' }, reason: 'Pulled', message: 'ok', source: { component: 'kubelet', host: 'n1' }, firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:00Z', count: 1, type: 'Normal', eventTime: null, series: { count: 2, lastObservedTime: '2024-01-01T00:00:00.000000Z' }, reportingComponent: 'kubelet', reportingInstance: 'n1' }],
      ['io.k8s.api.core.v1.Binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web' }, target: { apiVersion: 'v1', kind: 'Node', name: 'n1' } }],
      ['io.k8s.api.policy.v1.Eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web', namespace: 'default' }, deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: 'u' } } }],
      ['io.k8s.api.coordination.v1.Lease', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: '2024-01-01T00:00:00.000000Z' } }],
      ['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions', { propagationPolicy: 'Background', gracePeriodSeconds: 5, dryRun: ['All'] }],
      ['io.k8s.apimachinery.pkg.apis.meta.v1.Status', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'm', reason: 'Invalid', details: { name: 'x', kind: 'pods', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }] }, code: 422 }],
      ['io.k8s.api.core.v1.PodList', { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '5', continue: '' }, items: [samplePod()] }],
    ];
    for (const [schema, obj] of cases) assert.deepEqual(problemsOf(strictProblems(obj, schema)), { unknownFields: [], typeErrors: [] }, schema);
  });
});
