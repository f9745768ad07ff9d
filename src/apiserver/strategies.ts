// What is special about each kind on create, update and delete: the pod admission path with
// its quota charge committed in the same transaction as the pod, pod update rules and
// graceful deletion, namespace lifecycle, quota and LimitRange validation and defaulting.

import { admitPodCreate, podDisplayName, type Rejection } from '../admission/pod.js';
import { admitNamespaceUpdate, namespaceCreateWarnings, validateNamespaceObject } from '../admission/namespace.js';
import { defaultNamespace } from '../api/namespacedefaults.js';
import { admitDefaultTolerationSeconds, defaultTolerationSeconds, type DefaultTolerationSeconds } from '../admission/defaulttolerationseconds.js';
import { evaluatePodSecurity, isPodController, isSignificantPodUpdate } from '../admission/podsecurity.js';
import { withPodControllerSecurity } from './podcontrollersecurity.js';
import { FieldPath, fieldError, type FieldError } from '../api/fielderrors.js';
import type { KubeObject, LimitRange, Namespace, Pod, PriorityClass, ResourceQuota, ServiceAccount, Status } from '../api/types.js';
import { defaultServiceAccountName, podServiceAccountName } from '../admission/serviceaccount.js';
import { installConfigStrategies, withObjectCount } from './configstrategies.js';
import { countsObjects } from '../quota/objectcount.js';
import { installBatchStrategies } from './batchstrategies.js';
import { installAppsStrategies } from './appsstrategies.js';
import { ephemeralContainersUpdate, validateLimitRange, validatePodEphemeralContainersUpdate, validateResourceQuota, validateResourceQuotaUpdate, validateSchedulingGatesUpdate } from '../api/validation/index.js';
import { defaultPod } from '../api/defaults.js';
import { evaluatePodsInNamespace, NAMESPACE_POD_CHECK_TIMEOUT_MS, type LevelVersion, type PodSecurityConfiguration } from '../podsecurity/index.js';
import { currentDeadline } from '../storage/deadline.js';
import { defaultLimitRangeItem } from '../quota/limitranger.js';
import { defaultLimitRangeLists, defaultResourceQuotaLists } from '../quota/objectdefaults.js';
import { semanticEqual } from '../api/semanticequal.js';
import { podDeleteDecision } from '../api/poddeletion.js';
import { decodeStored, encodeForStore, generateName, newUID } from './objects.js';
import type { Api, GuardedWrite, RequestInfo, Strategy } from './rest.js';
import { resources, storageKey } from './resources.js';
import { certificateSigningRequestStrategy } from './certificatestrategies.js';
import { leaseStrategy, nodeStrategy, withPodStatusRestriction } from './nodestrategies.js';
import { listPriorityClasses, priorityClassStrategy } from './priorityclasses.js';
import { podDisruptionBudgetStrategy } from './policystrategies.js';
import { runtimeClassesFor, runtimeClassStrategy } from './runtimeclasses.js';
import { installRBACStrategies } from './rbacstrategies.js';
import { serviceStrategy, type ServiceRanges } from './services.js';
import { defaultServiceClusterIPRange, defaultServiceNodePortRange, parseNodePortRange, parseServiceIPRange } from '../api/servicerange.js';
import { horizontalPodAutoscalerStrategy } from './autoscalingstrategies.js';
import { endpointSliceStrategy, endpointsStrategy } from './endpointsstrategies.js';
import { keepPodPriority } from '../admission/priority.js';
import { statusErrors, StatusError } from './status.js';
import { metaTime } from '../api/metatime.js';
import { deepCopyJSON } from '../api/deepcopy.js';

function rejectionError(r: Rejection, pod: Pod, causes: { field: string; type: string; message: string }[]): StatusError {
  const name = podDisplayName(pod);
  // A plain error (code 500) is responsewriters.ErrorToAPIStatus's: no reason, no details.
  if (r.code === 500) return statusErrors.unknown(r.message);
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: r.message, reason: r.reason, code: r.code };
  if (r.code === 422) s.details = { name, group: '', kind: 'Pod', causes: causes.map((c) => ({ reason: c.type, message: c.message, field: c.field })) };
  else if (r.code === 403) s.details = { name, group: '', kind: 'pods' };
  return new StatusError(s);
}

function invalid(kind: string, name: string, errs: FieldError[]): StatusError {
  return statusErrors.invalid(kind, '', name, errs);
}

