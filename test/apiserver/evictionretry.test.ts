// The eviction subresource's retries on a conflict (src/apiserver/eviction.ts), as eviction.go has
// them: retry.OnError(EvictionsRetry, …) around the delete of a pod that goes without a budget,
// retry.RetryOnConflict(EvictionsRetry, …) around the budget's status write, with EvictionsRetry =
// {Steps: 20, Duration: 500ms, Factor: 1.0, Jitter: 0.1}; when all 20 attempts conflict, OnError
// answers the last conflict. The Api's sleep is a fake that records each wait and returns at once,
// and the conflicts are injected into the Api's writes: the rows count attempts and waits, and
// nothing depends on a clock. Then retryOnError itself (src/apiserver/retry.ts), one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod } from '../../src/api/types.js';
import { evictPod, evictionsRetry } from '../../src/apiserver/eviction.js';
import { findResource, storageKey } from '../../src/apiserver/resources.js';
import { Api, type RequestInfo } from '../../src/apiserver/rest.js';
import { jittered, retryOnError } from '../../src/apiserver/retry.js';
import { statusErrors, StatusError } from '../../src/apiserver/status.js';
import { MemoryStore } from '../../src/storage/index.js';

const podsDef = findResource('', 'v1', 'pods')!;
const pdbDef = findResource('policy', 'v1', 'poddisruptionbudgets')!;
const req: RequestInfo = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };

const budgetConflict = () => statusErrors.conflict({ group: 'policy', resource: 'poddisruptionbudgets' }, 'pdb', 'the object has been modified; please apply your changes to the latest version and try again');
const podConflict = () => statusErrors.conflict({ group: '', resource: 'pods' }, 'p', 'the object has been modified; please apply your changes to the latest version and try again');

interface Row {
  rule: string;
  phase: 'Running' | 'Pending';
  /** The eviction's deleteOptions.preconditions.resourceVersion is set (no retries then). */
  withResourceVersion?: boolean;
  /** Which write conflicts, and how many times before it goes through (Infinity: always). */
  conflicts: { on: 'budget status' | 'pod delete'; times: number };
  /** Attempts of the conflicting write, waits between them, and the answer. */
  attempts: number;
  waits: number;
  answer: { code: 201 } | { code: 409; message: string };
  podLeft: boolean;
}

const rows: Row[] = [
  {
    rule: 'the budget write conflicts 3 times: tried 4 times, 3 waits of EvictionsRetry, then evicted',
    phase: 'Running',
    conflicts: { on: 'budget status', times: 3 },
    attempts: 4,
    waits: 3,
    answer: { code: 201 },
    podLeft: false,
  },
  {
    rule: 'the budget write always conflicts: 20 attempts, 19 waits, and the last conflict is the answer (retry.OnError returns it)',
    phase: 'Running',
    conflicts: { on: 'budget status', times: Infinity },
    attempts: 20,
    waits: 19,
    answer: { code: 409, message: 'Operation cannot be fulfilled on poddisruptionbudgets.policy "pdb": the object has been modified; please apply your changes to the latest version and try again' },
    podLeft: true,
  },
  {
    rule: 'a Pending pod (no budget check) whose delete conflicts twice: 3 attempts, 2 waits of EvictionsRetry',
    phase: 'Pending',
    conflicts: { on: 'pod delete', times: 2 },
    attempts: 3,
    waits: 2,
    answer: { code: 201 },
    podLeft: false,
  },
  {
    rule: 'a Pending pod whose delete always conflicts: 20 attempts, 19 waits, the conflict answered',
    phase: 'Pending',
    conflicts: { on: 'pod delete', times: Infinity },
    attempts: 20,
    waits: 19,
    answer: { code: 409, message: 'Operation cannot be fulfilled on pods "p": the object has been modified; please apply your changes to the latest version and try again' },
    podLeft: true,
  },
  {
    rule: 'the eviction names a resourceVersion: a conflicting delete is not retried',
    phase: 'Pending',
    withResourceVersion: true,
    conflicts: { on: 'pod delete', times: 1 },
    attempts: 1,
    waits: 0,
    answer: { code: 409, message: 'Operation cannot be fulfilled on pods "p": the object has been modified; please apply your changes to the latest version and try again' },
    podLeft: true,
  },
];

async function setup(row: Row) {
  const store = new MemoryStore();
  const waits: number[] = [];
  const api = new Api({ store, gates: defaultFeatureGates, sleep: async (ms) => void waits.push(ms) });
  const ready = row.phase === 'Running' ? 'True' : 'False';
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'uid-p', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] }, status: { phase: row.phase, conditions: [{ type: 'Ready', status: ready }] } };
  await store.create(storageKey(podsDef, 'ns', 'p'), JSON.stringify(pod));
  const pdb = {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb', namespace: 'ns', uid: 'uid-pdb', generation: 1 },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 },
  };
  await store.create(storageKey(pdbDef, 'ns', 'pdb'), JSON.stringify(pdb));
  let attempts = 0;
  const { update, delete: del } = api;
  api.update = async function (def, namespace, name, obj, r, subresource) {
    if (row.conflicts.on === 'budget status' && def.resource === 'poddisruptionbudgets' && subresource === 'status') {
      if (attempts++ < row.conflicts.times) throw budgetConflict();
    }
    return update.call(api, def, namespace, name, obj, r, subresource);
  } as Api['update'];
  api.delete = async function (def, namespace, name, opts, r) {
    if (row.conflicts.on === 'pod delete' && def.resource === 'pods') {
      if (attempts++ < row.conflicts.times) throw podConflict();
    }
    return del.call(api, def, namespace, name, opts, r);
  } as Api['delete'];
  return { api, waits, attempts: () => attempts };
}

