// The TARGETS cell of `kubectl get hpa` (pkg/printers/internalversion printers.go
// formatHPAMetrics at 1.32): each metric as `current/target`, a resource's prefixed with its name
// (`cpu: 30%/50%`, `cpu: <unknown>/50%`), at most two and then `+ N more...`.

import type { MetricSpec, MetricStatus } from '../api/types.js';

/** resource.Quantity.String() of a pointer: `<nil>` when unset. */
const q = (v: string | undefined) => (v === undefined || v === null ? '<nil>' : String(v));
const pct = (n: number | undefined) => (typeof n === 'number' ? `${n}%` : undefined);

function one(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec?.type) {
    case 'External': {
      const t = spec.external?.target;
      if (t?.averageValue !== undefined) return `${status?.external?.current?.averageValue !== undefined ? q(status.external.current.averageValue) : '<unknown>'}/${q(t.averageValue)} (avg)`;
      return `${status?.external ? q(status.external.current?.value) : '<unknown>'}/${q(t?.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? q(status.pods.current?.averageValue) : '<unknown>'}/${q(spec.pods?.target?.averageValue)}`;
    case 'Object': {
      const t = spec.object?.target;
      if (t?.averageValue !== undefined) return `${status?.object?.current?.averageValue !== undefined ? q(status.object.current.averageValue) : '<unknown>'}/${q(t.averageValue)} (avg)`;
      return `${status?.object ? q(status.object.current?.value) : '<unknown>'}/${q(t?.value)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const src = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const cur = spec.type === 'Resource' ? status?.resource : status?.containerResource;
      const name = src?.name ?? '';
      if (src?.target?.averageValue !== undefined) return `${name}: ${cur ? q(cur.current?.averageValue) : '<unknown>'}/${q(src.target.averageValue)}`;
      return `${name}: ${pct(cur?.current?.averageUtilization) ?? '<unknown>'}/${pct(src?.target?.averageUtilization) ?? '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics. */
export function formatHPAMetrics(specs: readonly MetricSpec[] | undefined, statuses: readonly MetricStatus[] | undefined): string {
  const list = Array.isArray(specs) ? specs : [];
  if (list.length === 0) return '<none>';
  const current = Array.isArray(statuses) ? statuses : [];
  const cells = list.map((s, i) => one(s, current[i]));
  const maximum = 2;
  if (cells.length > maximum) return `${cells.slice(0, maximum).join(', ')} + ${cells.length - maximum} more...`;
  return cells.join(', ');
}
