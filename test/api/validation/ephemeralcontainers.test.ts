// ValidatePodEphemeralContainersUpdate, one row per rule: ephemeral containers may be added
// through the subresource but never changed or removed, names are unique across every
// container, the fields outside the ephemeral allow-list are Forbidden, static pods take none;
// and what the subresource takes from the request (ephemeralContainersUpdate).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EphemeralContainer, Pod } from '../../../src/api/types.js';
import { ephemeralContainersUpdate, validatePodEphemeralContainersUpdate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, basePod, container, type Want } from './helpers.js';

function ec(name: string, extra: Partial<EphemeralContainer> = {}): EphemeralContainer {
  return { ...container(name), resources: undefined, ...extra } as EphemeralContainer;
}

function withEphemeral(list: EphemeralContainer[] | undefined, mutate: (p: Pod) => void = () => {}): Pod {
  const p = basePod();
  if (list) p.spec.ephemeralContainers = list;
  delete p.spec.containers[0]!.resources;
  mutate(p);
  return p;
}

type Row = { name: string; old: Pod; next: Pod; want: Want };

const debug = ec('debugger', { targetContainerName: 'c' });

const rows: Row[] = [
  { name: 'adding the first ephemeral container is allowed', old: withEphemeral(undefined), next: withEphemeral([debug]), want: [] },
  { name: 'adding a second one, in any order, is allowed', old: withEphemeral([debug]), next: withEphemeral([ec('second'), debug]), want: [] },
  { name: 'an update that changes nothing is allowed', old: withEphemeral([debug]), next: withEphemeral([debug]), want: [] },
  {
    name: 'an existing ephemeral container may not be removed',
    old: withEphemeral([debug]),
    next: withEphemeral([]),
    want: [['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n']],
  },
  {
    name: 'an existing ephemeral container may not be changed (the changed fields are listed)',
    old: withEphemeral([debug]),
    next: withEphemeral([{ ...debug, image: 'alpine' }]),
    want: [['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be changed\n-\timage: "busybox:1.36"\n+\timage: "alpine"']],
  },
  {
    name: 'an added field counts as a change',
    old: withEphemeral([debug]),
    next: withEphemeral([{ ...debug, tty: true }]),
    want: [['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be changed\n+\ttty: true']],
  },
  {
    name: 'a pod-deletion-cost the stored pod already got wrong is let be (AllowInvalidPodDeletionCost)',
    old: withEphemeral(undefined, (p) => (p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '008' })),
    next: withEphemeral([debug], (p) => (p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '008' })),
    want: [],
  },
  {
    name: 'a pod-deletion-cost made invalid by the update is refused',
    old: withEphemeral(undefined, (p) => (p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '8' })),
    next: withEphemeral([debug], (p) => (p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '+8' })),
    want: [['FieldValueInvalid', 'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+8": must be a 32bit integer']],
  },
  {
    name: 'a name used by a container is Duplicate',
    old: withEphemeral(undefined),
    next: withEphemeral([ec('c')]),
    want: [['FieldValueDuplicate', 'spec.ephemeralContainers[0].name: Duplicate value: "c"']],
  },
  {
    name: 'a name used by an init container is Duplicate',
    old: withEphemeral(undefined, (p) => (p.spec.initContainers = [container('init')])),
    next: withEphemeral([ec('init')], (p) => (p.spec.initContainers = [container('init')])),
    want: [['FieldValueDuplicate', 'spec.ephemeralContainers[0].name: Duplicate value: "init"']],
  },
  {
    name: 'two ephemeral containers of one name are Duplicate',
    old: withEphemeral(undefined),
    next: withEphemeral([ec('d'), ec('d')]),
    want: [['FieldValueDuplicate', 'spec.ephemeralContainers[1].name: Duplicate value: "d"']],
  },
  {
    name: 'targetContainerName must name a container of the pod',
    old: withEphemeral(undefined),
    next: withEphemeral([ec('d', { targetContainerName: 'missing' })]),
    want: [['FieldValueNotFound', 'spec.ephemeralContainers[0].targetContainerName: Not found: "missing"']],
  },
  {
    name: 'ports are Forbidden',
    old: withEphemeral(undefined),
    next: withEphemeral([ec('d', { ports: [{ containerPort: 80 }] })]),
    want: [['FieldValueForbidden', 'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container']],
  },
  {
    name: 'resources are Forbidden',
    old: withEphemeral(undefined),
    next: withEphemeral([ec('d', { resources: { limits: { cpu: '1' } } })]),
    want: [['FieldValueForbidden', 'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container']],
  },
  {
    name: 'a liveness probe is Forbidden',
    old: withEphemeral(undefined),
    next: withEphemeral([ec('d', { livenessProbe: { exec: { command: ['true'] } } })]),
    want: [['FieldValueForbidden', 'spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container']],
  },
  {
    name: 'lifecycle is Forbidden',
    old: withEphemeral(undefined),
    next: withEphemeral([ec('d', { lifecycle: { preStop: { exec: { command: ['true'] } } } })]),
    want: [['FieldValueForbidden', 'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container']],
  },
  {
    name: 'a static pod supports no ephemeral containers',
    old: withEphemeral(undefined, (p) => (p.metadata.annotations = { 'kubernetes.io/config.mirror': 'x' })),
    next: withEphemeral([debug], (p) => (p.metadata.annotations = { 'kubernetes.io/config.mirror': 'x' })),
    want: [['FieldValueForbidden', ': Forbidden: static pods do not support ephemeral containers']],
  },
];

