// scheduling.k8s.io/v1 PriorityClass in the API server, as kube-apiserver serves it:
// pkg/registry/scheduling/priorityclass (strategy.go: defaulting, ValidatePriorityClass on
// create, ValidatePriorityClassUpdate on update; storage/storage.go: the system classes cannot
// be deleted), the Priority admission plugin's validating half (one globalDefault class), and
// pkg/registry/scheduling/rest's post-start hook that creates the built-in classes when missing.
// The rules themselves are pure, in api/validation/priorityclass.ts and admission/priority.ts.

import { admitPriorityClass, builtInPriorityClasses, defaultPriorityClassFields } from '../admission/priority.js';
import type { PriorityClass } from '../api/types.js';
import { systemPriorityClasses, validatePriorityClass, validatePriorityClassUpdate } from '../api/validation/index.js';
import type { Api, RequestInfo, Strategy } from './rest.js';
import { statusErrors, StatusError } from './status.js';

const group = 'scheduling.k8s.io';
const gr = { group, resource: 'priorityclasses' };

/** Every PriorityClass there is: from the watch cache when the server keeps one. */
export async function listPriorityClasses(api: Api): Promise<PriorityClass[]> {
  const cache = api.caches.get('priorityclasses');
  if (cache) return cache.list().map((c) => c.obj as PriorityClass);
  return (await api.list(api.def('priorityclasses'), undefined)).items as PriorityClass[];
}

/** The decoder's defaulting, and Go's omitempty for the fields that have it. */
function prepared(obj: PriorityClass): PriorityClass {
  const pc = defaultPriorityClassFields(obj);
  if (pc.globalDefault === false) delete pc.globalDefault;
  if (pc.description === '') delete pc.description;
  return pc;
}

export const priorityClassStrategy: Strategy = {
  async create(obj, _req, api) {
    const pc = prepared(obj as PriorityClass);
    const name = pc.metadata?.name ?? '';
    const errs = validatePriorityClass(pc);
    if (errs.length) throw statusErrors.invalid('PriorityClass', group, name, errs);
    const why = admitPriorityClass(pc, await listPriorityClasses(api), 'create');
    if (why) throw statusErrors.forbidden(gr, name, why);
    return { obj: pc };
  },
  async update(obj, old, _req, api) {
    const pc = prepared(obj as PriorityClass);
    const name = old.metadata?.name ?? '';
    const errs = validatePriorityClassUpdate(pc, old as PriorityClass);
    if (errs.length) throw statusErrors.invalid('PriorityClass', group, name, errs);
    const why = admitPriorityClass(pc, await listPriorityClasses(api), 'update');
    if (why) throw statusErrors.forbidden(gr, name, why);
    return { obj: pc };
  },
  async delete(obj) {
    const name = obj.metadata?.name ?? '';
    if (systemPriorityClasses.some((c) => c.name === name)) throw statusErrors.forbidden(gr, name, 'this is a system priority class and cannot be deleted');
    return undefined;
  },
};

/** The post-start hook: each built-in class is created unless it exists. */
export async function ensureSystemPriorityClasses(api: Api, req: RequestInfo): Promise<void> {
  const def = api.def('priorityclasses');
  for (const pc of builtInPriorityClasses()) {
    if (await api.tryGet(def, undefined, pc.metadata.name!)) continue;
    try {
      // Upstream's hook writes through the loopback client, so the manager is kube-apiserver.
      await api.create(def, undefined, pc, { ...req, userAgent: 'kube-apiserver', warnings: [] });
    } catch (e) {
      // Another server sharing the store made it first.
      if (!(e instanceof StatusError && e.code === 409)) throw e;
    }
  }
}
