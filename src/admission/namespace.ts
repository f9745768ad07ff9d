// Namespace admission: the name, and the Pod Security labels (422 on a bad value) on create;
// on update, the labels again and whether the pods already in the namespace are to be dry-run
// against a stricter enforce policy (upstream pod-security-admission ValidateNamespace).

import type { FieldError } from '../api/fielderrors.js';
import type { Namespace } from '../api/types.js';
import { validateNamespace } from '../api/validation/index.js';
import {
  namespaceDryRunLevel, policyToEvaluate, validateNamespaceLabels, validateNamespaceLabelsUpdate,
  type LevelVersion, type PodSecurityDefaults,
} from '../podsecurity/index.js';

export function validateNamespaceObject(ns: Namespace): FieldError[] {
  return [...validateNamespace(ns), ...validateNamespaceLabels(ns.metadata?.labels ?? {})];
}

export interface NamespaceUpdateAdmission {
  /** Label errors to refuse the update with (422), or none. */
  readonly errors: FieldError[];
  /** The new enforce level/version the namespace's pods are to be evaluated against (warnings only). */
  readonly checkPods?: LevelVersion;
}

/**
 * ValidateNamespace on an update: refused when the new labels have errors that the old labels
 * did not have; otherwise allowed, with the existing pods dry-run against the new enforce policy
 * when it became stricter (see namespaceDryRunLevel). Both policies are read over the cluster
 * defaults, so removing the labels of a namespace under a restricted default tightens it too.
 */
export function admitNamespaceUpdate(ns: Namespace, old: Namespace, defaults: PodSecurityDefaults): NamespaceUpdateAdmission {
  const labels = ns.metadata?.labels ?? {};
  const oldLabels = old.metadata?.labels ?? {};
  const errors = validateNamespaceLabelsUpdate(labels, oldLabels);
  if (errors.length) return { errors };
  const checkPods = namespaceDryRunLevel(policyToEvaluate(labels, defaults).policy, policyToEvaluate(oldLabels, defaults).policy);
  return checkPods ? { errors, checkPods } : { errors };
}
