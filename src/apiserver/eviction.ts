// The eviction subresource's budget check (pkg/registry/core/pod/storage/eviction.go): a pod not
// yet Running, already terminal or already being deleted is deleted without one; otherwise the
// one PodDisruptionBudget that selects the pod must allow the disruption, and the eviction takes
// it by decrementing status.disruptionsAllowed and recording the pod in status.disruptedPods in
// one compare-and-swap write of the budget's status (retried on a conflict), before the pod is
// deleted, after the pod gets DisruptionTarget (EvictionByEvictionAPI). A conflicting delete of a
// pod that goes without a budget, and a conflicting budget write, are tried again as upstream does
// (retry.OnError and retry.RetryOnConflict with EvictionsRetry: 20 attempts, half a second and up
// to a tenth more between two); when all 20 conflict, the last conflict is the answer (OnError
// returns it, so eviction.go's "couldn't update PodDisruptionBudget … due to conflicts" 504 is
// never reached). Decisions are src/policy/disruption.ts's; wording, codes and causes are upstream's.

import type { Pod, PodDisruptionBudget, Status } from '../api/types.js';
import { budgetSelects, canIgnoreBudget, disruptionBudgetCause, evictionDecision, evictionRefusedMessage, multipleBudgetsMessage, shouldEnforceResourceVersion } from '../policy/disruption.js';
import { metaTime } from '../api/metatime.js';
import { updatePodCondition } from '../api/podconditions.js';
import type { Api, DeleteOptions, RequestInfo } from './rest.js';
import type { ResourceDef } from './resources.js';
import { retryOnError, type Backoff } from './retry.js';
import { statusErrors, StatusError } from './status.js';

/** eviction.go's EvictionsRetry. */
export const evictionsRetry: Backoff = { steps: 20, durationMs: 500, factor: 1.0, jitter: 0.1 };

/** How often the pod's status write is tried when another write got in between (GuaranteedUpdate tries again at once). */
const conditionWriteAttempts = 20;

const isConflict = (e: unknown) => e instanceof StatusError && e.code === 409;

/** errors.NewTooManyRequests with the DisruptionBudget cause. */
function tooManyRequests(cause: string, retryAfterSeconds: number): StatusError {
  const details: NonNullable<Status['details']> = { causes: [{ reason: disruptionBudgetCause, message: cause }] };
  if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: evictionRefusedMessage, reason: 'TooManyRequests', details, code: 429 });
}

/** createTooManyRequestsError: the budget is behind (or the pod changed under an unhealthy-pod eviction). */
const stillProcessing = (name: string) => tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);

const withResourceVersion = (opts: DeleteOptions, rv: string | undefined): DeleteOptions => ({ ...opts, preconditions: { ...(opts.preconditions ?? {}), resourceVersion: rv } });

/** The condition an evicted pod gets before it is deleted (PodDisruptionConditions, GA in 1.31). */
const evictionCondition = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' } as const;

/** errors.NewConflict(GroupResource{Resource: "Pod"}, …) of a pod the delete's preconditions do not match (eviction.go's getLatestPod). */
function preconditionConflict(name: string, message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Operation cannot be fulfilled on Pod "${name}": ${message}`, reason: 'Conflict', details: { name, kind: 'Pod' }, code: 409 });
}

/**
 * addConditionAndDeletePod: unless dry run, the pod as it is now gets DisruptionTarget
 * (EvictionByEvictionAPI) through its status, checked against the delete's preconditions first
 * (and tried again if another write got in between, as GuaranteedUpdate does); a resourceVersion
 * precondition then moves to the version that write made. Then the delete.
 */
async function addConditionAndDeletePod(api: Api, podsDef: ResourceDef, namespace: string, name: string, opts: DeleteOptions, req: RequestInfo): Promise<void> {
  let deleteOpts = opts;
  if (!req.dryRun) {
    for (let attempt = 0; ; attempt++) {
      const latest = await api.get<Pod>(podsDef, namespace, name);
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== latest.metadata.uid) {
        throw preconditionConflict(name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${latest.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== latest.metadata.resourceVersion) {
        throw preconditionConflict(name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion ?? ''}). The object might have been modified`);
      }
      const { conditions } = updatePodCondition(latest.status?.conditions ?? [], evictionCondition, metaTime(api.now()));
      try {
        const updated = await api.update(podsDef, namespace, name, { ...latest, status: { ...latest.status, conditions } } as Pod, req, 'status');
        if (pre?.resourceVersion) deleteOpts = withResourceVersion(opts, updated.metadata?.resourceVersion);
        break;
      } catch (e) {
        if (!isConflict(e) || attempt + 1 >= conditionWriteAttempts) throw e;
      }
    }
  }
  await api.delete(podsDef, namespace, name, deleteOpts, req);
}

