// The node lifecycle controller's decisions as pure functions (kube-controller-manager's
// pkg/controller/nodelifecycle node_lifecycle_controller.go: tryUpdateNodeHealth,
// processTaintBaseEviction, ComputeZoneState, and pkg/controller/util/node MarkPodsNotReady).
// A node is heard from when its Ready condition's lastHeartbeatTime changes or its Lease in
// kube-node-lease is renewed; when neither happened for the grace period (the startup grace
// period while it never posted a Ready condition), the conditions the kubelet owns become
// Unknown. The NoExecute taint follows the Ready condition the pass observed: not-ready for
// False, unreachable for Unknown, none for True. Deliberate omissions: the per-zone eviction
// rate limits (--node-eviction-rate, --secondary-node-eviction-rate) are not applied, a zone in
// partial disruption is not tainted at all whatever its size (upstream's rule for zones of at
// most --large-cluster-size-threshold nodes), and no RegisteredNode/RemovingNode events.

import type { Lease, Node, NodeCondition, Pod, PodCondition, Taint } from '../api/types.js';
import { metaTime } from '../api/metatime.js';

export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';

/** The conditions the controller marks Unknown (NetworkUnavailable is the network plugin's). */
export const kubeletConditionTypes = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

export const reasonNodeStatusUnknown = 'NodeStatusUnknown';
export const messageNodeStatusUnknown = 'Kubelet stopped posting node status.';
export const reasonNodeStatusNeverUpdated = 'NodeStatusNeverUpdated';
export const messageNodeStatusNeverUpdated = 'Kubelet never posted node status.';

/** What the controller remembers of a node between passes (nodeHealthData). */
export interface NodeHealth {
  /** When the node was last heard from (ms, the controller's clock). */
  probeTimestamp: number;
  /** The Ready condition as last seen (undefined: none posted). */
  ready?: NodeCondition;
  /** The Lease's renewTime as last seen (ms). */
  leaseRenew?: number;
}

export interface GracePeriods {
  /** --node-monitor-grace-period (upstream 50 s). */
  monitorMs: number;
  /** --node-startup-grace-period (upstream 1 m): for a node that never posted Ready. */
  startupMs: number;
}

/** A metav1.Time or MicroTime in ms (microseconds dropped). */
export function parseTime(s: string | undefined | null): number | undefined {
  if (!s) return undefined;
  const ms = Date.parse(s.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(ms) ? undefined : ms;
}

function readyCondition(node: Node): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}

/**
 * The node's health after this observation: heard from now if its Ready heartbeat changed (or
 * first seen), or its Lease was renewed since last seen. A node that never posted Ready counts
 * from its creation.
 */
export function observeNodeHealth(saved: NodeHealth | undefined, node: Node, lease: Lease | undefined, now: number): NodeHealth {
  const ready = readyCondition(node);
  let health: NodeHealth;
  if (!ready) {
    const created = parseTime(node.metadata.creationTimestamp) ?? now;
    health = saved ? { ...saved, ready: undefined } : { probeTimestamp: created };
  } else if (!saved || !saved.ready || saved.ready.lastHeartbeatTime !== ready.lastHeartbeatTime) {
    health = { probeTimestamp: now, ready, leaseRenew: saved?.leaseRenew };
  } else {
    health = { ...saved, ready };
  }
  const renew = parseTime(lease?.spec?.renewTime);
  if (renew !== undefined && (health.leaseRenew === undefined || health.leaseRenew < renew)) {
    health = { ...health, leaseRenew: renew, probeTimestamp: now };
  }
  return health;
}

export interface HealthVerdict {
  /** The Ready status this pass started from ('Unknown' when none was posted). */
  observedReady: string;
  /** The Ready status after this pass. */
  currentReady: string;
  /** The conditions to write with UpdateStatus, when the Ready condition changed. */
  conditions?: NodeCondition[];
}

/**
 * tryUpdateNodeHealth's decision: past the grace period, every kubelet condition that is not
 * Unknown becomes Unknown (keeping its lastHeartbeatTime), a missing one is added as never
 * updated; the status is written when the Ready condition changed.
 */
