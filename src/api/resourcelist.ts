// Parsed views of ResourceLists. Objects keep quantities as strings (as on the wire); rules
// that compute with them parse through here. Parsing is memoised because the same few
// spellings ("500m", "128Mi") recur across thousands of pods and Quantity is immutable.

import { Quantity } from './quantity.js';
import type { ResourceList } from './types.js';

const cache = new Map<string, Quantity>();
const CACHE_LIMIT = 65536;

/** Parses a quantity string that validation has already accepted. Throws QuantityError otherwise. */
export function quantity(s: string): Quantity {
  let q = cache.get(s);
  if (q === undefined) {
    q = Quantity.fromJSON(s);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(s, q);
  }
  return q;
}

export type Resources = Map<string, Quantity>;

export function parseResourceList(rl: ResourceList | undefined): Resources {
  const m: Resources = new Map();
  if (!rl) return m;
  for (const k of Object.keys(rl)) m.set(k, quantity(String(rl[k])));
  return m;
}

/** One entry of a ResourceList parsed: parseResourceList(rl).get(name), without parsing the rest. */
export function resourceQuantity(rl: ResourceList | undefined, name: string): Quantity | undefined {
  if (!rl || !Object.prototype.hasOwnProperty.call(rl, name)) return undefined;
  return quantity(String(rl[name]));
}

/** Canonical wire form of a parsed list, keys sorted as Go's map encoding sorts them. */
export function formatResources(m: Resources): ResourceList {
  const out: ResourceList = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!.canonical();
  return out;
}

export function addInto(acc: Resources, name: string, q: Quantity): void {
  const cur = acc.get(name);
  acc.set(name, cur ? cur.add(q) : q);
}

export function maxInto(acc: Resources, name: string, q: Quantity): void {
  const cur = acc.get(name);
  if (!cur || q.cmp(cur) > 0) acc.set(name, q);
}

export const ResourceCPU = 'cpu';
export const ResourceMemory = 'memory';
export const ResourceEphemeralStorage = 'ephemeral-storage';
export const HugePagesPrefix = 'hugepages-';

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(HugePagesPrefix);
}
