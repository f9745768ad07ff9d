// Kubernetes-faithful validation (pkg/apis/core/validation) for the objects Bulkhead serves.
// Every function returns field errors with Kubernetes' paths, types and wording; none throws
// on malformed input.

export { ephemeralContainersUpdate, mirrorPodAnnotation, validatePodEphemeralContainersUpdate } from './ephemeralcontainers.js';
export { validateOnlyDeletedSchedulingGates, validateSchedulingGatesUpdate } from './podgatedupdate.js';
export { validatePod, validatePodCreate, validatePodSpec, validOSNames, type PodValidationGates, type PodValidationOptions } from './pod.js';
export {
  validateResourceQuota,
  validateResourceQuotaSpec,
  validateResourceQuotaStatus,
  validateResourceQuotaStatusUpdate,
  validateResourceQuotaUpdate,
  standardQuotaScopes,
  isScopeValidForResource,
} from './resourcequota.js';
export { validateLimitRange } from './limitrange.js';
export { validateNamespace } from './namespace.js';
export { validateObjectMeta, validateObjectMetaUpdate, validateLabels, validateAnnotations, type ObjectMetaOptions } from './objectmeta.js';
export { validateUlimits, ulimitsAllowlist, nofileMax, ulimitUnlimited, isAllowedUlimitName, type UlimitName } from './ulimits.js';
export { validateOOMKillMode, oomKillModes } from './oomkillmode.js';
export { validateContainerResources, validateOverhead, validatePodResources } from './resources.js';
export { quotaNameHints, supportedPodLevelResources } from './resourcenames.js';
export { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNSLabel, nameIsDNSSubdomain } from './names.js';
export { validateWatchOptions, type WatchOptions } from './watchoptions.js';
export { validateNode, validateNodeUpdate, validateLease, validateLeaseUpdate } from './node.js';
export {
  validatePriorityClass,
  validatePriorityClassUpdate,
  validatePreemptionPolicy,
  systemPriorityClasses,
  highestUserDefinablePriority,
  systemCriticalPriority,
  systemClusterCritical,
  systemNodeCritical,
} from './priorityclass.js';
export {
  validateConfigMap,
  validateConfigMapUpdate,
  validateSecret,
  validateSecretUpdate,
  validateServiceAccount,
  validateServiceAccountUpdate,
  isConfigMapKey,
  goJSONError,
  maxSecretSize,
  secretTypes,
  serviceAccountNameKey,
} from './config.js';
export {
  validateJob,
  validateJobUpdate,
  validateJobStatusUpdate,
  validateJobSpec,
  validateCronJob,
  validateCronJobUpdate,
  validateLabelSelector,
  validatePodTemplateSpec,
  validateTimeZone,
  jobLabels,
} from './job.js';
export {
  validateDeployment,
  validateDeploymentUpdate,
  validateDeploymentStatusUpdate,
  validateReplicaSet,
  validateReplicaSetUpdate,
  validateReplicaSetStatusUpdate,
  validateStatefulSet,
  validateStatefulSetUpdate,
  validateStatefulSetStatusUpdate,
  validateDaemonSet,
  validateDaemonSetUpdate,
  validateDaemonSetStatusUpdate,
  validateControllerRevision,
  validateControllerRevisionUpdate,
  validateScale,
} from './apps.js';
export {
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetSpec,
  validatePodDisruptionBudgetStatus,
  validatePodDisruptionBudgetStatusUpdate,
  validatePodDisruptionBudgetUpdate,
  validateConditions,
  unhealthyPodEvictionPolicies,
} from './poddisruptionbudget.js';
export { validateRuntimeClass, validateRuntimeClassUpdate } from './runtimeclass.js';
export { validateEndpoints, validateEndpointsUpdate, validateEndpointSlice, validateEndpointSliceUpdate, validateEndpointIP, addressTypes, maxEndpointsPerSlice } from './endpoints.js';
export { validateService, validateServiceUpdate, validateServiceStatusUpdate, validateServiceClusterIPsRelatedFields, isHeadlessService, serviceTypes, clusterIPNone } from './service.js';
export {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerSpec,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateHorizontalPodAutoscalerUpdate,
  validateCrossVersionObjectReference,
} from './horizontalpodautoscaler.js';
export {
  validateRBACName,
  validatePolicyRule,
  validateRole,
  validateRoleUpdate,
  validateClusterRole,
  validateClusterRoleUpdate,
  validateRoleBinding,
  validateRoleBindingUpdate,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateRoleBindingSubject,
  type ClusterRoleValidationOptions,
} from './rbac.js';
