// The ResourceQuota admission decision for a pod create (apiserver resourcequota controller.go
// CheckRequest): every quota whose status.hard the pod evaluator tracks and whose scopes the
// pod matches must allow it; the first that does not ends the request with Kubernetes' message.

import type { FeatureGates } from '../api/featuregates.js';
import { isPodLevelResourcesSet } from '../api/podresources.js';
import { Quantity } from '../api/quantity.js';
import { parseResourceList, type Resources } from '../api/resourcelist.js';
import type { Pod, ResourceQuota } from '../api/types.js';
import { podMatchesAllScopes, quotaSelectors } from './scopes.js';
import { containerUsage, podUsage } from './usage.js';
import { podMatchingResources, quotaValidationSet } from './resourcenames.js';
import { objectCountUsage } from './objectcount.js';

export interface QuotaDecisionOptions {
  gates: Pick<FeatureGates, 'PodLevelResources'>;
  now: Date;
}

export interface QuotaCharge {
  /** The quota, by name. */
  name: string;
  /** status.used after this pod: the quota's status to write in the same transaction as the pod. */
  used: Record<string, string>;
}

export type QuotaDecision =
  | { allowed: true; charges: QuotaCharge[] }
  /** `message` is the inner text; the API wraps it as `pods "<name>" is forbidden: <message>`. */
  | { allowed: false; quota?: string; message: string };

/** Sorted names joined by "," (prettyPrintResourceNames). */
function prettyNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}

/** `k=v,…` sorted by name (prettyPrint). */
function prettyList(m: Resources): string {
  return [...m.keys()].sort().map((k) => `${k}=${m.get(k)!.toString()}`).join(',');
}

function mask(m: Resources, names: Iterable<string>): Resources {
  const out: Resources = new Map();
  for (const n of names) {
    const q = m.get(n);
    if (q) out.set(n, q);
  }
  return out;
}

/** Matches: the evaluator tracks a key of status.hard and every selector matches. */
export function quotaMatchesPod(q: ResourceQuota, pod: Pod, gates: Pick<FeatureGates, 'PodLevelResources'>): boolean {
  if (podMatchingResources(Object.keys(q.status?.hard ?? {})).length === 0) return false;
  return podMatchesAllScopes(pod, quotaSelectors(q), gates);
}

/**
 * Constraints: cpu/memory quotas require every container and init container to state them.
 * Skipped entirely when pod-level resources are set and the PodLevelResources gate is on
 * (pods.go Constraints); without `gates` the check always applies.
 */
