// The object a write of this process stores, handed to the watch cache in place of decoding
// the value it wrote. The embedded stores deliver a write's events before the write resolves
// (watchcache.ts), so the cache meets the event of a put while its writer still waits: instead of
// parsing the JSON it was just given (a pod is ~2.5 KB of it, the cache's largest cost per
// write), it takes the writer's object, which that JSON is the encoding of.
//
// A hint is used only for a PUT of the same key whose value is the very string offered, and it
// is withdrawn once the write has resolved either way, so a hint can stand in for nothing else.
// Only an object that JSON.parse would give back as it is (plain objects and arrays, no
// undefined members) is offered; BULKHEAD_VERIFY_WRITE_HINTS=1 (set by the test runner) also
// decodes the value of every offer and compares, so that a hint that would differ fails a test.

import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../api/types.js';
import type { KeyValue } from '../storage/store.js';

export class WriteHints {
  readonly #byKey = new Map<string, { value: string; obj: KubeObject }>();
  readonly #verify: boolean;

  constructor(opts: { verify?: boolean } = {}) {
    this.#verify = opts.verify ?? process.env.BULKHEAD_VERIFY_WRITE_HINTS === '1';
  }

  /**
   * `value` is `obj` encoded for the store (without resourceVersion). An object the encoding
   * does not give back as it is (an undefined member, a Date, NaN) is not offered: the cache
   * decodes the value then.
   */
  offer(key: string, value: string, obj: KubeObject): void {
    if (!decodesToItself(obj)) return;
    if (this.#verify) checkDecodesTo(key, value, obj);
    this.#byKey.set(key, { value, obj });
  }

  /** The offered object a PUT event's value is the encoding of, taken (a second event decodes). */
  take(kv: KeyValue): KubeObject | undefined {
    const h = this.#byKey.get(kv.key);
    if (h === undefined || h.value !== kv.value) return undefined;
    this.#byKey.delete(kv.key);
    return h.obj;
  }

  /** The write resolved: an offer no event took goes. */
  withdraw(key: string): void {
    this.#byKey.delete(key);
  }

  get size(): number {
    return this.#byKey.size;
  }
}

/**
 * True when JSON.parse(JSON.stringify(v)) is deep-strictly equal to `v`: plain objects and
 * arrays (no holes, no undefined members), strings, booleans, null and finite numbers other
 * than -0. One walk, no allocation: a fraction of what decoding the value costs.
 */
export function decodesToItself(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (v === null) return true;
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto === Array.prototype) {
        const a = v as unknown[];
        for (let i = 0; i < a.length; i++) if (!(i in a) || !decodesToItself(a[i])) return false;
        return true;
      }
      if (proto !== Object.prototype) return false;
      for (const k in v) if (!decodesToItself((v as Record<string, unknown>)[k])) return false;
      return true;
    }
    default:
      return false;
  }
}

function checkDecodesTo(key: string, value: string, obj: KubeObject): void {
  const back = JSON.parse(value) as KubeObject;
  const rv = obj.metadata?.resourceVersion;
  let offered = obj;
  if (rv !== undefined) {
    const { resourceVersion: _rv, ...meta } = obj.metadata!;
    offered = { ...obj, metadata: meta };
  }
  if (!isDeepStrictEqual(back, offered)) {
    throw new Error(`write hint for ${key} is not what its stored value decodes to (an undefined member, a non-plain object or a change after encoding) at ${firstDifference(back, offered, '')}`);
  }
}

/** The path of the first member where `a` and `b` differ. */
function firstDifference(a: unknown, b: unknown, path: string): string {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return path || '.';
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (!(k in a) || !(k in b) || !isDeepStrictEqual(x, y)) return firstDifference(x, y, `${path}.${k}`);
  }
  return path || '.';
}
