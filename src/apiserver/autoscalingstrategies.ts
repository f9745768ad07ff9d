// autoscaling HorizontalPodAutoscaler in the API server (pkg/registry/autoscaling/
// horizontalpodautoscaler strategy.go at 1.32): status cleared on create and kept by spec writes;
// the status subresource changes status only; v2's defaults on every write (as decoding does
// upstream). The strategy sees the stored v2 form: a v1 body was converted by the Api first.
// Validation is api/validation/horizontalpodautoscaler.ts.

import { defaultHorizontalPodAutoscaler } from '../api/autoscalingdefaults.js';
import type { HorizontalPodAutoscaler } from '../api/types.js';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatusUpdate, validateHorizontalPodAutoscalerUpdate } from '../api/validation/index.js';
import type { Strategy } from './rest.js';
import { statusErrors } from './status.js';

const group = 'autoscaling';
const kind = 'HorizontalPodAutoscaler';

/** HorizontalPodAutoscalerStatus{} as Go serializes it: desiredReplicas has no omitempty. */
const emptyStatus = () => ({ desiredReplicas: 0 });

export const horizontalPodAutoscalerStrategy: Strategy = {
  async create(obj) {
    const hpa = defaultHorizontalPodAutoscaler(obj as HorizontalPodAutoscaler);
    hpa.status = emptyStatus();
    const errs = validateHorizontalPodAutoscaler(hpa);
    if (errs.length) throw statusErrors.invalid(kind, group, hpa.metadata?.name ?? '', errs);
    return { obj: hpa };
  },
  async update(obj, old, _req, _api, subresource) {
    const prev = old as HorizontalPodAutoscaler;
    const name = prev.metadata?.name ?? '';
    if (subresource === 'status') {
      const hpa = { ...(obj as HorizontalPodAutoscaler), spec: prev.spec };
      hpa.status = { ...emptyStatus(), ...(hpa.status ?? {}) };
      const errs = validateHorizontalPodAutoscalerStatusUpdate(hpa, prev);
      if (errs.length) throw statusErrors.invalid(kind, group, name, errs);
      return { obj: hpa };
    }
    const hpa = defaultHorizontalPodAutoscaler({ ...(obj as HorizontalPodAutoscaler) });
    if (subresource !== 'delete') hpa.status = prev.status;
    const errs = validateHorizontalPodAutoscalerUpdate(hpa, prev);
    if (errs.length) throw statusErrors.invalid(kind, group, name, errs);
    return { obj: hpa };
  },
};
