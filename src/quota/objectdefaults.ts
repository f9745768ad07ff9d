// SetDefaults_ResourceList as the v1 defaulters apply it to the two quota-side objects
// (pkg/apis/core/v1/zz_generated.defaults.go SetObjectDefaults_ResourceQuota and
// SetObjectDefaults_LimitRange): every quantity of their resource lists rounded up to milli scale
// and written as the API server writes it after a round trip ("1" for "1000m", "1Gi" for
// "1024Mi"), before validation, as decoding defaults an object before its strategy validates it.
// A value that does not parse is left as sent, for validation to refuse. Used by the API server's
// strategies and by `plan` alike; `obj` is changed in place.

import { canonicalList } from '../api/defaults.js';
import type { LimitRange, ResourceQuota } from '../api/types.js';

const limitRangeLists = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** A plain object, as a resource list must be (anything else is validation's to refuse). */
function isList(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** spec.hard, status.hard and status.used. */
export function defaultResourceQuotaLists(q: ResourceQuota): ResourceQuota {
  if (isList(q.spec?.hard)) q.spec.hard = canonicalList(q.spec.hard)!;
  if (isList(q.status?.hard)) q.status.hard = canonicalList(q.status.hard)!;
  if (isList(q.status?.used)) q.status.used = canonicalList(q.status.used)!;
  return q;
}

/** Each item's max, min, default, defaultRequest and maxLimitRequestRatio. */
export function defaultLimitRangeLists(lr: LimitRange): LimitRange {
  const limits = lr.spec?.limits;
  if (!Array.isArray(limits)) return lr;
  for (const item of limits) {
    if (typeof item !== 'object' || item === null) continue;
    const lists = item as unknown as Record<string, unknown>;
    for (const name of limitRangeLists) if (isList(lists[name])) lists[name] = canonicalList(lists[name] as Record<string, string>);
  }
  return lr;
}
