// The node agent: a client of the API server like any other, through the one client every
// controller uses (src/client: a KubeClient, a shared informer, the event recorder; connect.ts
// builds them). It registers its Node (and renews a Lease), watches the pods bound to it (an
// informer over pods with fieldSelector spec.nodeName=<node>, as the kubelet's pod source),
// runs them through the PodWorker, writes their status and events, reports OOM kills from the
// kernel (/dev/kmsg on cgroup v1, each container's memory.events on v2, named from /dev/kmsg
// there too; Group is emulated on v1 when asked and the kernel's own on v2), evicts pods under
// memory pressure, and serves logs and metrics on its endpoint.
//
// Each pod is worked on by one task at a time; a change that arrives meanwhile queues one more
// pass. Container exits are noticed from conmon's exit files (fs.watch on the exit directory),
// so no pod is polled through the runtime more often than every `resyncMs`.

import { existsSync, mkdirSync, watch, type FSWatcher } from 'node:fs';
import type { FeatureGates } from '../api/featuregates.js';
import { stableJSON } from '../api/stablejson.js';
import type { Pod, PodCondition, PodStatus } from '../api/types.js';
import type { NodeConfig } from '../plan/node.js';
import type { CgroupManager } from './cgroups/manager.js';
import { getPodQOS } from '../policy/qos.js';
import { isStatus } from '../client/errors.js';
import type { SharedIndexInformer } from '../client/informer.js';
import type { KubeClient } from '../client/interface.js';
import type { EventRecorder } from '../client/recorder.js';
import { podsRef } from '../client/resources.js';
import { startEndpoint, type LogTarget } from './endpoint.js';
import type { EndpointAuthenticator } from './endpointauth.js';
import type { ContainerInput, ExecOptions, ExecProcess, RunningInstance } from './runtime/runtime.js';
import type { StreamingHost } from './streaming/server.js';
import type { PodDialer } from './streaming/netnsdial.js';
import { AgentMetrics } from './metrics.js';
import { NodeCgroups } from './nodecgroups.js';
import type { NodeFacts, NodeHealth } from './nodeobject.js';
import { OOMReporter } from './oom/reporter.js';
import { startStats, type AgentStats } from './stats/agentstats.js';
import { NodeRegistration } from './registration.js';
import { allocatableEnforcedMessage, nodeRef } from './nodeevents.js';

// The pod worker's own types: one definition of what a sync reports and whom a memcg belongs to.
export type { EventSink, MemcgContainer as MemcgOwner, TerminateOutcome } from './podworker.js';
import type { EventSink, MemcgContainer as MemcgOwner, TerminateOutcome } from './podworker.js';
import { syncErrorBackoffJitter, syncErrorBackoffMs } from './lifecycle/killresult.js';
import { metaTime } from '../api/metatime.js';
import { activeDeadlineMessage, activeDeadlineReason, activeDeadlineRemainingMs, pastActiveDeadline } from '../policy/activedeadline.js';

