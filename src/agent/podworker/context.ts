// What the pod worker's parts share (the files beside this one: sandbox, start, stop, observe,
// instances, prepare, status, queries): the options, the runtime and cgroup interfaces below
// them, the on-disk records, the back-offs and the per-pod memory. The kubelet keeps the same
// state on its kubeGenericRuntimeManager, whose methods are spread over
// pkg/kubelet/kuberuntime/kuberuntime_{sandbox,container,manager}.go; here the parts are
// functions over one WorkerContext.

import { createHash } from 'node:crypto';
import type { Service } from '../../api/servicetypes.js';
import type { FeatureGates } from '../../api/featuregates.js';
import type { TokenRequest } from '../../api/serviceaccounttoken.js';
import type { ConfigMap, Container, Pod, PodStatus, Probe, RuntimeClass, Secret } from '../../api/types.js';
import type { HandlerOutcome } from '../lifecycle/probes.js';
import type { ProbeTarget } from './prober.js';
import type { NodeConfig } from '../../plan/node.js';
import type { CgroupManager } from '../cgroups/manager.js';
import type { ImageRecord, ImageStore } from '../images/store.js';
import type { Backoff, BackoffConfig } from '../lifecycle/backoff.js';
import type { StartFailure } from '../lifecycle/containerstatus.js';
import type { PodRuntime } from '../lifecycle/runtime.js';
import type { PodObjects } from '../lifecycle/volumes.js';
import { reasons } from '../lifecycle/wording.js';
import type { PodCgroups } from '../podcgroups.js';
import type { InstanceRecord, PodRecords } from '../podrecords.js';
import type { ExitWatch } from '../runtime/exitwatch.js';
import type { HostProbe } from '../runtime/hostprobe.js';
import type { ContainerRuntime, PodMounts } from '../runtime/runtime.js';
import type { PodDialer } from '../streaming/netnsdial.js';

