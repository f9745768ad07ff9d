// The pod create path of the API server as one pure function, in Kubernetes' order after
// decoding: drop disabled fields, defaulting, the mutating plugins (LimitRanger's defaults,
// ServiceAccount when the caller looked the account up, Priority, DefaultTolerationSeconds,
// RuntimeClass's overhead and scheduling), the strategy's PrepareForCreate (status, the pod
// affinity label keys merged into their selectors, the AppArmor annotation warning), validation,
// the strategy's warnings (api/workloadwarnings.ts), the validating plugins (LimitRanger's
// min/max/ratio, PodSecurity (enforce, warn), RuntimeClass's overhead check, ResourceQuota):
// kube-apiserver's plugin order (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins).
// `bulkhead plan` and the API server
// both call it, each after decoding with api/schema's decodeObject, so an offline plan and a
// live create cannot disagree.

import { defaultPod } from '../api/defaults.js';
import { dropDisabledPodFields } from '../api/dropdisabled.js';
import { mergePodAffinityLabelKeys } from '../api/podaffinitylabelkeys.js';
import type { FeatureGates } from '../api/featuregates.js';
import { errorBody, invalidMessage, type FieldError } from '../api/fielderrors.js';
import type { LimitRange, Pod, PriorityClass, ResourceQuota, RuntimeClass, ServiceAccount } from '../api/types.js';
import { validatePodCreate } from '../api/validation/index.js';
import { computePodQOS } from '../policy/qos.js';
import { evaluatePodSecurity, type PodSecurityDefaults, type PodSecurityExemptions } from './podsecurity.js';
import type { Exemption } from '../podsecurity/index.js';
import { admitDefaultTolerationSeconds, type DefaultTolerationSeconds } from './defaulttolerationseconds.js';
import { admitPodPriority } from './priority.js';
import { admitPodRuntimeClass, validatePodRuntimeClass } from './runtimeclass.js';
import { admitPodServiceAccount } from './serviceaccount.js';
import { applySchedulingGatedCondition } from '../api/schedulinggated.js';
import { decideQuotas, type PodQuotaFacts, type QuotaCharge, type QuotaDecision } from '../quota/admission.js';
import type { LimitedResource } from '../quota/config.js';
import { applyLimitRangeDefaults, limitRangesViolation } from '../quota/limitranger.js';
import { applyAppArmorVersionSkew } from '../api/apparmorskew.js';
import { podCreateWarnings } from '../api/workloadwarnings.js';

/** Decode failures (400, refused before admission) count as Validation. */
export type RejectedBy = 'Validation' | 'LimitRange' | 'ServiceAccount' | 'Priority' | 'RuntimeClass' | 'PodSecurity' | 'ResourceQuota';

export interface Rejection {
  by: RejectedBy;
  /** The Status message, e.g. `pods "web" is forbidden: exceeded quota: …`. */
  message: string;
  /** 500 (no reason): a ResourceQuota refusal upstream returns as a plain error, not a Forbidden one. */
  code: 403 | 422 | 500;
  reason: 'Forbidden' | 'Invalid' | '';
  /** ResourceQuota refused for the configuration's limitedResources, not for a quota's limits. */
  limitedResources?: true;
}

