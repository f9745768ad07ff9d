// scheduling.k8s.io/v1 PriorityClass through the real HTTP API (pkg/registry/scheduling and the
// Priority admission plugin): the built-in classes from the first start and again after a
// restart, their protection, CRUD with validation and the one-globalDefault rule, the columns
// kubectl prints, discovery; then pods: priority and preemptionPolicy from the class, the default
// class, the 403s, and a pod update keeping what create set. Then the same with the real kubectl
// (skipped when none is installed).

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const base = '/apis/scheduling.k8s.io/v1/priorityclasses';
const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
const pods = '/api/v1/namespaces/default/pods';

describe('PriorityClass over HTTP', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-pc-'));
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the built-in classes exist from the first start, as the bootstrap hook creates them', async () => {
    const r = await admin.request('GET', base);
    assert.equal(r.status, 200);
    const items = r.json().items as Record<string, unknown>[];
    const byName = new Map(items.map((i) => [(i['metadata'] as { name: string }).name, i]));
    const node = byName.get('system-node-critical')!;
    assert.equal(node['value'], 2000001000);
    assert.equal(node['description'], 'Used for system critical pods that must not be moved from their current node.');
    assert.equal(node['preemptionPolicy'], 'PreemptLowerPriority');
    assert.equal(node['globalDefault'], undefined);
    const cluster = byName.get('system-cluster-critical')!;
    assert.equal(cluster['value'], 2000000000);
    assert.equal(cluster['description'], 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.');
  });

  it('a system class cannot be deleted: 403 with storage.go\'s message', async () => {
    const r = await admin.request('DELETE', `${base}/system-cluster-critical`);
    assert.equal(r.status, 403);
    const st = r.json();
    assert.equal(st.reason, 'Forbidden');
    assert.equal(st.message, 'priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted');
    assert.deepEqual(st.details, { name: 'system-cluster-critical', group: 'scheduling.k8s.io', kind: 'priorityclasses' });
  });

  it('a system class\'s value cannot change: 422', async () => {
    const r = await admin.request('PATCH', `${base}/system-node-critical`, { value: 5 }, mergePatch);
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'PriorityClass.scheduling.k8s.io "system-node-critical" is invalid: value: Forbidden: may not be changed in an update.');
  });

  const creates: { name: string; body: unknown; status: number; message?: string }[] = [
    { name: 'a user class is created with preemptionPolicy defaulted', body: pc('high', 1000, { description: 'x' }), status: 201 },
    { name: 'a user class above 1000000000 is 422', body: pc('huge', 1000000001), status: 422, message: 'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000' },
    { name: 'a system- name that is not built in is 422', body: pc('system-mine', 10), status: 422, message: "PriorityClass.scheduling.k8s.io \"system-mine\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class" },
    { name: 'a built-in name again is 409 AlreadyExists', body: pc('system-node-critical', 2000001000), status: 409, message: 'priorityclasses.scheduling.k8s.io "system-node-critical" already exists' },
    { name: 'an unsupported preemptionPolicy is 422', body: pc('odd', 1, { preemptionPolicy: 'Sometimes' }), status: 422, message: 'PriorityClass.scheduling.k8s.io "odd" is invalid: preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"' },
    { name: 'a non-preempting class', body: pc('batch', 500, { preemptionPolicy: 'Never' }), status: 201 },
    { name: 'the first globalDefault class', body: pc('everyone', 10, { globalDefault: true }), status: 201 },
    { name: 'a second globalDefault class is 403 (the Priority plugin)', body: pc('everyone-else', 20, { globalDefault: true }), status: 403, message: 'priorityclasses.scheduling.k8s.io "everyone-else" is forbidden: PriorityClass everyone is already marked as default. Only one default can exist' },
  ];
  for (const c of creates) {
    it(`create: ${c.name}`, async () => {
      const r = await admin.request('POST', base, c.body);
      assert.equal(r.status, c.status, r.text);
      if (c.message) assert.equal(r.json().message, c.message);
    });
  }

  it('the stored class is defaulted: preemptionPolicy PreemptLowerPriority, and has no generation (its strategy sets none)', async () => {
    const o = (await admin.request('GET', `${base}/high`)).json();
    assert.equal(o.preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(o.metadata.generation, undefined);
    assert.equal(o.metadata.namespace, undefined);
  });

  const updates: { name: string; patch: unknown; status: number; message?: string }[] = [
    { name: 'value may not change', patch: { value: 1001 }, status: 422, message: 'PriorityClass.scheduling.k8s.io "high" is invalid: value: Forbidden: may not be changed in an update.' },
    { name: 'preemptionPolicy is immutable', patch: { preemptionPolicy: 'Never' }, status: 422, message: 'PriorityClass.scheduling.k8s.io "high" is invalid: preemptionPolicy: Invalid value: "Never": field is immutable' },
    { name: 'marking a second class globalDefault is 403', patch: { globalDefault: true }, status: 403, message: 'priorityclasses.scheduling.k8s.io "high" is forbidden: PriorityClass everyone is already marked as default. Only one default can exist' },
    { name: 'the description may change', patch: { description: 'for the web tier' }, status: 200 },
  ];
  for (const u of updates) {
    it(`update: ${u.name}`, async () => {
      const r = await admin.request('PATCH', `${base}/high`, u.patch, mergePatch);
      assert.equal(r.status, u.status, r.text);
      if (u.message) assert.equal(r.json().message, u.message);
    });
  }

  it('kubectl get columns: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY (printPriorityClass)', async () => {
    const r = await admin.request('GET', base, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const t = r.json();
    assert.deepEqual(t.columnDefinitions.map((c: { name: string; type: string; priority: number }) => [c.name, c.type, c.priority]), [
      ['Name', 'string', 0], ['Value', 'integer', 0], ['Global-Default', 'boolean', 0], ['Age', 'string', 0], ['PreemptionPolicy', 'string', 0],
    ]);
    const row = (t.rows as { cells: unknown[] }[]).find((x) => x.cells[0] === 'batch')!;
    assert.deepEqual([row.cells[1], row.cells[2], row.cells[4]], [500, false, 'Never']);
    const dflt = (t.rows as { cells: unknown[] }[]).find((x) => x.cells[0] === 'everyone')!;
    assert.equal(dflt.cells[2], true);
  });

  it('discovery: cluster-scoped, short name pc, every verb', async () => {
    const r = (await admin.request('GET', '/apis/scheduling.k8s.io/v1')).json();
    const e = (r.resources as Record<string, unknown>[]).find((x) => x['name'] === 'priorityclasses')!;
    assert.deepEqual([e['namespaced'], e['kind'], e['shortNames'], e['singularName']], [false, 'PriorityClass', ['pc'], 'priorityclass']);
    assert.deepEqual(e['verbs'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  const podRows: { name: string; body: unknown; status: number; message?: string; priority?: number; className?: string; policy?: string }[] = [
    { name: 'a class name gives its value and preemptionPolicy', body: pod('web', { priorityClassName: 'high' }), status: 201, priority: 1000, className: 'high', policy: 'PreemptLowerPriority' },
    { name: 'a Never class gives preemptionPolicy Never', body: pod('report', { priorityClassName: 'batch' }), status: 201, priority: 500, className: 'batch', policy: 'Never' },
    { name: 'no class name: the globalDefault class fills in the name and value', body: pod('plain'), status: 201, priority: 10, className: 'everyone', policy: 'PreemptLowerPriority' },
    { name: 'a system class, outside kube-system too (upstream no longer restricts them)', body: pod('crit', { priorityClassName: 'system-node-critical' }), status: 201, priority: 2000001000, className: 'system-node-critical', policy: 'PreemptLowerPriority' },
    { name: 'a user priority matching the class is accepted', body: pod('same', { priorityClassName: 'high', priority: 1000 }), status: 201, priority: 1000, className: 'high', policy: 'PreemptLowerPriority' },
    { name: 'an unknown class is 403', body: pod('x', { priorityClassName: 'foo' }), status: 403, message: 'pods "x" is forbidden: no PriorityClass with name foo was found' },
    { name: 'a user priority that does not match is 403', body: pod('y', { priorityClassName: 'high', priority: 5 }), status: 403, message: 'pods "y" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name' },
    { name: 'a user preemptionPolicy that does not match is 403', body: pod('z', { priorityClassName: 'high', preemptionPolicy: 'Never' }), status: 403, message: 'pods "z" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name' },
  ];
  for (const p of podRows) {
    it(`pod create: ${p.name}`, async () => {
      const r = await admin.request('POST', pods, p.body);
      assert.equal(r.status, p.status, r.text);
      const o = r.json();
      if (p.message) {
        assert.equal(o.message, p.message);
        assert.equal(o.reason, 'Forbidden');
        return;
      }
      assert.deepEqual([o.spec.priority, o.spec.priorityClassName, o.spec.preemptionPolicy], [p.priority, p.className, p.policy]);
    });
  }

  it('a pod update (merge patch of a label) keeps the admitted priority', async () => {
    const r = await admin.request('PATCH', `${pods}/web`, { metadata: { labels: { a: 'b' } } }, mergePatch);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().spec.priority, 1000);
  });

  it('a pod PUT that leaves priority and preemptionPolicy out keeps them (the plugin on update)', async () => {
    const cur = (await admin.request('GET', `${pods}/web`)).json();
    delete cur.spec.priority;
    delete cur.spec.preemptionPolicy;
    const r = await admin.request('PUT', `${pods}/web`, cur);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json().spec.priority, r.json().spec.preemptionPolicy], [1000, 'PreemptLowerPriority']);
  });

  it('after the default class is deleted, a new pod without a class gets 0 and no class name', async () => {
    assert.equal((await admin.request('DELETE', `${base}/everyone`)).status, 200);
    const o = (await admin.request('POST', pods, pod('after'))).json();
    assert.deepEqual([o.spec.priority, o.spec.priorityClassName, o.spec.preemptionPolicy], [0, undefined, 'PreemptLowerPriority']);
  });

  it('a built-in class missing at start is created again; the classes kept in the store stay as they are', async () => {
    await s.api.remove(s.api.def('priorityclasses'), undefined, 'system-node-critical');
    admin.close();
    await s.close();
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    assert.equal((await admin.request('GET', `${base}/system-node-critical`)).json().value, 2000001000);
    assert.equal((await admin.request('GET', `${base}/high`)).json().description, 'for the web tier');
  });
});

const kubectlFound = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return false;
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
})();

