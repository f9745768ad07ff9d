// The pod a workload controller creates from its template (pkg/controller/controller_utils.go
// GetPodFromTemplate, getPodsPrefix, getPodsLabelSet/AnnotationSet/Finalizers), for the
// ReplicaSet, StatefulSet, DaemonSet and Job controllers and `bulkhead plan`. Pure.

import type { OwnerReference, Pod, PodTemplateSpec } from '../api/types.js';
import { nameIsDNSSubdomain } from '../api/validation/names.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/**
 * getPodsPrefix: `<name>-` when that is a valid pod generateName (ValidatePodName(prefix, true):
 * the trailing dash masked, then a DNS subdomain of at most 253 characters), else the name alone.
 */
export function podNamePrefix(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return nameIsDNSSubdomain(prefix, true).length === 0 ? prefix : controllerName;
}

/**
 * GetPodFromTemplate: copies of the template's labels, annotations and finalizers (an empty one
 * omitted, as Go's omitempty sends it), `generateName` from the owner's name, the controller
 * reference, and a deep copy of the template's spec. The namespace is the create's, not the pod's.
 */
export function podFromTemplate(template: PodTemplateSpec | undefined, ownerName: string, controllerRef: OwnerReference): Pod {
  const t = template ?? {};
  const metadata: Pod['metadata'] = { generateName: podNamePrefix(ownerName) };
  if (Object.keys(t.metadata?.labels ?? {}).length) metadata.labels = { ...t.metadata!.labels };
  if (Object.keys(t.metadata?.annotations ?? {}).length) metadata.annotations = { ...t.metadata!.annotations };
  if (t.metadata?.finalizers?.length) metadata.finalizers = [...t.metadata.finalizers];
  metadata.ownerReferences = [controllerRef];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: deepCopyJSON(t.spec ?? { containers: [] }) };
}