export interface PodAdmissionInput {
  pod: Pod;
  /** The pod is the caller's to give away (decoded for this create alone): defaulting fills it in place instead of copying it. */
  owned?: boolean;
  /** Labels of the pod's Namespace object (Pod Security reads them). */
  namespaceLabels: Record<string, string>;
  limitRanges: readonly LimitRange[];
  /** Every PriorityClass there is (the built-in ones included). */
  priorityClasses: readonly PriorityClass[];
  /** The RuntimeClasses the pod may name (the server passes the one it names, when it exists; plan every one of its input). */
  runtimeClasses?: readonly RuntimeClass[];
  /** The namespace's quotas with their current status (hard, used). */
  quotas: readonly ResourceQuota[];
  /** The ResourceQuota configuration's limitedResources (none when absent). */
  limitedResources?: readonly LimitedResource[];
  gates: FeatureGates;
  podSecurityDefaults: PodSecurityDefaults;
  /** The PodSecurity configuration's exemptions (none when absent). */
  podSecurityExemptions?: PodSecurityExemptions;
  /** The requesting user (the server's; a plan has none, so usernames exemptions never apply there). */
  username?: string;
  now: Date;
  /**
   * The ServiceAccount the pod names (podServiceAccountName), as the server looked it up
   * (`account` undefined: not found), and the name generator of the token volume (the API token is
   * mounted only with one). Absent (plan): the ServiceAccount plugin is skipped, so a plan shows
   * no `kube-api-access-` volume and stays deterministic.
   */
  serviceAccount?: { account: ServiceAccount | undefined; generateName?: (prefix: string) => string };
  /** The server's --default-not-ready/unreachable-toleration-seconds (default 300 each). */
  defaultTolerationSeconds?: DefaultTolerationSeconds;
  /**
   * Called with the pod decoded and defaulted, before the admission plugins change it: the API
   * server records field ownership there, as upstream's field manager does (what the plugins
   * add, such as default tolerations or the priority, belongs to no manager).
   */
  defaulted?: (pod: Pod) => void;
}

export interface ReportedFieldError {
  field: string;
  type: string;
  message: string;
}

export interface PodAdmissionResult {
  /** The pod as it would be stored (when it got far enough to be defaulted). */
  pod?: Pod;
  warnings: string[];
  errors: ReportedFieldError[];
  rejection?: Rejection;
  /** Quota status updates to write in the same transaction as the pod. */
  charges: QuotaCharge[];
  /** Pod Security let the pod through unevaluated: its namespace, user or runtime class is exempt. */
  podSecurityExempt?: Exemption;
}

export function podDisplayName(pod: Pod): string {
  return pod.metadata?.name || pod.metadata?.generateName || 'Unknown';
}

function forbidden(by: RejectedBy, pod: Pod, message: string): Rejection {
  return { by, message: `pods "${podDisplayName(pod)}" is forbidden: ${message}`, code: 403, reason: 'Forbidden' };
}

/** The ResourceQuota plugin's refusal of the pod named `name`: Forbidden, or the bare message of a plain error (500). */
function quotaRejection(name: string, d: QuotaDecision & { allowed: false }): Rejection {
  const r: Rejection = d.plainError ? { by: 'ResourceQuota', message: d.message, code: 500, reason: '' } : { by: 'ResourceQuota', message: `pods "${name}" is forbidden: ${d.message}`, code: 403, reason: 'Forbidden' };
  if (d.limited) r.limitedResources = true;
  return r;
}

export function reportFieldErrors(errs: readonly FieldError[]): ReportedFieldError[] {
  return errs.map((e) => ({ field: e.field, type: e.type, message: errorBody(e) }));
}

export function admitPodCreate(input: PodAdmissionInput): PodAdmissionResult {
  const r = admitPodUpToQuota(input);
  if (r.rejection || r.errors.length > 0 || !r.pod) return r;
  const quota = admitPodQuota(r.pod, podDisplayName(r.pod), input);
  return quota.rejection ? { ...r, rejection: quota.rejection } : { ...r, charges: quota.charges };
}

/**
 * The create path up to ResourceQuota, the last plugin: the pod, its warnings and any refusal
 * before quota (`charges` empty). A function of the pod and of the namespace's policy alone, not
 * of the quotas' usage: `bulkhead plan` remembers its outcome for pods that differ only in name.
 */
