// A write hands the object it encoded the stored value from to the watch cache (watchcache.ts's
// Offer), which takes it for the write's event instead of parsing the value again. The cache's
// object must then be exactly what parsing gives: for every write below, through the full
// admission chain of a real server, the cached object of every store event is compared with
// the stored value decoded as the cache decodes it (isDeepStrictEqual, and the same JSON text,
// so members in the same order), whether the object was taken or parsed.
// BULKHEAD_CHECK_OFFERS=1 makes the cache check every object it takes the same way, in any test.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import { defaultedOnRead, encodeForStore } from '../../src/apiserver/objects.js';
import { Cacher } from '../../src/apiserver/watchcache.js';
import { MemoryStore } from '../../src/storage/index.js';
import { resources, storageKey, type ResourceDef } from '../../src/apiserver/resources.js';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.js';
import { Api, type RequestInfo } from '../../src/apiserver/rest.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import { LoopbackClient } from '../../src/client/loopback.js';
import {
  configMapsRef,
  deploymentsRef,
  jobsRef,
  leasesRef,
  namespacesRef,
  nodesRef,
  podsRef,
  resourceQuotasRef,
  runtimeClassesRef,
  secretsRef,
  serviceAccountsRef,
  servicesRef,
} from '../../src/client/resources.js';
import type { ResourceRef } from '../../src/client/interface.js';
import type { KeyValue } from '../../src/storage/store.js';

const limitRangesRef: ResourceRef = { group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', namespaced: true };
const priorityClassesRef: ResourceRef = { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false };

const ns = 'offers';
const container = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: 'busybox:1.36', ...extra });
const pod = (name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...meta },
  spec: { containers: [container('app')], ...spec },
});

interface Row {
  name: string;
  /** The write, through the loopback client (the handler's body decoding) or the Api itself. */
  write(c: LoopbackClient, s: RunningApiServer): Promise<KubeObject>;
  /**
   * Whether the watch cache took the written object (false: it parsed the value, as for the
   * resources whose admission caches decode first, or an object JSON would change).
   */
  taken: boolean;
}

const admin: RequestInfo = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };

