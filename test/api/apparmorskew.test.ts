// applyAppArmorVersionSkew (src/api/apparmorskew.ts): the rows of upstream's
// TestApplyAppArmorVersionSkew (kubernetes/kubernetes pkg/registry/core/pod/strategy_test.go, index
// file 148060311), read, not copied. Each row gives the pod, then the annotations, the pod-level
// security context and every container's security context (init containers first) after the step,
// and whether the deprecation warning was given.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyAppArmorVersionSkew } from '../../src/api/apparmorskew.js';
import type { AppArmorProfile, Container, Pod } from '../../src/api/types.js';

const key = (c: string) => `container.apparmor.security.beta.kubernetes.io/${c}`;
const U: AppArmorProfile = { type: 'Unconfined' };
const RD: AppArmorProfile = { type: 'RuntimeDefault' };
const LH: AppArmorProfile = { type: 'Localhost', localhostProfile: 'test' };
const ctr = (name: string, profile?: AppArmorProfile | 'empty'): Container =>
  ({ name, ...(profile === 'empty' ? { securityContext: {} } : profile ? { securityContext: { appArmorProfile: profile } } : {}) }) as Container;
const sc = (p: AppArmorProfile | undefined) => (p ? { appArmorProfile: p } : undefined);

interface Row {
  name: string;
  annotations?: Record<string, string>;
  podSC?: Record<string, unknown>;
  os?: string;
  init?: Container[];
  containers: Container[];
  wantAnnotations: Record<string, string>;
  /** Every container's securityContext afterwards, init containers first. */
  wantSC: (Record<string, unknown> | undefined)[];
  warn?: boolean;
}

