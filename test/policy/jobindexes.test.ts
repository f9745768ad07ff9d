// Indexed completion's pure parts (src/policy/jobindexes.ts, as pkg/controller/job/
// indexed_job_utils.go): the completedIndexes intervals, the pending indexes, the pods of
// repeated or invalid indexes, and the generated names.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/api/types.js';
import { completionIndexOf, duplicatedIndexPods, firstPendingIndexes, generateNameWithIndex, intervalsString, intervalsTotal, parseIntervals, withIndexes } from '../../src/policy/jobindexes.js';

const ixPod = (name: string, ix: string | undefined, phase = 'Running'): Pod => ({ metadata: { name, ...(ix !== undefined ? { annotations: { 'batch.kubernetes.io/job-completion-index': ix } } : {}) }, spec: { containers: [] }, status: { phase } });

describe('completedIndexes intervals', () => {
  const rows: { name: string; text: string; completions: number; want: string; total: number }[] = [
    { name: 'empty', text: '', completions: 5, want: '', total: 0 },
    { name: 'one index', text: '3', completions: 5, want: '3', total: 1 },
    { name: 'two adjacent indexes are written as a pair', text: '1-2', completions: 5, want: '1,2', total: 2 },
    { name: 'adjacent parts merge', text: '0,1,2,4', completions: 5, want: '0-2,4', total: 4 },
    { name: 'indexes at or past completions are dropped (completions lowered)', text: '0-9', completions: 3, want: '0-2', total: 3 },
    { name: 'an interval starting past completions ends the list', text: '1,7,2', completions: 5, want: '1', total: 1 },
    { name: 'a corrupt interval is skipped', text: '0,x,3-y,4', completions: 5, want: '0,4', total: 2 },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const iv = parseIntervals(r.text, r.completions);
      assert.equal(intervalsString(iv), r.want);
      assert.equal(intervalsTotal(iv), r.total);
    });
  }

  const merges: { name: string; text: string; add: number[]; want: string }[] = [
    { name: 'new indexes fill a gap', text: '0,2', add: [1], want: '0-2' },
    { name: 'a new index already there changes nothing', text: '0-3', add: [2], want: '0-3' },
    { name: 'new indexes on both sides', text: '3-4', add: [0, 5, 9], want: '0,3-5,9' },
  ];
  for (const r of merges) test(`withOrderedIndexes: ${r.name}`, () => assert.equal(intervalsString(withIndexes(parseIntervals(r.text, 100), r.add)), r.want));
});

describe('completion index of a pod (getCompletionIndex)', () => {
  const rows: { name: string; ix: string | undefined; want: number }[] = [
    { name: 'a number', ix: '4', want: 4 },
    { name: 'absent: unknown', ix: undefined, want: -1 },
    { name: 'negative: unknown', ix: '-1', want: -1 },
    { name: 'not a number: unknown', ix: 'four', want: -1 },
  ];
  for (const r of rows) test(r.name, () => assert.equal(completionIndexOf(ixPod('p', r.ix)), r.want));
});

describe('firstPendingIndexes', () => {
  const rows: { name: string; active: string[]; done: string; count: number; completions: number; want: number[] }[] = [
    { name: 'nothing yet: the lowest', active: [], done: '', count: 2, completions: 5, want: [0, 1] },
    { name: 'skips succeeded and active indexes', active: ['1', '4'], done: '0,2', count: 3, completions: 6, want: [3, 5] },
    { name: 'bounded by completions', active: [], done: '0-3', count: 5, completions: 5, want: [4] },
    { name: 'count 0: none', active: [], done: '', count: 0, completions: 5, want: [] },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(firstPendingIndexes(r.active.map((ix, i) => ixPod(`a${i}`, ix)), parseIntervals(r.done, r.completions), r.count, r.completions), r.want));
});

describe('pods of repeated or invalid indexes (appendDuplicatedIndexPodsForRemoval)', () => {
  // The order given: pods named "first-…" are deleted first (as not ready / pending would be).
  const deleteFirst = (a: Pod, b: Pod) => Number(b.metadata.name!.startsWith('first-')) - Number(a.metadata.name!.startsWith('first-'));
  const rows: { name: string; pods: Pod[]; want: { rm: string[]; left: string[] } }[] = [
    { name: 'one pod per index: all stay', pods: [ixPod('a', '0'), ixPod('b', '1')], want: { rm: [], left: ['a', 'b'] } },
    { name: 'a repeated index: all but the most advanced go', pods: [ixPod('keep', '1'), ixPod('first-x', '1')], want: { rm: ['first-x'], left: ['keep'] } },
    { name: 'no index, or one past completions: removed', pods: [ixPod('none', undefined), ixPod('big', '7'), ixPod('ok', '2')], want: { rm: ['none', 'big'], left: ['ok'] } },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const got = duplicatedIndexPods(r.pods, 3, deleteFirst);
      assert.deepEqual({ rm: got.rm.map((p) => p.metadata.name), left: got.left.map((p) => p.metadata.name) }, r.want);
    });
  }
});

describe('podGenerateNameWithIndex', () => {
  test('job name, index and a dash', () => assert.equal(generateNameWithIndex('report', 3), 'report-3-'));
  test('a long job name is cut so that the prefix is 58 characters', () => {
    const g = generateNameWithIndex('a'.repeat(60), 12);
    assert.equal(g, `${'a'.repeat(54)}-12-`);
    assert.equal(g.length, 58);
  });
});
