// policy/v1 PodDisruptionBudget in the API server (pkg/registry/policy/poddisruptionbudget
// strategy.go): status cleared on create, kept by spec writes and generation bumped when the
// spec changes; the status subresource changes status only. Validation is
// api/validation/poddisruptionbudget.ts.

import type { PodDisruptionBudget } from '../api/types.js';
import { validatePodDisruptionBudget, validatePodDisruptionBudgetStatusUpdate, validatePodDisruptionBudgetUpdate } from '../api/validation/index.js';
import type { Strategy } from './rest.js';
import { statusErrors } from './status.js';
import { semanticEqual } from '../api/semanticequal.js';

const group = 'policy';

/** PodDisruptionBudgetStatus{} as Go serializes it: the four counts have no omitempty. */
const emptyStatus = () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });

export const podDisruptionBudgetStrategy: Strategy = {
  setsGeneration: true,
  async create(obj) {
    const pdb = obj as PodDisruptionBudget;
    pdb.status = emptyStatus();
    const errs = validatePodDisruptionBudget(pdb);
    if (errs.length) throw statusErrors.invalid('PodDisruptionBudget', group, pdb.metadata?.name ?? '', errs);
    return { obj: pdb };
  },
  async update(obj, old, _req, _api, subresource) {
    const prev = old as PodDisruptionBudget;
    const name = prev.metadata?.name ?? '';
    const generation = prev.metadata?.generation ?? 1;
    if (subresource === 'status') {
      const pdb = { ...(obj as PodDisruptionBudget), spec: prev.spec };
      pdb.metadata = { ...pdb.metadata, generation };
      pdb.status = { ...emptyStatus(), ...(pdb.status ?? {}) };
      const errs = validatePodDisruptionBudgetStatusUpdate(pdb, prev);
      if (errs.length) throw statusErrors.invalid('PodDisruptionBudget', group, name, errs);
      return { obj: pdb };
    }
    const pdb = { ...(obj as PodDisruptionBudget), status: prev.status };
    pdb.metadata = { ...pdb.metadata, generation: semanticEqual(pdb.spec, prev.spec) ? generation : generation + 1 };
    const errs = validatePodDisruptionBudgetUpdate(pdb, prev);
    if (errs.length) throw statusErrors.invalid('PodDisruptionBudget', group, name, errs);
    return { obj: pdb };
  },
};