describe('ValidatePodEphemeralContainersUpdate', () => {
  for (const r of rows) {
    test(r.name, () => assertErrors(validatePodEphemeralContainersUpdate(r.next, r.old, { gates: allGates }), r.want));
  }
});

// Upstream strategy_test.go TestEphemeralContainerStrategyValidateUpdate (kubernetes/kubernetes
// pkg/registry/core/pod/strategy_test.go, index file 148060311): the first row must pass, the
// others must give exactly one error.
describe('upstream TestEphemeralContainerStrategyValidateUpdate', () => {
  const dbg = (image = 'image') => ec('debugger', { image });
  const mirror = (p: Pod) => {
    p.metadata.annotations = { 'kubernetes.io/config.mirror': 'someVal' };
    p.spec.nodeName = 'example.com';
  };
  const rows: { name: string; old: Pod; next: Pod; errors: number }[] = [
    { name: 'add ephemeral container to regular pod and expect success', old: withEphemeral(undefined), next: withEphemeral([dbg()]), errors: 0 },
    { name: 'add ephemeral container to static pod and expect failure', old: withEphemeral(undefined, mirror), next: withEphemeral([dbg()], mirror), errors: 1 },
    { name: 'remove ephemeral container from regular pod and expect failure', old: withEphemeral([dbg()]), next: withEphemeral(undefined), errors: 1 },
    { name: 'change ephemeral container from regular pod and expect failure', old: withEphemeral([dbg()]), next: withEphemeral([dbg('image2')]), errors: 1 },
  ];
  for (const r of rows) test(r.name, () => assert.equal(validatePodEphemeralContainersUpdate(r.next, r.old, { gates: allGates }).length, r.errors));
});

describe('ephemeralContainersUpdate (dropNonEphemeralContainerUpdates)', () => {
  test('a null item is the zero container: its name and image are Required, nothing throws', () => {
    const old = withEphemeral(undefined);
    const req = withEphemeral([null as unknown as EphemeralContainer]);
    assertErrors(validatePodEphemeralContainersUpdate(ephemeralContainersUpdate(req, old), old, { gates: allGates }), [
      ['FieldValueRequired', 'spec.ephemeralContainers[0].name: Required value'],
      ['FieldValueRequired', 'spec.ephemeralContainers[0].image: Required value'],
    ]);
  });

  test('only the ephemeral containers come from the request; labels are the stored pod\'s', () => {
    const old = withEphemeral(undefined);
    const req = withEphemeral([debug], (p) => {
      p.spec.activeDeadlineSeconds = 5;
      p.spec.containers[0]!.image = 'other';
      p.metadata.labels = { a: 'b' };
      p.status = { phase: 'Failed' };
    });
    const got = ephemeralContainersUpdate(req, old);
    assert.deepEqual(got.spec, { ...old.spec, ephemeralContainers: [debug] });
    assert.deepEqual(got.metadata.labels, old.metadata.labels);
    assert.equal(got.status, old.status);
  });

  // Upstream strategy_test.go TestDropNonEphemeralContainerUpdates (index file 148060311).
  const meta = (name: string, ns: string, rv: string, extra: Partial<Pod['metadata']> = {}) => ({ name, namespace: ns, resourceVersion: rv, ...extra });
  const image = (n: string, img = 'image') => ({ name: n, image: img }) as EphemeralContainer;
  const rows: { name: string; old: Pod; next: Pod; want: Pod }[] = [
    {
      name: 'simple ephemeral container append',
      old: { metadata: meta('test-pod', 'test-ns', '1'), spec: { containers: [image('container')] } },
      next: { metadata: meta('test-pod', 'test-ns', '1'), spec: { containers: [image('container')], ephemeralContainers: [image('container')] } },
      want: { metadata: meta('test-pod', 'test-ns', '1'), spec: { containers: [image('container')], ephemeralContainers: [image('container')] } },
    },
    {
      name: 'whoops wrong pod',
      old: { metadata: meta('test-pod', 'test-ns', '1', { uid: 'blue' }), spec: {} as Pod['spec'] },
      next: { metadata: meta('new-pod', 'new-ns', '1', { uid: 'green' }), spec: {} as Pod['spec'] },
      want: { metadata: meta('new-pod', 'new-ns', '1', { uid: 'green' }), spec: {} as Pod['spec'] },
    },
    {
      name: 'resource conflict during update',
      old: { metadata: meta('test-pod', 'test-ns', '2', { uid: 'blue' }), spec: {} as Pod['spec'] },
      next: { metadata: meta('test-pod', 'test-ns', '1', { uid: 'blue' }), spec: {} as Pod['spec'] },
      want: { metadata: meta('test-pod', 'test-ns', '1', { uid: 'blue' }), spec: {} as Pod['spec'] },
    },
    {
      name: 'drop non-ephemeral container changes',
      old: { metadata: meta('test-pod', 'test-ns', '1', { annotations: { foo: 'bar' } }), spec: { containers: [image('container')] } },
      next: {
        metadata: meta('test-pod', 'test-ns', '1', { annotations: { foo: 'bar', whiz: 'pop' }, finalizers: ['milo'] }),
        spec: { containers: [image('container', 'newimage')], ephemeralContainers: [image('container1'), image('container2')] },
        status: { message: 'hi.' },
      },
      want: { metadata: meta('test-pod', 'test-ns', '1', { annotations: { foo: 'bar' } }), spec: { containers: [image('container')], ephemeralContainers: [image('container1'), image('container2')] } },
    },
  ];
  for (const r of rows) test(`upstream TestDropNonEphemeralContainerUpdates: ${r.name}`, () => assert.deepEqual(ephemeralContainersUpdate(r.next, r.old), r.want));
});
