// The scheduler against the real in-process API server, which starts it (startServer's
// `scheduler` option) over a loopback client and feeds it from the shared informers of pods and nodes.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/server/start.js';
import type { RequestInfo } from '../../src/apiserver/rest.js';
import type { Event, KubeObject, Pod, PodDisruptionBudget } from '../../src/api/types.js';
import { SchedulerController, schedulerIdentity } from '../../src/controllers/scheduler.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import { SharedInformerFactory } from '../../src/client/factory.js';
import { LoopbackClient } from '../../src/client/loopback.js';
import { ApiError } from '../../src/client/errors.js';
import { podDisruptionBudgetsRef } from '../../src/client/resources.js';
import { node, pod } from './helpers.js';

const admin: RequestInfo = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SchedulerController', () => {
  let dir: string;
  let s: RunningServer;
  let sched: SchedulerController;

  const create = (p: Pod) => s.api.create(s.api.def('pods'), 'default', { ...p, metadata: { name: p.metadata.name } } as KubeObject, { ...admin, warnings: [] });
  const get = (name: string) => s.api.get<Pod>(s.api.def('pods'), 'default', name);
  const boundTo = (name: string) => waitFor(`${name} bound`, async () => (await get(name)).spec.nodeName || undefined);
  const failedEvents = async (name: string) =>
    ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).filter((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === name);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-sched-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
    for (const n of ['n1', 'n2']) await s.api.create(s.api.def('nodes'), undefined, node(n, { cpu: '2', memory: '1Gi', pods: '110' }), { ...admin, warnings: [] });
    sched = s.scheduler!;
  });

  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds pods, spreading them over the least requested node', async () => {
    await create(pod('p1', { memory: '600Mi' }));
    assert.equal(await boundTo('p1'), 'n1');
    await create(pod('p2', { memory: '600Mi' }));
    assert.equal(await boundTo('p2'), 'n2');
    const p1 = await get('p1');
    assert.equal(p1.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
    const scheduled = ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).find((e) => e.reason === 'Scheduled' && e.involvedObject.name === 'p1');
    assert.equal(scheduled?.message, 'Successfully assigned default/p1 to n1');
  });

  it('reports a pod that fits nowhere as kube-scheduler does, and retries', async () => {
    await create(pod('p3', { memory: '600Mi' }));
    const want = '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
    const [ev] = await waitFor('FailedScheduling', async () => {
      const evs = await failedEvents('p3');
      return evs.length ? evs : undefined;
    });
    assert.equal(ev!.message, want);
    assert.equal(ev!.type, 'Warning');
    assert.equal(ev!.source?.component, 'default-scheduler');
    assert.equal(ev!.involvedObject.kind, 'Pod');
    assert.equal(ev!.count, 1);
    const cond = await waitFor('PodScheduled=False', async () => (await get('p3')).status?.conditions?.find((c) => c.type === 'PodScheduled'));
    assert.deepEqual([cond.status, cond.reason, cond.message], ['False', 'Unschedulable', want]);
    assert.equal((await get('p3')).spec.nodeName, undefined);

    // The periodic retry fails the same way: the same event, counted.
    await sched.resyncAll();
    await sched.idle();
    const again = await failedEvents('p3');
    assert.equal(again.length, 1);
    assert.equal(again[0]!.count, 2);

    // A bound pod goes away: its node has room again.
    await s.api.delete(s.api.def('pods'), 'default', 'p1', { gracePeriodSeconds: 0 }, { ...admin, warnings: [] });
    assert.equal(await boundTo('p3'), 'n1');
  });

  it('keeps a pod with ulimits off nodes that do not declare ContainerUlimits until one does', async () => {
    const p = pod('ul', { memory: '10Mi' });
    p.spec.containers[0]!.securityContext = { ulimits: [{ name: 'nofile', soft: 1024, hard: 4096 }] };
    await create(p);
    const evs = await waitFor('FailedScheduling for ul', async () => {
      const e = await failedEvents('ul');
      return e.length ? e : undefined;
    });
    assert.equal(evs[0]!.message, "0/2 nodes are available: 2 node(s) didn't match Pod's required features. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
    await s.api.create(s.api.def('nodes'), undefined, node('n3', { cpu: '2', memory: '1Gi', pods: '110' }, { declaredFeatures: ['ContainerUlimits'] }), { ...admin, warnings: [] });
    assert.equal(await boundTo('ul'), 'n3');
  });

  it('leaves pods of another scheduler alone', async () => {
    await create(pod('other', { memory: '10Mi' }, { schedulerName: 'my-scheduler' }));
    await new Promise((r) => setTimeout(r, 100));
    await sched.idle();
    assert.equal((await get('other')).spec.nodeName, undefined);
    assert.equal((await failedEvents('other')).length, 0);
  });
});

