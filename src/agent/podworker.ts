// The node agent's pod lifecycle, kubelet-like (pkg/kubelet/kuberuntime/kuberuntime_manager.go
// SyncPod over CRI-O's internal/oci runtime): the node plan (src/plan/node.ts) decides QoS, the
// pod cgroup, oom_score_adj, OOM kill mode, cgroup values and rlimits; the CgroupManager makes
// the pod cgroup (podcgroups.ts); adaptToHost + ociSpec make each config.json; the
// ContainerRuntime (runtime/runtime.ts: runc or crun under conmon, or a fake) runs it; the pure
// rules of src/agent/lifecycle/ decide what to do and what the status says. This class is the
// composition and the sync loop; its parts live in podworker/ (sandbox, start, stop, observe,
// instances, prepare, status, queries). Everything a restarted agent needs is on disk
// (podrecords.ts), so a new PodWorker over the same directories adopts what the previous one started.
//
// Probes: a ProbeManager (podworker/probes.ts) runs startup, liveness and readiness probes on
// timers of their own, outside the pod's lock; the sync reads their results (a liveness or
// startup failure kills and restarts the container, readiness makes it ready).
//
// Lifecycle hooks (podworker/hooks.ts): postStart runs in the start (start.ts), preStop in the
// stop before SIGTERM (stop.ts).
//
// Ephemeral containers (kubectl debug) start once in the running sandbox, in the PID namespace of
// their targetContainerName when they name one, and are never restarted.
//
// Scope: the cgroupfs driver (systemd is refused in the constructor); volumes: emptyDir, hostPath, configMap, secret, downwardAPI and
// projected (podworker/volumes.ts, set up before any start and refreshed on every sync). Every
// container runs under a monitor; the pod's sandbox is a busybox `sleep` holding the network,
// IPC and UTS namespaces that the containers join. Those namespaces are made and pinned to files
// first (PodMounts, runtime/nspin.ts, which also brings up loopback), so that the sandbox and
// the pod's first containers are created at the same time, each joining the pins. The sandbox
// runs without a monitor (ContainerRuntime.runDetached): its exit code and output matter to no
// one, and conmon + a separate start took half as long again as that (bench:startup); its end
// is seen on its cgroup (runtime/exitwatch.ts).
//
// Layout:
//   runtime state         <stateDir>/runc or <stateDir>/crun (each runtime its own: their state formats differ)
//   cgroup parents made   <stateDir>/created-cgroups.json (only these are ever removed)
//   pod records           <runDir>/pods/<uid>/pod.json, emptyDir volumes in <runDir>/pods/<uid>/volumes/
//   bundles               <runDir>/bundles/<id>/{instance.json,config.json,conmon/,rootfs/,overlay/},
//                         a sandbox's {instance.json,config.json,sandbox.pid,sandbox.log,ns/{network,ipc,uts}}
//   exit codes            <runDir>/exits/<id>  (conmon --exit-dir; watch it to notice exits; an empty
//                         file: a sandbox that ended, code unknown)
//   logs                  <runDir>/logs/<ns>_<pod>_<uid>/<container>/<attempt>.log (kubelet's layout)
//   container id          <pod uid>-<container name>-<attempt>; the sandbox <pod uid>-POD-<attempt>
//   container cgroup      <cgroupRoot><pod cgroup>/<id>

