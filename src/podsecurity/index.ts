// Pod Security Admission (Pod Security Standards) for Bulkhead: a pure reimplementation of
// upstream kubernetes/pod-security-admission (master 8f84a87c7f61, policy up to v1.37) plus
// Bulkhead's `ulimits` check. No I/O; callers supply the pod and the namespace labels.

export {
  LEVELS, LATEST, MAX_KNOWN_MINOR, LEVEL_ERROR, VERSION_ERROR,
  v1, isLatest, isLevel, parseLevel, parseVersion, formatVersion, formatLevelVersion,
  versionOlder, versionEqual, compareLevels, levelVersionEquivalent, levelVersion,
  type Level, type Version, type LevelVersion,
} from './levels.js';
export { ALLOWED, forbidden, type Check, type CheckID, type CheckPodFn, type CheckResult, type VersionedCheck } from './check.js';
export type { PodMetadataInput, PodSpecInput } from './podfields.js';
export { UPSTREAM_CHECKS, DEFAULT_CHECKS } from './checks/index.js';
export { ULIMITS_ID } from './checks/ulimits.js';
export { CheckRegistry, getDefaultRegistry, validateChecks, type ActiveCheck, type RegistryOptions } from './registry.js';
export {
  evaluatePod, aggregateReasons, reasonsOnly, UNKNOWN_FORBIDDEN_REASON, type CheckFailure,
} from './evaluate.js';
export { checkedSpecView } from './checkedspec.js';
export { defaultPodForPodSecurity, defaultPodSpecForPodSecurity, isSourcelessVolume } from './defaulting.js';
export {
  LABEL_PREFIX, ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL, AUDIT_LEVEL_LABEL, AUDIT_VERSION_LABEL,
  WARN_LEVEL_LABEL, WARN_VERSION_LABEL, POD_SECURITY_LABELS, PRIVILEGED_LATEST, DEFAULT_POLICY,
  policyToEvaluate, resolveDefaults, validatePodSecurityDefaults, validateNamespaceLabels,
  validateNamespaceLabelsUpdate, isFullyPrivileged,
  type Policy, type PodSecurityDefaults, type PolicyEvaluation,
} from './namespace.js';
export {
  AUDIT_ANNOTATION_PREFIX, ENFORCE_POLICY_ANNOTATION, AUDIT_VIOLATIONS_ANNOTATION, EXEMPT_ANNOTATION, ERROR_ANNOTATION,
  quotedLevelVersion, enforceDenialMessage, warnMessage, auditViolationsAnnotation, enforcePolicyAnnotation,
  aggregateFieldErrors, policyErrorAnnotation, exemptNamespaceWarning,
} from './messages.js';
export {
  POD_SECURITY_CONFIG_GROUP, POD_SECURITY_CONFIG_VERSIONS, POD_SECURITY_CONFIG_KIND, DEFAULT_POD_SECURITY_CONFIGURATION,
  ConfigDecodeError, decodePodSecurityConfiguration, validatePodSecurityConfiguration,
  type PodSecurityConfiguration, type PodSecurityExemptions,
} from './config.js';
export { isExemptNamespace, isExemptUser, isExemptRuntimeClass, requestExemption, type Exemption } from './exemptions.js';
export {
  NAMESPACE_MAX_PODS_TO_CHECK, NAMESPACE_POD_CHECK_TIMEOUT_MS, LIST_PODS_FAILED_WARNING,
  namespaceDryRunLevel, prioritizePods, evaluatePodsInNamespace,
  type NamespacePod, type EvaluateFn, type EvaluatePodsOptions,
} from './namespacepods.js';
