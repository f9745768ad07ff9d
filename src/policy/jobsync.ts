// One whole Job sync as if every write succeeded and expectations were met: the steps of
// job.ts and jobstatus.ts composed in syncJob's order, with no I/O between them. The controller
// (src/controllers/job.ts) runs the same steps with the writes between; the table tests of
// test/policy/job.test.ts pin the rules through this composition.

import { isPodReady } from './activepods.js';
import { afterManage, beginJobSync, manageJobPlan, type JobEvent, type JobSyncInput } from './job.js';
import type { Job, Pod } from '../api/types.js';
import type { BackoffRecord } from './jobbackoff.js';
import { settleJobStatus, trackJobStatus } from './jobstatus.js';

export interface JobSyncDecision {
  /** How many pods to create from the template. */
  create: number;
  /** Indexed: the indexes of the pods to create. */
  createIndexes?: number[];
  /** Names of pods to delete (finishing: all active; manageJob: the excess, or all when suspended). */
  delete: string[];
  /** Names of pods whose tracking finalizer is removed (counted now, ignored, or the job finished). */
  removeFinalizer: string[];
  /** The status after the sync's writes. */
  status: NonNullable<Job['status']>;
  events: JobEvent[];
  /** When to sync again (back-off or deadline), ms. */
  requeueAfterMs?: number;
  backoff?: BackoffRecord;
}

export function decideJobSync(input: JobSyncInput): JobSyncDecision {
  const ctx = beginJobSync(input);
  if (!ctx) return { create: 0, delete: [], removeFinalizer: [], status: input.job.status ?? {}, events: [] };
  let active = ctx.activePods.length;
  let create = 0;
  let createIndexes: number[] | undefined;
  let deleted: Pod[] = [];
  let requeueAfterMs = ctx.deadlineAfterMs;
  if (ctx.finishedCondition) {
    deleted = ctx.activePods;
    active = 0;
    ctx.terminating += deleted.length;
    ctx.ready -= deleted.filter(isPodReady).length;
  } else {
    const plan = input.job.metadata.deletionTimestamp ? { action: 'none' as const } : manageJobPlan(ctx);
    if (plan.action === 'create') {
      create = plan.count;
      createIndexes = plan.indexes;
      active += create;
    } else if (plan.action === 'delete') {
      deleted = plan.pods;
      active -= deleted.length;
      ctx.terminating += deleted.length;
      ctx.ready -= deleted.filter(isPodReady).length;
    } else if (plan.action === 'wait') requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, plan.afterMs);
    afterManage(ctx, active, !input.job.metadata.deletionTimestamp);
  }
  const track = trackJobStatus(ctx, active, true);
  const removed = new Set(track.podsToRemoveFinalizer.map((p) => p.metadata.uid ?? ''));
  const withFinalizer = new Set([...track.uidsWithFinalizer].filter((u) => !removed.has(u)));
  settleJobStatus(ctx, withFinalizer);
  return {
    create,
    ...(createIndexes ? { createIndexes } : {}),
    delete: deleted.map((p) => p.metadata.name ?? ''),
    removeFinalizer: track.podsToRemoveFinalizer.map((p) => p.metadata.name ?? ''),
    status: ctx.job.status!,
    events: ctx.events,
    requeueAfterMs,
    backoff: ctx.backoff,
  };
}

