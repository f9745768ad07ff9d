// Object-count quota for kinds other than pods (quota/v1/generic/evaluator.go
// ObjectCountEvaluator and the legacy aliases of quota/v1/evaluator/core/registry.go): every
// object of a counted kind counts 1 under `count/<resource>[.<group>]` and, for configmaps,
// secrets and resourcequotas, also under the legacy name. Which kinds are counted is upstream's
// rule, not a list: every namespaced resource the server serves with the verbs the quota
// controller needs (create, list, watch, delete: GetQuotableResources), but pods and services
// (their own evaluators) and quota/v1/install's ignored resources (events, the review kinds). Charged on
// create only; quotas with scopes never match (the generic evaluator matches no scope). Pure:
// the caller supplies the served resources, quotas and counts. The plugin configuration's
// limitedResources (limited.ts) apply to these kinds too: a create whose count names a limited
// resource needs a quota limiting it.

import { Quantity } from '../api/quantity.js';
import { parseResourceList, type Resources } from '../api/resourcelist.js';
import type { ResourceQuota } from '../api/types.js';
import { quotaSelectors } from './scopes.js';
import type { QuotaCharge, QuotaDecision } from './admission.js';
import type { LimitedResource } from './config.js';
import { limitedByDefault, limitedResourcesFor, uncoveredConsumption } from './limited.js';

