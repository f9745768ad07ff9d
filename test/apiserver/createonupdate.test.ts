// A PUT of a missing object, through the real HTTP API: the kinds whose registry strategy has
// AllowCreateOnUpdate (Endpoints, LimitRange, Event, Lease, RuntimeClass and the four RBAC kinds)
// create it (201, admitted as a create), every other kind answers 404. The update handler's
// checks come first (the body's name must be the path's), and creating needs the create verb as
// well as update (withAuthorization in the update handler). The body's uid is still a precondition
// (rest.DefaultUpdatedObjectInfo.Preconditions), which Store.Update's GuaranteedUpdate checks against
// the empty object of the missing key: a PUT-create with a uid is a 409, before the create's
// authorization; a body's resourceVersion is ignored (the storage clears it). RuntimeClass also has
// AllowUnconditionalUpdate false: its updates must carry a resourceVersion. One row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from './kubectlserver.js';

const G = 'rbac.authorization.k8s.io';

const precondition = (resource: string, name: string, uid: string) => `Operation cannot be fulfilled on ${resource} "${name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: `;

const rows: { rule: string; path: string; body: Record<string, any>; status: number; message?: string }[] = [
  { rule: 'Endpoints are created by a PUT', path: '/api/v1/namespaces/default/endpoints/put-ep', body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'put-ep' } }, status: 201 },
  {
    rule: 'a LimitRange is created by a PUT',
    path: '/api/v1/namespaces/default/limitranges/put-lr',
    body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'put-lr' }, spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] } },
    status: 201,
  },
  {
    rule: 'an Event is created by a PUT',
    path: '/api/v1/namespaces/default/events/put-ev',
    body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'put-ev' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm', type: 'Normal' },
    status: 201,
  },
  { rule: 'a Lease is created by a PUT', path: '/apis/coordination.k8s.io/v1/namespaces/default/leases/put-lease', body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'put-lease' }, spec: {} }, status: 201 },
  { rule: 'a RuntimeClass is created by a PUT', path: '/apis/node.k8s.io/v1/runtimeclasses/put-rc', body: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'put-rc' }, handler: 'runc' }, status: 201 },
  {
    rule: 'a PUT that would create, with a uid in its body, fails that precondition (409) and creates nothing',
    path: '/api/v1/namespaces/default/endpoints/put-ep-uid',
    body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'put-ep-uid', uid: 'c0ffee' } },
    status: 409,
    message: precondition('endpoints', 'put-ep-uid', 'c0ffee'),
  },
  {
    rule: 'the uid precondition of a PUT-create names the resource with its group',
    path: `/apis/${G}/v1/namespaces/default/roles/put-role-uid`,
    body: { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'put-role-uid', uid: 'c0ffee' }, rules: [] },
    status: 409,
    message: precondition(`roles.${G}`, 'put-role-uid', 'c0ffee'),
  },
  {
    rule: "a PUT-create's uid is checked before the object is validated",
    path: '/apis/coordination.k8s.io/v1/namespaces/default/leases/put-lease-uid',
    body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'put-lease-uid', uid: 'c0ffee' }, spec: { leaseDurationSeconds: -1 } },
    status: 409,
    message: precondition('leases.coordination.k8s.io', 'put-lease-uid', 'c0ffee'),
  },
  {
    rule: 'an empty uid is no precondition: the PUT creates',
    path: '/api/v1/namespaces/default/endpoints/put-ep-empty-uid',
    body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'put-ep-empty-uid', uid: '' } },
    status: 201,
  },
  {
    rule: "a PUT-create's resourceVersion is ignored: created, at the store's revision",
    path: '/api/v1/namespaces/default/endpoints/put-ep-rv',
    body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'put-ep-rv', resourceVersion: '987654321' } },
    status: 201,
  },
  { rule: 'a ConfigMap is not (404)', path: '/api/v1/namespaces/default/configmaps/put-cm', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'put-cm' } }, status: 404 },
  { rule: 'a ServiceAccount is not (404)', path: '/api/v1/namespaces/default/serviceaccounts/put-sa', body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'put-sa' } }, status: 404 },
  { rule: 'a PriorityClass is not (404)', path: '/apis/scheduling.k8s.io/v1/priorityclasses/put-pc', body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'put-pc' }, value: 1 }, status: 404 },
];