/** The rows run in order: later ones read what earlier ones wrote. */
const rows: Row[] = [
  { name: 'a namespace: labelled with its name, Pod Security labels (its admission cache decodes it first)', taken: false, write: (c) => c.create(namespacesRef, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' } } }) },
  { name: 'a ServiceAccount (its admission cache decodes it first)', taken: false, write: (c) => c.create(serviceAccountsRef, ns, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }) },
  {
    name: 'a LimitRange with defaults (its admission cache decodes it first)',
    taken: false,
    write: (c) => c.create(limitRangesRef, ns, { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' }, max: { cpu: '2' } }] } }),
  },
  { name: 'a ResourceQuota on pods and compute', taken: false, write: (c) => c.create(resourceQuotasRef, ns, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { hard: { pods: '100', 'requests.cpu': '100', 'limits.memory': '100Gi' } } }) },
  { name: 'a ResourceQuota scoped to BestEffort', taken: false, write: (c) => c.create(resourceQuotasRef, ns, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'besteffort' }, spec: { hard: { pods: '50' }, scopes: ['BestEffort'] } }) },
  {
    name: 'a ResourceQuota scoped by PriorityClass',
    taken: false,
    write: (c) => c.create(resourceQuotasRef, ns, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'high' }, spec: { hard: { pods: '10', 'count/configmaps': '10' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } } }),
  },
  { name: 'a PriorityClass', taken: false, write: (c) => c.create(priorityClassesRef, undefined, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, description: 'high' }) },
  { name: 'a RuntimeClass with overhead', taken: false, write: (c) => c.create(runtimeClassesRef, undefined, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'rc' }, handler: 'runc', overhead: { podFixed: { cpu: '10m', memory: '16Mi' } } }) },
  { name: 'a pod given its resources by the LimitRange, tolerations, a token volume', taken: true, write: (c) => c.create(podsRef, ns, pod('defaulted')) },
  { name: 'a pod with requests and limits of its own', taken: true, write: (c) => c.create(podsRef, ns, pod('sized', { containers: [container('app', { resources: { requests: { cpu: '200m', memory: '100Mi' }, limits: { cpu: '1', memory: '200Mi' } } })] })) },
  { name: 'a pod with a generated name', taken: true, write: (c) => c.create(podsRef, ns, { ...pod(''), metadata: { generateName: 'gen-' } }) },
  { name: 'a pod with a PriorityClass: its priority set', taken: true, write: (c) => c.create(podsRef, ns, pod('prio', { priorityClassName: 'high' })) },
  { name: 'a pod with a RuntimeClass: its overhead set', taken: true, write: (c) => c.create(podsRef, ns, pod('runtime', { runtimeClassName: 'rc' })) },
  {
    name: 'a pod with init containers, labels, annotations, its own tolerations',
    taken: true,
    write: (c) =>
      c.create(podsRef, ns, pod('init', { initContainers: [container('init', { command: ['true'] })], tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }], nodeSelector: { disk: 'ssd' } }, { labels: { app: 'web', tier: 'x' }, annotations: { note: 'ü ☃ \u2028' } })),
  },
  { name: 'a pod with empty labels and annotations (not stored)', taken: true, write: (c) => c.create(podsRef, ns, pod('empty', {}, { labels: {}, annotations: {}, finalizers: [] })) },
  { name: 'a pod with a finalizer', taken: true, write: (c) => c.create(podsRef, ns, pod('kept', {}, { finalizers: ['example.com/keep'] })) },
  { name: 'a pod whose body has a resourceVersion (dropped on create)', taken: true, write: (c) => c.create(podsRef, ns, pod('withrv', {}, { resourceVersion: '12345' })) },
  {
    name: 'a pod whose body, a copy of the caller\'s, held undefined members and -0 (the copy is JSON\'s)',
    taken: true,
    write: (_c, s) => s.api.create(s.api.def('pods'), ns, pod('copied', { nodeSelector: undefined, terminationGracePeriodSeconds: -0 }, { labels: { a: 'b' }, resourceVersion: undefined }) as KubeObject, { ...admin, warnings: [] }),
  },
  {
    name: 'a pod whose JSON body is the request\'s own (prepared and defaulted in place), holding -0: JSON writes 0, so it is parsed',
    taken: false,
    write: (_c, s) => {
      const text = JSON.stringify(pod('inplace', { terminationGracePeriodSeconds: 7, containers: [container('app', { resources: { limits: { cpu: '300m' } } })] }, { labels: { x: 'y' } })).replace(':7', ':-0');
      return s.api.create(s.api.def('pods'), ns, JSON.parse(text) as KubeObject, { ...admin, warnings: [] }, () => JSON.parse(text) as KubeObject);
    },
  },
  {
    name: 'a pod whose JSON body is the request\'s own (prepared and defaulted in place)',
    taken: true,
    write: (_c, s) => {
      const text = JSON.stringify(pod('inplace2', { containers: [container('app', { resources: { limits: { cpu: '300m' } } })] }, { labels: { x: 'y' } }));
      return s.api.create(s.api.def('pods'), ns, JSON.parse(text) as KubeObject, { ...admin, warnings: [] }, () => JSON.parse(text) as KubeObject);
    },
  },
  {
    name: 'a pod update (PUT) with the resourceVersion in the middle of its metadata',
    taken: true,
    write: async (c) => {
      const cur = await c.get<KubeObject>(podsRef, ns, 'sized');
      const { resourceVersion, ...rest } = cur.metadata!;
      return c.update(podsRef, ns, { ...cur, metadata: { name: rest.name, resourceVersion, labels: { updated: 'yes' }, ...rest } });
    },
  },
  {
    name: 'a pod status update (labels and annotations the body does not have are left out, not undefined)',
    taken: true,
    write: async (c) => {
      const cur = await c.get<KubeObject>(podsRef, ns, 'defaulted');
      return c.update(podsRef, ns, { ...cur, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }], podIP: '10.0.0.5' } }, { subresource: 'status' });
    },
  },
  { name: 'a pod merge patch', taken: true, write: (c) => c.patch(podsRef, ns, 'init', 'application/merge-patch+json', { metadata: { labels: { tier: null, added: 'z' } } }) },
  { name: 'a pod strategic merge patch', taken: true, write: (c) => c.patch(podsRef, ns, 'prio', 'application/strategic-merge-patch+json', { metadata: { annotations: { a: '1' } }, spec: { activeDeadlineSeconds: 30 } }) },
  {
    name: 'a graceful pod delete (the deletion mark is an update)',
    taken: true,
    write: async (c, s) => {
      await c.delete(podsRef, ns, 'kept', { gracePeriodSeconds: 30 });
      return s.api.cacher!.lookup(s.api.def('pods'), storageKey(s.api.def('pods'), ns, 'kept'))!.obj!;
    },
  },
  { name: 'a ClusterIP Service (its IP allocated)', taken: true, write: (c) => c.create(servicesRef, ns, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } }) },
  { name: 'a NodePort Service', taken: true, write: (c) => c.create(servicesRef, ns, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 81, protocol: 'TCP' }] } }) },
  {
    name: 'a Deployment (defaulted)',
    taken: true,
    write: (c) => c.create(deploymentsRef, ns, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 2, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container('app')] } } } }),
  },
  {
    name: 'a Deployment update',
    taken: true,
    write: async (c) => {
      const cur = await c.get<KubeObject & { spec: { replicas: number } }>(deploymentsRef, ns, 'd');
      return c.update(deploymentsRef, ns, { ...cur, spec: { ...cur.spec, replicas: 0 } });
    },
  },
  { name: 'a ConfigMap', taken: true, write: (c) => c.create(configMapsRef, ns, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { '1': 'one', b: 'two', a: '' } }) },
  { name: 'a Secret with stringData', taken: true, write: (c) => c.create(secretsRef, ns, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' }, data: { d: 'eA==' } }) },
  {
    name: 'a Job (its selector and labels generated)',
    taken: true,
    write: (c) => c.create(jobsRef, ns, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [container('app')] } } } }),
  },
  {
    name: 'a Node',
    taken: true,
    write: (c) => c.create(nodesRef, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } }, status: { capacity: { cpu: '2', memory: '4Gi', pods: '110' } } }),
  },
  {
    name: 'a Lease',
    taken: true,
    write: (c) => c.create(leasesRef, ns, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: '2026-01-01T00:00:00.000000Z', leaseTransitions: 0 } }),
  },
  {
    name: 'a namespace update (its admission cache decodes it first)',
    taken: false,
    write: async (c) => {
      const cur = await c.get<KubeObject>(namespacesRef, undefined, ns);
      return c.update(namespacesRef, undefined, { ...cur, metadata: { ...cur.metadata, annotations: { a: 'b' } } });
    },
  },
];