export function admitPodUpToQuota(input: PodAdmissionInput): PodAdmissionResult {
  const warnings: string[] = [];
  const dropped = dropDisabledPodFields(input.pod, input.gates);
  if (dropped.warnings.length > 0) warnings.push(...dropped.warnings);
  let pod = defaultPod(dropped.pod, { gates: input.gates, inPlace: input.owned });
  input.defaulted?.(pod);
  pod = applyLimitRangeDefaults(pod, input.limitRanges);
  if (input.serviceAccount) {
    const sa = admitPodServiceAccount(pod, pod.metadata?.namespace ?? '', input.serviceAccount.account, input.serviceAccount.generateName);
    if (sa.message !== undefined) return { pod, warnings, errors: [], rejection: forbidden('ServiceAccount', pod, sa.message), charges: [] };
    pod = sa.pod;
  }
  // The pod is this function's own from defaulting on (a copy, or the caller's handed over).
  const priority = admitPodPriority(pod, input.priorityClasses, true);
  if (priority.forbidden !== undefined) return { pod, warnings, errors: [], rejection: forbidden('Priority', pod, priority.forbidden), charges: [] };
  pod = admitDefaultTolerationSeconds(priority.pod, input.defaultTolerationSeconds, true);
  const runtimeClass = admitPodRuntimeClass(pod, input.runtimeClasses ?? [], true);
  if (runtimeClass.forbidden !== undefined) return { pod, warnings, errors: [], rejection: forbidden('RuntimeClass', pod, runtimeClass.forbidden), charges: [] };
  pod = runtimeClass.pod;
  pod.status = { phase: 'Pending', qosClass: computePodQOS(pod, input.gates) };
  applySchedulingGatedCondition(pod, input.now);
  mergePodAffinityLabelKeys(pod);
  warnings.push(...applyAppArmorVersionSkew(pod));

  const fieldErrors = validatePodCreate(pod, { gates: input.gates });
  if (fieldErrors.length > 0) {
    return {
      pod,
      warnings,
      errors: reportFieldErrors(fieldErrors),
      rejection: { by: 'Validation', message: invalidMessage('Pod', podDisplayName(pod), fieldErrors), code: 422, reason: 'Invalid' },
      charges: [],
    };
  }
  // The strategy's WarningsOnCreate, once validation has passed; the validating plugins' come after.
  warnings.push(...podCreateWarnings(pod));

  const limitError = limitRangesViolation(pod, input.limitRanges);
  if (limitError !== undefined) return { pod, warnings, errors: [], rejection: forbidden('LimitRange', pod, limitError), charges: [] };

  const security = evaluatePodSecurity(input.namespaceLabels, input.podSecurityDefaults, pod, { exemptions: input.podSecurityExemptions, username: input.username });
  if (security.denied) return { pod, warnings, errors: [], rejection: forbidden('PodSecurity', pod, security.denied), charges: [] };
  if (security.warnings.length > 0) warnings.push(...security.warnings);
  const exempt = security.exempt ? { podSecurityExempt: security.exempt } : {};

  const overhead = validatePodRuntimeClass(pod, input.runtimeClasses ?? []);
  if (overhead !== undefined) return { pod, warnings, errors: [], rejection: forbidden('RuntimeClass', pod, overhead), charges: [], ...exempt };

  return { pod, warnings, errors: [], charges: [], ...exempt };
}

/**
 * ResourceQuota's decision on a pod admitted so far (admitPodUpToQuota), named `name` in its
 * refusal: what it charges the namespace's quotas at their current usage, or why it is refused.
 */
export function admitPodQuota(pod: Pod, name: string, input: Pick<PodAdmissionInput, 'quotas' | 'gates' | 'now' | 'limitedResources'>, facts?: PodQuotaFacts): { rejection?: Rejection; charges: QuotaCharge[] } {
  const quota = decideQuotas(pod, input.quotas, { gates: input.gates, now: input.now, limitedResources: input.limitedResources }, facts);
  return quota.allowed ? { charges: quota.charges } : { rejection: quotaRejection(name, quota), charges: [] };
}
