// Pod helpers every workload controller uses, as upstream keeps them in pkg/api/v1/pod
// (IsPodReady, IsPodAvailable), pkg/controller/controller_utils.go (GetPodFromTemplate,
// getPodsPrefix), k8s.io/apimachinery metav1.NewControllerRef / GetControllerOf,
// intstr.GetScaledValueFromIntOrPercent and pkg/controller/controller_ref_manager.go (ClaimPods:
// which pods a controller adopts, keeps or releases). Pure; the controller does the patches.
//
// Written for the StatefulSet and DaemonSet controllers; the ReplicaSet/Deployment controllers
// need the same rules, so this file is the one to unify with theirs.

import type { IntOrString, KubeObject, LabelSelector, OwnerReference, Pod, PodTemplateSpec } from '../api/types.js';
import { labelSelectorRequirements, matchesLabels } from '../api/selectors.js';

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * podutil.IsPodAvailable: ready, and ready for longer than minReadySeconds (strictly: the
 * transition plus minReadySeconds is before now). `nowMs` is the controller's clock.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const since = pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime;
  if (!since) return false;
  return Date.parse(since) + minReadySeconds * 1000 < nowMs;
}

/** When a pod ready but not yet available becomes available (ms), for a requeue; undefined if not waiting. */
export function availableAt(pod: Pod, minReadySeconds: number): number | undefined {
  if (!isPodReady(pod) || !minReadySeconds) return undefined;
  const since = pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime;
  return since ? Date.parse(since) + minReadySeconds * 1000 : undefined;
}

/** metav1.NewControllerRef. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata?.name ?? '', uid: owner.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** metav1.GetControllerOf: the owner reference with controller true. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** getPodsPrefix: `name-`, unless that is no valid generateName (longer than a name may be). */
export function podsPrefix(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return controllerName.length > 253 ? controllerName : prefix;
}

/**
 * GetPodFromTemplate: labels, annotations and finalizers of the template, `generateName` from the
 * owner's name, the controller reference, and a copy of the template's spec.
 */
export function podFromTemplate(template: PodTemplateSpec | undefined, ownerName: string, ref: OwnerReference): Pod {
  const t = structuredClone(template ?? {});
  const metadata: Pod['metadata'] = { generateName: podsPrefix(ownerName), ownerReferences: [ref] };
  if (t.metadata?.labels) metadata.labels = { ...t.metadata.labels };
  if (t.metadata?.annotations) metadata.annotations = { ...t.metadata.annotations };
  if (t.metadata?.finalizers?.length) metadata.finalizers = [...t.metadata.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: t.spec ?? { containers: [] } };
}

/**
 * intstr.GetScaledValueFromIntOrPercent: an integer as is; `N%` of total, rounded up or down.
 * Anything else is an error (validation refuses it first).
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean, fallback: IntOrString): number {
  const x = v ?? fallback;
  if (typeof x === 'number') return x;
  const m = /^(\d+)%$/.exec(x);
  if (!m) {
    if (/^\d+$/.test(x)) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
    throw new Error(`invalid value "${x}": must be an integer or percentage (e.g '5%')`);
  }
  const scaled = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** Whether a selector matches labels; an empty selector matches everything, a missing one nothing. */
export function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel) return false;
  return matchesLabels(labelSelectorRequirements(sel), labels);
}

/** What ClaimPods does with one pod for an owner. */
export type ClaimAction = 'own' | 'adopt' | 'release' | 'ignore';

/**
 * ClaimObject (controller_ref_manager.go): a pod controlled by the owner is kept while it matches
 * and released when it no longer does (unless the owner is going away); an orphan that matches
 * is adopted unless it or the owner is being deleted; anything controlled by another is left.
 * `filter` is the controller's extra test (StatefulSet: the name's parent is the set).
 */
export function claimPod(owner: KubeObject & { spec?: { selector?: LabelSelector } }, pod: Pod, filter: (p: Pod) => boolean = () => true): ClaimAction {
  const ref = controllerOf(pod);
  const matches = selectorMatches(owner.spec?.selector, pod.metadata.labels) && filter(pod);
  if (ref) {
    if (ref.uid !== owner.metadata?.uid) return 'ignore';
    if (matches) return 'own';
    if (owner.metadata?.deletionTimestamp) return 'ignore';
    return 'release';
  }
  if (owner.metadata?.deletionTimestamp || !matches) return 'ignore';
  if (pod.metadata.deletionTimestamp) return 'ignore';
  // Pods from another namespace cannot be owned.
  if (pod.metadata.namespace !== owner.metadata?.namespace) return 'ignore';
  return 'adopt';
}
