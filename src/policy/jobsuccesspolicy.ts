// An Indexed Job's successPolicy (pkg/controller/job/success_policy.go matchSuccessPolicy,
// matchSucceededIndexesRule): the rules in order, the first met decides, and the job gets
// SuccessCriteriaMet with reason SuccessPolicy and the message "Matched rules at index N", then
// Complete once its remaining pods are gone. A rule with succeededIndexes is met when all those
// indexes succeeded, or (with succeededCount) when that many of them did; a rule with only
// succeededCount when that many indexes succeeded, whichever. A rule whose succeededIndexes parse
// to nothing below completions is skipped. Pure (the JobSuccessPolicy gate is on in 1.32).

import type { JobSpec } from '../api/types.js';
import { intervalsTotal, parseIntervals, type Intervals } from './jobindexes.js';

/** JobReasonSuccessPolicy. */
export const successPolicyReason = 'SuccessPolicy';

/** matchSuccessPolicy: the SuccessCriteriaMet message of the first rule met, or undefined. */
export function matchSuccessPolicy(policy: JobSpec['successPolicy'], completions: number, succeeded: Intervals): string | undefined {
  if (!policy || succeeded.length === 0) return undefined;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes !== undefined) {
      const required = parseIntervals(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      if (matchSucceededIndexesRule(required, succeeded, rule.succeededCount)) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && intervalsTotal(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}

/** matchSucceededIndexesRule: how many of the rule's indexes succeeded is all of them, or at least `count`. */
export function matchSucceededIndexesRule(rule: Intervals, succeeded: Intervals, count?: number): boolean {
  let contains = 0;
  let s = 0;
  let r = 0;
  while (r < rule.length && s < succeeded.length) {
    const overlap = Math.min(rule[r]!.last, succeeded[s]!.last) - Math.max(rule[r]!.first, succeeded[s]!.first) + 1;
    if (overlap > 0) contains += overlap;
    if (succeeded[s]!.last < rule[r]!.last) s++;
    else if (succeeded[s]!.last > rule[r]!.last) r++;
    else {
      s++;
      r++;
    }
  }
  return contains === intervalsTotal(rule) || (count !== undefined && contains >= count);
}
