// `bulkhead plan`: what the control plane and this node would do with a set of manifests.
// Namespaces, LimitRanges and ResourceQuotas apply to the pods of their namespace, and
// PriorityClasses (with the two built-in ones the API server creates) and RuntimeClasses to
// every pod; pods go
// through the API server's admission path in input order (so later pods see the quota
// charged by earlier ones), then admitted pods are laid out on the node.

import { admitPodQuota, admitPodUpToQuota, podDisplayName, reportFieldErrors, type ReportedFieldError, type Rejection } from '../admission/pod.js';
import { namespaceCreateWarnings, validateNamespaceObject } from '../admission/namespace.js';
import type { PodSecurityDefaults, PodSecurityExemptions } from '../admission/podsecurity.js';
import type { Exemption } from '../podsecurity/index.js';
import type { DefaultTolerationSeconds } from '../admission/defaulttolerationseconds.js';
import { decodeObject, objectGVK, type Decoded, type FieldValidation } from '../api/schema/index.js';
import type { FeatureGates } from '../api/featuregates.js';
import type { FieldError } from '../api/fielderrors.js';
import type { KubeObject, LimitRange, Namespace, Pod, PriorityClass, ResourceQuota, RuntimeClass } from '../api/types.js';
import { validateLimitRange, validatePriorityClass, validatePriorityClassUpdate, validateResourceQuota, validateRuntimeClass, validateRuntimeClassUpdate } from '../api/validation/index.js';
import { canonicalList } from '../api/defaults.js';
import { defaultLimitRangeLists, defaultResourceQuotaLists } from '../quota/objectdefaults.js';
import { admitPriorityClass, builtInPriorityClasses, defaultPriorityClassFields } from '../admission/priority.js';
import { evictionCandidates, rankForMemoryPressure, thresholdQuantity, type Threshold } from '../policy/eviction.js';
import { computeQuotaStatus, type PodQuotaFacts, type QuotaDecision } from '../quota/admission.js';
import { ulimitCeilingsReason, ulimitsAboveCeilings } from '../policy/ulimitceilings.js';
import { derivedObjectUID, derivedPodUID, planPodOnNode, type NodeConfig, type PodNodePlan } from './node.js';
import { plannedKinds, type WorkloadContext } from './workloads.js';
import { decideObjectCount } from '../quota/objectcount.js';
import type { LimitedResource } from '../quota/config.js';
import { deepCopyJSON } from '../api/deepcopy.js';
import { PodMemo, plannedFromMemory, podMemoKey, renamedPod } from './podmemo.js';
import { podCgroupPath } from '../policy/cgrouplayout.js';

/** Zero objects of every kind the plan counts against quotas (keyed `<group>/<resource>`, as objectCountUsage reads them). */
const plannedKindsUncounted: ReadonlyMap<string, number> = new Map(Object.values(plannedKinds).map((p) => [`${p.group}/${p.resource}`, 0]));

export interface Source {
  file: string;
  /** 1-based document number within the file. */
  document: number;
  /** 0-based index within a List document. */
  item?: number;
}

export interface PlanObject {
  object: KubeObject;
  source: Source;
}

export interface PlanOptions {
  node: NodeConfig;
  gates: FeatureGates;
  podSecurity: PodSecurityDefaults;
  /**
   * The PodSecurity configuration's exemptions. A plan has no requesting user, so usernames never
   * apply; namespaces and runtime classes do, as on the server.
   */
  podSecurityExemptions?: PodSecurityExemptions;
  /** The ResourceQuota configuration's limitedResources: what needs a covering quota (nothing when absent). */
  limitedResources?: readonly LimitedResource[];
  /** `namespace/name` → working set bytes; turns on the eviction ranking. */
  usage?: Map<string, bigint>;
  evictionHard: Threshold[];
  /** The server's --default-not-ready/unreachable-toleration-seconds (300 each by default). */
  defaultTolerationSeconds?: DefaultTolerationSeconds;
  now: Date;
  /** Unknown fields: refused (Strict, what `kubectl apply` asks for), dropped with a warning, or dropped. */
  fieldValidation?: FieldValidation;
  /** The input objects are the plan's to change (decoded for it alone): pods are defaulted in place, not copied. */
  ownsInput?: boolean;
  /** false: every pod planned on its own, none from the outcome of one the same but for its name (plan/podmemo.ts); the output is the same. */
  rememberPods?: boolean;
}

