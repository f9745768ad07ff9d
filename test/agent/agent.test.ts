// The agent on the one client (src/client): its pods come from a shared informer over
// fieldSelector spec.nodeName=<node>, its writes (node, lease, pod status, the final delete) go
// through the KubeClient, its events through the EventRecorder as `kubelet` on the node. A fake
// client (test/client/fakeclient.ts, kept per kind here) and a stand-in pod runtime: no server,
// no root, no kernel; the test pushes watch events and waits for the agent to go idle.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { Agent, type PodRuntime, type TerminateOutcome } from '../../src/agent/agent.js';
import { agentConnection, type AgentConnection } from '../../src/agent/connect.js';
import { AgentMetrics } from '../../src/agent/metrics.js';
import type { NodeFacts } from '../../src/agent/nodeobject.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Event, KubeObject, Pod, PodStatus } from '../../src/api/types.js';
import { ApiError } from '../../src/client/errors.js';
import type { DeleteOptions, ListOptions, ObjectList, PatchType, ResourceRef, WriteOptions } from '../../src/client/interface.js';
import type { NodeConfig } from '../../src/plan/node.js';
import { FakeClient } from '../client/fakeclient.js';
import { fixedAuthenticator, testCerts, type TestCerts } from './endpointcerts.js';

/** FakeClient with one store per kind (the agent reads and writes pods, nodes, leases and events), merge patches and deletes recorded. */
class KindedClient extends FakeClient {
  patches: { name: string; subresource?: string; type: PatchType; patch: unknown }[] = [];
  deletes: { name: string; opts?: DeleteOptions }[] = [];

