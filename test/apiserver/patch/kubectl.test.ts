// The exact kubectl write sequences of kubectl-protocol.md §4 and §7, run through the patch code
// the way the API server uses it (a minimal in-test server: defaulting, resourceVersion,
// managedFields via updateManagedFields / applyPatch):
//   - client-side apply: create with fieldManager=kubectl-client-side-apply, then the observed
//     strategic merge patch body (label change + image change with $setElementOrder);
//   - server-side apply: create, re-apply with a removed label, conflict with a CSA-owned image
//     (the 409 Status text), --force-conflicts;
//   - the CSA→SSA migration: apply as kubectl-last-applied, then the json-patch replacing
//     managedFields and resourceVersion, then apply again.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyConflictError,
  applyJSONPatch,
  applyPatch,
  applyStrategicMergePatch,
  FieldSet,
  LAST_APPLIED_ANNOTATION,
  POD_ZERO_OBJECT,
  resourceVersionConflicts,
  updateManagedFields,
  type ApplyConflict,
  type JSONObject,
} from '../../../src/apiserver/patch/index.js';
import type { ManagedFieldsEntry, Status } from '../../../src/api/types.js';
import { podSchema } from './podschema.js';

const schemaOpts = { schema: podSchema, apiVersion: 'v1', zero: POD_ZERO_OBJECT };

/** Just enough of an API server for one pod. */
class Server {
  obj: JSONObject | undefined;
  private rv = 100;
  private clock = Date.parse('2024-05-01T09:00:00Z');

  private now(): string {
    this.clock += 60_000;
    return new Date(this.clock).toISOString().replace('.000', '');
  }

  private store(o: JSONObject): JSONObject {
    const md = o.metadata as JSONObject;
    md.resourceVersion = String(++this.rv);
    this.obj = o;
    return structuredClone(o);
  }

  private defaults(o: JSONObject): JSONObject {
    const spec = o.spec as JSONObject;
    spec.restartPolicy ??= 'Always';
    spec.dnsPolicy ??= 'ClusterFirst';
    for (const c of spec.containers as JSONObject[]) {
      c.imagePullPolicy ??= String(c.image).endsWith(':latest') || !String(c.image).includes(':') ? 'Always' : 'IfNotPresent';
      c.terminationMessagePath ??= '/dev/termination-log';
      for (const p of (c.ports as JSONObject[] | undefined) ?? []) p.protocol ??= 'TCP';
    }
    return o;
  }

  /** POST …/pods?fieldManager=… */
  create(body: JSONObject, fieldManager: string): JSONObject {
    const o = this.defaults(structuredClone(body));
    Object.assign(o.metadata as JSONObject, { uid: 'uid-1', creationTimestamp: '2024-05-01T09:00:00Z' });
    return this.store(updateManagedFields(undefined, o, fieldManager, 'Update', { ...schemaOpts, now: this.now() }));
  }

  /** PATCH application/strategic-merge-patch+json */
  strategicPatch(body: unknown, fieldManager: string): JSONObject {
    const next = this.defaults(applyStrategicMergePatch(this.obj, body, podSchema));
    return this.store(updateManagedFields(this.obj, next, fieldManager, 'Update', { ...schemaOpts, now: this.now() }));
  }

  /** PATCH application/json-patch+json: a stale resourceVersion in the result is a 409. */
  jsonPatch(ops: unknown, fieldManager: string): JSONObject | Status {
    const next = applyJSONPatch(this.obj, ops) as JSONObject;
    if (resourceVersionConflicts(this.obj, next)) {
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message: 'Operation cannot be fulfilled on pods "app": the object has been modified; please apply your changes to the latest version and try again' };
    }
    return this.store(updateManagedFields(this.obj, this.defaults(next), fieldManager, 'Update', { ...schemaOpts, now: this.now() }));
  }

  /** PATCH application/apply-patch+yaml (JSON body) ?fieldManager=…&force=… */
  apply(body: JSONObject, fieldManager: string, force = false): JSONObject | Status {
    const r = applyPatch(this.obj, body, { ...schemaOpts, manager: fieldManager, force, kind: 'Pod', now: this.now() });
    if (r.conflicts) return applyConflictError(r.conflicts).toStatus();
    const o = this.defaults(r.object);
    if (!this.obj) Object.assign(o.metadata as JSONObject, { uid: 'uid-1', creationTimestamp: '2024-05-01T09:00:00Z' });
    return this.store(o);
  }
}