/** What the watch cache decodes a stored value to when it parses it (watchcache.ts's decode). */
function parsed(kv: KeyValue): KubeObject {
  const obj = defaultedOnRead(JSON.parse(kv.value) as KubeObject);
  (obj.metadata ??= {}).resourceVersion = String(kv.modRevision);
  return obj;
}

describe('objects handed to the watch cache by their writers', () => {
  let dir: string;
  let s: RunningApiServer;
  let client: LoopbackClient;
  const byPrefix = new Map<string, ResourceDef>();
  /** Events whose cached object differs from the parsed value, and the events checked. */
  const differing: string[] = [];
  let checked = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-offers-'));
    s = await startApiServer({ dataDir: join(dir, 'data'), port: 0 });
    client = new LoopbackClient(s.api, { user: 'admin' });
    const cacher = s.api.cacher!;
    for (const r of [namespacesRef, podsRef, serviceAccountsRef, limitRangesRef, resourceQuotasRef, priorityClassesRef, runtimeClassesRef, servicesRef, deploymentsRef, configMapsRef, secretsRef, jobsRef, nodesRef, leasesRef]) {
      const def = resources.find((d) => d.group === r.group && d.version === r.version && d.resource === r.resource)!;
      await cacher.start(def);
      byPrefix.set(storageKey(def, undefined), def);
    }
    // Registered after every cache: the store delivers an event to its watchers in that order.
    await s.store.watch('/', await s.store.currentRevision(), {
      event: (e) => {
        if (e.type !== 'PUT') return;
        const def = [...byPrefix].find(([p]) => e.kv.key.startsWith(p))?.[1];
        if (!def) return;
        const cached = cacher.lookup(def, e.kv.key);
        assert.ok(cached?.obj, `${e.kv.key} is cached`);
        assert.equal(cached.rev, e.kv.modRevision);
        const want = parsed(e.kv);
        checked++;
        if (!isDeepStrictEqual(cached.obj, want) || JSON.stringify(cached.obj) !== JSON.stringify(want)) differing.push(`${e.kv.key}@${e.kv.modRevision}\n  cached: ${JSON.stringify(cached.obj)}\n  stored: ${e.kv.value}`);
      },
      error: (err) => differing.push(`watch: ${err.message}`),
    });
  });

  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const row of rows) {
    it(`${row.name}: the cached object is the parsed value${row.taken ? ', taken from the writer' : ''}`, async () => {
      const before = checked;
      const out = await row.write(client, s);
      assert.ok(checked > before, 'the write was checked');
      assert.deepEqual(differing, []);
      const def = resources.find((d) => d.kind === out.kind && `${d.group ? d.group + '/' : ''}${d.version}` === out.apiVersion)!;
      const cached = s.api.cacher!.lookup(def, storageKey(def, out.metadata?.namespace, out.metadata?.name))!;
      assert.equal(cached.obj === out, row.taken, row.taken ? 'the writer answers with the object the cache took' : 'the cache parsed the value');
      assert.equal(Object.isFrozen(out), row.taken);
      assert.deepEqual(JSON.parse(JSON.stringify(out)), JSON.parse(JSON.stringify(cached.obj)));
    });
  }
});

