// Who owns the fields of a created object (metadata.managedFields), against a real server.
// kube-apiserver's field manager sees the object decoded and defaulted, before admission and
// PrepareForCreate: what defaulting sets belongs to the creator, what admission plugins and the
// strategy add afterwards (a pod's default tolerations and priority, a Job's generated selector,
// a Service's cluster IPs, a Namespace's finalizer) belongs to no manager. kubectl's
// client-side → server-side apply migration hands the creator's fields to its apply manager and
// then re-applies the manifest, which drops every field the manifest leaves out: a generated
// selector owned by the creator was dropped, and the Job update refused.
// The creator's set is computed against the kind's empty object (zeroobjects.ts), so a path that
// object already has, such as a Deployment's spec, gets no "." of its own.
// Also here: every Namespace is labelled kubernetes.io/metadata.name=<name> (SetDefaults_Namespace).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const ns = 'owners';
type Fields = Record<string, unknown>;

/** The field set of `manager`'s entry, or undefined. */
function fieldsOf(obj: { metadata: { managedFields?: { manager: string; fieldsV1?: Fields }[] } }, manager: string): Fields | undefined {
  return obj.metadata.managedFields?.find((m) => m.manager === manager)?.fieldsV1;
}

/** The nested member of a FieldsV1 set at `path` (e.g. ['f:spec', 'f:selector']). */
function member(set: Fields | undefined, path: string[]): unknown {
  let cur: unknown = set;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Fields)[p] : undefined;
  return cur;
}

const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'a' }, ports: [{ port: 80 }] } };
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
};

