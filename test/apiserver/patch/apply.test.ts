// applyPatch (src/apiserver/patch/apply.ts): server-side apply with field ownership, one row per
// rule of structured-merge-diff's Updater.Apply and kube-apiserver's field manager chain.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyConflictError,
  applyPatch,
  ApplyTypedObjectError,
  conflictCauses,
  conflictStatusMessage,
  LAST_APPLIED_ANNOTATION,
  type ApplyOptions,
  type ApplyResult,
  type ApplySuccess,
} from '../../../src/apiserver/patch/apply.js';
import { ApplyBadRequestError, type ApplyConflict } from '../../../src/apiserver/patch/errors.js';
import { POD_ZERO_OBJECT, updateManagedFields } from '../../../src/apiserver/patch/managedfields.js';
import type { JSONObject } from '../../../src/apiserver/patch/json.js';
import type { ManagedFieldsEntry } from '../../../src/api/types.js';
import { podSchema } from './podschema.js';

const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T10:01:00Z';
const T2 = '2024-05-01T10:02:00Z';

const o = (manager: string, now: string, extra: Partial<ApplyOptions> = {}): ApplyOptions => ({ manager, now, schema: podSchema, apiVersion: 'v1', kind: 'Pod', zero: POD_ZERO_OBJECT, ...extra });

type Spec = Record<string, unknown>;
const cfg = (spec: Spec | undefined, metadata: Record<string, unknown> = {}): JSONObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...metadata }, ...(spec ? { spec } : {}) }) as JSONObject;
const ctr = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name, ...extra });

function ok(r: ApplyResult): ApplySuccess {
  assert.equal(r.conflicts, undefined, `unexpected conflicts ${JSON.stringify(r.conflicts)}`);
  return r as ApplySuccess;
}

/** The server's part after an apply: the object gets a uid and resourceVersion. */
function stored(r: ApplyResult, rv = '1'): JSONObject {
  const obj = structuredClone(ok(r).object);
  Object.assign(obj.metadata as JSONObject, { uid: 'uid-1', resourceVersion: rv, creationTimestamp: T0 });
  return obj;
}

const fieldsOf = (obj: JSONObject, manager: string, operation = 'Apply'): unknown =>
  ((obj.metadata as JSONObject).managedFields as unknown as ManagedFieldsEntry[]).find((e) => e.manager === manager && e.operation === operation)?.fieldsV1;
const managers = (obj: JSONObject): string[] => ((obj.metadata as JSONObject).managedFields as unknown as ManagedFieldsEntry[]).map((e) => `${e.manager}/${e.operation}`);
const labels = (obj: JSONObject): unknown => (obj.metadata as JSONObject).labels;
const containers = (obj: JSONObject): JSONObject[] => (obj.spec as JSONObject).containers as JSONObject[];

const base = cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })] }, { labels: { app: 'web', tier: 'v1' } });
const created = stored(applyPatch(undefined, base, o('kubectl', T0)));

