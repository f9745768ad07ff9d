// Defaulting as the API server applies it to a new pod (pkg/apis/core/v1/defaults.go). The
// admission plugins' additions are src/admission's: Priority's priority and preemptionPolicy
// (they depend on the PriorityClasses that exist) and DefaultTolerationSeconds' tolerations
// (they depend on the server's flags).
// Functions return new objects; callers' input is never mutated (unless a caller hands it over).

import type { FeatureGates } from './featuregates.js';
import { aggregateContainerLimits, aggregateContainerRequests, isSupportedPodLevelResource } from './podresources.js';
import { Quantity } from './quantity.js';
import { HugePagesPrefix } from './resourcelist.js';
import type { Container, HTTPGetAction, Lifecycle, Pod, PodSpec, Probe, ResourceList } from './types.js';
import { deepCopyJSON } from './deepcopy.js';
import { defaultContainerFieldRefs, defaultVolume } from './volumedefaults.js';

/** SetDefaults_PodSpec's terminationGracePeriodSeconds (v1.DefaultTerminationGracePeriodSeconds). */
export const defaultTerminationGracePeriodSeconds = 30;

/**
 * SetDefaults_ResourceList: every quantity rounded up to milli scale, printed as the API server
 * prints it after a round trip: "1Gi" for "1024Mi", but a parse-time spelling such as "100.035k"
 * kept unless rounding changed the value. A value that does not parse is left for validation.
 */
export function canonicalList(rl: ResourceList | undefined): ResourceList | undefined {
  if (!rl || typeof rl !== 'object') return rl;
  const out: ResourceList = {};
  for (const k of sortedKeys(rl)) {
    const raw = rl[k];
    out[k] = typeof raw === 'string' ? roundedText(raw) : rounded(raw!);
  }
  return out;
}

/** The keys in sort() order; most lists are written in that order already, and a check is cheaper than a sort. */
function sortedKeys(rl: ResourceList): string[] {
  const keys = Object.keys(rl);
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return keys.sort();
  return keys;
}

/** The value as defaulting leaves it: rounded and printed when it parses, else as it was (validation's to refuse). */
function rounded(raw: string): string {
  const v: unknown = raw;
  const q = typeof v === 'string' || typeof v === 'number' ? tryQuantity(v) : undefined;
  return q ? q.roundUp(-3).q.toString() : raw;
}

// The same few spellings recur in every pod, and the rounded text is a function of the spelling alone.
const roundedTexts = new Map<string, string>();

function roundedText(raw: string): string {
  let text = roundedTexts.get(raw);
  if (text === undefined) {
    text = rounded(raw);
    if (roundedTexts.size >= 4096) roundedTexts.clear();
    roundedTexts.set(raw, text);
  }
  return text;
}

function tryQuantity(raw: string | number): Quantity | undefined {
  try {
    return Quantity.fromJSON(raw);
  } catch {
    return undefined;
  }
}

/** Go's zero-value test: absent, null, 0 and "" all count as unset. */
function unset(v: unknown): boolean {
  return v === undefined || v === null || v === 0 || v === '';
}

/** SetDefaults_HTTPGetAction. */
function defaultHTTPGet(h: HTTPGetAction | undefined): void {
  if (!h || typeof h !== 'object') return;
  if (unset(h.path)) h.path = '/';
  if (unset(h.scheme)) h.scheme = 'HTTP';
}

/** SetDefaults_Probe, plus the generated defaults of its handler (httpGet; grpc.service ""). */
function defaultProbe(p: Probe | undefined): void {
  if (!p || typeof p !== 'object') return;
  if (unset(p.timeoutSeconds)) p.timeoutSeconds = 1;
  if (unset(p.periodSeconds)) p.periodSeconds = 10;
  if (unset(p.successThreshold)) p.successThreshold = 1;
  if (unset(p.failureThreshold)) p.failureThreshold = 3;
  defaultHTTPGet(p.httpGet);
  if (p.grpc && typeof p.grpc === 'object' && (p.grpc.service === undefined || p.grpc.service === null)) p.grpc.service = '';
}

/** Lifecycle hooks default only their httpGet action. */
function defaultLifecycle(l: Lifecycle | undefined): void {
  if (!l || typeof l !== 'object') return;
  defaultHTTPGet(l.postStart?.httpGet);
  defaultHTTPGet(l.preStop?.httpGet);
}

function imageHasLatestOrNoTag(image: string): boolean {
  const at = image.indexOf('@');
  if (at >= 0) return false;
  const lastSlash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  if (colon <= lastSlash) return true;
  return image.length === colon + 7 && image.endsWith('latest');
}

/** The repository path (after a registry host, before a tag or digest) has an upper-case letter: docker's parser refuses it. */
function upperCaseRepository(image: string): boolean {
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const isHost = first !== '' && (/[.:]/.test(first) || first === 'localhost' || first !== first.toLowerCase());
  const path = (isHost ? image.slice(slash + 1) : image).split(/[:@]/)[0]!;
  return path !== path.toLowerCase();
}

