// Pod Security admission for a pod create: the namespace's labels over the cluster defaults,
// enforce (deny) and warn (warning text), exactly as the PodSecurity plugin words them.

import type { Pod } from '../api/types.js';
import {
  enforceDenialMessage,
  evaluatePod,
  formatVersion,
  isFullyPrivileged,
  parseLevel,
  parseVersion,
  policyToEvaluate,
  POD_SECURITY_LABELS,
  warnMessage,
  type Policy,
  type PodSecurityDefaults,
} from '../podsecurity/index.js';

export type { PodSecurityDefaults };

export interface PodSecurityOutcome {
  /** `violates PodSecurity "<level>:<version>": …` when enforce denies. */
  denied?: string;
  warnings: string[];
}

/** `LEVEL[:VERSION]` (the plan's and server's --pod-security) as the enforce default. */
export function parsePodSecurityDefault(spec: string): PodSecurityDefaults {
  const [level, version = 'latest', extra] = spec.split(':');
  if (extra !== undefined) throw new Error('expected LEVEL[:VERSION], e.g. baseline or restricted:v1.30');
  const l = parseLevel(level);
  if (l.error) throw new Error(l.error);
  const v = parseVersion(version);
  if (v.error) throw new Error(v.error);
  return { enforce: l.level, 'enforce-version': formatVersion(v.version) };
}

const defaultKeys = ['enforce', 'enforce-version', 'audit', 'audit-version', 'warn', 'warn-version'] as const;

/** What policyToEvaluate read (each Pod Security label, then each default; undefined when absent) and what it gave. */
interface RememberedPolicy {
  readonly defaults: PodSecurityDefaults;
  readonly read: readonly unknown[];
  readonly policy: Policy;
}

const policies = new WeakMap<object, RememberedPolicy>();

function input(labels: Record<string, string>, defaults: PodSecurityDefaults, i: number): unknown {
  if (i < POD_SECURITY_LABELS.length) {
    const l = POD_SECURITY_LABELS[i]!;
    return Object.prototype.hasOwnProperty.call(labels, l) ? labels[l] : undefined;
  }
  return defaults?.[defaultKeys[i - POD_SECURITY_LABELS.length]!];
}

function unchanged(hit: RememberedPolicy, labels: Record<string, string>, defaults: PodSecurityDefaults): boolean {
  if (hit.defaults !== defaults) return false;
  for (let i = 0; i < hit.read.length; i++) if (input(labels, defaults, i) !== hit.read[i]) return false;
  return true;
}

/**
 * policyToEvaluate, remembered per labels object: every pod of a namespace would parse the same
 * labels again. The remembered policy serves only while everything policyToEvaluate reads (the
 * six labels and the defaults) is the same as when it was made, so a label changed in place is
 * read afresh.
 */
function namespacePolicy(labels: Record<string, string>, defaults: PodSecurityDefaults): Policy {
  if (!labels || typeof labels !== 'object' || Array.isArray(labels)) return policyToEvaluate(labels, defaults).policy;
  const hit = policies.get(labels);
  if (hit && unchanged(hit, labels, defaults)) return hit.policy;
  const read: unknown[] = [];
  for (let i = 0; i < POD_SECURITY_LABELS.length + defaultKeys.length; i++) read.push(input(labels, defaults, i));
  const p = policyToEvaluate(labels, defaults).policy;
  const policy: Policy = Object.freeze({ enforce: Object.freeze(p.enforce), audit: Object.freeze(p.audit), warn: Object.freeze(p.warn) });
  policies.set(labels, { defaults, read, policy });
  return policy;
}

/**
 * Outcomes by policy and pod: the pods of one workload share their spec, so the checks run once
 * per distinct pod template. Dropped when it grows past its bound.
 */
const outcomes = new Map<string, PodSecurityOutcome>();
const maxOutcomes = 1024;

/** What the checks read of a pod: everything but the fields that differ between its replicas. */
function outcomeKey(policy: unknown, pod: Pod): string {
  const { name: _n, generateName: _g, uid: _u, creationTimestamp: _c, resourceVersion: _r, managedFields: _m, ...meta } = pod.metadata ?? {};
  return JSON.stringify([policy, meta, pod.spec ?? null]);
}

/** `pod` must be the defaulted object, as the API server's admission sees it. */
export function evaluatePodSecurity(namespaceLabels: Record<string, string>, defaults: PodSecurityDefaults, pod: Pod): PodSecurityOutcome {
  const policy = namespacePolicy(namespaceLabels, defaults);
  if (isFullyPrivileged(policy)) return { warnings: [] };
  const key = outcomeKey(policy, pod);
  const known = outcomes.get(key);
  if (known) return { ...known, warnings: [...known.warnings] };
  const outcome = evaluate(policy, pod);
  if (outcomes.size >= maxOutcomes) outcomes.clear();
  outcomes.set(key, { ...outcome, warnings: [...outcome.warnings] });
  return outcome;
}

function evaluate(policy: ReturnType<typeof policyToEvaluate>['policy'], pod: Pod): PodSecurityOutcome {
  // `pod` is already defaulted (a source-less volume is emptyDir), as admission sees it.
  const p = pod;
  const enforced = policy.enforce.level === 'privileged' ? [] : evaluatePod(policy.enforce, p.metadata, p.spec);
  if (enforced.length > 0) return { denied: enforceDenialMessage(policy.enforce, enforced), warnings: [] };
  const warnings: string[] = [];
  if (policy.warn.level !== 'privileged') {
    const warned = evaluatePod(policy.warn, p.metadata, p.spec);
    if (warned.length > 0) warnings.push(warnMessage(policy.warn, warned));
  }
  return { warnings };
}