describe('server-side apply', () => {
  it('creates the object from the configuration, owned by the manager (operation Apply)', () => {
    const r = ok(applyPatch(undefined, base, o('kubectl', T0)));
    assert.equal(r.changed, true);
    assert.deepEqual(r.managedFields, [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    ]);
    assert.deepEqual({ ...r.object, metadata: { ...(r.object.metadata as JSONObject), managedFields: undefined } }, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'v1' }, managedFields: undefined },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      status: {},
    });
  });

  it('applying the same configuration again changes nothing (not even the time)', () => {
    const r = ok(applyPatch(created, base, o('kubectl', T1)));
    assert.equal(r.changed, false);
    assert.deepEqual(r.object, created);
  });

  it('a label the manager no longer applies is removed', () => {
    const r = ok(applyPatch(created, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })] }, { labels: { app: 'web' } }), o('kubectl', T1)));
    assert.deepEqual(labels(r.object), { app: 'web' });
    assert.deepEqual(fieldsOf(r.object, 'kubectl'), { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });

  it('all labels no longer applied: the labels map goes away', () => {
    const r = ok(applyPatch(created, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })] }), o('kubectl', T1)));
    assert.equal(labels(r.object), undefined);
  });

  it('a container the manager no longer applies is removed', () => {
    const two = stored(applyPatch(created, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' }), ctr('side', { image: 'busybox' })] }, { labels: { app: 'web', tier: 'v1' } }), o('kubectl', T1)));
    assert.deepEqual(containers(two).map((c) => c.name), ['nginx', 'side']);
    const r = ok(applyPatch(two, base, o('kubectl', T2)));
    assert.deepEqual(containers(r.object), [{ name: 'nginx', image: 'nginx:1.25' }]);
  });

  it('a field no longer applied but also owned by an Update manager is kept (ownership of the applier dropped)', () => {
    const next = structuredClone(created);
    (next.metadata as JSONObject).labels = { app: 'web', tier: 'v1', extra: 'x' };
    const touched = updateManagedFields(created, next, 'kubectl-label', 'Update', { schema: podSchema, apiVersion: 'v1', now: T1 });
    // kubectl-label set extra; now the applier stops applying tier and does not know extra.
    const r = ok(applyPatch(touched, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })] }, { labels: { app: 'web' } }), o('kubectl', T2)));
    assert.deepEqual(labels(r.object), { app: 'web', extra: 'x' });
  });

  it('a field two appliers set to the same value is shared, and stays when one stops applying it', () => {
    const shared = stored(applyPatch(created, cfg(undefined, { labels: { tier: 'v1' } }), o('other', T1)));
    assert.deepEqual(fieldsOf(shared, 'other'), { 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
    const r = ok(applyPatch(shared, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })] }, { labels: { app: 'web' } }), o('kubectl', T2)));
    assert.deepEqual(labels(r.object), { app: 'web', tier: 'v1' });
  });

  it('a different value for a field another applier owns is a conflict (Apply managers print no version)', () => {
    const r = applyPatch(created, cfg(undefined, { labels: { tier: 'v2' } }), o('other', T1));
    assert.deepEqual(r.conflicts, [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', subresource: '', field: '.metadata.labels.tier' }]);
    assert.equal(conflictStatusMessage(r.conflicts!), 'Apply failed with 1 conflict: conflict with "kubectl": .metadata.labels.tier');
  });

  it('force takes ownership: the value changes hands', () => {
    const r = ok(applyPatch(created, cfg(undefined, { labels: { tier: 'v2' } }), o('other', T1, { force: true })));
    assert.deepEqual(labels(r.object), { app: 'web', tier: 'v2' });
    assert.deepEqual(fieldsOf(r.object, 'other'), { 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
    assert.deepEqual(fieldsOf(r.object, 'kubectl'), { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });

  it('conflicts with an Update manager print its apiVersion', () => {
    const next = structuredClone(created);
    ((next.spec as JSONObject).containers as JSONObject[])[0].image = 'nginx:1.26';
    const edited = updateManagedFields(created, next, 'kubectl-edit', 'Update', { schema: podSchema, apiVersion: 'v1', now: T1 });
    const r = applyPatch(edited, base, o('kubectl', T2));
    assert.deepEqual(r.conflicts, [{ manager: 'kubectl-edit', operation: 'Update', apiVersion: 'v1', subresource: '', field: '.spec.containers[name="nginx"].image' }]);
    assert.equal(conflictStatusMessage(r.conflicts!), 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .spec.containers[name="nginx"].image');
  });

  it('several conflicts: grouped by manager (sorted), fields in set order, plural wording', () => {
    const other = stored(applyPatch(created, cfg(undefined, { labels: { extra: 'x' } }), o('b-applier', T1)));
    const r = applyPatch(other, cfg({ containers: [ctr('nginx', { image: 'nginx:9' })] }, { labels: { app: 'other', extra: 'y' } }), o('a-applier', T2));
    assert.equal(
      conflictStatusMessage(r.conflicts!),
      'Apply failed with 3 conflicts: conflicts with "b-applier":\n- .metadata.labels.extra\nconflicts with "kubectl":\n- .metadata.labels.app\n- .spec.containers[name="nginx"].image',
    );
    assert.deepEqual(conflictCauses(r.conflicts!), [
      { reason: 'FieldManagerConflict', message: 'conflict with "b-applier"', field: '.metadata.labels.extra' },
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.metadata.labels.app' },
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.containers[name="nginx"].image' },
    ]);
  });

  it('set members (metadata.finalizers) are owned one by one (v:) and removed when no longer applied', () => {
    const a = stored(applyPatch(created, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })] }, { labels: { app: 'web', tier: 'v1' }, finalizers: ['example.com/a', 'example.com/b'] }), o('kubectl', T1)));
    assert.deepEqual((fieldsOf(a, 'kubectl') as JSONObject)['f:metadata'], { 'f:finalizers': { 'v:"example.com/a"': {}, 'v:"example.com/b"': {} }, 'f:labels': { 'f:app': {}, 'f:tier': {} } });
    const r = ok(applyPatch(a, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })] }, { labels: { app: 'web', tier: 'v1' }, finalizers: ['example.com/b'] }), o('kubectl', T2)));
    assert.deepEqual((r.object.metadata as JSONObject).finalizers, ['example.com/b']);
  });

  it('a list map (securityContext.ulimits) merges by name: another manager\'s ulimit stays, a dropped one goes', () => {
    const withU = (names: string[]): JSONObject => cfg({ containers: [ctr('nginx', { securityContext: { ulimits: names.map((n) => ({ name: n, soft: 1, hard: 2 })) } })] });
    const a = stored(applyPatch(undefined, withU(['nofile', 'nproc']), o('a', T0)));
    const b = stored(applyPatch(a, withU(['core']), o('b', T1)));
    assert.deepEqual(((containers(b)[0].securityContext as JSONObject).ulimits as JSONObject[]).map((u) => u.name), ['nofile', 'nproc', 'core']);
    const r = ok(applyPatch(b, withU(['nofile']), o('a', T2)));
    assert.deepEqual(((containers(r.object)[0].securityContext as JSONObject).ulimits as JSONObject[]).map((u) => u.name), ['nofile', 'core']);
  });

  it('an atomic list (tolerations) is owned whole: a different list from another applier conflicts', () => {
    const a = stored(applyPatch(undefined, cfg({ tolerations: [{ key: 'a', operator: 'Exists' }] }), o('a', T0)));
    assert.deepEqual(fieldsOf(a, 'a'), { 'f:spec': { 'f:tolerations': {} } });
    const r = applyPatch(a, cfg({ tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }] }), o('b', T1));
    assert.deepEqual(r.conflicts?.map((c) => c.field), ['.spec.tolerations']);
  });

  it('list-map keys take their defaults: a port applied without protocol is the live TCP port', () => {
    const a = stored(applyPatch(undefined, cfg({ containers: [ctr('c', { ports: [{ containerPort: 80 }] })] }), o('a', T0)));
    ((containers(a)[0].ports as JSONObject[])[0]).protocol = 'TCP'; // defaulted by the server
    const r = ok(applyPatch(a, cfg({ containers: [ctr('c', { ports: [{ containerPort: 80, name: 'http' }] })] }), o('a', T1)));
    assert.deepEqual(containers(r.object)[0].ports, [{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
  });

  it('the first apply to an object without managedFields gives its existing fields to "before-first-apply"', () => {
    const untracked = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u', labels: { old: 'x' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }], restartPolicy: 'Always' } };
    const r = ok(applyPatch(untracked, base, o('kubectl', T1)));
    assert.deepEqual(managers(r.object), ['kubectl/Apply', 'before-first-apply/Update']);
    // It keeps what the apply sets to the same value (shared), and loses nothing here.
    assert.deepEqual(fieldsOf(r.object, 'before-first-apply', 'Update'), {
      'f:metadata': { 'f:labels': { '.': {}, 'f:old': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } }, 'f:restartPolicy': {} },
    });
    assert.deepEqual(labels(r.object), { old: 'x', app: 'web', tier: 'v1' });
  });

  it('reset fields are not owned through the endpoint (status on the main resource)', () => {
    const r = ok(applyPatch(undefined, { ...base, status: { phase: 'Running' } }, o('kubectl', T0, { resetFields: [['status']] })));
    assert.equal(JSON.stringify(fieldsOf(r.object, 'kubectl')).includes('status'), false);
  });

  it('null in the configuration owns the field but leaves no value', () => {
    const r = ok(applyPatch(created, cfg({ containers: [ctr('nginx', { image: 'nginx:1.25' })], activeDeadlineSeconds: null }, { labels: { app: 'web', tier: 'v1' } }), o('kubectl', T1)));
    assert.equal('activeDeadlineSeconds' in (r.object.spec as JSONObject), false);
    assert.ok('f:activeDeadlineSeconds' in ((fieldsOf(r.object, 'kubectl') as JSONObject)['f:spec'] as JSONObject));
  });

  it('inputs are not modified', () => {
    const live = structuredClone(created);
    const config = structuredClone(base);
    applyPatch(live, config, o('other', T1, { force: true }));
    assert.deepEqual(live, created);
    assert.deepEqual(config, base);
  });
});

