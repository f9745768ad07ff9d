// Namespace label policy (upstream api/helpers.go PolicyToEvaluate and the admission
// configuration's `defaults`): the six `pod-security.kubernetes.io/*` labels, cluster defaults,
// warn defaulting from enforce, and the fail-closed / fail-open handling of bad values.

import { fieldError, FieldPath, errorString, type FieldError } from '../api/fielderrors.js';
import {
  compareLevels, parseLevel, parseVersion, type Level, type LevelVersion, type Version,
} from './levels.js';
import { get, rec, text } from './podfields.js';

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

export const POD_SECURITY_LABELS: readonly string[] = [
  ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL, AUDIT_LEVEL_LABEL, AUDIT_VERSION_LABEL, WARN_LEVEL_LABEL, WARN_VERSION_LABEL,
];

/** The policy of a namespace: one level/version per mode. */
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

/**
 * The `defaults` stanza of a PodSecurityConfiguration (keys as in the config file). Empty or
 * missing entries default to `privileged` / `latest`.
 */
export interface PodSecurityDefaults {
  readonly enforce?: string;
  readonly 'enforce-version'?: string;
  readonly audit?: string;
  readonly 'audit-version'?: string;
  readonly warn?: string;
  readonly 'warn-version'?: string;
}

export const PRIVILEGED_LATEST: LevelVersion = Object.freeze({ level: 'privileged', version: 'latest' });

export const DEFAULT_POLICY: Policy = Object.freeze({
  enforce: PRIVILEGED_LATEST,
  audit: PRIVILEGED_LATEST,
  warn: PRIVILEGED_LATEST,
});

type Mode = 'enforce' | 'audit' | 'warn';

/** A defaults entry after SetDefaults: empty/absent become `privileged` / `latest`. */
function defaultsEntry(d: unknown, key: keyof PodSecurityDefaults, fallback: string): string {
  const v = text(get(rec(d), key));
  return v === '' ? fallback : v;
}

/**
 * ValidatePodSecurityConfiguration for the defaults: errors on `defaults.enforce`,
 * `defaults.enforce-version`, `defaults.warn`, `defaults.warn-version`, `defaults.audit`,
 * `defaults.audit-version` (upstream's order). A configuration with errors is rejected upstream.
 */
export function validatePodSecurityDefaults(defaults: PodSecurityDefaults | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const root = FieldPath.root('defaults');
  for (const mode of ['enforce', 'warn', 'audit'] as const) {
    const level = defaultsEntry(defaults, mode, 'privileged');
    const lerr = parseLevel(level).error;
    if (lerr) errs.push(fieldError.invalid(root.child(mode), level, lerr));
    const versionKey = `${mode}-version` as const;
    const version = defaultsEntry(defaults, versionKey, 'latest');
    const verr = parseVersion(version).error;
    if (verr) errs.push(fieldError.invalid(root.child(versionKey), version, verr));
  }
  return errs;
}

/**
 * The default policy from a defaults stanza. Invalid entries (which upstream refuses at startup,
 * see validatePodSecurityDefaults) are resolved the way invalid labels are: enforce fails closed
 * to restricted, audit and warn fail open to privileged, versions become latest.
 */
export function resolveDefaults(defaults?: PodSecurityDefaults): Policy {
  const mode = (m: Mode): LevelVersion => {
    const parsed = parseLevel(defaultsEntry(defaults, m, 'privileged'));
    const level: Level = parsed.error && m !== 'enforce' ? 'privileged' : parsed.level;
    return { level, version: parseVersion(defaultsEntry(defaults, `${m}-version`, 'latest')).version };
  };
  return { enforce: mode('enforce'), audit: mode('audit'), warn: mode('warn') };
}

const labelsPath = FieldPath.root('metadata').child('labels');

export interface PolicyEvaluation {
  readonly policy: Policy;
  /** Label errors, in label order (enforce, enforce-version, audit, audit-version, warn, warn-version). */
  readonly errors: FieldError[];
}

