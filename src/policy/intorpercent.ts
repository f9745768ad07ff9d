// k8s.io/apimachinery/pkg/util/intstr GetScaledValueFromIntOrPercent and ValueOrDefault: how
// maxSurge and maxUnavailable (Deployment, DaemonSet, StatefulSet) become pod counts. Pure.

import type { IntOrString } from '../api/types.js';

/**
 * GetScaledValueFromIntOrPercent: an int as it is; "N%" (N as strconv.Atoi reads it, sign
 * allowed) of `total`, rounded up or down; anything else is intstr's error, word for word
 * (validation refuses such values before a controller sees them). A missing value is an error
 * too: callers default it first (ValueOrDefault, `v ?? fallback`).
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) throw new Error('nil value for IntOrString');
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) throw new Error(`invalid value for IntOrString: invalid value "${v}": strconv.Atoi: parsing "${digits}": invalid syntax`);
  const x = (Number.parseInt(digits, 10) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}
