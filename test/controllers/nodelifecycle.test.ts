// The node lifecycle and taint eviction controllers in the in-process server with short
// periods (grace 1.5 s, pods' default tolerations 1 s): two nodes whose Leases the test renews,
// one of them stops; its conditions go Unknown with upstream's wording, it is tainted
// unreachable (NoSchedule and NoExecute), its pods are marked not Ready, its Deployment pod is
// evicted (DisruptionTarget, DeletionByTaintManager) and replaced on the other node, a pod
// tolerating the taint forever stays, and the node coming back loses its taints. A lone node
// that stops is a full disruption: marked Unknown, never tainted NoExecute. A node that comes
// and goes gets RegisteredNode and RemovingNode. Every wait polls for a condition.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { LoopbackClient } from '../../src/client/loopback.js';
import { deploymentsRef, eventsRef, leasesRef, nodesRef, podsRef } from '../../src/client/resources.js';
import type { Deployment, Event, Lease, Node, Pod } from '../../src/api/types.js';

/** Polls `cond`; a generous bound turns a controller that never acts into a failure, not a hang. */
async function until(cond: () => Promise<boolean> | boolean, boundMs = 60_000): Promise<void> {
  const end = Date.now() + boundMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`condition not met within ${boundMs / 1000} s: ${cond.toString()}`);
    await sleep(50);
  }
}

const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const micro = () => new Date().toISOString().replace('Z', '000Z');

/** A node the test keeps alive by renewing its Lease, as the agent's registration does. */
class FakeNode {
  private timer?: NodeJS.Timeout;
  constructor(private readonly c: LoopbackClient, readonly name: string) {}

  async register(): Promise<void> {
    const node: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: this.name, labels: { 'kubernetes.io/hostname': this.name } },
      status: {
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: stamp(), lastTransitionTime: stamp() }],
      },
    } as Node;
    const created = await this.c.create<Node>(nodesRef, undefined, node);
    await this.c.update<Node>(nodesRef, undefined, { ...created, status: node.status }, { subresource: 'status' });
    await this.c.create<Lease>(leasesRef, 'kube-node-lease', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.name }, spec: { holderIdentity: this.name, leaseDurationSeconds: 40, renewTime: micro() } });
    this.resume();
  }

  resume(): void {
    this.timer = setInterval(() => void this.renew().catch(() => {}), 200);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    const l = await this.c.get<Lease>(leasesRef, 'kube-node-lease', this.name);
    await this.c.update<Lease>(leasesRef, 'kube-node-lease', { ...l, spec: { ...l.spec, renewTime: micro() } });
  }

  /** The agent's status beat: Ready True with a fresh heartbeat. */
  async postReady(): Promise<void> {
    const n = await this.c.get<Node>(nodesRef, undefined, this.name);
    const conditions = (n.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? { ...c, status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: stamp(), lastTransitionTime: stamp() } : c));
    await this.c.update<Node>(nodesRef, undefined, { ...n, status: { ...n.status, conditions } }, { subresource: 'status' });
  }
}

function start(dir: string): Promise<RunningServer> {
  return startServer({
    dataDir: join(dir, 'data'),
    store: 'memory:',
    port: 0,
    nodeLifecycle: { monitorPeriodMs: 200, gracePeriodMs: 1500, startupGracePeriodMs: 1500 },
    defaultTolerationSeconds: { notReady: 1, unreachable: 1 },
  });
}

const ready = (n: Node) => n.status?.conditions?.find((c) => c.type === 'Ready');
const hasTaint = (n: Node, key: string, effect: string) => (n.spec?.taints ?? []).some((t) => t.key === key && t.effect === effect);