describe('kubectl and the last-applied-configuration annotation', () => {
  const manifest = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } };
  const csaBody = structuredClone(manifest) as JSONObject;
  (csaBody.metadata as JSONObject).annotations = { [LAST_APPLIED_ANNOTATION]: JSON.stringify(manifest) + '\n' };
  const csa = updateManagedFields(undefined, { ...csaBody, metadata: { ...(csaBody.metadata as JSONObject), uid: 'u' } }, 'kubectl-client-side-apply', 'Update', { schema: podSchema, apiVersion: 'v1', now: T0, zero: POD_ZERO_OBJECT });
  const ssa = cfg({ containers: [ctr('nginx', { image: 'nginx:1.26' })] });

  it('manager "kubectl": conflicts on fields still matching the annotation are forced (CSA→SSA upgrade)', () => {
    const r = ok(applyPatch(csa, ssa, o('kubectl', T1)));
    assert.equal(containers(r.object)[0].image, 'nginx:1.26');
    assert.deepEqual(fieldsOf(r.object, 'kubectl'), { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });

  it('manager "kubectl": the annotation, when present, is rewritten to the applied configuration (Go JSON, sorted keys)', () => {
    const r = ok(applyPatch(csa, ssa, o('kubectl', T1)));
    assert.equal(
      ((r.object.metadata as JSONObject).annotations as JSONObject)[LAST_APPLIED_ANNOTATION],
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"},"spec":{"containers":[{"image":"nginx:1.26","name":"nginx"}]}}\n',
    );
  });

  it('another manager name gets the conflict', () => {
    const r = applyPatch(csa, ssa, o('my-tool', T1));
    assert.equal(conflictStatusMessage(r.conflicts!), 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.containers[name="nginx"].image');
  });

  it('manager "kubectl": a field whose live value no longer matches the annotation stays a conflict', () => {
    const edited = structuredClone(csa);
    ((edited.spec as JSONObject).containers as JSONObject[])[0].image = 'nginx:edited';
    const r = applyPatch(edited, ssa, o('kubectl', T1));
    assert.deepEqual(r.conflicts?.map((c) => c.field), ['.spec.containers[name="nginx"].image']);
  });
});

describe('apply errors', () => {
  const rows: { name: string; applied: unknown; type: Function; code: number; message: string }[] = [
    { name: 'a body that is not an object', applied: [1], type: ApplyBadRequestError, code: 400, message: 'error decoding YAML: error unmarshaling JSON: json: cannot unmarshal array into Go value of type map[string]interface {}' },
    { name: 'another apiVersion', applied: { ...base, apiVersion: 'v2' }, type: ApplyBadRequestError, code: 400, message: 'invalid object type: /v2, Kind=Pod' },
    { name: 'another kind', applied: { ...base, apiVersion: 'apps/v1', kind: 'Deployment' }, type: ApplyBadRequestError, code: 400, message: 'invalid object type: apps/v1, Kind=Deployment' },
    { name: 'managedFields in the configuration', applied: cfg(undefined, { managedFields: [] }), type: ApplyBadRequestError, code: 400, message: 'metadata.managedFields must be nil' },
    {
      name: 'a container without its key',
      applied: cfg({ containers: [{ image: 'x' }] }),
      type: ApplyTypedObjectError,
      code: 400,
      message: 'failed to create typed patch object (default/web; /v1, Kind=Pod): .spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
    },
    {
      name: 'two containers with the same name',
      applied: cfg({ containers: [{ name: 'a' }, { name: 'a' }] }),
      type: ApplyTypedObjectError,
      code: 400,
      message: 'failed to create typed patch object (default/web; /v1, Kind=Pod): .spec.containers: duplicate entries for key [name="a"]',
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.throws(
        () => applyPatch(created, r.applied, o('kubectl', T1)),
        (e: unknown) => e instanceof r.type && (e as Error).message === r.message && (e as { code: number }).code === r.code,
      );
    });
  }
});

describe('the 409 Status of an apply conflict (kubectl-protocol.md §7)', () => {
  const conflict: ApplyConflict = { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', subresource: '', field: '.spec.containers[name="nginx"].image' };
  it('one conflict', () => {
    assert.deepEqual(applyConflictError([conflict]).toStatus(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.containers[name="nginx"].image',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using v1', field: '.spec.containers[name="nginx"].image' }] },
    });
  });
  it('two conflicts with one manager', () => {
    const two = [conflict, { ...conflict, field: '.metadata.labels.tier' }];
    assert.equal(applyConflictError(two).message, 'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using v1:\n- .spec.containers[name="nginx"].image\n- .metadata.labels.tier');
  });
  it('a subresource manager', () => {
    assert.equal(conflictStatusMessage([{ ...conflict, manager: 'kubelet', subresource: 'status', field: '.status.phase' }]), 'Apply failed with 1 conflict: conflict with "kubelet" with subresource "status" using v1: .status.phase');
  });
});