export interface PodPlan extends Partial<PodNodePlan> {
  namespace: string;
  name: string;
  source: Source;
  admitted: boolean;
  errors: ReportedFieldError[];
  /** `limitedResources`: ResourceQuota refused for the configuration's limitedResources, not for a quota. */
  rejections: { by: Rejection['by']; message: string; limitedResources?: true }[];
  warnings: string[];
  object?: Pod;
  /** What the Priority admission plugin gave the pod (once it got that far). */
  priority?: number;
  /** For a pod a workload of the input creates: which (`Job report`). */
  owner?: string;
  priorityClassName?: string;
  /** An admitted pod's RuntimeClass, its handler (the OCI runtime a node runs it with) and the overhead admission set from it. */
  runtimeClassName?: string;
  runtimeHandler?: string;
  overhead?: Record<string, string>;
  /** Pod Security let the pod through unevaluated: its namespace or runtime class is exempt. */
  podSecurityExempt?: Exclude<Exemption, 'user'>;
  /** Planned from the remembered outcome of a pod the same but for its name (not enumerable). */
  [plannedFromMemory]?: object;
}

export interface QuotaPlan {
  namespace: string;
  name: string;
  hard: Record<string, string>;
  used: Record<string, string>;
}

export interface RejectedObject {
  kind: string;
  namespace?: string;
  name: string;
  source: Source;
  message: string;
  errors: ReportedFieldError[];
}

/** A warning about an admitted object other than a pod (pods carry their own). */
export interface ObjectWarning {
  kind: string;
  namespace?: string;
  name: string;
  source: Source;
  message: string;
}

export interface MemoryPressurePlan {
  capacityBytes: string;
  workingSetBytes: string;
  availableBytes: string;
  thresholdBytes: string;
  memoryPressure: boolean;
}

export interface PlanResult {
  pods: PodPlan[];
  quotas: QuotaPlan[];
  rejectedObjects: RejectedObject[];
  /** Only when there are some (fieldValidation Warn). */
  objectWarnings?: ObjectWarning[];
  evictionOrder?: string[];
  memory?: MemoryPressurePlan;
}

/** What a pod comes to before ResourceQuota, and on the node. */
interface PodOutcome {
  /** Decoding's, admission's before quota and the node's, in that order. */
  warnings: string[];
  errors: ReportedFieldError[];
  rejection?: Rejection;
  podSecurityExempt?: Exclude<Exemption, 'user'>;
  pod?: Pod;
  onNode?: PodNodePlan;
  /** For a remembered outcome: what ResourceQuota found out about its pods. */
  quotaFacts?: PodQuotaFacts;
}

/** An outcome PodMemo keeps: of a pod that got past every plugin before quota. */
type RememberedPod = PodOutcome & { pod: Pod; onNode: PodNodePlan };

interface NamespaceState {
  labels: Record<string, string>;
  limitRanges: LimitRange[];
  quotas: ResourceQuota[];
}