describe('node lifecycle: a node that stops renewing its Lease', () => {
  let dir: string;
  let s: RunningServer;
  let c: LoopbackClient;
  const nodes: FakeNode[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-nodelifecycle-'));
    s = await start(dir);
    c = new LoopbackClient(s.api, { user: 'test-admin', groups: ['system:masters'] });
  });
  after(async () => {
    for (const n of nodes) n.stop();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is marked Unknown and tainted; its pods are evicted after their toleration and replaced elsewhere; it is untainted on return', async () => {
    const n2 = new FakeNode(c, 'n2');
    nodes.push(n2);
    await n2.register();
    const deployment: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    } as Deployment;
    await c.create(deploymentsRef, 'default', deployment);
    const webPods = async () => (await c.list<Pod>(podsRef, 'default', { labelSelector: 'app=web' })).items;
    await until(async () => (await webPods()).some((p) => p.spec.nodeName === 'n2'));
    const first = (await webPods())[0]!;
    assert.deepEqual(
      first.spec.tolerations?.filter((t) => t.effect === 'NoExecute'),
      [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 },
      ],
    );
    // The agent would report it Ready; the controller must turn that False.
    await c.update<Pod>(podsRef, 'default', { ...first, status: { ...first.status, conditions: [...(first.status?.conditions ?? []), { type: 'Ready', status: 'True', lastTransitionTime: stamp() }] } }, { subresource: 'status' });
    // A pod that tolerates the unreachable taint forever stays.
    await c.create<Pod>(podsRef, 'default', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'forever' },
      spec: { nodeName: 'n2', containers: [{ name: 'c', image: 'busybox' }], tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }] },
    } as Pod);
    const n1 = new FakeNode(c, 'n1');
    nodes.push(n1);
    await n1.register();

    n2.stop();
    await until(async () => ready(await c.get<Node>(nodesRef, undefined, 'n2'))?.status === 'Unknown');
    const down = await c.get<Node>(nodesRef, undefined, 'n2');
    const cond = (type: string) => down.status!.conditions!.find((x) => x.type === type)!;
    assert.deepEqual([cond('Ready').reason, cond('Ready').message], ['NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    // The fake kubelet never posted MemoryPressure: it is added as never updated.
    assert.deepEqual([cond('MemoryPressure').status, cond('MemoryPressure').reason, cond('MemoryPressure').message], ['Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.']);
    assert.ok(hasTaint(down, 'node.kubernetes.io/unreachable', 'NoSchedule'), JSON.stringify(down.spec));
    await until(async () => hasTaint(await c.get<Node>(nodesRef, undefined, 'n2'), 'node.kubernetes.io/unreachable', 'NoExecute'));
    assert.equal(ready(await c.get<Node>(nodesRef, undefined, 'n1'))?.status, 'True');

    // MarkPodsNotReady, then eviction after the 1 s toleration.
    await until(async () => {
      const p = await c.get<Pod>(podsRef, 'default', first.metadata.name!);
      return p.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'False' || !!p.metadata.deletionTimestamp;
    });
    await until(async () => !!(await c.get<Pod>(podsRef, 'default', first.metadata.name!)).metadata.deletionTimestamp);
    const evicted = await c.get<Pod>(podsRef, 'default', first.metadata.name!);
    const dt = evicted.status?.conditions?.find((x) => x.type === 'DisruptionTarget');
    assert.deepEqual([dt?.status, dt?.reason, dt?.message], ['True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']);
    assert.equal(evicted.status?.conditions?.find((x) => x.type === 'Ready')?.status, 'False');
    // Its Deployment replaces it on the node still alive.
    await until(async () => (await webPods()).some((p) => !p.metadata.deletionTimestamp && p.spec.nodeName === 'n1'));
    const forever = await c.get<Pod>(podsRef, 'default', 'forever');
    assert.equal(forever.metadata.deletionTimestamp, undefined);
    await until(async () => (await c.list<Event>(eventsRef, undefined)).items.some((e) => e.reason === 'TaintManagerEviction' && e.involvedObject.name === first.metadata.name));
    await until(async () => (await c.list<Event>(eventsRef, undefined)).items.some((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node' && e.message === 'Node n2 status is now: NodeNotReady'));

    // Back: Lease renewed and Ready posted; both unreachable taints go.
    n2.resume();
    await n2.postReady();
    await until(async () => {
      const n = await c.get<Node>(nodesRef, undefined, 'n2');
      return !hasTaint(n, 'node.kubernetes.io/unreachable', 'NoExecute') && !hasTaint(n, 'node.kubernetes.io/unreachable', 'NoSchedule');
    });
    assert.equal(ready(await c.get<Node>(nodesRef, undefined, 'n2'))?.status, 'True');
  });
});

describe('node lifecycle: the only node stops (full disruption)', () => {
  let dir: string;
  let s: RunningServer;
  let n: FakeNode;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-nodelifecycle-full-'));
    s = await start(dir);
  });
  after(async () => {
    n?.stop();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is marked Unknown but not tainted NoExecute, so its pods stay', async () => {
    const c = new LoopbackClient(s.api, { user: 'test-admin', groups: ['system:masters'] });
    n = new FakeNode(c, 'solo');
    await n.register();
    await c.create<Pod>(podsRef, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'solo', containers: [{ name: 'c', image: 'busybox' }] } } as Pod);
    n.stop();
    await until(async () => ready(await c.get<Node>(nodesRef, undefined, 'solo'))?.status === 'Unknown');
    // Let the controller look a few more times: the taint would come on the next pass.
    const passes = s.nodeLifecycle!.passes;
    await until(() => s.nodeLifecycle!.passes >= passes + 3);
    const node = await c.get<Node>(nodesRef, undefined, 'solo');
    assert.ok(!hasTaint(node, 'node.kubernetes.io/unreachable', 'NoExecute'), JSON.stringify(node.spec));
    assert.ok(hasTaint(node, 'node.kubernetes.io/unreachable', 'NoSchedule'));
    assert.equal((await c.get<Pod>(podsRef, 'default', 'p')).metadata.deletionTimestamp, undefined);
  });
});