/** What the agent needs of the pod worker (src/agent/podworker.ts). */
export interface PodRuntime {
  sync(pod: Pod, record: EventSink): Promise<{ status: PodStatus; nextSyncMs?: number }>;
  /** Bounded: not done when containers outlived their SIGKILL (FailedKillPod); the agent tries again after syncErrorBackoffMs. */
  terminate(pod: Pod, graceSeconds: number, record: EventSink): Promise<TerminateOutcome>;
  remove(podUID: string): Promise<void>;
  /** Ends the probes' timers (the agent stops; containers keep running). */
  stopProbes?(): void;
  /** A (possibly shorter) grace for a pod whose stop may be under way: it takes effect at once, never lengthening it. */
  shortenGrace?(pod: Pod, graceSeconds: number): void;
  knownPods(): Promise<{ uid: string; namespace: string; name: string }[]>;
  containerByMemcg(memcgPath: string): MemcgOwner | undefined;
  logPath(namespace: string, pod: string, container: string, previous: boolean): string | undefined;
  /** conmon's exit directory: a file per exited container, named by container ID. */
  readonly exitDir: string;
  /** The pod UID a container ID belongs to. */
  podUIDOfContainer(containerID: string): string | undefined;
  /** Whether the container has a running instance. */
  containerRunning(namespace: string, pod: string, container: string): boolean;
  /** The host pid of a container's init, if it is running. */
  containerPid(containerID: string): Promise<number | undefined>;
  /**
   * The containers (not sandboxes) whose cgroup exists now, with that cgroup's path as the plan
   * writes it (`<pod cgroup>/<id>`). When absent, the agent finds them by listing the pod
   * cgroups below kubepods and asking containerByMemcg of each child.
   */
  runningContainers?(): { owner: MemcgOwner; cgroupPath: string }[];
  /** The pod's cgroup path as the plan writes it; without it the agent serves no stats. */
  podCgroupPath?(pod: Pod): string;
  /** exec, attach and port-forward (streaming/server.ts); a runtime without them refuses those. */
  runningInstance?(namespace: string, pod: string, container: string): RunningInstance | undefined;
  podNetns?(namespace: string, pod: string): string | undefined;
  /** How port-forward dials a pod's port (the pods' long-lived dialers); default a busybox nc per connection. */
  readonly dialer?: PodDialer;
  exec?(id: string, argv: string[], opts: ExecOptions): ExecProcess;
  /** attach's stdin, to a container started with stdin; a runtime without it serves attach without stdin. */
  attachInput?(id: string): ContainerInput | undefined;
  resizeTerminal?(id: string, width: number, height: number): void;
}

/** The eviction manager, as far as the agent uses it (src/agent/eviction). */
export interface PodAdmitter {
  admit(pod: Pod): { admit: true } | { admit: false; reason: string; message: string };
  memoryPressure(): boolean;
  start(): void;
  stop(): void;
}

export interface AgentOptions {
  /** The node's client (identity system:node:<name>): status, deletes, node and lease writes. */
  client: KubeClient;
  /** The pods bound to this node (fieldSelector spec.nodeName=<node>); the agent starts and stops it. */
  pods: SharedIndexInformer<Pod>;
  /** The event recorder, as component `kubelet` on this host; flushed when the agent stops. */
  events: EventRecorder;
  /** The endpoint's serving certificate, the CA of client certificates, and who may call it. */
  endpointSecurity: { tls: { cert: string; key: string; clientCA: string }; auth: EndpointAuthenticator };
  facts: NodeFacts;
  node: NodeConfig;
  gates: FeatureGates;
  runtime: PodRuntime;
  metrics: AgentMetrics;
  /** The node cgroups (kubepods, QoS tiers); undefined leaves them to the runtime. */
  nodeCgroups?: NodeCgroups;
  /** Built once the agent can list its pods (it needs activePods and evict). */
  eviction?: (agent: Agent) => PodAdmitter;
  endpoint: { host: string; port: number };
  /**
   * How long after a termination that did not end its pod (FailedKillPod) it is tried again; default
   * the kubelet's backOffPeriod, 10 s, jittered by up to half again as its pod workers do.
   */
  syncErrorBackoffMs?: number;
  /** Seconds between full resyncs of every pod (kubelet: 60-90 s; container exits are seen at once). */
  resyncMs?: number;
  heartbeatMs?: number;
  /** Watch /dev/kmsg for OOM kills (needs root); on cgroup v2 also each container's memory.events. */
  oomWatcher?: boolean;
  /** The host's cgroups: on v2 the container cgroups' memory.events are watched through it; the stats are read through it. */
  cgroups?: CgroupManager;
  /** The stats housekeeping interval (the kubelet's --housekeeping-interval); default 10 s. */
  statsIntervalMs?: number;
  log?: (msg: string) => void;
}

/** The pod conditions the kubelet owns (kubetypes.PodConditionsByKubelet); others' are kept. */
const kubeletOwnedConditions = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers']);

