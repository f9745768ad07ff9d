// Pods as every workload controller sees them (pkg/controller/controller_utils.go IsPodActive,
// ActivePodsWithRanks; pkg/api/v1/pod/util.go IsPodReady, IsPodAvailable;
// pkg/controller/replicaset/replica_set.go getPodsToDelete and
// getPodsRankedByRelatedPodsOnSameNode): which pods count, which are ready and available, and
// which go first when a ReplicaSet has too many. The deletion order, most deletable first:
//   1. unassigned before assigned
//   2. Pending before Unknown before Running
//   3. not ready before ready
//   4. lower `controller.kubernetes.io/pod-deletion-cost` first (PodDeletionCost, on by default)
//   5. more related pods on the same node first (doubled up)
//   6. ready for less time first
//   7. more container restarts first (regular containers, then sidecars)
//   8. newer first (no creation time before any)
// Times in 6 and 8 compare in log2 buckets of their age, a tie broken by uid, as upstream does
// with LogarithmicScaleDown (on by default since 1.22, GA in 1.31): pods of about the same
// age are removed in an arbitrary but fixed order rather than strictly newest first.

import { parsePodDeletionCost, podDeletionCostAnnotation } from '../api/poddeletioncost.js';
import type { Pod } from '../api/types.js';

export { podDeletionCostAnnotation };

/** Neither finished nor being deleted. */
export function isPodActive(p: Pod): boolean {
  return p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata?.deletionTimestamp;
}

/** GetPodReadyCondition: the first condition of type Ready (a second one is never consulted). */
function readyCondition(p: Pod) {
  return p.status?.conditions?.find((c) => c.type === 'Ready');
}

/** IsPodReady: the (first) Ready condition is True. */
export function isPodReady(p: Pod): boolean {
  return readyCondition(p)?.status === 'True';
}

/** When the pod became ready (the Ready condition's lastTransitionTime), if it is. */
export function podReadyTime(p: Pod): string | undefined {
  return isPodReady(p) ? readyCondition(p)?.lastTransitionTime : undefined;
}

/** Ready for at least minReadySeconds at `now` (IsPodAvailable: strictly before now). */
export function isPodAvailable(p: Pod, minReadySeconds: number, now: Date): boolean {
  if (!isPodReady(p)) return false;
  if (!minReadySeconds) return true;
  const since = readyCondition(p)?.lastTransitionTime;
  if (!since) return false;
  return Date.parse(since) + minReadySeconds * 1000 < now.getTime();
}

/** The pod-deletion-cost annotation as an int32; absent or invalid is 0 (getPodDeletionCost). */
export function podDeletionCost(p: Pod): number {
  const v = p.metadata?.annotations?.[podDeletionCostAnnotation];
  return typeof v === 'string' ? (parsePodDeletionCost(v) ?? 0) : 0;
}

const phaseOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const ordinal = (p: Pod) => phaseOrdinal[p.status?.phase ?? ''] ?? 0;

function maxRestarts(p: Pod): { regular: number; sidecar: number } {
  let regular = 0;
  for (const c of p.status?.containerStatuses ?? []) regular = Math.max(regular, c.restartCount ?? 0);
  const sidecars = new Set((p.spec?.initContainers ?? []).filter((c) => (c as { restartPolicy?: string }).restartPolicy === 'Always').map((c) => c.name));
  let sidecar = 0;
  for (const c of p.status?.initContainerStatuses ?? []) if (sidecars.has(c.name)) sidecar = Math.max(sidecar, c.restartCount ?? 0);
  return { regular, sidecar };
}

/** afterOrZero: an absent time first, else the later first. */
function afterOrZero(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return !a;
  return Date.parse(a) > Date.parse(b);
}

/** logarithmicRankDiff: the difference of floor(log2(age in ns)), -1 for an age not above zero. */
function logRankDiff(a: string, b: string, now: Date): number {
  const rank = (t: string) => {
    const ns = (now.getTime() - Date.parse(t)) * 1e6;
    return ns > 0 ? Math.trunc(Math.log2(ns)) : -1;
  };
  return rank(a) - rank(b);
}

/** Compares two times as step 6 and 8 do: true when `a`'s pod goes first. */
function newerFirst(a: Pod, ta: string | undefined, b: Pod, tb: string | undefined, now: Date | undefined): boolean {
  if (!now || !ta || !tb) return afterOrZero(ta, tb);
  const d = logRankDiff(ta, tb, now);
  if (d === 0) return (a.metadata?.uid ?? '') < (b.metadata?.uid ?? '');
  return d < 0;
}

/** ActivePodsWithRanks.Less: true when pod `a` (rank ra) is deleted before pod `b` (rank rb). */
export function deleteBefore(a: Pod, ra: number, b: Pod, rb: number, now?: Date): boolean {
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '';
  if (ordinal(a) !== ordinal(b)) return ordinal(a) < ordinal(b);
  if (isPodReady(a) !== isPodReady(b)) return !isPodReady(a);
  const ca = podDeletionCost(a);
  const cb = podDeletionCost(b);
  if (ca !== cb) return ca < cb;
  if (ra !== rb) return ra > rb;
  if (isPodReady(a) && isPodReady(b)) {
    const ta = podReadyTime(a);
    const tb = podReadyTime(b);
    if ((ta ? Date.parse(ta) : 0) !== (tb ? Date.parse(tb) : 0)) return newerFirst(a, ta, b, tb, now);
  }
  const xa = maxRestarts(a);
  const xb = maxRestarts(b);
  if (xa.regular !== xb.regular) return xa.regular > xb.regular;
  if (xa.sidecar !== xb.sidecar) return xa.sidecar > xb.sidecar;
  const sa = a.metadata?.creationTimestamp;
  const sb = b.metadata?.creationTimestamp;
  if ((sa ? Date.parse(sa) : 0) !== (sb ? Date.parse(sb) : 0)) return newerFirst(a, sa, b, sb, now);
  return false;
}

/** getPodsRankedByRelatedPodsOnSameNode: each pod's rank is how many active related pods share its node. */
export function ranksByRelatedPodsOnSameNode(pods: readonly Pod[], related: readonly Pod[]): number[] {
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(p.spec?.nodeName ?? '', (onNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
  return pods.map((p) => onNode.get(p.spec?.nodeName ?? '') ?? 0);
}

/** getPodsToDelete: the first `diff` pods in deletion order (all of them, unsorted, when diff covers every pod). */
export function podsToDelete(pods: readonly Pod[], related: readonly Pod[], diff: number, now?: Date): Pod[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  const ranks = ranksByRelatedPodsOnSameNode(pods, related);
  const order = pods.map((p, i) => ({ p, r: ranks[i]! }));
  order.sort((x, y) => (deleteBefore(x.p, x.r, y.p, y.r, now) ? -1 : deleteBefore(y.p, y.r, x.p, x.r, now) ? 1 : 0));
  return order.slice(0, diff).map((x) => x.p);
}