function key(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The field a decoding error is about, when the decoder names one (its message never does). */
function decodeFieldErrors(d: Decoded<KubeObject> & { ok: false }): ReportedFieldError[] {
  return d.problem?.path ? [{ field: d.problem.path, type: 'FieldValueTypeInvalid', message: d.problem.message }] : [];
}

function objectNamespace(o: KubeObject): string {
  return o.metadata?.namespace || 'default';
}

/** What a plan says after its pods: everything but the pods, which a Planner hands out one by one. */
export type PlanTail = Omit<PlanResult, 'pods'>;

/** The kinds that govern the pods of their namespace (PriorityClasses and RuntimeClasses: of every namespace). */
export const policyKinds: ReadonlySet<string> = new Set(['Namespace', 'LimitRange', 'PriorityClass', 'RuntimeClass', 'ResourceQuota']);

/**
 * A plan made one object at a time, so that a plan of any number of pods holds none of them
 * (but with `usage`, which ranks them all). Every policy object goes to `policy` first, in
 * input order, wherever it stands in the input: Namespaces, LimitRanges, quotas and
 * PriorityClasses govern every pod of their namespace. Then every object, again in input order,
 * goes to `add`, which plans the pods (an input pod, or those its workload creates) and hands
 * each to `emit` as soon as it is planned; quota usage accumulates in that order. `finish` gives
 * the rest: quotas, refused objects, warnings and the eviction ranking.
 */
export class Planner {
  private readonly namespaces = new Map<string, NamespaceState>();
  private readonly priorityClasses: PriorityClass[] = builtInPriorityClasses();
  private readonly runtimeClasses: RuntimeClass[] = [];
  private readonly rejectedObjects: RejectedObject[] = [];
  private readonly objectWarnings: ObjectWarning[] = [];
  private readonly fieldValidation: FieldValidation;
  private readonly ctx: WorkloadContext;
  /** With `usage` only: every admitted pod, and `namespace/name` as the plan shows it (a controller's pods are numbered). */
  private readonly admitted: Pod[] = [];
  private readonly planKeys = new Map<Pod, string>();
  /** The node a pod above the node's rlimit ceilings is planned on (any node: the scheduler keeps it off this one). */
  private readonly anyNode: NodeConfig;
  /**
   * Outcomes of pods for those that differ from them only in name: of the input's pods (decoded),
   * and apart from them, of the pods its workloads create (not decoded: made by the plan).
   */
  private readonly inputMemo = new PodMemo<RememberedPod>();
  private readonly createdMemo = new PodMemo<RememberedPod>();

  constructor(private readonly opts: PlanOptions) {
    this.fieldValidation = opts.fieldValidation ?? 'Strict';
    this.ctx = { gates: opts.gates, now: opts.now, uid: derivedObjectUID };
    const { hardRlimitCeilings: _ceilings, host: _host, ...anyNode } = opts.node;
    this.anyNode = anyNode;
  }

  private ns(name: string): NamespaceState {
    let s = this.namespaces.get(name);
    if (!s) this.namespaces.set(name, (s = { labels: {}, limitRanges: [], quotas: [] }));
    return s;
  }

  /** The pod's podMemoKey; none with `usage` (whose ranking keeps every admitted pod apart) or while the memo rests. */
  private memoKey(memo: PodMemo<RememberedPod>, raw: unknown): { memo: PodMemo<RememberedPod>; key: string } | undefined {
    if (this.opts.usage || this.opts.rememberPods === false || !memo.wanted()) return undefined;
    const key = podMemoKey(raw);
    return key === undefined ? undefined : { memo, key };
  }

  private reject(o: PlanObject, kind: string, message: string, errors: ReportedFieldError[]): void {
    const namespaced = !clusterScoped.has(kind);
    this.rejectedObjects.push({
      kind,
      ...(namespaced ? { namespace: objectNamespace(o.object) } : {}),
      name: o.object.metadata?.name ?? '',
      source: o.source,
      message,
      errors,
    });
  }

  private invalid(o: PlanObject, kind: string, errs: FieldError[]): void {
    this.reject(o, kind, `${kind} "${o.object.metadata?.name ?? ''}" is invalid`, reportFieldErrors(errs));
  }

  /** Every object goes through the API server's decoder first, so that a malformed manifest gets the server's message. */
  private decode(o: PlanObject): Decoded<KubeObject> {
    return decodeObject(o.object, objectGVK({ apiVersion: o.object.apiVersion || 'v1', kind: o.object.kind }), this.fieldValidation);
  }

  private undecodable(o: PlanObject, d: Decoded<KubeObject>, kind: string): boolean {
    if (d.ok) {
      for (const message of d.warnings) {
        this.objectWarnings.push({ kind, ...(!clusterScoped.has(kind) ? { namespace: objectNamespace(o.object) } : {}), name: o.object.metadata?.name ?? '', source: o.source, message });
      }
      return false;
    }
    this.reject(o, kind, d.message, decodeFieldErrors(d));
    return true;
  }

  /** The first pass: a Namespace, LimitRange, PriorityClass, RuntimeClass or ResourceQuota (other kinds are add's). */
  policy(input: PlanObject): void {
    if (!policyKinds.has(input.object.kind ?? '')) return;
    const d = this.decode(input);
    const o: PlanObject = d.ok ? { object: d.object, source: input.source } : input;
    switch (o.object.kind) {
      case 'Namespace': {
        if (this.undecodable(o, d, 'Namespace')) break;
        const errs = validateNamespaceObject(o.object as Namespace);
        if (errs.length) {
          this.invalid(o, 'Namespace', errs);
          break;
        }
        this.ns(o.object.metadata!.name!).labels = { ...(o.object.metadata?.labels ?? {}) };
        for (const message of namespaceCreateWarnings(o.object as Namespace, this.opts.podSecurity, this.opts.podSecurityExemptions)) {
          this.objectWarnings.push({ kind: 'Namespace', name: o.object.metadata!.name!, source: o.source, message });
        }
        break;
      }
      case 'LimitRange': {
        if (this.undecodable(o, d, 'LimitRange')) break;
        const lr = defaultLimitRangeLists({ ...deepCopyJSON(o.object as LimitRange), metadata: { ...o.object.metadata, namespace: objectNamespace(o.object) } });
        const errs = validateLimitRange(lr);
        if (errs.length) this.invalid(o, 'LimitRange', errs);
        else this.ns(objectNamespace(lr)).limitRanges.push(lr);
        break;
      }
      case 'PriorityClass': {
        if (this.undecodable(o, d, 'PriorityClass')) break;
        planPriorityClass(o, this.priorityClasses, (message, errs) => this.reject(o, 'PriorityClass', message, errs));
        break;
      }
      case 'RuntimeClass': {
        if (this.undecodable(o, d, 'RuntimeClass')) break;
        planRuntimeClass(o, this.runtimeClasses, (message, errs) => this.reject(o, 'RuntimeClass', message, errs));
        break;
      }
      case 'ResourceQuota': {
        if (this.undecodable(o, d, 'ResourceQuota')) break;
        const q = defaultResourceQuotaLists(deepCopyJSON(o.object as ResourceQuota));
        q.metadata = { ...q.metadata, namespace: objectNamespace(q) };
        const errs = validateResourceQuota(q);
        if (errs.length) {
          this.invalid(o, 'ResourceQuota', errs);
          break;
        }
        // The quota controller's first sync: hard from spec, every tracked key used at zero
        // (the object counts of the kinds the plan creates among them), then whatever usage the
        // manifest already records.
        const fresh = computeQuotaStatus(q, [], { gates: this.opts.gates, now: this.opts.now }, plannedKindsUncounted);
        q.status = { hard: fresh.hard, used: { ...fresh.used, ...(q.status?.used ?? {}) } };
        this.ns(objectNamespace(q)).quotas.push(q);
        break;
      }
    }
  }

  /**
   * One pod through admission and onto the node: from the input, or created by a workload of it.
   * `owned`: the pod is the plan's own (freshly decoded), so defaulting may fill it in place.
   * `remember`: where, under the pod's podMemoKey, its outcome is remembered when it has no refusal
   * before quota.
   */
  private planPod(raw: Pod, source: Source, decodeWarnings: readonly string[], owned: boolean, created?: { owner: string; name: string }, remember?: { memo: PodMemo<RememberedPod>; key: string }): PodPlan {
    const opts = this.opts;
    const namespace = objectNamespace(raw);
    const state = this.ns(namespace);
    const input: Pod = { ...raw, metadata: { ...(raw.metadata ?? {}), namespace } };
    const name = created?.name ?? podDisplayName(input);
    const result = admitPodUpToQuota({
      pod: input,
      owned,
      namespaceLabels: state.labels,
      limitRanges: state.limitRanges,
      priorityClasses: this.priorityClasses,
      runtimeClasses: this.runtimeClasses,
      quotas: state.quotas,
      limitedResources: opts.limitedResources,
      gates: opts.gates,
      podSecurityDefaults: opts.podSecurity,
      podSecurityExemptions: opts.podSecurityExemptions,
      defaultTolerationSeconds: opts.defaultTolerationSeconds,
      now: opts.now,
    });
    const outcome: PodOutcome = { warnings: decodeWarnings.length ? [...decodeWarnings, ...result.warnings] : result.warnings, errors: result.errors };
    if (result.rejection) outcome.rejection = result.rejection;
    // No user in a plan: only a namespace or a runtime class can be exempt.
    if (result.podSecurityExempt && result.podSecurityExempt !== 'user') outcome.podSecurityExempt = result.podSecurityExempt;
    if (result.pod) outcome.pod = result.pod;
    if (result.pod && result.errors.length === 0) {
      result.pod.metadata.uid ??= derivedPodUID(namespace, name);
      // The node declares its ceilings and the scheduler keeps such a pod off it
      // (src/scheduler/filters.ts): nothing of it runs here, so the plan shows what the pod asks
      // for, claims no value this host would apply, and says why it would not be scheduled.
      const above = opts.node.hardRlimitCeilings && opts.gates.ContainerUlimits ? ulimitsAboveCeilings(result.pod, opts.node.hardRlimitCeilings, opts.node.nrOpen) : [];
      const onNode = planPodOnNode(result.pod, above.length ? this.anyNode : opts.node, opts.gates);
      outcome.onNode = onNode;
      if (above.length) outcome.warnings.push(`the scheduler would not place this pod on this node: ${ulimitCeilingsReason(above)}`);
      for (const c of onNode.containers) {
        if (c.oomKillModeError) outcome.warnings.push(`container "${c.name}" cannot be created on this node: ${c.oomKillModeError}`);
        for (const a of c.rlimitAdjustments ?? []) outcome.warnings.push(`container "${c.name}": ${a.type} ${a.reason}; applied soft=${a.applied.soft} hard=${a.applied.hard}`);
      }
      // Remembered only when the node's plan holds the UID only in the pod cgroup's path, which
      // a pod planned from the memory gets for its own UID.
      if (remember !== undefined && !result.rejection && onNode.podCgroup.path === podCgroupPath(onNode.qosClass, result.pod.metadata.uid, opts.node.cgroupDriver)) {
        const pod = result.pod;
        remember.memo.offer(remember.key, () => ({ ...outcome, pod, onNode, quotaFacts: {} }));
      }
    }
    return this.podEntry(outcome, namespace, name, source, created);
  }

  /** A pod the same as one planned before but for its name (PodMemo): that pod's outcome, with its own name, UID and quota decision. */
  private planRemembered(o: RememberedPod, raw: Pod, source: Source, created?: { owner: string; name: string }): PodPlan {
    const namespace = objectNamespace(raw);
    const name = created?.name ?? podDisplayName(raw);
    const uid = derivedPodUID(namespace, name);
    const onNode: PodNodePlan = { ...o.onNode, podCgroup: { path: podCgroupPath(o.onNode.qosClass, uid, this.opts.node.cgroupDriver), values: o.onNode.podCgroup.values } };
    const entry = this.podEntry({ ...o, pod: renamedPod(o.pod, raw.metadata?.name, uid), onNode }, namespace, name, source, created);
    Object.defineProperty(entry, plannedFromMemory, { value: o });
    return entry;
  }

  /** What the plan says of a pod: its outcome before quota, ResourceQuota's decision at the namespace's usage now, and that usage charged. */
  private podEntry(o: PodOutcome, namespace: string, name: string, source: Source, created?: { owner: string; name: string }): PodPlan {
    const opts = this.opts;
    const state = this.ns(namespace);
    const quota = o.rejection || o.errors.length > 0 || !o.pod ? undefined : admitPodQuota(o.pod, podDisplayName(o.pod), { quotas: state.quotas, gates: opts.gates, now: opts.now, limitedResources: opts.limitedResources }, o.quotaFacts);
    const rejection = o.rejection ?? quota?.rejection;
    const entry: PodPlan = {
      namespace,
      name,
      source,
      ...(created ? { owner: created.owner } : {}),
      admitted: !rejection,
      errors: o.errors,
      rejections: rejection ? [{ by: rejection.by, message: rejection.message, ...(rejection.limitedResources ? { limitedResources: true as const } : {}) }] : [],
      warnings: o.warnings,
    };
    if (o.podSecurityExempt) entry.podSecurityExempt = o.podSecurityExempt;
    if (o.onNode) Object.assign(entry, o.onNode);
    const pod = o.pod;
    if (pod) entry.object = pod;
    if (pod && rejection?.by !== 'Priority') {
      entry.priority = pod.spec.priority;
      if (pod.spec.priorityClassName) entry.priorityClassName = pod.spec.priorityClassName;
    }
    const runtimeClassName = pod?.spec.runtimeClassName;
    if (!rejection && runtimeClassName) {
      entry.runtimeClassName = runtimeClassName;
      const rc = this.runtimeClasses.find((c) => c.metadata?.name === runtimeClassName);
      if (rc) entry.runtimeHandler = rc.handler;
      if (pod!.spec.overhead) entry.overhead = pod!.spec.overhead;
    }
    if (!rejection) {
      for (const c of quota?.charges ?? []) {
        const q = state.quotas.find((x) => x.metadata.name === c.name)!;
        q.status = { ...q.status, used: c.used };
      }
      if (opts.usage) {
        this.admitted.push(pod!);
        this.planKeys.set(pod!, key(namespace, entry.name));
      }
    }
    return entry;
  }

  /** The object-count charge of creating one object; the quota plugin's message when refused (its 403's, or a plain error's). */
  private chargeCount(namespace: string, group: string, resource: string, name: string, decide?: (quotas: readonly ResourceQuota[], limited: readonly LimitedResource[]) => QuotaDecision): string | undefined {
    const state = this.ns(namespace);
    const limited = this.opts.limitedResources ?? [];
    const decision = decide ? decide(state.quotas, limited) : decideObjectCount(group, resource, state.quotas, limited);
    if (!decision.allowed) return decision.plainError ? decision.message : `${resource}${group ? `.${group}` : ''} "${name}" is forbidden: ${decision.message}`;
    for (const c of decision.charges) {
      const q = state.quotas.find((x) => x.metadata.name === c.name)!;
      q.status = { ...q.status, used: c.used };
    }
    return undefined;
  }

  /** The second pass: a pod, or an object that creates pods or counts against quotas (policy objects are skipped). */
  add(o: PlanObject, emit: (p: PodPlan) => void): void {
    const kind = o.object.kind ?? '';
    if (kind === 'Pod') {
      const remember = this.memoKey(this.inputMemo, o.object);
      const remembered = remember?.memo.get(remember.key);
      if (remembered) {
        emit(this.planRemembered(remembered, o.object as Pod, o.source));
        return;
      }
      const d = this.decode(o);
      const raw = (d.ok ? d.object : o.object) as Pod;
      if (!d.ok) {
        // The server's 400: the pod never reaches admission.
        emit({ namespace: objectNamespace(raw), name: podDisplayName(raw), source: o.source, admitted: false, errors: decodeFieldErrors(d), rejections: [{ by: 'Validation', message: d.message }], warnings: [] });
        return;
      }
      emit(this.planPod(raw, o.source, d.warnings, !!this.opts.ownsInput, undefined, remember));
      return;
    }
    const planned = plannedKinds[kind];
    if (!planned) return;
    const d = this.decode(o);
    const decodedObject: PlanObject = d.ok ? { object: d.object, source: o.source } : o;
    if (this.undecodable(decodedObject, d, kind)) return;
    const namespace = objectNamespace(decodedObject.object);
    const obj = deepCopyJSON(decodedObject.object);
    // A cluster-scoped kind's namespace is dropped, as the server's create drops it; no quota counts it.
    if (clusterScoped.has(kind)) delete obj.metadata?.namespace;
    else obj.metadata = { ...obj.metadata, namespace };
    const name = obj.metadata?.name ?? '';
    const qualified = planned.group ? `${kind}.${planned.group}` : kind;
    const admitted = planned.admit(obj, this.ctx);
    if (!admitted.ok) {
      this.reject(decodedObject, kind, `${qualified} "${name}" is invalid`, reportFieldErrors(admitted.errors));
      return;
    }
    // The strategy's warnings go out before admission decides, as the server's do (with its refusal too).
    for (const message of admitted.warnings) this.objectWarnings.push({ kind, ...(!clusterScoped.has(kind) ? { namespace } : {}), name, source: o.source, message });
    if (clusterScoped.has(kind)) return;
    const decide = planned.decide ? (quotas: readonly ResourceQuota[], limited: readonly LimitedResource[]) => planned.decide!(admitted.object, quotas, limited) : undefined;
    const refused = this.chargeCount(namespace, planned.group, planned.resource, name, decide);
    if (refused) {
      this.reject(decodedObject, kind, refused, []);
      return;
    }
    for (const child of admitted.children) {
      // The controller's create of the child is refused on its own; the parent stays.
      const why = this.chargeCount(namespace, child.group, child.resource, child.name);
      if (why) {
        this.objectWarnings.push({ kind, namespace, name, source: o.source, message: `its controller's create of ${child.kind} "${child.name}" would be refused: ${why}` });
        return;
      }
    }
    if (admitted.warning) this.objectWarnings.push({ kind, namespace, name, source: o.source, message: admitted.warning });
    // Most pods a controller creates have generated names; the plan numbers them.
    admitted.pods.forEach(({ pod, owner }, n) => {
      const created = { owner, name: pod.metadata.name || `${pod.metadata.generateName ?? ''}#${n + 1}` };
      const remember = this.memoKey(this.createdMemo, pod);
      const remembered = remember?.memo.get(remember.key);
      emit(remembered ? this.planRemembered(remembered, pod, o.source, created) : this.planPod(pod, o.source, [], false, created, remember));
    });
  }

  finish(): PlanTail {
    const quotas: QuotaPlan[] = [];
    for (const [name, state] of this.namespaces) {
      for (const q of state.quotas) {
        quotas.push({ namespace: name, name: q.metadata.name!, hard: { ...(q.status?.hard ?? {}) }, used: sortedRecord(q.status?.used ?? {}) });
      }
    }
    const tail: PlanTail = { quotas, rejectedObjects: this.rejectedObjects };
    if (this.objectWarnings.length > 0) tail.objectWarnings = this.objectWarnings;
    if (this.opts.usage) {
      const usage = this.opts.usage;
      const planKeys = this.planKeys;
      const usageOf = (p: Pod) => usage.get(planKeys.get(p)!);
      const ranked = rankForMemoryPressure(this.admitted, usageOf, this.opts.gates);
      tail.evictionOrder = evictionCandidates(ranked).map((p) => planKeys.get(p)!);
      tail.memory = memoryPressure(this.admitted, usageOf, this.opts);
    }
    return tail;
  }
}

/** The whole plan of objects held in memory (the CLI streams with a Planner instead). */
export function plan(objects: readonly PlanObject[], opts: PlanOptions): PlanResult {
  const planner = new Planner(opts);
  for (const o of objects) planner.policy(o);
  const pods: PodPlan[] = [];
  for (const o of objects) planner.add(o, (p) => pods.push(p));
  const { quotas, rejectedObjects, ...rest } = planner.finish();
  return { pods, quotas, rejectedObjects, ...rest };
}

const clusterScoped = new Set(['Namespace', 'PriorityClass', 'RuntimeClass', 'ClusterRole', 'ClusterRoleBinding']);

/**
 * A RuntimeClass of the input as the API server would take it (its strategy: overhead's
 * quantities as the server prints them, ValidateRuntimeClass; a later document of the same name
 * is an update, whose handler may not change).
 */
function planRuntimeClass(o: PlanObject, classes: RuntimeClass[], reject: (message: string, errs: ReportedFieldError[]) => void): void {
  const rc = deepCopyJSON(o.object as RuntimeClass);
  if (rc.overhead?.podFixed && typeof rc.overhead.podFixed === 'object') rc.overhead.podFixed = canonicalList(rc.overhead.podFixed)!;
  const name = rc.metadata?.name ?? '';
  const i = classes.findIndex((c) => c.metadata?.name === name);
  const errs = i < 0 ? validateRuntimeClass(rc) : validateRuntimeClassUpdate(rc, classes[i]!);
  if (errs.length) {
    reject(`RuntimeClass.node.k8s.io "${name}" is invalid`, reportFieldErrors(errs));
    return;
  }
  if (i < 0) classes.push(rc);
  else classes[i] = rc;
}

/**
 * A PriorityClass of the input as the API server would take it: defaulted, validated, and the
 * one-globalDefault rule. A class that exists already (a built-in one, or an earlier document)
 * is updated, as `kubectl apply` would.
 */
function planPriorityClass(o: PlanObject, classes: PriorityClass[], reject: (message: string, errs: ReportedFieldError[]) => void): void {
  const pc = defaultPriorityClassFields(o.object as PriorityClass);
  const name = pc.metadata?.name ?? '';
  const i = classes.findIndex((c) => c.metadata.name === name);
  const errs = i < 0 ? validatePriorityClass(pc) : validatePriorityClassUpdate(pc, classes[i]!);
  if (errs.length) {
    // The headline, as for the other kinds: the table lists the field errors under it.
    reject(`PriorityClass.scheduling.k8s.io "${name}" is invalid`, reportFieldErrors(errs));
    return;
  }
  const why = admitPriorityClass(pc, classes, i < 0 ? 'create' : 'update');
  if (why) {
    reject(`priorityclasses.scheduling.k8s.io "${name}" is forbidden: ${why}`, []);
    return;
  }
  if (i < 0) classes.push(pc);
  else classes[i] = pc;
}

function sortedRecord(r: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(r).sort()) out[k] = r[k]!;
  return out;
}

function memoryPressure(pods: readonly Pod[], usageOf: (p: Pod) => bigint | undefined, opts: PlanOptions): MemoryPressurePlan {
  const capacity = opts.node.memoryBytes;
  let workingSet = 0n;
  for (const p of pods) workingSet += usageOf(p) ?? 0n;
  const available = capacity > workingSet ? capacity - workingSet : 0n;
  const t = opts.evictionHard.find((x) => x.signal === 'memory.available');
  const threshold = t ? thresholdQuantity(t, capacity) : 0n;
  return {
    capacityBytes: String(capacity),
    workingSetBytes: String(workingSet),
    availableBytes: String(available),
    thresholdBytes: String(threshold),
    memoryPressure: t !== undefined && threshold > available,
  };
}