describe('field ownership of a create', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  const created = new Map<string, Fields | undefined>();

  const create = async (path: string, body: object, key: string) => {
    const r = await admin.request('POST', `${path}?fieldManager=creator`, body);
    assert.equal(r.status, 201, r.text);
    created.set(key, fieldsOf(r.json(), 'creator'));
    return r.json();
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-ownership-'));
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, workloadControllers: false, leaderElection: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, 'namespace');
    await create(`/apis/batch/v1/namespaces/${ns}/jobs`, job, 'job');
    await create(`/api/v1/namespaces/${ns}/pods`, pod, 'pod');
    await create(`/api/v1/namespaces/${ns}/services`, service, 'service');
    await create(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment, 'deployment');
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows: { name: string; object: string; path: string[]; owned: boolean }[] = [
    // Defaulting: the creator's.
    { name: 'a Job spec defaulted (backoffLimit) is the creator\'s', object: 'job', path: ['f:spec', 'f:backoffLimit'], owned: true },
    { name: 'a Job template\'s defaulted pod fields are the creator\'s', object: 'job', path: ['f:spec', 'f:template', 'f:spec', 'f:dnsPolicy'], owned: true },
    { name: 'a pod\'s defaulted restartPolicy is the creator\'s', object: 'pod', path: ['f:spec', 'f:restartPolicy'], owned: true },
    { name: 'a Service\'s defaulted sessionAffinity is the creator\'s', object: 'service', path: ['f:spec', 'f:sessionAffinity'], owned: true },
    { name: 'a Namespace\'s name label (SetDefaults_Namespace) is the creator\'s', object: 'namespace', path: ['f:metadata', 'f:labels', 'f:kubernetes.io/metadata.name'], owned: true },
    { name: 'a Deployment\'s defaulted strategy is the creator\'s', object: 'deployment', path: ['f:spec', 'f:strategy', 'f:type'], owned: true },
    // A path the kind's empty object already has gets no "." of its own (the zero objects).
    { name: 'a Deployment\'s spec and template, in its empty object, carry no "."', object: 'deployment', path: ['f:spec', '.'], owned: false },
    { name: 'a Deployment\'s template carries no "."', object: 'deployment', path: ['f:spec', 'f:template', '.'], owned: false },
    { name: 'a Deployment\'s strategy (a struct) carries no "."', object: 'deployment', path: ['f:spec', 'f:strategy', '.'], owned: false },
    { name: 'a Deployment\'s rollingUpdate (a pointer, absent from the empty object) carries "."', object: 'deployment', path: ['f:spec', 'f:strategy', 'f:rollingUpdate', '.'], owned: true },
    { name: 'a Job template\'s pod spec carries no "."', object: 'job', path: ['f:spec', 'f:template', 'f:spec', '.'], owned: false },
    { name: 'a Service\'s spec carries no "."', object: 'service', path: ['f:spec', '.'], owned: false },
    { name: 'a Namespace\'s labels (a map, absent from the empty object) carry "."', object: 'namespace', path: ['f:metadata', 'f:labels', '.'], owned: true },
    // PrepareForCreate and admission: no manager's.
    { name: 'a Job\'s generated selector is no manager\'s', object: 'job', path: ['f:spec', 'f:selector'], owned: false },
    { name: 'a Job template\'s generated labels are no manager\'s', object: 'job', path: ['f:spec', 'f:template', 'f:metadata'], owned: false },
    { name: 'a pod\'s default tolerations (DefaultTolerationSeconds) are no manager\'s', object: 'pod', path: ['f:spec', 'f:tolerations'], owned: false },
    { name: 'a pod\'s priority (Priority admission) is no manager\'s', object: 'pod', path: ['f:spec', 'f:priority'], owned: false },
    { name: 'a pod\'s preemptionPolicy (Priority admission) is no manager\'s', object: 'pod', path: ['f:spec', 'f:preemptionPolicy'], owned: false },
    { name: 'a pod\'s service account (ServiceAccount admission) is no manager\'s', object: 'pod', path: ['f:spec', 'f:serviceAccountName'], owned: false },
    { name: 'a Service\'s allocated clusterIP is no manager\'s', object: 'service', path: ['f:spec', 'f:clusterIP'], owned: false },
    { name: 'a Service\'s ipFamilies are no manager\'s', object: 'service', path: ['f:spec', 'f:ipFamilies'], owned: false },
    { name: 'a Namespace\'s kubernetes finalizer (PrepareForCreate) is no manager\'s', object: 'namespace', path: ['f:spec'], owned: false },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const set = created.get(row.object);
      assert.ok(set, `the ${row.object} has no entry for the creator`);
      assert.equal(member(set, row.path) !== undefined, row.owned, JSON.stringify(set));
    });
  }

  it('the fields no manager owns are still stored', async () => {
    const j = (await admin.request('GET', `/apis/batch/v1/namespaces/${ns}/jobs/j`)).json();
    assert.ok(j.spec.selector.matchLabels['batch.kubernetes.io/controller-uid']);
    const p = (await admin.request('GET', `/api/v1/namespaces/${ns}/pods/p`)).json();
    assert.equal(p.spec.tolerations.length, 2);
    const n = (await admin.request('GET', `/api/v1/namespaces/${ns}`)).json();
    assert.deepEqual(n.metadata.labels, { 'kubernetes.io/metadata.name': ns });
    assert.deepEqual(n.spec, { finalizers: ['kubernetes'] });
  });

  it('a Namespace stored without its name label (written before the label existed) reads with it, as a decoder defaults it', async () => {
    const old = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'older', uid: 'u-older', creationTimestamp: '2026-01-01T00:00:00Z', labels: { team: 'a' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
    await s.store.create('/registry/namespaces/older', JSON.stringify(old));
    const want = { team: 'a', 'kubernetes.io/metadata.name': 'older' };
    const got = await admin.request('GET', '/api/v1/namespaces/older');
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.json().metadata.labels, want);
    // LIST is served from the watch cache, which decodes on its own.
    const listed = (await admin.request('GET', '/api/v1/namespaces')).json().items.find((n: { metadata: { name: string } }) => n.metadata.name === 'older');
    assert.deepEqual(listed?.metadata.labels, want);
  });

  it('an update cannot take a Namespace\'s name label away', async () => {
    const n = (await admin.request('GET', `/api/v1/namespaces/${ns}`)).json();
    n.metadata.labels = { team: 'x' };
    const r = await admin.request('PUT', `/api/v1/namespaces/${ns}`, n);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().metadata.labels, { team: 'x', 'kubernetes.io/metadata.name': ns });
  });
});