const podUpdateForbidden =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/**
 * The v1 conversion of the account fields on an update: serviceAccountName read from the
 * deprecated serviceAccount when empty, serviceAccount mirroring it. A body with neither keeps
 * the stored account: upstream's field manager never gives the creator ownership of what the
 * ServiceAccount admission set, so a server-side apply does not remove it; Bulkhead records
 * ownership after admission, and this keeps such an apply from reading as a spec change.
 */
function withServiceAccountFields(pod: Pod, prev: Pod): void {
  if (!pod.spec) return;
  if (!pod.spec.serviceAccountName && pod.spec.serviceAccount) pod.spec.serviceAccountName = pod.spec.serviceAccount;
  if (!pod.spec.serviceAccountName && prev.spec?.serviceAccountName) pod.spec.serviceAccountName = prev.spec.serviceAccountName;
  if (pod.spec.serviceAccountName) pod.spec.serviceAccount = pod.spec.serviceAccountName;
}

/** The spec with the fields a pod update may change blanked out, for comparison. */
function immutablePodSpec(pod: Pod): unknown {
  // A PUT may leave spec out: Go decodes that as the zero PodSpec, which differs from any stored one.
  const spec = deepCopyJSON(pod.spec ?? {}) as Pod['spec'] & Record<string, unknown>;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) delete c.image;
  delete spec.activeDeadlineSeconds;
  delete spec.tolerations;
  delete spec.terminationGracePeriodSeconds;
  return spec;
}

/**
 * Equality of two `status.used` lists, without encoding them: every pod create compares each
 * quota's usage before and after its charge (stableJSON's strings and key sorts there were 5% of
 * the bytes bench:api's creates allocate). Anything but string quantities goes to semanticEqual.
 */
export function sameUsage(a: Readonly<Record<string, unknown>> | undefined, b: Readonly<Record<string, unknown>> | undefined): boolean {
  if (a === undefined || b === undefined || a === null || b === null) return semanticEqual(a, b);
  let inA = 0;
  for (const k in a) {
    const v = a[k];
    if (v === undefined) continue;
    if (typeof v !== 'string') return semanticEqual(a, b);
    if (v !== b[k]) return false;
    inA++;
  }
  let inB = 0;
  for (const k in b) if (b[k] !== undefined) inB++;
  return inA === inB;
}

