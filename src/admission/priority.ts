// The Priority admission plugin (plugin/pkg/admission/priority/admission.go), pure: on pod
// create, priorityClassName resolves to spec.priority and spec.preemptionPolicy (no name: the
// globalDefault class, which also fills in priorityClassName, else priority 0 and
// PreemptLowerPriority); a priority or preemptionPolicy the user set must match what the class
// gives. On pod update, a priority or preemptionPolicy left out keeps the stored one. On
// PriorityClass create and update, at most one class may be globalDefault. Upstream's current
// plugin allows the system classes in every namespace (ResourceQuota is the way to limit them),
// so Bulkhead does too. The callers pass the PriorityClasses that exist (the server's watch
// cache, or the classes in a plan's input plus the built-in ones).

import type { Pod, PriorityClass } from '../api/types.js';
import { systemPriorityClasses } from '../api/validation/index.js';

/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const defaultPriorityWhenNoDefaultClassExists = 0;
export const preemptLowerPriority = 'PreemptLowerPriority';

/** The built-in classes as the API server stores them (defaulted, preemptionPolicy included). */
export function builtInPriorityClasses(): PriorityClass[] {
  return systemPriorityClasses.map((c) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
    preemptionPolicy: preemptLowerPriority,
  }));
}

/** SetDefaults_PriorityClass, plus Go's zero value for a missing `value`. */
export function defaultPriorityClassFields(pc: PriorityClass): PriorityClass {
  return { ...pc, value: pc.value ?? 0, preemptionPolicy: pc.preemptionPolicy ?? preemptLowerPriority };
}

/** getDefaultPriorityClass: the globalDefault class; if a race left several, the lowest value. */
export function globalDefaultClass(classes: readonly PriorityClass[]): PriorityClass | undefined {
  let found: PriorityClass | undefined;
  for (const c of classes) if (c.globalDefault && (!found || (found.value ?? 0) > (c.value ?? 0))) found = c;
  return found;
}

export type PodPriorityResult = { pod: Pod; forbidden?: undefined } | { pod?: undefined; forbidden: string };

/**
 * admitPod for a create: the pod with priorityClassName, priority and preemptionPolicy as the
 * plugin leaves them, or the reason it is forbidden (the text after `pods "x" is forbidden: `).
 */
export function admitPodPriority(pod: Pod, classes: readonly PriorityClass[], inPlace = false): PodPriorityResult {
  const spec = pod.spec ?? ({} as Pod['spec']);
  let className = spec.priorityClassName ?? '';
  let priority: number;
  let preemptionPolicy: string | undefined;
  if (className === '') {
    const dpc = globalDefaultClass(classes);
    if (dpc) {
      className = dpc.metadata.name ?? '';
      priority = dpc.value ?? 0;
      preemptionPolicy = dpc.preemptionPolicy;
    } else {
      priority = defaultPriorityWhenNoDefaultClassExists;
      preemptionPolicy = preemptLowerPriority;
    }
  } else {
    const pc = classes.find((c) => c.metadata.name === className);
    if (!pc) return { forbidden: `no PriorityClass with name ${className} was found` };
    priority = pc.value ?? 0;
    preemptionPolicy = pc.preemptionPolicy;
  }
  if (typeof spec.priority === 'number' && spec.priority !== priority) {
    return { forbidden: `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name` };
  }
  // inPlace: the caller owns the pod (admitPodCreate's defaulted copy), which is set in place
  // once nothing can refuse it; the same fields, in the same order, as the copy would have.
  if (inPlace && pod.spec) {
    if (preemptionPolicy !== undefined && spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== preemptionPolicy) {
      return { forbidden: preemptionForbidden(spec.preemptionPolicy, preemptionPolicy) };
    }
    spec.priority = priority;
    if (className !== '') spec.priorityClassName = className;
    if (preemptionPolicy !== undefined) spec.preemptionPolicy = preemptionPolicy;
    return { pod };
  }
  const next: Pod['spec'] = { ...spec, priority };
  if (className !== '') next.priorityClassName = className;
  if (preemptionPolicy !== undefined) {
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== preemptionPolicy) {
      return { forbidden: preemptionForbidden(spec.preemptionPolicy, preemptionPolicy) };
    }
    next.preemptionPolicy = preemptionPolicy;
  }
  return { pod: { ...pod, spec: next } };
}

function preemptionForbidden(given: string, computed: string): string {
  return `the string value of PreemptionPolicy (${given}) must not be provided in pod spec; priority admission controller computed ${computed} from the given PriorityClass name`;
}

/** admitPod for an update: what the create set stays when the new object leaves it out. */
export function keepPodPriority(pod: Pod, old: Pod): Pod {
  if (!pod.spec || !old.spec) return pod;
  const keepPriority = pod.spec.priority === undefined && old.spec.priority !== undefined;
  const keepPolicy = pod.spec.preemptionPolicy === undefined && old.spec.preemptionPolicy !== undefined;
  if (!keepPriority && !keepPolicy) return pod;
  return {
    ...pod,
    spec: {
      ...pod.spec,
      ...(keepPriority ? { priority: old.spec.priority } : {}),
      ...(keepPolicy ? { preemptionPolicy: old.spec.preemptionPolicy } : {}),
    },
  };
}

/**
 * validatePriorityClass of the plugin: a class marked globalDefault is refused while another
 * one is (an update of the default class itself is fine). The reason, or undefined.
 */
export function admitPriorityClass(pc: PriorityClass, classes: readonly PriorityClass[], operation: 'create' | 'update'): string | undefined {
  if (!pc.globalDefault) return undefined;
  const dpc = globalDefaultClass(classes);
  if (!dpc) return undefined;
  if (operation === 'create' || dpc.metadata.name !== pc.metadata.name) {
    return `PriorityClass ${dpc.metadata.name} is already marked as default. Only one default can exist`;
  }
  return undefined;
}
