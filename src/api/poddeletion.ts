// How a DELETE of a pod proceeds, as the generic registry's BeforeDelete and the pod strategy's
// CheckGracefulDelete decide it (apiserver/pkg/registry/rest/delete.go,
// pkg/registry/core/pod/strategy.go). Pure: the strategy applies the decision.
//
// - A negative requested grace period counts as 1 second.
// - A pod not yet being deleted gets the requested grace, else spec.terminationGracePeriodSeconds
//   (defaulted to 30 at creation; none at all is 0); an unscheduled pod, or one that already finished
//   (Succeeded/Failed), gets 0. Grace 0 deletes at once; otherwise the pod is marked with
//   deletionTimestamp = now + grace and deletionGracePeriodSeconds = grace, and its generation
//   goes up by one; the node stops its containers and deletes it with grace 0.
// - A pod already being deleted keeps its mark unless the request asks for a shorter grace: then
//   the deadline moves to (old deadline − old grace + new grace), the grace becomes the new one,
//   and 0 deletes at once. A mark with grace 0 (or none) is deleted at once.

import type { Pod } from './types.js';

export type PodDeleteDecision =
  /** Remove the pod from storage now. */
  | { action: 'delete' }
  /** A deletion with an equal or shorter grace period is already under way: nothing changes. */
  | { action: 'pending' }
  /** Store the pod with these deletion fields (and the generation bumped when `bumpGeneration`). */
  | { action: 'mark'; deletionTimestamp: Date; deletionGracePeriodSeconds: number; bumpGeneration: boolean };

/** CheckGracefulDelete: the grace period a first DELETE gives the pod. */
export function podGracePeriod(pod: Pod, requested: number | undefined): number {
  // No grace asked and none in the spec is 0, as upstream's `period := int64(0)`; a stored pod has
  // the defaulted 30 in its spec anyway.
  let period = requested ?? pod.spec.terminationGracePeriodSeconds ?? 0;
  if (!pod.spec.nodeName) period = 0;
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') period = 0;
  return period < 0 ? 1 : period;
}

export function podDeleteDecision(pod: Pod, requestedGrace: number | undefined, now: Date): PodDeleteDecision {
  const requested = requestedGrace !== undefined && requestedGrace < 0 ? 1 : requestedGrace;
  const marked = pod.metadata.deletionTimestamp;
  if (marked) {
    let current = pod.metadata.deletionGracePeriodSeconds;
    if (current !== undefined && current !== null && current < 0) current = 1;
    if (current === undefined || current === null || current === 0) return { action: 'delete' };
    if (requested === undefined || requested >= current) return { action: 'pending' };
    if (requested === 0) return { action: 'delete' };
    const deadline = new Date(Date.parse(marked) - current * 1000 + requested * 1000);
    return { action: 'mark', deletionTimestamp: deadline, deletionGracePeriodSeconds: requested, bumpGeneration: false };
  }
  const grace = podGracePeriod(pod, requested);
  if (grace === 0) return { action: 'delete' };
  return { action: 'mark', deletionTimestamp: new Date(now.getTime() + grace * 1000), deletionGracePeriodSeconds: grace, bumpGeneration: true };
}
