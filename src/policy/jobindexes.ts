// Indexed completion (pkg/controller/job/indexed_job_utils.go): each index 0..completions-1 must
// succeed once. A pod carries its index in the annotation (and label)
// batch.kubernetes.io/job-completion-index; the completed indexes are kept in
// status.completedIndexes as ordered intervals ("1,3-5"). Pure.

import type { Job, Pod } from '../api/types.js';

export const completionIndexKey = 'batch.kubernetes.io/job-completion-index';
export const completionIndexEnvName = 'JOB_COMPLETION_INDEX';
/** names.MaxGeneratedNameLength: 63 less the 5 random characters. */
const maxGeneratedNameLength = 58;

export const isIndexedJob = (job: Job) => job.spec?.completionMode === 'Indexed';

/** An ordered list of disjoint, non-adjacent [first, last] intervals. */
export type Intervals = readonly { first: number; last: number }[];

/** getCompletionIndex: the pod's index from its annotation; -1 when absent, not a number or negative. */
export function completionIndexOf(p: Pod): number {
  const v = p.metadata?.annotations?.[completionIndexKey];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return -1;
  const i = Number(v);
  return Number.isSafeInteger(i) && i >= 0 ? i : -1;
}

/** parseIndexesFromString: parses status.completedIndexes (or failedIndexes, or a successPolicy rule's succeededIndexes), dropping what is at or past `completions`; corrupt intervals are skipped. */
export function parseIntervals(s: string | undefined, completions: number): Intervals {
  if (!s) return [];
  const out: { first: number; last: number }[] = [];
  for (const part of s.split(',')) {
    const limits = part.split('-');
    const first = atoi(limits[0]!);
    if (first === undefined) continue;
    if (first >= completions) break;
    let last = first;
    if (limits.length > 1) {
      const l = atoi(limits[1]!);
      if (l === undefined) continue;
      last = Math.min(l, completions - 1);
    }
    const prev = out[out.length - 1];
    if (prev && prev.last === first - 1) prev.last = last;
    else out.push({ first, last });
  }
  return out;
}

function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/** withOrderedIndexes: the intervals with `indexes` (increasing) merged in. */
export function withIndexes(iv: Intervals, indexes: readonly number[]): Intervals {
  return mergeIntervals(iv, indexes.map((ix) => ({ first: ix, last: ix })));
}

/** orderedIntervals.merge: two ordered lists of intervals as one. */
export function mergeIntervals(a: Intervals, b: Intervals): Intervals {
  const out: { first: number; last: number }[] = [];
  const push = (x: { first: number; last: number }) => {
    const last = out[out.length - 1];
    if (!last || x.first > last.last + 1) out.push({ ...x });
    else if (last.last < x.last) last.last = x.last;
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.first < b[j]!.first) push(a[i++]!);
    else push(b[j++]!);
  }
  while (i < a.length) push(a[i++]!);
  while (j < b.length) push(b[j++]!);
  return out;
}

export const intervalsTotal = (iv: Intervals) => iv.reduce((n, x) => n + x.last - x.first + 1, 0);

export const intervalsHas = (iv: Intervals, ix: number) => iv.some((x) => x.first <= ix && ix <= x.last);

/** The status.completedIndexes form: "0-2,4,6,7" (two adjacent indexes are written as a pair, not a range). */
export function intervalsString(iv: Intervals): string {
  return iv.map((x) => (x.last === x.first ? `${x.first}` : `${x.first}${x.last === x.first + 1 ? ',' : '-'}${x.last}`)).join(',');
}

/** calculateSucceededIndexes: the indexes completed before, and with the newly succeeded pods (still holding the tracking finalizer) added. */
export function succeededIndexes(job: Job, pods: readonly Pod[], hasFinalizer: (p: Pod) => boolean): { prev: Intervals; now: Intervals } {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIntervals(job.status?.completedIndexes, completions);
  const fresh = new Set<number>();
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (p.status?.phase === 'Succeeded' && ix >= 0 && ix < completions && hasFinalizer(p)) fresh.add(ix);
  }
  return { prev, now: withIndexes(prev, [...fresh].sort((a, b) => a - b)) };
}

/** getIndexes: the valid indexes the pods carry, in increasing order. */
export function indexesOf(pods: readonly Pod[]): number[] {
  return [...new Set(pods.map(completionIndexOf).filter((ix) => ix >= 0))].sort((a, b) => a - b);
}

/**
 * firstPendingIndexes: up to `count` indexes below `completions` that are not `taken` (the
 * succeeded indexes, the failed ones under backoffLimitPerIndex) and no pod of `holding` (the
 * active pods, and the terminating ones when only failed pods are replaced) carries, lowest first.
 */
export function firstPendingIndexes(holding: readonly Pod[], taken: Intervals, count: number, completions: number): number[] {
  if (count <= 0) return [];
  const nonPending = withIndexes(taken, indexesOf(holding));
  const out: number[] = [];
  let candidate = 0;
  for (const x of nonPending) {
    for (; candidate < completions && out.length < count && candidate < x.first; candidate++) out.push(candidate);
    if (candidate < x.last + 1) candidate = x.last + 1;
  }
  for (; candidate < completions && out.length < count; candidate++) out.push(candidate);
  return out;
}

/**
 * appendDuplicatedIndexPodsForRemoval: of active pods, those without a valid index or with an index
 * at or past `completions` go (`rm`); of several with one index, all but the one that sorts last
 * in `deleteFirst` order (controller.ActivePods: the most advanced) go; the rest stay (`left`).
 */
export function duplicatedIndexPods(pods: readonly Pod[], completions: number, deleteFirst: (a: Pod, b: Pod) => number): { rm: Pod[]; left: Pod[] } {
  const rm: Pod[] = [];
  const left: Pod[] = [];
  const byIndex = new Map<number, Pod[]>();
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (ix < 0 || ix >= completions) rm.push(p);
    else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
  }
  for (const ix of [...byIndex.keys()].sort((a, b) => a - b)) {
    const same = [...byIndex.get(ix)!].sort(deleteFirst);
    rm.push(...same.slice(0, -1));
    left.push(same[same.length - 1]!);
  }
  return { rm, left };
}

/** podGenerateNameWithIndex: `<job>-<index>-`, the job's name cut so that the prefix fits a generated name. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > maxGeneratedNameLength ? prefix.slice(0, maxGeneratedNameLength - suffix.length) + suffix : prefix;
}