  override key(o: KubeObject): string {
    return `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  }

  override async get<T extends KubeObject>(r: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
    const o = this.objects.get(`${r.kind}/${namespace ?? ''}/${name}`);
    if (!o) throw new ApiError(404, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 404, reason: 'NotFound', message: `${r.resource} "${name}" not found` } as never);
    return structuredClone(o) as T;
  }

  override async list<T extends KubeObject>(r?: ResourceRef, _ns?: string, opts: ListOptions = {}): Promise<ObjectList<T>> {
    this.lists++;
    const node = /^spec\.nodeName=(.*)$/.exec(opts.fieldSelector ?? '')?.[1];
    const items = [...this.objects.values()].filter((o) => o.kind === r?.kind && (node === undefined || (o as Pod).spec?.nodeName === node));
    return { items: items.map((o) => structuredClone(o) as T), resourceVersion: String(this.resourceVersion) };
  }

  override async patch<T extends KubeObject>(r: ResourceRef, namespace: string | undefined, name: string, type: PatchType, patch: unknown, opts: WriteOptions = {}): Promise<T> {
    this.patches.push({ name, ...(opts.subresource ? { subresource: opts.subresource } : {}), type, patch });
    const o = (await this.get(r, namespace, name)) as Pod;
    return this.put({ ...o, status: (patch as { status: PodStatus }).status } as Pod) as T;
  }

  /** The namespace of a create is the request's (a Lease is sent without one). */
  override async create<T extends KubeObject>(r: ResourceRef, namespace: string | undefined, obj: T): Promise<T> {
    return super.create(r, namespace, r.namespaced ? { ...obj, metadata: { ...obj.metadata, namespace } } : obj);
  }

  override async delete(r: ResourceRef, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<KubeObject> {
    this.deletes.push({ name, ...(opts ? { opts } : {}) });
    const o = await this.get(r, namespace, name);
    this.objects.delete(this.key(o));
    return o;
  }

  events(): Event[] {
    return [...this.objects.values()].filter((o): o is Event => o.kind === 'Event');
  }
}

/** A pod runtime that runs nothing: it says Running and records what it was asked. */
class StandInRuntime implements PodRuntime {
  calls: string[] = [];
  running: { uid: string; namespace: string; name: string }[] = [];
  readonly exitDir: string;
  constructor(dir: string) {
    this.exitDir = join(dir, 'exits');
  }
  /** The start time the runtime's status reports (the kubelet's status.startTime), when set. */
  startTime: string | undefined;
  async sync(pod: Pod, record: Parameters<PodRuntime['sync']>[1]): Promise<{ status: PodStatus }> {
    this.calls.push(`sync ${pod.metadata.name}`);
    record(pod, 'Normal', 'Started', 'Started container c');
    return { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], ...(this.startTime ? { startTime: this.startTime } : {}) } };
  }
  /** Terminations that give up (containers outliving SIGKILL), by pod name: how many more. */
  stuck = new Map<string, number>();
  /** While set, terminations wait for it (a stop under way). */
  hold: Promise<void> | undefined;
  async terminate(pod: Pod, grace: number): Promise<TerminateOutcome> {
    this.calls.push(`terminate ${pod.metadata.name} ${grace}`);
    await this.hold;
    const left = this.stuck.get(pod.metadata.name ?? '') ?? 0;
    if (left > 0) {
      this.stuck.set(pod.metadata.name ?? '', left - 1);
      return { done: false, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }, error: 'error killing pod: failed to "KillContainer" for "c" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"' };
    }
    return { done: true, status: { phase: 'Succeeded' } };
  }
  shortenGrace(pod: Pod, grace: number): void {
    this.calls.push(`shortenGrace ${pod.metadata.name} ${grace}`);
  }
  async remove(uid: string): Promise<void> {
    this.calls.push(`remove ${uid}`);
    this.running = this.running.filter((p) => p.uid !== uid);
  }
  async knownPods() {
    return this.running;
  }
  containerByMemcg() {
    return undefined;
  }
  logPath() {
    return undefined;
  }
  podUIDOfContainer() {
    return undefined;
  }
  containerRunning() {
    return false;
  }
  async containerPid() {
    return undefined;
  }
}

const facts: NodeFacts = {
  name: 'n1', memoryBytes: 4n << 30n, milliCPU: 2000n, maxPods: 110, evictionHardMemoryBytes: 100n << 20n, internalIP: '10.0.0.7', hostname: 'n1', kernelVersion: 'test', osImage: 'test', architecture: 'amd64', machineID: 'm', bootID: 'b',
  containerRuntimeVersion: 'runc://1.1.5', capabilities: { cgroupVersion: 1, oomGroup: 'emulated', minOOMScoreAdj: 0, hardRlimitCeilings: {} }, ulimits: true,
};

const boundPod = (name: string, uid: string, node = 'n1', extra: Partial<Pod['metadata']> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid, ...extra }, spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }] },
});

describe('agent on the shared client', () => {
  let dir: string;
  let c: KindedClient;
  let rt: StandInRuntime;
  let conn: AgentConnection;
  let agent: Agent;
  const logs: string[] = [];
  let certs: TestCerts;
  before(async () => {
    certs = await testCerts('n1');
  });
  after(() => certs.cleanup());

  const start = async (extra: { syncErrorBackoffMs?: number } = {}) => {
    conn = agentConnection(c, 'n1', (m) => logs.push(m));
    agent = new Agent({
      ...extra,
      client: c, pods: conn.pods, events: conn.events, endpointSecurity: { tls: { ...certs.serving, clientCA: certs.ca }, auth: fixedAuthenticator({}, () => false) }, facts,
      node: { memoryBytes: facts.memoryBytes, milliCPU: facts.milliCPU, cgroupVersion: 1, cgroupDriver: 'cgroupfs', oomGroupEmulation: true } as NodeConfig,
      gates: defaultFeatureGates, runtime: rt, metrics: new AgentMetrics(), endpoint: { host: '127.0.0.1', port: 0 }, oomWatcher: false, log: (m) => logs.push(m),
    });
    await agent.start();
    await agent.idle();
    await conn.events.flush();
  };
  const settle = async () => {
    // The handlers kick synchronously; idle() waits for the work they started.
    await agent.idle();
    await conn.events.flush();
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-agent-unit-'));
    c = new KindedClient();
    rt = new StandInRuntime(dir);
    logs.length = 0;
  });
  afterEach(async () => {
    await agent?.stop();
    conn?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists and watches only its own pods (fieldSelector spec.nodeName=<node>), registers the node and renews its lease', async () => {
    c.put(boundPod('mine', 'u1'));
    c.put(boundPod('theirs', 'u2', 'n2'));
    await start();
    assert.deepEqual(c.watches.map((w) => w.opts.fieldSelector), ['spec.nodeName=n1']);
    assert.deepEqual(rt.calls, ['sync mine']);
    assert.ok(c.objects.get('Node//n1'), 'the Node is registered');
    assert.equal((c.objects.get('Lease/kube-node-lease/n1') as { spec?: { holderIdentity?: string } }).spec?.holderIdentity, 'n1');
  });

  it('writes pod status as a merge patch of the status subresource, with the uid as precondition', async () => {
    c.put(boundPod('web', 'u1'));
    await start();
    assert.equal(c.patches.length, 1);
    const p = c.patches[0]!;
    assert.deepEqual([p.name, p.subresource, p.type], ['web', 'status', 'application/merge-patch+json']);
    const patch = p.patch as { metadata: { uid: string }; status: PodStatus };
    assert.deepEqual([patch.metadata.uid, patch.status.phase, patch.status.hostIP, patch.status.qosClass], ['u1', 'Running', '10.0.0.7', 'BestEffort']);
  });

  it('posts its Ready again when another writer turned it False (the node lifecycle controller), keeping the conditions others own', async () => {
    c.put(boundPod('web', 'u1'));
    await start();
    assert.equal(c.patches.length, 1);
    const stored = c.objects.get('Pod/default/web') as Pod;
    const marked = c.put({
      ...stored,
      status: { ...stored.status, conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }, ...(stored.status?.conditions ?? []).map((x) => (x.type === 'Ready' ? { ...x, status: 'False' } : x))] },
    } as Pod);
    c.current.event({ type: 'MODIFIED', object: marked });
    await settle();
    assert.equal(c.patches.length, 2);
    const conditions = (c.patches[1]!.patch as { status: PodStatus }).status.conditions!;
    assert.deepEqual(conditions.map((x) => [x.type, x.status]).filter(([t]) => t === 'DisruptionTarget' || t === 'Ready'), [['DisruptionTarget', 'True'], ['Ready', 'True']]);
    // Its own post coming back changes nothing.
    c.current.event({ type: 'MODIFIED', object: c.objects.get('Pod/default/web')! });
    await settle();
    assert.equal(c.patches.length, 2);
  });

  it('records the sync\'s events after its status, as kubelet on the node, with no action', async () => {
    c.put(boundPod('web', 'u1'));
    await start();
    // The kubelet's own Node events (registration) are about the Node, not the pod.
    const all = c.events();
    assert.deepEqual(all.filter((e) => e.involvedObject.kind === 'Node').map((e) => e.reason).sort(), ['NodeHasNoDiskPressure', 'NodeHasSufficientMemory', 'NodeHasSufficientPID', 'Starting']);
    const [ev, ...rest] = all.filter((e) => e.involvedObject.kind !== 'Node');
    assert.equal(rest.length, 0);
    assert.deepEqual([ev!.reason, ev!.message, ev!.source, ev!.action, ev!.involvedObject.uid], ['Started', 'Started container c', { component: 'kubelet', host: 'n1' }, undefined, 'u1']);
    // The store's versions order its writes: the status patch came first.
    assert.ok(Number(ev!.metadata.resourceVersion) > Number(c.objects.get('Pod/default/web')!.metadata!.resourceVersion));
  });

  it('adopts after a restart: a pod the runtime still runs but the API no longer has is stopped and removed', async () => {
    c.put(boundPod('kept', 'u1'));
    rt.running = [{ uid: 'u1', namespace: 'default', name: 'kept' }, { uid: 'gone-uid', namespace: 'default', name: 'deleted-while-down' }];
    await start();
    assert.deepEqual(rt.calls.sort(), ['remove gone-uid', 'sync kept', 'terminate deleted-while-down 0']);
  });

  it('a pod being deleted is stopped with its grace period, reported, then deleted with grace 0 and its uid as precondition', async () => {
    await start();
    const p = c.put(boundPod('web', 'u1')) as Pod;
    c.current.event({ type: 'ADDED', object: p });
    await settle();
    const deleting = c.put({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 7 } }) as Pod;
    c.current.event({ type: 'MODIFIED', object: deleting });
    await settle();
    assert.deepEqual(rt.calls, ['sync web', 'terminate web 7', 'remove u1']);
    assert.deepEqual(c.deletes, [{ name: 'web', opts: { gracePeriodSeconds: 0, preconditions: { uid: 'u1' } } }]);
  });

  /** Waits (generously) until the runtime was asked `call`, the agent's retries being on timers idle() does not wait for. */
  const until = async (call: string) => {
    for (let i = 0; i < 2000 && !rt.calls.includes(call); i++) {
      await new Promise((r) => setTimeout(r, 5));
      await settle();
    }
    assert.ok(rt.calls.includes(call), `never asked to ${call}: ${rt.calls.join(', ')}`);
  };
  const statusPatches = () => c.patches.filter((p) => p.subresource === 'status').map((p) => (p.patch as { status: PodStatus }).status);

  it('a pod being deleted whose containers outlive SIGKILL: its status stays non-terminal, it is not deleted, and the stop is tried again after the back-off until it ends', async () => {
    await start({ syncErrorBackoffMs: 10 });
    rt.stuck.set('web', 2);
    const p = c.put(boundPod('web', 'u1')) as Pod;
    c.current.event({ type: 'ADDED', object: p });
    await settle();
    const deleting = c.put({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 7 } }) as Pod;
    c.current.event({ type: 'MODIFIED', object: deleting });
    await until('remove u1');
    assert.deepEqual(rt.calls, ['sync web', 'terminate web 7', 'terminate web 7', 'terminate web 7', 'remove u1']);
    assert.deepEqual(c.deletes, [{ name: 'web', opts: { gracePeriodSeconds: 0, preconditions: { uid: 'u1' } } }]);
    assert.deepEqual(statusPatches().map((st) => st.phase), ['Running', 'Running', 'Succeeded']);
    assert.equal(logs.filter((l) => l.includes('error killing pod: failed to "KillContainer" for "c"') && l.includes('trying again in')).length, 2, logs.join('\n'));
  });

  it('an evicted pod whose containers outlive SIGKILL: DisruptionTarget at once, Failed/Evicted only once the retried stop ends it', async () => {
    const p = c.put(boundPod('web', 'u1')) as Pod;
    await start({ syncErrorBackoffMs: 10 });
    rt.stuck.set('web', 1);
    await agent.evict(p, 'Evicted', 'The node was low on resource: memory.');
    await until('terminate web 1');
    const first = statusPatches()[1]!;
    assert.equal(first.phase, 'Running');
    assert.ok(first.conditions?.some((x) => x.type === 'DisruptionTarget' && x.status === 'True' && x.reason === 'TerminationByKubelet'));
    for (let i = 0; i < 2000 && rt.calls.filter((x) => x === 'terminate web 1').length < 2; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await settle();
    }
    const last = statusPatches().at(-1)!;
    assert.deepEqual([last.phase, last.reason], ['Failed', 'Evicted']);
    assert.deepEqual(rt.calls, ['sync web', 'terminate web 1', 'terminate web 1']);
  });

  describe('spec.activeDeadlineSeconds, as the kubelet\'s activeDeadlineHandler', () => {
    const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();
    const deadlinePod = (seconds: number, status?: PodStatus): Pod => {
      const p = boundPod('web', 'u1');
      return { ...p, spec: { ...p.spec, activeDeadlineSeconds: seconds, terminationGracePeriodSeconds: 9 }, ...(status ? { status } : {}) };
    };
    const deadlineEvents = () => c.events().filter((ev) => ev.reason === 'DeadlineExceeded');

    it('past the deadline since the start the runtime reported: stopped with the pod\'s grace, Failed/DeadlineExceeded, a Normal event', async () => {
      await start();
      rt.startTime = hourAgo();
      const p = c.put(deadlinePod(5)) as Pod;
      c.current.event({ type: 'ADDED', object: p });
      await until('terminate web 9');
      await settle();
      assert.deepEqual(rt.calls, ['sync web', 'terminate web 9']);
      const last = statusPatches().at(-1)!;
      assert.deepEqual([last.phase, last.reason, last.message], ['Failed', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline']);
      assert.ok(!last.conditions?.some((x) => x.type === 'DisruptionTarget'), 'no DisruptionTarget: the kubelet adds none for a deadline');
      assert.deepEqual(deadlineEvents().map((ev) => [ev.type, ev.message]), [['Normal', 'Pod was active on the node longer than the specified deadline']]);
    });

    it('a pod the API shows started long ago is stopped before any sync (an agent that restarts)', async () => {
      await start();
      const p = c.put(deadlinePod(5, { phase: 'Running', startTime: hourAgo() })) as Pod;
      c.current.event({ type: 'ADDED', object: p });
      await settle();
      assert.deepEqual(rt.calls, ['terminate web 9']);
      assert.equal(statusPatches().at(-1)!.reason, 'DeadlineExceeded');
    });

    const keeps: { name: string; pod: () => Pod; startTime?: () => string }[] = [
      { name: 'before the deadline: runs on', pod: () => deadlinePod(3600), startTime: () => new Date().toISOString() },
      { name: 'not started (no start time): no deadline yet', pod: () => deadlinePod(5) },
      { name: 'no activeDeadlineSeconds: never', pod: () => boundPod('web', 'u1'), startTime: hourAgo },
    ];
    for (const r of keeps) {
      it(r.name, async () => {
        await start();
        rt.startTime = r.startTime?.();
        const p = c.put(r.pod()) as Pod;
        c.current.event({ type: 'ADDED', object: p });
        await settle();
        assert.deepEqual(rt.calls, ['sync web']);
        assert.equal(deadlineEvents().length, 0);
      });
    }
  });

  it('a second delete with a shorter grace reaches the stop under way at once, not after it', async () => {
    await start();
    const p = c.put(boundPod('web', 'u1')) as Pod;
    c.current.event({ type: 'ADDED', object: p });
    await settle();
    let release!: () => void;
    rt.hold = new Promise((r) => (release = r));
    const del = (grace: number) => c.put({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: grace } }) as Pod;
    try {
      c.current.event({ type: 'MODIFIED', object: del(30) });
      await until('terminate web 30');
      c.current.event({ type: 'MODIFIED', object: del(5) });
      assert.deepEqual(rt.calls, ['sync web', 'terminate web 30', 'shortenGrace web 5']);
    } finally {
      release();
    }
    await until('remove u1');
  });

  it('a pod deleted from the API (watch DELETED) is stopped at once and removed', async () => {
    const p = c.put(boundPod('web', 'u1')) as Pod;
    await start();
    c.objects.delete(c.key(p));
    c.current.event({ type: 'DELETED', object: p });
    await settle();
    assert.deepEqual(rt.calls, ['sync web', 'terminate web 0', 'remove u1']);
  });

  it('a re-list that finds another pod under the same name stops the old one and runs the new', async () => {
    c.put(boundPod('web', 'old'));
    await start();
    // The watch history is gone (410); the re-list sees a new pod of the same name.
    c.objects.clear();
    c.put(boundPod('web', 'new'));
    c.current.event({ type: 'ERROR', object: { code: 410 } as unknown as KubeObject });
    c.current.end();
    for (let i = 0; i < 1000 && !rt.calls.includes('remove old'); i++) {
      await new Promise((r) => setTimeout(r, 5));
      await settle();
    }
    assert.deepEqual(rt.calls.sort(), ['remove old', 'sync web', 'sync web', 'terminate web 0'].sort());
  });
});