describe('SchedulerController on watch caches', () => {
  const servers: { s: RunningServer; dir: string }[] = [];
  async function server(opts: { scheduler?: boolean } = {}): Promise<RunningServer> {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-sched-'));
    const s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, ...opts });
    servers.push({ s, dir });
    return s;
  }
  after(async () => {
    for (const { s, dir } of servers) {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  const create = (s: RunningServer, p: Pod) => s.api.create(s.api.def('pods'), 'default', { ...p, metadata: { name: p.metadata.name } } as KubeObject, { ...admin, warnings: [] });
  const addNode = (s: RunningServer, name: string, memory: string) => s.api.create(s.api.def('nodes'), undefined, node(name, { cpu: '4', memory, pods: '110' }), { ...admin, warnings: [] });
  const pods = async (s: RunningServer) => (await s.api.list(s.api.def('pods'), 'default')).items as Pod[];

  it('with no node registered, reports what kube-scheduler reports: no nodes available to schedule pods', async () => {
    const s = await server();
    await create(s, pod('lonely', { memory: '10Mi' }));
    await s.scheduler!.idle();
    const p = await s.api.get<Pod>(s.api.def('pods'), 'default', 'lonely');
    const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.deepEqual([cond?.status, cond?.reason, cond?.message], ['False', 'Unschedulable', 'no nodes available to schedule pods']);
    // The condition is the scheduler's own field on the status subresource; what others own stays.
    assert.deepEqual(
      (p.metadata.managedFields ?? []).map((m) => [m.manager, m.operation, m.subresource ?? '']).sort(),
      [
        ['kube-scheduler', 'Update', 'status'],
        ['unknown', 'Update', ''],
      ],
    );
    const evs = ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).filter((e) => e.involvedObject.name === 'lonely');
    assert.deepEqual(evs.map((e) => [e.type, e.reason, e.message, e.source?.component, e.action]), [['Warning', 'FailedScheduling', 'no nodes available to schedule pods', 'default-scheduler', 'Scheduling']]);
    // A node appearing is what it waits for.
    await addNode(s, 'late', '1Gi');
    await waitFor('lonely bound', async () => (await s.api.get<Pod>(s.api.def('pods'), 'default', 'lonely')).spec.nodeName || undefined);
  });

  it('a burst of pods created at once never overcommits a node: each attempt sees the pods bound before it', async () => {
    const s = await server();
    await addNode(s, 'a', '1Gi');
    await addNode(s, 'b', '1Gi');
    // 300Mi each: three fit on a node, the seventh fits nowhere.
    await Promise.all(Array.from({ length: 7 }, (_, i) => create(s, pod(`burst-${i}`, { memory: '300Mi' }))));
    await s.scheduler!.idle();
    const all = await pods(s);
    const perNode = new Map<string, number>();
    for (const p of all) if (p.spec.nodeName) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
    assert.deepEqual([...perNode].sort(), [['a', 3], ['b', 3]]);
    const left = all.filter((p) => !p.spec.nodeName);
    assert.equal(left.length, 1);
    assert.equal(left[0]!.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message, '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
  });

  it('attempts read pods and nodes from the caches, never by listing the store', async () => {
    const s = await server();
    await addNode(s, 'n', '8Gi');
    const store = s.api.store;
    const list = store.list.bind(store);
    let lists = 0;
    store.list = (...args) => {
      lists++;
      return list(...args);
    };
    try {
      for (let i = 0; i < 20; i++) await create(s, pod(`cheap-${i}`, { memory: '10Mi' }));
      await s.scheduler!.idle();
    } finally {
      store.list = list;
    }
    assert.equal((await pods(s)).filter((p) => p.spec.nodeName === 'n').length, 20);
    assert.equal(lists, 0);
  });

  it('a bound pod that finishes frees its node for a waiting pod', async () => {
    const s = await server();
    await addNode(s, 'solo', '512Mi');
    await create(s, pod('first', { memory: '400Mi' }));
    await s.scheduler!.idle();
    await create(s, pod('second', { memory: '400Mi' }));
    await s.scheduler!.idle();
    assert.equal((await s.api.get<Pod>(s.api.def('pods'), 'default', 'second')).spec.nodeName, undefined);
    const first = await s.api.get<Pod>(s.api.def('pods'), 'default', 'first');
    await s.api.update(s.api.def('pods'), 'default', 'first', { ...first, status: { ...first.status, phase: 'Succeeded' } } as KubeObject, { ...admin, warnings: [] }, 'status');
    await waitFor('second bound', async () => (await s.api.get<Pod>(s.api.def('pods'), 'default', 'second')).spec.nodeName || undefined);
  });

  it('a second pod asking for a hostPort already held on the only node stays Pending until the port is freed', async () => {
    const s = await server();
    await addNode(s, 'solo', '1Gi');
    const web = (name: string) => {
      const p = pod(name, { memory: '10Mi' });
      p.spec.containers[0]!.ports = [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }];
      return p;
    };
    await create(s, web('web-1'));
    await waitFor('web-1 bound', async () => (await s.api.get<Pod>(s.api.def('pods'), 'default', 'web-1')).spec.nodeName || undefined);
    await create(s, web('web-2'));
    await s.scheduler!.idle();
    const cond = await waitFor('web-2 unschedulable', async () => (await s.api.get<Pod>(s.api.def('pods'), 'default', 'web-2')).status?.conditions?.find((c) => c.type === 'PodScheduled'));
    assert.deepEqual(
      [cond.status, cond.reason, cond.message],
      ['False', 'Unschedulable', "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."],
    );
    assert.equal((await s.api.get<Pod>(s.api.def('pods'), 'default', 'web-2')).spec.nodeName, undefined);
    // The holder goes away: the port is free again.
    await s.api.delete(s.api.def('pods'), 'default', 'web-1', { gracePeriodSeconds: 0 }, { ...admin, warnings: [] });
    await waitFor('web-2 bound', async () => (await s.api.get<Pod>(s.api.def('pods'), 'default', 'web-2')).spec.nodeName || undefined);
  });

  it('scheduler: false leaves pending pods alone', async () => {
    const s = await server({ scheduler: false });
    assert.equal(s.scheduler, undefined);
    await addNode(s, 'idle', '1Gi');
    await create(s, pod('waits', { memory: '10Mi' }));
    await new Promise((r) => setTimeout(r, 100));
    const p = await s.api.get<Pod>(s.api.def('pods'), 'default', 'waits');
    assert.equal(p.spec.nodeName, undefined);
    assert.equal(p.status?.conditions?.find((c) => c.type === 'PodScheduled'), undefined);
  });
});