/** legacyObjectCountAliases: the names these core kinds were counted under before `count/`. */
const legacyAliases: Record<string, string> = { configmaps: 'configmaps', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers', secrets: 'secrets' };

/** quota/v1/install's ignoredResources (`<group>/<resource>`): never stored, or never quota-ed (events). */
const ignoredResources = new Set([
  '/bindings',
  '/componentstatuses',
  'authentication.k8s.io/tokenreviews',
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  '/events',
  'events.k8s.io/events',
]);

/** The verbs discovery must list for a resource to be quotable (resourcequota's GetQuotableResources). */
const quotableVerbs = ['create', 'list', 'watch', 'delete'];

/** A served resource as quota sees it. */
export interface ServedResource {
  group: string;
  resource: string;
  namespaced: boolean;
  verbs?: readonly string[];
}

/**
 * Whether objects of this served resource are counted under `count/<resource>[.<group>]` by the
 * generic evaluator: not pods and services, which have evaluators of their own (pods: admission.ts,
 * services: services.ts), as upstream's registry puts them before the generic ones.
 */
export function countsObjects(r: ServedResource): boolean {
  if (!r.namespaced || (r.group === '' && (r.resource === 'pods' || r.resource === 'services'))) return false;
  if (ignoredResources.has(`${r.group}/${r.resource}`)) return false;
  return quotableVerbs.every((v) => r.verbs?.includes(v));
}

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** The quota names one object of this kind is charged under. */
export function objectCountResourceNames(group: string, resource: string): string[] {
  const names = [objectCountName(group, resource)];
  const alias = group === '' ? legacyAliases[resource] : undefined;
  if (alias) names.push(alias);
  return names;
}

function hasScopes(q: ResourceQuota): boolean {
  return quotaSelectors(q).length > 0;
}

/** The keys of status.hard that an object of this kind is charged under, if the quota matches it. */
function matching(q: ResourceQuota, names: readonly string[]): string[] {
  if (hasScopes(q)) return [];
  const hard = q.status?.hard ?? {};
  return names.filter((n) => n in hard);
}

function prettyList(m: Resources, keys: readonly string[]): string {
  return [...keys].sort().map((k) => `${k}=${m.get(k)?.toString() ?? '0'}`).join(',');
}

/**
 * The quota decision for creating one object of this kind (CheckRequest with the object-count
 * evaluator): status must be known for every matched key, what the configuration limits must be
 * covered, and no quota may go over its limit.
 */
export function decideObjectCount(group: string, resource: string, quotas: readonly ResourceQuota[], limited: readonly LimitedResource[] = []): QuotaDecision {
  const names = objectCountResourceNames(group, resource);
  const entries = limitedResourcesFor(limited, group, resource);
  return decideCountCharge(names, Object.fromEntries(names.map((n) => [n, 1])), quotas, entries.length > 0 ? limitedByDefault(names, entries) : []);
}

/**
 * CheckRequest for an evaluator of whole counts and no scopes: `names` are the resources the
 * evaluator covers, `delta` what this request adds (the usage of a create; on an update, the
 * new usage less the old, negatives dropped). Every matching quota must know its usage of the
 * covered names it limits; a request that adds nothing is allowed without a charge; otherwise
 * every name of `limitedNames` (the configuration's limitedByDefault of the object's usage) must
 * be limited by some matching quota, no quota may go over a limit, and each matching quota is
 * charged.
 */
export function decideCountCharge(
  names: readonly string[],
  delta: Readonly<Record<string, number>>,
  quotas: readonly ResourceQuota[],
  limitedNames: readonly string[] = [],
): QuotaDecision {
  const covered = new Set<string>();
  for (const q of quotas) {
    const matched = matching(q, names);
    if (matched.length === 0) continue;
    const used = q.status?.used ?? {};
    if (matched.some((n) => !(n in used))) {
      return { allowed: false, quota: q.metadata.name, message: `status unknown for quota: ${q.metadata.name}, resources: ${[...matched].sort().join(',')}` };
    }
    for (const n of matched) covered.add(n);
  }
  if (!names.some((n) => (delta[n] ?? 0) > 0)) return { allowed: true, charges: [] };
  const refusal = uncoveredConsumption(limitedNames, covered);
  if (refusal) return { allowed: false, message: refusal, limited: true };
  const charges: QuotaCharge[] = [];
  for (const q of quotas) {
    const matched = matching(q, names);
    if (matched.length === 0) continue;
    const hard = parseResourceList(q.status?.hard);
    const used = parseResourceList(q.status?.used);
    const requested: Resources = new Map(matched.map((n) => [n, Quantity.fromInt(Math.max(0, delta[n] ?? 0))] as const));
    const newUsed = new Map(used);
    for (const n of matched) newUsed.set(n, (used.get(n) ?? Quantity.zero()).add(requested.get(n)!));
    const exceeded = matched.filter((n) => newUsed.get(n)!.cmp(hard.get(n)!) > 0);
    if (exceeded.length > 0) {
      return {
        allowed: false,
        quota: q.metadata.name,
        message: `exceeded quota: ${q.metadata.name}, requested: ${prettyList(requested, exceeded)}, used: ${prettyList(used, exceeded)}, limited: ${prettyList(hard, exceeded)}`,
      };
    }
    const out: Record<string, string> = {};
    for (const [k, v] of newUsed) out[k] = v.toString();
    charges.push({ name: q.metadata.name!, used: out });
  }
  return { allowed: true, charges };
}

/**
 * status.used entries for the object counts a quota tracks (the controller's recount), given
 * how many objects of each counted kind the namespace holds, keyed `<group>/<resource>`: the
 * map's keys are the counted kinds (a kind with none is there with 0).
 */
export function objectCountUsage(q: ResourceQuota, counts: ReadonlyMap<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  if (hasScopes(q)) return out;
  const hard = q.spec?.hard ?? {};
  for (const [key, n] of counts) {
    const slash = key.indexOf('/');
    for (const name of objectCountResourceNames(key.slice(0, slash), key.slice(slash + 1))) if (name in hard) out[name] = String(n);
  }
  return out;
}

/** Whether a quota's spec.hard names an object count of any of the `counted` kinds. */
export function tracksObjectCounts(q: ResourceQuota, counted: readonly { group: string; resource: string }[]): boolean {
  const hard = q.spec?.hard ?? {};
  return counted.some(({ group, resource }) => objectCountResourceNames(group, resource).some((n) => n in hard));
}