export function quotaConstraints(required: readonly string[], pod: Pod, gates?: Pick<FeatureGates, 'PodLevelResources'>): string | undefined {
  if (gates?.PodLevelResources && isPodLevelResourcesSet(pod)) return undefined;
  const requiredSet = required.filter((r) => quotaValidationSet.has(r));
  if (requiredSet.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
    const have = containerUsage(c);
    for (const r of requiredSet) {
      if (have.has(r)) continue;
      let s = missing.get(r);
      if (!s) missing.set(r, (s = new Set()));
      s.add(c.name);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/**
 * Parsed status lists by object: a namespace's quotas keep their status.hard from pod to pod,
 * and the status.used a charge wrote is the next pod's input, so neither is parsed again.
 * The maps are shared: read them, never change them.
 */
const parsedLists = new WeakMap<object, Resources>();

function parsedList(list: Record<string, string> | undefined): Resources {
  if (!list) return parseResourceList(list);
  let parsed = parsedLists.get(list);
  if (!parsed) parsedLists.set(list, (parsed = parseResourceList(list)));
  return parsed;
}

export function decideQuotas(pod: Pod, quotas: readonly ResourceQuota[], opts: QuotaDecisionOptions): QuotaDecision {
  // No quotas in the namespace (and no limitedResources configuration): allowed outright.
  if (quotas.length === 0) return { allowed: true, charges: [] };
  const interesting: ResourceQuota[] = [];
  for (const q of quotas) {
    // quotaMatchesPod, with the tracked names it finds kept for what follows.
    const restricted = podMatchingResources(Object.keys(q.status?.hard ?? {}));
    if (restricted.length === 0 || !podMatchesAllScopes(pod, quotaSelectors(q), opts.gates)) continue;
    const constraint = quotaConstraints(restricted, pod, opts.gates);
    if (constraint) return { allowed: false, quota: q.metadata.name, message: `failed quota: ${q.metadata.name}: ${constraint}` };
    const used = q.status?.used ?? {};
    if (restricted.some((r) => !(r in used))) {
      return { allowed: false, quota: q.metadata.name, message: `status unknown for quota: ${q.metadata.name}, resources: ${prettyNames(restricted)}` };
    }
    interesting.push(q);
  }

  const delta = podUsage(pod, opts);
  const negative = [...delta].filter(([, v]) => v.sign() < 0).map(([k]) => k);
  if (negative.length > 0) return { allowed: false, message: `quota usage is negative for resource(s): ${prettyNames(negative)}` };
  for (const [k, v] of [...delta]) if (v.isZero()) delta.delete(k);
  if (delta.size === 0) return { allowed: true, charges: [] };

  const charges: QuotaCharge[] = [];
  for (const q of interesting) {
    const hard = parsedList(q.status?.hard);
    const used = parsedList(q.status?.used);
    const requested = mask(delta, hard.keys());
    const newUsed = new Map(used);
    for (const [k, v] of requested) newUsed.set(k, used.has(k) ? used.get(k)!.add(v) : v);
    const exceeded: string[] = [];
    for (const [k, h] of hard) {
      if (!requested.has(k)) continue;
      const n = newUsed.get(k);
      if (n && n.cmp(h) > 0) exceeded.push(k);
    }
    if (exceeded.length > 0) {
      return {
        allowed: false,
        quota: q.metadata.name,
        message: `exceeded quota: ${q.metadata.name}, requested: ${prettyList(mask(requested, exceeded))}, used: ${prettyList(mask(used, exceeded))}, limited: ${prettyList(mask(hard, exceeded))}`,
      };
    }
    const out: Record<string, string> = {};
    for (const [k, v] of newUsed) out[k] = v.toString();
    parsedLists.set(out, newUsed);
    charges.push({ name: q.metadata.name!, used: out });
  }
  return { allowed: true, charges };
}

/** Applies charges to quota objects (in place), as the admission's status write does. */
export function applyCharges(quotas: readonly ResourceQuota[], charges: readonly QuotaCharge[]): void {
  for (const c of charges) {
    const q = quotas.find((x) => x.metadata.name === c.name);
    if (q) q.status = { ...(q.status ?? {}), used: c.used };
  }
}

/**
 * The quota controller's recomputation: status.hard from spec.hard and status.used as the sum
 * over the pods it matches, every tracked key starting at zero, masked to the hard keys; object
 * counts of other kinds (objectcount.ts) from `objectCounts`, keyed `<group>/<resource>`.
 */
export function computeQuotaStatus(
  q: ResourceQuota,
  pods: readonly Pod[],
  opts: QuotaDecisionOptions,
  objectCounts: ReadonlyMap<string, number> = new Map(),
): { hard: Record<string, string>; used: Record<string, string> } {
  const hardSpec = q.spec?.hard ?? {};
  const tracked = podMatchingResources(Object.keys(hardSpec));
  const sum: Resources = new Map();
  for (const name of tracked) sum.set(name, Quantity.zero());
  const probe: ResourceQuota = { ...q, status: { hard: hardSpec } };
  if (tracked.length > 0) {
    for (const pod of pods) {
      if (!podMatchesAllScopes(pod, quotaSelectors(probe), opts.gates)) continue;
      const u = podUsage(pod, opts);
      for (const name of tracked) {
        const v = u.get(name);
        if (v) sum.set(name, sum.get(name)!.add(v));
      }
    }
  }
  const all: Record<string, string> = objectCountUsage(q, objectCounts);
  for (const [name, v] of sum) all[name] = v.canonical();
  const used: Record<string, string> = {};
  for (const name of Object.keys(all).sort()) used[name] = all[name]!;
  const hard: Record<string, string> = {};
  for (const name of Object.keys(hardSpec).sort()) hard[name] = hardSpec[name]!;
  return { hard, used };
}
