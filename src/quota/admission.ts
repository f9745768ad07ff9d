// The ResourceQuota admission decision for a pod create (apiserver resourcequota controller.go
// CheckRequest): every quota whose status.hard the pod evaluator tracks and whose scopes the
// pod matches must allow it; the first that does not ends the request with Kubernetes' message.
// With the plugin's configuration, what it limits by default (limited.ts) must also be covered
// by a quota.

import type { FeatureGates } from '../api/featuregates.js';
import { isPodLevelResourcesSet } from '../api/podresources.js';
import { Quantity } from '../api/quantity.js';
import { parseResourceList, type Resources } from '../api/resourcelist.js';
import type { Container, Pod, ResourceQuota, ScopedResourceSelectorRequirement } from '../api/types.js';
import { podMatchesAllScopes, podMatchesQuotaScopes, podMatchingScopes, quotaSelectors, scopeSelectorError } from './scopes.js';
import type { LimitedResource } from './config.js';
import { limitedByDefault, limitedResourcesFor, uncoveredConsumption, uncoveredQuotaScopes, uncoveredScopesMessage } from './limited.js';
import { containerUsageHas, podUsage } from './usage.js';
import { podMatchingResources, quotaValidationSet } from './resourcenames.js';
import { objectCountUsage } from './objectcount.js';
import { serviceQuotaUsage } from './services.js';
import type { Service } from '../api/servicetypes.js';

export interface QuotaDecisionOptions {
  gates: Pick<FeatureGates, 'PodLevelResources'>;
  now: Date;
  /** The plugin configuration's limitedResources (config.ts); none when absent. */
  limitedResources?: readonly LimitedResource[];
}

/**
 * What decideQuotas works out from the pod alone (its usage, which quotas' scopes it matches,
 * which of their names it leaves unstated), kept across calls for pods the same in all but name
 * (`bulkhead plan`'s replicas, plan/podmemo.ts): one object per such set of pods, with the same
 * quota objects and options.
 */
export interface PodQuotaFacts {
  usage?: { delta: Resources; negative?: string[] };
  matches?: Map<ResourceQuota, boolean>;
  constraints?: Map<readonly string[], string | undefined>;
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
  | {
      allowed: false;
      /** The quota that refused, when one did. */
      quota?: string;
      message: string;
      /** Refused by the configuration's limitedResources: no quota covers what the object consumes, or a scope the pod matches. */
      limited?: true;
      /**
       * Upstream returns a plain error here, not admission.NewForbidden: the API answers 500 with
       * no reason and `message` alone, unwrapped.
       */
      plainError?: true;
    };

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
  return podMatchesQuotaScopes(pod, q, gates);
}

/**
 * Constraints: cpu/memory quotas require every container and init container to state them.
 * Skipped entirely when pod-level resources are set and the PodLevelResources gate is on
 * (pods.go Constraints); without `gates` the check always applies.
 */