describe('eviction: conflicts retried with EvictionsRetry', () => {
  it('EvictionsRetry is eviction.go\'s', () => {
    assert.deepEqual(evictionsRetry, { steps: 20, durationMs: 500, factor: 1.0, jitter: 0.1 });
  });
  for (const row of rows) {
    it(row.rule, async () => {
      const { api, waits, attempts } = await setup(row);
      const rv = row.withResourceVersion ? (await api.get<Pod>(podsDef, 'ns', 'p')).metadata.resourceVersion : undefined;
      const opts = rv ? { preconditions: { resourceVersion: rv } } : {};
      let answer: { code: number; message?: string };
      try {
        answer = { code: (await evictPod(api, podsDef, 'ns', 'p', opts, { ...req, warnings: [] })).code };
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        answer = { code: e.code, message: e.status.message };
      }
      assert.deepEqual(answer, row.answer);
      assert.equal(attempts(), row.attempts, 'attempts of the conflicting write');
      assert.equal(waits.length, row.waits, 'waits between them');
      for (const w of waits) assert.ok(w >= 500 && w <= 550, `a wait of ${w} ms is 500 ms plus up to a tenth`);
      assert.equal((await api.tryGet(podsDef, 'ns', 'p')) !== undefined, row.podLeft);
    });
  }
});

describe('retryOnError (client-go retry.OnError over wait.Backoff)', () => {
  const conflict = () => new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'conflict', reason: 'Conflict', code: 409 });
  const isConflict = (e: unknown) => e instanceof StatusError && e.code === 409;
  interface RetryRow {
    rule: string;
    backoff: { steps: number; durationMs: number; factor: number; jitter: number };
    /** What each attempt does, in order: ok, a retriable conflict, or another error. */
    script: ('ok' | 'conflict' | 'other')[];
    calls: number;
    waits: number[];
    outcome: 'ok' | 'conflict' | 'other';
  }
  const retryRows: RetryRow[] = [
    { rule: 'success at once: no wait', backoff: { steps: 5, durationMs: 10, factor: 1, jitter: 0 }, script: ['ok'], calls: 1, waits: [], outcome: 'ok' },
    { rule: 'a conflict, then success: one wait of the duration', backoff: { steps: 5, durationMs: 10, factor: 1, jitter: 0 }, script: ['conflict', 'ok'], calls: 2, waits: [10], outcome: 'ok' },
    { rule: 'a non-retriable error ends it at once', backoff: { steps: 5, durationMs: 10, factor: 1, jitter: 0 }, script: ['conflict', 'other'], calls: 2, waits: [10], outcome: 'other' },
    { rule: 'steps attempts, no wait after the last, the last conflict thrown', backoff: { steps: 3, durationMs: 10, factor: 1, jitter: 0 }, script: ['conflict', 'conflict', 'conflict'], calls: 3, waits: [10, 10], outcome: 'conflict' },
    { rule: 'the factor multiplies the duration after each wait', backoff: { steps: 4, durationMs: 10, factor: 5, jitter: 0 }, script: ['conflict', 'conflict', 'conflict', 'conflict'], calls: 4, waits: [10, 50, 250], outcome: 'conflict' },
    { rule: 'jitter adds up to its fraction of the duration (random() = 0.5: half of it)', backoff: { steps: 2, durationMs: 500, factor: 1, jitter: 0.1 }, script: ['conflict', 'ok'], calls: 2, waits: [525], outcome: 'ok' },
  ];
  for (const row of retryRows) {
    it(row.rule, async () => {
      const waits: number[] = [];
      let calls = 0;
      let outcome: RetryRow['outcome'];
      try {
        await retryOnError(row.backoff, isConflict, async () => {
          const step = row.script[calls++];
          if (step === 'conflict') throw conflict();
          if (step === 'other') throw new Error('other');
        }, async (ms) => void waits.push(ms), () => 0.5);
        outcome = 'ok';
      } catch (e) {
        outcome = isConflict(e) ? 'conflict' : 'other';
      }
      assert.equal(outcome, row.outcome);
      assert.equal(calls, row.calls);
      assert.deepEqual(waits, row.waits);
    });
  }
  it('wait.Jitter: a maxFactor of 0 or less means up to the whole duration again', () => {
    assert.equal(jittered(100, 0, () => 0.5), 150);
    assert.equal(jittered(100, 0.1, () => 1), 110);
  });
});