export type EventSink = (pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** The OOM design's metrics; the agent owns prom-client. */
export interface OOMConfigMetrics {
  /** A container's OOM mode applied (seconds from the plan to the container created). */
  configured(mode: 'Single' | 'Group', seconds: number): void;
  /** Container creation refused over its OOM kill mode. */
  configError(): void;
}

/** Where the ConfigMaps and Secrets pods refer to come from (the agent's client); null: not found. */
export interface ObjectSource {
  configMap(namespace: string, name: string): Promise<ConfigMap | null>;
  secret(namespace: string, name: string): Promise<Secret | null>;
  /** The RuntimeClass a pod names (the kubelet's RuntimeClass manager); absent: every class is unknown. */
  runtimeClass?(name: string): Promise<RuntimeClass | null>;
  /** A service account token for a projected volume (the kubelet's token manager); rejects with the FailedMount text. */
  serviceAccountToken?(namespace: string, name: string, request: TokenRequest): Promise<TokenRequest>;
  /** The pod is gone: what was kept for it (its tokens) goes too. */
  forgetPod?(uid: string): void;
  /** Every Service (the kubelet's service lister), for the containers' service variables; absent: none. */
  services?(): Promise<Service[]>;
}

export interface PodWorkerOptions {
  /** Absolute cgroup path all pods go below, e.g. '/bulkhead' → /bulkhead/kubepods/... ('/' for the kubelet's layout). */
  cgroupRoot: string;
  /** Persistent state; the OCI runtime's state directory is <stateDir>/runc. */
  stateDir: string;
  /** Pod records, bundles, logs and exit files. */
  runDir: string;
  node: NodeConfig;
  host: HostProbe;
  gates: FeatureGates;
  /** The host's cgroups (cgroups/select.ts chooses the implementation). */
  cgroups: CgroupManager;
  /** Where container images come from (nothing is pulled). */
  images: ImageStore;
  metrics?: OOMConfigMetrics;
  now?: () => Date;
  /** CrashLoopBackOff and image pull back-off; default the kubelet's 10 s doubling to 300 s. */
  backoff?: BackoffConfig;
  /** The sandbox's (read-only) rootfs; default: the busybox image of `images`, built from the host's busybox when missing. */
  rootfs?: string;
  /** conmon and OCI runtime (runc, crun) binaries; default conmon and runc from PATH. */
  conmon?: string;
  runtime?: string;
  /**
   * The runtime handlers pods may name through a RuntimeClass, each with its OCI runtime binary
   * (setup.ts: `runc` and `crun` where usable). `runtime` stays the default (no RuntimeClass);
   * a handler with another binary gets its own state directory (runtime/handlers.ts).
   */
  handlers?: Record<string, string>;
  /** The container runtime; default runc/crun under conmon (runtime/ociruntime.ts) from the two above (with a fake, `handlers` names the handlers it accepts). */
  containerRuntime?: ContainerRuntime;
  /** Overlay roots and namespace pins; default the host's mounts (runtime/hostmounts.ts). */
  mounts?: PodMounts;
  /**
   * How long a termination waits for containers to exit once SIGKILL went out (or was refused)
   * before it gives up, reports FailedKillPod and lets the caller try again later; default the
   * kubelet's --runtime-request-timeout (2 min), the bound its StopContainer call has beyond the grace.
   */
  runtimeRequestTimeoutMs?: number;
  /** How many pods create sandboxes and containers at the same time; default four per CPU (see startslots.ts). */
  parallelStarts?: number;
  /**
   * Called as soon as a container has started, before the rest of the sync: on cgroup v2 the OOM
   * reporter then watches its memory.events before an early OOM kill can end it.
   */
  containerStarted?: () => void;
  /**
   * Called just before a container's runtime state and cgroup are removed: on cgroup v2 the OOM
   * reporter reads its memory.events a last time (an OOM kill that ended it is counted there, and
   * the sync that saw the exit can come before the reporter's own read of the change).
   */
  containerRemoving?: (containerID: string) => void;
  /** The node's addresses, primary first: env fieldRefs status.hostIP(s), and a hostNetwork pod's IPs. */
  hostIPs?: string[];
  /** The Node's status.allocatable: the downward API's value of a limit a container does not set (default: the node's capacity). */
  allocatable?: Readonly<Record<string, string>>;
  /** The ConfigMaps and Secrets of env and volumes; without it every reference is missing. */
  objects?: ObjectSource;
  /**
   * Where events that happen between syncs go: the probes' (Unhealthy, ProbeWarning; without it
   * they are dropped) and a preStop hook's FailedPreStopHook (without it, the sink of the sync or
   * termination that started the hook).
   */
  probeEvents?: EventSink;
  /** A probe result changed (a container became ready, failed its liveness probe…): the pod wants a sync. */
  probeChanged?: (podUID: string) => void;
  /** How probes, hooks and port-forward dial a port in a pod's network namespace; default the pods' long-lived dialers (streaming/netnsdialer.ts). */
  dialer?: PodDialer;
  /** Runs a probe's handler; default exec through the runtime, TCP and HTTP in the pod's network namespace (podworker/prober.ts). */
  probeRunner?: (probe: Probe, target: ProbeTarget) => Promise<HandlerOutcome>;
}

export interface MemcgContainer {
  podUID: string;
  namespace: string;
  pod: string;
  container: string;
  /** `runc://<id>`, as in the container's status. */
  containerID: string;
  oomKillMode: 'Single' | 'Group';
  emulated: boolean;
  /** The container's memory cgroup directory (absolute). */
  cgroupDir: string;
}

/**
 * What a termination came to. Done: everything stopped, a terminal status. Not done: something
 * outlived its SIGKILL by the bound (the kubelet's FailedKillPod, `error` its message, already
 * recorded as the event); the status is not terminal, and the caller tries again later.
 */
export type TerminateOutcome = { done: true; status: PodStatus } | { done: false; status: PodStatus; error: string };

export class PodWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PodWorkerError';
  }
}

/** terminationGracePeriodSeconds' default (the API server defaults it; a pod read from a file may lack it). */
export const defaultGraceSeconds = 30;
/** The kubelet's minimumGracePeriodInSeconds: every container gets at least this long after SIGTERM. */
export const minimumGraceSeconds = 2;
export const sandboxName = 'POD';
/** The runtime's --pid-file of a sandbox, in its bundle. */
export const sandboxPidFile = 'sandbox.pid';
/** A sandbox's pinned namespaces, in its bundle. */
export const sandboxNsDir = 'ns';
export const defaultPath = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Start refusals that happen before any container exists; they are retried on their own back-off. */
export const retriedReasons: ReadonlySet<string> = new Set([reasons.errImageNeverPull, reasons.createContainerConfigError, reasons.createContainerError, reasons.invalidImageName]);

/** One container's stop (PodMemory.kills). */
export interface KillState {
  termAt: number;
  killAt: number;
  killed: boolean;
  killTried?: boolean;
  killError?: string;
  /**
   * Its preStop hook while it runs, before SIGTERM: when it started and the grace it had then
   * (SIGTERM goes once it is done or that grace has passed; termAt and killAt mean nothing yet).
   */
  preStop?: { startedAt: number; graceMs: number; done: boolean };
}

/** A stop's grace shortened to `graceSeconds` from `now` (a second delete): SIGKILL and a preStop hook's end no later than it allows. */
export function shortenKill(k: KillState, now: number, graceSeconds: number): void {
  k.killAt = Math.min(k.killAt, now + Math.max(graceSeconds, minimumGraceSeconds) * 1000);
  if (k.preStop) k.preStop.graceMs = Math.min(k.preStop.graceMs, now - k.preStop.startedAt + Math.max(0, graceSeconds) * 1000);
}

