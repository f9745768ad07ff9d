// A Job's podFailurePolicy applied to one failed pod (pkg/controller/job/pod_failure_policy.go
// matchPodFailurePolicy, matchOnExitCodes, matchOnPodConditions): the rules in order, the first
// that matches decides. FailJob carries upstream's message; Ignore means the failure does not
// count against backoffLimit (nor against backoffLimitPerIndex); Count (and no match) counts it;
// FailIndex (validation allows it only with backoffLimitPerIndex) fails the pod's index at once
// (jobperindex.ts), as upstream with the JobBackoffLimitPerIndex gate on, its 1.32 default. Pure.

import type { ContainerStatus, Job, Pod, PodFailurePolicyOnExitCodesRequirement, PodFailurePolicyOnPodConditionsPattern } from '../api/types.js';

export type PodFailureAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface PodFailureMatch {
  /** The action of the matching rule; undefined when no rule matched (the failure counts). */
  action?: PodFailureAction;
  /** Whether the failure counts against backoffLimit and backoffLimitPerIndex (false only for Ignore). */
  countFailed: boolean;
  /** For FailJob: the FailureTarget/Failed condition's message. */
  message?: string;
}

function exitCodeMatches(code: number, req: PodFailurePolicyOnExitCodesRequirement): boolean {
  const inValues = (req.values ?? []).includes(code);
  return req.operator === 'In' ? inValues : req.operator === 'NotIn' ? !inValues : false;
}

/** The first terminated container with a non-zero exit code the requirement matches. */
function matchingContainer(statuses: ContainerStatus[] | undefined, req: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  for (const cs of statuses ?? []) {
    const terminated = cs.state?.terminated;
    if (!terminated) continue;
    if (req.containerName !== undefined && req.containerName !== cs.name) continue;
    const code = terminated.exitCode ?? 0;
    if (code !== 0 && exitCodeMatches(code, req)) return cs;
  }
  return undefined;
}

/** matchOnExitCodes: the regular containers first, then the init containers. */
export function matchOnExitCodes(pod: Pod, req: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  return matchingContainer(pod.status?.containerStatuses, req) ?? matchingContainer(pod.status?.initContainerStatuses, req);
}

/** matchOnPodConditions: the first pattern with a pod condition of that type and status. */
export function matchOnPodConditions(pod: Pod, patterns: readonly PodFailurePolicyOnPodConditionsPattern[]): string | undefined {
  for (const p of patterns) {
    const status = p.status ?? 'True';
    if ((pod.status?.conditions ?? []).some((c) => c.type === p.type && c.status === status)) return p.type;
  }
  return undefined;
}

/** matchPodFailurePolicy for one failed pod of this job. */
export function matchPodFailurePolicy(job: Job, pod: Pod): PodFailureMatch {
  const rules = job.spec?.podFailurePolicy?.rules;
  if (!rules) return { countFailed: true };
  const ns = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  for (const [index, rule] of rules.entries()) {
    let matched: { container?: ContainerStatus; condition?: string } | undefined;
    if (rule.onExitCodes) {
      const container = matchOnExitCodes(pod, rule.onExitCodes);
      if (container) matched = { container };
    } else if (rule.onPodConditions) {
      const condition = matchOnPodConditions(pod, rule.onPodConditions);
      if (condition) matched = { condition };
    }
    if (!matched) continue;
    switch (rule.action) {
      case 'Ignore':
        return { action: 'Ignore', countFailed: false };
      case 'Count':
        return { action: 'Count', countFailed: true };
      case 'FailIndex':
        return { action: 'FailIndex', countFailed: true };
      case 'FailJob': {
        const message = matched.container
          ? `Container ${matched.container.name} for pod ${ns}/${name} failed with exit code ${matched.container.state?.terminated?.exitCode ?? 0} matching FailJob rule at index ${index}`
          : `Pod ${ns}/${name} has condition ${matched.condition} matching FailJob rule at index ${index}`;
        return { action: 'FailJob', countFailed: true, message };
      }
      default:
        // Actions added later: the next rule decides.
        continue;
    }
  }
  return { countFailed: true };
}
