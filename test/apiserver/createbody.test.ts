// A create whose body was decoded for its request alone (the handler's JSON body: Api.create's
// `again`) is prepared and defaulted in that object instead of a copy. The stored object is the
// one a copied body gives, byte for byte (less what differs between any two creates: uid,
// times, generated names), through the full admission chain; and a create admitted a second
// time, batched or one by one, starts from the body as it came, decoded again.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { resources, storageKey } from '../../src/apiserver/resources.js';
import { Api, type RequestInfo } from '../../src/apiserver/rest.js';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.js';
import { MemoryStore } from '../../src/storage/index.js';

const admin = (): RequestInfo => ({ user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Strict', warnings: [], userAgent: 'kubectl/v1.32.0' });
const container = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: 'busybox:1.36', ...extra });

/** The stored JSON less what two creates of one body never share. */
function comparable(value: string): string {
  return value
    .replace(/"(uid|creationTimestamp|time|resourceVersion)":"[^"]*"/g, '"$1":"-"')
    .replace(/"name":"(in|copied)-/g, '"name":"-')
    .replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-x');
}

describe('a create prepared in its request\'s own body', () => {
  let dir: string;
  let s: RunningApiServer;
  const ns = 'inplace';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-createbody-'));
    s = await startApiServer({ dataDir: join(dir, 'data'), port: 0 });
    const a = s.api;
    await a.create(a.def('namespaces'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' } } }, admin());
    await a.create(a.def('serviceaccounts'), ns, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }, admin());
    await a.create(a.def('limitranges'), ns, { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' } }] } } as unknown as KubeObject, admin());
    await a.create(a.def('resourcequotas'), ns, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '100', 'requests.cpu': '100' } } } as unknown as KubeObject, admin());
    await a.create(findDef('priorityclasses'), undefined, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 } as unknown as KubeObject, admin());
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows: { name: string; pod: (name: string) => Record<string, unknown> }[] = [
    { name: 'a pod given its resources by the LimitRange, tolerations and a token volume', pod: (name) => ({ metadata: { name, labels: { app: 'x' } }, spec: { containers: [container('app')] } }) },
    { name: 'a pod with resources of its own', pod: (name) => ({ metadata: { name }, spec: { containers: [container('app', { resources: { requests: { cpu: '200m', memory: '100Mi' }, limits: { cpu: '1', memory: '200Mi' } } })] } }) },
    { name: 'a pod with a PriorityClass', pod: (name) => ({ metadata: { name }, spec: { priorityClassName: 'high', containers: [container('app')] } }) },
    {
      name: 'a pod with init containers, annotations, tolerations of its own',
      pod: (name) => ({ metadata: { name, annotations: { note: 'ü ☃' } }, spec: { initContainers: [container('init', { command: ['true'] })], tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }], containers: [container('app')] } }),
    },
    { name: 'a pod with empty labels, annotations and finalizers (not stored)', pod: (name) => ({ metadata: { name, labels: {}, annotations: {}, finalizers: [] }, spec: { containers: [container('app')] } }) },
    { name: 'a pod holding -0 (JSON.parse keeps it; JSON writes 0)', pod: (name) => ({ metadata: { name }, spec: { terminationGracePeriodSeconds: 7, containers: [container('app')] } }) },
  ];
  for (const [i, row] of rows.entries()) {
    it(`${row.name}: stored as a copied body is`, async () => {
      const pods = s.api.def('pods');
      const text = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', ...row.pod(name) }).replace(':7,', ':-0,');
      const own = text(`in-${i}`);
      const made = await s.api.create(pods, ns, JSON.parse(own) as KubeObject, admin(), () => JSON.parse(own) as KubeObject);
      const copied = await s.api.create(pods, ns, JSON.parse(text(`copied-${i}`)) as KubeObject, admin());
      const stored = async (name: string) => (await s.store.get(storageKey(pods, ns, name)))!.value;
      assert.equal(comparable(await stored(made.metadata!.name!)), comparable(await stored(copied.metadata!.name!)));
      assert.equal(comparable(JSON.stringify(made)), comparable(JSON.stringify(copied)));
    });
  }
});

function findDef(resource: string) {
  return resources.find((d) => d.resource === resource && !d.convert)!;
}

describe('a create admitted again', () => {
  const configmaps = findDef('configmaps');
  const namespaces = findDef('namespaces');
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { a: 'b' } }, data: { k: 'v' } });
  const rows = [
    { name: 'in a batch, after its transaction lost a race: from the body as it came, decoded again', serialized: true },
    { name: 'one by one, after its transaction lost a race: from the body as it came, decoded again', serialized: false },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const store = new MemoryStore();
      await store.create(storageKey(namespaces, undefined, 'a'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }));
      const api = new Api({ store, gates: defaultFeatureGates });
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
      const out = await api.create(configmaps, 'a', JSON.parse(text) as KubeObject, admin(), () => {
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
    });
  }
});
