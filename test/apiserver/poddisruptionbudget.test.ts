// policy/v1 PodDisruptionBudget through the in-process server: the resource (discovery, CRUD,
// validation as a 422, generation, the status subresource, the kubectl get columns), the
// disruption controller's status, and the eviction subresource honouring budgets
// (pkg/registry/core/pod/storage/eviction.go): one row per rule. Then the real kubectl: create
// pdb, get pdb, and a drain whose eviction a budget refuses (skipped when kubectl is missing).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from './client.js';
import { kubectlFound, kubectlSkip, tableRows, useTestServer } from './kubectlserver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pdbs = (ns: string) => `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`;
const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };

async function namespace(admin: Client, name: string): Promise<void> {
  const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, r.text);
}

/** A pod in `phase` (Running and Ready unless told otherwise), with labels app=<app>. */
async function pod(admin: Client, ns: string, name: string, o: { app?: string; phase?: string; ready?: boolean; nodeName?: string } = {}): Promise<void> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: o.app ?? 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...(o.nodeName ? { nodeName: o.nodeName } : {}) } };
  const r = await admin.request('POST', podsPath(ns), body);
  assert.equal(r.status, 201, r.text);
  const phase = o.phase ?? 'Running';
  if (phase === 'Pending') return;
  const st = { ...r.json(), status: { phase, conditions: [{ type: 'Ready', status: o.ready === false || phase !== 'Running' ? 'False' : 'True' }] } };
  const u = await admin.request('PUT', `${podsPath(ns)}/${name}/status`, st);
  assert.equal(u.status, 200, u.text);
}

async function budget(admin: Client, ns: string, name: string, spec: Json): Promise<Json> {
  const r = await admin.request('POST', pdbs(ns), { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } });
  assert.equal(r.status, 201, r.text);
  return r.json();
}

/** Polls the budget until `ok` holds (the disruption controller's status), with a generous bound. */
async function waitForBudget(admin: Client, ns: string, name: string, ok: (b: Json) => boolean): Promise<Json> {
  let last: Json = {};
  for (let i = 0; i < 400; i++) {
    last = (await admin.request('GET', `${pdbs(ns)}/${name}`)).json();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`budget ${ns}/${name} never reached the expected status: ${JSON.stringify(last.status)}`);
}

const observed = (allowed: number, expected: number) => (b: Json) => b.status?.observedGeneration === b.metadata.generation && b.status?.disruptionsAllowed === allowed && b.status?.expectedPods === expected;

const evict = (admin: Client, ns: string, name: string, deleteOptions?: Json, query = '') =>
  admin.request('POST', `${podsPath(ns)}/${name}/eviction${query}`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns }, ...(deleteOptions ? { deleteOptions } : {}) });

const podExists = async (admin: Client, ns: string, name: string) => (await admin.request('GET', `${podsPath(ns)}/${name}`)).status === 200;