import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { Container, Pod, PodStatus, Probe } from '../api/types.js';
import { isSidecar } from '../api/types.js';
import { derivedPodUID, planPodOnNode, type PodNodePlan } from '../plan/node.js';
import { containerCgroupLeaf } from '../policy/cgrouplayout.js';
import type { CgroupManager } from './cgroups/manager.js';
import { computePodActions } from './lifecycle/actions.js';
import { Backoff, kubeletBackoff, volumeManagerBackoff } from './lifecycle/backoff.js';
import { failedMount, failedMountMessage } from './lifecycle/volumes.js';
import { killPodError, runtimeRequestTimeoutMs } from './lifecycle/killresult.js';
import { isTerminalPhase } from './lifecycle/phase.js';
import type { HandlerOutcome } from './lifecycle/probes.js';
import { messages, reasons } from './lifecycle/wording.js';
import { PodCgroups } from './podcgroups.js';
import { PodRecords, type PodRecord } from './podrecords.js';
import { ExitWatch } from './runtime/exitwatch.js';
import { hostMounts } from './runtime/hostmounts.js';
import { HandlerRuntimes } from './runtime/handlers.js';
import { OciRuntime } from './runtime/ociruntime.js';
import { runtimeFlavor } from './runtime/runc.js';
import type { ContainerInput, ContainerRuntime, ExecOptions, ExecProcess, PodMounts, RunningInstance } from './runtime/runtime.js';
import { StartSlots } from './startslots.js';
import { defaultGraceSeconds, emit, emitOnce, newPodMemory, PodWorkerError, sandboxNsDir, shortenKill, sleep, specHash, type ContainerKind, type EventSink, type MemcgContainer, type PodMemory, type PodWorkerOptions, type Prepared, type StartResult, type TerminateOutcome, type View, type WorkerContext } from './podworker/context.js';
import { discard, discardKeepLog, finalize } from './podworker/instances.js';
import { monitorAlive, observe } from './podworker/observe.js';
import { prepareStarts } from './podworker/prepare.js';
import * as queries from './podworker/queries.js';
import { createSandbox, resolveRuntimeHandler, sandboxID, sandboxRootfsOnce } from './podworker/sandbox.js';
import { startContainer } from './podworker/start.js';
import { buildStatus } from './podworker/status.js';
import { stopFor } from './podworker/stop.js';
import { runProbe, type ProbeTarget } from './podworker/prober.js';
import type { PodDialer } from './streaming/netnsdial.js';
import { NetnsDialers } from './streaming/netnsdialer.js';
import { ProbeManager } from './podworker/probes.js';
import { fetchObjects, setUpVolumes } from './podworker/volumes.js';

export { minimumGraceSeconds, PodWorkerError, type EventSink, type MemcgContainer, type OOMConfigMetrics, type ObjectSource, type PodWorkerOptions, type TerminateOutcome } from './podworker/context.js';

/** How long one sync waits for stopped containers to exit before it returns (and asks to be called again). */
const syncStopBudgetMs = 500;

function normRoot(root: string): string {
  if (!root.startsWith('/')) throw new PodWorkerError(`cgroupRoot ${JSON.stringify(root)} must be absolute`);
  return root.replace(/\/+$/, '');
}

export class PodWorker implements WorkerContext {
  readonly runtime: ContainerRuntime;
  readonly runtimeHandlers: ReadonlySet<string>;
  readonly mounts: PodMounts;
  readonly cgroups: CgroupManager;
  readonly podCgroups: PodCgroups;
  readonly exitDir: string;
  readonly records: PodRecords;
  /** Dials ports in the pods' network namespaces: probes, hooks, port-forward. */
  readonly dialer: PodDialer;
  readonly sandboxExits = new ExitWatch();
  readonly restartBackoff: Backoff;
  readonly imageBackoff: Backoff;
  readonly retryBackoff: Backoff;
  /** Volume set-up retries (the volume manager's exponential back-off: 0.5 s doubling to 2m2s). */
  private readonly volumeBackoff: Backoff;
  private readonly root: string;
  private readonly pods = new Map<string, PodMemory>();
  private readonly locks = new Map<string, Promise<unknown>>();
  readonly sandboxRootfs: () => Promise<{ rootfs: string; imageID: string }>;
  private readonly startSlots: StartSlots;
  private readonly clock: () => Date;
  /** The pods' probes: workers on timers of their own, and the results the sync reads. */
  readonly probes: ProbeManager;

