import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { ApiError } from '../../src/client/errors.js';
import { HttpClient } from '../../src/client/http.js';
import { nodesRef } from '../../src/client/resources.js';
import { buildNode, nodeConditions, type NodeFacts } from '../../src/agent/nodeobject.js';
import { reconcileConditionTaints } from '../../src/api/nodetaints.js';
import { NodeRegistration } from '../../src/agent/registration.js';
import { capabilitiesAnnotation, decodeCapabilities } from '../../src/policy/nodecapabilities.js';
import type { Event, Lease, Node, Taint } from '../../src/api/types.js';
import { EventRecorder } from '../../src/client/recorder.js';

const facts = (name: string): NodeFacts => ({
  name,
  memoryBytes: 4n << 30n,
  milliCPU: 2000n,
  maxPods: 110,
  evictionHardMemoryBytes: 100n << 20n,
  internalIP: '127.0.0.1',
  hostname: name,
  kernelVersion: '6.18.0',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  architecture: 'amd64',
  machineID: 'm',
  bootID: 'b',
  containerRuntimeVersion: 'runc://1.1.5',
  capabilities: { cgroupVersion: 1, oomGroup: 'emulated', minOOMScoreAdj: 0, hardRlimitCeilings: { RLIMIT_NOFILE: '20000' } },
  ulimits: true,
});
const healthy = { memoryPressure: false, diskPressure: false, pidPressure: false, ready: true };

describe('the Node object an agent registers', () => {
  const cases: { name: string; check: (n: Node) => void }[] = [
    { name: 'capacity is the machine, allocatable subtracts the hard memory eviction threshold', check: (n) => {
      assert.deepEqual(n.status!.capacity, { cpu: '2', 'ephemeral-storage': '0', memory: '4Gi', pods: '110' });
      assert.deepEqual(n.status!.allocatable, { cpu: '2', 'ephemeral-storage': '0', memory: '3996Mi', pods: '110' });
    } },
    { name: 'the four kubelet conditions with their reasons and messages', check: (n) => {
      assert.deepEqual(n.status!.conditions!.map((c) => [c.type, c.status, c.reason, c.message]), [
        ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
        ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
        ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
        ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
      ]);
    } },
    { name: 'the ulimits feature is declared and the capabilities annotation decodes', check: (n) => {
      assert.deepEqual(n.status!.declaredFeatures, ['ContainerUlimits']);
      assert.deepEqual(decodeCapabilities(n.metadata.annotations)?.hardRlimitCeilings, { RLIMIT_NOFILE: '20000' });
    } },
    { name: 'well-known labels', check: (n) => {
      assert.equal(n.metadata.labels!['kubernetes.io/hostname'], 'n1');
      assert.equal(n.metadata.labels!['kubernetes.io/os'], 'linux');
    } },
  ];
  const node = buildNode(facts('n1'), healthy, undefined, '2026-11-22T00:00:00Z');
  for (const c of cases) it(c.name, () => c.check(node));

  it('memory pressure sets the condition; the server derives the NoSchedule taint from it', () => {
    const n = buildNode(facts('n1'), { ...healthy, memoryPressure: true }, node, '2026-11-22T00:01:00Z');
    assert.equal(n.status!.conditions![0]!.reason, 'KubeletHasInsufficientMemory');
    assert.equal(n.spec!.taints, undefined, 'a node may not change its own taints (NodeRestriction)');
    assert.deepEqual(reconcileConditionTaints(n), [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }]);
  });

  it('a node under pressure registers with the condition; the taint is the server\'s from the first write', () => {
    const n = buildNode(facts('n1'), { ...healthy, memoryPressure: true }, undefined, '2026-11-22T00:01:00Z');
    assert.equal(n.spec!.taints, undefined);
    assert.deepEqual(reconcileConditionTaints(n), [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }]);
  });

  it('a condition keeps its transition time while its status holds; the heartbeat moves', () => {
    const first = nodeConditions(healthy, undefined, 't1');
    const second = nodeConditions(healthy, first, 't2');
    assert.equal(second[3]!.lastTransitionTime, 't1');
    assert.equal(second[3]!.lastHeartbeatTime, 't2');
    const flipped = nodeConditions({ ...healthy, ready: false }, second, 't3');
    assert.equal(flipped[3]!.lastTransitionTime, 't3');
  });
});