/** What the eviction answers: a Status with its HTTP code. */
export type EvictionResult = { code: 201 } | { code: 500; status: Status };

/** getPodDisruptionBudgets: the budgets of the pod's namespace whose selector matches it. */
async function budgetsOf(api: Api, pod: Pod): Promise<PodDisruptionBudget[]> {
  const items = (await api.list(api.def('poddisruptionbudgets'), pod.metadata.namespace)).items as PodDisruptionBudget[];
  return items.filter((b) => budgetSelects(b, pod));
}

/**
 * Evicts the pod `name` as EvictionREST.Create: `opts` are the Eviction's deleteOptions with the
 * request's dry run; `req` the request's identity (the pod delete is the caller's).
 */
export async function evictPod(api: Api, podsDef: ResourceDef, namespace: string, name: string, opts: DeleteOptions, req: RequestInfo): Promise<EvictionResult> {
  const retryConflicts = opts.preconditions?.resourceVersion === undefined;
  // A pod that may go without a budget check is deleted here (as it was read, unless terminal).
  let pod!: Pod;
  let deleted = false;
  await retryOnError(evictionsRetry, (e) => retryConflicts && isConflict(e), async () => {
    pod = await api.get<Pod>(podsDef, namespace, name);
    if (!canIgnoreBudget(pod)) return;
    const deleteOpts = shouldEnforceResourceVersion(pod) && retryConflicts ? withResourceVersion(opts, pod.metadata.resourceVersion) : opts;
    await addConditionAndDeletePod(api, podsDef, namespace, name, deleteOpts, req);
    deleted = true;
  }, api.sleep);
  if (deleted) return { code: 201 };

  const budgets = await budgetsOf(api, pod);
  if (budgets.length > 1) return { code: 500, status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: multipleBudgetsMessage, code: 500 } };
  let unhealthyWithoutBudget = false;
  if (budgets.length === 1) {
    const pdbDef = api.def('poddisruptionbudgets');
    let pdb = budgets[0]!;
    const pdbName = pdb.metadata?.name ?? '';
    // The budget write is the server's own (upstream's loopback client), not the caller's.
    const server: RequestInfo = { ...req, dryRun: false, fieldManager: undefined, userAgent: 'kube-apiserver', warnings: [] };
    let refresh = false;
    await retryOnError(evictionsRetry, isConflict, async () => {
      if (refresh) pdb = await api.get<PodDisruptionBudget>(pdbDef, namespace, pdbName);
      refresh = true;
      const d = evictionDecision(pdb, pod, api.now().getTime(), req.dryRun);
      if (d.kind === 'skip') {
        unhealthyWithoutBudget = true;
        return;
      }
      if (d.kind === 'tooManyRequests') throw tooManyRequests(d.cause, d.retryAfterSeconds);
      if (d.kind === 'forbidden') throw statusErrors.forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, pdbName, d.message);
      if (req.dryRun) return;
      await api.update(pdbDef, namespace, pdbName, { ...pdb, status: d.status } as PodDisruptionBudget, server, 'status');
    }, api.sleep);
    // An unready pod deleted without the budget must still be as it was read: one that became
    // Ready meanwhile is not deleted, and the client is told to try again.
    if (unhealthyWithoutBudget) {
      try {
        await addConditionAndDeletePod(api, podsDef, namespace, name, retryConflicts ? withResourceVersion(opts, pod.metadata.resourceVersion) : opts, req);
        return { code: 201 };
      } catch (e) {
        if (e instanceof StatusError && e.code === 409 && retryConflicts) throw stillProcessing(pdbName);
        throw e;
      }
    }
  }
  await addConditionAndDeletePod(api, podsDef, namespace, name, opts, req);
  return { code: 201 };
}
