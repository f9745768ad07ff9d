// User-facing texts of Pod Security admission (upstream admission/admission.go): the enforce
// denial, the warn-mode warning, the audit annotations, and the namespace label error aggregate.

import { aggregateFieldErrors, type FieldError } from '../api/fielderrors.js';
import type { CheckResult } from './check.js';
import { aggregateReasons } from './evaluate.js';
import { goQuote } from './format.js';
import { formatLevelVersion, levelVersionEquivalent, type LevelVersion } from './levels.js';
import { DEFAULT_POLICY, isFullyPrivileged, LABEL_PREFIX, type Policy } from './namespace.js';

/** Audit annotation keys are prefixed with this by the in-tree plugin. */
export const AUDIT_ANNOTATION_PREFIX = LABEL_PREFIX;
export const ENFORCE_POLICY_ANNOTATION = 'enforce-policy';
export const AUDIT_VIOLATIONS_ANNOTATION = 'audit-violations';
export const EXEMPT_ANNOTATION = 'exempt';
export const ERROR_ANNOTATION = 'error';

/** `"restricted:latest"`: the level:version as printed in messages (Go %q of the unresolved pair). */
export function quotedLevelVersion(lv: LevelVersion): string {
  return goQuote(formatLevelVersion(lv));
}

/**
 * The enforce denial: `violates PodSecurity "<level>:<version>": <aggregate>`. The API server
 * wraps it as `pods "<name>" is forbidden: <this>` (403 Forbidden).
 */
export function enforceDenialMessage(lv: LevelVersion, results: readonly CheckResult[]): string {
  return `violates PodSecurity ${quotedLevelVersion(lv)}: ${aggregateReasons(results)}`;
}

/** The warn-mode warning: `would violate PodSecurity "<level>:<version>": <aggregate>`. */
export function warnMessage(lv: LevelVersion, results: readonly CheckResult[]): string {
  return `would violate PodSecurity ${quotedLevelVersion(lv)}: ${aggregateReasons(results)}`;
}

/** The `audit-violations` annotation value (same text as the warning, at the audit policy). */
export function auditViolationsAnnotation(lv: LevelVersion, results: readonly CheckResult[]): string {
  return warnMessage(lv, results);
}

/** The `enforce-policy` annotation value, e.g. `restricted:latest`. */
export function enforcePolicyAnnotation(lv: LevelVersion): string {
  return formatLevelVersion(lv);
}


export { aggregateFieldErrors };

/** The `error` audit annotation for bad namespace labels: `Failed to parse policy: <errors>`. */
export function policyErrorAnnotation(errors: readonly FieldError[]): string {
  return `Failed to parse policy: ${aggregateFieldErrors(errors)}`;
}

/**
 * The warning for an exempt namespace whose labels select a policy other than the defaults:
 * `namespace "ns1" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored`.
 * Returns "" (no warning) when the policy is fully privileged or equivalent to the defaults;
 * otherwise lists the non-privileged modes whose level or version label is present.
 */
export function exemptNamespaceWarning(
  namespace: string,
  policy: Policy,
  labels: unknown,
  defaults: Policy = DEFAULT_POLICY,
): string {
  const equivalent = levelVersionEquivalent(policy.enforce, defaults.enforce) &&
    levelVersionEquivalent(policy.audit, defaults.audit) && levelVersionEquivalent(policy.warn, defaults.warn);
  if (isFullyPrivileged(policy) || equivalent) return '';
  const l = typeof labels === 'object' && labels !== null ? (labels as Record<string, unknown>) : {};
  const present = (k: string) => Object.prototype.hasOwnProperty.call(l, k);
  const parts: string[] = [];
  for (const mode of ['enforce', 'audit', 'warn'] as const) {
    const lv = policy[mode];
    if (lv.level !== 'privileged' && (present(LABEL_PREFIX + mode) || present(`${LABEL_PREFIX}${mode}-version`))) {
      parts.push(`${mode}=${formatLevelVersion(lv)}`);
    }
  }
  return `namespace ${goQuote(namespace)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}
