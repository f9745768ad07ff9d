// The garbage collector (src/controllers/garbagecollector.ts) in the in-process server, through
// the HTTP API and then the real kubectl: a ConfigMap owning pods and ConfigMaps deleted with
// background, foreground and orphan propagation, as kubernetes' garbage collector and the API
// server's DELETE (registry/generic/registry/store.go) behave. Every wait polls for a condition.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from '../apiserver/client.js';

const cms = '/api/v1/namespaces/default/configmaps';
const pods = '/api/v1/namespaces/default/pods';
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };

interface Owner {
  name: string;
  uid: string;
}
const ownerRef = (o: Owner, block = true) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.name, uid: o.uid, blockOwnerDeletion: block });
const cm = (name: string, owners: object[] = [], finalizers?: string[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ownerReferences: owners, ...(finalizers ? { finalizers } : {}) }, data: { a: 'b' } });
const pod = (name: string, owners: object[]) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ownerReferences: owners }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });

/** Polls until `cond` holds; a generous bound turns a collector that never acts into a failure, not a hang. */
async function until(cond: () => Promise<boolean>, boundMs = 60_000): Promise<void> {
  const end = Date.now() + boundMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`condition not met within ${boundMs / 1000} s: ${cond.toString()}`);
    await sleep(50);
  }
}

function startGCServer(prefix: string): { ready: Promise<RunningServer>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, ready: startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false }) };
}