describe('SchedulerController preemption (DefaultPreemption)', () => {
  let dir: string;
  let s: RunningServer;
  const pods = () => s.api.def('pods');
  const classes = new Set<string>();
  /**
   * Creates the pod with its priority given the way a user gives it: through a PriorityClass of
   * that value (and preemptionPolicy), made on first use; the Priority admission plugin refuses
   * a priority written into the spec.
   */
  const create = async (p: Pod) => {
    const spec = { ...p.spec };
    if (spec.priority !== undefined) {
      const policy = spec.preemptionPolicy ?? 'PreemptLowerPriority';
      const name = `p${spec.priority}-${policy.toLowerCase()}`;
      if (!classes.has(name)) {
        await s.api.create(s.api.def('priorityclasses'), undefined, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: spec.priority, preemptionPolicy: policy } as KubeObject, { ...admin, warnings: [] });
        classes.add(name);
      }
      delete spec.priority;
      delete spec.preemptionPolicy;
      spec.priorityClassName = name;
    }
    return s.api.create(pods(), 'default', { ...p, spec, metadata: { name: p.metadata.name } } as KubeObject, { ...admin, warnings: [] });
  };
  const get = (name: string) => s.api.get<Pod>(pods(), 'default', name);
  const exists = async (name: string) => (await s.api.list(pods(), 'default')).items.some((p) => p.metadata?.name === name);
  const events = async (reason: string, name: string) => ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).filter((e) => e.reason === reason && e.involvedObject.name === name);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-preempt-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
    await s.api.create(s.api.def('nodes'), undefined, node('small', { cpu: '2', memory: '1Gi', pods: '110' }), { ...admin, warnings: [] });
  });

  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('preempts the fewest lowest-priority pods, nominates the node, and binds once the victims are gone', async () => {
    // The node fills up: 400Mi + 400Mi + 200Mi of 1Gi.
    await create(pod('low-a', { memory: '400Mi' }, { priority: 10, terminationGracePeriodSeconds: 7 }));
    await create(pod('low-b', { memory: '400Mi' }, { priority: 20 }));
    await create(pod('mid', { memory: '200Mi' }, { priority: 1000 }));
    for (const n of ['low-a', 'low-b', 'mid']) await waitFor(`${n} bound`, async () => (await get(n)).spec.nodeName || undefined);

    // 400Mi at priority 500: removing low-a alone makes room (low-b, of higher priority, is reprieved).
    await create(pod('urgent', { memory: '400Mi' }, { priority: 500 }));
    const victim = await waitFor('low-a marked for deletion', async () => {
      const p = await get('low-a');
      return p.metadata.deletionTimestamp ? p : undefined;
    });
    // A graceful delete with the victim's own grace period.
    assert.equal(victim.metadata.deletionGracePeriodSeconds, 7);
    const cond = victim.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual([cond?.status, cond?.reason, cond?.message], ['True', 'PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod']);
    const urgent = await waitFor('urgent nominated', async () => {
      const p = await get('urgent');
      return p.status?.nominatedNodeName ? p : undefined;
    });
    assert.equal(urgent.status?.nominatedNodeName, 'small');
    assert.equal(urgent.spec.nodeName, undefined);
    const sched = urgent.status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.deepEqual([sched?.status, sched?.reason, sched?.message], ['False', 'Unschedulable', '0/1 nodes are available: 1 Insufficient memory.']);
    for (const n of ['low-b', 'mid']) assert.equal((await get(n)).metadata.deletionTimestamp, undefined, `${n} is not a victim`);

    await s.scheduler!.idle();
    const preempted = await events('Preempted', 'low-a');
    assert.deepEqual(
      preempted.map((e) => [e.type, e.reason, e.message, e.source?.component, e.action]),
      [['Normal', 'Preempted', `Preempted by pod ${urgent.metadata.uid} on node small`, 'default-scheduler', 'Preempting']],
    );
    assert.deepEqual((await events('FailedScheduling', 'urgent')).map((e) => e.message), ['0/1 nodes are available: 1 Insufficient memory.']);

    // Tried again while its victim terminates: it waits, preempting nothing more.
    s.scheduler!.resyncAll();
    await s.scheduler!.idle();
    const waiting = (await get('urgent')).status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(waiting?.message, '0/1 nodes are available: 1 Insufficient memory. preemption: not eligible due to a terminating pod on the nominated node.');
    assert.equal((await get('urgent')).status?.nominatedNodeName, 'small');
    assert.equal((await events('Preempted', 'low-a')).length, 1);
    assert.equal((await get('low-b')).metadata.deletionTimestamp, undefined);

    // A pod of lower priority cannot take the room the nominated pod holds.
    await create(pod('filler', { memory: '300Mi' }, { priority: 0 }));
    await waitFor('filler reported', async () => ((await events('FailedScheduling', 'filler')).length ? true : undefined));
    assert.equal((await get('filler')).spec.nodeName, undefined);

    // The node finishes the victim (as the agent does after stopping its containers).
    await s.api.delete(pods(), 'default', 'low-a', { gracePeriodSeconds: 0 }, { ...admin, warnings: [] });
    assert.equal(await exists('low-a'), false);
    const bound = await waitFor('urgent bound', async () => {
      const p = await get('urgent');
      return p.spec.nodeName ? p : undefined;
    });
    assert.equal(bound.spec.nodeName, 'small');
    // The binding clears the nomination.
    assert.equal(bound.status?.nominatedNodeName, undefined);
    assert.equal(bound.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
  });

  it('preemptionPolicy Never: reports, preempts nothing, nominates nowhere', async () => {
    await create(pod('polite', { memory: '900Mi' }, { priority: 2000, preemptionPolicy: 'Never' }));
    const cond = await waitFor('polite unschedulable', async () => (await get('polite')).status?.conditions?.find((c) => c.type === 'PodScheduled'));
    assert.equal(cond.message, '0/1 nodes are available: 1 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never.');
    assert.equal((await get('polite')).status?.nominatedNodeName, undefined);
    for (const n of ['low-b', 'mid', 'urgent']) assert.equal((await get(n)).metadata.deletionTimestamp, undefined);
  });
});