export function podStrategy(podSecurity: PodSecurityConfiguration, tolerationSeconds: DefaultTolerationSeconds = defaultTolerationSeconds): Strategy {
  return {
    serializeCreatesPerNamespace: true,
    async create(obj, req, api, batch, track) {
      const pod = obj as Pod;
      const namespace = pod.metadata.namespace!;
      const { ns, limitRanges, priorityClasses, quotaKVs: current } = await admissionInputs(api, namespace);
      // Within a batch, quotas already charged by earlier pods of the batch are read as charged.
      const quotaKVs = current.map((q) => {
        const pending = batch?.pending.get(q.kv.key);
        return pending ? { kv: { key: q.kv.key, modRevision: pending.modRevision }, quota: pending.obj as ResourceQuota } : q;
      });
      const quotas = quotaKVs.map((q) => q.quota);
      const saName = podServiceAccountName(pod);
      const account = saName === undefined ? undefined : await lookupServiceAccount(api, namespace, saName);
      const result = admitPodCreate({
        serviceAccount: { account, generateName },
        pod,
        // Api.prepareCreate's object, made for this create alone: defaulted in place, not copied.
        owned: true,
        namespaceLabels: ns?.metadata.labels ?? {},
        limitRanges,
        priorityClasses,
        runtimeClasses: await runtimeClassesFor(api, pod),
        quotas,
        limitedResources: api.resourceQuota.limitedResources,
        gates: api.gates,
        podSecurityDefaults: podSecurity.defaults,
        podSecurityExemptions: podSecurity.exemptions,
        username: req.user.name,
        defaultTolerationSeconds: tolerationSeconds,
        now: api.now(),
        defaulted: track,
      });
      // What admission warned of before the plugin that refused goes out with the error too.
      req.warnings.push(...result.warnings);
      if (result.rejection) throw rejectionError(result.rejection, pod, result.errors);
      const stored = result.pod!;
      const writes: GuardedWrite[] = [];
      for (const charge of result.charges) {
        const { kv, quota } = quotaKVs.find((q) => q.quota.metadata.name === charge.name)!;
        if (sameUsage(quota.status?.used, charge.used)) continue;
        const q = { ...quota, status: { ...(quota.status ?? {}), used: charge.used } };
        if (batch) batch.pending.set(kv.key, { modRevision: kv.modRevision, obj: q });
        else writes.push({ key: kv.key, modRevision: kv.modRevision, value: encodeForStore(q) });
      }
      return { obj: stored, writes };
    },
    async update(obj, old, req, api, subresource) {
      const prev = old as Pod;
      // The Priority plugin on update: a priority or preemptionPolicy left out keeps the stored one.
      // DefaultTolerationSeconds on update as on create: a removed default toleration comes back.
      const pod = subresource ? (obj as Pod) : admitDefaultTolerationSeconds(keepPodPriority(obj as Pod, prev), tolerationSeconds);
      if (subresource === 'status') {
        return { obj: { ...prev, metadata: { ...prev.metadata, ...pickMutableMeta(pod) }, status: pod.status } };
      }
      if (subresource === 'delete') return { obj: deletionMarked(pod, prev) };
      if (subresource === 'ephemeralcontainers') {
        const next = ephemeralContainersWrite(pod, prev, api);
        await admitPodSecurityUpdate(next, prev, req, api, podSecurity);
        return { obj: next };
      }
      // binding.ts made this object from the stored one: nodeName, the Binding's annotations and
      // PodScheduled, in one write. A client's update can change none of them.
      if (subresource === 'binding') return { obj: pod };
      withServiceAccountFields(pod, prev);
      // Scheduling gates may only be removed; while gated, placement may only be narrowed.
      const gated = validateSchedulingGatesUpdate(pod.spec ?? ({} as Pod['spec']), prev.spec ?? ({} as Pod['spec']), FieldPath.root('spec'));
      const errs = gated.errors;
      if (!semanticEqual(immutablePodSpec({ ...pod, spec: gated.munged }), immutablePodSpec(prev), 'io.k8s.api.core.v1.PodSpec')) errs.push(fieldError.forbidden('spec', podUpdateForbidden));
      if (errs.length) throw invalid('Pod', prev.metadata.name ?? '', errs);
      // A container image change is a significant update: upstream's "significant update denied".
      await admitPodSecurityUpdate(pod, prev, req, api, podSecurity);
      // Status is owned by the status subresource; the QoS class never changes.
      return { obj: { ...pod, status: prev.status } };
    },
    async delete(obj, opts, req, api) {
      const pod = obj as Pod;
      const uid = pod.metadata.uid ?? '';
      if (!req.dryRun) shortenedDeletions.delete(uid);
      const d = podDeleteDecision(pod, opts.gracePeriodSeconds, api.now());
      if (d.action === 'delete') return undefined;
      // The mark is applied to the pod as stored when the write happens (deletionMarked), so a
      // concurrent status write does not fail the delete.
      const mark = deepCopyJSON(pod);
      if (!req.dryRun) delete mark.metadata.resourceVersion;
      if (d.action === 'pending') return { mark };
      mark.metadata.deletionTimestamp = metaTime(d.deletionTimestamp);
      mark.metadata.deletionGracePeriodSeconds = d.deletionGracePeriodSeconds;
      if (d.bumpGeneration && (mark.metadata.generation ?? 0) > 0) mark.metadata.generation! += 1;
      if (pod.metadata.deletionTimestamp && !req.dryRun) {
        shortenedDeletions.set(uid, { deletionTimestamp: mark.metadata.deletionTimestamp, deletionGracePeriodSeconds: d.deletionGracePeriodSeconds });
      }
      return { mark };
    },
  };
}

/**
 * PodSecurity on a pod update, a validating admission plugin run after the strategy's
 * validation: when the update is significant (isSignificantPodUpdate), the whole new pod is
 * evaluated; an enforce violation is a 403 naming the pod, otherwise warn-mode warnings are added
 * (upstream's EvaluatePod warns on any request it allows, updates and pods/ephemeralcontainers included).
 * Upstream asks the namespace and user exemptions before the significance; either way such an
 * update is allowed without a word.
 */
async function admitPodSecurityUpdate(next: Pod, prev: Pod, req: RequestInfo, api: Api, podSecurity: PodSecurityConfiguration): Promise<void> {
  if (!isSignificantPodUpdate(next, prev)) return;
  const namespace = prev.metadata.namespace ?? '';
  const ns = await api.tryGet<Namespace>(api.def('namespaces'), undefined, namespace);
  const security = evaluatePodSecurity(ns?.metadata.labels ?? {}, podSecurity.defaults, next, { exemptions: podSecurity.exemptions, namespace, username: req.user.name });
  if (security.denied) throw rejectionError({ by: 'PodSecurity', message: `pods "${podDisplayName(prev)}" is forbidden: ${security.denied}`, code: 403, reason: 'Forbidden' }, prev, []);
  req.warnings.push(...security.warnings);
}

