// updateManagedFields (src/apiserver/patch/managedfields.ts): the ownership kube-apiserver records
// for ordinary writes (create, update, json/merge/strategic patch), operation Update. One row per
// rule of fieldmanager.go / skipnonapplied.go / capmanagers.go / managedfieldsupdater.go /
// stripmeta.go and structured-merge-diff's Updater.Update.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeManagedFields,
  encodeManagedFields,
  managerIdentifier,
  managerOrUserAgent,
  POD_ZERO_OBJECT,
  updateManagedFields,
  type UpdateOptions,
} from '../../../src/apiserver/patch/managedfields.js';
import type { JSONObject } from '../../../src/apiserver/patch/json.js';
import type { ManagedFieldsEntry } from '../../../src/api/types.js';
import { podSchema } from './podschema.js';

const T0 = '2024-05-01T09:00:00Z';
const T1 = '2024-05-01T09:05:00Z';
const opts = (now: string, extra: Partial<UpdateOptions> = {}): UpdateOptions => ({ schema: podSchema, apiVersion: 'v1', now, zero: POD_ZERO_OBJECT, ...extra });

function pod(labels: Record<string, string>, image = 'nginx:1.25', extra: Record<string, unknown> = {}): JSONObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-1', resourceVersion: '10', creationTimestamp: T0, labels },
    spec: { containers: [{ name: 'nginx', image, imagePullPolicy: 'IfNotPresent' }], restartPolicy: 'Always' },
    ...extra,
  } as JSONObject;
}

const mf = (o: JSONObject): ManagedFieldsEntry[] => ((o.metadata as JSONObject).managedFields ?? []) as unknown as ManagedFieldsEntry[];
const summary = (o: JSONObject): string[] => mf(o).map((e) => `${e.manager}/${e.operation}/${e.apiVersion}/${e.time ?? '-'}${e.subresource ? '/' + e.subresource : ''} ${JSON.stringify(e.fieldsV1)}`);

const created = updateManagedFields(undefined, pod({ app: 'web' }), 'kubectl-create', 'Update', opts(T0));

