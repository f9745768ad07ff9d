// What a kind's PrepareForCreate does to a create before validation, through the real HTTP API:
// a LimitRange sent without a name (and without generateName) is named with a fresh UUID, as
// pkg/registry/core/limitrange/strategy.go does (other kinds answer such a create with a 422);
// a ServiceAccount's secret references keep only their names (cleanSecretReferences), on create
// and on update, and its deprecated kubernetes.io/enforce-mountable-secrets annotation draws
// 1.32's warning (WarningsOnCreate / WarningsOnUpdate).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from './kubectlserver.js';

type Headers = Record<string, string | string[] | undefined>;
const warnings = (h: Headers) => [h.warning ?? []].flat();

const rows: { rule: string; path: string; body: Record<string, unknown>; status: number; name?: RegExp; message?: string; check?: (o: Record<string, any>, h: Headers) => void }[] = [
  {
    rule: 'a LimitRange without a name is named with a UUID',
    path: '/api/v1/namespaces/default/limitranges',
    body: { apiVersion: 'v1', kind: 'LimitRange', metadata: {}, spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] } },
    status: 201,
    name: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  },
  {
    rule: 'a LimitRange with generateName keeps the generated name',
    path: '/api/v1/namespaces/default/limitranges',
    body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { generateName: 'lr-' }, spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] } },
    status: 201,
    name: /^lr-[a-z0-9]{5}$/,
  },
  {
    rule: 'a ConfigMap without a name is a 422',
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} },
    status: 422,
    message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
  },
  {
    rule: "a ServiceAccount's secret references keep only their names",
    path: '/api/v1/namespaces/default/serviceaccounts',
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'clean' }, secrets: [{ name: 's1', namespace: 'other', kind: 'Secret', uid: 'abc' }, { kind: 'Secret' }] },
    status: 201,
    check: (o, h) => {
      assert.deepEqual(o.secrets, [{ name: 's1' }, {}]);
      assert.deepEqual(warnings(h), []);
    },
  },
  {
    rule: 'a ServiceAccount with the enforce-mountable-secrets annotation is created with a deprecation warning',
    path: '/api/v1/namespaces/default/serviceaccounts',
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'mountable', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } } },
    status: 201,
    check: (_o, h) => assert.deepEqual(warnings(h), ['299 - "metadata.annotations[kubernetes.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"']),
  },
];

describe('PrepareForCreate', () => {
  const t = useTestServer('bulkhead-preparecreate-');

  it("a ServiceAccount update's secret references keep only their names", async () => {
    const path = '/api/v1/namespaces/default/serviceaccounts';
    const c = await t.admin().request('POST', path, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'clean-update' } });
    assert.equal(c.status, 201, c.text);
    const sa = c.json();
    sa.secrets = [{ name: 's2', namespace: 'elsewhere', resourceVersion: '7' }];
    const u = await t.admin().request('PUT', `${path}/clean-update`, sa);
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.json().secrets, [{ name: 's2' }]);
    sa.metadata = { ...u.json().metadata, annotations: { 'kubernetes.io/enforce-mountable-secrets': 'false' } };
    const w = await t.admin().request('PUT', `${path}/clean-update`, sa);
    assert.equal(w.status, 200, w.text);
    assert.equal(warnings(w.headers).length, 1, 'the update warns too, whatever the value');
  });

  for (const row of rows) {
    it(row.rule, async () => {
      const r = await t.admin().request('POST', row.path, row.body);
      assert.equal(r.status, row.status, r.text);
      const body = r.json();
      if (row.message) assert.equal(body.message, row.message);
      row.check?.(body, r.headers);
      if (row.name) {
        assert.match(body.metadata.name, row.name);
        assert.equal((await t.admin().request('GET', `${row.path}/${body.metadata.name}`)).status, 200);
      }
    });
  }
});
