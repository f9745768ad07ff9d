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
 * UID of its own, a name no DNS label, anything its JSON text does not give back).
 */
export function podMemoKey(raw: unknown): string | undefined {
  if (!isPlainObject(raw)) return undefined;
  const metadata = raw.metadata;
  if (!isPlainObject(metadata) || metadata.uid !== undefined) return undefined;
  const name = metadata.name;
  if (name !== undefined && (typeof name !== 'string' || isDNS1123Label(name).length > 0)) return undefined;
  if (!isPlainJSON(raw)) return undefined;
  if (name === undefined) return JSON.stringify(raw);
  // The name blanked where it stands, so that the text keeps the member order.
  metadata.name = '';
  try {
    return JSON.stringify(raw);
  } finally {
    metadata.name = name;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * Whether JSON.parse of JSON.stringify's text of `v` gives `v` back: plain objects and arrays
 * (no holes) of strings, booleans, null and finite numbers but -0. Two such values with the same
 * text are the same, members in the same order; JSON text hides -0, YAML's .inf and .nan (null)
 * and anything with toJSON or another prototype, which are never remembered.
 */
export function isPlainJSON(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype) return false;
        for (let i = 0; i < v.length; i++) if (!(i in v) || !isPlainJSON(v[i])) return false;
        return true;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return false;
      const o = v as Record<string, unknown>;
      for (const k in o) if (!isPlainJSON(o[k])) return false;
      return true;
    }
    default:
      return false;
  }
}

/** Remembered outcomes by podMemoKey: a key names one pod but for its name (isPlainJSON). */
export class PodMemo<T> {
  /** null: seen, no outcome yet. */
  private readonly entries = new Map<string, T | null>();
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

  /** The outcome remembered for the pods of `key`. */
  get(key: string): T | undefined {
    this.sinceHit++;
    const e = this.entries.get(key);
    if (e === undefined) {
      if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, null);
      return undefined;
    }
    if (e === null) return undefined;
    this.sinceHit = 0;
    return e;
  }

  /** Keeps the outcome of the pod last looked up by `key` (and made by `make`) when it has none yet. */
  offer(key: string, make: () => T): void {
    if (this.entries.get(key) === null) this.entries.set(key, make());
  }
}

/** The pod `outcome` holds, as the pod named `name` (when the remembered one had a name) with `uid`. */
export function renamedPod(pod: Pod, name: string | undefined, uid: string): Pod {
  const metadata = name !== undefined && pod.metadata.name !== undefined ? { ...pod.metadata, name, uid } : { ...pod.metadata, uid };
  return { ...pod, metadata };
}