describe('updateManagedFields', () => {
  it('a create makes the manager own every field it set (stripped of name, uid, ...), compared with the kind\'s zero object', () => {
    assert.deepEqual(mf(created), [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {} } }, 'f:restartPolicy': {} },
        },
      },
    ]);
  });

  it('without the kind\'s zero object a create also owns the maps it created (".")', () => {
    const o = updateManagedFields(undefined, pod({ app: 'web' }), 'm', 'Update', opts(T0, { zero: undefined }));
    assert.deepEqual(Object.keys(mf(o)[0].fieldsV1 as JSONObject), ['f:metadata', 'f:spec']);
    assert.ok('.' in ((mf(o)[0].fieldsV1 as JSONObject)['f:spec'] as JSONObject));
  });

  it('an update moves the fields it changes to its manager (a member without children is {})', () => {
    const next = updateManagedFields(created, { ...pod({ app: 'web2' }), metadata: { ...(created.metadata as JSONObject), labels: { app: 'web2' } } }, 'kubectl-label', 'Update', opts(T1));
    assert.deepEqual(summary(next), [
      'kubectl-create/Update/v1/2024-05-01T09:00:00Z {"f:metadata":{"f:labels":{}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{}}},"f:restartPolicy":{}}}',
      'kubectl-label/Update/v1/2024-05-01T09:05:00Z {"f:metadata":{"f:labels":{"f:app":{}}}}',
    ]);
  });

  it('an update that removes a field removes it from every manager', () => {
    const live = structuredClone(created);
    const next = structuredClone(created);
    delete ((next.spec as JSONObject).containers as JSONObject[])[0].imagePullPolicy;
    const out = updateManagedFields(live, next, 'kubectl-edit', 'Update', opts(T1));
    assert.deepEqual(summary(out), [
      'kubectl-create/Update/v1/2024-05-01T09:00:00Z {"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{}}},"f:restartPolicy":{}}}',
    ]);
  });

  it('an update that changes nothing adds no entry and keeps the times', () => {
    const out = updateManagedFields(created, structuredClone(created), 'other', 'Update', opts(T1));
    assert.deepEqual(mf(out), mf(created));
  });

  it('the same manager updating again merges into its entry and refreshes its time', () => {
    const next = structuredClone(created);
    ((next.metadata as JSONObject).labels as JSONObject).env = 'prod';
    const out = updateManagedFields(created, next, 'kubectl-create', 'Update', opts(T1));
    assert.equal(mf(out).length, 1);
    assert.equal(mf(out)[0].time, T1);
    assert.deepEqual(((mf(out)[0].fieldsV1 as JSONObject)['f:metadata'] as JSONObject)['f:labels'], { '.': {}, 'f:app': {}, 'f:env': {} });
  });

  it('an existing object without managedFields stays untracked (skipNonApplied)', () => {
    const live = pod({ app: 'web' });
    const out = updateManagedFields(live, pod({ app: 'x' }), 'm', 'Update', opts(T1));
    assert.equal((out.metadata as JSONObject).managedFields, undefined);
  });

  it('managedFields set in the request replace the live ones (how kubectl migrates CSA to SSA)', () => {
    const replaced: ManagedFieldsEntry[] = [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } } }];
    const next = structuredClone(created);
    (next.metadata as JSONObject).managedFields = replaced as never;
    const out = updateManagedFields(created, next, 'kubectl', 'Update', opts(T1));
    assert.deepEqual(mf(out), replaced);
  });

  it('managedFields: [] in the request resets them', () => {
    const next = structuredClone(created);
    (next.metadata as JSONObject).managedFields = [];
    const out = updateManagedFields(created, next, 'm', 'Update', opts(T1));
    assert.equal((out.metadata as JSONObject).managedFields, undefined);
  });

  it('managedFields in the request that do not decode are ignored for the live ones', () => {
    const next = structuredClone(created);
    (next.metadata as JSONObject).managedFields = [{ manager: 'x', operation: 'Bogus' }] as never;
    const out = updateManagedFields(created, next, 'm', 'Update', opts(T1));
    assert.deepEqual(mf(out), mf(created));
  });

  it('subresource writes record the subresource and ignore managedFields in the request', () => {
    const live: JSONObject = { ...structuredClone(created), status: { phase: 'Pending' } };
    const next = structuredClone(live);
    next.status = { phase: 'Running' };
    (next.metadata as JSONObject).managedFields = [];
    const out = updateManagedFields(live, next, 'kubelet', 'Update', opts(T1, { subresource: 'status' }));
    assert.deepEqual(summary(out).slice(1), ['kubelet/Update/v1/2024-05-01T09:05:00Z/status {"f:status":{"f:phase":{}}}']);
  });

  it('reset fields are never owned through the endpoint (e.g. status on the main resource)', () => {
    const next = structuredClone(created);
    next.status = { phase: 'Running' };
    ((next.metadata as JSONObject).labels as JSONObject).x = 'y';
    const out = updateManagedFields(created, next, 'm', 'Update', opts(T1, { resetFields: [['status']] }));
    assert.deepEqual(summary(out)[1], 'm/Update/v1/2024-05-01T09:05:00Z {"f:metadata":{"f:labels":{"f:x":{}}}}');
  });

  // An Update's typed object is the Go struct's ToUnstructured: empty maps (omitempty) and absent
  // members are not there to own. The scheduler's status write once owned `metadata.labels`
  // this way, and a later `kubectl apply --server-side` of a label conflicted with it.
  const noEmptyMaps: { name: string; labels: unknown; annotations?: unknown }[] = [
    { name: 'labels holding undefined (a spread of an absent member)', labels: undefined },
    { name: 'an empty labels map', labels: {} },
    { name: 'an empty labels map and an empty annotations map', labels: {}, annotations: {} },
  ];
  for (const r of noEmptyMaps) {
    it(`a status write does not own metadata it did not set: ${r.name}`, () => {
      const live: JSONObject = { ...structuredClone(created), status: { phase: 'Pending' } };
      delete (live.metadata as JSONObject).labels;
      const next: JSONObject = { ...structuredClone(live), status: { phase: 'Running' } };
      (next.metadata as Record<string, unknown>).labels = r.labels;
      if ('annotations' in r) (next.metadata as Record<string, unknown>).annotations = r.annotations;
      const out = updateManagedFields(live, next, 'kube-scheduler', 'Update', opts(T1, { subresource: 'status' }));
      assert.deepEqual(summary(out).slice(1), ['kube-scheduler/Update/v1/2024-05-01T09:05:00Z/status {"f:status":{"f:phase":{}}}']);
    });
  }

  it('a struct left empty is still a value its writer owns (emptyDir: {})', () => {
    const next = structuredClone(created);
    ((next.spec as JSONObject).volumes as unknown) = [{ name: 'v', emptyDir: {} }];
    const out = updateManagedFields(created, next, 'm', 'Update', opts(T1));
    assert.deepEqual(summary(out)[1], 'm/Update/v1/2024-05-01T09:05:00Z {"f:spec":{"f:volumes":{".":{},"k:{\\"name\\":\\"v\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}}');
  });

  it('an empty manager name is recorded as "unknown"', () => {
    const o = updateManagedFields(undefined, pod({ a: 'b' }), '', 'Update', opts(T0));
    assert.equal(mf(o)[0].manager, 'unknown');
  });

  it('more than 10 Update managers: the oldest merge into "ancient-changes"', () => {
    let o = created;
    for (let i = 0; i < 11; i++) {
      const next = structuredClone(o);
      ((next.metadata as JSONObject).labels as JSONObject)[`l${i}`] = 'v';
      o = updateManagedFields(o, next, `m${i}`, 'Update', opts(`2024-05-01T10:${String(i).padStart(2, '0')}:00Z`));
    }
    const names = mf(o).map((e) => e.manager);
    assert.equal(names.length, 10);
    assert.equal(names[0], 'ancient-changes');
    assert.deepEqual(names.slice(1), ['m2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10']);
    assert.deepEqual(((mf(o)[0].fieldsV1 as JSONObject)['f:metadata'] as JSONObject)['f:labels'], { '.': {}, 'f:app': {}, 'f:l0': {}, 'f:l1': {} });
    assert.equal(mf(o)[0].time, '2024-05-01T10:01:00Z');
  });
});