describe('SchedulerController preemption weighs PodDisruptionBudgets', () => {
  let dir: string;
  let s: RunningServer;
  let informers: SharedInformerFactory;
  let sched: SchedulerController;
  const as = () => ({ ...admin, warnings: [] });
  const pods = () => s.api.def('pods');
  const get = (name: string) => s.api.get<Pod>(pods(), 'default', name);
  /** A pod of a PriorityClass (the Priority admission plugin sets spec.priority), optionally already on a node. */
  const create = (name: string, memory: string, priorityClassName: string, opts: { nodeName?: string; labels?: Record<string, string> } = {}) => {
    const p = pod(name, { memory }, { priorityClassName }, { nodeName: opts.nodeName });
    return s.api.create(pods(), 'default', { ...p, metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}) } } as KubeObject, as());
  };
  const deleting = (name: string) =>
    waitFor(`${name} marked for deletion`, async () => {
      const p = await get(name);
      return p.metadata.deletionTimestamp ? p : undefined;
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-preempt-pdb-'));
    // The server's controllers (the disruption controller among them) without its scheduler: the
    // one below shares its informer factory with this test, which can wait on its cache.
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    for (const n of ['a', 'b']) await s.api.create(s.api.def('nodes'), undefined, node(n, { cpu: '2', memory: '1Gi', pods: '110' }), as());
    for (const [name, value] of [['low', 10], ['urgent', 500]] as const) {
      await s.api.create(s.api.def('priorityclasses'), undefined, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value } as KubeObject, as());
    }
    // One low-priority pod on each node; everything about the two ties, so without budgets the
    // first node ('a') is the one preempted on.
    await create('guarded', '600Mi', 'low', { nodeName: 'a', labels: { app: 'guarded' } });
    await create('free', '600Mi', 'low', { nodeName: 'b' });
    const pdb: PodDisruptionBudget = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'guard' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } } };
    await s.api.create(s.api.def('poddisruptionbudgets'), 'default', pdb as KubeObject, as());
    informers = new SharedInformerFactory(new LoopbackClient(s.api, schedulerIdentity));
    sched = new SchedulerController(new LoopbackClient(s.api, schedulerIdentity), informers, { gates: defaultFeatureGates, qps: 0 });
    await sched.start();
    // The disruption controller's status, as the scheduler's cache holds it: the one pod is not
    // Ready, so the budget allows no disruption.
    const seen = await waitFor('the budget\'s status in the scheduler\'s cache', async () => informers.informerFor<PodDisruptionBudget>(podDisruptionBudgetsRef).lister.get('default', 'guard')?.status?.observedGeneration ? true : undefined);
    assert.ok(seen);
    assert.equal(informers.informerFor<PodDisruptionBudget>(podDisruptionBudgetsRef).lister.get('default', 'guard')?.status?.disruptionsAllowed, 0);
  });

  after(async () => {
    await sched?.stop();
    informers?.stop();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('preempts on the node whose victims violate no budget; with no other choice, a protected pod still goes', async () => {
    await create('urgent', '600Mi', 'urgent');
    const victim = await deleting('free');
    assert.equal(victim.status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.reason, 'PreemptionByScheduler');
    assert.equal((await waitFor('urgent nominated', async () => (await get('urgent')).status?.nominatedNodeName || undefined)), 'b');
    await sched.idle();
    assert.equal((await get('guarded')).metadata.deletionTimestamp, undefined);

    // Node b is held for 'urgent' (nominated, of equal priority): the only room left is a's, and
    // the budget does not stop preemption there (deleted directly, not through an eviction).
    await create('urgent-2', '600Mi', 'urgent');
    const protectedVictim = await deleting('guarded');
    const cond = protectedVictim.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual([cond?.status, cond?.reason], ['True', 'PreemptionByScheduler']);
    assert.equal((await waitFor('urgent-2 nominated', async () => (await get('urgent-2')).status?.nominatedNodeName || undefined)), 'a');
  });
});