describe('node lifecycle: the nodes it sees come and go (classifyNodes)', () => {
  let dir: string;
  let s: RunningServer;
  let n: FakeNode;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-nodelifecycle-events-'));
    s = await start(dir);
  });
  after(async () => {
    n?.stop();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const nodeEvents = async (c: LoopbackClient, reason: string) =>
    (await c.list<Event>(eventsRef, 'default')).items.filter((e) => e.reason === reason).map((e) => [e.type, e.message, e.involvedObject.kind, e.involvedObject.name, e.involvedObject.uid, e.source?.component]);

  it('a new node gets RegisteredNode, a deleted one RemovingNode, worded and addressed as RecordNodeEvent does', async () => {
    const c = new LoopbackClient(s.api, { user: 'test-admin', groups: ['system:masters'] });
    n = new FakeNode(c, 'joiner');
    await n.register();
    const uid = (await c.get<Node>(nodesRef, undefined, 'joiner')).metadata.uid;
    await until(async () => (await nodeEvents(c, 'RegisteredNode')).length > 0);
    assert.deepEqual(await nodeEvents(c, 'RegisteredNode'), [['Normal', 'Node joiner event: Registered Node joiner in Controller', 'Node', 'joiner', uid, 'node-controller']]);
    n.stop();
    await c.delete(nodesRef, undefined, 'joiner');
    await until(async () => (await nodeEvents(c, 'RemovingNode')).length > 0);
    assert.deepEqual(await nodeEvents(c, 'RemovingNode'), [['Normal', 'Node joiner event: Removing Node joiner from Controller', 'Node', 'joiner', uid, 'node-controller']]);
    // Seen once: later passes record nothing more.
    const passes = s.nodeLifecycle!.passes;
    await until(() => s.nodeLifecycle!.passes >= passes + 3);
    assert.equal((await nodeEvents(c, 'RegisteredNode')).length, 1);
  });
});