describe('PriorityClass with the real kubectl', { skip: kubectlFound ? false : 'kubectl is not installed' }, () => {
  let s: RunningServer;
  let dir: string;
  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-pc-kubectl-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl api-resources lists priorityclasses as upstream does', async () => {
    const r = await kubectl('api-resources', '--api-group=scheduling.k8s.io');
    assert.equal(r.code, 0, r.stderr);
    const line = r.stdout.split('\n').find((l) => l.startsWith('priorityclasses'))!;
    assert.deepEqual(line.trim().split(/\s+/), ['priorityclasses', 'pc', 'scheduling.k8s.io/v1', 'false', 'PriorityClass']);
  });

  it('kubectl create priorityclass high --value=1000 --description=x', async () => {
    const r = await kubectl('create', 'priorityclass', 'high', '--value=1000', '--description=x');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'priorityclass.scheduling.k8s.io/high created');
  });

  it('kubectl get pc prints NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', async () => {
    const r = await kubectl('get', 'pc');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(lines[0], ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
    const byName = new Map(lines.slice(1).map((l) => [l[0], l]));
    assert.deepEqual([byName.get('high')![1], byName.get('high')![2], byName.get('high')![4]], ['1000', 'false', 'PreemptLowerPriority']);
    assert.deepEqual(byName.get('system-node-critical')!.slice(1, 3), ['2000001000', 'false']);
    assert.deepEqual(byName.get('system-cluster-critical')!.slice(1, 3), ['2000000000', 'false']);
  });

  it('a pod with priorityClassName gets its priority (kubectl get pod -o jsonpath)', async () => {
    const file = join(dir, 'pod.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  priorityClassName: high\n  containers:\n  - name: c\n    image: busybox\n');
    const a = await kubectl('apply', '-f', file);
    assert.equal(a.code, 0, a.stderr);
    const r = await kubectl('get', 'pod', 'web', '-o', 'jsonpath={.spec.priority} {.spec.preemptionPolicy}');
    assert.equal(r.stdout, '1000 PreemptLowerPriority');
    // Applying the same manifest again changes nothing (the admitted fields are not the manifest's).
    const again = await kubectl('apply', '-f', file);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim(), 'pod/web unchanged');
  });

  it('kubectl apply (client-side, then server-side) of a PriorityClass manifest, and a refused value change', async () => {
    const file = join(dir, 'pc.yaml');
    const manifest = (description: string, value = 50) => `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: batch\nvalue: ${value}\npreemptionPolicy: Never\ndescription: ${description}\n`;
    writeFileSync(file, manifest('one'));
    const created = await kubectl('apply', '-f', file);
    assert.equal(created.stdout.trim(), 'priorityclass.scheduling.k8s.io/batch created', created.stderr);
    writeFileSync(file, manifest('two'));
    const configured = await kubectl('apply', '-f', file);
    assert.equal(configured.stdout.trim(), 'priorityclass.scheduling.k8s.io/batch configured', configured.stderr);
    writeFileSync(file, manifest('three'));
    const ssa = await kubectl('apply', '--server-side', '--force-conflicts', '-f', file);
    assert.equal(ssa.stdout.trim(), 'priorityclass.scheduling.k8s.io/batch serverside-applied', ssa.stderr);
    const got = await kubectl('get', 'pc', 'batch', '-o', 'jsonpath={.description} {.value} {.preemptionPolicy}');
    assert.equal(got.stdout, 'three 50 Never');
    writeFileSync(file, manifest('three', 60));
    const refused = await kubectl('apply', '--server-side', '--force-conflicts', '-f', file);
    assert.notEqual(refused.code, 0);
    // kubectl words a 422 from its details (kind PriorityClass), as against kube-apiserver.
    assert.equal(refused.stderr, 'The PriorityClass "batch" is invalid: value: Forbidden: may not be changed in an update.\n');
  });

  it('an unknown class: Error from server (Forbidden) with the plugin\'s words', async () => {
    const r = await kubectl('run', 'x', '--image=busybox', '--overrides={"spec":{"priorityClassName":"foo"}}');
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): pods "x" is forbidden: no PriorityClass with name foo was found');
  });

  it('kubectl delete of a built-in class is refused', async () => {
    const r = await kubectl('delete', 'pc', 'system-node-critical');
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
  });
});