const rows: Row[] = [
  { name: 'Security context nil', init: [ctr('init')], containers: [ctr('ctr')], wantAnnotations: {}, wantSC: [undefined, undefined] },
  { name: 'Security context not nil', podSC: {}, init: [ctr('init')], containers: [ctr('ctr')], wantAnnotations: {}, wantSC: [undefined, undefined] },
  { name: 'Pod field unconfined and no annotation present', podSC: sc(U), init: [ctr('init')], containers: [ctr('ctr')], wantAnnotations: { [key('init')]: 'unconfined', [key('ctr')]: 'unconfined' }, wantSC: [undefined, undefined] },
  { name: 'Pod field default and no annotation present', podSC: sc(RD), init: [ctr('init')], containers: [ctr('ctr')], wantAnnotations: { [key('init')]: 'runtime/default', [key('ctr')]: 'runtime/default' }, wantSC: [undefined, undefined] },
  { name: 'Pod field localhost and no annotation present', podSC: sc(LH), init: [ctr('init')], containers: [ctr('ctr')], wantAnnotations: { [key('init')]: 'localhost/test', [key('ctr')]: 'localhost/test' }, wantSC: [undefined, undefined] },
  { name: 'Pod field localhost but profile is nil', podSC: sc({ type: 'Localhost' }), init: [ctr('init')], containers: [ctr('ctr')], wantAnnotations: {}, wantSC: [undefined, undefined] },
  { name: 'Container security context not nil', containers: [ctr('ctr', 'empty')], wantAnnotations: {}, wantSC: [{}] },
  { name: 'Container field RuntimeDefault and no annotation present', containers: [ctr('ctr', RD)], wantAnnotations: { [key('ctr')]: 'runtime/default' }, wantSC: [sc(RD)] },
  { name: 'Container field localhost and no annotation present', containers: [ctr('ctr', LH)], wantAnnotations: { [key('ctr')]: 'localhost/test' }, wantSC: [sc(LH)] },
  { name: 'Container overrides pod profile', podSC: sc(RD), containers: [ctr('ctr', U)], wantAnnotations: { [key('ctr')]: 'unconfined' }, wantSC: [sc(U)] },
  {
    name: 'Multiple containers with fields (container)', init: [ctr('init', LH)], containers: [ctr('a', U), ctr('b'), ctr('c', RD)],
    wantAnnotations: { [key('init')]: 'localhost/test', [key('a')]: 'unconfined', [key('c')]: 'runtime/default' }, wantSC: [sc(LH), sc(U), undefined, sc(RD)],
  },
  { name: "Annotation 'unconfined' and no fields present", annotations: { [key('ctr')]: 'unconfined' }, containers: [ctr('ctr')], wantAnnotations: { [key('ctr')]: 'unconfined' }, wantSC: [sc(U)], warn: true },
  { name: 'Annotation for non-existent container', annotations: { [key('foo-bar')]: 'unconfined' }, containers: [ctr('ctr')], wantAnnotations: { [key('foo-bar')]: 'unconfined' }, wantSC: [undefined] },
  { name: "Annotation 'runtime/default' and no fields present", annotations: { [key('ctr')]: 'runtime/default' }, podSC: sc(U), containers: [ctr('ctr', 'empty')], wantAnnotations: { [key('ctr')]: 'runtime/default' }, wantSC: [sc(RD)], warn: true },
  {
    name: 'Multiple containers by annotations', annotations: { [key('init')]: 'unconfined', [key('a')]: 'localhost/test', [key('c')]: 'runtime/default' }, podSC: sc(RD),
    init: [ctr('init')], containers: [ctr('a'), ctr('b'), ctr('c')],
    wantAnnotations: { [key('init')]: 'unconfined', [key('a')]: 'localhost/test', [key('b')]: 'runtime/default', [key('c')]: 'runtime/default' }, wantSC: [sc(U), sc(LH), undefined, undefined], warn: true,
  },
  { name: 'Conflicting field and annotations', annotations: { [key('ctr')]: 'localhost/test' }, containers: [ctr('ctr', RD)], wantAnnotations: { [key('ctr')]: 'localhost/test' }, wantSC: [sc(RD)] },
  { name: 'Pod field and matching annotations', annotations: { [key('ctr')]: 'runtime/default' }, podSC: sc(RD), containers: [ctr('ctr')], wantAnnotations: { [key('ctr')]: 'runtime/default' }, wantSC: [undefined] },
  { name: 'Annotation overrides pod field', annotations: { [key('ctr')]: 'unconfined' }, podSC: sc(RD), containers: [ctr('ctr')], wantAnnotations: { [key('ctr')]: 'unconfined' }, wantSC: [sc(U)], warn: true },
  {
    name: 'Mixed annotations and fields', annotations: { [key('unconf-annot')]: 'unconfined' }, podSC: sc(RD), containers: [ctr('unconf-annot'), ctr('unconf-field', U), ctr('default-pod')],
    wantAnnotations: { [key('unconf-annot')]: 'unconfined', [key('unconf-field')]: 'unconfined', [key('default-pod')]: 'runtime/default' }, wantSC: [sc(U), sc(U), undefined], warn: true,
  },
  { name: 'Invalid annotation value', annotations: { [key('ctr')]: 'localhost/' }, containers: [ctr('ctr')], wantAnnotations: { [key('ctr')]: 'localhost/' }, wantSC: [undefined], warn: true },
  { name: 'Invalid localhost annotation', annotations: { [key('ctr')]: `localhost/${'a'.repeat(4096)}` }, containers: [ctr('ctr')], wantAnnotations: { [key('ctr')]: `localhost/${'a'.repeat(4096)}` }, wantSC: [undefined], warn: true },
  { name: 'Invalid field type', podSC: sc({ type: 'invalid-type' }), containers: [ctr('ctr')], wantAnnotations: {}, wantSC: [undefined] },
  { name: 'Ignore annotations on windows', annotations: { [key('ctr')]: 'runtime/default' }, os: 'windows', containers: [ctr('ctr')], wantAnnotations: { [key('ctr')]: 'runtime/default' }, wantSC: [undefined] },
];

describe('applyAppArmorVersionSkew (upstream TestApplyAppArmorVersionSkew)', () => {
  for (const r of rows) {
    it(r.name, () => {
      const pod = {
        metadata: { name: 'p', ...(r.annotations ? { annotations: { ...r.annotations } } : {}) },
        spec: { containers: structuredClone(r.containers), ...(r.init ? { initContainers: structuredClone(r.init) } : {}), ...(r.podSC ? { securityContext: structuredClone(r.podSC) } : {}), ...(r.os ? { os: { name: r.os } } : {}) },
      } as Pod;
      const warnings = applyAppArmorVersionSkew(pod);
      assert.deepEqual(pod.metadata.annotations ?? {}, r.wantAnnotations);
      assert.deepEqual(pod.spec.securityContext, r.podSC, 'the pod-level field is never changed');
      assert.deepEqual([...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => c.securityContext), r.wantSC);
      assert.equal(warnings.length > 0, !!r.warn, `warnings: ${JSON.stringify(warnings)}`);
    });
  }
});
