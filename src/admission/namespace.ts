// Namespace admission: the name, and the Pod Security labels (422 on a bad value) on create;
// on update, the labels again and whether the pods already in the namespace are to be dry-run
// against a stricter enforce policy (upstream pod-security-admission ValidateNamespace). An
// exempt namespace is never dry-run; a create or tightening update of one whose labels ask for
// more than the defaults gets a warning that they will be ignored.

import type { FieldError } from '../api/fielderrors.js';
import type { Namespace } from '../api/types.js';
import { validateNamespace } from '../api/validation/index.js';
import {
  exemptNamespaceWarning, isExemptNamespace, namespaceDryRunLevel, policyToEvaluate, resolveDefaults, validateNamespaceLabels,
  validateNamespaceLabelsUpdate, type LevelVersion, type PodSecurityDefaults, type PodSecurityExemptions,
} from '../podsecurity/index.js';

export function validateNamespaceObject(ns: Namespace): FieldError[] {
  return [...validateNamespace(ns), ...validateNamespaceLabels(ns.metadata?.labels ?? {})];
}

/** The exempt-namespace warning for `ns` under the defaults, or none. */
function exemptWarnings(ns: Namespace, defaults: PodSecurityDefaults): string[] {
  const labels = ns.metadata?.labels ?? {};
  const warning = exemptNamespaceWarning(ns.metadata?.name ?? '', policyToEvaluate(labels, defaults).policy, labels, resolveDefaults(defaults));
  return warning ? [warning] : [];
}

/**
 * ValidateNamespace on a create whose labels are valid (validateNamespaceObject refuses the
 * others): an exempt namespace (the request's namespace is the new namespace's name) whose labels
 * select a policy other than the defaults gets
 * `namespace "ns1" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored`.
 */
export function namespaceCreateWarnings(ns: Namespace, defaults: PodSecurityDefaults, exemptions: PodSecurityExemptions = {}): string[] {
  return isExemptNamespace(exemptions, ns.metadata?.name) ? exemptWarnings(ns, defaults) : [];
}

export interface NamespaceUpdateAdmission {
  /** Label errors to refuse the update with (422), or none. */
  readonly errors: FieldError[];
  /** The new enforce level/version the namespace's pods are to be evaluated against (warnings only). */
  readonly checkPods?: LevelVersion;
  /** For an exempt namespace that would otherwise have been dry-run: that its labels are ignored. */
  readonly warnings?: string[];
}

/**
 * ValidateNamespace on an update: refused when the new labels have errors that the old labels
 * did not have; otherwise allowed, with the existing pods dry-run against the new enforce policy
 * when it became stricter (see namespaceDryRunLevel), unless the namespace is exempt: then,
 * instead, the exempt-namespace warning (when its labels differ from the defaults). Both policies
 * are read over the cluster defaults, so removing the labels of a namespace under a restricted
 * default tightens it too.
 */
export function admitNamespaceUpdate(ns: Namespace, old: Namespace, defaults: PodSecurityDefaults, exemptions: PodSecurityExemptions = {}): NamespaceUpdateAdmission {
  const labels = ns.metadata?.labels ?? {};
  const oldLabels = old.metadata?.labels ?? {};
  const errors = validateNamespaceLabelsUpdate(labels, oldLabels);
  if (errors.length) return { errors };
  const checkPods = namespaceDryRunLevel(policyToEvaluate(labels, defaults).policy, policyToEvaluate(oldLabels, defaults).policy);
  if (!checkPods) return { errors };
  if (isExemptNamespace(exemptions, old.metadata?.name)) {
    const warnings = exemptWarnings(ns, defaults);
    return warnings.length ? { errors, warnings } : { errors };
  }
  return { errors, checkPods };
}