/**
 * A write through pods/ephemeralcontainers: only spec.ephemeralContainers come from the request
 * (labels and annotations too are the stored pod's), the new containers defaulted as a decoded pod's are; they
 * may be added, never changed or removed (ValidatePodEphemeralContainersUpdate).
 */
function ephemeralContainersWrite(pod: Pod, prev: Pod, api: Api): Pod {
  const next = ephemeralContainersUpdate(pod, prev);
  if (next.spec.ephemeralContainers) {
    next.spec.ephemeralContainers = defaultPod(next, { gates: api.gates }).spec.ephemeralContainers;
  }
  const errs = validatePodEphemeralContainersUpdate(next, prev, { gates: api.gates });
  if (errs.length) throw invalid('Pod', prev.metadata.name ?? '', errs);
  return next;
}

/**
 * Shortened deletion marks on their way from delete() to the write: Api.update keeps the
 * deletion fields of a pod already being deleted, which is right for every other write.
 */
const shortenedDeletions = new Map<string, { deletionTimestamp: string; deletionGracePeriodSeconds: number }>();

/** The stored pod with the deletion fields of `marked` (or of a shortening decided for it). */
function deletionMarked(marked: Pod, stored: Pod): Pod {
  const meta = { ...stored.metadata };
  meta.deletionTimestamp = marked.metadata.deletionTimestamp;
  meta.deletionGracePeriodSeconds = marked.metadata.deletionGracePeriodSeconds;
  // The garbage collector's finalizers a DELETE set (Api.delete) come with the mark.
  if (marked.metadata.finalizers !== undefined) meta.finalizers = marked.metadata.finalizers;
  if (marked.metadata.generation !== undefined) meta.generation = Math.max(marked.metadata.generation, stored.metadata.generation ?? 0);
  const uid = stored.metadata.uid ?? '';
  const shorter = shortenedDeletions.get(uid);
  if (shorter) {
    shortenedDeletions.delete(uid);
    if (shorter.deletionGracePeriodSeconds < (stored.metadata.deletionGracePeriodSeconds ?? Infinity)) Object.assign(meta, shorter);
  }
  return { ...stored, metadata: meta };
}

/**
 * The ServiceAccount plugin's getServiceAccount: the cache, then the store; `default` is looked
 * for up to 10 times 100–200 ms apart, since the serviceaccounts controller creates it just
 * after the namespace.
 */
async function lookupServiceAccount(api: Api, namespace: string, name: string): Promise<ServiceAccount | undefined> {
  const cached = api.caches.get('serviceaccounts')?.get(namespace, name)?.obj as ServiceAccount | undefined;
  if (cached) return cached;
  const attempts = name === defaultServiceAccountName ? 10 : 1;
  const interval = 100 + Math.floor(Math.random() * 100);
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, interval));
    const found = await api.tryGet<ServiceAccount>(api.def('serviceaccounts'), namespace, name);
    if (found) return found;
  }
  return undefined;
}

/** What pod admission reads about a namespace: from the caches when the server has them. */
async function admissionInputs(api: Api, namespace: string): Promise<{ ns?: Namespace; limitRanges: LimitRange[]; priorityClasses: PriorityClass[]; quotaKVs: { kv: { key: string; modRevision: number }; quota: ResourceQuota }[] }> {
  const nsCache = api.caches.get('namespaces');
  const lrCache = api.caches.get('limitranges');
  const quotaCache = api.caches.get('resourcequotas');
  if (nsCache && lrCache && quotaCache) {
    return {
      ns: nsCache.get(undefined, namespace)?.obj as Namespace | undefined,
      limitRanges: lrCache.list(namespace).map((c) => c.obj as LimitRange),
      priorityClasses: await listPriorityClasses(api),
      quotaKVs: quotaCache.list(namespace).map((c) => ({ kv: c, quota: c.obj as ResourceQuota })),
    };
  }
  const ns = await api.tryGet<Namespace>(api.def('namespaces'), undefined, namespace);
  const limitRanges = (await api.list(api.def('limitranges'), namespace)).items as LimitRange[];
  const quotaPage = await api.store.list(storageKey(api.def('resourcequotas'), namespace));
  return { ns, limitRanges, priorityClasses: await listPriorityClasses(api), quotaKVs: quotaPage.items.map((kv) => ({ kv, quota: decodeStored<ResourceQuota>(kv) })) };
}

