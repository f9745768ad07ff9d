// Pod Security admission (upstream pod-security-admission admission/admission.go): for a pod
// (ValidatePod) the namespace's labels over the cluster defaults, enforce (deny) and warn
// (warning text); for a pod controller (ValidatePodController) its pod template, warn only.
// Exempt namespaces and users are allowed before anything is read, exempt runtime classes once
// the policy is known (the configuration's exemptions, podsecurity/exemptions.ts).
// Both run one evaluation (EvaluatePod) with one outcome cache, worded as the plugin words them.
// Audit mode has no sink: Bulkhead keeps no audit log, so audit levels and the audit annotations
// (`audit-violations`, `error` for unparsable labels) are never produced.

import type { KubeObject, ObjectMeta, Pod, PodSpec } from '../api/types.js';
import {
  enforceDenialMessage,
  evaluatePod,
  formatVersion,
  getDefaultRegistry,
  isExemptRuntimeClass,
  checkedSpecView,
  isFullyPrivileged,
  parseLevel,
  parseVersion,
  policyToEvaluate,
  POD_SECURITY_LABELS,
  PRIVILEGED_LATEST,
  requestExemption,
  warnMessage,
  type Exemption,
  type LevelVersion,
  type Policy,
  type PodSecurityDefaults,
  type PodSecurityExemptions,
} from '../podsecurity/index.js';

export type { PodSecurityDefaults, PodSecurityExemptions };

export interface PodSecurityOutcome {
  /** `violates PodSecurity "<level>:<version>": …` when enforce denies. */
  denied?: string;
  warnings: string[];
  /** Allowed unevaluated: what was exempt (the `exempt` audit annotation's value). */
  exempt?: Exemption;
}

/** Who asks, for the exemptions. */
export interface PodSecurityRequest {
  /** The configuration's exemptions (none when absent). */
  exemptions?: PodSecurityExemptions;
  /** The request's namespace; for a pod, its metadata.namespace when absent. */
  namespace?: string;
  /** The requesting user, as impersonation left it; absent (an offline plan): usernames exemptions do not apply. */
  username?: string;
}

/** `LEVEL[:VERSION]` (the plan's and server's --pod-security) as the enforce default. */
export function parsePodSecurityDefault(spec: string): PodSecurityDefaults {
  const [level, version = 'latest', extra] = spec.split(':');
  if (extra !== undefined) throw new Error('expected LEVEL[:VERSION], e.g. baseline or restricted:v1.30');
  const l = parseLevel(level);
  if (l.error) throw new Error(l.error);
  const v = parseVersion(version);
  if (v.error) throw new Error(v.error);
  return { enforce: l.level, 'enforce-version': formatVersion(v.version) };
}

/** What policyToEvaluate read (each Pod Security label, then each default; undefined when absent) and what it gave. */
interface RememberedPolicy {
  readonly defaults: PodSecurityDefaults;
  readonly read: readonly unknown[];
  readonly policy: Policy;
}

const policies = new WeakMap<object, RememberedPolicy>();

function label(labels: Record<string, string>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined;
}

/** Everything policyToEvaluate reads: the six labels, then the six defaults. */
function inputs(labels: Record<string, string>, d: PodSecurityDefaults): unknown[] {
  const read: unknown[] = POD_SECURITY_LABELS.map((k) => label(labels, k));
  read.push(d?.enforce, d?.['enforce-version'], d?.audit, d?.['audit-version'], d?.warn, d?.['warn-version']);
  return read;
}

function unchanged(hit: RememberedPolicy, labels: Record<string, string>, d: PodSecurityDefaults): boolean {
  const r = hit.read;
  if (hit.defaults !== d) return false;
  for (let i = 0; i < POD_SECURITY_LABELS.length; i++) if (label(labels, POD_SECURITY_LABELS[i]!) !== r[i]) return false;
  return (
    r[6] === d?.enforce && r[7] === d?.['enforce-version'] && r[8] === d?.audit && r[9] === d?.['audit-version'] && r[10] === d?.warn && r[11] === d?.['warn-version']
  );
}

/**
 * policyToEvaluate, remembered per labels object: every pod of a namespace would parse the same
 * labels again. The remembered policy serves only while everything policyToEvaluate reads (the
 * six labels and the defaults) is the same as when it was made, so a label changed in place is
 * read afresh.
 */
function namespacePolicy(labels: Record<string, string>, defaults: PodSecurityDefaults): Policy {
  if (!labels || typeof labels !== 'object' || Array.isArray(labels)) return policyToEvaluate(labels, defaults).policy;
  const hit = policies.get(labels);
  if (hit && unchanged(hit, labels, defaults)) return hit.policy;
  const read = inputs(labels, defaults);
  const p = policyToEvaluate(labels, defaults).policy;
  const policy: Policy = Object.freeze({ enforce: Object.freeze(p.enforce), audit: Object.freeze(p.audit), warn: Object.freeze(p.warn) });
  policies.set(labels, { defaults, read, policy });
  return policy;
}

