// The field manager (src/apiserver/patch: updateManagedFields, applyPatch) against the code it
// replaced, kept frozen in ./reference/ (f21bc55). compareForUpdate folds omitEmpty into the
// comparison, skips what old and new share and what the write resets, and builds its sets
// top-down; FieldSet emits FieldsV1 from its keys; the depth check skips what was checked. All of
// that is meant to change nothing, so every result must be the same JSON text (the object with
// its managedFields, or the error) as the reference's, over:
//   - every call the patch, apply, managed-fields and ownership tests make (run here in shadow
//     mode, reference/shadow.ts), each update also with its new object sharing every part the old
//     one holds unchanged, as the server's strategies build it;
//   - generated pods (with and without the service account token volume, duplicated list keys,
//     empty maps, members holding undefined) through sequences of writes: label changes, image
//     changes, list reorders, removals, status writes as the pod strategy makes them, requests
//     carrying managedFields, more managers than are kept, and applies in between;
//   - values nested past the depth bound (which bracket is reported depends on the walk's order);
//   - generated objects of any shape under the Pod and ConfigMap schemas.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { schemaView } from '../../../src/api/schema/index.js';
import { metaTime } from '../../../src/api/metatime.js';
import { applyPatch, type ApplyOptions } from '../../../src/apiserver/patch/apply.js';
import { createKey, formatTime, sameShape, shapeOf, updateManagedFields, type UpdateOptions } from '../../../src/apiserver/patch/managedfields.js';
import type { JSONObject, JSONValue } from '../../../src/apiserver/patch/json.js';
import { zeroObjects } from '../../../src/apiserver/patch/zeroobjects.js';
import { applyPatch as referenceApplyPatch } from './reference/apply.js';
import { updateManagedFields as referenceUpdateManagedFields } from './reference/managedfields.js';
import { outcome, shareWith } from './reference/shadow.js';

/** Both implementations give the same text for an Update, and neither changes its inputs. */
function sameUpdate(old: JSONObject | undefined, next: JSONObject, manager: string, opts: UpdateOptions): string {
  const before = structuredClone({ old, next });
  const want = outcome(() => referenceUpdateManagedFields(old, next, manager, 'Update', opts));
  const got = outcome(() => updateManagedFields(old, next, manager, 'Update', opts));
  assert.equal(got, want);
  assert.deepStrictEqual({ old, next }, before, 'the inputs were changed');
  if (old) assert.equal(outcome(() => updateManagedFields(old, shareWith(old, next) as JSONObject, manager, 'Update', opts)), want, 'with the unchanged parts shared');
  return got;
}

/** The same for an apply. */
function sameApply(live: JSONObject | undefined, applied: unknown, opts: ApplyOptions): string {
  const before = structuredClone({ live, applied });
  const want = outcome(() => referenceApplyPatch(live, applied, opts));
  const got = outcome(() => applyPatch(live, applied, opts));
  assert.equal(got, want);
  assert.deepStrictEqual({ live, applied }, before, 'the inputs were changed');
  return got;
}

/** What the store keeps of a write that succeeded: the object, with the uid and resourceVersion the server adds. */
function stored(o: JSONObject, rv: number): JSONObject {
  return { ...o, metadata: { ...((o.metadata ?? {}) as JSONObject), uid: 'uid-1', resourceVersion: String(rv) } };
}

/** `v`, frozen deep as the watch cache freezes what it decodes. */
function freezeDeep<T>(v: T): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  for (const c of Object.values(v)) freezeDeep(c);
  return Object.freeze(v);
}

/** The object a returned outcome holds (updateManagedFields' result, or an apply's `object`), if any. */
function returned(text: string, apply = false): JSONObject | undefined {
  if (!text.startsWith('returned ')) return undefined;
  const v = JSON.parse(text.slice('returned '.length)) as JSONObject;
  return apply ? (v.object as JSONObject | undefined) : v;
}

/**
 * Test files whose calls are compared in shadow mode: the patch tables, and the server tests
 * that write every kind with field ownership (creates, updates, status writes, applies, dry runs).
 */
const shadowed = [
  'patch/managedfields',
  'patch/apply',
  'patch/kubectl',
  'patch/hardening',
  'patch/properties',
  'createownership',
  'api',
  'apps',
  'batch',
  'dryrun',
  'ephemeralcontainers',
];

