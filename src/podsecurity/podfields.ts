// Defensive readers for pod objects that come straight from user YAML/JSON.
//
// Upstream PSA only ever sees typed, decoded, validated Go structs. Here any field can be missing,
// null or of the wrong JSON type, so every check reads through these helpers, which never throw.
// The reading rules:
//
// - `null` and absent are the same (a nil Go pointer / zero value).
// - A list-valued field that is present but not a list is read as a one-item list when a check
//   looks for forbidden items (so `add: SYS_ADMIN` is still caught), and as empty when a check
//   needs a required item (so `drop: ALL` written as a string does not count as dropping ALL).
// - A list element that is not an object reads as an empty object (Go decodes `null` list items
//   to zero structs), e.g. a container with no name and no securityContext.
// - A value of the wrong type never makes a pod look safer than a well-typed one: for a field
//   whose dangerous value is `true` (privileged, hostNetwork, ...) any present value other than
//   `false` counts as set; for a field that must be `false`/`true` only that exact boolean passes.
//   For well-typed input every rule reduces to upstream's.

import type { ObjectMeta, PodSpec } from '../api/types.js';

/** What a check receives: the pod's (or template's) metadata and spec, possibly malformed. */
export type PodMetadataInput = ObjectMeta | null | undefined;
export type PodSpecInput = PodSpec | null | undefined;

export type Obj = Record<string, unknown>;

const emptyObj: Obj = Object.freeze({}) as Obj;

/** The value as a plain object, or undefined for anything else (null, arrays, scalars). */
export function rec(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** Like rec, but an empty object instead of undefined. */
export function recOrEmpty(v: unknown): Obj {
  return rec(v) ?? emptyObj;
}

/** Own property lookup (never reaches Object.prototype). */
export function get(o: Obj | undefined, key: string): unknown {
  if (o === undefined || !Object.prototype.hasOwnProperty.call(o, key)) return undefined;
  return o[key];
}

/** Go "pointer is non-nil": present and not null. */
export function has(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** A list read for forbidden items: array as is, absent/null as empty, anything else as one item. */
export function items(v: unknown): readonly unknown[] {
  if (Array.isArray(v)) return v;
  return has(v) ? [v] : [];
}

/** A `*bool` whose dangerous value is true: set unless absent, null or exactly false. */
export function setsTrue(v: unknown): boolean {
  return has(v) && v !== false;
}

/**
 * A Go string field rendered as text: strings verbatim, absent/null as "", numbers and booleans
 * via String(), anything else as JSON.
 */
export function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

export function specObj(spec: PodSpecInput): Obj {
  return recOrEmpty(spec);
}

/** spec.securityContext as an object (absent or malformed reads as undefined). */
export function podSecurityContext(spec: PodSpecInput): Obj | undefined {
  return rec(get(specObj(spec), 'securityContext'));
}

/** metadata.annotations as an object (absent or malformed reads as undefined). */
export function annotations(meta: PodMetadataInput): Obj | undefined {
  return rec(get(recOrEmpty(meta), 'annotations'));
}

/** An annotation value as Go's map[string]string would hold it (null is ""). */
export function annotationValue(v: unknown): string {
  return text(v);
}

export interface ContainerView {
  /** The container's name as text ("" when missing). */
  readonly name: string;
  /** The raw container object (empty object for a malformed entry). */
  readonly raw: Obj;
  /** Its securityContext, if it is an object. */
  readonly securityContext: Obj | undefined;
}

function view(v: unknown): ContainerView {
  const raw = recOrEmpty(v);
  return { name: text(get(raw, 'name')), raw, securityContext: rec(get(raw, 'securityContext')) };
}

/**
 * Upstream's visitContainers: spec.initContainers, then spec.containers, then
 * spec.ephemeralContainers, each in list order.
 */
export function containers(spec: PodSpecInput): readonly ContainerView[] {
  if (viewing !== undefined && viewing.spec === spec) return (viewing.views ??= Object.freeze(containerViews(spec)));
  return containerViews(spec);
}

// Within one evaluation every check views the same spec's containers: they are viewed once.
let viewing: { spec: PodSpecInput; views?: readonly ContainerView[] } | undefined;

/** Runs `fn` (one evaluation of `spec`, which does not change meanwhile) with the container views of `spec` shared by its checks. */
export function withSharedContainerViews<T>(spec: PodSpecInput, fn: () => T): T {
  const outer = viewing;
  viewing = { spec };
  try {
    return fn();
  } finally {
    viewing = outer;
  }
}

function containerViews(spec: PodSpecInput): ContainerView[] {
  const s = specObj(spec);
  const out: ContainerView[] = [];
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of items(get(s, key))) out.push(view(c));
  }
  return out;
}

/** relaxPolicyForUserNamespacePod: `spec.hostUsers` is explicitly false. */
export function inUserNamespace(spec: PodSpecInput): boolean {
  return get(specObj(spec), 'hostUsers') === false;
}

/** `spec.os.name` is exactly `windows`. */
export function isWindowsPod(spec: PodSpecInput): boolean {
  return get(rec(get(specObj(spec), 'os')), 'name') === 'windows';
}