/**
 * Outcomes by policy and pod: the pods of one workload share their spec, so the checks run once
 * per distinct pod template. Dropped when it grows past its bound.
 */
const outcomes = new Map<string, PodSecurityOutcome>();
const maxOutcomes = 1024;

/**
 * The checks see of the metadata nothing but the annotations (upstream's read only AppArmor and
 * seccomp annotations), so that the key is everything they see: one JSON.stringify, no copy of
 * the metadata, and replicas in different namespaces share it. Of the spec the key leaves out what
 * no check reads (checkedSpecView), above all the random name of each pod's token volume.
 */
function checkedMetadata(metadata: ObjectMeta | undefined): ObjectMeta {
  return { annotations: metadata?.annotations };
}

function outcomeKey(policy: Policy, metadata: ObjectMeta, spec: PodSpec | undefined): string {
  return JSON.stringify([policy, metadata.annotations ?? null, checkedSpecView(spec) ?? null]);
}

/**
 * isSignificantPodUpdate (upstream admission/admission.go): Pod Security evaluates a pod update
 * (through the pod itself or a subresource such as pods/ephemeralcontainers) only when the
 * number of containers or init containers changed, a container's or init container's image
 * changed (compared by position), or an ephemeral container was added or had its image changed
 * (matched by name; one no longer present does not count). Any other update is allowed unchecked.
 */
export function isSignificantPodUpdate(pod: Pod, old: Pod): boolean {
  const containers = pod.spec?.containers ?? [];
  const oldContainers = old.spec?.containers ?? [];
  const inits = pod.spec?.initContainers ?? [];
  const oldInits = old.spec?.initContainers ?? [];
  if (containers.length !== oldContainers.length || inits.length !== oldInits.length) return true;
  if (containers.some((c, i) => c?.image !== oldContainers[i]?.image)) return true;
  if (inits.some((c, i) => c?.image !== oldInits[i]?.image)) return true;
  const oldEphemeral = old.spec?.ephemeralContainers ?? [];
  return (pod.spec?.ephemeralContainers ?? []).some((c) => {
    const prev = oldEphemeral.find((o) => o?.name === c?.name);
    return prev === undefined || c?.image !== prev.image;
  });
}

const noExemptions: PodSecurityExemptions = Object.freeze({});

/**
 * ValidatePod's evaluation of a create or a significant update, in upstream's order: an exempt
 * namespace, then an exempt user, is allowed; a fully privileged policy is allowed; an exempt
 * runtime class is allowed; then enforce and warn. `pod` must be the defaulted object, as the API
 * server's admission sees it.
 */
export function evaluatePodSecurity(namespaceLabels: Record<string, string>, defaults: PodSecurityDefaults, pod: Pod, request: PodSecurityRequest = {}): PodSecurityOutcome {
  const exemptions = request.exemptions ?? noExemptions;
  const exempt = requestExemption(exemptions, request.namespace ?? pod.metadata?.namespace, request.username);
  if (exempt) return { warnings: [], exempt };
  const policy = namespacePolicy(namespaceLabels, defaults);
  if (isFullyPrivileged(policy)) return { warnings: [] };
  if (isExemptRuntimeClass(exemptions, pod.spec?.runtimeClassName)) return { warnings: [], exempt: 'runtimeClass' };
  return outcomeOf(policy, checkedMetadata(pod.metadata), pod.spec);
}


/** The pod template a pod controller carries: the metadata and spec Pod Security evaluates. */
export interface PodTemplate {
  metadata: ObjectMeta;
  spec: PodSpec;
}

/**
 * Where each pod controller keeps its pod template (upstream's DefaultPodSpecExtractor), by
 * `group/resource`. ReplicationControllers and PodTemplates are upstream's too, though Bulkhead
 * serves neither.
 */
const templatePaths: ReadonlyMap<string, readonly string[]> = new Map([
  ['/replicationcontrollers', ['spec', 'template']],
  ['/podtemplates', ['template']],
  ['apps/replicasets', ['spec', 'template']],
  ['apps/deployments', ['spec', 'template']],
  ['apps/statefulsets', ['spec', 'template']],
  ['apps/daemonsets', ['spec', 'template']],
  ['batch/jobs', ['spec', 'template']],
  ['batch/cronjobs', ['spec', 'jobTemplate', 'spec', 'template']],
]);

/** The one kind whose template is optional (a pointer in Go): upstream skips the object without one. */
const optionalTemplate = '/replicationcontrollers';

