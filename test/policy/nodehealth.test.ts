// The node lifecycle controller's decisions (src/policy/nodehealth.ts) on a fake clock: when a
// node counts as heard from, when its conditions go Unknown and with what wording, the zone
// states, the NoExecute taint swaps and MarkPodsNotReady. Rows follow upstream's
// node_lifecycle_controller_test.go TestMonitorNodeHealth* cases (read, not copied).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  computeZoneState,
  noExecuteTaintFor,
  nodeHealthVerdict,
  observeNodeHealth,
  podNotReadyConditions,
  withNoExecuteTaint,
  ZoneLimiter,
  zoneKey,
  zoneTaintRate,
  type NodeHealth,
} from '../../src/policy/nodehealth.js';
import type { Lease, Node, NodeCondition, Pod, Taint } from '../../src/api/types.js';
import { metaTime } from '../../src/api/metatime.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const s = (n: number) => T0 + n * 1000;
const grace = { monitorMs: 50_000, startupMs: 60_000 };

function cond(type: string, status: string, heartbeat: number, transition = T0): NodeCondition {
  return { type, status, lastHeartbeatTime: metaTime(heartbeat), lastTransitionTime: metaTime(transition), reason: 'KubeletReady', message: 'ok' };
}

function node(conditions: NodeCondition[] | undefined, extra: Partial<Node['metadata']> = {}): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', creationTimestamp: metaTime(T0), ...extra }, status: conditions ? { conditions } : {} };
}

function lease(renew: number): Lease {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: new Date(renew).toISOString().replace('Z', '000Z') } };
}

describe('observeNodeHealth: when a node counts as heard from', () => {
  const readyAt = (hb: number) => node([cond('Ready', 'True', hb)]);
  const rows: { name: string; saved?: NodeHealth; node: Node; lease?: Lease; now: number; probe: number }[] = [
    { name: 'first sight of a node with Ready: now', node: readyAt(s(0)), now: s(5), probe: s(5) },
    { name: 'a node that never posted Ready counts from its creation', node: node(undefined), now: s(30), probe: T0 },
    { name: 'a changed Ready heartbeat: now', saved: { probeTimestamp: s(0), ready: cond('Ready', 'True', s(0)) }, node: readyAt(s(10)), now: s(12), probe: s(12) },
    { name: 'the same heartbeat and no lease: unchanged', saved: { probeTimestamp: s(0), ready: cond('Ready', 'True', s(0)) }, node: readyAt(s(0)), now: s(40), probe: s(0) },
    { name: 'a lease renewed since last seen: now', saved: { probeTimestamp: s(0), ready: cond('Ready', 'True', s(0)), leaseRenew: s(0) }, node: readyAt(s(0)), lease: lease(s(20)), now: s(21), probe: s(21) },
    { name: 'the same lease renewal: unchanged', saved: { probeTimestamp: s(0), ready: cond('Ready', 'True', s(0)), leaseRenew: s(20) }, node: readyAt(s(0)), lease: lease(s(20)), now: s(60), probe: s(0) },
    { name: 'a lease alone keeps a node that never posted Ready alive', saved: { probeTimestamp: T0 }, node: node(undefined), lease: lease(s(70)), now: s(71), probe: s(71) },
  ];
  for (const r of rows) {
    it(r.name, () => assert.equal(observeNodeHealth(r.saved, r.node, r.lease, r.now).probeTimestamp, r.probe));
  }
});