/** Whether the API's copy shows one of the agent's own conditions with another status than it posted. */
function ownConditionsDiffer(posted: PodStatus, api: PodStatus | undefined): boolean {
  return (posted.conditions ?? []).some((c) => c.type !== 'PodScheduled' && kubeletOwnedConditions.has(c.type) && api?.conditions?.find((a) => a.type === c.type)?.status !== c.status);
}

interface PodEntry {
  uid: string;
  pod: Pod;
  /** Deleted from the API (DELETED event), or an orphan found at start. */
  gone: boolean;
  running: boolean;
  again: boolean;
  timer?: NodeJS.Timeout;
  lastStatus?: string;
  /** The resourceVersion the last status post returned. */
  postedVersion?: string;
  /** Why the pod may not run here: refused at admission, evicted, or past its active deadline (then stopped with its own grace). */
  rejected?: { reason: string; message: string; evicted?: boolean; deadline?: boolean };
  admitted: boolean;
  /** A terminal pod whose containers have been stopped. */
  finished: boolean;
  status?: PodStatus;
}

const terminalPhases = new Set(['Succeeded', 'Failed']);

/** The longest delay setTimeout keeps (a signed 32-bit count of milliseconds). */
const maxTimerMs = 2 ** 31 - 1;

/** The grace a pod being deleted is stopped with. */
function deletionGrace(pod: Pod): number {
  return pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
}