function defaultContainer(c: Container, copyLimitsToRequests: boolean): void {
  if (unset(c.terminationMessagePath)) c.terminationMessagePath = '/dev/termination-log';
  if (unset(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  if (unset(c.imagePullPolicy)) {
    // An image that does not parse (none, "", an upper-case repository) has no tag: IfNotPresent.
    const img = typeof c.image === 'string' ? c.image : '';
    c.imagePullPolicy = img !== '' && !upperCaseRepository(img) && imageHasLatestOrNoTag(img) ? 'Always' : 'IfNotPresent';
  }
  for (const port of c.ports ?? []) if (unset(port.protocol)) port.protocol = 'TCP';
  defaultContainerFieldRefs(c);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultLifecycle(c.lifecycle);
  if (c.resources) {
    if (copyLimitsToRequests && c.resources.limits) {
      c.resources.requests ??= {};
      for (const [k, v] of Object.entries(c.resources.limits)) {
        if (!(k in c.resources.requests)) c.resources.requests[k] = v;
      }
    }
  } else {
    c.resources = {};
  }
}

/** The ResourceList pass over a container; it runs after pod-level defaulting, as upstream's does. */
function roundContainerResources(c: Container): void {
  if (!c.resources) return;
  const limits = canonicalList(c.resources.limits);
  const requests = canonicalList(c.resources.requests);
  if (limits) c.resources.limits = limits;
  if (requests) c.resources.requests = requests;
}

const has = (rl: ResourceList | undefined, k: string) => !!rl && Object.prototype.hasOwnProperty.call(rl, k);

/**
 * defaultHugePagePodLimits: with pod-level resources partly specified, a hugepage limit set only
 * on containers becomes the pod's (the aggregate), unless the pod requests that hugepage size.
 */
function defaultHugePagePodLimits(pod: Pod): void {
  const r = pod.spec.resources;
  if (!r) return;
  if (Object.keys(r.limits ?? {}).length === 0 && Object.keys(r.requests ?? {}).length === 0) return;
  const limits: ResourceList = { ...(r.limits ?? {}) };
  for (const [k, q] of aggregateContainerLimits(pod)) {
    if (!k.startsWith(HugePagesPrefix) || has(r.requests, k) || has(limits, k)) continue;
    limits[k] = q.toString();
  }
  if (Object.keys(limits).length > 0) r.limits = limits;
}

/**
 * Pod-level requests default from what the containers request (overcommittable resources, i.e.
 * cpu and memory, only), else from pod-level limits, and only when pod-level limits are set.
 */
function defaultPodRequests(pod: Pod): void {
  const r = pod.spec.resources;
  if (!r?.limits || Object.keys(r.limits).length === 0) return;
  const requests: ResourceList = { ...(r.requests ?? {}) };
  for (const [k, q] of aggregateContainerRequests(pod)) {
    if (!(k in requests) && isSupportedPodLevelResource(k) && !k.startsWith(HugePagesPrefix)) requests[k] = q.toString();
  }
  for (const [k, v] of Object.entries(r.limits)) {
    if (!(k in requests) && isSupportedPodLevelResource(k)) requests[k] = v;
  }
  if (Object.keys(requests).length > 0) r.requests = requests;
}

export interface PodDefaultingOptions {
  gates: Pick<FeatureGates, 'PodLevelResources'>;
  /** The caller hands the pod over (it decoded it for this call alone): it is filled in place, not copied. */
  inPlace?: boolean;
}

/**
 * The pod template of a workload as the API server stores it: SetDefaults_PodSpec and the
 * container, volume and ResourceList defaults, without what SetDefaults_Pod alone sets (requests
 * copied from limits, enableServiceLinks, a hostNetwork container's hostPorts, pod-level
 * requests): upstream keeps those to Pods, so a Deployment's template keeps the resources it was
 * given and its pods get the rest when they are created.
 */
export function defaultPodTemplateSpec(spec: PodSpec, opts: PodDefaultingOptions): PodSpec {
  return defaultPodFields({ metadata: {}, spec } as Pod, opts, false).spec;
}

/** The pod as the API server would store it on create, before status is filled in. */
export function defaultPod(input: Pod, opts: PodDefaultingOptions): Pod {
  return defaultPodFields(input, opts, true);
}

/** `onPod`: SetDefaults_Pod's part too (see defaultPodTemplateSpec). */
function defaultPodFields(input: Pod, opts: PodDefaultingOptions, onPod: boolean): Pod {
  const pod = opts.inPlace ? input : deepCopyJSON(input);
  pod.apiVersion ??= 'v1';
  pod.kind ??= 'Pod';
  pod.metadata ??= {};
  // A pod without a spec decodes to an empty one; validation then names what is missing.
  pod.spec ??= {} as PodSpec;
  const spec = pod.spec;
  // Go's string fields: "" is unset and defaulted; the pointer fields only when absent.
  if (unset(spec.restartPolicy)) spec.restartPolicy = 'Always';
  spec.terminationGracePeriodSeconds ??= defaultTerminationGracePeriodSeconds;
  if (unset(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst';
  spec.securityContext ??= {};
  if (unset(spec.schedulerName)) spec.schedulerName = 'default-scheduler';
  if (onPod) spec.enableServiceLinks ??= true;
  for (const c of spec.containers ?? []) defaultContainer(c, onPod);
  for (const c of spec.initContainers ?? []) defaultContainer(c, onPod);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c, false);
  for (const v of spec.volumes ?? []) defaultVolume(v);
  if (onPod && spec.hostNetwork) {
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      for (const p of c.ports ?? []) if (p.hostPort === undefined) p.hostPort = p.containerPort;
    }
  }
  if (opts.gates.PodLevelResources && spec.resources) {
    if (onPod) {
      defaultHugePagePodLimits(pod);
      defaultPodRequests(pod);
    }
    const limits = canonicalList(spec.resources.limits);
    const requests = canonicalList(spec.resources.requests);
    if (limits) spec.resources.limits = limits;
    if (requests) spec.resources.requests = requests;
  }
  for (const c of spec.containers ?? []) roundContainerResources(c);
  for (const c of spec.initContainers ?? []) roundContainerResources(c);
  for (const c of spec.ephemeralContainers ?? []) roundContainerResources(c);
  if (spec.overhead) spec.overhead = canonicalList(spec.overhead);
  return pod;
}
