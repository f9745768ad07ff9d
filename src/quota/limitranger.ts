// The LimitRanger admission plugin for pods: container defaults from a namespace's LimitRanges
// (with the LimitRange object's own defaulting), then min / max / maxLimitRequestRatio per
// Container and per Pod, with the plugin's exact messages.

import { aggregateContainerLimits, aggregateContainerRequests } from '../api/podresources.js';
import { Quantity } from '../api/quantity.js';
import { parseResourceList, type Resources } from '../api/resourcelist.js';
import type { Container, LimitRange, LimitRangeItem, Pod, ResourceList } from '../api/types.js';

export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

/** SetDefaults_LimitRangeItem: default ← max, defaultRequest ← default, defaultRequest ← min. */
export function defaultLimitRangeItem(item: LimitRangeItem): LimitRangeItem {
  if (item.type !== 'Container') return item;
  const def: ResourceList = { ...(item.default ?? {}) };
  const defReq: ResourceList = { ...(item.defaultRequest ?? {}) };
  for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in defReq)) defReq[k] = v;
  for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in defReq)) defReq[k] = v;
  return { ...item, default: def, defaultRequest: defReq };
}

function mergeContainer(c: Container, limits: ResourceList, requests: ResourceList, label: string, notes: string[]): void {
  c.resources ??= {};
  c.resources.limits ??= {};
  c.resources.requests ??= {};
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(limits)) {
    if (!(k in c.resources.limits)) {
      c.resources.limits[k] = v;
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(requests)) {
    if (!(k in c.resources.requests)) {
      c.resources.requests[k] = v;
      setRequests.push(k);
    }
  }
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${label} ${c.name}`);
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${label} ${c.name}`);
}

const defaultedItems = new WeakMap<LimitRange, LimitRangeItem[]>();

/** A LimitRange's items after its own defaulting, computed once per object. */
function itemsOf(lr: LimitRange): LimitRangeItem[] {
  let items = defaultedItems.get(lr);
  if (!items) {
    items = (lr.spec?.limits ?? []).map(defaultLimitRangeItem);
    defaultedItems.set(lr, items);
  }
  return items;
}

/** The container defaults of a LimitRange: every Container item's default and defaultRequest together, in item order. */
interface ContainerDefaults {
  readonly limits: ResourceList;
  readonly requests: ResourceList;
  readonly any: boolean;
}

const containerDefaultsByRange = new WeakMap<LimitRange, ContainerDefaults>();

function containerDefaultsOf(lr: LimitRange): ContainerDefaults {
  let d = containerDefaultsByRange.get(lr);
  if (!d) {
    const limits: ResourceList = {};
    const requests: ResourceList = {};
    for (const item of itemsOf(lr)) {
      if (item.type !== 'Container') continue;
      Object.assign(limits, item.default);
      Object.assign(requests, item.defaultRequest);
    }
    d = { limits, requests, any: Object.keys(limits).length > 0 || Object.keys(requests).length > 0 };
    containerDefaultsByRange.set(lr, d);
  }
  return d;
}

/**
 * Admit: container defaults and the limit-ranger annotation, applied IN PLACE to a pod the
 * caller owns (the admission path's freshly defaulted copy).
 */
export function applyLimitRangeDefaults(out: Pod, ranges: readonly LimitRange[]): Pod {
  for (const lr of ranges) {
    const { limits, requests, any } = containerDefaultsOf(lr);
    if (!any) continue;
    const notes: string[] = [];
    for (const c of out.spec.containers ?? []) mergeContainer(c, limits, requests, 'container', notes);
    for (const c of out.spec.initContainers ?? []) mergeContainer(c, limits, requests, 'init container', notes);
    if (notes.length > 0) {
      out.metadata.annotations = { ...(out.metadata.annotations ?? {}), [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
    }
  }
  return out;
}

const maxMilliValue = (1n << 63n) / 1000n;

/** Milli-precision comparison where it cannot overflow, else whole units. */
function comparable(a?: Quantity, b?: Quantity, c?: Quantity): [bigint, bigint, bigint] {
  const va = a?.value() ?? 0n;
  const vb = b?.value() ?? 0n;
  const vc = c?.value() ?? 0n;
  if (va <= maxMilliValue && vb <= maxMilliValue && vc <= maxMilliValue) return [a?.milliValue() ?? 0n, b?.milliValue() ?? 0n, c?.milliValue() ?? 0n];
  return [va, vb, vc];
}

function minConstraint(limitType: string, name: string, enforced: Quantity, requests: Resources, limits: Resources): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}.  No request is specified`;
  if (r! < e!) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  if (lim && l! < e!) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  return undefined;
}

function maxConstraint(limitType: string, name: string, enforced: Quantity, requests: Resources, limits: Resources): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}.  No limit is specified`;
  if (l! > e!) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  if (req && r! > e!) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  return undefined;
}