describe('SchedulerController binding cycle (assume, bind in the background, forget on failure)', () => {
  let dir: string;
  let s: RunningServer;
  let informers: SharedInformerFactory;
  let sched: SchedulerController;
  const decisions: [string, string][] = [];
  let releaseFailure!: () => void;
  const failureReleased = new Promise<void>((r) => (releaseFailure = r));
  const refused = new Set<string>();

  /** Its first binding of `first` waits until `second` has been decided, then the server refuses it (an internal error). */
  class FailingOnce extends LoopbackClient {
    override async bind(namespace: string, name: string, node: string, opts?: { uid?: string }): Promise<void> {
      if (name === 'first' && !refused.has(name)) {
        refused.add(name);
        await failureReleased;
        throw new ApiError(500, { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 500, reason: 'InternalError', message: 'Internal error occurred: disk full' });
      }
      return super.bind(namespace, name, node, opts);
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-bindcycle-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    await s.api.create(s.api.def('nodes'), undefined, node('solo', { cpu: '2', memory: '512Mi', pods: '110' }), { ...admin, warnings: [] });
    informers = new SharedInformerFactory(new LoopbackClient(s.api, schedulerIdentity));
    sched = new SchedulerController(new FailingOnce(s.api, schedulerIdentity), informers, {
      gates: defaultFeatureGates,
      qps: 0,
      onDecision: (p, d) => {
        decisions.push([p.metadata.name ?? '', d.node ?? d.message ?? '']);
        if (p.metadata.name === 'second') releaseFailure();
      },
    });
  });

  after(async () => {
    await sched?.stop();
    informers?.stop();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (name: string) => s.api.get<Pod>(s.api.def('pods'), 'default', name);

  it('the next decision counts an assumed pod; a failed binding gives its room back and reports the error', async () => {
    // Room for one of them: the first is placed, and the second, decided while the first's
    // binding is still being written, does not fit beside it.
    for (const name of ['first', 'second']) await s.api.create(s.api.def('pods'), 'default', { ...pod(name, { memory: '400Mi' }), metadata: { name } } as KubeObject, { ...admin, warnings: [] });
    await sched.start();
    await waitFor('second bound', async () => (await get('second')).spec.nodeName || undefined);
    const insufficient = '0/1 nodes are available: 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    assert.deepEqual(decisions.slice(0, 3), [
      ['first', 'solo'],
      ['second', insufficient],
      // The first's binding failed: its room went back, and the second took it.
      ['second', 'solo'],
    ]);
    // The failure is reported as kube-scheduler's handleSchedulingFailure reports an error.
    const first = await waitFor('first reported', async () => {
      const p = await get('first');
      return p.status?.conditions?.some((c) => c.type === 'PodScheduled') ? p : undefined;
    });
    assert.equal(first.spec.nodeName, undefined);
    const failed = await waitFor('the error event', async () => {
      const evs = ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).filter((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === 'first');
      return evs.length ? evs : undefined;
    });
    assert.equal(failed[0]!.message, 'Internal error occurred: disk full');
    // Tried again after its back-off, it no longer fits.
    const cond = await waitFor('first tried again', async () => {
      const c = (await get('first')).status?.conditions?.find((x) => x.type === 'PodScheduled');
      return c?.reason === 'Unschedulable' ? c : undefined;
    });
    assert.equal(cond.message, insufficient);
    await sched.idle();
    assert.equal(sched.cache.isAssumed('default/first'), false);
    assert.deepEqual(
      [...sched.cache.nodeInfo('solo')!.pods.keys()],
      ['default/second'],
    );
  });
});
