// The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds):
// a pod that does not already tolerate `node.kubernetes.io/not-ready:NoExecute` or
// `node.kubernetes.io/unreachable:NoExecute` gets a toleration for it with tolerationSeconds
// from kube-apiserver's --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds (300 each). It is how a pod on a node that stopped
// reporting is evicted by the taint eviction controller five minutes later, not at once.
// Upstream runs it on pod create and update (not on subresources), after Priority.

import type { Pod, Toleration } from '../api/types.js';

export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';

export interface DefaultTolerationSeconds {
  notReady: number;
  unreachable: number;
}

/** kube-apiserver's defaults for both flags. */
export const defaultTolerationSeconds: DefaultTolerationSeconds = { notReady: 300, unreachable: 300 };

/**
 * An empty key tolerates every key, an empty effect every effect (upstream's test, not the full
 * matcher). Admission runs before validation: a null entry (a client's mistake) is left for
 * validation to name.
 */
function toleratesNoExecute(tolerations: readonly (Toleration | null)[], key: string): boolean {
  for (const t of tolerations) {
    if (t && ((t.key ?? '') === key || (t.key ?? '') === '') && ((t.effect ?? '') === 'NoExecute' || (t.effect ?? '') === '')) return true;
  }
  return false;
}

/**
 * The pod with the missing default tolerations appended: a new object when one is added, or
 * with `inPlace` (the caller owns the pod) the pod itself.
 */
export function admitDefaultTolerationSeconds(pod: Pod, seconds: DefaultTolerationSeconds = defaultTolerationSeconds, inPlace = false): Pod {
  if (!pod.spec) return pod;
  const have = pod.spec.tolerations ?? [];
  const notReady = !toleratesNoExecute(have, TaintNodeNotReady);
  const unreachable = !toleratesNoExecute(have, TaintNodeUnreachable);
  if (!notReady && !unreachable) return pod;
  const tolerations = inPlace ? (pod.spec.tolerations ??= []) : [...have];
  if (notReady) tolerations.push({ key: TaintNodeNotReady, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds.notReady });
  if (unreachable) tolerations.push({ key: TaintNodeUnreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds.unreachable });
  return inPlace ? pod : { ...pod, spec: { ...pod.spec, tolerations } };
}