describe('managedFields encoding', () => {
  it('entries sort by operation (Apply first), then time, then manager', () => {
    const entries: ManagedFieldsEntry[] = [
      { manager: 'b', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:b': {} } },
      { manager: 'a', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:a': {} } },
      { manager: 'c', operation: 'Apply', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:c': {} } },
      { manager: 'a0', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:d': {} } },
    ];
    assert.deepEqual(encodeManagedFields(decodeManagedFields(entries)).map((e) => e.manager), ['c', 'a0', 'b', 'a']);
  });

  for (const [name, entry, message] of [
    ['operation must be Apply or Update', { manager: 'm', operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1' }, 'operation must be `Apply` or `Update`'],
    ['apiVersion is required', { manager: 'm', operation: 'Update', fieldsType: 'FieldsV1' }, 'apiVersion must not be empty'],
    ['fieldsType is required', { manager: 'm', operation: 'Update', apiVersion: 'v1' }, 'missing fieldsType in managed fields entry 0'],
    ['fieldsType must be FieldsV1', { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV2' }, 'invalid fieldsType "FieldsV2" in managed fields entry 0'],
  ] as const) {
    it(`decoding: ${name}`, () => assert.throws(() => decodeManagedFields([entry]), { message }));
  }

  it('manager identifiers: Apply managers leave out apiVersion (upstream BuildManagerIdentifier)', () => {
    assert.equal(managerIdentifier('kubectl', 'Apply', 'v1'), '{"manager":"kubectl","operation":"Apply"}');
    assert.equal(managerIdentifier('kubectl-client-side-apply', 'Update', 'v1'), '{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1"}');
    assert.equal(managerIdentifier('kubelet', 'Update', 'v1', 'status'), '{"manager":"kubelet","operation":"Update","apiVersion":"v1","subresource":"status"}');
  });

  it('managerOrUserAgent: the fieldManager, else the user agent up to "/"', () => {
    assert.equal(managerOrUserAgent('kubectl-create', 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07'), 'kubectl-create');
    assert.equal(managerOrUserAgent(undefined, 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07'), 'kubectl');
  });
});