  constructor(readonly opts: PodWorkerOptions) {
    if (opts.node.cgroupDriver !== 'cgroupfs') throw new PodWorkerError('PodWorker supports the cgroupfs driver only; the systemd driver is not implemented');
    this.root = normRoot(opts.cgroupRoot);
    this.cgroups = opts.cgroups;
    this.podCgroups = new PodCgroups(opts.cgroups, this.root, opts.stateDir);
    this.exitDir = join(opts.runDir, 'exits');
    this.runtimeHandlers = new Set(Object.keys(opts.handlers ?? {}));
    this.runtime = opts.containerRuntime ?? this.ociRuntimes();
    if (this.runtime.exitDir !== this.exitDir) throw new PodWorkerError(`the container runtime writes exit files to ${this.runtime.exitDir}, the worker reads ${this.exitDir}`);
    this.mounts = opts.mounts ?? hostMounts;
    this.dialer = opts.dialer ?? new NetnsDialers();
    this.records = new PodRecords(opts.runDir);
    this.restartBackoff = new Backoff(opts.backoff ?? kubeletBackoff);
    this.imageBackoff = new Backoff(opts.backoff ?? kubeletBackoff);
    this.retryBackoff = new Backoff(opts.backoff ?? kubeletBackoff);
    this.volumeBackoff = new Backoff(opts.backoff ?? volumeManagerBackoff);
    this.clock = opts.now ?? (() => new Date());
    this.sandboxRootfs = sandboxRootfsOnce(opts.images, opts.rootfs);
    this.startSlots = new StartSlots(opts.parallelStarts ?? 4 * availableParallelism());
    this.probes = new ProbeManager({
      now: () => this.now(),
      status: (uid) => this.pods.get(uid)?.lastStatus,
      target: (uid, c, id) => this.probeTarget(uid, c, id),
      run: (probe, t) => this.runProbe(probe, t),
      ...(opts.probeEvents ? { record: opts.probeEvents } : {}),
      changed: (uid) => opts.probeChanged?.(uid),
    });
  }

  /** Where a running container is probed: its id and bundle (exec) and its pod's network namespace (TCP, HTTP). */
  private probeTarget(uid: string, container: Container, id: string): ProbeTarget | undefined {
    const rec = this.records.readInstance(id);
    if (!rec || rec.state !== 'running' || rec.podUID !== uid) return undefined;
    const netns = queries.podNetnsByUID(this, uid);
    if (!netns) return undefined;
    return { container, id, bundle: this.records.bundleDir(id), netns, dialer: this.dialer };
  }

  private runProbe(probe: Probe, t: ProbeTarget): Promise<HandlerOutcome> {
    return this.opts.probeRunner ? this.opts.probeRunner(probe, t) : runProbe(this.runtime, probe, t);
  }

  /**
   * runc or crun under conmon, each in its own state directory: the default runtime, and when a
   * RuntimeClass handler has another binary, one runtime per handler (runtime/handlers.ts).
   */
  private ociRuntimes(): ContainerRuntime {
    const opts = this.opts;
    const make = (binary: string | undefined) => {
      const stateRoot = join(opts.stateDir, runtimeFlavor(binary));
      const runtime = new OciRuntime({ stateDir: stateRoot, exitDir: this.exitDir, ...(binary ? { binary } : {}), ...(opts.conmon ? { conmon: opts.conmon } : {}) });
      return { runtime, stateRoot };
    };
    const def = make(opts.runtime);
    const byFlavor = new Map([[runtimeFlavor(opts.runtime), def]]);
    const handlers = new Map([['', def]]);
    for (const [handler, binary] of Object.entries(opts.handlers ?? {})) {
      const flavor = runtimeFlavor(binary);
      if (!byFlavor.has(flavor)) byFlavor.set(flavor, make(binary));
      handlers.set(handler, byFlavor.get(flavor)!);
    }
    return byFlavor.size === 1 ? def.runtime : new HandlerRuntimes(handlers, '');
  }

