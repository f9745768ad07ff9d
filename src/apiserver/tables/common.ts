// The shared parts of the server-side Tables (meta.k8s.io/v1): the Table types, ages as
// kube-apiserver prints them (k8s.io/apimachinery duration.HumanDuration), the column helpers, and
// the label, selector and container cells several kinds print (pkg/printers/internalversion
// printers.go: labels.FormatLabels, metav1.FormatLabelSelector, layoutContainerCells).

import type { Container, LabelSelector } from '../../api/types.js';

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** metav1.TableRowCondition: printPod marks a finished pod's row Completed. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: (string | number | boolean)[];
  conditions?: TableRowCondition[];
  object: unknown;
}

export interface Table {
  kind: 'Table';
  /** meta.k8s.io/v1, or v1beta1 when the client asked for that. */
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string };
  columnDefinitions: TableColumn[];
  rows: TableRow[];
}

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

export function age(ts: string | undefined | null, now: number): string {
  if (!ts) return '<unknown>';
  const t = Date.parse(ts);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

export const col = (name: string, type: string, description: string, priority = 0, format = ''): TableColumn => ({ name, type, format, description, priority });
// metav1.ObjectMeta{}.SwaggerDoc()["name"] and ["creationTimestamp"], as printers.go describes NAME and AGE.
export const nameCol = col(
  'Name',
  'string',
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  0,
  'name',
);
export const ageCol = col(
  'Age',
  'string',
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
);

export interface Printer<T> {
  columns: TableColumn[];
  cells(obj: T, now: number): (string | number | boolean)[];
  /** The row's conditions, where the printer sets some (metav1.TableRow.Conditions). */
  conditions?(obj: T): TableRowCondition[] | undefined;
}

/** layoutContainerCells: names and images joined by commas. */
export const containerCells = (cs: Container[] | undefined): [string, string] => {
  const list = Array.isArray(cs) ? cs : [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
};

/** metav1.FormatLabelSelector: the selector's string form, requirements sorted by key; `<none>` when empty. */
export function formatLabelSelector(sel: LabelSelector | undefined): string {
  if (!sel) return '<none>';
  const reqs: [string, string][] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push([k, `${k}=${v}`]);
  for (const r of sel.matchExpressions ?? []) {
    const values = [...(r.values ?? [])].sort().join(',');
    const s = r.operator === 'In' ? `${r.key} in (${values})` : r.operator === 'NotIn' ? `${r.key} notin (${values})` : r.operator === 'Exists' ? r.key : r.operator === 'DoesNotExist' ? `!${r.key}` : '';
    if (s) reqs.push([r.key, s]);
  }
  if (reqs.length === 0) return '<none>';
  return reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((r) => r[1]).join(',');
}

export const wideTemplateCols = (selectorDoc: string) => [
  col('Containers', 'string', 'Names of each container in the template.', 1),
  col('Images', 'string', 'Images referenced by each container in the template.', 1),
  col('Selector', 'string', selectorDoc, 1),
];

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` when empty. */
export function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${m![k]}`).join(',');
}

/** labels.Selector.String() of LabelSelectorAsSelector: as FormatLabelSelector, but empty when it selects everything or nothing. */
export const selectorString = (sel: LabelSelector | undefined) => {
  const s = formatLabelSelector(sel);
  return s === '<none>' ? '' : s;
};

export const readyCol = col('Ready', 'string', 'Number of the pod with ready state');