function pickMutableMeta(o: KubeObject): Partial<KubeObject['metadata']> {
  return { labels: o.metadata?.labels, annotations: o.metadata?.annotations };
}

const protectedNamespaces = new Set(['default', 'kube-system', 'kube-public']);

/**
 * Namespaces: create validates the name and the Pod Security labels (an exempt namespace whose
 * labels will be ignored is warned so); an update validates the labels again and, when the
 * enforce policy became stricter, evaluates the pods already in the namespace against it and
 * answers with upstream's warnings (the update is made all the same), or, for an exempt
 * namespace, warns that its labels will be ignored.
 */
export function namespaceStrategy(podSecurity: PodSecurityConfiguration): Strategy {
  return {
    async create(obj, req, _api, _batch, track) {
      const ns = defaultNamespace(obj as Namespace);
      track?.(ns);
      const errs = validateNamespaceObject(ns);
      if (errs.length) throw invalid('Namespace', ns.metadata?.name ?? '', errs);
      req.warnings.push(...namespaceCreateWarnings(ns, podSecurity.defaults, podSecurity.exemptions));
      ns.spec = { finalizers: ['kubernetes'] };
      ns.status = { phase: 'Active' };
      return { obj: ns };
    },
    async update(obj, old, req, api, subresource) {
      const ns = defaultNamespace(obj as Namespace);
      const prev = old as Namespace;
      if (subresource === 'status') return { obj: { ...prev, status: ns.status } };
      if (subresource === 'finalize') return { obj: { ...prev, spec: { finalizers: ns.spec?.finalizers ?? [] } } };
      const name = prev.metadata.name ?? '';
      const admission = admitNamespaceUpdate(ns, prev, podSecurity.defaults, podSecurity.exemptions);
      if (admission.errors.length) throw invalid('Namespace', name, admission.errors);
      if (admission.warnings) req.warnings.push(...admission.warnings);
      if (admission.checkPods) req.warnings.push(...(await existingPodsWarnings(api, name, admission.checkPods, podSecurity.exemptions.runtimeClasses)));
      return { obj: { ...ns, spec: prev.spec, status: prev.status } };
    },
    async delete(obj, _opts, _req, api) {
      const ns = obj as Namespace;
      if (protectedNamespaces.has(ns.metadata.name ?? '')) {
        throw statusErrors.forbidden({ group: '', resource: 'namespaces' }, ns.metadata.name!, 'this namespace may not be deleted');
      }
      if (ns.metadata.deletionTimestamp) return { mark: ns };
      const mark = deepCopyJSON(ns);
      mark.metadata.deletionTimestamp = metaTime(api.now());
      mark.metadata.deletionGracePeriodSeconds = 0;
      mark.status = { phase: 'Terminating' };
      return { mark };
    },
  };
}

/**
 * EvaluatePodsInNamespace's I/O: the namespace's pods (a failed list is a warning, not an
 * error), evaluated within upstream's time budget: 1 s, or half of what is left of the
 * request's deadline when that is less. No test asserts on the budget (it would be a timed
 * test); the pure rows drive the same cut-off with a counting clock instead.
 */
async function existingPodsWarnings(api: Api, namespace: string, enforce: LevelVersion, exemptRuntimeClasses: readonly string[] | undefined): Promise<string[]> {
  const start = Date.now();
  const deadline = currentDeadline();
  const budget = deadline ? Math.min(NAMESPACE_POD_CHECK_TIMEOUT_MS, (deadline.at - start) / 2) : NAMESPACE_POD_CHECK_TIMEOUT_MS;
  let pods: Pod[] | Error;
  try {
    pods = (await api.list(api.def('pods'), namespace)).items as Pod[];
  } catch (e) {
    pods = e instanceof Error ? e : new Error(String(e));
  }
  return evaluatePodsInNamespace(namespace, enforce, pods, { exemptRuntimeClasses, expired: () => Date.now() - start > budget });
}

export const resourceQuotaStrategy: Strategy = {
  async create(obj) {
    const q = defaultResourceQuotaLists(obj as ResourceQuota);
    q.status = {};
    const errs = validateResourceQuota(q);
    if (errs.length) throw invalid('ResourceQuota', q.metadata?.name ?? '', errs);
    return { obj: q };
  },
  async update(obj, old, _req, _api, subresource) {
    const q = defaultResourceQuotaLists(obj as ResourceQuota);
    const prev = old as ResourceQuota;
    if (subresource === 'status') return { obj: { ...prev, status: q.status } };
    const next = { ...q, status: prev.status };
    const errs = validateResourceQuotaUpdate(next, prev);
    if (errs.length) throw invalid('ResourceQuota', prev.metadata.name ?? '', errs);
    return { obj: next };
  },
};

