// rest.BeforeUpdate's validateCommonFields: the metadata checks every kind's update gets before
// its own validation (uid, name, namespace and creationTimestamp immutable; labels, annotations,
// owner references and finalizers as on create), reported in one 422 with the kind's own errors.

import type { FieldError } from '../api/fielderrors.js';
import type { KubeObject } from '../api/types.js';
import { validateCommonUpdateFields } from '../api/validation/objectmeta.js';
import type { Api, GuardedWrite, RequestInfo, Strategy } from './rest.js';
import type { ResourceDef } from './resources.js';
import { statusErrors, StatusError } from './status.js';

/**
 * The kind's update (its validation and admission) after the common checks. Bulkhead's internal
 * writes (a graceful delete's mark, a binding) build their metadata from the stored object and
 * skip them.
 */
export async function updateWithCommonChecks(
  api: Api,
  def: ResourceDef,
  strat: Strategy,
  obj: KubeObject,
  old: KubeObject,
  req: RequestInfo,
  subresource?: string,
): Promise<{ obj: KubeObject; writes?: GuardedWrite[] }> {
  const common = subresource === 'delete' || subresource === 'binding' ? [] : validateCommonUpdateFields(obj.metadata, old.metadata, def.namespaced);
  if (common.length === 0) return strat.update ? strat.update(obj, old, req, api, subresource) : { obj };
  let own: FieldError[] = [];
  try {
    if (strat.update) await strat.update(obj, old, req, api, subresource);
  } catch (e) {
    // Admission runs after validation upstream: only the kind's validation errors join these.
    if (e instanceof StatusError && e.fieldErrors) own = e.fieldErrors;
  }
  throw statusErrors.invalid(def.kind, def.group, obj.metadata?.name ?? '', [...common, ...own]);
}