export function quotaConstraints(required: readonly string[], pod: Pod, gates?: Pick<FeatureGates, 'PodLevelResources'>): string | undefined {
  if (gates?.PodLevelResources && isPodLevelResourcesSet(pod)) return undefined;
  let missing: Map<string, Set<string>> | undefined;
  for (const c of pod.spec.containers ?? []) missing = noteMissing(missing, c, required);
  for (const c of pod.spec.initContainers ?? []) missing = noteMissing(missing, c, required);
  if (!missing) return undefined;
  const m = missing;
  const parts = [...m.keys()].sort().map((r) => `${r} for: ${[...m.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/** `missing` with the required names of the validation set that the container does not state (created when there is one). */
function noteMissing(missing: Map<string, Set<string>> | undefined, c: Container, required: readonly string[]): Map<string, Set<string>> | undefined {
  for (const r of required) {
    if (!quotaValidationSet.has(r) || containerUsageHas(c, r)) continue;
    missing ??= new Map();
    let s = missing.get(r);
    if (!s) missing.set(r, (s = new Set()));
    s.add(c.name);
  }
  return missing;
}

/**
 * Parsed status lists by object: a namespace's quotas keep their status.hard from pod to pod,
 * and the status.used a charge wrote is the next pod's input, so neither is parsed again. The
 * maps are shared: read them, never change them. A Map emptied when full rather than a WeakMap:
 * every charge adds a list, and adding to a WeakMap costs more than the parse it saves.
 */
interface ParsedList {
  parsed?: Resources;
  /** For a status.hard: its keys the pod evaluator tracks. */
  tracked?: readonly string[];
}

const parsedLists = new Map<object, ParsedList>();
const maxParsedLists = 1024;

function remembered(list: Record<string, string>): ParsedList {
  let entry = parsedLists.get(list);
  if (!entry) {
    if (parsedLists.size >= maxParsedLists) parsedLists.clear();
    parsedLists.set(list, (entry = {}));
  }
  return entry;
}

function parsedList(list: Record<string, string> | undefined): Resources {
  if (!list || typeof list !== 'object') return parseResourceList(list);
  const entry = remembered(list);
  return (entry.parsed ??= parseResourceList(list));
}

/** The keys of a status.hard the pod evaluator tracks. */
function podTrackedNames(hard: Record<string, string> | undefined): readonly string[] {
  if (!hard || typeof hard !== 'object') return podMatchingResources(Object.keys(hard ?? {}));
  const entry = remembered(hard);
  return (entry.tracked ??= podMatchingResources(Object.keys(hard)));
}

/** The pod's usage without its zero entries, or the names of its negative ones. */
function chargedUsage(pod: Pod, opts: QuotaDecisionOptions): { delta: Resources; negative?: string[] } {
  const delta = podUsage(pod, opts);
  let negative: string[] | undefined;
  for (const [k, v] of delta) if (v.sign() < 0) (negative ??= []).push(k);
  if (negative) return { delta, negative };
  for (const [k, v] of delta) if (v.isZero()) delta.delete(k);
  return { delta };
}

/** The error of the first selector of the quota's scope selector that cannot be matched (spec.scopes always can). */
function quotaSelectorError(q: ResourceQuota): string | undefined {
  for (const sel of q.spec?.scopeSelector?.matchExpressions ?? []) {
    const error = scopeSelectorError(sel);
    if (error !== undefined) return error;
  }
  return undefined;
}

export function decideQuotas(pod: Pod, quotas: readonly ResourceQuota[], opts: QuotaDecisionOptions, facts?: PodQuotaFacts): QuotaDecision {
  const limited = opts.limitedResources ?? [];
  // No quotas in the namespace and nothing limited by default: allowed outright (checkAttributes).
  if (quotas.length === 0 && limited.length === 0) return { allowed: true, charges: [] };
  // The limited scopes the pod matches, from every entry whatever its resource (only the pod
  // evaluator matches scopes). A selector that cannot be matched ends CheckRequest with no
  // error: upstream lets the pod through unchecked and uncharged.
  const limitedScopes: ScopedResourceSelectorRequirement[] = [];
  for (const l of limited) {
    if (l.matchScopes.length === 0) continue;
    const m = podMatchingScopes(pod, l.matchScopes, opts.gates);
    if ('error' in m) return { allowed: true, charges: [] };
    limitedScopes.push(...m.matched);
  }
  const limitedEntries = limitedResourcesFor(limited, '', 'pods');
  // What the matching quotas limit, and the selectors of every quota the pod matches: what covers the limited names and scopes.
  const covered = new Set<string>();
  const matchedQuotaScopes: ScopedResourceSelectorRequirement[] = [];
  const interesting: ResourceQuota[] = [];
  for (const q of quotas) {
    // MatchingScopes, of every quota whether it matches or not: a selector it cannot match is a plain error.
    const selectorError = quotaSelectorError(q);
    if (selectorError !== undefined) {
      return { allowed: false, quota: q.metadata.name, message: `error matching scopes of quota ${q.metadata.name}, err: ${selectorError}`, plainError: true };
    }
    if (limitedScopes.length > 0) {
      const m = podMatchingScopes(pod, quotaSelectors(q), opts.gates);
      if ('matched' in m) matchedQuotaScopes.push(...m.matched);
    }
    // quotaMatchesPod, with the tracked names it finds kept for what follows.
    const restricted = podTrackedNames(q.status?.hard);
    if (restricted.length === 0) continue;
    let matches = facts?.matches?.get(q);
    if (matches === undefined) {
      matches = podMatchesQuotaScopes(pod, q, opts.gates);
      if (facts) (facts.matches ??= new Map()).set(q, matches);
    }
    if (!matches) continue;
    let constraint: string | undefined;
    if (facts?.constraints?.has(restricted)) constraint = facts.constraints.get(restricted);
    else {
      constraint = quotaConstraints(restricted, pod, opts.gates);
      if (facts) (facts.constraints ??= new Map()).set(restricted, constraint);
    }
    if (constraint) return { allowed: false, quota: q.metadata.name, message: `failed quota: ${q.metadata.name}: ${constraint}` };
    const used = q.status?.used ?? {};
    for (const r of restricted) {
      if (!(r in used)) return { allowed: false, quota: q.metadata.name, message: `status unknown for quota: ${q.metadata.name}, resources: ${prettyNames(restricted)}` };
    }
    interesting.push(q);
    for (const r of restricted) covered.add(r);
  }

  const { delta, negative } = facts ? (facts.usage ??= chargedUsage(pod, opts)) : chargedUsage(pod, opts);
  if (negative) return { allowed: false, message: `quota usage is negative for resource(s): ${prettyNames(negative)}` };
  if (delta.size === 0) return { allowed: true, charges: [] };

  // What is left of the usage is positive: limitedByDefault reads the same names.
  if (limitedEntries.length > 0) {
    const refusal = uncoveredConsumption(limitedByDefault(delta.keys(), limitedEntries), covered);
    if (refusal) return { allowed: false, message: refusal, limited: true };
  }
  if (limitedScopes.length > 0) {
    const uncovered = uncoveredQuotaScopes(limitedScopes, matchedQuotaScopes);
    if (uncovered.length > 0) return { allowed: false, message: uncoveredScopesMessage(uncovered), limited: true, plainError: true };
  }

  const charges: QuotaCharge[] = [];
  for (const q of interesting) {
    const hard = parsedList(q.status?.hard);
    const used = parsedList(q.status?.used);
    // status.used after the pod: what it requests of the hard names added, in hard's order.
    const newUsed: Resources = new Map();
    for (const [k, v] of used) newUsed.set(k, v);
    let exceeded: string[] | undefined;
    for (const [k, h] of hard) {
      const v = delta.get(k);
      if (v === undefined) continue;
      const cur = used.get(k);
      const n = cur ? cur.add(v) : v;
      newUsed.set(k, n);
      if (n.cmp(h) > 0) (exceeded ??= []).push(k);
    }
    if (exceeded) {
      const requested = mask(delta, hard.keys());
      return {
        allowed: false,
        quota: q.metadata.name,
        message: `exceeded quota: ${q.metadata.name}, requested: ${prettyList(mask(requested, exceeded))}, used: ${prettyList(mask(used, exceeded))}, limited: ${prettyList(mask(hard, exceeded))}`,
      };
    }
    const out: Record<string, string> = {};
    for (const [k, v] of newUsed) out[k] = v.toString();
    remembered(out).parsed = newUsed;
    // The status.used this charge replaces is the next pod's input no more: its entry goes now
    // rather than when the memo fills, so that a plan's chain of charges does not outlive the
    // young generation. (Should the charge not be written after all, the list is parsed again.)
    const replaced = q.status?.used;
    if (replaced && replaced !== q.status?.hard) parsedLists.delete(replaced);
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
 * counts of other kinds (objectcount.ts) from `objectCounts`, keyed `<group>/<resource>`; the
 * service resources (services.ts) from the namespace's `services`.
 */
export function computeQuotaStatus(
  q: ResourceQuota,
  pods: readonly Pod[],
  opts: QuotaDecisionOptions,
  objectCounts: ReadonlyMap<string, number> = new Map(),
  services: readonly Service[] = [],
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
  const all: Record<string, string> = { ...objectCountUsage(q, objectCounts), ...serviceQuotaUsage(q, services) };
  for (const [name, v] of sum) all[name] = v.canonical();
  const used: Record<string, string> = {};
  for (const name of Object.keys(all).sort()) used[name] = all[name]!;
  const hard: Record<string, string> = {};
  for (const name of Object.keys(hardSpec).sort()) hard[name] = hardSpec[name]!;
  return { hard, used };
}
