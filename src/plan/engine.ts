// `bulkhead plan`: what the control plane and this node would do with a set of manifests.
// Namespaces, LimitRanges and ResourceQuotas apply to the pods of their namespace, and
// PriorityClasses (with the two built-in ones the API server creates) to every pod; pods go
// through the API server's admission path in input order (so later pods see the quota
// charged by earlier ones), then admitted pods are laid out on the node.

import { admitPodCreate, podDisplayName, reportFieldErrors, type ReportedFieldError, type Rejection } from '../admission/pod.js';
import { validateNamespaceObject } from '../admission/namespace.js';
import type { PodSecurityDefaults } from '../admission/podsecurity.js';
import { decodeObject, objectGVK, type Decoded, type FieldValidation } from '../api/schema/index.js';
import type { FeatureGates } from '../api/featuregates.js';
import type { FieldError } from '../api/fielderrors.js';
import type { KubeObject, LimitRange, Namespace, Pod, PriorityClass, ResourceQuota } from '../api/types.js';
import { validateLimitRange, validatePriorityClass, validatePriorityClassUpdate, validateResourceQuota } from '../api/validation/index.js';
import { admitPriorityClass, builtInPriorityClasses, defaultPriorityClassFields } from '../admission/priority.js';
import { evictionCandidates, rankForMemoryPressure, thresholdQuantity, type Threshold } from '../policy/eviction.js';
import { computeQuotaStatus } from '../quota/admission.js';
import { ulimitCeilingsReason, ulimitsAboveCeilings } from '../policy/ulimitceilings.js';
import { derivedObjectUID, derivedPodUID, planPodOnNode, type NodeConfig, type PodNodePlan } from './node.js';
import { plannedKinds, type WorkloadContext } from './workloads.js';
import { decideObjectCount } from '../quota/objectcount.js';

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
  /** `namespace/name` → working set bytes; turns on the eviction ranking. */
  usage?: Map<string, bigint>;
  evictionHard: Threshold[];
  now: Date;
  /** Unknown fields: refused (Strict, what `kubectl apply` asks for), dropped with a warning, or dropped. */
  fieldValidation?: FieldValidation;
}

