// Updates through the pods/ephemeralcontainers subresource: upstream's
// ValidatePodEphemeralContainersUpdate (pkg/apis/core/validation/validation.go) and the strategy's
// dropNonEphemeralContainerUpdates (pkg/registry/core/pod/strategy.go). The new pod is validated
// as a whole (validatePodMetadataAndSpec: names unique across all containers, a target that names
// a container, no ports, probes, resources, lifecycle or subPath mounts); then ephemeral
// containers may only be added: an existing one may be neither removed nor changed. A static
// pod (one with a mirror annotation) takes none.
//
// Deviation: upstream follows "may not be changed" with cmp.Diff of the two Go structs; Bulkhead
// lists the changed fields instead, one `-` line (old) and one `+` line (new) each, as JSON.

import { fieldError, FieldPath, goQuote, type FieldError } from '../fielderrors.js';
import { stableJSON } from '../stablejson.js';
import type { EphemeralContainer, Pod } from '../types.js';
import { podSelectorOptionsForUpdate, validatePod, type PodValidationOptions } from './pod.js';
import { hasInvalidPodDeletionCost, mirrorPodAnnotation } from './podannotations.js';

export { mirrorPodAnnotation };

const specPath = FieldPath.root('spec').child('ephemeralContainers');

/**
 * The pod a write through the subresource stores (v1.32 dropNonEphemeralContainerUpdates, by way
 * of dropPodUpdates): the old pod, labels, annotations and finalizers included, with the new
 * pod's name, namespace, resourceVersion and uid, and its ephemeral containers.
 */
export function ephemeralContainersUpdate(newPod: Pod, oldPod: Pod): Pod {
  const meta = { ...oldPod.metadata };
  for (const k of ['name', 'namespace', 'resourceVersion', 'uid'] as const) {
    // Absent in the request, the store's own is kept (the store checks and assigns these anyway).
    const v = newPod.metadata?.[k];
    if (v !== undefined) meta[k] = v;
  }
  const spec = { ...oldPod.spec };
  const added = newPod.spec?.ephemeralContainers;
  // A null item decodes as the zero EphemeralContainer (validation then names what is missing).
  if (Array.isArray(added)) spec.ephemeralContainers = added.map((c) => (c && typeof c === 'object' && !Array.isArray(c) ? c : ({} as EphemeralContainer)));
  else if (added !== undefined && added !== null) spec.ephemeralContainers = added;
  else delete spec.ephemeralContainers;
  return { ...oldPod, metadata: meta, spec };
}

function changedFields(before: EphemeralContainer, after: EphemeralContainer): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const lines: string[] = [];
  for (const k of keys) {
    const a = (before as unknown as Record<string, unknown>)[k];
    const b = (after as unknown as Record<string, unknown>)[k];
    if (stableJSON(a) === stableJSON(b)) continue;
    if (a !== undefined) lines.push(`-\t${k}: ${stableJSON(a)}`);
    if (b !== undefined) lines.push(`+\t${k}: ${stableJSON(b)}`);
  }
  return lines.join('\n');
}

/** ValidatePodEphemeralContainersUpdate. */
export function validatePodEphemeralContainersUpdate(newPod: Pod, oldPod: Pod, opts: PodValidationOptions): FieldError[] {
  // As GetValidationOptionsFromPodSpecAndMeta: what the stored pod already got wrong (selectors, a
  // deletion cost) is let be.
  const updateOpts = podSelectorOptionsForUpdate(opts, oldPod?.spec);
  const errs = validatePod(newPod, hasInvalidPodDeletionCost(oldPod?.metadata?.annotations) ? { ...updateOpts, allowInvalidPodDeletionCost: true } : updateOpts);
  if (oldPod.metadata?.annotations?.[mirrorPodAnnotation] !== undefined) {
    return [fieldError.forbidden('', 'static pods do not support ephemeral containers')];
  }
  // Existing ephemeral containers may not be changed; a patch need not keep their order.
  const byName = new Map<string, EphemeralContainer>();
  for (const c of newPod.spec?.ephemeralContainers ?? []) byName.set(c?.name, c);
  for (const old of oldPod.spec?.ephemeralContainers ?? []) {
    const next = byName.get(old.name);
    if (!next) errs.push(fieldError.forbidden(specPath, `existing ephemeral containers ${goQuote(old.name)} may not be removed\n`));
    else if (stableJSON(old) !== stableJSON(next)) {
      errs.push(fieldError.forbidden(specPath, `existing ephemeral containers ${goQuote(old.name)} may not be changed\n${changedFields(old, next)}`));
    }
  }
  return errs;
}
