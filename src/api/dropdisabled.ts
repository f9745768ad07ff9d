// Fields behind a disabled feature gate are dropped from new objects, as the API server's
// dropDisabledFields does; unlike upstream (which drops silently) Bulkhead says so in a
// warning, because a user who wrote the field would otherwise not know it has no effect.

import type { FeatureGates } from './featuregates.js';
import { FieldPath } from './fielderrors.js';
import type { Container, Pod } from './types.js';
import { deepCopyJSON } from './deepcopy.js';

export interface DropResult {
  pod: Pod;
  warnings: string[];
}

export function droppedFieldWarning(path: string, gate: string): string {
  return `${path}: field dropped because the ${gate} feature gate is disabled`;
}

/**
 * Returns the pod without disabled fields (the input when nothing is dropped). A container's
 * resizePolicy goes without a warning while InPlacePodVerticalScaling is off, and spec.resources
 * while PodLevelResources is off (dropDisabledPodLevelResources), as upstream's
 * dropDisabledFields drops them: those gates and fields are Kubernetes' own, and a v1.32 server
 * says nothing of them.
 */
export function dropDisabledPodFields(pod: Pod, gates: Pick<FeatureGates, 'ContainerOOMKillMode' | 'ContainerUlimits' | 'InPlacePodVerticalScaling' | 'PodLevelResources'>): DropResult {
  // A pod without a spec is validation's to refuse (422), not this function's to trip on.
  if (!pod.spec || (gates.ContainerOOMKillMode && gates.ContainerUlimits && gates.InPlacePodVerticalScaling && gates.PodLevelResources)) return { pod, warnings: [] };
  const warnings: string[] = [];
  let copy: Pod | undefined;
  if (!gates.PodLevelResources && pod.spec.resources !== undefined) {
    copy = deepCopyJSON(pod);
    delete copy.spec.resources;
  }
  const spec = FieldPath.root('spec');
  for (const listName of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = (pod.spec as unknown as Record<string, Container[] | undefined>)[listName];
    if (!Array.isArray(list)) continue;
    list.forEach((c, i) => {
      const path = spec.child(listName).index(i);
      if (!gates.ContainerOOMKillMode && c?.oomKillMode !== undefined) {
        copy ??= deepCopyJSON(pod);
        delete (copy.spec as unknown as Record<string, Container[]>)[listName]![i]!.oomKillMode;
        warnings.push(droppedFieldWarning(path.child('oomKillMode').toString(), 'ContainerOOMKillMode'));
      }
      if (!gates.InPlacePodVerticalScaling && c?.resizePolicy !== undefined) {
        copy ??= deepCopyJSON(pod);
        delete (copy.spec as unknown as Record<string, Container[]>)[listName]![i]!.resizePolicy;
      }
      if (!gates.ContainerUlimits && c?.securityContext?.ulimits !== undefined) {
        copy ??= deepCopyJSON(pod);
        delete (copy.spec as unknown as Record<string, Container[]>)[listName]![i]!.securityContext!.ulimits;
        warnings.push(droppedFieldWarning(path.child('securityContext', 'ulimits').toString(), 'ContainerUlimits'));
      }
    });
  }
  return { pod: copy ?? pod, warnings };
}
