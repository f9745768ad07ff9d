// The pod a workload controller creates from its template (src/policy/podtemplate.ts:
// GetPodFromTemplate, getPodsPrefix), one row per rule.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OwnerReference, PodTemplateSpec } from '../../src/api/types.js';
import { podFromTemplate, podNamePrefix } from '../../src/policy/podtemplate.js';

const ref: OwnerReference = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'rs-uid', controller: true, blockOwnerDeletion: true };

describe('the generateName prefix (getPodsPrefix)', () => {
  const rows: { name: string; owner: string; want: string }[] = [
    { name: 'a valid name: <name>-', owner: 'web-abc', want: 'web-abc-' },
    { name: 'a name that cannot prefix a pod name is used as it is', owner: 'Web', want: 'Web' },
    // ValidatePodName(prefix, true) masks the trailing dash (name[:len-2]+"a"), so `<name>-` is
    // valid while the name itself fits 253: no room is kept for the random suffix.
    { name: 'a 253-character name still gets the dash (the dash is masked, not counted)', owner: 'a'.repeat(253), want: `${'a'.repeat(253)}-` },
    { name: 'a 248-character name gets the dash (no room kept for the suffix)', owner: 'a'.repeat(248), want: `${'a'.repeat(248)}-` },
    { name: 'a name too long for a pod name is used as it is', owner: 'a'.repeat(254), want: 'a'.repeat(254) },
  ];
  for (const r of rows) test(r.name, () => assert.equal(podNamePrefix(r.owner), r.want));
});

describe('the pod made from the template (GetPodFromTemplate)', () => {
  const rows: { name: string; template: PodTemplateSpec | undefined; check: (p: ReturnType<typeof podFromTemplate>) => void }[] = [
    {
      name: 'generateName <owner>-, template labels and annotations, the controller reference, the spec',
      template: { metadata: { labels: { app: 'web' }, annotations: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      check: (p) => {
        assert.equal(p.metadata.generateName, 'web-abc-');
        assert.deepEqual(p.metadata.labels, { app: 'web' });
        assert.deepEqual(p.metadata.annotations, { a: 'b' });
        assert.deepEqual(p.metadata.ownerReferences, [ref]);
        assert.deepEqual(p.spec, { containers: [{ name: 'c', image: 'busybox' }] });
      },
    },
    { name: "the template's finalizers are copied", template: { metadata: { finalizers: ['x/y'] }, spec: { containers: [] } }, check: (p) => assert.deepEqual(p.metadata.finalizers, ['x/y']) },
    {
      name: 'empty labels, annotations and finalizers are omitted (omitempty)',
      template: { metadata: { labels: {}, annotations: {}, finalizers: [] }, spec: { containers: [] } },
      check: (p) => assert.deepEqual(Object.keys(p.metadata).sort(), ['generateName', 'ownerReferences']),
    },
    { name: 'the namespace is left to the create', template: { spec: { containers: [] } }, check: (p) => assert.equal(p.metadata.namespace, undefined) },
    { name: 'no template: an empty spec', template: undefined, check: (p) => assert.deepEqual(p.spec, { containers: [] }) },
  ];
  for (const r of rows) test(r.name, () => r.check(podFromTemplate(r.template, 'web-abc', ref)));

  test('the spec is a deep copy: changing the pod leaves the template alone', () => {
    const template: PodTemplateSpec = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    const p = podFromTemplate(template, 'web-abc', ref);
    p.spec.containers[0]!.image = 'nginx';
    p.metadata.labels!.app = 'other';
    assert.equal(template.spec!.containers[0]!.image, 'busybox');
    assert.equal(template.metadata!.labels!.app, 'web');
  });
});
