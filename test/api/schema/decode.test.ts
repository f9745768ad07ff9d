// decodeObject, the one decoder of the API server and `bulkhead plan`: the Status message of a
// decoding error, fieldValidation Strict/Warn/Ignore, and the input left as it was.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeObject, objectGVK, type FieldValidation } from '../../../src/api/schema/index.js';

type Json = Record<string, unknown>;
const podGVK = { group: '', version: 'v1', kind: 'Pod' };
const pod = (spec: Json = {}): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });

describe('decodeObject', () => {
  const rows: { name: string; obj: Json; fv?: FieldValidation; gvk?: typeof podGVK; want: Json }[] = [
    { name: 'a clean object decodes as it is', obj: pod(), want: { ok: true, warnings: [] } },
    {
      name: 'Strict: unknown fields fail with the strict decoding message',
      obj: pod({ foo: 1 }),
      want: { ok: false, message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"' },
    },
    { name: 'Warn: unknown fields are dropped, one warning each', obj: pod({ foo: 1 }), fv: 'Warn', want: { ok: true, warnings: ['unknown field "spec.foo"'], dropped: true } },
    { name: 'Ignore: unknown fields are dropped silently', obj: pod({ foo: 1 }), fv: 'Ignore', want: { ok: true, warnings: [], dropped: true } },
    {
      name: 'a type error fails under every fieldValidation and names its field',
      obj: pod({ hostPID: 'yes' }),
      fv: 'Ignore',
      want: { ok: false, message: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.hostPID of type bool', path: 'spec.hostPID' },
    },
    { name: 'a kind without a schema decodes as it is', obj: { apiVersion: 'example.com/v1', kind: 'Widget', spec: { foo: 1 } }, gvk: { group: 'example.com', version: 'v1', kind: 'Widget' }, want: { ok: true, warnings: [] } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const before = structuredClone(r.obj);
      const d = decodeObject(r.obj, r.gvk ?? podGVK, r.fv ?? 'Strict');
      assert.deepEqual(r.obj, before, 'the input was changed');
      assert.equal(d.ok, r.want.ok);
      if (d.ok) {
        assert.deepEqual(d.warnings, r.want.warnings);
        if (r.want.dropped) assert.deepEqual(d.object, pod());
        else assert.equal(d.object, r.obj, 'a clean object is not copied');
      } else {
        assert.equal(d.message, r.want.message);
        assert.equal(d.problem?.path, r.want.path);
      }
    });
  }
  it('objectGVK reads the core group and named groups from apiVersion', () => {
    assert.deepEqual(objectGVK({ apiVersion: 'v1', kind: 'Pod' }), { group: '', version: 'v1', kind: 'Pod' });
    assert.deepEqual(objectGVK({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }), { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' });
  });
});
