// Evaluating a pod against a level/version, and the aggregate texts built from the results
// (upstream policy/registry.go EvaluatePod and policy/checks.go AggregateCheckResults).

import type { CheckID, CheckResult } from './check.js';
import type { LevelVersion } from './levels.js';
import { withSharedContainerViews, type PodMetadataInput, type PodSpecInput } from './podfields.js';
import { getDefaultRegistry, type CheckRegistry } from './registry.js';

/** A failing check: upstream's CheckResult plus the ID of the check that produced it. */
export interface CheckFailure extends CheckResult {
  readonly id: CheckID;
  readonly allowed: false;
}

/** Placeholder upstream prints for a failure without a reason (upstream treats it as a bug). */
export const UNKNOWN_FORBIDDEN_REASON = 'unknown forbidden reason';

/**
 * Runs the checks active for `lv` (none for privileged; `latest` and versions newer than the
 * maximum evaluate as the maximum) over the pod's metadata and spec, returning the failing
 * results in evaluation order; an empty list means the pod is allowed.
 *
 * Like upstream, this expects an API-defaulted pod. For raw user objects, pass the spec through
 * defaultPodSpecForPodSecurity() (or the pod through defaultPodForPodSecurity()) first, or a
 * volume with no source is reported as a restricted volume of type "unknown".
 *
 * Never throws on malformed input; should a check throw anyway, that counts as a failure with
 * an empty reason (printed as `unknown forbidden reason`), i.e. it fails closed.
 */
export function evaluatePod(
  lv: LevelVersion,
  podMetadata: PodMetadataInput,
  podSpec: PodSpecInput,
  registry: CheckRegistry = getDefaultRegistry(),
): CheckFailure[] {
  return withSharedContainerViews(podSpec, () => runChecks(lv, podMetadata, podSpec, registry));
}

function runChecks(lv: LevelVersion, podMetadata: PodMetadataInput, podSpec: PodSpecInput, registry: CheckRegistry): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const check of registry.activeChecks(lv)) {
    let result: CheckResult;
    try {
      result = check.checkPod(podMetadata, podSpec);
    } catch (e) {
      result = { allowed: false, forbiddenReason: '', forbiddenDetail: `check ${check.id} failed: ${String(e)}` };
    }
    if (!result.allowed) {
      failures.push({ id: check.id, allowed: false, forbiddenReason: result.forbiddenReason, forbiddenDetail: result.forbiddenDetail });
    }
  }
  return failures;
}

function reasonOf(r: CheckResult): string {
  return r.forbiddenReason === '' ? UNKNOWN_FORBIDDEN_REASON : r.forbiddenReason;
}

/**
 * AggregateCheckResult.ForbiddenDetail: `reason (detail), reason (detail), ...` over the failing
 * results (a result with an empty detail contributes just its reason). Allowed results are
 * skipped, so the full result list of a custom evaluation can be passed too.
 */
export function aggregateReasons(results: readonly CheckResult[]): string {
  return results
    .filter((r) => !r.allowed)
    .map((r) => (r.forbiddenDetail === '' ? reasonOf(r) : `${reasonOf(r)} (${r.forbiddenDetail})`))
    .join(', ');
}

/** AggregateCheckResult.ForbiddenReason: the failing results' reasons joined by ", ". */
export function reasonsOnly(results: readonly CheckResult[]): string {
  return results.filter((r) => !r.allowed).map(reasonOf).join(', ');
}