const manifest = (labels: Record<string, string>, image: string): JSONObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { labels, name: 'app', namespace: 'default' },
  spec: { containers: [{ image, name: 'nginx' }] },
});

/** kubectl's client-side apply body for a create: the manifest plus its last-applied annotation. */
function csaCreateBody(m: JSONObject): JSONObject {
  const body = structuredClone(m);
  (body.metadata as JSONObject).annotations = { [LAST_APPLIED_ANNOTATION]: lastApplied(m) };
  return body;
}

/** The annotation kubectl writes: the manifest (with empty annotations) as Go JSON + newline. */
function lastApplied(m: JSONObject): string {
  const copy = structuredClone(m);
  (copy.metadata as JSONObject).annotations = {};
  return JSON.stringify(sortKeys(copy)) + '\n';
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

const mf = (o: JSONObject): ManagedFieldsEntry[] => (o.metadata as JSONObject).managedFields as unknown as ManagedFieldsEntry[];
const byManager = (o: JSONObject, manager: string, operation: string): ManagedFieldsEntry | undefined => mf(o).find((e) => e.manager === manager && e.operation === operation);
const labelsOf = (o: JSONObject): unknown => (o.metadata as JSONObject).labels;
const imageOf = (o: JSONObject): unknown => (((o.spec as JSONObject).containers as JSONObject[])[0]).image;
const isStatus = (v: unknown): v is Status => (v as Status).kind === 'Status';

/** client-go csaupgrade.UpgradeManagedFieldsPatch, as kubectl runs it after a server-side apply. */
function csaUpgradePatch(o: JSONObject, csaManager: string, ssaManager: string): unknown[] | undefined {
  const entries = structuredClone(mf(o));
  let target = entries.findIndex((e) => e.manager === ssaManager && e.operation === 'Apply' && !e.subresource);
  if (target < 0) {
    target = entries.findIndex((e) => e.manager === csaManager && e.operation === 'Update' && !e.subresource);
    if (target < 0) return undefined;
    entries[target].operation = 'Apply';
    entries[target].manager = ssaManager;
  }
  const csa = entries.find((e) => e.manager === csaManager && e.operation === 'Update' && !e.subresource && e.apiVersion === entries[target].apiVersion);
  if (csa) entries[target].fieldsV1 = FieldSet.fromFieldsV1(entries[target].fieldsV1).union(FieldSet.fromFieldsV1(csa.fieldsV1)).toFieldsV1();
  const filtered = entries.filter((e) => !(e.manager === csaManager && e.operation === 'Update' && !e.subresource));
  return [
    { op: 'replace', path: '/metadata/managedFields', value: filtered },
    { op: 'replace', path: '/metadata/resourceVersion', value: (o.metadata as JSONObject).resourceVersion },
  ];
}

describe('kubectl apply (client-side), §4 and §7', () => {
  const s = new Server();
  const v1 = manifest({ tier: 'v1' }, 'nginx:1.25');
  const v2 = manifest({ tier: 'v2' }, 'nginx:1.26');
  const first = s.create(csaCreateBody(v1), 'kubectl-client-side-apply');

  it('first apply: POST ?fieldManager=kubectl-client-side-apply records an Update entry owning what was created', () => {
    assert.deepEqual(mf(first), [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2024-05-01T09:01:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST_APPLIED_ANNOTATION}`]: {} }, 'f:labels': { '.': {}, 'f:tier': {} } },
          'f:spec': {
            'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {}, 'f:terminationMessagePath': {} } },
            'f:dnsPolicy': {},
            'f:restartPolicy': {},
          },
        },
      },
    ]);
  });

  it('second apply: the observed strategic merge patch body changes the label and the image', () => {
    const body = {
      metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied(v2) }, labels: { tier: 'v2' } },
      spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ image: 'nginx:1.26', name: 'nginx' }] },
    };
    const second = s.strategicPatch(body, 'kubectl-client-side-apply');
    assert.deepEqual(labelsOf(second), { tier: 'v2' });
    assert.equal(imageOf(second), 'nginx:1.26');
    assert.equal(((second.metadata as JSONObject).annotations as JSONObject)[LAST_APPLIED_ANNOTATION], lastApplied(v2));
    assert.deepEqual(
      mf(second).map((e) => [e.manager, e.operation, e.time]),
      [['kubectl-client-side-apply', 'Update', '2024-05-01T09:02:00Z']],
    );
    assert.deepEqual(byManager(second, 'kubectl-client-side-apply', 'Update')?.fieldsV1, mf(first)[0].fieldsV1);
  });
});

describe('kubectl apply --server-side, §4 and §7', () => {
  const s = new Server();
  const m = manifest({ app: 'web', tier: 'v1' }, 'nginx:1.25');

  it('create: PATCH apply-patch on an absent object creates it, owned by "kubectl" (Apply)', () => {
    const created = s.apply(m, 'kubectl') as JSONObject;
    assert.ok(!isStatus(created));
    assert.deepEqual(mf(created), [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'v1',
        time: '2024-05-01T09:01:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    ]);
    assert.equal((created.spec as JSONObject).restartPolicy, 'Always', 'defaults are the server\'s, not owned');
  });

  it('re-apply with a removed label: the label is removed', () => {
    const r = s.apply(manifest({ app: 'web' }, 'nginx:1.25'), 'kubectl') as JSONObject;
    assert.deepEqual(labelsOf(r), { app: 'web' });
    assert.deepEqual((byManager(r, 'kubectl', 'Apply')?.fieldsV1 as JSONObject)['f:metadata'], { 'f:labels': { 'f:app': {} } });
  });

  it('re-apply of the same manifest is a no-op for the object', () => {
    const before = structuredClone(s.obj);
    const r = s.apply(manifest({ app: 'web' }, 'nginx:1.25'), 'kubectl') as JSONObject;
    assert.deepEqual({ ...r, metadata: { ...(r.metadata as JSONObject), resourceVersion: 'x' } }, { ...before, metadata: { ...(before!.metadata as JSONObject), resourceVersion: 'x' } });
  });
});

describe('server-side apply against a client-side-applied pod, §4 and §7', () => {
  const v1 = manifest({ tier: 'v1' }, 'nginx:1.25');
  const newImage = manifest({ tier: 'v1' }, 'nginx:1.26');

  function csaPod(): Server {
    const s = new Server();
    s.create(csaCreateBody(v1), 'kubectl-client-side-apply');
    return s;
  }

  it('conflict with the CSA-owned image: 409 with exactly the Status kubectl prints', () => {
    const s = csaPod();
    // The last-applied annotation was removed (kubectl annotate pod app kubectl.kubernetes.io/last-applied-configuration-),
    // so kube-apiserver has no basis to let "kubectl" take the CSA fields over.
    s.strategicPatch({ metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: null } } }, 'kubectl-annotate');
    const r = s.apply(newImage, 'kubectl');
    assert.ok(isStatus(r));
    assert.deepEqual(
      { reason: r.reason, message: r.message, details: r.details, code: r.code },
      {
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.containers[name="nginx"].image',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using v1', field: '.spec.containers[name="nginx"].image' }] },
        code: 409,
      },
    );
    assert.equal(imageOf(s.obj!), 'nginx:1.25', 'nothing was stored');
  });

  it('--force-conflicts (force=true) takes ownership of the image', () => {
    const s = csaPod();
    s.strategicPatch({ metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: null } } }, 'kubectl-annotate');
    const r = s.apply(newImage, 'kubectl', true) as JSONObject;
    assert.ok(!isStatus(r));
    assert.equal(imageOf(r), 'nginx:1.26');
    const csa = byManager(r, 'kubectl-client-side-apply', 'Update')!.fieldsV1 as JSONObject;
    const ssa = byManager(r, 'kubectl', 'Apply')!.fieldsV1 as JSONObject;
    assert.deepEqual(((csa['f:spec'] as JSONObject)['f:containers'] as JSONObject)['k:{"name":"nginx"}'], { '.': {}, 'f:imagePullPolicy': {}, 'f:name': {}, 'f:terminationMessagePath': {} });
    assert.deepEqual(((ssa['f:spec'] as JSONObject)['f:containers'] as JSONObject)['k:{"name":"nginx"}'], { '.': {}, 'f:image': {}, 'f:name': {} });
  });

  it('with the annotation in place, "kubectl" takes the fields it last client-side applied without a conflict', () => {
    const s = csaPod();
    const r = s.apply(newImage, 'kubectl') as JSONObject;
    assert.ok(!isStatus(r));
    assert.equal(imageOf(r), 'nginx:1.26');
  });

  it('the migration: apply as kubectl-last-applied, json-patch managedFields + resourceVersion, apply again', () => {
    const s = csaPod();
    const applied = s.apply(newImage, 'kubectl') as JSONObject;
    // kubectl sees the annotation and a kubectl-client-side-apply Update entry in the response.
    assert.ok(((applied.metadata as JSONObject).annotations as JSONObject)[LAST_APPLIED_ANNOTATION]);
    assert.ok(byManager(applied, 'kubectl-client-side-apply', 'Update'));

    // PATCH ?fieldManager=kubectl-last-applied, apply-patch carrying only the annotation as the
    // response had it (kubectl's saveLastApplyAnnotationIfNecessary).
    const current = ((applied.metadata as JSONObject).annotations as JSONObject)[LAST_APPLIED_ANNOTATION];
    const annotationOnly: JSONObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: current }, name: 'app', namespace: 'default' },
    };
    const afterLastApplied = s.apply(annotationOnly, 'kubectl-last-applied') as JSONObject;
    assert.ok(!isStatus(afterLastApplied));
    assert.ok(byManager(afterLastApplied, 'kubectl-last-applied', 'Apply'));

    // PATCH ?fieldManager=kubectl, application/json-patch+json.
    const ops = csaUpgradePatch(afterLastApplied, 'kubectl-client-side-apply', 'kubectl')!;
    assert.deepEqual((ops[1] as JSONObject).path, '/metadata/resourceVersion');
    const migrated = s.jsonPatch(ops, 'kubectl') as JSONObject;
    assert.ok(!isStatus(migrated));
    assert.deepEqual(mf(migrated), (ops[0] as { value: ManagedFieldsEntry[] }).value, 'the requested managedFields are stored as sent');
    assert.equal(byManager(migrated, 'kubectl-client-side-apply', 'Update'), undefined);
    // kubectl now owns (as Apply) what CSA owned, e.g. the tier label, so dropping it from the manifest removes it.
    const again = s.apply(manifest({}, 'nginx:1.26'), 'kubectl') as JSONObject;
    assert.ok(!isStatus(again));
    assert.equal(labelsOf(again), undefined);
  });

  it('the migration json-patch against a newer object: 409 (its resourceVersion replace acts as a precondition)', () => {
    const s = csaPod();
    const applied = s.apply(newImage, 'kubectl') as JSONObject;
    const ops = csaUpgradePatch(applied, 'kubectl-client-side-apply', 'kubectl')!;
    s.strategicPatch({ metadata: { labels: { other: 'x' } } }, 'someone');
    const r = s.jsonPatch(ops, 'kubectl');
    assert.ok(isStatus(r));
    assert.equal(r.code, 409);
  });

  it('a json-patch test of a stale resourceVersion fails with evanphx\'s text', () => {
    const s = csaPod();
    assert.throws(() => s.jsonPatch([{ op: 'test', path: '/metadata/resourceVersion', value: '1' }], 'kubectl'), {
      message: 'testing value /metadata/resourceVersion failed: test failed',
    });
  });
});

describe('conflict Status helpers', () => {
  it('build the §7 Status from a conflict', () => {
    const c: ApplyConflict = { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', subresource: '', field: '.spec.containers[name="nginx"].image' };
    const st = applyConflictError([c]).toStatus();
    assert.equal(
      JSON.stringify({ reason: st.reason, message: st.message, details: st.details }),
      '{"reason":"Conflict","message":"Apply failed with 1 conflict: conflict with \\"kubectl-client-side-apply\\" using v1: .spec.containers[name=\\"nginx\\"].image","details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \\"kubectl-client-side-apply\\" using v1","field":".spec.containers[name=\\"nginx\\"].image"}]}}',
    );
  });
});
