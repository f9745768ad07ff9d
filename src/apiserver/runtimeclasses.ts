// node.k8s.io/v1 RuntimeClass in the API server (pkg/registry/node/runtimeclass strategy.go):
// nothing is cleared or defaulted, ValidateRuntimeClass on create, and on update the same plus
// ValidateRuntimeClassUpdate (the handler is immutable). The pod create path reads every class
// from the watch cache for the RuntimeClass admission plugin (admission/runtimeclass.ts).

import { canonicalList } from '../api/defaults.js';
import type { Pod, RuntimeClass } from '../api/types.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from '../api/validation/index.js';
import type { Api, Strategy } from './rest.js';
import { statusErrors } from './status.js';

const group = 'node.k8s.io';

/** Every RuntimeClass there is: from the watch cache when the server keeps one. */
export async function listRuntimeClasses(api: Api): Promise<RuntimeClass[]> {
  const cache = api.caches.get('runtimeclasses');
  if (cache) return cache.list().map((c) => c.obj as RuntimeClass);
  return (await api.list(api.def('runtimeclasses'), undefined)).items as RuntimeClass[];
}

/**
 * The class a new pod names, for the admission plugin: [] when it names none or none exists.
 * The watch cache first; on a miss a live read, as the plugin's lister miss falls back to a GET
 * (the cache may lag a class created just before).
 */
export async function runtimeClassesFor(api: Api, pod: Pod): Promise<RuntimeClass[]> {
  const name = pod.spec?.runtimeClassName;
  if (typeof name !== 'string') return [];
  const cached = api.caches.get('runtimeclasses')?.get(undefined, name)?.obj as RuntimeClass | undefined;
  const rc = cached ?? (await api.tryGet<RuntimeClass>(api.def('runtimeclasses'), undefined, name));
  return rc ? [rc] : [];
}

/** SetDefaults_ResourceList on overhead.podFixed: quantities as the server prints them. */
function prepared(rc: RuntimeClass): RuntimeClass {
  if (rc.overhead?.podFixed && typeof rc.overhead.podFixed === 'object') rc.overhead = { ...rc.overhead, podFixed: canonicalList(rc.overhead.podFixed)! };
  return rc;
}

export const runtimeClassStrategy: Strategy = {
  // The registry's AllowCreateOnUpdate: a PUT of a missing object creates it; and its
  // AllowUnconditionalUpdate is false: a PUT without a resourceVersion is a 422.
  allowCreateOnUpdate: true,
  requiresResourceVersion: true,
  async create(obj) {
    const rc = prepared(obj as RuntimeClass);
    const errs = validateRuntimeClass(rc);
    if (errs.length) throw statusErrors.invalid('RuntimeClass', group, rc.metadata?.name ?? '', errs);
    return { obj: rc };
  },
  async update(obj, old) {
    const rc = prepared(obj as RuntimeClass);
    const errs = validateRuntimeClassUpdate(rc, old as RuntimeClass);
    if (errs.length) throw statusErrors.invalid('RuntimeClass', group, old.metadata?.name ?? '', errs);
    return { obj: rc };
  },
};