/**
 * PolicyToEvaluate: the policy a namespace's labels select, on top of the defaults.
 *
 * - A label that is absent takes the default; a version label without its level label pins the
 *   default level's version.
 * - A bad enforce level fails closed (restricted); a bad audit or warn level fails open
 *   (privileged); a bad version of any mode becomes latest. Each bad label adds an error.
 * - If the warn label is absent and a valid enforce label is stricter than the (default) warn
 *   level, warn takes the enforce level, and the enforce version unless warn-version is set.
 *
 * `labels` may be anything (only a plain object is read); a label value that is not a string is
 * read as its text, so it fails to parse. `defaults` may be a defaults stanza or a resolved Policy.
 */
export function policyToEvaluate(labels: unknown, defaults?: PodSecurityDefaults | Policy): PolicyEvaluation {
  const base = isPolicy(defaults) ? defaults : resolveDefaults(defaults);
  const enforce = { ...base.enforce };
  const audit = { ...base.audit };
  const warn = { ...base.warn };
  const errors: FieldError[] = [];
  const l = rec(labels);
  if (!l) return { policy: { enforce, audit, warn }, errors };

  const label = (key: string): string | undefined =>
    Object.prototype.hasOwnProperty.call(l, key) ? text(l[key]) : undefined;
  const fail = (key: string, value: string, error: string | undefined) => {
    if (error) errors.push(fieldError.invalid(labelsPath.key(key), value, error));
  };
  const readLevel = (key: string, target: { level: Level }, onError: Level | undefined): boolean => {
    const value = label(key);
    if (value === undefined) return false;
    const parsed = parseLevel(value);
    target.level = parsed.error && onError ? onError : parsed.level;
    fail(key, value, parsed.error);
    return parsed.error === undefined;
  };
  const readVersion = (key: string, target: { version: Version }): boolean => {
    const value = label(key);
    if (value === undefined) return false;
    const parsed = parseVersion(value);
    target.version = parsed.version;
    fail(key, value, parsed.error);
    return true;
  };

  const hasEnforceLevel = readLevel(ENFORCE_LEVEL_LABEL, enforce, undefined); // parseLevel's restricted: fail closed
  readVersion(ENFORCE_VERSION_LABEL, enforce);
  readLevel(AUDIT_LEVEL_LABEL, audit, 'privileged');
  readVersion(AUDIT_VERSION_LABEL, audit);
  const hasWarnLevel = label(WARN_LEVEL_LABEL) !== undefined;
  readLevel(WARN_LEVEL_LABEL, warn, 'privileged');
  const hasWarnVersion = readVersion(WARN_VERSION_LABEL, warn);

  if (!hasWarnLevel && hasEnforceLevel && compareLevels(enforce.level, warn.level) > 0) {
    warn.level = enforce.level;
    if (!hasWarnVersion) warn.version = enforce.version;
  }
  return { policy: { enforce, audit, warn }, errors };
}

function isPolicy(d: PodSecurityDefaults | Policy | undefined): d is Policy {
  const enforce = get(rec(d), 'enforce');
  return typeof enforce === 'object' && enforce !== null;
}

/**
 * Namespace label validation: one `Invalid value` error per bad PSA label, e.g.
 * `metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted`.
 * A namespace create with any error is rejected (422).
 */
export function validateNamespaceLabels(labels: unknown): FieldError[] {
  return policyToEvaluate(labels).errors;
}

/**
 * Namespace update: rejected only when the new labels have errors and either the old labels had
 * none or their errors differ (so an already-invalid namespace can still be edited otherwise).
 * Returns the errors to reject with, or an empty list.
 */
export function validateNamespaceLabelsUpdate(newLabels: unknown, oldLabels: unknown): FieldError[] {
  const newErrs = validateNamespaceLabels(newLabels);
  if (newErrs.length === 0) return [];
  const oldErrs = validateNamespaceLabels(oldLabels);
  const same = oldErrs.length === newErrs.length && oldErrs.every((e, i) => errorString(e) === errorString(newErrs[i]!));
  return oldErrs.length > 0 && same ? [] : newErrs;
}

/** Policy.FullyPrivileged: enforce, audit and warn are all privileged. */
export function isFullyPrivileged(policy: Policy): boolean {
  return policy.enforce.level === 'privileged' && policy.audit.level === 'privileged' && policy.warn.level === 'privileged';
}