export interface PodPlan extends Partial<PodNodePlan> {
  namespace: string;
  name: string;
  source: Source;
  admitted: boolean;
  errors: ReportedFieldError[];
  rejections: { by: Rejection['by']; message: string }[];
  warnings: string[];
  object?: Pod;
  /** What the Priority admission plugin gave the pod (once it got that far). */
  priority?: number;
  /** For a pod a workload of the input creates: which (`Job report`). */
  owner?: string;
  priorityClassName?: string;
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

export function plan(objects: readonly PlanObject[], opts: PlanOptions): PlanResult {
  const namespaces = new Map<string, NamespaceState>();
  const ns = (name: string): NamespaceState => {
    let s = namespaces.get(name);
    if (!s) namespaces.set(name, (s = { labels: {}, limitRanges: [], quotas: [] }));
    return s;
  };
  const priorityClasses: PriorityClass[] = builtInPriorityClasses();
  const rejectedObjects: RejectedObject[] = [];
  const reject = (o: PlanObject, kind: string, message: string, errors: ReportedFieldError[]) => {
    const namespaced = !clusterScoped.has(kind);
    rejectedObjects.push({
      kind,
      ...(namespaced ? { namespace: objectNamespace(o.object) } : {}),
      name: o.object.metadata?.name ?? '',
      source: o.source,
      message,
      errors,
    });
  };
  const invalid = (o: PlanObject, kind: string, errs: FieldError[]) =>
    reject(o, kind, `${kind} "${o.object.metadata?.name ?? ''}" is invalid`, reportFieldErrors(errs));
  const objectWarnings: ObjectWarning[] = [];
  // Every object goes through the API server's decoder first, so that a malformed manifest gets
  // the server's message: decoded[i] is objects[i] as the server would read it.
  const fieldValidation = opts.fieldValidation ?? 'Strict';
  const decoded = objects.map((o) => decodeObject(o.object, objectGVK({ apiVersion: o.object.apiVersion || 'v1', kind: o.object.kind }), fieldValidation));
  const undecodable = (o: PlanObject, d: Decoded<KubeObject>, kind: string): boolean => {
    if (d.ok) {
      for (const message of d.warnings) {
        objectWarnings.push({ kind, ...(!clusterScoped.has(kind) ? { namespace: objectNamespace(o.object) } : {}), name: o.object.metadata?.name ?? '', source: o.source, message });
      }
      return false;
    }
    reject(o, kind, d.message, decodeFieldErrors(d));
    return true;
  };

  // Namespaces, LimitRanges and quotas first: they govern every pod of their namespace.
  objects.forEach((input, i) => {
    const d = decoded[i]!;
    const o: PlanObject = d.ok ? { object: d.object, source: input.source } : input;
    switch (o.object.kind) {
      case 'Namespace': {
        if (undecodable(o, d, 'Namespace')) break;
        const errs = validateNamespaceObject(o.object as Namespace);
        if (errs.length) invalid(o, 'Namespace', errs);
        else ns(o.object.metadata!.name!).labels = { ...(o.object.metadata?.labels ?? {}) };
        break;
      }
      case 'LimitRange': {
        if (undecodable(o, d, 'LimitRange')) break;
        const lr = { ...(o.object as LimitRange), metadata: { ...o.object.metadata, namespace: objectNamespace(o.object) } };
        const errs = validateLimitRange(lr);
        if (errs.length) invalid(o, 'LimitRange', errs);
        else ns(objectNamespace(lr)).limitRanges.push(lr);
        break;
      }
      case 'PriorityClass': {
        if (undecodable(o, d, 'PriorityClass')) break;
        planPriorityClass(o, priorityClasses, (message, errs) => reject(o, 'PriorityClass', message, errs));
        break;
      }
      case 'ResourceQuota': {
        if (undecodable(o, d, 'ResourceQuota')) break;
        const q = structuredClone(o.object as ResourceQuota);
        q.metadata = { ...q.metadata, namespace: objectNamespace(q) };
        const errs = validateResourceQuota(q);
        if (errs.length) {
          invalid(o, 'ResourceQuota', errs);
          break;
        }
        // The quota controller's first sync: hard from spec, every tracked key used at zero,
        // then whatever usage the manifest already records.
        const fresh = computeQuotaStatus(q, [], { gates: opts.gates, now: opts.now });
        q.status = { hard: fresh.hard, used: { ...fresh.used, ...(q.status?.used ?? {}) } };
        ns(objectNamespace(q)).quotas.push(q);
        break;
      }
    }
  });

  const pods: PodPlan[] = [];
  const admitted: Pod[] = [];
  /** `namespace/name` as the plan shows each admitted pod (a controller's pods are numbered). */
  const planKeys = new Map<Pod, string>();
  /** One pod through admission and onto the node: from the input, or created by a workload of it. */
  const planPod = (raw: Pod, source: Source, decodeWarnings: readonly string[], created?: { owner: string; name: string }) => {
    const namespace = objectNamespace(raw);
    const state = ns(namespace);
    const input: Pod = { ...raw, metadata: { ...(raw.metadata ?? {}), namespace } };
    const result = admitPodCreate({
      pod: input,
      namespaceLabels: state.labels,
      limitRanges: state.limitRanges,
      priorityClasses,
      quotas: state.quotas,
      gates: opts.gates,
      podSecurityDefaults: opts.podSecurity,
      now: opts.now,
    });
    const entry: PodPlan = {
      namespace,
      name: created?.name ?? podDisplayName(input),
      source,
      ...(created ? { owner: created.owner } : {}),
      admitted: !result.rejection,
      errors: result.errors,
      rejections: result.rejection ? [{ by: result.rejection.by, message: result.rejection.message }] : [],
      warnings: [...decodeWarnings, ...result.warnings],
    };
    if (result.pod && result.errors.length === 0) {
      result.pod.metadata.uid ??= derivedPodUID(namespace, entry.name);
      // The node declares its ceilings and the scheduler keeps such a pod off it
      // (src/scheduler/filters.ts): nothing of it runs here, so the plan shows what the pod asks
      // for, claims no value this host would apply, and says why it would not be scheduled.
      const above = opts.node.hardRlimitCeilings && opts.gates.ContainerUlimits ? ulimitsAboveCeilings(result.pod, opts.node.hardRlimitCeilings, opts.node.nrOpen) : [];
      const { hardRlimitCeilings: _ceilings, host: _host, ...anyNode } = opts.node;
      const onNode = planPodOnNode(result.pod, above.length ? anyNode : opts.node, opts.gates);
      Object.assign(entry, onNode);
      if (above.length) entry.warnings.push(`the scheduler would not place this pod on this node: ${ulimitCeilingsReason(above)}`);
      for (const c of onNode.containers) {
        if (c.oomKillModeError) entry.warnings.push(`container "${c.name}" cannot be created on this node: ${c.oomKillModeError}`);
        for (const a of c.rlimitAdjustments ?? []) entry.warnings.push(`container "${c.name}": ${a.type} ${a.reason}; applied soft=${a.applied.soft} hard=${a.applied.hard}`);
      }
    }
    if (result.pod) entry.object = result.pod;
    if (result.pod && result.rejection?.by !== 'Priority') {
      entry.priority = result.pod.spec.priority;
      if (result.pod.spec.priorityClassName) entry.priorityClassName = result.pod.spec.priorityClassName;
    }
    if (!result.rejection) {
      for (const c of result.charges) {
        const q = state.quotas.find((x) => x.metadata.name === c.name)!;
        q.status = { ...q.status, used: c.used };
      }
      admitted.push(result.pod!);
      planKeys.set(result.pod!, key(namespace, entry.name));
    }
    pods.push(entry);
  };

  /** The object-count charge of creating one object; the quota's 403 message when refused. */
  const chargeCount = (namespace: string, group: string, resource: string, name: string): string | undefined => {
    const state = ns(namespace);
    const decision = decideObjectCount(group, resource, state.quotas);
    if (!decision.allowed) return `${resource}${group ? `.${group}` : ''} "${name}" is forbidden: ${decision.message}`;
    for (const c of decision.charges) {
      const q = state.quotas.find((x) => x.metadata.name === c.name)!;
      q.status = { ...q.status, used: c.used };
    }
    return undefined;
  };

  // Pods and the objects that create pods or count against quotas, in input order.
  const ctx: WorkloadContext = { gates: opts.gates, now: opts.now, uid: derivedObjectUID };
  objects.forEach((o, i) => {
    const d = decoded[i]!;
    const kind = o.object.kind ?? '';
    if (kind === 'Pod') {
      const raw = (d.ok ? d.object : o.object) as Pod;
      if (!d.ok) {
        // The server's 400: the pod never reaches admission.
        pods.push({ namespace: objectNamespace(raw), name: podDisplayName(raw), source: o.source, admitted: false, errors: decodeFieldErrors(d), rejections: [{ by: 'Validation', message: d.message }], warnings: [] });
        return;
      }
      planPod(raw, o.source, d.warnings);
      return;
    }
    const planned = plannedKinds[kind];
    if (!planned) return;
    const decodedObject: PlanObject = d.ok ? { object: d.object, source: o.source } : o;
    if (undecodable(decodedObject, d, kind)) return;
    const namespace = objectNamespace(decodedObject.object);
    const obj = structuredClone(decodedObject.object);
    obj.metadata = { ...obj.metadata, namespace };
    const name = obj.metadata.name ?? '';
    const qualified = planned.group ? `${kind}.${planned.group}` : kind;
    const admitted = planned.admit(obj, ctx);
    if (!admitted.ok) {
      reject(decodedObject, kind, `${qualified} "${name}" is invalid`, reportFieldErrors(admitted.errors));
      return;
    }
    const refused = chargeCount(namespace, planned.group, planned.resource, name);
    if (refused) {
      reject(decodedObject, kind, refused, []);
      return;
    }
    for (const child of admitted.children) {
      // The controller's create of the child is refused on its own; the parent stays.
      const why = chargeCount(namespace, child.group, child.resource, child.name);
      if (why) {
        objectWarnings.push({ kind, namespace, name, source: o.source, message: `its controller's create of ${child.kind} "${child.name}" would be refused: ${why}` });
        return;
      }
    }
    if (admitted.warning) objectWarnings.push({ kind, namespace, name, source: o.source, message: admitted.warning });
    // Most pods a controller creates have generated names; the plan numbers them.
    admitted.pods.forEach(({ pod, owner }, n) => planPod(pod, o.source, [], { owner, name: pod.metadata.name || `${pod.metadata.generateName ?? ''}#${n + 1}` }));
  });

  const quotas: QuotaPlan[] = [];
  for (const [name, state] of namespaces) {
    for (const q of state.quotas) {
      quotas.push({ namespace: name, name: q.metadata.name!, hard: { ...(q.status?.hard ?? {}) }, used: sortedRecord(q.status?.used ?? {}) });
    }
  }

  const result: PlanResult = { pods, quotas, rejectedObjects };
  if (objectWarnings.length > 0) result.objectWarnings = objectWarnings;
  if (opts.usage) {
    const usage = opts.usage;
    const usageOf = (p: Pod) => usage.get(planKeys.get(p)!);
    const ranked = rankForMemoryPressure(admitted, usageOf, opts.gates);
    result.evictionOrder = evictionCandidates(ranked).map((p) => planKeys.get(p)!);
    result.memory = memoryPressure(admitted, usageOf, opts);
  }
  return result;
}

const clusterScoped = new Set(['Namespace', 'PriorityClass']);

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
