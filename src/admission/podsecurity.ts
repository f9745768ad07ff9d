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
  warnMessage,
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

/** `pod` must be the defaulted object, as the API server's admission sees it. */
export function evaluatePodSecurity(namespaceLabels: Record<string, string>, defaults: PodSecurityDefaults, pod: Pod): PodSecurityOutcome {
  const { policy } = policyToEvaluate(namespaceLabels, defaults);
  if (isFullyPrivileged(policy)) return { warnings: [] };
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