describe('node registration against the API server', () => {
  let s: RunningServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-reg-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers the node with its own identity, renews its lease, and beats again', async () => {
    const client = new HttpClient({ server: s.url, ca: s.caCert, token: s.nodeToken('n1') });
    const reg = new NodeRegistration({ client, facts: facts('n1'), health: () => healthy, periodMs: 60_000 });
    try {
      const node = await reg.start();
      assert.equal(node.metadata.name, 'n1');
      const stored = await s.api.get<Node>(s.api.def('nodes'), undefined, 'n1');
      assert.equal(stored.status!.allocatable!.memory, '3996Mi');
      assert.ok(stored.metadata.annotations![capabilitiesAnnotation]);
      const lease = await s.api.get<Lease>(s.api.def('leases'), 'kube-node-lease', 'n1');
      assert.equal(lease.spec!.holderIdentity, 'n1');
      const firstRenew = lease.spec!.renewTime!;
      await new Promise((r) => setTimeout(r, 20));
      await reg.beat();
      const renewed = await s.api.get<Lease>(s.api.def('leases'), 'kube-node-lease', 'n1');
      assert.notEqual(renewed.spec!.renewTime, firstRenew);
    } finally {
      reg.stop();
      client.close();
    }
  });

  // The server keeps the condition taints (src/api/nodetaints.ts, table-tested there); this is the restart, end to end.
  it('an agent restarted without pressure removes the memory-pressure taint its previous run left, and only that', async () => {
    const client = new HttpClient({ server: s.url, ca: s.caCert, token: s.nodeToken('n3') });
    const user: Taint = { key: 'example.com/dedicated', value: 'db', effect: 'NoSchedule' };
    try {
      const run = async (memoryPressure: boolean) => {
        const reg = new NodeRegistration({ client, facts: facts('n3'), health: () => ({ ...healthy, memoryPressure }), periodMs: 60_000 });
        await reg.start();
        reg.stop();
        return s.api.get<Node>(s.api.def('nodes'), undefined, 'n3');
      };
      const pressed = await run(true);
      assert.deepEqual(pressed.spec?.taints, [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }]);
      assert.equal((await run(false)).spec?.taints, undefined, 'the taint goes with the condition, although it was the only taint');
      // A stale taint beside an admin's taint added while the agent was down: only the stale one goes.
      const admin = new HttpClient({ server: s.url, ca: s.caCert, token: s.adminToken });
      const current = await s.api.get<Node>(s.api.def('nodes'), undefined, 'n3');
      await admin.update<Node>(nodesRef, undefined, { ...current, spec: { ...current.spec, taints: [user, ...pressed.spec!.taints!] } }).finally(() => admin.close());
      const after = await run(false);
      assert.deepEqual(after.spec?.taints, [user]);
      assert.equal(after.status!.conditions!.find((c) => c.type === 'MemoryPressure')!.status, 'False');
    } finally {
      client.close();
    }
  });

  it('records the kubelet\'s Node events: Starting and the pressure conditions at registration, then each move and a cordon', async () => {
    const client = new HttpClient({ server: s.url, ca: s.caCert, token: s.nodeToken('n4') });
    const events = new EventRecorder(client, { component: 'kubelet', host: 'n4' });
    let memoryPressure = false;
    const reg = new NodeRegistration({ client, facts: facts('n4'), health: () => ({ ...healthy, memoryPressure }), periodMs: 60_000, events });
    const recorded = async () => {
      await events.flush();
      const list = await s.api.list(s.api.def('events'), 'default');
      return (list.items as Event[])
        .filter((e) => e.involvedObject?.name === 'n4')
        .sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1))
        .map((e) => [e.reason, e.message, e.source?.component, e.involvedObject?.kind, e.involvedObject?.uid]);
    };
    try {
      await reg.start();
      await reg.beat();
      const status = (reason: string) => [reason, `Node n4 status is now: ${reason}`, 'kubelet', 'Node', 'n4'];
      assert.deepEqual(await recorded(), [['Starting', 'Starting kubelet.', 'kubelet', 'Node', 'n4'], status('NodeHasSufficientMemory'), status('NodeHasNoDiskPressure'), status('NodeHasSufficientPID')], 'a second beat with nothing moved records nothing');
      memoryPressure = true;
      const admin = new HttpClient({ server: s.url, ca: s.caCert, token: s.adminToken });
      await admin.patch(nodesRef, undefined, 'n4', 'application/merge-patch+json', { spec: { unschedulable: true } }).finally(() => admin.close());
      await reg.beat();
      assert.deepEqual((await recorded()).slice(4), [status('NodeHasInsufficientMemory'), status('NodeNotSchedulable')]);
    } finally {
      reg.stop();
      await events.stop();
      client.close();
    }
  });

  it('a node identity cannot register under another name', async () => {
    const client = new HttpClient({ server: s.url, ca: s.caCert, token: s.nodeToken('n2') });
    try {
      await assert.rejects(client.patch(nodesRef, undefined, 'n1', 'application/merge-patch+json', { metadata: { labels: { stolen: 'yes' } } }), (e: unknown) => e instanceof ApiError && e.code === 403);
    } finally {
      client.close();
    }
  });
});
