// The Pod Security dry run of a namespace label change (upstream admission/admission.go
// ValidateNamespace's update branch, EvaluatePodsInNamespace, prioritizePods and
// decoratePodWarnings): when a namespace update makes its enforce policy stricter, the pods
// already in it are evaluated against the new enforce level and what they violate comes back as
// warnings; the update itself is always allowed. Pure: the caller lists the pods and supplies
// the clock.

import type { CheckResult } from './check.js';
import { reasonsOnly, evaluatePod } from './evaluate.js';
import { goCompare, goQuote } from './format.js';
import { compareLevels, formatLevelVersion, versionEqual, type LevelVersion } from './levels.js';
import type { Policy } from './namespace.js';
import { get, rec, text, type PodMetadataInput, type PodSpecInput } from './podfields.js';

/** Upstream's defaultNamespaceMaxPodsToCheck. */
export const NAMESPACE_MAX_PODS_TO_CHECK = 3000;

/**
 * Upstream's defaultNamespacePodCheckTimeout (1 s), lowered to half of what is left of the
 * request's deadline when that is less.
 */
export const NAMESPACE_POD_CHECK_TIMEOUT_MS = 1000;

/** The only warning when the namespace's pods could not be listed. */
export const LIST_PODS_FAILED_WARNING = 'failed to list pods while checking new PodSecurity enforce level';

/**
 * The enforce level/version to dry-run the namespace's pods against after an update from
 * `oldPolicy` to `newPolicy`, or undefined when upstream skips the dry run: the enforce policy is
 * unchanged (level and version both equal), the new enforce level is privileged, or the version
 * is the same and the level was not made stricter. An exempt namespace is never dry-run either,
 * but it is asked after these three (its warning, exemptNamespaceWarning, is given only when the
 * dry run would otherwise have happened): the caller asks isExemptNamespace once this returns a level.
 */
export function namespaceDryRunLevel(newPolicy: Policy, oldPolicy: Policy): LevelVersion | undefined {
  const next = newPolicy.enforce;
  const prev = oldPolicy.enforce;
  const sameVersion = versionEqual(next.version, prev.version);
  if (next.level === prev.level && sameVersion) return undefined;
  if (next.level === 'privileged') return undefined;
  if (sameVersion && compareLevels(next.level, prev.level) < 1) return undefined;
  return next;
}

/** What the dry run reads of a pod: its name, annotations, owner references and spec. */
export interface NamespacePod {
  readonly metadata?: PodMetadataInput;
  readonly spec?: PodSpecInput;
}

/** metav1.GetControllerOf: the UID of the first owner reference with `controller: true`. */
function controllerUID(pod: NamespacePod): string | undefined {
  const refs = get(rec(pod.metadata), 'ownerReferences');
  if (!Array.isArray(refs)) return undefined;
  for (const ref of refs) {
    const r = rec(ref);
    if (get(r, 'controller') === true) return text(get(r, 'uid'));
  }
  return undefined;
}

function runtimeClassName(pod: NamespacePod): string {
  return text(get(rec(pod.spec), 'runtimeClassName'));
}

/**
 * prioritizePods: drops pods whose runtimeClassName is exempt (a non-empty name in the list),
 * then orders the rest so that every pod without a controller and the first pod of each
 * controller (by owner UID) come first, in list order, and the further replicas after them, in
 * list order. So the pod limit and the time budget are spent on distinct workloads first.
 */
export function prioritizePods<P extends NamespacePod>(pods: readonly P[], exemptRuntimeClasses: readonly string[] = []): P[] {
  const first: P[] = [];
  const replicas: P[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    const rc = runtimeClassName(pod);
    if (rc !== '' && exemptRuntimeClasses.includes(rc)) continue;
    const uid = controllerUID(pod);
    if (uid === undefined) {
      first.push(pod);
    } else if (seen.has(uid)) {
      replicas.push(pod);
    } else {
      seen.add(uid);
      first.push(pod);
    }
  }
  return [...first, ...replicas];
}

export type EvaluateFn = (lv: LevelVersion, metadata: PodMetadataInput, spec: PodSpecInput) => readonly CheckResult[];

export interface EvaluatePodsOptions {
  /** At most this many pods are evaluated (upstream: 3000). */
  readonly maxPods?: number;
  /** RuntimeClass names whose pods are not evaluated (the configuration's exemptions.runtimeClasses). */
  readonly exemptRuntimeClasses?: readonly string[];
  /**
   * Asked after each evaluated pod; true ends the run there (upstream's context deadline). The
   * caller's clock: tests pass a counter, the API server the time budget.
   */
  readonly expired?: () => boolean;
  /** The pod evaluation (default: the Pod Security checks, evaluatePod). */
  readonly evaluate?: EvaluateFn;
}

/**
 * EvaluatePodsInNamespace: the warnings for the pods of `namespace` (or for the error listing
 * them failed with) against `enforce`, in upstream's order:
 *
 * 1. `new PodSecurity enforce level only checked against the first <n> of <total> existing pods`
 *    when the pod limit or the time budget cut the run short (`total` counts the pods left after
 *    dropping exempt runtime classes);
 * 2. `existing pods in namespace "<ns>" violate the new PodSecurity enforce level "<level>:<version>"`
 *    when any evaluated pod fails;
 * 3. one warning per distinct list of reasons (reasons only, joined by ", "), named by the
 *    lexically smallest pod with it: `<pod>: <reasons>`, `<pod> (and 1 other pod): <reasons>`,
 *    `<pod> (and N other pods): <reasons>`, sorted.
 */
export function evaluatePodsInNamespace(
  namespace: string,
  enforce: LevelVersion,
  pods: readonly NamespacePod[] | Error,
  opts: EvaluatePodsOptions = {},
): string[] {
  if (pods instanceof Error) return [LIST_PODS_FAILED_WARNING];
  const evaluate = opts.evaluate ?? evaluatePod;
  const maxPods = opts.maxPods ?? NAMESPACE_MAX_PODS_TO_CHECK;
  const prioritized = prioritizePods(pods, opts.exemptRuntimeClasses);
  const total = prioritized.length;
  const toCheck = prioritized.slice(0, maxPods);

  const groups = new Map<string, { podName: string; count: number }>();
  let checked = toCheck.length;
  for (let i = 0; i < toCheck.length; i++) {
    const pod = toCheck[i]!;
    const results = evaluate(enforce, pod.metadata, pod.spec);
    if (results.some((r) => !r.allowed)) {
      const reasons = reasonsOnly(results);
      const name = text(get(rec(pod.metadata), 'name'));
      const group = groups.get(reasons);
      if (!group) groups.set(reasons, { podName: name, count: 1 });
      else {
        if (goCompare(name, group.podName) < 0) group.podName = name;
        group.count++;
      }
    }
    if (opts.expired?.()) {
      checked = i + 1;
      break;
    }
  }

  const warnings: string[] = [];
  if (checked < total) {
    warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
  }
  if (groups.size > 0) {
    warnings.push(`existing pods in namespace ${goQuote(namespace)} violate the new PodSecurity enforce level ${goQuote(formatLevelVersion(enforce))}`);
  }
  const podWarnings = [...groups].map(([reasons, g]) => `${g.podName}${othersText(g.count - 1)}: ${reasons}`);
  podWarnings.sort(goCompare);
  return [...warnings, ...podWarnings];
}

function othersText(others: number): string {
  if (others === 0) return '';
  return others === 1 ? ' (and 1 other pod)' : ` (and ${others} other pods)`;
}