/** Whether objects of `group`/`resource` carry a pod template Pod Security evaluates. */
export function isPodController(group: string, resource: string): boolean {
  return templatePaths.has(`${group}/${resource}`);
}

/**
 * The pod template of a pod controller's object; null when the kind has none or the object
 * leaves out an optional one (a ReplicationController's spec.template). Every other kind's
 * template is a Go struct, never absent: a JSON object without one reads as the empty template.
 */
export function podControllerTemplate(group: string, resource: string, obj: KubeObject): PodTemplate | null {
  const kind = `${group}/${resource}`;
  const path = templatePaths.get(kind);
  if (!path) return null;
  let t: unknown = obj;
  for (const step of path) t = t !== null && typeof t === 'object' ? (t as Record<string, unknown>)[step] : undefined;
  if (t === undefined && kind === optionalTemplate) return null;
  const template = (t ?? {}) as { metadata?: ObjectMeta; spec?: PodSpec };
  return { metadata: template.metadata ?? {}, spec: template.spec ?? ({} as PodSpec) };
}

/** Each policy with enforce and audit at privileged (what a pod controller's evaluation sees), remembered. */
const warnOnlyPolicies = new WeakMap<Policy, Policy>();

function warnOnly(policy: Policy): Policy {
  const known = warnOnlyPolicies.get(policy);
  if (known) return known;
  const p: Policy = Object.freeze({ enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: policy.warn });
  warnOnlyPolicies.set(policy, p);
  return p;
}

/**
 * ValidatePodController: a pod controller's create or update (never a subresource's) is checked
 * against the namespace's warn level only, and never denied: the pods it makes are what enforce
 * refuses. Upstream skips the evaluation when warn and audit are both privileged (and the labels
 * parsed); with no audit log here, only a non-privileged warn level can have an effect, so it is
 * evaluated only then. Invalid labels fail as for pods (a bad warn level is privileged, a bad
 * enforce level is not copied to warn); their `error` audit annotation has no sink. Updates are
 * evaluated whatever changed: upstream special-cases only pod updates (isSignificantPodUpdate).
 * An exempt namespace or user, and then a template of an exempt runtime class, get no warning.
 * `template` must be the defaulted one, as admission sees it.
 */
export function evaluatePodControllerSecurity(namespaceLabels: Record<string, string>, defaults: PodSecurityDefaults, template: PodTemplate, request: PodSecurityRequest = {}): string[] {
  const exemptions = request.exemptions ?? noExemptions;
  if (requestExemption(exemptions, request.namespace, request.username)) return [];
  const policy = namespacePolicy(namespaceLabels, defaults);
  if (policy.warn.level === 'privileged') return [];
  if (isExemptRuntimeClass(exemptions, template.spec?.runtimeClassName)) return [];
  return outcomeOf(warnOnly(policy), checkedMetadata(template.metadata), template.spec).warnings;
}

/** EvaluatePod's outcome for a pod or template under `policy`, from the cache when known; a copy the caller may change. */
function outcomeOf(policy: Policy, metadata: ObjectMeta, spec: PodSpec | undefined): PodSecurityOutcome {
  const key = outcomeKey(policy, metadata, spec);
  const known = outcomes.get(key);
  if (known) return { ...known, warnings: [...known.warnings] };
  const outcome = evaluate(policy, metadata, spec);
  if (outcomes.size >= maxOutcomes) outcomes.clear();
  outcomes.set(key, { ...outcome, warnings: [...outcome.warnings] });
  return outcome;
}

function evaluate(policy: Policy, metadata: ObjectMeta, spec: PodSpec | undefined): PodSecurityOutcome {
  // The pod is already defaulted (a source-less volume is emptyDir), as admission sees it.
  const enforced = policy.enforce.level === 'privileged' ? [] : evaluatePod(policy.enforce, metadata, spec);
  if (enforced.length > 0) return { denied: enforceDenialMessage(policy.enforce, enforced), warnings: [] };
  const warnings: string[] = [];
  if (policy.warn.level !== 'privileged' && !sameChecks(policy.enforce, policy.warn)) {
    const warned = evaluatePod(policy.warn, metadata, spec);
    if (warned.length > 0) warnings.push(warnMessage(policy.warn, warned));
  }
  return { warnings };
}

/**
 * Whether two level/versions run the very same checks. Warn follows an enforce label unless it
 * is set, so it mostly does: the checks that just allowed the pod would allow it again.
 */
function sameChecks(a: LevelVersion, b: LevelVersion): boolean {
  if (a.level === 'privileged' || b.level === 'privileged') return false;
  const registry = getDefaultRegistry();
  return registry.activeChecks(a) === registry.activeChecks(b);
}