describe('an offered object the watch cache takes', () => {
  const configmaps = resources.find((d) => d.resource === 'configmaps' && d.version === 'v1')!;
  class Thing {
    a = 1;
  }
  const hole: unknown[] = ['a'];
  hole[2] = 'c';
  const cm = (members: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', ...members });
  const rows: { name: string; obj: () => Record<string, unknown>; taken: boolean }[] = [
    { name: 'plain JSON values: taken', obj: () => cm({ data: { s: 'x', n: 1.5, z: 0, big: 1e21, t: true, nul: null, arr: [1, 'a', [], {}], '2': 'integer-like key' } }), taken: true },
    { name: 'a resourceVersion in its metadata (not stored): taken, set to the revision', obj: () => cm({ metadata: { name: 'x', resourceVersion: '5', labels: { a: 'b' } } }), taken: true },
    { name: 'an undefined member (JSON drops it): parsed', obj: () => cm({ data: { a: undefined, b: 'x' } }), taken: false },
    { name: 'undefined in an array (JSON writes null): parsed', obj: () => cm({ data: { a: [1, undefined] } }), taken: false },
    { name: 'an array with a hole (JSON writes null): parsed', obj: () => cm({ data: { a: hole } }), taken: false },
    { name: '-0 (JSON writes 0): parsed', obj: () => cm({ data: { n: -0 } }), taken: false },
    { name: 'NaN (JSON writes null): parsed', obj: () => cm({ data: { n: NaN } }), taken: false },
    { name: 'Infinity (JSON writes null): parsed', obj: () => cm({ data: { n: Infinity } }), taken: false },
    { name: 'a Date (JSON writes a string): parsed', obj: () => cm({ data: { d: new Date(0) } }), taken: false },
    { name: 'a class instance (JSON writes its members, parsing gives a plain object): parsed', obj: () => cm({ data: { t: new Thing() } }), taken: false },
    { name: 'an object without a prototype: parsed', obj: () => cm({ data: Object.assign(Object.create(null) as object, { a: 'b' }) }), taken: false },
    { name: 'a function member (JSON drops it): parsed', obj: () => cm({ data: { f: () => 1 } }), taken: false },
    { name: 'a frozen metadata (the cache sets its resourceVersion): parsed', obj: () => cm({ metadata: Object.freeze({ name: 'x' }) }), taken: false },
    { name: 'a frozen object (the cache sets its metadata): parsed', obj: () => Object.freeze(cm({ data: { a: 'b' } })), taken: false },
  ];
  for (const [i, row] of rows.entries()) {
    it(row.name, async () => {
      const store = new MemoryStore();
      const cacher = new Cacher(store);
      await cacher.start(configmaps);
      const key = storageKey(configmaps, 'a', `cm${i}`);
      const obj = row.obj() as unknown as KubeObject;
      const value = encodeForStore(obj);
      const offer = cacher.offer(configmaps, key, value, obj)!;
      const kv = await store.create(key, value);
      offer.withdraw();
      assert.equal(offer.taken, row.taken);
      const cached = cacher.lookup(configmaps, key)!.obj!;
      assert.equal(cached === obj, row.taken);
      const want = parsed(kv);
      assert.ok(isDeepStrictEqual(cached, want), 'deep-equal to the parsed value');
      assert.equal(JSON.stringify(cached), JSON.stringify(want));
      cacher.stop();
    });
  }

  it('is not taken for another write of its key (another value)', async () => {
    const store = new MemoryStore();
    const cacher = new Cacher(store);
    await cacher.start(configmaps);
    const key = storageKey(configmaps, 'a', 'other');
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' }, data: { a: 'mine' } } as unknown as KubeObject;
    const offer = cacher.offer(configmaps, key, encodeForStore(obj), obj)!;
    const kv = await store.create(key, JSON.stringify({ ...obj, data: { a: 'theirs' } }));
    offer.withdraw();
    assert.equal(offer.taken, false);
    assert.deepEqual(cacher.lookup(configmaps, key)!.obj, parsed(kv));
    assert.equal(Object.isFrozen(obj), false);
    cacher.stop();
  });
});

describe('a create that changes its request\'s own body (Api.create with `again`)', () => {
  const configmaps = resources.find((d) => d.resource === 'configmaps' && d.version === 'v1')!;
  const namespaces = resources.find((d) => d.resource === 'namespaces' && d.version === 'v1')!;
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { a: 'b' } }, data: { k: 'v' } });
  const rows = [
    { name: 'admitted again in a batch after its transaction lost a race: from the body as it came', serialized: true },
    { name: 'admitted again one by one after its transaction lost a race: from the body as it came', serialized: false },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const store = new MemoryStore();
      await store.create(storageKey(namespaces, undefined, 'a'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }));
      const api = new Api({ store, gates: defaultFeatureGates });
      api.cacher = new Cacher(store);
      await api.cacher.start(configmaps);
      // What each preparation was given, as it came; admission then changes it (as a pod's does).
      const given: unknown[] = [];
      api.strategies.set('configmaps', {
        serializeCreatesPerNamespace: row.serialized,
        async create(obj) {
          // Less its uid, new in each preparation.
          const { uid: _uid, ...meta } = obj.metadata!;
          given.push(JSON.parse(JSON.stringify({ ...obj, metadata: meta })));
          (obj.metadata!.labels as Record<string, string>).admitted = String(given.length);
          (obj as unknown as { data: Record<string, string> }).data.k += '!';
          return { obj };
        },
      });
      // The first transaction loses (a guarded object changed meanwhile), once.
      const txn = store.txn.bind(store);
      let lost = 0;
      store.txn = async (compares, success, failure) => (lost++ === 0 ? { succeeded: false, revision: await store.currentRevision(), results: [] } : txn(compares, success, failure));
      let decodedAgain = 0;
      const body = JSON.parse(text) as KubeObject;
      const out = await api.create(configmaps, 'a', body, { ...admin, warnings: [] }, () => {
        decodedAgain++;
        return JSON.parse(text) as KubeObject;
      });
      assert.equal(given.length, 2);
      assert.deepEqual(given[1], given[0], 'the second preparation started from what the first did');
      assert.equal(decodedAgain, 1);
      assert.deepEqual(out.metadata?.labels, { a: 'b', admitted: '2' });
      assert.deepEqual((out as unknown as { data: unknown }).data, { k: 'v!' });
      const stored = JSON.parse((await store.get(storageKey(configmaps, 'a', 'cm')))!.value) as KubeObject;
      assert.deepEqual(stored.metadata?.labels, { a: 'b', admitted: '2' });
      api.cacher.stop();
    });
  }
});