describe('PUT of a missing object (AllowCreateOnUpdate)', () => {
  const t = useTestServer('bulkhead-createonupdate-');

  for (const row of rows) {
    it(row.rule, async () => {
      const r = await t.admin().request('PUT', row.path, row.body);
      assert.equal(r.status, row.status, r.text);
      if (row.message !== undefined) assert.equal(r.json().message, row.message);
      if (r.status === 201) {
        assert.match(r.json().metadata.uid, /^[0-9a-f-]{36}$/, 'a uid of its own');
        assert.notEqual(r.json().metadata.resourceVersion, row.body.metadata.resourceVersion);
      }
      const again = await t.admin().request('GET', row.path);
      assert.equal(again.status, row.status === 201 ? 200 : 404, again.text);
    });
  }

  it('a RuntimeClass update must carry a resourceVersion (its AllowUnconditionalUpdate is false); a patch need not', async () => {
    const path = '/apis/node.k8s.io/v1/runtimeclasses/put-rc';
    const current = (await t.admin().request('GET', path)).json();
    const { resourceVersion, ...meta } = current.metadata;
    const refused = await t.admin().request('PUT', path, { ...current, metadata: meta });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.json().message, 'runtimeclasses.node.k8s.io "put-rc" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
    const sent = await t.admin().request('PUT', path, { ...current, metadata: { ...meta, resourceVersion, labels: { a: 'b' } } });
    assert.equal(sent.status, 200, sent.text);
    const patched = await t.admin().request('PATCH', path, { metadata: { labels: { a: 'c' } } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    // An Endpoints object (AllowUnconditionalUpdate true) takes a PUT without one.
    const ep = (await t.admin().request('GET', '/api/v1/namespaces/default/endpoints/put-ep')).json();
    delete ep.metadata.resourceVersion;
    assert.equal((await t.admin().request('PUT', '/api/v1/namespaces/default/endpoints/put-ep', ep)).status, 200);
  });

  it("the body's name must be the path's, as on any update (400)", async () => {
    const r = await t.admin().request('PUT', '/api/v1/namespaces/default/endpoints/one-name', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'another-name' } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json().message, 'the name of the object (another-name) does not match the name on the URL (one-name)');
  });

  it('creating needs the create verb: a user who may only update is refused (403)', async () => {
    const role = { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'update-only' }, rules: [{ apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'update'] }] };
    assert.equal((await t.admin().request('POST', `/apis/${G}/v1/namespaces/default/roles`, role)).status, 201);
    const binding = { apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'update-only' }, roleRef: { apiGroup: G, kind: 'Role', name: 'update-only' }, subjects: [{ kind: 'User', apiGroup: G, name: 'updater' }] };
    assert.equal((await t.admin().request('POST', `/apis/${G}/v1/namespaces/default/rolebindings`, binding)).status, 201);
    const as = { 'Impersonate-User': 'updater' };
    const refused = await t.admin().request('PUT', '/api/v1/namespaces/default/endpoints/by-updater', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'by-updater' } }, as);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json().message, 'endpoints "by-updater" is forbidden: User "updater" cannot create resource "endpoints" in API group "" in the namespace "default"');
    // The body's uid fails its precondition in the store, before the create's authorization.
    const withUid = await t.admin().request('PUT', '/api/v1/namespaces/default/endpoints/by-updater', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'by-updater', uid: 'c0ffee' } }, as);
    assert.equal(withUid.status, 409, withUid.text);
    assert.equal(withUid.json().message, precondition('endpoints', 'by-updater', 'c0ffee'));
    // An existing object is that user's to update.
    const made = await t.admin().request('PUT', '/api/v1/namespaces/default/endpoints/by-updater', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'by-updater' } });
    assert.equal(made.status, 201, made.text);
    const ep = made.json();
    ep.metadata.labels = { a: 'b' };
    const updated = await t.admin().request('PUT', '/api/v1/namespaces/default/endpoints/by-updater', ep, as);
    assert.equal(updated.status, 200, updated.text);
  });
});
