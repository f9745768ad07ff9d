// Resource-name vocabularies (pkg/apis/core/helper) and the resource-name validators of
// pkg/apis/core/validation: plain resource names, container resources, pod-level resources,
// quota resources and limit-range types.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import { isExtendedResourceName, isNativeResource } from '../extendedresources.js';
import { isQualifiedName } from './names.js';

export const hugePagesPrefix = 'hugepages-';
export const requestsHugePagesPrefix = 'requests.hugepages-';

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(hugePagesPrefix);
}

function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith(hugePagesPrefix) || name.startsWith(requestsHugePagesPrefix);
}

const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage',
  'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);

/** IsStandardResourceName. */
export function isStandardResourceName(name: string): boolean {
  return standardResources.has(name) || isQuotaHugePageResourceName(name);
}

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** IsStandardContainerResourceName: cpu, memory, ephemeral-storage, hugepages-*. */
export function isStandardContainerResourceName(name: string): boolean {
  return standardContainerResources.has(name) || isHugePageResourceName(name);
}

const standardQuotaResources = new Set([
  'cpu', 'memory', 'ephemeral-storage',
  'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'persistentvolumeclaims', 'configmaps',
  'services.nodeports', 'services.loadbalancers',
]);

/** IsStandardQuotaResourceName. */
export function isStandardQuotaResourceName(name: string): boolean {
  return standardQuotaResources.has(name) || isQuotaHugePageResourceName(name);
}

const integerResources = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);

/** IsIntegerResourceName: object counts and extended resources. */
export function isIntegerResourceName(name: string): boolean {
  return integerResources.has(name) || isExtendedResourceName(name);
}

/** IsOvercommitAllowed: native and not hugepages. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

export const standardLimitRangeTypes = ['Pod', 'Container', 'PersistentVolumeClaim'] as const;

/** Resources that may appear in a pod's spec.resources (resourcehelper.SupportedPodLevelResources, sorted). */
export const supportedPodLevelResources = ['cpu', 'hugepages-', 'memory'] as const;

export function isSupportedPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || isHugePageResourceName(name);
}

// The resource-name validators append to the list they are given (a new one when none is) and
// return it; "found nothing" is the list's length unchanged.

/** validateResourceName: qualified name; an unqualified name must be a standard resource. */
export function validateResourceName(name: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const problems = isQualifiedName(name);
  if (problems.length > 0) {
    for (const m of problems) errs.push(fieldError.invalid(path, name, m));
    return errs;
  }
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errs.push(fieldError.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

// Names found valid: "cpu" and "memory" are checked in every container of every pod.
const validContainerResourceNames = new Set<string>();

/** validateContainerResourceName: plus container resources only, or a valid extended name. */
export function validateContainerResourceName(name: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (validContainerResourceNames.has(name)) return errs;
  const before = errs.length;
  containerResourceNameErrors(name, path, errs);
  if (errs.length === before) {
    if (validContainerResourceNames.size >= 1024) validContainerResourceNames.clear();
    validContainerResourceNames.add(name);
  }
  return errs;
}

function containerResourceNameErrors(name: string, path: FieldPath, errs: FieldError[]): FieldError[] {
  validateResourceName(name, path, errs);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) errs.push(fieldError.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldError.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** validatePodResourceName: plus one of cpu, memory, hugepages-* (NotSupported). */
export function validatePodResourceName(name: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const before = errs.length;
  validateResourceName(name, path, errs);
  if (errs.length > before) return errs;
  if (!isSupportedPodLevelResource(name)) errs.push(fieldError.notSupported(path, name, supportedPodLevelResources));
  return errs;
}

/**
 * Names the quota design texts use that are not Kubernetes names, with the API name Bulkhead
 * suggests instead (DESIGN.md "Quota resource names").
 */
export const quotaNameHints: Readonly<Record<string, string>> = Object.freeze({
  'cpu.limit': 'limits.cpu',
  'memory.limit': 'limits.memory',
  'ephemeral-storage.limit': 'limits.ephemeral-storage',
  'cpu.request': 'requests.cpu',
  'memory.request': 'requests.memory',
  'ephemeral-storage.request': 'requests.ephemeral-storage',
});

export const isInvalidQuotaResource = 'must be a standard resource for quota';

/**
 * ValidateResourceQuotaResourceName. For the design-text spellings (`memory.limit`, …) the
 * second upstream error carries a hint: `…must be a standard resource for quota; did you mean "limits.memory"?`.
 */
export function validateResourceQuotaResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    const hint = Object.prototype.hasOwnProperty.call(quotaNameHints, name) ? quotaNameHints[name] : undefined;
    const detail = hint ? `${isInvalidQuotaResource}; did you mean ${JSON.stringify(hint)}?` : isInvalidQuotaResource;
    errs.push(fieldError.invalid(path, name, detail));
  }
  return errs;
}

/** validateLimitRangeTypeName: qualified name; an unqualified type must be Pod, Container or PersistentVolumeClaim. */
export function validateLimitRangeTypeName(type: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(type).map((m) => fieldError.invalid(path, type, m));
  if (errs.length > 0) return errs;
  if (!type.includes('/') && !(standardLimitRangeTypes as readonly string[]).includes(type)) {
    errs.push(fieldError.invalid(path, type, 'must be a standard limit type or fully qualified'));
  }
  return errs;
}

/** validateLimitRangeResourceName: container rules for Pod/Container items, plain rules otherwise. */
export function validateLimitRangeResourceName(type: string, name: string, path: FieldPath): FieldError[] {
  return type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, path) : validateResourceName(name, path);
}