  // -------------------------------------------------------------------------------------------
  // Names, clock and per-pod state

  plan(pod: Pod): PodNodePlan {
    return planPodOnNode(pod, this.opts.node, this.opts.gates);
  }

  uid(pod: Pod): string {
    return pod.metadata.uid ?? derivedPodUID(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
  }

  /** The pod cgroup path below every hierarchy's mount point. */
  podCgroupPath(pod: Pod, plan: PodNodePlan = this.plan(pod)): string {
    return this.root + plan.podCgroup.path;
  }

  containerID(podUID: string, name: string, attempt: number): string {
    return containerCgroupLeaf(podUID, name, attempt);
  }

  sandboxID(podUID: string, attempt: number): string {
    return sandboxID(podUID, attempt);
  }

  now(): number {
    return this.clock().getTime();
  }

  nowISO(): string {
    return this.clock().toISOString();
  }

  private mem(uid: string): PodMemory {
    let m = this.pods.get(uid);
    if (!m) {
      m = newPodMemory();
      this.pods.set(uid, m);
    }
    return m;
  }

  /** Runs `fn` after every earlier call for the same pod has finished. */
  private lock<T>(uid: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(uid) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(uid, tail);
    void tail.then(() => {
      if (this.locks.get(uid) === tail) this.locks.delete(uid);
    });
    return run;
  }

  private ensurePodRecord(pod: Pod, plan: PodNodePlan): PodRecord {
    const uid = this.uid(pod);
    const existing = this.records.readPod(uid);
    if (existing) return existing;
    const rec: PodRecord = {
      uid,
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name ?? '',
      cgroupPath: this.podCgroupPath(pod, plan),
      startTime: pod.status?.startTime ?? this.nowISO(),
      ...(typeof pod.spec.terminationGracePeriodSeconds === 'number' ? { terminationGracePeriodSeconds: pod.spec.terminationGracePeriodSeconds } : {}),
    };
    this.records.writePod(rec);
    return rec;
  }

  private ensurePodCgroup(rec: PodRecord, plan: PodNodePlan, mem: PodMemory): void {
    if (mem.cgroupReady && this.podCgroups.exists(rec.cgroupPath)) return;
    this.podCgroups.ensure(rec.cgroupPath, plan.podCgroup.values);
    mem.cgroupReady = true;
  }

  private status(pod: Pod, plan: PodNodePlan, podRec: PodRecord, view: View, mem: PodMemory, podIsTerminal: boolean): PodStatus {
    const status = buildStatus(pod, plan, podRec, view.rt, mem, podIsTerminal, this.nowISO(), this.probes.view(podRec.uid));
    this.probes.triggerWaiting(podRec.uid, [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]);
    return status;
  }

  // The interface the agent calls

  /**
   * One convergence step for a pod bound to this node: pod cgroup and sandbox if missing, init
   * containers one at a time, sidecars in order without waiting for them to exit, then regular
   * containers; exited containers restarted per restartPolicy with CrashLoopBackOff. Never
   * sleeps for a back-off: nextSyncMs says when it wants to be called again. Safe to call at any
   * time (calls for one pod are serialised).
   */
  sync(pod: Pod, record: EventSink): Promise<{ status: PodStatus; nextSyncMs?: number }> {
    return this.lock(this.uid(pod), () => this.syncLocked(pod, record));
  }

  private async syncLocked(pod: Pod, record: EventSink): Promise<{ status: PodStatus; nextSyncMs?: number }> {
    const planAt = performance.now();
    const plan = this.plan(pod);
    const uid = this.uid(pod);
    const mem = this.mem(uid);
    const podRec = this.ensurePodRecord(pod, plan);
    const terminal = podRec.terminal ?? (isTerminalPhase(pod.status?.phase) ? pod.status.phase : undefined);
    const stopping = terminal !== undefined || !!pod.metadata.deletionTimestamp;
    const grace = pod.spec.terminationGracePeriodSeconds ?? defaultGraceSeconds;
    let nextMs: number | undefined;
    const want = (ms: number | undefined) => {
      if (ms !== undefined && Number.isFinite(ms)) nextMs = nextMs === undefined ? ms : Math.min(nextMs, ms);
    };

    let view: View;
    if (stopping) {
      this.probes.stopLivenessAndStartup(uid, pod);
      const s = await stopFor(this, pod, uid, { all: true }, grace, syncStopBudgetMs, record, mem);
      if (!s.done) want(s.nextMs);
      view = s.view;
    } else {
      this.probes.addPod(uid, pod);
      this.ensurePodCgroup(podRec, plan, mem);
      view = await observe(this, uid, mem);
      const volumes = await this.volumes(pod, uid, record, mem);
      want(volumes.retryMs);
      const inits = pod.spec.initContainers ?? [];
      const ephemerals = pod.spec.ephemeralContainers ?? [];
      const rounds = 2 + inits.length + pod.spec.containers.length + ephemerals.length;
      // One start attempt per container and sync, as the kubelet makes.
      const tried = new Set<string>();
      let prepared: Map<string, Prepared> | undefined;
      let sandboxStarting: Promise<StartResult> | undefined;
      const start = async (c: Container, kind: ContainerKind): Promise<StartResult> => {
        if (tried.has(c.name)) return { started: false };
        const r = await startContainer(this, pod, podRec, plan, c, kind, view, record, mem, planAt, prepared, sandboxStarting);
        if (!r.started) tried.add(c.name);
        return r;
      };
      // WaitForAttachAndMount: nothing is created, restarted or killed until the volumes are there.
      for (let round = 0; volumes.ok && round < rounds; round++) {
        const actions = computePodActions(pod, view.rt, (c) => specHash(c), this.probes.view(uid));
        if (actions.killPod || actions.containersToKill.length) {
          const s = await stopFor(this, pod, uid, actions.killPod ? { all: true } : { kill: actions.containersToKill }, grace, syncStopBudgetMs, record, mem);
          view = s.view;
          if (!s.done) {
            want(s.nextMs);
            break;
          }
          if (actions.killPod && !actions.createSandbox) break;
        }
        // One round's creations, in a start slot: whether anything started.
        const startRound = async (): Promise<boolean> => {
          let progressed = false;
          try {
            if (actions.createSandbox) {
              const sandboxID = this.sandboxID(uid, actions.sandboxAttempt);
              // The handler first: the containers prepared below carry it in their bundles.
              const handler = await resolveRuntimeHandler(this, pod);
              if (typeof handler === 'string' && (podRec.runtimeHandler ?? '') !== handler) {
                if (handler) podRec.runtimeHandler = handler;
                else delete podRec.runtimeHandler;
                this.records.writePod(podRec);
              }
              const preparing =
                handler instanceof Error ? Promise.resolve(new Map<string, Prepared>()) : prepareStarts(this, pod, podRec, plan, actions, view, sandboxID, mem).catch(() => new Map<string, Prepared>());
              let r: Awaited<ReturnType<typeof createSandbox>>;
              try {
                r = await createSandbox(this, pod, podRec, plan, actions.sandboxAttempt, record, mem, handler);
              } finally {
                prepared = await preparing;
              }
              want(r.retryMs);
              if (!r.started) return false;
              sandboxStarting = r.running;
              progressed = true;
              // The containers below start in the sandbox's namespaces while its runc runs.
              view = await observe(this, uid, mem, prepared, sandboxID);
            }
            for (const idx of actions.initContainersToStart) {
              const c = inits[idx]!;
              const r = await start(c, isSidecar(c) ? 'sidecar' : 'init');
              want(r.retryMs);
              if (r.started) progressed = true;
              else if (!isSidecar(c)) break;
            }
            // Ephemeral containers after init containers and before regular ones, as SyncPod starts them.
            for (const idx of actions.ephemeralContainersToStart) {
              const r = await start(ephemerals[idx]!, 'ephemeral');
              want(r.retryMs);
              if (r.started) progressed = true;
            }
            const regular = await Promise.all(actions.containersToStart.map((idx) => start(pod.spec.containers[idx]!, 'container')));
            for (const r of regular) {
              want(r.retryMs);
              if (r.started) progressed = true;
            }
            return progressed;
          } finally {
            // A sandbox that failed has been discarded, and nothing was started in it.
            if (sandboxStarting) want((await sandboxStarting).retryMs);
            sandboxStarting = undefined;
            if (prepared?.size) for (const p of prepared.values()) await discard(this, p.rec);
            prepared = undefined;
          }
        };
        const creates = actions.createSandbox || actions.initContainersToStart.length > 0 || actions.ephemeralContainersToStart.length > 0 || actions.containersToStart.length > 0;
        if (!(creates ? await this.startSlots.run(startRound) : await startRound())) break;
        view = await observe(this, uid, mem);
      }
    }

    const status = this.status(pod, plan, podRec, view, mem, terminal !== undefined);
    if (!podRec.terminal && isTerminalPhase(status.phase) && view.recs.every((r) => r.state === 'exited')) {
      podRec.terminal = status.phase;
      this.records.writePod(podRec);
    }
    mem.lastStatus = status;
    return nextMs === undefined ? { status } : { status, nextSyncMs: Math.max(1, Math.ceil(nextMs)) };
  }

  /**
   * The pod's volumes, and the ConfigMaps and Secrets its env and volumes refer to, fetched anew
   * (so that a changed object's files are rewritten, atomically, on this sync). Before they were
   * first set up, a failure is a FailedMount Warning and a retry on the volume back-off; after,
   * the running pod keeps the files it has (and the event says why they are stale).
   */
  private async volumes(pod: Pod, uid: string, record: EventSink, mem: PodMemory): Promise<{ ok: boolean; retryMs?: number }> {
    const key = `${uid}/volumes`;
    const now = this.now();
    if (!mem.volumesReady) {
      const rem = this.volumeBackoff.remainingSinceUpdate(key, now);
      if (rem > 0) return { ok: false, retryMs: rem };
    }
    let failure: { volume: string; message: string } | undefined;
    try {
      mem.objects = await fetchObjects(this, pod);
      failure = setUpVolumes(this, pod, uid, mem.objects, this.clock());
    } catch {
      // The API could not be asked (not a NotFound): tried again, nothing said yet.
      if (mem.volumesReady) return { ok: true };
      this.volumeBackoff.next(key, now, now);
      return { ok: false, retryMs: this.volumeBackoff.get(key) };
    }
    if (!failure) {
      mem.volumesReady = true;
      this.volumeBackoff.reset(key);
      return { ok: true };
    }
    const message = failedMountMessage(failure.volume, failure.message);
    if (mem.volumesReady) {
      emitOnce(mem, 'volumes', record, pod, 'Warning', failedMount, message);
      return { ok: true };
    }
    emit(record, pod, 'Warning', failedMount, message);
    this.volumeBackoff.next(key, now, now);
    return { ok: false, retryMs: this.volumeBackoff.get(key) };
  }

  /**
   * Graceful termination (kubectl delete, eviction): SIGTERM every container (regular first, then
   * sidecars in reverse order), SIGKILL after the grace (at least minimumGraceSeconds), then the
   * sandbox. Done: the final status, a terminal phase, every container state terminated.
   *
   * Bounded as the kubelet's SyncTerminatingPod is: whatever outlives its SIGKILL by
   * runtimeRequestTimeoutMs (a process in uninterruptible sleep, or in a frozen cgroup v1) ends the
   * attempt with the FailedKillPod Warning and a non-terminal status (the kubelet reports no
   * terminal phase while containers may run), and the pod's lock is free again: its caller tries
   * again later, with this or a shorter grace, until the containers are gone.
   */
  terminate(pod: Pod, graceSeconds: number, record: EventSink): Promise<TerminateOutcome> {
    this.shortenGrace(pod, graceSeconds);
    // A postStart hook holding the pod's lock ends now, as the kubelet cancels a stopping pod's sync.
    const mem = this.pods.get(this.uid(pod));
    mem?.postStartAbort?.abort();
    if (mem) delete mem.postStartAbort;
    return this.lock(this.uid(pod), async () => {
      const plan = this.plan(pod);
      const uid = this.uid(pod);
      const mem = this.mem(uid);
      const podRec = this.ensurePodRecord(pod, plan);
      this.probes.stopLivenessAndStartup(uid, pod);
      // A new stop with its own grace; containers already signalled get no more than it allows.
      const now = this.now();
      mem.stopSince = undefined;
      mem.stopGraceMs = undefined;
      for (const k of mem.kills.values()) shortenKill(k, now, graceSeconds);
      const s = await stopFor(this, pod, uid, { all: true }, graceSeconds, Number.POSITIVE_INFINITY, record, mem, this.opts.runtimeRequestTimeoutMs ?? runtimeRequestTimeoutMs);
      if (s.failures) {
        const error = messages.errorKillingPod(killPodError(s.failures));
        emit(record, pod, 'Warning', reasons.failedKillPod, error);
        const status = this.status(pod, plan, podRec, s.view, mem, false);
        mem.lastStatus = status;
        return { done: false, status, error };
      }
      this.probes.removePod(uid);
      const status = this.status(pod, plan, podRec, s.view, mem, true);
      if (isTerminalPhase(status.phase) && podRec.terminal !== status.phase) {
        podRec.terminal = status.phase;
        this.records.writePod(podRec);
      }
      mem.lastStatus = status;
      return { done: true, status };
    });
  }

  /**
   * A grace for a pod whose stop may be in flight (a second delete with a shorter grace): as the
   * kubelet's pod worker cancels the running sync when the grace is shortened (pod_workers.go
   * UpdatePod), the stop under way takes it at once: containers already signalled get SIGKILL no
   * later than it allows, those still to be signalled share its deadline. Only ever shortens, so
   * it is safe outside the pod's lock; terminate calls it before waiting for the lock.
   */
  shortenGrace(pod: Pod, graceSeconds: number): void {
    const mem = this.pods.get(this.uid(pod));
    if (!mem) return;
    const now = this.now();
    for (const k of mem.kills.values()) shortenKill(k, now, graceSeconds);
    if (mem.stopSince !== undefined && mem.stopGraceMs !== undefined) mem.stopGraceMs = Math.min(mem.stopGraceMs, now - mem.stopSince + Math.max(0, graceSeconds) * 1000);
  }

  /**
   * Removes everything of a terminated pod: runtime containers, bundles, overlay mounts, emptyDir
   * volumes, the pod cgroup in every hierarchy and the parents this worker created (when empty),
   * and its log directory: the agent calls this once the pod is gone from the API, when nobody
   * can ask for its logs any more (the kubelet's container GC removes such pods' log dirs too).
   */
  remove(podUID: string): Promise<void> {
    return this.lock(podUID, async () => {
      this.probes.removePod(podUID);
      const podRec = this.records.readPod(podUID);
      const mem = this.mem(podUID);
      const recs = this.records.listInstances(podUID);
      for (const r of recs) {
        if (r.state === 'exited') continue;
        await this.runtime.kill(r.id, 'KILL').catch(() => undefined);
        for (let i = 0; i < 250 && this.runtime.readExit(r.id) === undefined && monitorAlive(this, r); i++) await sleep(20);
        await finalize(this, r, this.runtime.readExit(r.id), mem);
      }
      for (const r of recs) await discardKeepLog(this, r);
      // Containers the runtime knows for this pod but no record names (a crash between the runtime and the record).
      for (const st of await this.runtime.list()) {
        if (st.annotations?.['io.kubernetes.pod.uid'] !== podUID) continue;
        await this.runtime.kill(st.id, 'KILL').catch(() => undefined);
        await this.runtime.delete(st.id, { force: true });
        await this.mounts.unmountIfMounted(join(this.records.bundleDir(st.id), 'rootfs'));
        await this.mounts.unpinNamespaces(join(this.records.bundleDir(st.id), sandboxNsDir));
      }
      const cgroupPath = podRec?.cgroupPath ?? (recs[0] ? dirname(recs[0].cgroupsPath) : undefined);
      if (cgroupPath) this.podCgroups.remove(cgroupPath);
      rmSync(this.records.podDir(podUID), { recursive: true, force: true });
      queries.removeLogDirs(this, podUID);
      this.pods.delete(podUID);
      for (const b of [this.restartBackoff, this.retryBackoff, this.imageBackoff, this.volumeBackoff]) b.forget(podUID);
      this.opts.objects?.forgetPod?.(podUID);
    });
  }

  /** Ends every probe worker (the agent stops); the next sync of a pod starts its probes again. */
  stopProbes(): void {
    this.probes.removeAll();
  }

  // -------------------------------------------------------------------------------------------
  // What the rest of the agent asks (podworker/queries.ts)

  /** Pods with state on this host (records, bundles, runtime annotations), for an agent that restarts. */
  knownPods(): Promise<{ uid: string; namespace: string; name: string }[]> {
    return queries.knownPods(this);
  }

  /** The container whose memory cgroup is `memcgPath` (as /dev/kmsg prints task_memcg=). */
  containerByMemcg(memcgPath: string): MemcgContainer | undefined {
    return queries.containerByMemcg(this, memcgPath);
  }

  /** The pod a container id belongs to (`<id>` as named in exitDir, or `runc://<id>`). */
  podUIDOfContainer(containerID: string): string | undefined {
    return queries.podUIDOfContainer(this, containerID);
  }

  /** Whether the container has a running instance on this node. */
  containerRunning(namespace: string, pod: string, container: string): boolean {
    return queries.containerRunning(this, namespace, pod, container);
  }

  /** The host pid of the container's init while it runs (`<id>` or `runc://<id>`). */
  containerPid(containerID: string): Promise<number | undefined> {
    return queries.containerPid(this, containerID);
  }

  /** The running instance of a container, for exec and attach. */
  runningInstance(namespace: string, pod: string, container: string): RunningInstance | undefined {
    return queries.runningInstance(this, namespace, pod, container);
  }

  /** The pinned network namespace of the pod's running sandbox ('host' without one), for port-forward. */
  podNetns(namespace: string, pod: string): string | undefined {
    return queries.podNetns(this, namespace, pod);
  }

  /** Runs a command in a running container (kubectl exec). */
  exec(id: string, argv: string[], opts: ExecOptions): ExecProcess {
    return this.runtime.exec(id, argv, { ...opts, bundle: this.records.bundleDir(id) });
  }

  /** An attach session's input to a container started with stdin; undefined when the runtime has none to give. */
  attachInput(id: string): ContainerInput | undefined {
    return this.runtime.attachInput?.(id, this.records.bundleDir(id));
  }

  /** Resizes the terminal of a container started with tty (kubectl attach -t). */
  resizeTerminal(id: string, width: number, height: number): void {
    this.runtime.resizeTerminal?.(id, this.records.bundleDir(id), width, height);
  }

  /** The container's current (or previous) log in conmon's k8s-file format; undefined when there is none. */
  logPath(namespace: string, pod: string, container: string, previous: boolean): string | undefined {
    return queries.logPath(this, (uid) => this.pods.get(uid), namespace, pod, container, previous);
  }
}