/** Go's %f: six decimals. */
function goFloat(v: number): string {
  return v.toFixed(6);
}

function ratioConstraint(limitType: string, name: string, enforced: Quantity, requests: Resources, limits: Resources): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = comparable(req, lim);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${limitType} is ${enforced.toString()}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${limitType} is ${enforced.toString()}, but no limit is specified or limit is 0`;
  const observed = Number(l) / Number(r);
  let ratio = observed;
  let max = Number(enforced.value());
  if (enforced.value() <= maxMilliValue) {
    ratio = observed * 1000;
    max = Number(enforced.milliValue());
  }
  if (ratio > max) return `${name} max limit to request ratio per ${limitType} is ${enforced.toString()}, but provided ratio is ${goFloat(observed)}`;
  return undefined;
}

type Constraint = typeof minConstraint;

/** One constraint of an item: the rule, the resource, and the enforced quantity. */
interface ItemConstraint {
  readonly fn: Constraint;
  readonly name: string;
  readonly enforced: Quantity;
}

const constraintsByItem = new WeakMap<LimitRangeItem, readonly ItemConstraint[]>();

/** min, then max, then maxLimitRequestRatio, each by resource name: parsed and ordered once per (defaulted) item. */
function constraintsOf(item: LimitRangeItem): readonly ItemConstraint[] {
  let out = constraintsByItem.get(item);
  if (!out) {
    const groups: [ResourceList | undefined, Constraint][] = [
      [item.min, minConstraint],
      [item.max, maxConstraint],
      [item.maxLimitRequestRatio, ratioConstraint],
    ];
    const list: ItemConstraint[] = [];
    for (const [rl, fn] of groups) {
      for (const [name, enforced] of [...parseResourceList(rl)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) list.push({ fn, name, enforced });
    }
    constraintsByItem.set(item, (out = list));
  }
  return out;
}

function check(item: LimitRangeItem, requests: Resources, limits: Resources, errs: string[]): void {
  for (const { fn, name, enforced } of constraintsOf(item)) {
    const e = fn(item.type, name, enforced, requests, limits);
    if (e) errs.push(e);
  }
}

/**
 * Validate: the messages of every violated constraint, or an empty list. The API wraps them as
 * `pods "<name>" is forbidden: <message>` (one) or `[m1, m2]` (several).
 */
export function limitRangeViolations(pod: Pod, lr: LimitRange): string[] {
  const errs: string[] = [];
  for (const item of itemsOf(lr)) {
    if (item.type === 'Container') {
      if (constraintsOf(item).length === 0) continue;
      for (const c of pod.spec.containers ?? []) check(item, parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits), errs);
      for (const c of pod.spec.initContainers ?? []) check(item, parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits), errs);
    } else if (item.type === 'Pod') {
      check(item, aggregateContainerRequests(pod), aggregateContainerLimits(pod), errs);
    }
  }
  return errs;
}

/**
 * The Validate step over a namespace's LimitRanges (runLimitFunc): the ranges are checked in
 * order and the first one with violations ends the request with its own aggregated message;
 * later ranges are not reported. Undefined when every range allows the pod.
 */
export function limitRangesViolation(pod: Pod, ranges: readonly LimitRange[]): string | undefined {
  for (const lr of ranges) {
    const violations = limitRangeViolations(pod, lr);
    if (violations.length > 0) return aggregateMessages(violations);
  }
  return undefined;
}

/** utilerrors.NewAggregate(...).Error(): one message bare, several in brackets, duplicates dropped. */
export function aggregateMessages(msgs: readonly string[]): string {
  const unique = [...new Set(msgs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