const podView = schemaView('io.k8s.api.core.v1.Pod');

// --- generated pods -------------------------------------------------------------------------

/**
 * A generated value as plain objects (fast-check makes dictionaries without a prototype; decoded
 * requests have one), members holding undefined kept.
 */
function plain<T>(v: T): T {
  if (Array.isArray(v)) return v.map(plain) as T;
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: plain((v as Record<string, unknown>)[k]), writable: true, enumerable: true, configurable: true });
  return out as T;
}

/** Absent, an empty map, or a map. */
const maybeMap = <T>(m: fc.Arbitrary<Record<string, T>>): fc.Arbitrary<Record<string, T> | undefined> => fc.oneof(fc.constant(undefined), fc.constant({}), m);
const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'env', 'team', 'a.example.com/x'), fc.constantFrom('x', 'y', 'bench', ''), { maxKeys: 4 });
const quantity = fc.constantFrom('100m', '250m', '1', '64Mi', '1Gi');
const resourceList = fc.dictionary(fc.constantFrom('cpu', 'memory', 'ephemeral-storage'), quantity, { maxKeys: 3 });
// Key fields holding undefined (a name, a protocol whose default is TCP) are absent to the field manager.
const port = fc.record({ containerPort: fc.constantFrom(80, 443, 8080), protocol: fc.constantFrom('TCP', 'UDP', undefined), name: fc.constantFrom('http', 'dns') }, { requiredKeys: ['containerPort'] });
const envVar = fc.oneof(
  fc.record({ name: fc.constantFrom('A', 'B', 'C'), value: fc.constantFrom('1', '2', '') }, { requiredKeys: ['name'] }),
  fc.record({ name: fc.constantFrom('POD', 'NS'), valueFrom: fc.record({ fieldRef: fc.record({ apiVersion: fc.constant('v1'), fieldPath: fc.constantFrom('metadata.name', 'metadata.namespace') }) }) }),
);
const container = fc.record(
  {
    name: fc.constantFrom('app', 'side', 'log', 'app', 'side', undefined),
    image: fc.constantFrom('busybox:1.36', 'nginx:1.25', 'nginx:1.26'),
    imagePullPolicy: fc.constantFrom('IfNotPresent', 'Always'),
    command: fc.array(fc.constantFrom('sh', '-c', 'sleep 1'), { maxLength: 3 }),
    ports: fc.array(port, { maxLength: 3 }),
    env: fc.array(envVar, { maxLength: 3 }),
    resources: fc.record({ limits: maybeMap(resourceList), requests: maybeMap(resourceList) }, { requiredKeys: [] }),
    volumeMounts: fc.array(fc.record({ name: fc.constantFrom('data', 'kube-api-access-abcde'), mountPath: fc.constantFrom('/data', '/var/run/secrets/kubernetes.io/serviceaccount'), readOnly: fc.boolean() }), { maxLength: 2 }),
    securityContext: fc.constantFrom({}, { runAsNonRoot: true }, { capabilities: { drop: ['ALL'] } }, null),
    terminationMessagePath: fc.constant('/dev/termination-log'),
    oomKillMode: fc.constantFrom('Group', 'Single'),
  },
  { requiredKeys: ['name'] },
);
const toleration = fc.record({ key: fc.constantFrom('node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'gpu'), operator: fc.constantFrom('Exists', 'Equal'), effect: fc.constantFrom('NoExecute', 'NoSchedule'), tolerationSeconds: fc.constant(300) }, { requiredKeys: ['key'] });
const condition = fc.record({
  type: fc.constantFrom('PodScheduled', 'Ready', 'Initialized'),
  status: fc.constantFrom('True', 'False'),
  lastProbeTime: fc.constant(null),
  lastTransitionTime: fc.constantFrom('2024-05-01T09:00:00Z', '2024-05-01T09:01:00Z'),
  reason: fc.constantFrom('Unschedulable', 'PodCompleted'),
  message: fc.constantFrom('no nodes available to schedule pods', ''),
});
const podStatus = fc.record({ phase: fc.constantFrom('Pending', 'Running'), qosClass: fc.constantFrom('Burstable', 'BestEffort'), conditions: fc.array(condition, { maxLength: 3 }), hostIP: fc.constant('10.0.0.1') }, { requiredKeys: [] });

/** The projected service account token volume the ServiceAccount admission plugin adds. */
const tokenVolume = (suffix: string): JSONObject => ({
  name: `kube-api-access-${suffix}`,
  projected: {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  },
});

const pod: fc.Arbitrary<JSONObject> = fc
  .record({
    labels: maybeMap(labels),
    annotations: maybeMap(fc.dictionary(fc.constantFrom('kubernetes.io/limit-ranger', 'note'), fc.constantFrom('x', 'LimitRanger plugin set: cpu'), { maxKeys: 2 })),
    finalizers: fc.array(fc.constantFrom('example.com/a', 'example.com/b'), { maxLength: 2 }),
    containers: fc.array(container, { minLength: 1, maxLength: 3 }),
    initContainers: fc.array(container, { maxLength: 1 }),
    token: fc.option(fc.constantFrom('abcde', 'x7k2q'), { nil: undefined }),
    volumes: fc.array(fc.record({ name: fc.constantFrom('data', 'cache'), emptyDir: fc.constantFrom({}, { medium: 'Memory' }) }), { maxLength: 2 }),
    tolerations: fc.array(toleration, { maxLength: 3 }),
    nodeSelector: maybeMap(fc.dictionary(fc.constantFrom('disk', 'zone'), fc.constantFrom('ssd', 'a'), { maxKeys: 2 })),
    priority: fc.option(fc.constant(0), { nil: undefined }),
    status: fc.option(podStatus, { nil: undefined }),
    generation: fc.constantFrom(1, undefined),
  })
  .map((p) => {
    const metadata: JSONObject = { name: 'web', namespace: 'default', creationTimestamp: '2024-05-01T09:00:00Z' };
    if (p.generation !== undefined) metadata.generation = p.generation;
    // Members holding undefined, as code (not JSON) leaves them: omitEmpty drops them.
    metadata.labels = p.labels as JSONValue;
    if (p.annotations !== undefined) metadata.annotations = p.annotations;
    if (p.finalizers.length) metadata.finalizers = p.finalizers;
    const volumes = [...p.volumes] as unknown as JSONValue[];
    if (p.token) volumes.push(tokenVolume(p.token));
    const spec: JSONObject = { containers: p.containers as unknown as JSONValue, restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler', enableServiceLinks: true };
    if (p.initContainers.length) spec.initContainers = p.initContainers as unknown as JSONValue;
    if (volumes.length) spec.volumes = volumes;
    if (p.tolerations.length) spec.tolerations = p.tolerations as unknown as JSONValue;
    if (p.nodeSelector !== undefined) spec.nodeSelector = p.nodeSelector;
    if (p.priority !== undefined) spec.priority = p.priority;
    const o: JSONObject = { apiVersion: 'v1', kind: 'Pod', metadata, spec };
    if (p.status) o.status = p.status as unknown as JSONValue;
    return plain(o);
  });

type Write = { kind: 'update'; manager: string; subresource: string; make: (stored: JSONObject) => JSONObject } | { kind: 'apply'; manager: string; force: boolean; config: JSONObject };

const managers = fc.constantFrom(...Array.from({ length: 14 }, (_, i) => `manager-${i}`), 'kube-scheduler', 'kubectl', '');

const meta = (o: JSONObject): JSONObject => (o.metadata ?? {}) as JSONObject;
const spec = (o: JSONObject): JSONObject => (o.spec ?? {}) as JSONObject;

/** A write to the main resource that replaces `metadata` (sharing the rest). */
const withMeta = (o: JSONObject, m: JSONObject): JSONObject => ({ ...o, metadata: { ...meta(o), ...m } });
const withSpec = (o: JSONObject, s: JSONObject): JSONObject => ({ ...o, spec: { ...spec(o), ...s } });
const containersOf = (o: JSONObject): JSONObject[] => (Array.isArray(spec(o).containers) ? (spec(o).containers as JSONObject[]) : []);

const write: fc.Arbitrary<Write> = fc.oneof(
  // Label changes (set, change, remove, an empty map, an absent member).
  fc.record({ manager: managers, labels: maybeMap(labels) }).map(({ manager, labels: l }) => ({ kind: 'update' as const, manager, subresource: '', make: (o: JSONObject) => withMeta(o, { labels: plain(l) as JSONValue }) })),
  // An image change in one container, the others shared.
  fc.record({ manager: managers, at: fc.nat(), image: fc.constantFrom('nginx:1.27', 'busybox:1.37') }).map(({ manager, at, image }) => ({
    kind: 'update' as const,
    manager,
    subresource: '',
    make: (o: JSONObject) => withSpec(o, { containers: containersOf(o).map((c, i) => (i === at % Math.max(1, containersOf(o).length) ? { ...c, image } : c)) }),
  })),
  // List reorders: containers, tolerations, each container's env and ports.
  fc.record({ manager: managers }).map(({ manager }) => ({
    kind: 'update' as const,
    manager,
    subresource: '',
    make: (o: JSONObject) => {
      const s = spec(o);
      const reversed = containersOf(o).map((c) => ({ ...c, ...(Array.isArray(c.env) ? { env: [...c.env].reverse() } : {}), ...(Array.isArray(c.ports) ? { ports: [...c.ports].reverse() } : {}) }));
      return withSpec(o, { containers: reversed.reverse(), ...(Array.isArray(s.tolerations) ? { tolerations: [...s.tolerations].reverse() } : {}) });
    },
  })),
  // Removals: a container's resources, the token volume, the labels.
  fc.record({ manager: managers, what: fc.constantFrom('resources', 'volumes', 'labels', 'initContainers') }).map(({ manager, what }) => ({
    kind: 'update' as const,
    manager,
    subresource: '',
    make: (o: JSONObject) => {
      const next = structuredClone(o);
      if (what === 'resources') for (const c of containersOf(next)) delete c.resources;
      else if (what === 'labels') delete meta(next).labels;
      else delete spec(next)[what];
      return next;
    },
  })),
  // A status write as the pod strategy makes it: the stored object with the body's status,
  // labels and annotations (cloned, or absent), under subresource status.
  fc.record({ manager: managers, status: podStatus, keepLabels: fc.boolean() }).map(({ manager, status, keepLabels }) => ({
    kind: 'update' as const,
    manager,
    subresource: 'status',
    make: (o: JSONObject) => ({ ...o, metadata: { ...meta(o), labels: keepLabels ? structuredClone(meta(o).labels) : undefined, annotations: keepLabels ? structuredClone(meta(o).annotations) : undefined } as JSONObject, status: plain(status) as unknown as JSONValue }),
  })),
  // A full copy with a change, nothing shared (a PUT decoded from its body).
  fc.record({ manager: managers, restartPolicy: fc.constantFrom('Always', 'Never') }).map(({ manager, restartPolicy }) => ({
    kind: 'update' as const,
    manager,
    subresource: '',
    make: (o: JSONObject) => ({ ...structuredClone(o), spec: { ...structuredClone(spec(o)), restartPolicy } }),
  })),
  // Requests carrying managedFields: reset ([] or [{}]), another object's, invalid ones, the stored ones.
  fc.record({ manager: managers, mf: fc.constantFrom<JSONValue>([], [{}], [null], 'bad', [{ manager: 'x', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }], [{ manager: 'other', operation: 'Update', apiVersion: 'v1', time: '2024-05-01T08:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': {} } } }], [{ manager: 'applier', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:restartPolicy': {} } } }]), keep: fc.boolean() }).map(({ manager, mf, keep }) => ({
    kind: 'update' as const,
    manager,
    subresource: '',
    make: (o: JSONObject) => withMeta(o, { managedFields: keep ? (meta(o).managedFields ?? null) : plain(mf) }),
  })),
  // An apply of a generated configuration, forced or not.
  fc.record({ manager: managers, force: fc.boolean(), config: pod }).map(({ manager, force, config }) => {
    const c = structuredClone(config);
    delete c.status;
    for (const [k, v] of Object.entries(meta(c))) if (v === undefined) delete meta(c)[k];
    return { kind: 'apply' as const, manager: manager || 'kubectl', force, config: JSON.parse(JSON.stringify(c)) as JSONObject };
  }),
);

// --- generated objects of any shape ---------------------------------------------------------

/** Any JSON object, some of its members holding undefined (as code leaves them), named like pods. */
const anyObject: fc.Arbitrary<JSONObject> = fc
  .record({
    base: fc.object({ maxDepth: 4, values: [fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([])] }),
    spec: fc.option(fc.object({ key: fc.constantFrom('containers', 'volumes', 'nodeSelector', 'tolerations', 'x', 'data') }), { nil: undefined }),
    data: fc.option(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constant(undefined))), { nil: undefined }),
    labels: fc.option(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constant({}), fc.constant(undefined))), { nil: undefined }),
  })
  .map(({ base, spec: s, data, labels: l }) => {
    const o = JSON.parse(JSON.stringify(base)) as JSONObject;
    delete o.metadata;
    o.apiVersion = 'v1';
    o.metadata = { name: 'x', labels: l as JSONValue };
    if (s !== undefined) o.spec = JSON.parse(JSON.stringify(s)) as JSONValue;
    if (data !== undefined) o.data = data as JSONValue;
    return plain(o);
  });

