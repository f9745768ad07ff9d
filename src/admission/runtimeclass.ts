// The RuntimeClass admission plugin (plugin/pkg/admission/runtimeclass/admission.go), on pod
// create only. Its mutating half runs after DefaultTolerationSeconds (upstream's plugin order):
// a runtimeClassName that names no class is refused, the class's overhead.podFixed becomes the
// pod's spec.overhead (a pod that set a different one is refused), and the class's
// scheduling.nodeSelector and tolerations are merged into the pod's (a nodeSelector key the pod
// sets to another value is refused). Its validating half runs after PodSecurity, before
// ResourceQuota: the pod's overhead must be the class's, and a pod without such a class may set
// none. The messages are upstream's; the caller wraps them as `pods "x" is forbidden: …`.
// MergeTolerations is pkg/util/tolerations': a toleration another one covers is dropped.

import { canonicalList } from '../api/defaults.js';
import { parseResourceList } from '../api/resourcelist.js';
import type { Pod, ResourceList, RuntimeClass, Toleration } from '../api/types.js';

export const overheadMismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
export const overheadWithoutClass = 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';
export const runtimeClassNotFound = (name: string) => `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`;

const isSet = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** The class a pod names: undefined without runtimeClassName, null when no class has that name. */
export function podRuntimeClass(pod: Pod, classes: readonly RuntimeClass[]): RuntimeClass | null | undefined {
  const name = pod.spec?.runtimeClassName;
  if (!isSet(name)) return undefined;
  return classes.find((c) => c.metadata?.name === name) ?? null;
}

/** apiequality.Semantic.DeepEqual of two ResourceLists: the same names, equal quantities (nil and empty alike). */
export function sameResourceList(a: ResourceList | null | undefined, b: ResourceList | null | undefined): boolean {
  let pa, pb;
  try {
    pa = parseResourceList(a ?? undefined);
    pb = parseResourceList(b ?? undefined);
  } catch {
    return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
  }
  if (pa.size !== pb.size) return false;
  for (const [k, q] of pa) {
    const o = pb.get(k);
    if (!o || o.cmp(q) !== 0) return false;
  }
  return true;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function sameToleration(a: Toleration, b: Toleration): boolean {
  return str(a.key) === str(b.key) && str(a.operator) === str(b.operator) && str(a.value) === str(b.value) && str(a.effect) === str(b.effect) && (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null);
}

/** isSuperset: whether `ss` tolerates everything `t` does. */
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(t, ss)) return true;
  if (str(t.key) !== str(ss.key) && (str(ss.key) !== '' || ss.operator !== 'Exists')) return false;
  if (str(t.effect) !== str(ss.effect) && str(ss.effect) !== '') return false;
  if (ss.effect === 'NoExecute' && isSet(ss.tolerationSeconds)) {
    if (!isSet(t.tolerationSeconds) || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (str(ss.operator)) {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && str(t.value) === str(ss.value);
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** MergeTolerations: both lists in order, less what another entry covers (of equal ones the first stays). */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second].map((t) => t ?? {});
  const merged: Toleration[] = [];
  next: for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    for (const t2 of merged) if (isSuperset(t2, t)) continue next;
    for (const t2 of all.slice(i + 1)) if (!sameToleration(t, t2) && isSuperset(t2, t)) continue next;
    merged.push(t);
  }
  return merged;
}

export interface RuntimeClassAdmission {
  pod: Pod;
  /** Upstream's message when the pod is refused. */
  forbidden?: string;
}

/**
 * The mutating half (Admit: setOverhead, then setScheduling). The pod is changed in place
 * when `inPlace` (the caller owns it), else copied where it changes.
 */
export function admitPodRuntimeClass(pod: Pod, classes: readonly RuntimeClass[], inPlace = false): RuntimeClassAdmission {
  const rc = podRuntimeClass(pod, classes);
  if (rc === undefined) return { pod };
  if (rc === null) return { pod, forbidden: runtimeClassNotFound(pod.spec.runtimeClassName!) };
  const out: Pod = inPlace ? pod : { ...pod, spec: { ...pod.spec } };
  const podFixed = rc.overhead ? canonicalList(rc.overhead.podFixed ?? undefined) : undefined;
  if (isSet(rc.overhead)) {
    if (isSet(out.spec.overhead) && !sameResourceList(podFixed, out.spec.overhead)) return { pod, forbidden: overheadMismatch };
    if (podFixed) out.spec.overhead = { ...podFixed };
    else delete out.spec.overhead;
  }
  const scheduling = rc.scheduling;
  if (!isSet(scheduling)) return { pod: out };
  const classSelector = scheduling.nodeSelector ?? undefined;
  let selector = out.spec.nodeSelector ?? undefined;
  if (selector === undefined) {
    selector = classSelector ? { ...classSelector } : undefined;
  } else {
    selector = { ...selector };
    for (const [key, value] of Object.entries(classSelector ?? {})) {
      const podValue = selector[key];
      if (podValue !== undefined && podValue !== value) {
        return { pod, forbidden: `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}` };
      }
      selector[key] = value;
    }
  }
  const tolerations = mergeTolerations(out.spec.tolerations ?? [], scheduling.tolerations ?? []);
  if (selector) out.spec.nodeSelector = selector;
  else delete out.spec.nodeSelector;
  if (tolerations.length) out.spec.tolerations = tolerations;
  else delete out.spec.tolerations;
  return { pod: out };
}

/** The validating half (Validate: validateOverhead): undefined when the pod may be created. */
export function validatePodRuntimeClass(pod: Pod, classes: readonly RuntimeClass[]): string | undefined {
  const rc = podRuntimeClass(pod, classes);
  if (rc === null) return runtimeClassNotFound(pod.spec.runtimeClassName!);
  if (rc && isSet(rc.overhead)) {
    return sameResourceList(rc.overhead.podFixed, pod.spec.overhead) ? undefined : overheadMismatch;
  }
  return isSet(pod.spec.overhead) ? overheadWithoutClass : undefined;
}