describe('nodeHealthVerdict: conditions go Unknown past the grace period', () => {
  const full = [cond('Ready', 'True', s(0)), cond('MemoryPressure', 'False', s(0)), cond('DiskPressure', 'False', s(0)), cond('PIDPressure', 'False', s(0)), cond('NetworkUnavailable', 'False', s(0))];
  it('within the grace period nothing is written', () => {
    const v = nodeHealthVerdict(node(full), { probeTimestamp: s(0) }, s(50), grace);
    assert.deepEqual(v, { observedReady: 'True', currentReady: 'True' });
  });
  it('past it the kubelet conditions become Unknown with NodeStatusUnknown, heartbeats kept; NetworkUnavailable is left alone', () => {
    const v = nodeHealthVerdict(node(full), { probeTimestamp: s(0) }, s(51), grace);
    assert.equal(v.observedReady, 'True');
    assert.equal(v.currentReady, 'Unknown');
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const c = v.conditions!.find((x) => x.type === type)!;
      assert.deepEqual(c, { type, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: metaTime(s(0)), lastTransitionTime: metaTime(s(51)) });
    }
    assert.deepEqual(v.conditions!.find((x) => x.type === 'NetworkUnavailable'), full[4]);
  });
  it('a node already Unknown is not written again', () => {
    const v = nodeHealthVerdict(node(nodeHealthVerdict(node(full), { probeTimestamp: s(0) }, s(51), grace).conditions), { probeTimestamp: s(0) }, s(80), grace);
    assert.deepEqual(v, { observedReady: 'Unknown', currentReady: 'Unknown' });
  });
  it('a node that never posted status gets the startup grace period, then NodeStatusNeverUpdated conditions', () => {
    assert.equal(nodeHealthVerdict(node(undefined), { probeTimestamp: T0 }, s(60), grace).conditions, undefined);
    const v = nodeHealthVerdict(node(undefined), { probeTimestamp: T0 }, s(61), grace);
    assert.deepEqual(v.conditions!.map((c) => [c.type, c.status, c.reason, c.message, c.lastHeartbeatTime]), ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((t) => [t, 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.', metaTime(T0)]));
  });
  it('a not-ready node goes Unknown too (Ready False → Unknown)', () => {
    const v = nodeHealthVerdict(node([cond('Ready', 'False', s(0))]), { probeTimestamp: s(0) }, s(51), grace);
    assert.equal(v.observedReady, 'False');
    assert.equal(v.currentReady, 'Unknown');
  });
});

describe('computeZoneState', () => {
  const rows: [string, string[], string][] = [
    ['all ready: normal', ['True', 'True'], 'Normal'],
    ['one of two not ready: normal', ['True', 'Unknown'], 'Normal'],
    ['none ready: full disruption', ['Unknown', 'False'], 'FullDisruption'],
    ['a lone node not ready: full disruption', ['Unknown'], 'FullDisruption'],
    ['three of five not ready (60% ≥ 55%): partial disruption', ['True', 'True', 'Unknown', 'Unknown', 'False'], 'PartialDisruption'],
    ['two not ready never make a partial disruption', ['True', 'Unknown', 'Unknown'], 'Normal'],
    ['three of six not ready (50%): normal', ['True', 'True', 'True', 'Unknown', 'Unknown', 'Unknown'], 'Normal'],
  ];
  for (const [name, statuses, want] of rows) it(name, () => assert.equal(computeZoneState(statuses), want));
  it('zoneKey reads the region and zone labels; none: the empty zone', () => {
    assert.equal(zoneKey(node([])), '');
    assert.equal(zoneKey(node([], { labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' } })), 'r:\x00:z');
  });
});

describe('tainting rates per zone', () => {
  const rows: [string, 'Normal' | 'PartialDisruption' | 'FullDisruption', number, number][] = [
    ['a healthy zone: --node-eviction-rate', 'Normal', 3, 0.1],
    ['a zone in full disruption (another zone is not): the healthy rate', 'FullDisruption', 3, 0.1],
    ['a small zone in partial disruption: none', 'PartialDisruption', 50, 0],
    ['a large zone in partial disruption: --secondary-node-eviction-rate', 'PartialDisruption', 51, 0.01],
  ];
  for (const [name, state, size, rate] of rows) it(name, () => assert.equal(zoneTaintRate(state, size), rate));
  it('the limiter grants one at once, then one per 1/rate seconds', () => {
    const l = new ZoneLimiter(0.1, s(0));
    assert.deepEqual([l.tryAccept(s(0)), l.tryAccept(s(1)), l.tryAccept(s(9)), l.tryAccept(s(11)), l.tryAccept(s(12))], [true, false, false, true, false]);
  });
  it('a rate of 0 never grants', () => assert.equal(new ZoneLimiter(0, s(0)).tryAccept(s(1000)), false));
  it('the threshold is a flag', () => assert.equal(computeZoneState(['True', 'Unknown', 'Unknown', 'Unknown'], 0.8), 'Normal'));
});

describe('the NoExecute taint follows the observed Ready status', () => {
  it('False: not-ready; Unknown: unreachable; True: none', () => {
    assert.deepEqual(['False', 'Unknown', 'True'].map(noExecuteTaintFor), ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', undefined]);
  });
  const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: metaTime(s(1)) };
  const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: metaTime(s(1)) };
  const other: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' };
  const noSchedule: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' };
  const rows: { name: string; have: Taint[]; want: string | undefined; out: Taint[] | undefined }[] = [
    { name: 'added, stamped now, after the others', have: [other, noSchedule], want: 'node.kubernetes.io/unreachable', out: [other, noSchedule, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: metaTime(s(9)) }] },
    { name: 'already there: no write (timeAdded kept)', have: [unreachable], want: 'node.kubernetes.io/unreachable', out: undefined },
    { name: 'swapped: unreachable replaces not-ready', have: [notReady, other], want: 'node.kubernetes.io/unreachable', out: [other, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: metaTime(s(9)) }] },
    { name: 'a ready node loses both, the others stay', have: [notReady, unreachable, other, noSchedule], want: undefined, out: [other, noSchedule] },
    { name: 'a ready node without them: no write', have: [other], want: undefined, out: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(withNoExecuteTaint(r.have, r.want, s(9)), r.out));
});

describe('MarkPodsNotReady', () => {
  const pod = (ready?: string): Pod => ({ metadata: { name: 'p' }, spec: { containers: [] }, status: ready ? { conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: ready, lastTransitionTime: metaTime(T0) }] } : {} }) as Pod;
  it('a Ready pod: Ready False, transition stamped now, the rest kept', () => {
    assert.deepEqual(podNotReadyConditions(pod('True'), s(3)), [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'False', lastTransitionTime: metaTime(s(3)) }]);
  });
  it('already not Ready, or no Ready condition: nothing to write', () => {
    assert.equal(podNotReadyConditions(pod('False'), s(3)), undefined);
    assert.equal(podNotReadyConditions(pod(), s(3)), undefined);
  });
});