describe('garbage collection over HTTP', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    const started = startGCServer('bulkhead-gc-');
    dir = started.dir;
    s = await started.ready;
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = async (path: string, body: object): Promise<Owner> => {
    const r = await admin.request('POST', path, body);
    assert.equal(r.status, 201, r.text);
    const m = r.json().metadata;
    return { name: m.name, uid: m.uid };
  };
  const status = async (path: string) => (await admin.request('GET', path)).status;
  const gone = (path: string) => until(async () => (await status(path)) === 404);

  it('background: the owner goes at once, its pods and ConfigMaps after', async () => {
    const o = await create(cms, cm('bg-owner'));
    await create(pods, pod('bg-pod', [ownerRef(o)]));
    await create(cms, cm('bg-dep', [ownerRef(o)]));
    const d = await admin.request('DELETE', `${cms}/bg-owner`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    assert.equal(d.status, 200, d.text);
    assert.equal(await status(`${cms}/bg-owner`), 404);
    await gone(`${pods}/bg-pod`);
    await gone(`${cms}/bg-dep`);
  });

  it('foreground: the owner stays with foregroundDeletion until its blocking dependents are gone', async () => {
    const o = await create(cms, cm('fg-owner'));
    await create(pods, pod('fg-pod', [ownerRef(o)]));
    // A dependent held by a finalizer of its own keeps the owner waiting.
    await create(cms, cm('fg-held', [ownerRef(o)], ['example.com/hold']));
    const d = await admin.request('DELETE', `${cms}/fg-owner?propagationPolicy=Foreground`);
    assert.equal(d.status, 200, d.text);
    assert.ok(d.json().metadata.deletionTimestamp);
    assert.deepEqual(d.json().metadata.finalizers, ['foregroundDeletion']);
    await gone(`${pods}/fg-pod`);
    // The held dependent is being deleted, not gone; the owner waits for it.
    await until(async () => !!(await admin.request('GET', `${cms}/fg-held`)).json().metadata.deletionTimestamp);
    await s.garbageCollector!.idle();
    const owner = await admin.request('GET', `${cms}/fg-owner`);
    assert.equal(owner.status, 200);
    assert.deepEqual(owner.json().metadata.finalizers, ['foregroundDeletion']);
    const p = await admin.request('PATCH', `${cms}/fg-held`, { metadata: { finalizers: null } }, mergePatch);
    assert.equal(p.status, 200, p.text);
    await gone(`${cms}/fg-held`);
    await gone(`${cms}/fg-owner`);
  });

  it('orphan: the owner goes, its dependents stay without the reference', async () => {
    const o = await create(cms, cm('or-owner'));
    const other = await create(cms, cm('or-other'));
    await create(pods, pod('or-pod', [ownerRef(o)]));
    await create(cms, cm('or-dep', [ownerRef(o), ownerRef(other, false)]));
    const d = await admin.request('DELETE', `${cms}/or-owner`, { propagationPolicy: 'Orphan' });
    assert.equal(d.status, 200, d.text);
    assert.ok(d.json().metadata.finalizers.includes('orphan'));
    await gone(`${cms}/or-owner`);
    const p = (await admin.request('GET', `${pods}/or-pod`)).json();
    assert.equal(p.metadata.ownerReferences, undefined);
    const dep = (await admin.request('GET', `${cms}/or-dep`)).json();
    assert.deepEqual(dep.metadata.ownerReferences.map((r: Owner) => r.uid), [other.uid]);
  });

  it('a reference to a uid that is not the owner\'s is dangling: the dependent goes', async () => {
    await create(cms, cm('dg-owner'));
    await create(cms, cm('dg-dep', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'dg-owner', uid: '00000000-0000-0000-0000-000000000001' }]));
    await gone(`${cms}/dg-dep`);
    assert.equal(await status(`${cms}/dg-owner`), 200);
  });

  it('one of two owners alive: the dependent stays and loses the dangling reference', async () => {
    const alive = await create(cms, cm('two-alive'));
    const dep = { ...cm('two-dep', [ownerRef(alive, false), { apiVersion: 'v1', kind: 'ConfigMap', name: 'two-gone', uid: '00000000-0000-0000-0000-000000000002' }]) };
    await create(cms, dep);
    await until(async () => (await admin.request('GET', `${cms}/two-dep`)).json().metadata.ownerReferences.length === 1);
    const got = (await admin.request('GET', `${cms}/two-dep`)).json();
    assert.equal(got.metadata.ownerReferences[0].uid, alive.uid);
  });

  /** ConfigMaps each owned by the next one, the last by the first, every reference blocking. */
  const cycle = async (names: string[]): Promise<Owner[]> => {
    const made: Owner[] = [];
    for (const n of names) made.push(await create(cms, cm(n, made.length ? [ownerRef(made[made.length - 1]!)] : [])));
    const last = made[made.length - 1]!;
    const p = await admin.request('PATCH', `${cms}/${names[0]}`, { metadata: { ownerReferences: [ownerRef(last)] } }, mergePatch);
    assert.equal(p.status, 200, p.text);
    return made;
  };

  // garbagecollector.go attemptToDeleteItem: a dependent whose owner waits for its dependents and
  // which has a dependent itself waiting (a cycle) sets blockOwnerDeletion=false on its own
  // references (unblockOwnerReferences), then is deleted in the foreground, so neither waits on
  // the other for ever. The e2e "Garbage collector should not be blocked by dependency circle".
  const cycles: { name: string; members: string[] }[] = [
    { name: 'two ConfigMaps owning each other, one deleted in the foreground: both go', members: ['cy2-a', 'cy2-b'] },
    { name: 'three ConfigMaps in a ring of blocking owners, one deleted in the foreground: all go', members: ['cy3-a', 'cy3-b', 'cy3-c'] },
  ];
  for (const c of cycles) {
    it(c.name, async () => {
      const made = await cycle(c.members);
      const d = await admin.request('DELETE', `${cms}/${c.members[0]}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', preconditions: { uid: made[0]!.uid } });
      assert.equal(d.status, 200, d.text);
      for (const n of c.members) await gone(`${cms}/${n}`);
    });
  }

  it('a three-level foreground chain: the middle owner waits in the foreground for the last, then all go', async () => {
    const top = await create(cms, cm('ch-top'));
    const mid = await create(cms, cm('ch-mid', [ownerRef(top)]));
    // The leaf is held by a finalizer of its own, so the chain can be seen waiting.
    await create(cms, cm('ch-leaf', [ownerRef(mid)], ['example.com/hold']));
    const d = await admin.request('DELETE', `${cms}/ch-top?propagationPolicy=Foreground`);
    assert.equal(d.status, 200, d.text);
    // The middle one has a dependent and its owner waits: it is deleted in the foreground too.
    await until(async () => {
      const m = (await admin.request('GET', `${cms}/ch-mid`)).json().metadata;
      return !!m.deletionTimestamp && (m.finalizers ?? []).includes('foregroundDeletion');
    });
    await until(async () => !!(await admin.request('GET', `${cms}/ch-leaf`)).json().metadata.deletionTimestamp);
    await s.garbageCollector!.idle();
    assert.equal(await status(`${cms}/ch-top`), 200);
    assert.equal(await status(`${cms}/ch-mid`), 200);
    const p = await admin.request('PATCH', `${cms}/ch-leaf`, { metadata: { finalizers: null } }, mergePatch);
    assert.equal(p.status, 200, p.text);
    await gone(`${cms}/ch-leaf`);
    await gone(`${cms}/ch-mid`);
    await gone(`${cms}/ch-top`);
  });

  it('an object with a finalizer and no GC propagation stays until the finalizer is removed', async () => {
    await create(cms, cm('fin', [], ['example.com/hold']));
    const d = await admin.request('DELETE', `${cms}/fin`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json().metadata.deletionGracePeriodSeconds, 0);
    assert.equal(await status(`${cms}/fin`), 200);
    // ValidateNoNewFinalizers: none may be added once deletion started.
    const add = await admin.request('PATCH', `${cms}/fin`, { metadata: { finalizers: ['example.com/hold', 'example.com/b', 'example.com/a'] } }, mergePatch);
    assert.equal(add.status, 422, add.text);
    assert.match(add.json().message, /metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"example\.com\/a", "example\.com\/b"\}/);
    const p = await admin.request('PATCH', `${cms}/fin`, { metadata: { finalizers: [] } }, mergePatch);
    assert.equal(p.status, 200, p.text);
    assert.equal(await status(`${cms}/fin`), 404);
  });
});

const kubectlFound = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return false;
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
})();

describe('garbage collection with the real kubectl', { skip: kubectlFound ? false : 'kubectl is not installed' }, () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  before(async () => {
    const started = startGCServer('bulkhead-gc-kubectl-');
    dir = started.dir;
    s = await started.ready;
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const owned = async (owner: string, dep: string): Promise<void> => {
    const r = await admin.request('POST', cms, cm(owner));
    assert.equal(r.status, 201, r.text);
    const o = { name: owner, uid: r.json().metadata.uid as string };
    assert.equal((await admin.request('POST', cms, cm(dep, [ownerRef(o)]))).status, 201);
    assert.equal((await admin.request('POST', pods, pod(`${dep}-pod`, [ownerRef(o)]))).status, 201);
  };
  const exists = async (kind: string, name: string) => (await kubectl('get', kind, name, '-o', 'name')).code === 0;

  it('kubectl delete cm --cascade=background: the dependents go', async () => {
    await owned('k-bg', 'k-bg-dep');
    const r = await kubectl('delete', 'cm', 'k-bg', '--cascade=background');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'configmap "k-bg" deleted');
    await until(async () => !(await exists('cm', 'k-bg-dep')) && !(await exists('pod', 'k-bg-dep-pod')));
  });

  it('kubectl delete cm --cascade=foreground waits until the owner and its dependents are gone', async () => {
    await owned('k-fg', 'k-fg-dep');
    const r = await kubectl('delete', 'cm', 'k-fg', '--cascade=foreground');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await exists('cm', 'k-fg-dep'), false);
    assert.equal(await exists('pod', 'k-fg-dep-pod'), false);
    await until(async () => !(await exists('cm', 'k-fg')));
  });

  it('kubectl delete cm --cascade=orphan: the dependents stay without the reference', async () => {
    await owned('k-or', 'k-or-dep');
    const r = await kubectl('delete', 'cm', 'k-or', '--cascade=orphan');
    assert.equal(r.code, 0, r.stderr);
    await until(async () => !(await exists('cm', 'k-or')));
    const refs = await kubectl('get', 'cm', 'k-or-dep', '-o', 'jsonpath={.metadata.ownerReferences}');
    assert.equal(refs.code, 0, refs.stderr);
    assert.equal(refs.stdout, '');
    assert.equal(await exists('pod', 'k-or-dep-pod'), true);
  });
});
