// validateImagePullSecrets (src/api/validation/imagepullsecrets.ts): only `name` may be set, the
// name itself is not checked (upstream neither requires nor validates it).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorString, FieldPath } from '../../../src/api/fielderrors.js';
import type { LocalObjectReference } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { validateImagePullSecrets } from '../../../src/api/validation/imagepullsecrets.js';
import { allGates, assertErrors, podWith } from './helpers.js';

describe('validateImagePullSecrets', () => {
  const path = FieldPath.root('spec').child('imagePullSecrets');
  const rows: { name: string; refs: LocalObjectReference[]; want: string[] }[] = [
    { name: 'a name is valid', refs: [{ name: 'regcred' }], want: [] },
    { name: 'no name is valid (not required upstream)', refs: [{}], want: [] },
    { name: 'any name is valid (not checked upstream)', refs: [{ name: 'Not A Name!' }], want: [] },
    { name: 'a null entry is the zero reference, valid', refs: [null as unknown as LocalObjectReference], want: [] },
    {
      name: 'another field is refused, the entry printed as its Go struct',
      refs: [{ name: 'a' }, { name: 'b', namespace: 'x' } as LocalObjectReference],
      want: ['spec.imagePullSecrets[1]: Invalid value: core.LocalObjectReference{Name:"b"}: only name may be set'],
    },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(validateImagePullSecrets(r.refs, path).map(errorString), r.want));

  test('a pod with pull secrets validates', () => {
    assertErrors(validatePodCreate(podWith((p) => (p.spec.imagePullSecrets = [{ name: 'regcred' }, { name: 'other' }])), { gates: allGates }), []);
  });
});
