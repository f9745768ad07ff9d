// What `bulkhead plan` remembers of a pod for the pods of its input that differ from it only in
// name: the replicas of a workload, a release's pods stamped from one template. Everything a pod
// goes through before ResourceQuota (decoding, defaulting, the mutating plugins, validation, the
// validating plugins but quota) and what the node does with it is a function of the pod and of
// its namespace's policy, which the plan fixes before the first pod; the name enters only the
// UID the plan derives from it (and so the pod cgroup's path) and refusals' messages. So the
// outcome of the first such pod serves the others: each still gets its own name, UID and
// ResourceQuota decision, at the usage its predecessors left.
//
// Only names that are DNS-1123 labels (and pods with no name) are remembered: a pod name's
// validation and warnings differ only between valid labels, valid subdomains and invalid names.
// Only outcomes with no refusal before quota are remembered: refusals carry the name.

import type { Pod } from '../api/types.js';
import { isDNS1123Label } from '../api/validation/names.js';

/** On a pod's plan (not enumerable): the remembered outcome it was planned from (cli/planjson.ts prints such pods from a template). */
export const plannedFromMemory: unique symbol = Symbol('plannedFromMemory');

/** The keys kept, with or without an outcome: past this, the oldest go (a plan of distinct pods keeps its memory flat). */
export const podMemoSize = 1024;

/**
 * The key of a raw pod of the input (before decoding) for the pods that differ from it only in
 * name: its JSON text with the name left out; undefined when the pod cannot be remembered (a
 * UID of its own, a name no DNS label, anything but plain JSON objects at its top).
 */
export function podMemoKey(raw: unknown): string | undefined {
  if (!isPlainObject(raw)) return undefined;
  const metadata = raw.metadata;
  if (!isPlainObject(metadata) || metadata.uid !== undefined) return undefined;
  const name = metadata.name;
  if (name === undefined) return stringify(raw);
  if (typeof name !== 'string' || isDNS1123Label(name).length > 0) return undefined;
  // The name blanked where it stands, so that the text keeps the member order.
  metadata.name = '';
  try {
    return stringify(raw);
  } finally {
    metadata.name = name;
  }
}

function stringify(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * Whether two values decoded from manifests are the same but for the top-level metadata.name:
 * members in the same order, numbers alike to the sign of a zero (JSON text hides -0, and YAML's
 * .inf and .nan become null in it). Anything but plain objects, arrays and primitives is unlike.
 */
export function sameButName(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return sameMembers(a, b, (k, x, y) => (k === 'metadata' ? isPlainObject(x) && isPlainObject(y) && sameMembers(x, y, (k2, x2, y2) => k2 === 'name' || same(x2, y2)) : same(x, y)));
}

function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>, each: (k: string, x: unknown, y: unknown) => boolean): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !each(k, a[k], b[k])) return false;
  }
  return true;
}

function same(x: unknown, y: unknown): boolean {
  if (typeof x !== 'object' || x === null) return Object.is(x, y);
  if (typeof y !== 'object' || y === null) return false;
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!same(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(y) || !isPlainObject(x) || !isPlainObject(y)) return false;
  return sameMembers(x, y, (_k, a, b) => same(a, b));
}

/**
 * Remembered outcomes by podMemoKey. A hit is confirmed against
 * the pod the outcome was made for, parsed back from its key (the input itself may be defaulted
 * in place): a pod whose JSON text hides a difference (-0, .inf) is never the same as that copy,
 * so it is planned on its own.
 */
export class PodMemo<T> {
  private readonly entries = new Map<string, { raw?: Record<string, unknown>; outcome?: T }>();
  /** Lookups since the last hit, and pods to let by unlooked-at (a plan of distinct pods mostly skips the memo). */
  private sinceHit = 0;
  private resting = 0;

  constructor(private readonly size = podMemoSize) {}

  /**
   * Whether to look the next pod up. After `size` lookups without a hit the memo rests for four
   * times as many pods, then looks again: a plan of distinct pods pays for a fifth of its keys,
   * and keeps a fifth of its outcomes for a while (long enough for the garbage collector to copy
   * them: all of them cost a tenth more time).
   */
  wanted(): boolean {
    if (this.resting > 0) {
      this.resting--;
      return false;
    }
    if (this.sinceHit >= this.size) {
      this.sinceHit = 0;
      this.resting = 4 * this.size - 1;
      return false;
    }
    return true;
  }

  /** The outcome remembered for a pod the same as `raw` but for its name. */
  get(key: string, raw: Record<string, unknown>): T | undefined {
    this.sinceHit++;
    const e = this.entries.get(key);
    if (e === undefined) {
      if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, {});
      return undefined;
    }
    if (e.outcome === undefined) return undefined;
    e.raw ??= JSON.parse(key) as Record<string, unknown>;
    if (!sameButName(e.raw, raw)) return undefined;
    this.sinceHit = 0;
    return e.outcome;
  }

  /** Keeps the outcome of the pod last looked up by `key` (and made by `make`) when it has none yet. */
  offer(key: string, make: () => T): void {
    const e = this.entries.get(key);
    if (e !== undefined && e.outcome === undefined) e.outcome = make();
  }
}

/** The pod `outcome` holds, as the pod named `name` (when the remembered one had a name) with `uid`. */
export function renamedPod(pod: Pod, name: string | undefined, uid: string): Pod {
  const metadata = name !== undefined && pod.metadata.name !== undefined ? { ...pod.metadata, name, uid } : { ...pod.metadata, uid };
  return { ...pod, metadata };
}