export function nodeHealthVerdict(node: Node, health: NodeHealth, now: number, grace: GracePeriods): HealthVerdict {
  const ready = readyCondition(node);
  const observedReady = ready?.status ?? 'Unknown';
  const period = ready ? grace.monitorMs : grace.startupMs;
  if (!(now > health.probeTimestamp + period)) return { observedReady, currentReady: observedReady };
  const stamp = metaTime(now);
  const conditions = (node.status?.conditions ?? []).map((c) => ({ ...c }));
  for (const type of kubeletConditionTypes) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        lastHeartbeatTime: node.metadata.creationTimestamp,
        lastTransitionTime: stamp,
        reason: reasonNodeStatusNeverUpdated,
        message: messageNodeStatusNeverUpdated,
      });
    } else if (c.status !== 'Unknown') {
      Object.assign(c, { status: 'Unknown', reason: reasonNodeStatusUnknown, message: messageNodeStatusUnknown, lastTransitionTime: stamp });
    }
  }
  const after = conditions.find((c) => c.type === 'Ready')!;
  const changed = JSON.stringify(after) !== JSON.stringify(ready);
  return { observedReady, currentReady: after.status, ...(changed ? { conditions } : {}) };
}

export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface ZoneRates {
  /** --node-eviction-rate: nodes tainted per second in a healthy zone (0.1). */
  evictionRate: number;
  /** --secondary-node-eviction-rate: the same in a large zone in partial disruption (0.01). */
  secondaryEvictionRate: number;
  /** --unhealthy-zone-threshold: the share of not-Ready nodes that makes a partial disruption (0.55). */
  unhealthyZoneThreshold: number;
  /** --large-cluster-size-threshold: above this many nodes a zone in partial disruption keeps tainting, slowly (50). */
  largeClusterSizeThreshold: number;
}

export const defaultZoneRates: ZoneRates = { evictionRate: 0.1, secondaryEvictionRate: 0.01, unhealthyZoneThreshold: 0.55, largeClusterSizeThreshold: 50 };

/** The zone a node counts in (GetZoneKey: region and zone labels). */
export function zoneKey(node: Node): string {
  const l = node.metadata.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** ComputeZoneState over the zone's Ready statuses. */
export function computeZoneState(readyStatuses: readonly string[], threshold = defaultZoneRates.unhealthyZoneThreshold): ZoneState {
  const ready = readyStatuses.filter((s) => s === 'True').length;
  const notReady = readyStatuses.length - ready;
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / readyStatuses.length >= threshold) return 'PartialDisruption';
  return 'Normal';
}

/**
 * setLimiterInZone's rate: a healthy zone, and one in full disruption while another zone is
 * not, taint at the eviction rate; a zone in partial disruption at the secondary rate if it is
 * large, else not at all (the fault is likelier the network's than the nodes').
 */
export function zoneTaintRate(state: ZoneState, zoneSize: number, rates: ZoneRates = defaultZoneRates): number {
  if (state !== 'PartialDisruption') return rates.evictionRate;
  return zoneSize > rates.largeClusterSizeThreshold ? rates.secondaryEvictionRate : 0;
}

/**
 * A zone's tainting limiter: a token bucket of burst 1 (flowcontrol's, full when made, as a
 * new limiter is on each zone state change); a rate of 0 or less never grants.
 */
export class ZoneLimiter {
  private tokens = 1;
  constructor(readonly qps: number, private last: number) {}

  tryAccept(now: number): boolean {
    if (!(this.qps > 0)) return false;
    this.tokens = Math.min(1, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The node controller's NoExecute taint for a Ready status (none for True). */
export function noExecuteTaintFor(readyStatus: string): string | undefined {
  if (readyStatus === 'False') return TaintNodeNotReady;
  if (readyStatus === 'Unknown') return TaintNodeUnreachable;
  return undefined;
}

const controllerKeys = new Set([TaintNodeNotReady, TaintNodeUnreachable]);
const isControllerTaint = (t: Taint) => t.effect === 'NoExecute' && controllerKeys.has(t.key);

/**
 * The node's taints with the controller's NoExecute taint set to `want` (undefined: removed);
 * undefined when nothing changes. The two are exclusive (SwapNodeControllerTaint); a kept taint
 * keeps its timeAdded, an added one is stamped now.
 */
export function withNoExecuteTaint(taints: readonly Taint[] | undefined, want: string | undefined, now: number): Taint[] | undefined {
  const current = taints ?? [];
  const have = current.filter(isControllerTaint);
  if (want === undefined ? have.length === 0 : have.length === 1 && have[0]!.key === want) return undefined;
  const kept = current.filter((t) => !isControllerTaint(t) || t.key === want);
  if (want !== undefined && !kept.some((t) => isControllerTaint(t))) kept.push({ key: want, effect: 'NoExecute', timeAdded: metaTime(now) });
  return kept;
}

/**
 * MarkPodsNotReady for one pod: its Ready condition set False (transition stamped now); undefined
 * when it has no Ready condition or it is already False.
 */
export function podNotReadyConditions(pod: Pod, now: number): PodCondition[] | undefined {
  const conditions = pod.status?.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  if (!ready || ready.status === 'False') return undefined;
  return conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: metaTime(now) } : c));
}