/** Where the agent's lines go unless its owner says otherwise. */
export const agentLog = (m: string): void => void process.stderr.write(`bulkhead agent: ${m}\n`);

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Agent {
  readonly metrics: AgentMetrics;
  readonly events: EventRecorder;
  private readonly pods = new Map<string, PodEntry>();
  private registration?: NodeRegistration;
  private unwatch?: () => void;
  private exitWatcher?: FSWatcher;
  private oom?: OOMReporter;
  private endpoint?: { port: number; close(): Promise<void> };
  private eviction?: PodAdmitter;
  private stats?: AgentStats;
  private resyncTimer?: NodeJS.Timeout;
  private stopped = false;
  private readonly log: (msg: string) => void;

  constructor(private readonly opts: AgentOptions) {
    this.metrics = opts.metrics;
    this.log = opts.log ?? agentLog;
    this.events = opts.events;
  }

  get nodeName(): string {
    return this.opts.facts.name;
  }

  get endpointPort(): number | undefined {
    return this.endpoint?.port;
  }

  // The kubelet's events are core/v1 Events with no action (client-go's legacy recorder).
  private record: EventSink = (pod, type, reason, message) => this.events.record(pod, type, reason, '', message);

  private health(): NodeHealth {
    return { memoryPressure: this.eviction?.memoryPressure() ?? false, diskPressure: false, pidPressure: false, ready: true };
  }

  async start(): Promise<void> {
    const o = this.opts;
    o.nodeCgroups?.ensure();
    this.stats = startStats({ cgroups: o.cgroups, runtime: o.runtime, nodeName: o.facts.name, nodeMemoryBytes: o.facts.memoryBytes, kubepods: o.nodeCgroups?.kubepods, pods: () => this.activePods(), metrics: this.metrics, log: this.log, ...(o.statsIntervalMs !== undefined ? { intervalMs: o.statsIntervalMs } : {}) });
    const ep = await startEndpoint({
      host: o.endpoint.host,
      port: o.endpoint.port,
      tls: o.endpointSecurity.tls,
      auth: o.endpointSecurity.auth,
      logs: (ns, pod, container, previous) => this.logTarget(ns, pod, container, previous),
      metrics: () => this.metrics.render(),
      metricsContentType: this.metrics.contentType,
      ...(this.stats ? { stats: this.stats.endpoint } : {}),
      ...(o.runtime.exec ? { streaming: this.streamingHost(o.runtime) } : {}),
      log: this.log,
    });
    this.endpoint = ep;
    this.registration = new NodeRegistration({
      client: o.client,
      facts: { ...o.facts, endpointPort: ep.port },
      health: () => this.health(),
      periodMs: o.heartbeatMs ?? 10_000,
      log: this.log,
      events: this.events,
    });
    await this.registration.start();
    // enforceNodeAllocatableCgroups' event, once the node's cgroups hold allocatable.
    if (o.nodeCgroups) this.events.record(nodeRef(o.facts.name), 'Normal', 'NodeAllocatableEnforced', '', allocatableEnforcedMessage);
    if (o.eviction) {
      this.eviction = o.eviction(this);
      this.eviction.start();
    }
    if (o.oomWatcher !== false) {
      this.oom = new OOMReporter({
        runtime: o.runtime,
        ...(o.cgroups ? { cgroups: o.cgroups } : {}),
        ...(o.nodeCgroups ? { kubepods: o.nodeCgroups.kubepods } : {}),
        metrics: this.metrics,
        pod: (uid) => this.pods.get(uid)?.pod,
        record: this.record,
        kick: (uid) => this.kick(uid),
        log: this.log,
      });
      this.oom.start();
    }
    mkdirSync(o.runtime.exitDir, { recursive: true });
    this.exitWatcher = watch(o.runtime.exitDir, (_type, file) => {
      if (!file) return;
      const uid = o.runtime.podUIDOfContainer(String(file));
      if (uid) this.kick(uid);
    });
    await this.watchPods();
    this.resyncTimer = setInterval(() => {
      for (const uid of this.pods.keys()) this.kick(uid);
      this.oom?.containersChanged();
    }, o.resyncMs ?? 30_000);
    this.resyncTimer.unref();
  }

  /** Containers started or went outside a finished sync (the pod worker's start hook): the OOM reporter rescans. */
  containersChanged(): void {
    this.oom?.containersChanged();
  }

  /** An event about a pod from outside its sync (the probes' Unhealthy and ProbeWarning). */
  recordEvent(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (this.pods.has(pod.metadata.uid ?? '')) this.record(pod, type, reason, message);
  }

  /** Something the pod's status or actions depend on changed outside a sync (a probe result): sync it. */
  podChanged(uid: string): void {
    this.kick(uid);
  }

  /** A container's cgroup is about to be removed (the pod worker's hook): its OOM counters are read a last time. */
  containerRemoving(containerID: string): void {
    this.oom?.containerRemoving(containerID);
  }

  /** Stops watching and serving; containers keep running (a restarted agent adopts them). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.registration?.stop();
    this.unwatch?.();
    this.opts.pods.stop();
    this.exitWatcher?.close();
    this.oom?.stop();
    this.eviction?.stop();
    this.stats?.stop();
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    for (const e of this.pods.values()) if (e.timer) clearTimeout(e.timer);
    this.opts.runtime.stopProbes?.();
    await Promise.all([...this.pods.values()].filter((e) => e.running).map((e) => this.idleEntry(e)));
    await this.removeNodeCgroupsIfUnused();
    await this.events.flush();
    await this.endpoint?.close();
  }

  /** With no pod left on this host the node cgroups go; with pods they stay for adoption. */
  private async removeNodeCgroupsIfUnused(): Promise<void> {
    const cg = this.opts.nodeCgroups;
    if (!cg) return;
    try {
      // A pod just deleted can still show in the runtime for a moment (its containers' removal
      // finishing); wait briefly for those, never for pods that are still meant to run.
      const leaving = (k: { uid: string }) => {
        const e = this.pods.get(k.uid);
        return !e || e.gone || !!e.pod.metadata.deletionTimestamp;
      };
      let known = await this.opts.runtime.knownPods();
      for (let i = 0; i < 20 && known.length > 0 && known.every(leaving); i++) {
        await new Promise((r) => setTimeout(r, 100));
        known = await this.opts.runtime.knownPods();
      }
      if (known.length > 0) {
        this.log(`node cgroups kept for the ${known.length} pod(s) still on this host: ${known.map((p) => `${p.namespace}/${p.name}`).join(', ')}`);
        return;
      }
      // A cgroup whose last task has just exited can answer EBUSY for a moment: try again briefly.
      let stayed = cg.removeUnused();
      for (let i = 0; i < 10 && stayed.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        stayed = cg.removeUnused();
      }
      if (stayed.length) this.log(`node cgroups still in use, left in place: ${stayed.join(', ')}`);
    } catch (e) {
      this.log(`removing the node cgroups: ${errText(e)}`);
    }
  }

  private async idleEntry(e: PodEntry): Promise<void> {
    while (e.running) await new Promise((r) => setTimeout(r, 10));
  }

  /** Resolves when no pod has work running or queued (tests). */
  async idle(): Promise<void> {
    for (;;) {
      const busy = [...this.pods.values()].filter((e) => e.running || e.again);
      if (!busy.length) return;
      await Promise.all(busy.map((e) => this.idleEntry(e)));
    }
  }

  /** Pods bound here that are admitted and not finished: what eviction ranks. */
  activePods(): Pod[] {
    return [...this.pods.values()].filter((e) => !e.gone && e.admitted && !e.rejected && !e.finished && !e.pod.metadata.deletionTimestamp).map((e) => e.pod);
  }

  /** Writes the Node's status now (a pressure condition changed), not at the next heartbeat. */
  nodeStatusChanged(): void {
    void this.registration?.beat().catch((e: unknown) => this.log(`node status: ${errText(e)}`));
  }

  /** Kills a pod and marks it Failed with the given reason (node-pressure eviction); the event carries `annotations` (AnnotatedEventf). */
  async evict(pod: Pod, reason: string, message: string, annotations: Record<string, string> = {}): Promise<void> {
    const e = this.pods.get(pod.metadata.uid ?? '');
    if (!e) return;
    e.rejected = { reason, message, evicted: true };
    this.events.record(pod, 'Warning', reason, '', message, annotations);
    this.kick(e.uid);
    await this.idleEntry(e);
  }

  // ------------------------------------------------------------------------------------------
  // Watching the pods bound to this node

  /**
   * Hands every change of the informer to the pod's worker, waits for its first list, then takes
   * over what the runtime still runs: a pod it ran that is gone from the API (deleted while the
   * agent was down) is an orphan, stopped and removed; the others are adopted by their next sync.
   */
  private async watchPods(): Promise<void> {
    const pods = this.opts.pods;
    this.unwatch = pods.addEventHandler({
      add: (p) => this.upsert(p),
      update: (old, p) => {
        // A re-list can replace a pod by another of the same name: the old one is gone.
        if (old.metadata.uid !== p.metadata.uid) this.markGone(old);
        this.upsert(p);
      },
      delete: (p) => this.markGone(p),
    });
    await pods.start();
    const seen = new Set(pods.lister.list().map((p) => p.metadata.uid));
    for (const known of await this.opts.runtime.knownPods()) {
      if (seen.has(known.uid) || this.pods.has(known.uid)) continue;
      const orphan: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { uid: known.uid, namespace: known.namespace, name: known.name }, spec: { containers: [], terminationGracePeriodSeconds: 0 } };
      this.pods.set(known.uid, { uid: known.uid, pod: orphan, gone: true, running: false, again: false, admitted: true, finished: false });
      this.kick(known.uid);
    }
  }

  /** The pod is gone from the API: its entry keeps the newest copy it has (with the status it wrote) for the stop. */
  private markGone(p: Pod): void {
    const e = this.pods.get(p.metadata.uid ?? '');
    if (!e) return;
    e.gone = true;
    this.kick(e.uid);
  }

  private upsert(p: Pod): void {
    const uid = p.metadata.uid!;
    const e = this.pods.get(uid);
    if (e) {
      // Another writer changed a condition this agent reports (the node lifecycle controller
      // marks pods not Ready while the node is unreachable): post ours again, as the kubelet's
      // status manager reconciles with what the API holds.
      // Only a copy newer than the one the last post returned counts (an event from before it may still be on its way).
      if (e.lastStatus !== undefined && e.status && Number(p.metadata.resourceVersion) > Number(e.postedVersion ?? 0) && ownConditionsDiffer(e.status, p.status)) e.lastStatus = undefined;
      e.pod = p;
      if (e.gone) return;
      // A second delete with a shorter grace reaches the stop in flight (the kubelet cancels the
      // running sync for it), rather than waiting for it to end.
      if (e.running && p.metadata.deletionTimestamp) this.opts.runtime.shortenGrace?.(p, deletionGrace(p));
    } else {
      this.pods.set(uid, { uid, pod: p, gone: false, running: false, again: false, admitted: false, finished: false });
    }
    this.kick(uid);
  }

  private kick(uid: string): void {
    const e = this.pods.get(uid);
    if (!e || this.stopped) return;
    if (e.running) {
      e.again = true;
      return;
    }
    if (e.timer) {
      clearTimeout(e.timer);
      e.timer = undefined;
    }
    e.running = true;
    void (async () => {
      try {
        do {
          e.again = false;
          await this.work(e);
          // A sync may have started or removed containers: their memory.events are (un)watched.
          this.oom?.containersChanged();
        } while (e.again && !this.stopped);
      } catch (err) {
        this.log(`pod ${e.pod.metadata.namespace}/${e.pod.metadata.name}: ${errText(err)}`);
        if (!this.stopped && this.pods.has(uid)) e.timer = setTimeout(() => this.kick(uid), 2000);
      } finally {
        e.running = false;
      }
    })();
  }

  // ------------------------------------------------------------------------------------------
  // One pass over one pod

  private async work(e: PodEntry): Promise<void> {
    const rt = this.opts.runtime;
    const pod = e.pod;
    if (e.gone) {
      const out = await rt.terminate(pod, 0, this.record);
      if (!out.done) return this.retryTermination(e, out.error);
      await rt.remove(e.uid);
      this.forget(e);
      return;
    }
    if (pod.metadata.deletionTimestamp) {
      const out = await rt.terminate(pod, deletionGrace(pod), this.record);
      await this.writeStatus(e, out.status);
      if (!out.done) return this.retryTermination(e, out.error);
      try {
        await this.opts.client.delete(podsRef, pod.metadata.namespace ?? 'default', pod.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: e.uid } });
      } catch (err) {
        if (!isStatus(err, 404, 409)) throw err;
      }
      await rt.remove(e.uid);
      this.forget(e);
      return;
    }
    if (!e.admitted) {
      const verdict = this.eviction?.admit(pod) ?? { admit: true as const };
      if (!verdict.admit) e.rejected = { reason: verdict.reason, message: verdict.message };
      e.admitted = true;
      this.updateTiers();
    }
    // The kubelet's activeDeadlineHandler: spec.activeDeadlineSeconds after its start the pod is
    // Failed (DeadlineExceeded, with a Normal event), and its containers are stopped with its grace.
    if (!e.rejected && !terminalPhases.has(pod.status?.phase ?? '') && pastActiveDeadline(pod, e.status?.startTime ?? pod.status?.startTime, Date.now())) {
      e.rejected = { reason: activeDeadlineReason, message: activeDeadlineMessage, deadline: true };
      this.record(pod, 'Normal', activeDeadlineReason, activeDeadlineMessage);
    }
    if (e.rejected) {
      if (e.finished) return;
      // A hard-threshold eviction gives the pod 1 s, as the kubelet does; a refused admission has
      // nothing running; a pod past its deadline has its own grace.
      const grace = e.rejected.evicted ? 1 : e.rejected.deadline ? (pod.spec.terminationGracePeriodSeconds ?? 30) : 0;
      const out = await rt.terminate(pod, grace, this.record);
      const status = out.status;
      const conditions = [...(status.conditions ?? [])];
      if (e.rejected.evicted) {
        conditions.push({ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: metaTime(new Date()), reason: 'TerminationByKubelet', message: e.rejected.message });
      }
      // The kubelet's status manager (mergePodStatus) holds a terminal phase back while containers may still run.
      if (!out.done) {
        await this.writeStatus(e, { ...status, conditions });
        return this.retryTermination(e, out.error);
      }
      await this.writeStatus(e, { ...status, conditions, phase: 'Failed', reason: e.rejected.reason, message: e.rejected.message });
      e.finished = true;
      this.updateTiers();
      return;
    }
    if (terminalPhases.has(pod.status?.phase ?? '') || terminalPhases.has(e.status?.phase ?? '')) {
      if (e.finished) return;
      // A finished pod keeps its (exited) containers for logs until it is deleted; sidecars stop.
      const out = await rt.terminate(pod, pod.spec.terminationGracePeriodSeconds ?? 30, this.record);
      if (!out.done) return this.retryTermination(e, out.error);
      if (!terminalPhases.has(pod.status?.phase ?? '')) await this.writeStatus(e, out.status);
      e.finished = true;
      this.updateTiers();
      return;
    }
    // The sync's events are written after its status: both go to the same server, and a pod's
    // Running is what its owner waits for, not its Created and Started events.
    const held: Parameters<EventSink>[] = [];
    let nextSyncMs: number | undefined;
    try {
      const r = await rt.sync(pod, (...ev) => void held.push(ev));
      nextSyncMs = r.nextSyncMs;
      await this.writeStatus(e, r.status);
    } finally {
      for (const ev of held) this.record(...ev);
    }
    // Back at the pod's active deadline, if it comes before what the sync asked for.
    const deadlineMs = activeDeadlineRemainingMs(pod, e.status?.startTime ?? pod.status?.startTime, Date.now());
    if (deadlineMs !== undefined) nextSyncMs = Math.min(nextSyncMs ?? Number.POSITIVE_INFINITY, Math.max(0, deadlineMs));
    if (nextSyncMs !== undefined && !this.stopped) {
      if (e.timer) clearTimeout(e.timer);
      // Past 2^31-1 ms setTimeout fires at once: a longer wait is a sync at that bound, which asks again.
      e.timer = setTimeout(() => this.kick(e.uid), Math.min(maxTimerMs, Math.max(10, nextSyncMs)));
    }
  }

  /**
   * A termination gave up (containers outlived their SIGKILL; the runtime recorded FailedKillPod):
   * the pod stays as it is and is tried again after the back-off, as the kubelet's pod worker
   * requeues a SyncTerminatingPod that returned an error (pod_workers.go completeWork:
   * wait.Jitter(backOffPeriod, 0.5)). An exit seen meanwhile kicks it sooner.
   */
  private retryTermination(e: PodEntry, error: string): void {
    const base = this.opts.syncErrorBackoffMs ?? syncErrorBackoffMs;
    const ms = Math.round(base * (1 + Math.random() * syncErrorBackoffJitter));
    this.log(`pod ${e.pod.metadata.namespace}/${e.pod.metadata.name}: ${error}; trying again in ${ms} ms`);
    if (this.stopped || !this.pods.has(e.uid)) return;
    if (e.timer) clearTimeout(e.timer);
    e.timer = setTimeout(() => this.kick(e.uid), ms);
  }

  /** The pod is done with here: its entry, its tier share and the events remembered about it go. */
  private forget(e: PodEntry): void {
    this.pods.delete(e.uid);
    this.events.forget(e.uid);
    this.updateTiers();
  }

  private updateTiers(): void {
    try {
      this.opts.nodeCgroups?.updateTiers(this.activePods());
    } catch (err) {
      this.log(`QoS tier cgroups: ${errText(err)}`);
    }
  }

  /** The status the API should show: the runtime's, plus what only the agent knows. */
  private fullStatus(pod: Pod, s: PodStatus): PodStatus {
    const ip = this.opts.facts.internalIP;
    const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    // The kubelet's status manager (mergePodStatus) keeps the conditions others own, e.g. the
    // DisruptionTarget the taint eviction controller or a preempting scheduler set, ahead of its
    // own; its own DisruptionTarget (an eviction here) replaces theirs.
    const own = (s.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    const others = (pod.status?.conditions ?? []).filter((c) => !kubeletOwnedConditions.has(c.type) && !own.some((o) => o.type === c.type));
    const conditions: PodCondition[] = [...others, ...own];
    if (scheduled) {
      // PodScheduled last, as the kubelet's generateAPIPodStatus appends it after ContainersReady.
      // Its lastProbeTime null as in the agent's own conditions: the scheduler's copy has the null,
      // the copy this node's merge patch gets back has not, and the two must compare equal, or
      // every pod would get a second, identical status write.
      conditions.push({ ...scheduled, lastProbeTime: scheduled.lastProbeTime ?? null });
    }
    return {
      ...s,
      conditions,
      hostIP: ip,
      hostIPs: [{ ip }],
      // The kubelet gives a hostNetwork pod its node's addresses; other pods have none here.
      ...(pod.spec.hostNetwork ? { podIP: ip, podIPs: [{ ip }] } : {}),
      qosClass: s.qosClass ?? pod.status?.qosClass ?? getPodQOS(pod, this.opts.gates),
    };
  }

  private async writeStatus(e: PodEntry, s: PodStatus): Promise<void> {
    const status = this.fullStatus(e.pod, s);
    e.status = status;
    const text = stableJSON(status);
    if (text === e.lastStatus) return;
    try {
      const patch = { metadata: { uid: e.uid }, status: { ...status, conditions: status.conditions ?? null, initContainerStatuses: status.initContainerStatuses ?? null, containerStatuses: status.containerStatuses ?? null, ephemeralContainerStatuses: status.ephemeralContainerStatuses ?? null } };
      const updated = await this.opts.client.patch<Pod>(podsRef, e.pod.metadata.namespace ?? 'default', e.pod.metadata.name ?? '', 'application/merge-patch+json', patch, { subresource: 'status' });
      e.lastStatus = text;
      e.postedVersion = updated?.metadata?.resourceVersion;
      if (updated?.metadata?.uid === e.uid) e.pod = { ...e.pod, status: updated.status };
    } catch (err) {
      if (isStatus(err, 404)) return;
      throw err;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Logs

  private findPod(namespace: string, name: string): PodEntry | undefined {
    for (const e of this.pods.values()) if (e.pod.metadata.namespace === namespace && e.pod.metadata.name === name) return e;
    return undefined;
  }

  private streamingHost(rt: PodRuntime): StreamingHost {
    return {
      podKnown: (ns, pod) => this.findPod(ns, pod) !== undefined,
      runningInstance: (ns, pod, c) => rt.runningInstance?.(ns, pod, c),
      podNetns: (ns, pod) => rt.podNetns?.(ns, pod),
      ...(rt.dialer ? { dialer: rt.dialer } : {}),
      exec: (id, argv, opts) => rt.exec!(id, argv, opts),
      attachInput: (id) => rt.attachInput?.(id),
      resizeTerminal: (id, w, h) => rt.resizeTerminal?.(id, w, h),
      log: this.log,
    };
  }

  private logTarget(namespace: string, pod: string, container: string, previous: boolean): LogTarget {
    const rt = this.opts.runtime;
    const path = rt.logPath(namespace, pod, container, previous);
    const running = () => rt.containerRunning(namespace, pod, container);
    if (path && existsSync(path)) return { path, running };
    if (previous) return { missing: `previous terminated container "${container}" in pod "${pod}" not found`, running };
    const e = this.findPod(namespace, pod);
    const cs = [...(e?.status?.initContainerStatuses ?? []), ...(e?.status?.containerStatuses ?? []), ...(e?.status?.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
    const reason = cs?.state?.waiting?.reason ?? 'ContainerCreating';
    return { missing: `container "${container}" in pod "${pod}" is waiting to start: ${reason}`, running };
  }
}
