// Object-count quota for kinds other than pods (quota/v1/generic/evaluator.go
// ObjectCountEvaluator and the legacy aliases of quota/v1/evaluator/core/registry.go): every
// object of the kind counts 1 under `count/<resource>[.<group>]` and, for configmaps and
// secrets, also under the legacy name. Charged on create only; quotas with scopes never match
// (the generic evaluator matches no scope). Pure: the caller supplies quotas and counts.

import { Quantity } from '../api/quantity.js';
import { parseResourceList, type Resources } from '../api/resourcelist.js';
import type { ResourceQuota } from '../api/types.js';
import { quotaSelectors } from './scopes.js';
import type { QuotaCharge, QuotaDecision } from './admission.js';

/** The kinds Bulkhead counts this way, by group and resource, with their legacy alias. */
const legacyAliases: Record<string, string> = { configmaps: 'configmaps', secrets: 'secrets' };
export const countedResources: readonly { group: string; resource: string }[] = [
  { group: '', resource: 'configmaps' },
  { group: '', resource: 'secrets' },
  { group: '', resource: 'serviceaccounts' },
  { group: 'batch', resource: 'jobs' },
  { group: 'batch', resource: 'cronjobs' },
  { group: 'apps', resource: 'deployments' },
  { group: 'apps', resource: 'replicasets' },
  { group: 'apps', resource: 'statefulsets' },
  { group: 'apps', resource: 'daemonsets' },
];

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
 * evaluator): status must be known for every matched key, and no quota may go over its limit.
 */
export function decideObjectCount(group: string, resource: string, quotas: readonly ResourceQuota[]): QuotaDecision {
  const names = objectCountResourceNames(group, resource);
  const charges: QuotaCharge[] = [];
  for (const q of quotas) {
    const matched = matching(q, names);
    if (matched.length === 0) continue;
    const used = q.status?.used ?? {};
    if (matched.some((n) => !(n in used))) {
      return { allowed: false, quota: q.metadata.name, message: `status unknown for quota: ${q.metadata.name}, resources: ${[...matched].sort().join(',')}` };
    }
  }
  for (const q of quotas) {
    const matched = matching(q, names);
    if (matched.length === 0) continue;
    const hard = parseResourceList(q.status?.hard);
    const used = parseResourceList(q.status?.used);
    const one = Quantity.fromInt(1);
    const requested: Resources = new Map(matched.map((n) => [n, one] as const));
    const newUsed = new Map(used);
    for (const n of matched) newUsed.set(n, (used.get(n) ?? Quantity.zero()).add(one));
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
 * how many objects of each counted kind the namespace holds (keyed `<group>/<resource>`).
 */
export function objectCountUsage(q: ResourceQuota, counts: ReadonlyMap<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  if (hasScopes(q)) return out;
  const hard = q.spec?.hard ?? {};
  for (const { group, resource } of countedResources) {
    const n = counts.get(`${group}/${resource}`) ?? 0;
    for (const name of objectCountResourceNames(group, resource)) if (name in hard) out[name] = String(n);
  }
  return out;
}

/** Whether a quota's spec.hard names any object count this module tracks. */
export function tracksObjectCounts(q: ResourceQuota): boolean {
  const hard = q.spec?.hard ?? {};
  return countedResources.some(({ group, resource }) => objectCountResourceNames(group, resource).some((n) => n in hard));
}
