// LimitRange (ValidateLimitRange): item types, resource names, min ≤ defaultRequest ≤ default ≤
// max, maxLimitRequestRatio ≥ 1 and ≤ max/min, no defaults for type Pod, storage bounds for
// PersistentVolumeClaim, and equal default/defaultRequest for non-overcommittable resources.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import { Quantity } from '../quantity.js';
import type { LimitRange, LimitRangeItem, ResourceList } from '../types.js';
import { nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta } from './objectmeta.js';
import { parseQuantityAt, sortedKeys } from './quantities.js';
import { isOvercommitAllowed, validateLimitRangeResourceName, validateLimitRangeTypeName } from './resourcenames.js';

/** resource.MaxMilliValue: the largest value whose milli-value fits in int64. */
const maxMilliValue = ((1n << 63n) - 1n) / 1000n;

/** Go's %f of a float64 (six decimals; ±Inf and NaN spelled as Go spells them). */
function goFloatF(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  return x.toFixed(6);
}

export function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs = validateObjectMeta(lr?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const path = FieldPath.root('spec').child('limits');
  const items: LimitRangeItem[] = Array.isArray(lr?.spec?.limits) ? lr.spec.limits : [];
  const types = new Set<string>();

  items.forEach((limit, i) => {
    const p = path.index(i);
    const type = typeof limit?.type === 'string' ? limit.type : '';
    errs.push(...validateLimitRangeTypeName(type, p.child('type')));
    if (types.has(type)) errs.push(fieldError.duplicate(p.child('type'), type));
    types.add(type);

    const keys = new Set<string>();
    const collect = (field: 'max' | 'min' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio'): Map<string, Quantity> => {
      const out = new Map<string, Quantity>();
      const rl = limit?.[field] as ResourceList | undefined;
      for (const k of sortedKeys(rl)) {
        const kp = p.child(field).key(k);
        errs.push(...validateLimitRangeResourceName(type, k, kp));
        keys.add(k);
        const r = parseQuantityAt((rl as Record<string, unknown>)[k], kp);
        if (r.ok) out.set(k, r.q);
        else errs.push(r.error);
      }
      return out;
    };

    const max = collect('max');
    const min = collect('min');
    let defaults = new Map<string, Quantity>();
    let defaultRequests = new Map<string, Quantity>();
    if (type === 'Pod') {
      if (sortedKeys(limit?.default).length > 0) errs.push(fieldError.forbidden(p.child('default'), "may not be specified when `type` is 'Pod'"));
      if (sortedKeys(limit?.defaultRequest).length > 0) errs.push(fieldError.forbidden(p.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      defaults = collect('default');
      defaultRequests = collect('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim') {
      const hasMin = sortedKeys(limit?.min).includes('storage');
      const hasMax = sortedKeys(limit?.max).includes('storage');
      if (!hasMin && !hasMax) {
        errs.push(fieldError.required(p.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
      }
    }
    const ratios = collect('maxLimitRequestRatio');

    for (const k of [...keys].sort()) {
      const mn = min.get(k);
      const mx = max.get(k);
      const def = defaults.get(k);
      const defReq = defaultRequests.get(k);
      const ratio = ratios.get(k);
      const s = (q: Quantity) => q.toString();

      if (mn && mx && mn.cmp(mx) > 0) {
        errs.push(fieldError.invalid(p.child('min').key(k), mn, `min value ${s(mn)} is greater than max value ${s(mx)}`));
      }
      if (defReq && mn && mn.cmp(defReq) > 0) {
        errs.push(fieldError.invalid(p.child('defaultRequest').key(k), defReq, `min value ${s(mn)} is greater than default request value ${s(defReq)}`));
      }
      if (defReq && mx && defReq.cmp(mx) > 0) {
        errs.push(fieldError.invalid(p.child('defaultRequest').key(k), defReq, `default request value ${s(defReq)} is greater than max value ${s(mx)}`));
      }
      if (defReq && def && defReq.cmp(def) > 0) {
        errs.push(fieldError.invalid(p.child('defaultRequest').key(k), defReq, `default request value ${s(defReq)} is greater than default limit value ${s(def)}`));
      }
      if (def && mn && mn.cmp(def) > 0) {
        errs.push(fieldError.invalid(p.child('default').key(k), mn, `min value ${s(mn)} is greater than default value ${s(def)}`));
      }
      if (def && mx && def.cmp(mx) > 0) {
        errs.push(fieldError.invalid(p.child('default').key(k), mx, `default value ${s(def)} is greater than max value ${s(mx)}`));
      }
      if (ratio && ratio.cmp(Quantity.fromInt(1)) < 0) {
        errs.push(fieldError.invalid(p.child('maxLimitRequestRatio').key(k), ratio, `ratio ${s(ratio)} is less than 1`));
      }
      if (ratio && mn && mx) {
        let ratioValue = Number(ratio.value());
        let minValue = mn.value();
        let maxValue = mx.value();
        if (ratio.value() < maxMilliValue && minValue < maxMilliValue && maxValue < maxMilliValue) {
          ratioValue = Number(ratio.milliValue()) / 1000;
          minValue = mn.milliValue();
          maxValue = mx.milliValue();
        }
        const limitRatio = Number(maxValue) / Number(minValue);
        if (ratioValue > limitRatio) {
          errs.push(fieldError.invalid(p.child('maxLimitRequestRatio').key(k), ratio, `ratio ${s(ratio)} is greater than max/min = ${goFloatF(limitRatio)}`));
        }
      }
      if (!isOvercommitAllowed(k) && def && defReq && def.cmp(defReq) !== 0) {
        errs.push(fieldError.invalid(p.child('defaultRequest').key(k), defReq, `default value ${s(def)} must equal to defaultRequest value ${s(defReq)} in ${k}`));
      }
    }
  });
  return errs;
}