describe('managedFields: the same as the reference implementation', () => {
  it('formatTime writes each time as metav1.Time does, also within one second and across seconds', () => {
    const times = [0, 999, 1000, 1001, -1, -1000, -1001, 1714555800000, 1714555800999, 1714555801000, 1714555800500, 253402300799999, 253402300800000];
    for (const t of [...times, ...[...times].reverse()]) assert.equal(formatTime(new Date(t)), metaTime(new Date(t)), String(t));
    assert.equal(formatTime('2024-05-01T09:00:00.750Z'), '2024-05-01T09:00:00Z');
  });

  it('every call the patch, apply, managed-fields and ownership tests make', () => {
    const here = fileURLToPath(new URL('.', import.meta.url));
    const register = join(here, 'reference', 'shadow-register.js');
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-mf-shadow-'));
    try {
      for (const name of shadowed) {
        const report = join(dir, `${name.replace('/', '-')}.jsonl`);
        const run = spawnSync(process.execPath, ['--import', register, join(here, '..', `${name}.test.js`)], { env: { ...process.env, MF_SHADOW_REPORT: report }, encoding: 'utf8', maxBuffer: 64 << 20 });
        assert.equal(run.status, 0, `${name}.test.js failed in shadow mode:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
        const seen = readFileSync(report, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { updates: number; applies: number; mismatches: string[] });
        const mismatches = seen.flatMap((r) => r.mismatches);
        assert.deepEqual(mismatches.slice(0, 3), [], `${name}: ${mismatches.length} calls differ from the reference`);
        // A file that made no call would prove nothing: the shadow was not in place.
        assert.ok(seen.reduce((n, r) => n + r.updates + r.applies, 0) > 0, `${name}: no call was shadowed`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('generated pods through sequences of writes', () => {
    fc.assert(
      fc.property(pod, fc.array(write, { maxLength: 14 }), fc.boolean(), fc.boolean(), (created, writes, resets, frozen) => {
        const t0 = Date.parse('2024-05-01T09:00:00Z');
        // Some writes share a second, most do not.
        const at = (step: number): Date => new Date(t0 + step * 700);
        const resetFields = (subresource: string): readonly (readonly string[])[] | undefined => (resets ? (subresource === 'status' ? [['spec']] : [['status']]) : undefined);
        const opts = (step: number, subresource = ''): UpdateOptions => ({ schema: podView, apiVersion: 'v1', now: at(step), subresource, resetFields: resetFields(subresource), zero: zeroObjects['v1/Pod'] });
        let live = stored(returned(sameUpdate(undefined, created, 'creator', opts(0)))!, 1);
        if (frozen) freezeDeep(live);
        writes.forEach((w, i) => {
          const step = i + 1;
          const result =
            w.kind === 'apply'
              ? returned(sameApply(live, w.config, { manager: w.manager, force: w.force, schema: podView, apiVersion: 'v1', kind: 'Pod', now: at(step), resetFields: resetFields(''), zero: zeroObjects['v1/Pod'] }), true)
              : returned(sameUpdate(live, w.make(live), w.manager, opts(step, w.subresource)));
          // A write both refused (an apply's conflict) leaves the object as it was. Frozen deep,
          // the stored object is what the server's writes start from (the watch cache's), whose
          // field sets are decoded once by identity.
          if (result) live = frozen ? freezeDeep(stored(result, step + 1)) : stored(result, step + 1);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('creates of one shape whose names, uids, times and generations differ (the remembered creator sets)', () => {
    // The second and later creates of a shape take the creator's set from the memo: the same
    // text as the reference's each time, whatever the members stripMeta removes hold (scalars,
    // absent, or maps and lists, which are kept in the memo's key).
    const stripped = fc.record(
      {
        name: fc.constantFrom<JSONValue>('web', 'web-2', '', 7, true, { x: 'y' }, ['a'], null),
        namespace: fc.constantFrom<JSONValue>('default', 'other', { a: {} }),
        uid: fc.constantFrom<JSONValue>('uid-1', 'uid-2', 12),
        creationTimestamp: fc.constantFrom<JSONValue>('2024-05-01T09:00:00Z', '2024-05-01T10:00:00Z', null),
        generation: fc.constantFrom<JSONValue>(1, 2, '3', []),
        resourceVersion: fc.constantFrom<JSONValue>('5', 5),
        selfLink: fc.constantFrom<JSONValue>('/api/v1/x', false),
        clusterName: fc.constantFrom<JSONValue>('c', { c: 1 }),
      },
      { requiredKeys: [] },
    );
    const opts: UpdateOptions = { schema: podView, apiVersion: 'v1', now: '2024-05-01T09:30:00Z', resetFields: [['status']], zero: zeroObjects['v1/Pod'] };
    fc.assert(
      fc.property(pod, fc.array(stripped, { minLength: 1, maxLength: 6 }), fc.constantFrom('creator', '', 'kube-scheduler'), (shape, metas, manager) => {
        for (const m of metas) {
          const created = structuredClone(shape);
          const metadata: JSONObject = { ...meta(created) };
          for (const k of ['name', 'namespace', 'uid', 'creationTimestamp', 'generation']) delete metadata[k];
          created.metadata = plain({ ...(m as JSONObject), ...metadata });
          sameUpdate(undefined, created, manager, opts);
          sameUpdate(undefined, created, manager, { ...opts, subresource: 'status', resetFields: [['spec']] });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('creates of one shape with other values: scalars changed, equal to the zero object\'s or not, of other types', () => {
    // A remembered creator set is keyed by what the walk reads; every variant of a shape, each
    // created after the others (so most take a set remembered from another variant), must give
    // the reference's text. The objects start from the kind's zero object, so that its members
    // (timestamps that are null, strings that are '', nested maps, maps that are null) are
    // there to be equal to or not, with generated members beside them.
    const kinds: { schema: string; zero: string; reset?: readonly (readonly string[])[] }[] = [
      { schema: 'io.k8s.api.core.v1.Pod', zero: 'v1/Pod', reset: [['status']] },
      { schema: 'io.k8s.api.core.v1.Event', zero: 'v1/Event' },
      { schema: 'io.k8s.api.core.v1.Node', zero: 'v1/Node', reset: [['status']] },
      { schema: 'io.k8s.api.apps.v1.Deployment', zero: 'apps/v1/Deployment', reset: [['status']] },
      { schema: 'io.k8s.api.core.v1.ConfigMap', zero: 'v1/ConfigMap' },
      { schema: 'io.k8s.api.scheduling.v1.PriorityClass', zero: 'scheduling.k8s.io/v1/PriorityClass' },
      { schema: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler', zero: 'autoscaling/v2/HorizontalPodAutoscaler', reset: [['status']] },
    ];
    const views = kinds.map((k) => schemaView(k.schema));
    const scalars: JSONValue[] = ['', 'x', 'web', 0, 1, 2.5, true, false, null];
    /** `v` with some scalars replaced (by `pick`), members holding undefined kept as they are. */
    const perturb = (v: JSONValue, zero: JSONValue | undefined, pick: () => number): JSONValue => {
      if (Array.isArray(v)) return pick() % 20 === 0 ? [...v, 'extra'] : v.map((x) => perturb(x, undefined, pick));
      if (v !== null && typeof v === 'object') {
        const out: JSONObject = {};
        // The zero's own member only: a generated name such as `toString` must not find Object.prototype's.
        for (const k of Object.keys(v)) out[k] = v[k] === undefined ? (undefined as unknown as JSONValue) : perturb(v[k], zero !== null && typeof zero === 'object' && !Array.isArray(zero) && Object.prototype.hasOwnProperty.call(zero, k) ? zero[k] : undefined, pick);
        return out;
      }
      // Mostly kept or of the same type (so that variants share a key), sometimes the zero's.
      const r = pick() % 8;
      if (r <= 2) return v;
      if (r <= 4 && zero !== undefined && (zero === null || typeof zero !== 'object')) return zero;
      if (r <= 6) {
        const same = scalars.filter((x) => typeof x === typeof v && x !== null);
        if (same.length) return same[pick() % same.length]!;
      }
      return scalars[pick() % scalars.length]!;
    };
    fc.assert(
      fc.property(fc.nat(kinds.length - 1), fc.oneof(anyObject, pod), fc.array(fc.nat(), { minLength: 3, maxLength: 8 }), fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (ki, extra, seeds, draws) => {
        const kind = kinds[ki]!;
        const zero = zeroObjects[kind.zero]!;
        const opts: UpdateOptions = { schema: views[ki]!, apiVersion: kind.zero.split('/').slice(0, -1).join('/'), now: '2024-05-01T09:30:00Z', resetFields: kind.reset, zero };
        // The shape: the zero object's members, then generated ones (the zero's win where both are).
        const shape = { ...extra, ...structuredClone(zero), metadata: { ...(extra.metadata as JSONObject), ...(zero.metadata as JSONObject) } } as JSONObject;
        const variants = [shape, ...seeds.map((seed) => {
          let i = seed;
          const pick = () => draws[i++ % draws.length]! + i;
          return plain(perturb(shape, zero, pick) as JSONObject);
        })];
        for (const v of [...variants, ...variants]) sameUpdate(undefined, v, 'creator', opts);
      }),
      { numRuns: 400 },
    );
  });

  it('sameShape tells two objects alike exactly when their createKeys are the same text', () => {
    // The memo compares a remembered Shape with each create instead of writing createKey out.
    const zeros = [zeroObjects['v1/Pod']!, zeroObjects['v1/Event']!, zeroObjects['v1/Node']!, zeroObjects['apps/v1/Deployment']!];
    const scalar = fc.constantFrom<JSONValue>('', 'x', 0, 1, true, false, null, 'default-scheduler');
    const value: fc.Arbitrary<JSONValue> = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 2 }), fc.dictionary(fc.constantFrom('a', 'b', 'spec', 'metadata', 'status', 'creationTimestamp', 'reportingComponent', 'containers', 'x'), fc.oneof(tie('v'), fc.constant(undefined)), { maxKeys: 4 })),
    })).v as fc.Arbitrary<JSONValue>;
    const obj = fc.dictionary(fc.constantFrom('metadata', 'spec', 'status', 'firstTimestamp', 'reportingComponent', 'involvedObject', 'x'), value, { maxKeys: 5 });
    const scalars: JSONValue[] = ['', 'x', 0, 1, true, null, 'default-scheduler'];
    /** `v` with some scalars replaced and some maps' members reversed, by `pick`. */
    const vary = (v: JSONValue, pick: () => number): JSONValue => {
      if (Array.isArray(v)) return pick() % 6 === 0 ? [...v, 1] : v.map((x) => vary(x, pick));
      if (v !== null && typeof v === 'object') {
        const keys = Object.keys(v);
        if (pick() % 5 === 0) keys.reverse();
        const out: JSONObject = {};
        for (const k of keys) out[k] = v[k] === undefined ? (undefined as unknown as JSONValue) : vary(v[k], pick);
        return out;
      }
      return pick() % 3 === 0 ? scalars[pick() % scalars.length]! : v;
    };
    fc.assert(
      fc.property(fc.nat(zeros.length - 1), obj, obj, fc.nat(2), fc.array(fc.nat(), { minLength: 30, maxLength: 30 }), (zi, a, b, how, draws) => {
        const zero = zeros[zi]!;
        const x = { ...zero, ...(plain(a) as JSONObject) };
        let i = 0;
        const pick = () => draws[i++ % draws.length]! + i;
        // The same object again, one with some scalars or member orders changed, or another.
        const y = (how === 0 ? structuredClone(x) : how === 1 ? plain(vary(x, pick)) : plain(b)) as JSONObject;
        for (const [p, q] of [[x, y], [y, x], [x, x]] as const) assert.equal(sameShape(shapeOf(p, zero), q, zero), createKey(p, zero) === createKey(q, zero));
      }),
      { numRuns: 3000 },
    );
  });

  it('creates past the memo bound, with and without repeats', () => {
    // More distinct shapes than the memo keeps (it empties, then rests when few repeat), then
    // a few shapes over and over, past the rest, so that they are remembered again.
    const opts: UpdateOptions = { schema: podView, apiVersion: 'v1', now: '2024-05-01T09:30:00Z', resetFields: [['status']], zero: zeroObjects['v1/Pod'] };
    const shapes = fc.sample(pod, { numRuns: 600, seed: 13 });
    const create = (shape: JSONObject, name: string, n: string): void => {
      const created = structuredClone(shape);
      created.metadata = { ...meta(created), name, labels: { ...((meta(created).labels ?? {}) as JSONObject), n } };
      sameUpdate(undefined, created, 'creator', opts);
    };
    shapes.forEach((shape, i) => create(shape, `p-${i}`, String(i)));
    for (let i = 0; i < 4600; i++) create(shapes[i % 7]!, `q-${i}`, String(i % 7));
  });

  it('values nested past the bound, in the old object, the new one, or both, shared or not', () => {
    // A chain of maps and lists `depth` levels deep, the kinds chosen by `shape`, with a sibling
    // chain of the other kind beside it at `fork`: which bracket is reported first depends on
    // the order the check walks in.
    const nested = (depth: number, shape: boolean[], fork: number): JSONValue => {
      let v: JSONValue = 'leaf';
      for (let d = depth; d > 0; d--) {
        const asList = shape[d % shape.length];
        v = asList ? [v] : { x: v };
        if (d === fork) v = asList ? [v, { y: nested(depth - d + 1, [!asList], 0) }] : { x: v, y: [nested(depth - d + 1, [!asList], 0)] };
      }
      return v;
    };
    fc.assert(
      fc.property(fc.integer({ min: 995, max: 1003 }), fc.integer({ min: 995, max: 1003 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), fc.nat(1000), fc.constantFrom('old', 'new', 'both', 'shared'), (dOld, dNew, shape, fork, where) => {
        const deepOld = nested(dOld, shape, fork);
        const base: JSONObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'u', labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }] } };
        const old: JSONObject = where === 'new' ? base : { ...base, spec: { ...(base.spec as JSONObject), overrides: deepOld } };
        const next: JSONObject = where === 'old' ? { ...base, metadata: { name: 'p', labels: { a: 'c' } } } : where === 'shared' ? { ...old, metadata: { name: 'p', labels: { a: 'c' } } } : { ...base, status: { deep: nested(dNew, [...shape].reverse(), fork) } };
        sameUpdate(old, next, 'm', { schema: podView, apiVersion: 'v1', now: '2024-05-01T09:30:00Z', zero: zeroObjects['v1/Pod'] });
        sameUpdate(undefined, next, 'm', { schema: podView, apiVersion: 'v1', now: '2024-05-01T09:30:00Z', zero: zeroObjects['v1/Pod'] });
      }),
      { numRuns: 60 },
    );
  });

  it('generated objects of any shape, created and updated, under the Pod and ConfigMap schemas', () => {
    const configMap = schemaView('io.k8s.api.core.v1.ConfigMap');
    fc.assert(
      fc.property(anyObject, anyObject, fc.boolean(), (a, b, pods) => {
        const schema = pods ? podView : configMap;
        const zero = pods ? zeroObjects['v1/Pod'] : zeroObjects['v1/ConfigMap'];
        const opts: UpdateOptions = { schema, apiVersion: 'v1', now: '2024-05-01T09:30:00Z', resetFields: pods ? [['status']] : undefined, zero };
        const created = stored(returned(sameUpdate(undefined, a, 'creator', opts))!, 1);
        sameUpdate(created, b, 'editor', { ...opts, now: '2024-05-01T09:31:00Z' });
        sameUpdate(a, b, 'editor', opts);
      }),
      { numRuns: 400 },
    );
  });
});
