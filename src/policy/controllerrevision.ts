// ControllerRevision history shared by the StatefulSet and DaemonSet controllers
// (pkg/controller/history/controller_history.go: HashControllerRevision, ControllerRevisionName,
// SortControllerRevisions, EqualRevision, FindEqualRevisions; the `truncateHistory`/`cleanupHistory`
// choice of which revisions to delete). The hashes themselves are hash.ts. No I/O.
//
// Deliberate difference: upstream hashes the revision's `data` as Go's encoding/json writes it
// (keys sorted, HTML characters escaped, and Go's zero values such as `creationTimestamp: null`
// and `resources: {}` present). `goJSON` reproduces the first two; the third depends on which
// fields the API server here fills in, so the hash of the same template may differ from a real
// cluster's. The algorithm (FNV-32 of the bytes, the collision count appended in decimal, the
// result's decimal digits mapped through rand.SafeEncodeString) is upstream's.

import type { ControllerRevision } from '../api/types.js';
import { fnv32, safeEncodeString, utf8 } from './hash.js';

/** history.ControllerRevisionHashLabel: the hash on every revision. */
export const controllerRevisionHashLabel = 'controller.kubernetes.io/hash';

/**
 * JSON as Go's encoding/json writes a map[string]interface{}: object keys sorted, `<`, `>`, `&`,
 * U+2028 and U+2029 escaped. Both controllers build revision data through such a map.
 */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${goString(k)}:${goJSON(o[k])}`).join(',')}}`;
  }
  if (typeof v === 'string') return goString(v);
  return JSON.stringify(v);
}

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** HashControllerRevision: FNV-32 of the data's bytes, then the collision count in decimal. */
export function hashRevisionData(data: unknown, collisionCount?: number): string {
  let h = fnv32(utf8(goJSON(data)));
  if (collisionCount !== undefined) h = fnv32(utf8(String(collisionCount)), h);
  return safeEncodeString(String(h));
}

/** ControllerRevisionName: `prefix-hash`, the prefix cut to 223 characters so the name fits 253. */
export function revisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

const revisionOf = (r: ControllerRevision) => r.revision ?? 0;

/** SortControllerRevisions: by revision, then creation time, then name (stable). */
export function sortRevisions<T extends ControllerRevision>(revisions: readonly T[]): T[] {
  return [...revisions].sort((a, b) => {
    if (revisionOf(a) !== revisionOf(b)) return revisionOf(a) - revisionOf(b);
    const ta = a.metadata.creationTimestamp ?? '';
    const tb = b.metadata.creationTimestamp ?? '';
    if (ta !== tb) return ta < tb ? -1 : 1;
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/** nextRevision: one more than the highest (revisions sorted), 1 for none. */
export function nextRevision(sorted: readonly ControllerRevision[]): number {
  return sorted.length === 0 ? 1 : revisionOf(sorted[sorted.length - 1]!) + 1;
}

/** EqualRevision: the same data (compared as Go would compare the raw bytes: the sorted JSON). */
export function equalRevision(a: ControllerRevision | undefined, b: ControllerRevision | undefined): boolean {
  if (!a || !b) return a === b;
  return goJSON(a.data) === goJSON(b.data);
}

/** FindEqualRevisions: the revisions whose data equal `needle`'s, in the given order. */
export function findEqualRevisions<T extends ControllerRevision>(revisions: readonly T[], needle: ControllerRevision): T[] {
  return revisions.filter((r) => equalRevision(r, needle));
}

/**
 * The history a controller deletes to keep `limit` (truncateHistory / cleanupHistory): the
 * revisions that are not live (not current, not update, no pod at them), oldest first, beyond
 * the newest `limit` of them. A negative limit keeps everything.
 */
export function revisionsToPrune<T extends ControllerRevision>(sorted: readonly T[], live: ReadonlySet<string>, limit: number): T[] {
  const history = sorted.filter((r) => !live.has(r.metadata.name ?? ''));
  if (limit < 0 || history.length <= limit) return [];
  return history.slice(0, history.length - limit);
}