/** What a pod's sync remembers between calls (lost on restart, like the kubelet's caches). */
export interface PodMemory {
  /** The kubelet's reasonCache: why the last start of each container failed. */
  failures: Map<string, StartFailure>;
  /** Events already emitted (key: container/attempt/what), so a sync does not repeat them. */
  emitted: Set<string>;
  /**
   * Containers being stopped: when SIGTERM went out and when SIGKILL is due; whether SIGKILL was
   * tried (`killTried`), went out (`killed`), or what the runtime answered when it refused it.
   */
  kills: Map<string, KillState>;
  /** The current stop's start and grace (the pod-level grace the containers share). */
  stopSince?: number;
  stopGraceMs?: number;
  /** The last pull error per image (for the ImagePullBackOff message). */
  pullErrors: Map<string, string>;
  cgroupReady: boolean;
  lastStatus?: PodStatus;
  /** The referenced ConfigMaps and Secrets as this sync fetched them (env and volumes read them). */
  objects?: PodObjects;
  /** Whether the pod's volumes were set up once (a later failure keeps what is there running). */
  volumesReady?: boolean;
  /** Cancels the postStart hooks running now (the kubelet cancels the sync of a pod it stops). */
  postStartAbort?: AbortController;
}

export function newPodMemory(): PodMemory {
  return { failures: new Map(), emitted: new Set(), kills: new Map(), pullErrors: new Map(), cgroupReady: false };
}

/** A pod's instance records as observe() left them, and the runtime view the lifecycle rules read. */
export interface View {
  recs: InstanceRecord[];
  rt: PodRuntime;
}

export type ContainerKind = 'init' | 'sidecar' | 'container' | 'ephemeral';

/** A container's record and overlay root, made while its sandbox starts (see prepareStarts). */
export interface Prepared {
  rec: InstanceRecord;
  img: ImageRecord;
}

export interface StartResult {
  started: boolean;
  /** When this container wants the next sync. */
  retryMs?: number;
}

/** The Node's status.allocatable the worker was given, else the node's capacity (cpu and memory). */
export function nodeAllocatable(w: WorkerContext): Readonly<Record<string, string>> {
  return w.opts.allocatable ?? { cpu: `${w.opts.node.milliCPU}m`, memory: String(w.opts.node.memoryBytes) };
}

export interface WorkerContext {
  readonly opts: PodWorkerOptions;
  readonly runtime: ContainerRuntime;
  /** The runtime handlers a RuntimeClass may name here (opts.handlers' names). */
  readonly runtimeHandlers: ReadonlySet<string>;
  /** Dials ports in the pods' network namespaces (probes, hooks, port-forward). */
  readonly dialer: PodDialer;
  readonly mounts: PodMounts;
  readonly cgroups: CgroupManager;
  readonly podCgroups: PodCgroups;
  readonly records: PodRecords;
  readonly exitDir: string;
  /** Watches of running sandboxes (no monitor announces their end). */
  readonly sandboxExits: ExitWatch;
  readonly restartBackoff: Backoff;
  readonly imageBackoff: Backoff;
  /** Retries of starts refused before any container exists (config errors, ErrImageNeverPull). */
  readonly retryBackoff: Backoff;
  now(): number;
  nowISO(): string;
  /** The sandbox rootfs, made once (sandbox.ts). */
  sandboxRootfs(): Promise<{ rootfs: string; imageID: string }>;
}

export function emit(record: EventSink, pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
  try {
    record(pod, type, reason, message);
  } catch {
    // An event sink failure must not break the pod's lifecycle.
  }
}

export function emitOnce(mem: PodMemory, key: string, record: EventSink, pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
  const k = `${key}\u0000${reason}\u0000${message}`;
  if (mem.emitted.has(k)) return;
  mem.emitted.add(k);
  emit(record, pod, type, reason, message);
}

/** kubelet GeneratePodHostNameAndDomain: spec.hostname or the pod name, at most 63 characters. */
export function podHostname(pod: Pod): string {
  const h = pod.spec.hostname || pod.metadata.name || 'bulkhead';
  return h.length > 63 ? h.slice(0, 63).replace(/[-.]+$/, '') : h;
}

export function specHash(c: Container): string {
  return createHash('sha256').update(JSON.stringify({ image: c.image ?? '' })).digest('hex').slice(0, 16);
}

/** The namespaces a pod shares with the host instead of getting its own. */
export function hostNamespaces(pod: Pod): Set<string> {
  return new Set([...(pod.spec.hostNetwork ? ['network', 'uts'] : []), ...(pod.spec.hostIPC ? ['ipc'] : []), ...(pod.spec.hostPID ? ['pid'] : [])]);
}

export function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