describe('PodDisruptionBudget over HTTP', () => {
  const t = useTestServer('bulkhead-pdb-');

  it('discovery: policy/v1 poddisruptionbudgets, namespaced, short name pdb, with status', async () => {
    const r = await t.admin().request('GET', '/apis/policy/v1');
    assert.equal(r.status, 200);
    const res = (r.json().resources as Json[]).filter((x) => x.name.startsWith('poddisruptionbudgets'));
    assert.deepEqual(res.map((x) => x.name), ['poddisruptionbudgets', 'poddisruptionbudgets/status']);
    assert.equal(res[0]!.namespaced, true);
    assert.equal(res[0]!.kind, 'PodDisruptionBudget');
    assert.deepEqual(res[0]!.shortNames, ['pdb']);
  });

  it('create: status emptied, generation 1; an invalid spec is a 422 in upstream\'s words', async () => {
    const admin = t.admin();
    await namespace(admin, 'crud');
    const bad = await admin.request('POST', pdbs('crud'), { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: '120%' } });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().message, 'PodDisruptionBudget.policy "web" is invalid: spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%');
    assert.deepEqual(bad.json().details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%', field: 'spec.minAvailable' }]);
    const r = await admin.request('POST', pdbs('crud'), { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }, status: { disruptionsAllowed: 5, currentHealthy: 5, desiredHealthy: 0, expectedPods: 5 } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().metadata.generation, 1);
    assert.equal(r.json().status.disruptionsAllowed, 0);
  });

  it('a spec change bumps generation; a status write keeps the spec; negative counts are refused', async () => {
    const admin = t.admin();
    const p = await admin.request('PATCH', `${pdbs('crud')}/web`, { spec: { minAvailable: 2 } }, mergePatch);
    assert.equal(p.json().metadata.generation, 2);
    const same = await admin.request('PATCH', `${pdbs('crud')}/web`, { metadata: { labels: { a: 'b' } } }, mergePatch);
    assert.equal(same.json().metadata.generation, 2);
    const st = await admin.request('PATCH', `${pdbs('crud')}/web/status`, { spec: { minAvailable: 9 }, status: { expectedPods: 7 } }, mergePatch);
    assert.equal(st.status, 200, st.text);
    assert.equal(st.json().spec.minAvailable, 2);
    assert.equal(st.json().status.expectedPods, 7);
    const neg = await admin.request('PATCH', `${pdbs('crud')}/web/status`, { status: { disruptionsAllowed: -1 } }, mergePatch);
    assert.equal(neg.status, 422);
    assert.equal(neg.json().message, 'PodDisruptionBudget.policy "web" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0');
  });

  it('the Table has printPodDisruptionBudget\'s columns and N/A for the unset bound', async () => {
    const r = await t.admin().request('GET', pdbs('crud'), undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const table = r.json();
    assert.deepEqual(table.columnDefinitions.map((c: Json) => [c.name, c.type]), [['Name', 'string'], ['Min Available', 'string'], ['Max Unavailable', 'string'], ['Allowed Disruptions', 'integer'], ['Age', 'string']]);
    assert.deepEqual(table.rows[0].cells.slice(0, 4), ['web', '2', 'N/A', 0]);
  });

  describe('the disruption controller', () => {
    it('counts the Ready pods against minAvailable and sets DisruptionAllowed', async () => {
      const admin = t.admin();
      await namespace(admin, 'ctl');
      for (const n of ['a', 'b', 'c']) await pod(admin, 'ctl', n);
      await pod(admin, 'ctl', 'unready', { ready: false });
      await budget(admin, 'ctl', 'web', { minAvailable: 2 });
      const b = await waitForBudget(admin, 'ctl', 'web', observed(1, 4));
      assert.deepEqual([b.status.currentHealthy, b.status.desiredHealthy, b.status.expectedPods, b.status.disruptionsAllowed], [3, 2, 4, 1]);
      const cond = b.status.conditions.find((c: Json) => c.type === 'DisruptionAllowed');
      assert.deepEqual([cond.status, cond.reason, cond.message, cond.observedGeneration], ['True', 'SufficientPods', '', 1]);
    });

    it('follows a spec change to a new generation', async () => {
      const admin = t.admin();
      await admin.request('PATCH', `${pdbs('ctl')}/web`, { spec: { minAvailable: 3 } }, mergePatch);
      const b = await waitForBudget(admin, 'ctl', 'web', observed(0, 4));
      assert.equal(b.status.observedGeneration, 2);
      assert.equal(b.status.conditions[0].reason, 'InsufficientPods');
    });

    it('a percentage over pods without a controller cannot be resolved: the fail-safe status', async () => {
      const admin = t.admin();
      await namespace(admin, 'nocontroller');
      await pod(admin, 'nocontroller', 'a');
      const pdb = await budget(admin, 'nocontroller', 'web', { minAvailable: '50%' });
      assert.equal(pdb.metadata.generation, 1);
      // Unmanaged pods are skipped by getExpectedScale: nothing expected, nothing allowed.
      const b = await waitForBudget(admin, 'nocontroller', 'web', observed(0, 0));
      assert.deepEqual([b.status.currentHealthy, b.status.desiredHealthy], [1, 0]);
    });

    it('a pod whose controller has no scale subresource fails the sync: SyncFailed with upstream\'s message', async () => {
      const admin = t.admin();
      await namespace(admin, 'ds');
      const ds = await admin.request('POST', '/apis/apps/v1/namespaces/ds/daemonsets', {
        apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
        spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      });
      assert.equal(ds.status, 201, ds.text);
      const owner = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: ds.json().metadata.uid, controller: true };
      const r = await admin.request('POST', podsPath('ds'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', labels: { app: 'web' }, ownerReferences: [owner] }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
      assert.equal(r.status, 201, r.text);
      await budget(admin, 'ds', 'web', { maxUnavailable: 1 });
      const b = await waitForBudget(admin, 'ds', 'web', (x) => x.status?.conditions?.[0]?.reason === 'SyncFailed');
      assert.deepEqual([b.status.conditions[0].status, b.status.conditions[0].message, b.status.disruptionsAllowed], ['False', 'daemonsets.apps does not implement the scale subresource', 0]);
    });
  });

  describe('eviction', () => {
    it('no budget selects the pod: evicted', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev0');
      await pod(admin, 'ev0', 'a', { app: 'other' });
      const r = await evict(admin, 'ev0', 'a');
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json().status, 'Success');
      assert.equal(await podExists(admin, 'ev0', 'a'), false);
    });

    it('the budget allows one: the decrement and the pod are written in the budget\'s status, then a second eviction is refused with 429', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev1');
      for (const n of ['a', 'b', 'c']) await pod(admin, 'ev1', n);
      await budget(admin, 'ev1', 'web', { minAvailable: 2 });
      await waitForBudget(admin, 'ev1', 'web', observed(1, 3));
      const first = await evict(admin, 'ev1', 'a');
      assert.equal(first.status, 201, first.text);
      assert.equal(await podExists(admin, 'ev1', 'a'), false);
      const b = (await admin.request('GET', `${pdbs('ev1')}/web`)).json();
      assert.equal(b.status.disruptionsAllowed, 0);
      const second = await evict(admin, 'ev1', 'b');
      assert.equal(second.status, 429, second.text);
      const st = second.json();
      assert.equal(st.reason, 'TooManyRequests');
      assert.equal(st.message, "Cannot evict pod as it would violate the pod's disruption budget.");
      assert.deepEqual(st.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }]);
      assert.equal(await podExists(admin, 'ev1', 'b'), true);
    });

    it('the eviction records the pod in disruptedPods in the same write as the decrement', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev2');
      for (const n of ['a', 'b', 'c']) await pod(admin, 'ev2', n, { nodeName: 'gone' });
      await budget(admin, 'ev2', 'web', { maxUnavailable: 2 });
      // maxUnavailable over unmanaged pods resolves to no expected pods: the controller allows nothing.
      await waitForBudget(admin, 'ev2', 'web', observed(0, 0));
      await admin.request('PATCH', `${pdbs('ev2')}/web`, { spec: { maxUnavailable: null, minAvailable: 1 } }, mergePatch);
      const before = await waitForBudget(admin, 'ev2', 'web', observed(2, 3));
      const r = await evict(admin, 'ev2', 'a');
      assert.equal(r.status, 201, r.text);
      // The controller drops the entry once it sees the pod being deleted, so the budget's first
      // change after `before` is read from a watch: one write with both the decrement and the pod.
      const w = await admin.request('GET', `${pdbs('ev2')}?watch=1&resourceVersion=${before.metadata.resourceVersion}&timeoutSeconds=1`);
      const first = JSON.parse(w.text.split('\n')[0]!);
      assert.equal(first.type, 'MODIFIED');
      assert.equal(first.object.status.disruptionsAllowed, 1);
      assert.deepEqual(Object.keys(first.object.status.disruptedPods ?? {}), ['a']);
      assert.equal(first.object.metadata.generation, before.metadata.generation);
      // The pod (bound, so deleted gracefully and still there) got DisruptionTarget before its delete.
      const evicted = (await admin.request('GET', `/api/v1/namespaces/ev2/pods/a`)).json();
      assert.ok(evicted.metadata.deletionTimestamp, 'deleted gracefully');
      const cond = (evicted.status.conditions ?? []).find((c: { type: string }) => c.type === 'DisruptionTarget');
      assert.deepEqual([cond?.status, cond?.reason, cond?.message], ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting']);
    });

    it('an eviction whose deleteOptions name another uid is a conflict in eviction.go\'s words, and the pod keeps running', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev7');
      await pod(admin, 'ev7', 'a', { app: 'other', nodeName: 'gone' });
      const r = await evict(admin, 'ev7', 'a', { preconditions: { uid: 'not-its-uid' } });
      assert.equal(r.status, 409, r.text);
      const uid = (await admin.request('GET', `/api/v1/namespaces/ev7/pods/a`)).json().metadata.uid;
      assert.equal(r.json().message, `Operation cannot be fulfilled on Pod "a": the UID in the precondition (not-its-uid) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
      const still = (await admin.request('GET', `/api/v1/namespaces/ev7/pods/a`)).json();
      assert.equal(still.metadata.deletionTimestamp, undefined);
      assert.equal((still.status?.conditions ?? []).some((c: { type: string }) => c.type === 'DisruptionTarget'), false);
    });

    it('more than one budget selects the pod: 500 with upstream\'s message', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev3');
      await pod(admin, 'ev3', 'a');
      await budget(admin, 'ev3', 'one', { minAvailable: 0 });
      await budget(admin, 'ev3', 'two', { minAvailable: 0 });
      const r = await evict(admin, 'ev3', 'a');
      assert.equal(r.status, 500, r.text);
      assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
      assert.equal(await podExists(admin, 'ev3', 'a'), true);
    });

    it('a Pending pod and a terminal pod are evicted without a budget check', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev4');
      await pod(admin, 'ev4', 'pending', { phase: 'Pending' });
      await pod(admin, 'ev4', 'done', { phase: 'Succeeded' });
      await pod(admin, 'ev4', 'running');
      await budget(admin, 'ev4', 'web', { minAvailable: 3 });
      await waitForBudget(admin, 'ev4', 'web', observed(0, 3));
      assert.equal((await evict(admin, 'ev4', 'pending')).status, 201);
      assert.equal((await evict(admin, 'ev4', 'done')).status, 201);
      assert.equal((await evict(admin, 'ev4', 'running')).status, 429);
    });

    it('a dry run is answered as the eviction would be, and changes nothing', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev5');
      for (const n of ['a', 'b']) await pod(admin, 'ev5', n);
      await budget(admin, 'ev5', 'web', { minAvailable: 1 });
      const before = await waitForBudget(admin, 'ev5', 'web', observed(1, 2));
      for (const r of [await evict(admin, 'ev5', 'a', undefined, '?dryRun=All'), await evict(admin, 'ev5', 'a', { dryRun: ['All'] })]) assert.equal(r.status, 201, r.text);
      const after = (await admin.request('GET', `${pdbs('ev5')}/web`)).json();
      assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
      assert.equal(await podExists(admin, 'ev5', 'a'), true);
      const kept = (await admin.request('GET', `/api/v1/namespaces/ev5/pods/a`)).json();
      assert.equal((kept.status?.conditions ?? []).some((c: { type: string }) => c.type === 'DisruptionTarget'), false, 'no condition on a dry run');
    });

    it('an unready pod: AlwaysAllow evicts it without the budget; IfHealthyBudget only while the budget is met', async () => {
      const admin = t.admin();
      await namespace(admin, 'ev6');
      for (const n of ['a', 'b']) await pod(admin, 'ev6', n);
      await pod(admin, 'ev6', 'sick', { ready: false });
      await pod(admin, 'ev6', 'sick2', { ready: false });
      await budget(admin, 'ev6', 'web', { minAvailable: 3 });
      await waitForBudget(admin, 'ev6', 'web', observed(0, 4));
      // IfHealthyBudget (the default) with 2 healthy of 3 desired: refused.
      assert.equal((await evict(admin, 'ev6', 'sick')).status, 429);
      await admin.request('PATCH', `${pdbs('ev6')}/web`, { spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow' } }, mergePatch);
      await waitForBudget(admin, 'ev6', 'web', (b) => b.status?.observedGeneration === 2);
      assert.equal((await evict(admin, 'ev6', 'sick')).status, 201);
      assert.equal(await podExists(admin, 'ev6', 'sick'), false);
      // IfHealthyBudget with the budget met (2 healthy, 2 desired): the unready pod goes, no disruption used.
      await admin.request('PATCH', `${pdbs('ev6')}/web`, { spec: { unhealthyPodEvictionPolicy: 'IfHealthyBudget', minAvailable: 2 } }, mergePatch);
      const met = await waitForBudget(admin, 'ev6', 'web', (b) => b.status?.observedGeneration === 3 && b.status?.expectedPods === 3);
      assert.equal(met.status.disruptionsAllowed, 0);
      assert.equal((await evict(admin, 'ev6', 'sick2')).status, 201);
      assert.equal(await podExists(admin, 'ev6', 'sick2'), false);
    });

    it('the Eviction must name the pod of the URL', async () => {
      const admin = t.admin();
      const r = await admin.request('POST', `${podsPath('ev6')}/a/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'b' } });
      assert.equal(r.status, 400);
      assert.equal(r.json().message, 'name in URL does not match name in Eviction object');
    });
  });

  describe('with the real kubectl', { skip: kubectlFound ? false : kubectlSkip }, () => {
    it('kubectl create pdb, kubectl get pdb, and a drain whose eviction the budget refuses', async () => {
      const admin = t.admin();
      await namespace(admin, 'kc');
      const node = await admin.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
      assert.equal(node.status, 201, node.text);
      for (const n of ['a', 'b']) await pod(admin, 'kc', n, { nodeName: 'n1' });
      const created = await t.kubectl('-n', 'kc', 'create', 'pdb', 'web', '--selector=app=web', '--min-available=2');
      assert.equal(created.code, 0, created.stderr);
      assert.equal(created.stdout.trim(), 'poddisruptionbudget.policy/web created');
      await waitForBudget(admin, 'kc', 'web', observed(0, 2));
      const got = await t.kubectl('-n', 'kc', 'get', 'pdb');
      assert.equal(got.code, 0, got.stderr);
      const rows = tableRows(got.stdout);
      assert.deepEqual(rows[0], ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
      assert.deepEqual(rows[1]!.slice(0, 4), ['web', '2', 'N/A', '0']);
      const drain = await t.kubectl('drain', 'n1', '--force', '--timeout=3s');
      assert.notEqual(drain.code, 0);
      assert.match(drain.stderr, /error when evicting pods\/"a" -n "kc" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./);
      assert.equal(await podExists(admin, 'kc', 'a'), true);
    });
  });
});
