// The rbac/bootstrap-roles hook over HTTP (storage_rbac.go EnsureRBACPolicy): a first start
// creates the whole bootstrap policy (the cluster roles with the controllers', the cluster role
// bindings, kube-system's and kube-public's roles and bindings); a restart reconciles as union
// (reconcile_role.go, reconcile_rolebindings.go): what is current is not written, a removed rule
// or subject comes back, an administrator's additions stay, autoupdate=false is left alone.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const G = 'rbac.authorization.k8s.io';
const path = (resource: string, name?: string, ns?: string) => `/apis/${G}/v1/${ns ? `namespaces/${ns}/` : ''}${resource}${name ? `/${name}` : ''}`;

describe('rbac/bootstrap-roles', () => {
  let s: RunningServer;
  let admin: Client;
  let dir: string;
  const start = async () => {
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, workloadControllers: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
  };
  const get = async (resource: string, name: string, ns?: string) => {
    const r = await admin.request('GET', path(resource, name, ns));
    assert.equal(r.status, 200, r.text);
    return r.json();
  };
  const rv = async (resource: string, ns?: string) =>
    Object.fromEntries(((await admin.request('GET', path(resource, undefined, ns))).json().items as { metadata: { name: string; namespace?: string; resourceVersion: string } }[]).map((o) => [`${resource} ${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-rbacbootstrap-'));
    await start();
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a first start creates upstream\'s policy: the components\' and controllers\' roles and bindings, kube-system\'s and kube-public\'s', async () => {
    for (const name of ['system:node', 'system:kube-scheduler', 'system:kube-controller-manager', 'system:controller:job-controller', 'system:controller:namespace-controller']) await get('clusterroles', name);
    const crb = await get('clusterrolebindings', 'system:controller:job-controller');
    assert.deepEqual(crb.subjects, [{ kind: 'ServiceAccount', name: 'job-controller', namespace: 'kube-system' }]);
    assert.equal((await get('clusterrolebindings', 'system:node')).subjects, undefined);
    const reader = await get('roles', 'extension-apiserver-authentication-reader', 'kube-system');
    assert.deepEqual(reader.rules, [{ apiGroups: [''], resourceNames: ['extension-apiserver-authentication'], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
    const binding = await get('rolebindings', 'system:controller:bootstrap-signer', 'kube-public');
    assert.deepEqual([binding.roleRef, binding.subjects], [{ apiGroup: G, kind: 'Role', name: 'system:controller:bootstrap-signer' }, [{ kind: 'ServiceAccount', name: 'bootstrap-signer', namespace: 'kube-system' }]]);
  });

  it('a restart writes back what was removed, keeps what was added, leaves autoupdate=false alone and writes nothing else', async () => {
    const scheduler = await get('clusterroles', 'system:kube-scheduler');
    const removed = scheduler.rules.filter((r: { resources?: string[] }) => !r.resources?.includes('csistoragecapacities'));
    let r = await admin.request('PUT', path('clusterroles', 'system:kube-scheduler'), { ...scheduler, metadata: { ...scheduler.metadata, labels: { ...scheduler.metadata.labels, mine: 'yes' } }, rules: removed });
    assert.equal(r.status, 200, r.text);
    const leader = await get('rolebindings', 'system::leader-locking-kube-scheduler', 'kube-system');
    r = await admin.request('PUT', path('rolebindings', 'system::leader-locking-kube-scheduler', 'kube-system'), { ...leader, subjects: [leader.subjects[0], { kind: 'User', apiGroup: G, name: 'extra' }] });
    assert.equal(r.status, 200, r.text);
    const proxier = await get('clusterroles', 'system:node-proxier');
    r = await admin.request('PUT', path('clusterroles', 'system:node-proxier'), { ...proxier, metadata: { ...proxier.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] });
    assert.equal(r.status, 200, r.text);
    const before = { ...(await rv('clusterroles')), ...(await rv('clusterrolebindings')), ...(await rv('roles', 'kube-system')), ...(await rv('rolebindings', 'kube-system')) };
    admin.close();
    await s.close();
    await start();
    const again = await get('clusterroles', 'system:kube-scheduler');
    assert.equal(again.metadata.labels.mine, 'yes');
    assert.deepEqual(again.rules.slice(0, removed.length), removed);
    assert.deepEqual(again.rules.slice(removed.length), [{ apiGroups: ['storage.k8s.io'], resources: ['csistoragecapacities'], verbs: ['get'] }, { apiGroups: ['storage.k8s.io'], resources: ['csistoragecapacities'], verbs: ['list'] }, { apiGroups: ['storage.k8s.io'], resources: ['csistoragecapacities'], verbs: ['watch'] }]);
    const leaderAgain = await get('rolebindings', 'system::leader-locking-kube-scheduler', 'kube-system');
    assert.deepEqual(leaderAgain.subjects, [leader.subjects[0], { kind: 'User', apiGroup: G, name: 'extra' }, leader.subjects[1]]);
    assert.deepEqual((await get('clusterroles', 'system:node-proxier')).rules, []);
    const after = { ...(await rv('clusterroles')), ...(await rv('clusterrolebindings')), ...(await rv('roles', 'kube-system')), ...(await rv('rolebindings', 'kube-system')) };
    // admin, edit and view are the aggregation controller's to write, whenever it runs.
    const aggregated = new Set(['clusterroles /admin', 'clusterroles /edit', 'clusterroles /view']);
    const changed = Object.keys(after).filter((k) => after[k] !== before[k] && !aggregated.has(k));
    assert.deepEqual(changed.sort(), ['clusterroles /system:kube-scheduler', 'rolebindings kube-system/system::leader-locking-kube-scheduler']);
  });
});