export const limitRangeStrategy: Strategy = {
  // The registry's AllowCreateOnUpdate: a PUT of a missing object creates it.
  allowCreateOnUpdate: true,
  async create(obj) {
    const lr = obj as LimitRange;
    // PrepareForCreate: a LimitRange sent without a name is named with a fresh UUID.
    if (!lr.metadata.name) lr.metadata.name = newUID();
    defaultLimitRangeLists(lr);
    const errs = validateLimitRange(lr);
    if (errs.length) throw invalid('LimitRange', lr.metadata?.name ?? '', errs);
    lr.spec = { limits: (lr.spec?.limits ?? []).map(defaultLimitRangeItem) };
    return { obj: lr };
  },
  async update(obj, old) {
    const lr = defaultLimitRangeLists(obj as LimitRange);
    const errs = validateLimitRange(lr);
    if (errs.length) throw invalid('LimitRange', old.metadata?.name ?? '', errs);
    lr.spec = { limits: (lr.spec?.limits ?? []).map(defaultLimitRangeItem) };
    return { obj: lr };
  },
};

/** The ranges of kube-apiserver's defaults: 10.96.0.0/12 and 30000-32767. */
export function defaultServiceRanges(): ServiceRanges {
  return { ip: parseServiceIPRange(defaultServiceClusterIPRange), nodePorts: parseNodePortRange(defaultServiceNodePortRange) };
}

/** Main-resource writes keep status; the status subresource changes only status. */
export const statusSplitStrategy: Strategy = {
  async update(obj, old, _req: RequestInfo, _api: Api, subresource) {
    const o = obj as KubeObject & { status?: unknown };
    const prev = old as KubeObject & { status?: unknown };
    if (subresource === 'status') return { obj: { ...prev, status: o.status } };
    return { obj: { ...o, status: prev.status } };
  },
};

export function installStrategies(api: Api, podSecurity: PodSecurityConfiguration, tolerationSeconds?: DefaultTolerationSeconds, serviceRanges: ServiceRanges = defaultServiceRanges()): void {
  api.strategies.set('services', serviceStrategy(serviceRanges));
  api.strategies.set('pods', withPodStatusRestriction(podStrategy(podSecurity, tolerationSeconds)));
  api.strategies.set('namespaces', namespaceStrategy(podSecurity));
  api.strategies.set('resourcequotas', resourceQuotaStrategy);
  api.strategies.set('limitranges', limitRangeStrategy);
  api.strategies.set('nodes', nodeStrategy);
  api.strategies.set('leases', leaseStrategy);
  api.strategies.set('certificatesigningrequests', certificateSigningRequestStrategy);
  api.strategies.set('priorityclasses', priorityClassStrategy);
  api.strategies.set('poddisruptionbudgets', podDisruptionBudgetStrategy);
  api.strategies.set('runtimeclasses', runtimeClassStrategy);
  api.strategies.set('horizontalpodautoscalers', horizontalPodAutoscalerStrategy);
  api.strategies.set('endpoints', endpointsStrategy);
  api.strategies.set('endpointslices', endpointSliceStrategy);
  // Events have no strategy of their own here; upstream's allows a PUT to create one.
  api.strategies.set('events', { allowCreateOnUpdate: true });
  installConfigStrategies(api);
  installBatchStrategies(api);
  installAppsStrategies(api);
  installRBACStrategies(api);
  // PodSecurity's warn-mode check of pod templates, after each kind's validation and before the
  // object-count charge below, as kube-apiserver orders its validating plugins.
  for (const def of resources) {
    if (!isPodController(def.group, def.resource)) continue;
    api.strategies.set(def.resource, withPodControllerSecurity(api.strategy(def), def.group, def.resource, podSecurity));
  }
  // Every kind quota counts gets the object-count charge on create (quota/objectcount.ts).
  // Once per group and resource: a kind served in two versions (autoscaling v2 and v1) has one strategy.
  const counted = new Set<string>();
  for (const def of resources) {
    const key = `${def.group}/${def.resource}`;
    if (counted.has(key) || !countsObjects(def)) continue;
    counted.add(key);
    api.strategies.set(def.resource, withObjectCount(api.strategy(def), def.group, def.resource));
  }
}
