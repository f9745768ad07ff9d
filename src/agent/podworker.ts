// The node agent's pod lifecycle, kubelet-like, on the runtime pieces: the node plan
// (src/plan/node.ts) decides QoS, the pod cgroup, oom_score_adj, OOM kill mode, cgroup values
// and rlimits; CgroupV1Manager makes the pod cgroup; adaptToHost + ociSpec make each config.json;
// conmon + runc run it; the pure rules of src/agent/lifecycle/ decide what to do and what the
// status says. Everything a restarted agent needs is on disk (podrecords.ts), so a new PodWorker
// over the same directories adopts what the previous one started.
//
// Scope: cgroup v1 with the cgroupfs driver (what this host has; v2 and systemd are refused in
// the constructor rather than run untested), no probes, no lifecycle hooks, emptyDir volumes only,
// no ephemeral containers, no Secrets/ConfigMaps in env. Every container is a runc container under
// conmon; the pod's sandbox is a busybox `sleep` holding the network, IPC and UTS namespaces that
// the containers join. Those namespaces are made and pinned to files first (runtime/nspin.ts,
// which also brings up loopback), so that the sandbox and the pod's first containers are created
// at the same time, each joining the pins. The sandbox runs without conmon, by a bare
// `runc run -d`: its exit code and output matter to no one, and conmon + `runc start` took half
// as long again as that (bench:startup); its end is seen on its cgroup (runtime/exitwatch.ts).
//
// Layout:
//   runc state            <stateDir>/runc
//   cgroup parents made   <stateDir>/created-cgroups.json (only these are ever removed)
//   pod records           <runDir>/pods/<uid>/pod.json, emptyDir volumes in <runDir>/pods/<uid>/volumes/
//   bundles               <runDir>/bundles/<id>/{instance.json,config.json,conmon/,rootfs/,overlay/},
//                         a sandbox's {instance.json,config.json,sandbox.pid,sandbox.log,ns/{network,ipc,uts}}
//   exit codes            <runDir>/exits/<id>  (conmon --exit-dir; watch it to notice exits; an empty
//                         file: a sandbox that ended, code unknown)
//   logs                  <runDir>/logs/<ns>_<pod>_<uid>/<container>/<attempt>.log (kubelet's layout)
//   container id          <pod uid>-<container name>-<attempt>; the sandbox <pod uid>-POD-<attempt>
//   container cgroup      <cgroupRoot><pod cgroup>/<id>

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync, chmodSync, renameSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { FeatureGates } from '../api/featuregates.js';
import type { Container, ContainerStatus, Pod, PodStatus } from '../api/types.js';
import { isSidecar } from '../api/types.js';
import { derivedPodUID, planPodOnNode, type ContainerPlan, type NodeConfig, type PodNodePlan } from '../plan/node.js';
import { containerCgroupLeaf } from '../policy/cgrouplayout.js';
import { CgroupV1Manager } from './cgroups/v1.js';
import { ensureBusyboxImage } from './images/busybox.js';
import { InvalidReferenceError } from './images/reference.js';
import type { ImageRecord, ImageStore } from './images/store.js';
import { computePodActions, type KillRequest, type PodActions } from './lifecycle/actions.js';
import { Backoff, kubeletBackoff, type BackoffConfig } from './lifecycle/backoff.js';
import { podConditions } from './lifecycle/conditions.js';
import { oomKillModeCondition } from '../policy/oomkillmodestatus.js';
import { checkSubPath, ContainerConfigError, containerEnv, processArgs, processEnv, processUser } from './lifecycle/containerconfig.js';
import { initContainerStatuses, kubeTime, regularContainerStatuses, runtimeContainerID, terminatedPodStatuses, type StartFailure } from './lifecycle/containerstatus.js';
import { getPhase, isTerminalPhase, type PodPhase } from './lifecycle/phase.js';
import type { ContainerInstance, PodRuntime } from './lifecycle/runtime.js';
import { messages, reasons } from './lifecycle/wording.js';
import { monitorDir, NotStartedError, processAlive, readExit, startMonitored, which, readPid } from './monitor/conmon.js';
import { PodRecords, type InstanceKind, type InstanceRecord, type PodRecord } from './podrecords.js';
import { ExitWatch } from './runtime/exitwatch.js';
import type { HostProbe } from './runtime/hostprobe.js';
import { adaptToHost, ociSpec, resourcesFromCgroupFiles, serializeSpec, type OciMount, type OciSpec } from './runtime/ocispec.js';
import { pinNamespaces, unpinNamespaces, type PinnedKind } from './runtime/nspin.js';
import { mountOverlay, unmountIfMounted } from './runtime/overlay.js';
import { Runc, RuncError, type RuncState } from './runtime/runc.js';
import { StartSlots } from './startslots.js';

export type EventSink = (pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** The OOM design's metrics; the agent owns prom-client. */
export interface OOMConfigMetrics {
  /** A container's OOM mode applied (seconds from the plan to the container created). */
  configured(mode: 'Single' | 'Group', seconds: number): void;
  /** Container creation refused over its OOM kill mode. */
  configError(): void;
}

export interface PodWorkerOptions {
  /** Absolute cgroup path all pods go below, e.g. '/bulkhead' → /bulkhead/kubepods/... ('/' for the kubelet's layout). */
  cgroupRoot: string;
  /** Persistent state; runc's state directory is <stateDir>/runc. */
  stateDir: string;
  /** Pod records, bundles, logs and exit files. */
  runDir: string;
  node: NodeConfig;
  host: HostProbe;
  gates: FeatureGates;
  /** Where container images come from (nothing is pulled). */
  images: ImageStore;
  metrics?: OOMConfigMetrics;
  now?: () => Date;
  /** CrashLoopBackOff and image pull back-off; default the kubelet's 10 s doubling to 300 s. */
  backoff?: BackoffConfig;
  /** The sandbox's (read-only) rootfs; default: the busybox image of `images`, built from the host's busybox when missing. */
  rootfs?: string;
  /** Root of the v1 hierarchies; default /sys/fs/cgroup. */
  cgroupMountRoot?: string;
  /** conmon/runc binaries; default from PATH. */
  conmon?: string;
  runtime?: string;
  /** How many pods create sandboxes and containers at the same time; default four per CPU (see startslots.ts). */
  parallelStarts?: number;
  /** The node's addresses, primary first: env fieldRefs status.hostIP(s), and a hostNetwork pod's IPs. */
  hostIPs?: string[];
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
  /** The container's v1 memory cgroup directory (absolute). */
  cgroupDir: string;
}

export class PodWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PodWorkerError';
  }
}

/** The kubelet's minimumGracePeriodInSeconds: every container gets at least this long after SIGTERM. */
export const minimumGraceSeconds = 2;
const defaultGraceSeconds = 30;
/** How long one sync waits for stopped containers to exit before it returns (and asks to be called again). */
const syncStopBudgetMs = 500;
const sandboxName = 'POD';
/** runc --pid-file of a sandbox, in its bundle. */
const sandboxPidFile = 'sandbox.pid';
/** A sandbox's pinned namespaces, in its bundle. */
const sandboxNsDir = 'ns';
const defaultPath = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const idRe = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;
/** Start refusals that happen before any container exists; they are retried on their own back-off. */
const retriedReasons: ReadonlySet<string> = new Set([reasons.errImageNeverPull, reasons.createContainerConfigError, reasons.createContainerError, reasons.invalidImageName]);

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

function normRoot(root: string): string {
  if (!root.startsWith('/')) throw new PodWorkerError(`cgroupRoot ${JSON.stringify(root)} must be absolute`);
  return root.replace(/\/+$/, '');
}

/** "/a/b/c" → ["/a", "/a/b", "/a/b/c"]. */
function prefixes(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, i) => '/' + parts.slice(0, i + 1).join('/'));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));


function notExist(e: unknown): boolean {
  return e instanceof RuncError && /does not exist/.test(e.message);
}

/** kubelet GeneratePodHostNameAndDomain: spec.hostname or the pod name, at most 63 characters. */
function podHostname(pod: Pod): string {
  const h = pod.spec.hostname || pod.metadata.name || 'bulkhead';
  return h.length > 63 ? h.slice(0, 63).replace(/[-.]+$/, '') : h;
}

function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const last = image.split('/').pop() ?? '';
  if (last.includes('@')) return 'IfNotPresent';
  const colon = last.lastIndexOf(':');
  return colon < 0 || last.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** What a pod's sync remembers between calls (lost on restart, like the kubelet's caches). */
interface PodMemory {
  /** The kubelet's reasonCache: why the last start of each container failed. */
  failures: Map<string, StartFailure>;
  /** Events already emitted (key: container/attempt/what), so a sync does not repeat them. */
  emitted: Set<string>;
  /** Containers being stopped: when SIGTERM went out and when SIGKILL is due. */
  kills: Map<string, { termAt: number; killAt: number; killed: boolean }>;
  /** The current stop's start and grace (the pod-level grace the containers share). */
  stopSince?: number;
  stopGraceMs?: number;
  /** The last pull error per image (for the ImagePullBackOff message). */
  pullErrors: Map<string, string>;
  cgroupReady: boolean;
  lastStatus?: PodStatus;
}

interface View {
  recs: InstanceRecord[];
  rt: PodRuntime;
}

type ContainerKind = 'init' | 'sidecar' | 'container';

/** A container's record and overlay root, made while its sandbox starts (see prepareStarts). */
interface Prepared {
  rec: InstanceRecord;
  img: ImageRecord;
}

interface StartResult {
  started: boolean;
  /** When this container wants the next sync. */
  retryMs?: number;
}

export class PodWorker {
  readonly runc: Runc;
  readonly exitDir: string;
  readonly records: PodRecords;
  private readonly root: string;
  private readonly cgroups: CgroupV1Manager;
  private readonly memoryMount: string;
  private readonly restartBackoff: Backoff;
  private readonly imageBackoff: Backoff;
  /** Retries of starts refused before any container exists (config errors, ErrImageNeverPull). */
  private readonly retryBackoff: Backoff;
  private readonly pods = new Map<string, PodMemory>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly createdFile: string;
  private readonly created: Set<string>;
  private sandboxRootfsP: Promise<{ rootfs: string; imageID: string }> | undefined;
  private readonly sandboxExits = new ExitWatch();
  private readonly startSlots: StartSlots;
  private readonly clock: () => Date;
  /** conmon's process name (/proc/<pid>/stat comm: the executable's name, at most 15 characters). */
  private readonly conmonComm: string;

  constructor(private readonly opts: PodWorkerOptions) {
    if (opts.node.cgroupVersion !== 1) {
      throw new PodWorkerError('PodWorker runs pods on cgroup v1 only: the cgroup v2 paths (unified resources, memory.events OOM detection, pod cgroups in one tree) are not built or tested on this host');
    }
    if (opts.node.cgroupDriver !== 'cgroupfs') throw new PodWorkerError('PodWorker supports the cgroupfs driver only; the systemd driver is not implemented');
    this.root = normRoot(opts.cgroupRoot);
    this.cgroups = new CgroupV1Manager(opts.cgroupMountRoot ? { root: opts.cgroupMountRoot } : {});
    const mem = opts.host.cgroups.v1.memory;
    if (!mem) throw new PodWorkerError('no cgroup v1 memory hierarchy on this host');
    this.memoryMount = mem;
    this.runc = new Runc({ root: join(opts.stateDir, 'runc'), binary: which(opts.runtime ?? 'runc') ?? opts.runtime ?? 'runc' });
    this.exitDir = join(opts.runDir, 'exits');
    this.records = new PodRecords(opts.runDir);
    this.restartBackoff = new Backoff(opts.backoff ?? kubeletBackoff);
    this.imageBackoff = new Backoff(opts.backoff ?? kubeletBackoff);
    this.retryBackoff = new Backoff(opts.backoff ?? kubeletBackoff);
    this.clock = opts.now ?? (() => new Date());
    this.conmonComm = basename(opts.conmon ?? 'conmon').slice(0, 15);
    this.startSlots = new StartSlots(opts.parallelStarts ?? 4 * availableParallelism());
    this.createdFile = join(opts.stateDir, 'created-cgroups.json');
    this.created = new Set(this.readCreated());
  }

  // -------------------------------------------------------------------------------------------
  // Names and paths

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
    return containerCgroupLeaf(podUID, sandboxName, attempt);
  }

  private logDir(namespace: string, pod: string, uid: string): string {
    return join(this.opts.runDir, 'logs', `${namespace}_${pod}_${uid}`);
  }

  private now(): number {
    return this.clock().getTime();
  }

  private nowISO(): string {
    return this.clock().toISOString();
  }

  /** Every cgroup hierarchy runc may create a container's cgroup in (v1 mounts and, on hybrid hosts, the cgroup2 tree). */
  private hierarchyMounts(): string[] {
    const c = this.opts.host.cgroups;
    return [...new Set([...Object.values(c.v1), ...(c.unified ? [c.unified] : [])])];
  }

  private mem(uid: string): PodMemory {
    let m = this.pods.get(uid);
    if (!m) {
      m = { failures: new Map(), emitted: new Set(), kills: new Map(), pullErrors: new Map(), cgroupReady: false };
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

  private emit(record: EventSink, pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
    try {
      record(pod, type, reason, message);
    } catch {
      // An event sink failure must not break the pod's lifecycle.
    }
  }

  private emitOnce(mem: PodMemory, key: string, record: EventSink, pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const k = `${key}\u0000${reason}\u0000${message}`;
    if (mem.emitted.has(k)) return;
    mem.emitted.add(k);
    this.emit(record, pod, type, reason, message);
  }

  // -------------------------------------------------------------------------------------------
  // Cgroups

  private readCreated(): string[] {
    try {
      const v = JSON.parse(readFileSync(this.createdFile, 'utf8')) as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  /** Persists the set, merged with what the file holds (another worker over the same state may have added entries). */
  private writeCreated(removed: readonly string[] = []): void {
    for (const d of this.readCreated()) if (!removed.includes(d)) this.created.add(d);
    mkdirSync(dirname(this.createdFile), { recursive: true });
    const tmp = `${this.createdFile}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify([...this.created].sort(), null, 2) + '\n');
    renameSync(tmp, this.createdFile);
  }

  /**
   * Makes the pod cgroup with the plan's values. Synchronous on purpose: no other pod's removal
   * can interleave between noting which parents are new and creating them.
   */
  private ensurePodCgroup(rec: PodRecord, plan: PodNodePlan, mem: PodMemory): void {
    if (mem.cgroupReady && existsSync(join(this.memoryMount, rec.cgroupPath))) return;
    // Parents below cgroupRoot that do not exist yet, in every hierarchy (runc makes the pod's
    // directory in hierarchies the manager does not handle, e.g. cpuset, devices, freezer).
    const parents = prefixes(rec.cgroupPath).filter((p) => p.length > this.root.length && p !== rec.cgroupPath);
    let changed = false;
    for (const m of this.hierarchyMounts()) {
      for (const p of parents) {
        const d = join(m, p);
        if (!existsSync(d) && !this.created.has(d)) {
          this.created.add(d);
          changed = true;
        }
      }
    }
    if (changed) this.writeCreated();
    this.cgroups.ensure(rec.cgroupPath, plan.podCgroup.values);
    mem.cgroupReady = true;
  }

  /** rmdir `dir` and everything below it (a cgroup tree: directories only). */
  private removeCgroupTree(dir: string): void {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch (e) {
      if (errno(e) === 'ENOENT') return;
      throw e;
    }
    for (const e of entries) {
      const p = join(dir, e);
      try {
        if (statSync(p).isDirectory()) this.removeCgroupTree(p);
      } catch (err) {
        if (errno(err) !== 'ENOENT') throw err;
      }
    }
    try {
      rmdirSync(dir);
    } catch (e) {
      if (errno(e) !== 'ENOENT') throw new PodWorkerError(`removing cgroup ${dir}: ${errno(e) ?? (e as Error).message}`);
    }
  }

  /** The pod cgroup (always ours) in every hierarchy, then the parents this worker created, when empty. */
  private removePodCgroup(podPath: string): void {
    const removed: string[] = [];
    for (const d of this.readCreated()) this.created.add(d);
    for (const m of this.hierarchyMounts()) {
      this.removeCgroupTree(join(m, podPath));
      for (let d = dirname(join(m, podPath)); this.created.has(d); d = dirname(d)) {
        try {
          rmdirSync(d);
        } catch (e) {
          if (errno(e) === 'EBUSY' || errno(e) === 'ENOTEMPTY') break;
          if (errno(e) !== 'ENOENT') throw e;
        }
        this.created.delete(d);
        removed.push(d);
      }
    }
    this.writeCreated(removed);
  }

  /** The kernel's count of OOM kills in the container's own memory cgroup (v1: not propagated to parents). */
  private oomKills(rec: InstanceRecord): number {
    try {
      const m = /^oom_kill (\d+)$/m.exec(readFileSync(join(this.memoryMount, rec.cgroupsPath, 'memory.oom_control'), 'utf8'));
      return m ? Number(m[1]) : 0;
    } catch {
      return 0;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Observing the runtime

  private async runcState(id: string): Promise<RuncState | undefined> {
    try {
      return await this.runc.state(id);
    } catch (e) {
      if (notExist(e)) return undefined;
      throw e;
    }
  }

  /** `runc list`, retried when a container vanished while runc was listing (it stats each state directory). */
  async runcList(): Promise<RuncState[]> {
    for (let i = 0; ; i++) {
      try {
        return await this.runc.list();
      } catch (e) {
        if (i >= 5 || !(e instanceof RuncError && /no such file or directory/.test(e.message))) throw e;
      }
    }
  }

  private conmonAlive(rec: InstanceRecord): boolean {
    const pid = readPid(join(monitorDir(this.records.bundleDir(rec.id)), 'conmon.pid'));
    return pid !== undefined && processAlive(pid, this.conmonComm);
  }

  /** The sandbox's init is alive, and is still the process runc started (in the sandbox's own cgroup, not a reused pid). */
  private sandboxAlive(rec: InstanceRecord): boolean {
    if (rec.pid === undefined || !processAlive(rec.pid)) return false;
    try {
      return readFileSync(`/proc/${rec.pid}/cgroup`, 'utf8')
        .split('\n')
        .some((l) => l.endsWith(`:${rec.cgroupsPath}`));
    } catch {
      return false;
    }
  }

  /**
   * Announces the end of a running sandbox the way conmon announces a container's: a file named
   * by its id appears in exitDir (which the agent watches). The file is empty, as the exit code
   * is unknown (readExit reads no code from it); observe() then finds the sandbox dead.
   */
  private watchSandbox(rec: InstanceRecord): void {
    const unified = this.opts.host.cgroups.unified;
    this.sandboxExits.add(
      rec.id,
      unified ? join(unified, rec.cgroupsPath, 'cgroup.events') : undefined,
      () => this.sandboxAlive(rec),
      () => {
        // Not for a sandbox that this worker (or another over the same directories) has finished or removed meanwhile.
        if (this.records.readInstance(rec.id)?.state !== 'running') return;
        try {
          writeFileSync(join(this.exitDir, rec.id), '', { flag: 'a' });
        } catch {
          // The next sync (resync, or the pod's containers' own exits) finds it dead all the same.
        }
      },
    );
  }

  /** runc container, overlay mount and bundle contents of an instance, keeping instance.json (and the log). */
  private async cleanupInstance(rec: InstanceRecord): Promise<void> {
    try {
      await this.runc.delete(rec.id, { force: true });
    } catch (e) {
      if (!notExist(e)) throw e;
    }
    const bundle = this.records.bundleDir(rec.id);
    const rootfs = join(bundle, 'rootfs');
    if (rec.overlay) await unmountIfMounted(rootfs);
    // rmdir, never rm -r: if the unmount had not happened this would be the image's files.
    try {
      rmdirSync(rootfs);
    } catch (e) {
      if (errno(e) !== 'ENOENT') throw new PodWorkerError(`removing ${rootfs}: ${errno(e) ?? (e as Error).message}`);
    }
    if (rec.kind === 'sandbox') await unpinNamespaces(join(bundle, sandboxNsDir));
    for (const p of ['overlay', 'conmon', 'config.json', sandboxPidFile]) rmSync(join(bundle, p), { recursive: true, force: true });
    rmSync(join(this.exitDir, rec.id), { force: true });
    this.sandboxExits.delete(rec.id);
  }

  /** Records how an instance ended (exit code, OOM, times), then frees its runtime resources. */
  private async finalize(rec: InstanceRecord, code: number | undefined, mem: PodMemory): Promise<void> {
    const oom = this.oomKills(rec);
    let finishedAt: string | undefined;
    try {
      finishedAt = statSync(join(this.exitDir, rec.id)).mtime.toISOString();
    } catch {
      finishedAt = undefined;
    }
    rec.state = 'exited';
    rec.exitCode = code ?? 137;
    rec.reason = code === undefined ? reasons.containerStatusUnknown : code === 137 && oom > 0 ? reasons.oomKilled : code === 0 ? reasons.completed : reasons.error;
    if (code === undefined) rec.message = messages.statusUnknown;
    rec.finishedAt = finishedAt ?? this.nowISO();
    this.records.writeInstance(rec);
    mem.kills.delete(rec.id);
    await this.cleanupInstance(rec);
  }

  /** Everything of an instance goes (a creation that never finished, or an old attempt). */
  private async discard(rec: InstanceRecord): Promise<void> {
    await this.cleanupInstance(rec);
    await this.removeBundle(rec.id);
    if (rec.kind !== 'sandbox') rmSync(rec.logPath, { force: true });
  }

  /** rm -r of a bundle, after making sure no overlay is still mounted in it (that would be the image's files). */
  private async removeBundle(id: string): Promise<void> {
    const bundle = this.records.bundleDir(id);
    // Nothing can be mounted in a bundle that does not exist (a new instance's, on the hot path).
    if (!existsSync(bundle)) return;
    await unmountIfMounted(join(bundle, 'rootfs'));
    await unpinNamespaces(join(bundle, sandboxNsDir));
    rmSync(bundle, { recursive: true, force: true });
  }

  /**
   * Brings the records up to date with the runtime (an exit noticed is recorded and the
   * container deleted; a creation a crashed agent left behind is adopted or discarded), keeps the
   * two newest instances per container and the newest sandbox, and returns the pod's view.
   * `preparing`: instances this sync is making (see prepareStarts), not yet part of the pod;
   * `startingSandbox`: the sandbox this sync is starting (part of the pod, left as it is).
   */
  private async observe(uid: string, mem: PodMemory, preparing?: ReadonlyMap<string, Prepared>, startingSandbox?: string): Promise<View> {
    const made = new Set([...(preparing?.values() ?? [])].map((p) => p.rec.id));
    for (const r of this.records.listInstances(uid)) {
      if (r.state === 'exited' || made.has(r.id) || r.id === startingSandbox) continue;
      const code = readExit(this.exitDir, r.id);
      if (code !== undefined) {
        await this.finalize(r, code, mem);
        continue;
      }
      if (r.state === 'running') {
        if (r.kind !== 'sandbox') {
          if (this.conmonAlive(r)) continue;
        } else if (this.sandboxAlive(r)) {
          // Adopted from an earlier agent: it needs a watch in this process.
          this.watchSandbox(r);
          continue;
        } else if (r.pid !== undefined) {
          // A sandbox's end needs no runtime state: it is gone, and its exit code matters to no one.
          await this.finalize(r, readExit(this.exitDir, r.id), mem);
          continue;
        }
      }
      // conmon is gone, or a previous agent stopped in the middle of a creation: ask runc.
      const st = await this.runcState(r.id);
      const late = readExit(this.exitDir, r.id);
      if (late !== undefined) {
        await this.finalize(r, late, mem);
        continue;
      }
      if (r.state === 'creating') {
        if (st?.status === 'running' && this.conmonAlive(r)) {
          r.state = 'running';
          r.startedAt ??= st.created;
          r.pid = st.pid;
          this.records.writeInstance(r);
        } else await this.discard(r);
        continue;
      }
      // Running without its monitor: the exit code would be lost. Stop it and call the end unknown.
      if (st && st.status !== 'stopped') {
        await this.runc.kill(r.id, 'KILL').catch(() => undefined);
        for (let i = 0; i < 100; i++) {
          const s = await this.runcState(r.id);
          if (!s || s.status === 'stopped') break;
          await sleep(20);
        }
      }
      await this.finalize(r, readExit(this.exitDir, r.id), mem);
    }

    // Keep what status and logs need: per container the current and the last terminated instance.
    const recs = this.records.listInstances(uid).filter((r) => !made.has(r.id));
    const byName = new Map<string, InstanceRecord[]>();
    for (const r of recs) {
      const k = r.kind === 'sandbox' ? `\u0000${sandboxName}` : r.container;
      byName.set(k, [...(byName.get(k) ?? []), r]);
    }
    const kept: InstanceRecord[] = [];
    for (const [k, list] of byName) {
      list.sort((a, b) => b.attempt - a.attempt);
      const keep = k === `\u0000${sandboxName}` ? 1 : 2;
      for (const [i, r] of list.entries()) {
        if (i < keep || r.state !== 'exited') kept.push(r);
        else await this.discard(r);
      }
    }
    return { recs: kept, rt: this.runtimeView(kept) };
  }

  private runtimeView(recs: InstanceRecord[]): PodRuntime {
    const sandboxes = recs.filter((r) => r.kind === 'sandbox').sort((a, b) => b.attempt - a.attempt);
    const sb = sandboxes[0];
    const rt: PodRuntime = { containers: {} };
    if (sb) rt.sandbox = { ready: sb.state === 'running', attempt: sb.attempt, id: sb.id };
    for (const r of recs) {
      if (r.kind === 'sandbox') continue;
      const inst: ContainerInstance = {
        name: r.container,
        attempt: r.attempt,
        id: r.id,
        state: r.state === 'running' ? 'running' : r.state === 'exited' ? 'exited' : 'created',
        createdAt: r.createdAt,
        image: r.image,
        imageID: r.imageID,
        inCurrentSandbox: sb !== undefined && r.sandboxID === sb.id,
        ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.message ? { message: r.message } : {}),
        ...(r.startedAt ? { startedAt: r.startedAt } : {}),
        ...(r.finishedAt ? { finishedAt: r.finishedAt } : {}),
        ...(r.specHash ? { specHash: r.specHash } : {}),
      };
      (rt.containers[r.container] ??= []).push(inst);
    }
    for (const l of Object.values(rt.containers)) l.sort((a, b) => b.attempt - a.attempt);
    return rt;
  }

  // -------------------------------------------------------------------------------------------
  // Stopping

  /**
   * One step of stopping `targets` (every container and then the sandbox when `all`): SIGTERM in
   * the kubelet's order (regular and init containers together, then sidecars in reverse spec
   * order, each group once the ones before it have exited or the grace is used up), SIGKILL to
   * whatever outlives its grace (at least minimumGraceSeconds after its SIGTERM), the sandbox
   * SIGKILLed once no container is left. Returns whether everything targeted has exited.
   */
  private async stopStep(pod: Pod, view: View, target: { all: true } | { kill: KillRequest[] }, graceSeconds: number, record: EventSink, mem: PodMemory): Promise<{ done: boolean; nextMs: number }> {
    const now = this.now();
    const live = view.recs.filter((r) => r.state !== 'exited');
    const wanted = 'all' in target ? live : live.filter((r) => target.kill.some((k) => k.id === r.id));
    const containers = wanted.filter((r) => r.kind !== 'sandbox');
    const sandbox = 'all' in target ? wanted.filter((r) => r.kind === 'sandbox') : [];
    if (containers.length === 0 && sandbox.length === 0) {
      mem.stopSince = undefined;
      mem.stopGraceMs = undefined;
      return { done: true, nextMs: 0 };
    }
    mem.stopSince ??= now;
    mem.stopGraceMs ??= Math.max(0, graceSeconds) * 1000;
    const deadline = mem.stopSince + mem.stopGraceMs;
    const inits = pod.spec.initContainers ?? [];
    const sidecarIndex = (r: InstanceRecord) => (r.kind === 'sidecar' ? inits.findIndex((c) => c.name === r.container) : -1);
    const groups: InstanceRecord[][] = [
      containers.filter((r) => r.kind !== 'sidecar'),
      ...containers.filter((r) => r.kind === 'sidecar').sort((a, b) => sidecarIndex(b) - sidecarIndex(a)).map((r) => [r]),
    ];
    let nextMs = Number.POSITIVE_INFINITY;
    let earlierAlive = false;
    for (const g of groups) {
      const mayStart = !earlierAlive || now >= deadline;
      for (const r of g) {
        let k = mem.kills.get(r.id);
        if (!k) {
          if (!mayStart) {
            nextMs = Math.min(nextMs, deadline - now);
            continue;
          }
          await this.runc.kill(r.id, 'TERM').catch(() => undefined);
          const msg = 'kill' in target ? target.kill.find((x) => x.id === r.id)?.message : undefined;
          this.emit(record, pod, 'Normal', reasons.killing, msg ?? messages.stopping(r.container));
          k = { termAt: now, killAt: now + Math.max(deadline - now, minimumGraceSeconds * 1000), killed: false };
          mem.kills.set(r.id, k);
        }
        if (!k.killed && now >= k.killAt) {
          await this.runc.kill(r.id, 'KILL').catch(() => undefined);
          k.killed = true;
        }
        nextMs = Math.min(nextMs, k.killed ? 20 : k.killAt - now);
      }
      if (g.length) earlierAlive = true;
    }
    if (containers.length === 0) {
      for (const r of sandbox) {
        if (!mem.kills.has(r.id)) {
          await this.runc.kill(r.id, 'KILL').catch(() => undefined);
          mem.kills.set(r.id, { termAt: now, killAt: now, killed: true });
        }
        nextMs = Math.min(nextMs, 20);
      }
    }
    return { done: false, nextMs: Math.max(1, nextMs) };
  }

  /** Steps stopStep, observing exits, until done or `budgetMs` has passed. */
  private async stopFor(pod: Pod, uid: string, target: { all: true } | { kill: KillRequest[] }, graceSeconds: number, budgetMs: number, record: EventSink, mem: PodMemory): Promise<{ done: boolean; nextMs: number; view: View }> {
    const end = Date.now() + budgetMs;
    for (;;) {
      const view = await this.observe(uid, mem);
      const step = await this.stopStep(pod, view, target, graceSeconds, record, mem);
      if (step.done) return { ...step, view };
      if (Date.now() >= end) return { ...step, view };
      await sleep(Math.max(1, Math.min(10, step.nextMs, end - Date.now())));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Starting

  private sandboxRootfs(): Promise<{ rootfs: string; imageID: string }> {
    if (this.opts.rootfs) return Promise.resolve({ rootfs: this.opts.rootfs, imageID: '' });
    this.sandboxRootfsP ??= ensureBusyboxImage(this.opts.images).then((img) => ({ rootfs: img.rootfs, imageID: img.id }));
    const p = this.sandboxRootfsP;
    p.catch(() => {
      if (this.sandboxRootfsP === p) this.sandboxRootfsP = undefined;
    });
    return p;
  }

  private specHash(c: Container): string {
    return createHash('sha256').update(JSON.stringify({ image: c.image ?? '' })).digest('hex').slice(0, 16);
  }

  /**
   * A new sandbox, in two steps: its namespaces are pinned (runtime/nspin.ts), and this resolves
   * with `running` while its `runc run -d` goes on, so that the pod's first containers are
   * created in the same namespaces at the same time. `running` resolves once the sandbox runs,
   * or has failed (reported, and discarded with its pins).
   */
  private async createSandbox(pod: Pod, podRec: PodRecord, plan: PodNodePlan, attempt: number, record: EventSink, mem: PodMemory): Promise<StartResult & { running?: Promise<StartResult> }> {
    const uid = podRec.uid;
    const id = this.sandboxID(uid, attempt);
    const bundle = this.records.bundleDir(id);
    const leftover = this.records.readInstance(id);
    if (leftover) await this.discard(leftover);
    await this.removeBundle(id);
    const key = `${uid}/${sandboxName}`;
    const gate = this.retryBackoff.remainingSinceUpdate(key, this.now());
    if (gate > 0) return { started: false, retryMs: gate };
    const failed = (e: unknown): StartResult => {
      this.retryBackoff.next(key, this.now(), this.now());
      this.emitOnce(mem, `${sandboxName}/${attempt}`, record, pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${(e as Error).message}`);
      return { started: false, retryMs: this.retryBackoff.get(key) };
    };
    let rec: InstanceRecord | undefined;
    const adapted = adaptToHost({ oomScoreAdj: plan.sandbox.oomScoreAdj, rlimits: [] }, this.opts.host);
    try {
      const { rootfs, imageID } = await this.sandboxRootfs();
      const spec = ociSpec({
        args: ['sleep', '2147483647'],
        env: [defaultPath],
        hostname: podHostname(pod),
        rootfs,
        readonlyRootfs: true,
        cgroupsPath: `${podRec.cgroupPath}/${id}`,
        cgroupVersion: 1,
        oomScoreAdj: adapted.oomScoreAdj,
        rlimits: adapted.rlimits,
        resources: {},
        annotations: this.annotations(podRec, sandboxName, 'sandbox', attempt),
      });
      const drop = new Set([...(pod.spec.hostNetwork ? ['network', 'uts'] : []), ...(pod.spec.hostIPC ? ['ipc'] : []), ...(pod.spec.hostPID ? ['pid'] : [])]);
      // runc refuses a hostname without a UTS namespace of the container's own.
      if (drop.has('uts')) delete (spec as Partial<OciSpec>).hostname;
      rec = {
        id,
        podUID: uid,
        namespace: podRec.namespace,
        pod: podRec.name,
        container: sandboxName,
        kind: 'sandbox',
        attempt,
        image: 'busybox',
        imageID,
        cgroupsPath: `${podRec.cgroupPath}/${id}`,
        logPath: join(bundle, 'sandbox.log'),
        overlay: false,
        state: 'creating',
        createdAt: this.nowISO(),
      };
      // The record first: whatever a crash leaves after it is found and discarded by observe().
      this.records.writeInstance(rec);
      const shared = (['network', 'ipc', 'uts'] as const).filter((k) => !drop.has(k));
      rec.namespaces = await pinNamespaces(join(bundle, sandboxNsDir), shared);
      this.records.writeInstance(rec);
      const pins = rec.namespaces;
      spec.linux.namespaces = spec.linux.namespaces.filter((n) => !drop.has(n.type)).map((n) => (pins[n.type as PinnedKind] ? { type: n.type, path: pins[n.type as PinnedKind] } : n));
      writeFileSync(join(bundle, 'config.json'), serializeSpec(spec));
    } catch (e) {
      if (rec) await this.discard(rec).catch(() => undefined);
      return failed(e);
    }
    const sandbox = rec;
    const running = (async (): Promise<StartResult> => {
      try {
        // No conmon: nobody reads the sandbox's exit code or output, and a bare `runc run -d` is
        // the quickest start there is (a `runc start` of its own would cost as much again as the
        // start inside `run`). Its end is noticed by watchSandbox instead.
        const pidFile = join(bundle, sandboxPidFile);
        await this.runc.runDetached(id, bundle, { pidFile, stdoutPath: sandbox.logPath, stderrPath: sandbox.logPath });
        const pid = readPid(pidFile);
        if (pid === undefined) throw new PodWorkerError(`runc run ${id}: no pid in ${pidFile}`);
        sandbox.state = 'running';
        sandbox.pid = pid;
        sandbox.startedAt = this.nowISO();
        this.records.writeInstance(sandbox);
      } catch (e) {
        await this.discard(sandbox).catch(() => undefined);
        return failed(e);
      }
      this.watchSandbox(sandbox);
      this.retryBackoff.reset(key);
      // As each container's clamp is reported; once per pod, not per re-created sandbox.
      const planned = adapted.adjustments.filter((a) => a.source === 'plan').map((a) => a.message);
      if (planned.length) this.emitOnce(mem, `${sandboxName}/hostAdjusted`, record, pod, 'Warning', reasons.hostAdjusted, messages.sandboxHostAdjusted(planned));
      return { started: true };
    })();
    return { started: true, running };
  }

  private annotations(podRec: PodRecord, container: string, kind: InstanceKind, attempt: number): Record<string, string> {
    return {
      'io.kubernetes.pod.uid': podRec.uid,
      'io.kubernetes.pod.namespace': podRec.namespace,
      'io.kubernetes.pod.name': podRec.name,
      'io.kubernetes.container.name': container,
      'io.bulkhead.container.kind': kind,
      'io.kubernetes.container.restartCount': String(attempt),
    };
  }

  private startOptions(id: string, bundle: string, logPath: string) {
    return {
      id,
      bundle,
      stateDir: this.runc.root,
      exitDir: this.exitDir,
      logPath,
      ...(this.opts.conmon ? { conmon: this.opts.conmon } : {}),
      ...(this.opts.runtime ? { runtime: this.opts.runtime } : {}),
    };
  }

  /** emptyDir volumes (a directory per pod) bind-mounted where the container asks. */
  private volumeMounts(pod: Pod, c: Container, uid: string): OciMount[] {
    const out: OciMount[] = [];
    for (const vm of c.volumeMounts ?? []) {
      const vol = (pod.spec.volumes ?? []).find((v) => v.name === vm.name);
      if (!vol) throw new ContainerConfigError(`volumeMount ${vm.name}: the pod has no volume of that name`);
      if (!('emptyDir' in vol)) throw new ContainerConfigError(`volume ${vm.name}: only emptyDir volumes are supported by Bulkhead's node agent`);
      const dir = join(this.records.podDir(uid), 'volumes', vm.name);
      if (!existsSync(dir)) {
        mkdirSync(dir, { recursive: true });
        chmodSync(dir, 0o777);
      }
      const src = vm.subPath ? join(dir, ...checkSubPath(vm.subPath, vm.name)) : dir;
      mkdirSync(src, { recursive: true });
      out.push({ destination: vm.mountPath, type: 'bind', source: src, options: ['rbind', vm.readOnly ? 'ro' : 'rw'] });
    }
    return out;
  }

  private readImageFile(img: ImageRecord, path: string): string | undefined {
    try {
      return readFileSync(join(img.rootfs, path), 'utf8');
    } catch {
      return undefined;
    }
  }

  private fail(mem: PodMemory, name: string, reason: string, message: string): void {
    mem.failures.set(name, { reason, message });
  }

  /**
   * A container instance's record, written in state 'creating' before anything of it exists on
   * the host (so that a crash leaves something for observe() to discard), after whatever an
   * earlier try of the same id left behind is gone.
   */
  private async newInstance(podRec: PodRecord, c: Container, kind: ContainerKind, cp: ContainerPlan, attempt: number, sandboxID: string, img: ImageRecord): Promise<InstanceRecord> {
    const id = this.containerID(podRec.uid, c.name, attempt);
    const leftover = this.records.readInstance(id);
    if (leftover) await this.discard(leftover);
    await this.removeBundle(id);
    const logPath = join(this.logDir(podRec.namespace, podRec.name, podRec.uid), c.name, `${attempt}.log`);
    rmSync(logPath, { force: true });
    const rec: InstanceRecord = {
      id,
      podUID: podRec.uid,
      namespace: podRec.namespace,
      pod: podRec.name,
      container: c.name,
      kind,
      attempt,
      sandboxID,
      image: c.image ?? '',
      imageID: img.id,
      specHash: this.specHash(c),
      cgroupsPath: `${podRec.cgroupPath}/${id}`,
      logPath,
      overlay: true,
      oomKillMode: cp.oomKillMode,
      ...(cp.oomKillModeEmulated ? { oomKillModeEmulated: true } : {}),
      state: 'creating',
      createdAt: this.nowISO(),
    };
    this.records.writeInstance(rec);
    return rec;
  }

  /** The instance's writable root: an overlay over the image at <bundle>/rootfs. */
  private async mountRoot(rec: InstanceRecord, img: ImageRecord): Promise<void> {
    const bundle = this.records.bundleDir(rec.id);
    await mountOverlay(img.rootfs, join(bundle, 'overlay', 'upper'), join(bundle, 'overlay', 'work'), join(bundle, 'rootfs'));
  }

  /**
   * While a new sandbox starts: the records and overlay roots of the containers that start in it
   * right after (only their namespaces need the sandbox). First starts only, as a restart may be
   * held back by its back-off; a container whose start then goes another way (a refusal, another
   * attempt, a sandbox that failed) has its preparation discarded. Failures here are not
   * reported: startContainer meets them again and reports them.
   */
  private async prepareStarts(pod: Pod, podRec: PodRecord, plan: PodNodePlan, actions: PodActions, view: View, sandboxID: string, mem: PodMemory): Promise<Map<string, Prepared>> {
    const out = new Map<string, Prepared>();
    const inits = pod.spec.initContainers ?? [];
    const wanted: { c: Container; kind: ContainerKind }[] = [
      ...actions.initContainersToStart.map((i) => ({ c: inits[i]!, kind: isSidecar(inits[i]!) ? ('sidecar' as const) : ('init' as const) })),
      ...actions.containersToStart.map((i) => ({ c: pod.spec.containers[i]!, kind: 'container' as const })),
    ];
    await Promise.all(
      wanted.map(async ({ c, kind }) => {
        if (view.rt.containers[c.name]?.length || mem.failures.has(c.name)) return;
        const cp = plan.containers.find((p) => p.name === c.name && p.kind === kind);
        if (!cp || cp.oomKillModeError) return;
        let img: ImageRecord | undefined;
        try {
          img = await this.opts.images.resolve(c.image ?? '');
        } catch {
          return;
        }
        if (!img) return;
        const rec = await this.newInstance(podRec, c, kind, cp, 0, sandboxID, img);
        try {
          await this.mountRoot(rec, img);
        } catch {
          await this.discard(rec);
          return;
        }
        out.set(c.name, { rec, img });
      }),
    );
    return out;
  }

  /**
   * Starts one container of the pod, the kubelet's way: back-off check, image, config, create +
   * start. Never waits for a back-off: reports when it wants to be tried again.
   */
  private async startContainer(pod: Pod, podRec: PodRecord, plan: PodNodePlan, c: Container, kind: ContainerKind, view: View, record: EventSink, mem: PodMemory, planAt: number, prepared?: Map<string, Prepared>, sandboxStarting?: Promise<StartResult>): Promise<StartResult> {
    const uid = podRec.uid;
    const name = c.name;
    const key = `${uid}/${name}`;
    const now = this.now();
    const latest = view.rt.containers[name]?.[0];
    const sandbox = view.recs.find((r) => r.id === view.rt.sandbox?.id);
    // A running sandbox, or one this sync is starting whose namespaces are pinned already: the
    // container is created meanwhile and started once the sandbox runs (never without it).
    const inStartingSandbox = sandbox?.state === 'creating' && sandbox.namespaces !== undefined && sandboxStarting !== undefined;
    if (!sandbox || !(sandbox.state === 'running' ? sandbox.pid : inStartingSandbox)) return { started: false };

    // Starts refused before a container existed are retried on the retry back-off.
    const prevFailure = mem.failures.get(name);
    const retryGate = this.retryBackoff.remainingSinceUpdate(key, now);
    if (retryGate > 0 && prevFailure && retriedReasons.has(prevFailure.reason)) return { started: false, retryMs: retryGate };
    const refuse = (reason: string, message: string): StartResult => {
      this.fail(mem, name, reason, message);
      this.retryBackoff.next(key, now, now);
      return { started: false, retryMs: this.retryBackoff.get(key) };
    };

    // The kubelet's doBackOff: a container that exited waits out its back-off before it restarts.
    if (latest && latest.state === 'exited') {
      const ts = Date.parse(latest.finishedAt ?? latest.createdAt);
      const rem = this.restartBackoff.remainingSince(key, ts, now);
      if (rem > 0) {
        this.fail(mem, name, reasons.crashLoopBackOff, messages.crashLoopWaiting(this.restartBackoff.get(key), name, pod));
        this.emitOnce(mem, `${name}/${latest.attempt}/backoff`, record, pod, 'Warning', reasons.backOff, messages.backOffRestarting(name, pod));
        return { started: false, retryMs: rem };
      }
      this.restartBackoff.next(key, ts, now);
    }
    const attempt = latest ? latest.attempt + 1 : 0;
    const evKey = `${name}/${attempt}`;

    // Image: from the local store only.
    const imageRef = c.image ?? '';
    let img: ImageRecord | undefined;
    try {
      // Resolved a moment ago, while the sandbox started.
      const early = prepared?.get(name);
      img = early && early.rec.image === imageRef ? early.img : await this.opts.images.resolve(imageRef);
    } catch (e) {
      if (!(e instanceof InvalidReferenceError)) throw e;
      const msg = messages.invalidImageName(imageRef, e.message);
      this.emitOnce(mem, evKey, record, pod, 'Warning', reasons.inspectFailed, msg);
      this.emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(reasons.invalidImageName));
      return refuse(reasons.invalidImageName, msg);
    }
    if (!img) {
      if ((c.imagePullPolicy ?? defaultPullPolicy(imageRef)) === 'Never') {
        const msg = messages.imageNeverPull(imageRef);
        this.emitOnce(mem, evKey, record, pod, 'Warning', reasons.errImageNeverPull, msg);
        this.emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(reasons.errImageNeverPull));
        return refuse(reasons.errImageNeverPull, msg);
      }
      const pullKey = `${uid}_${imageRef}`;
      const rem = this.imageBackoff.remainingSinceUpdate(pullKey, now);
      if (rem > 0) {
        const prev = mem.pullErrors.get(imageRef);
        this.fail(mem, name, reasons.imagePullBackOff, prev ? messages.backOffPullingWaiting(imageRef, prev) : messages.backOffPulling(imageRef));
        const round = `${evKey}/pull-${this.imageBackoff.get(pullKey)}`;
        this.emitOnce(mem, round, record, pod, 'Normal', reasons.backOff, messages.backOffPulling(imageRef));
        this.emitOnce(mem, round, record, pod, 'Warning', reasons.failed, messages.error(reasons.imagePullBackOff));
        return { started: false, retryMs: rem };
      }
      const err = messages.imageNotInStore(imageRef);
      this.emit(record, pod, 'Warning', reasons.failed, messages.failedToPull(imageRef, err));
      this.emit(record, pod, 'Warning', reasons.failed, messages.error(reasons.errImagePull));
      this.imageBackoff.next(pullKey, now, now);
      mem.pullErrors.set(imageRef, err);
      this.fail(mem, name, reasons.errImagePull, err);
      return { started: false, retryMs: this.imageBackoff.get(pullKey) };
    }
    this.imageBackoff.reset(`${uid}_${imageRef}`);
    mem.pullErrors.delete(imageRef);
    this.emitOnce(mem, evKey, record, pod, 'Normal', reasons.pulled, messages.imagePresent(imageRef));

    // Config: what the plan refuses (OOM kill mode) and what the spec asks that cannot be done.
    const cp: ContainerPlan | undefined = plan.containers.find((p) => p.name === name && p.kind === kind);
    if (!cp) throw new PodWorkerError(`container ${name}: not in the node plan`);
    let args: string[];
    let env: string[];
    let user;
    let mounts: OciMount[];
    try {
      if (cp.oomKillModeError) {
        this.opts.metrics?.configError();
        throw new ContainerConfigError(cp.oomKillModeError);
      }
      if (pod.spec.shareProcessNamespace) throw new ContainerConfigError('shareProcessNamespace is not supported by Bulkhead\'s node agent');
      const cenv = containerEnv(pod, c, { hostIPs: this.opts.hostIPs ?? [] });
      args = processArgs(c, img.config, cenv);
      env = processEnv([defaultPath, ...img.config.env], podHostname(pod), cenv);
      user = processUser(pod, c, img.config.user, this.readImageFile(img, 'etc/passwd'), this.readImageFile(img, 'etc/group'));
      mounts = this.volumeMounts(pod, c, uid);
    } catch (e) {
      if (!(e instanceof ContainerConfigError)) throw e;
      this.emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(e.message));
      return refuse(e.reason, e.message);
    }

    // Create and start.
    const id = this.containerID(uid, name, attempt);
    const bundle = this.records.bundleDir(id);
    const prep = prepared?.get(name);
    prepared?.delete(name);
    const ready = prep !== undefined && prep.rec.id === id && prep.rec.kind === kind && prep.rec.sandboxID === sandbox.id && prep.img.id === img.id;
    if (prep && !ready) await this.discard(prep.rec);
    const rec = ready ? prep.rec : await this.newInstance(podRec, c, kind, cp, attempt, sandbox.id, img);
    const logPath = rec.logPath;
    const adapted = adaptToHost(cp, this.opts.host);
    let spec: OciSpec;
    try {
      if (!ready) await this.mountRoot(rec, img);
      spec = ociSpec({
        args,
        env,
        cwd: c.workingDir || img.config.workingDir || '/',
        hostname: podHostname(pod),
        rootfs: join(bundle, 'rootfs'),
        readonlyRootfs: c.securityContext?.readOnlyRootFilesystem === true,
        cgroupsPath: rec.cgroupsPath,
        cgroupVersion: 1,
        oomScoreAdj: adapted.oomScoreAdj,
        rlimits: adapted.rlimits,
        resources: resourcesFromCgroupFiles(cp.cgroup, 1),
        annotations: this.annotations(podRec, name, kind, attempt),
      });
    } catch (e) {
      // The runtime side refused (overlay mount, a value runc would reject): CreateContainerError.
      await this.discard(rec);
      const msg = (e as Error).message;
      this.emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(msg));
      return refuse(reasons.createContainerError, msg);
    }
    spec.process.user = user;
    spec.mounts.push(...mounts);
    const nsPath: Record<string, string> = { network: 'net', ipc: 'ipc', uts: 'uts' };
    const drop = new Set([...(pod.spec.hostNetwork ? ['network', 'uts'] : []), ...(pod.spec.hostIPC ? ['ipc'] : []), ...(pod.spec.hostPID ? ['pid'] : [])]);
    spec.linux.namespaces = spec.linux.namespaces
      .filter((n) => !drop.has(n.type))
      .map((n) => (nsPath[n.type] ? { type: n.type, path: sandbox.namespaces?.[n.type as PinnedKind] ?? `/proc/${sandbox.pid}/ns/${nsPath[n.type]}` } : n));
    if (drop.has('uts')) delete (spec as Partial<OciSpec>).hostname;
    writeFileSync(join(bundle, 'config.json'), serializeSpec(spec));

    try {
      const startAfter = inStartingSandbox ? sandboxStarting!.then((r) => r.started) : undefined;
      const s = await startMonitored({ ...this.startOptions(id, bundle, logPath), ...(startAfter ? { startAfter } : {}) });
      rec.state = 'running';
      rec.pid = s.containerPid;
      rec.startedAt = this.nowISO();
      this.records.writeInstance(rec);
    } catch (e) {
      if (e instanceof NotStartedError || (inStartingSandbox && !(await sandboxStarting!).started)) {
        // Its sandbox failed (and says so; its namespaces may have gone while this was being
        // created): as if it had never been created.
        await this.discard(rec);
        return { started: false };
      }
      // The runtime refused it (e.g. no such executable): an attempt that ended before it ran.
      const msg = (e as Error).message;
      rec.state = 'exited';
      rec.exitCode = 128;
      rec.reason = reasons.startError;
      rec.message = msg;
      rec.finishedAt = this.nowISO();
      this.records.writeInstance(rec);
      await this.cleanupInstance(rec);
      this.emit(record, pod, 'Warning', reasons.failed, messages.error(msg));
      this.fail(mem, name, 'RunContainerError', msg);
      // No exit file will announce this one: ask to be called again (the back-off decides when it restarts).
      return { started: false, retryMs: 1 };
    }
    mem.failures.delete(name);
    this.retryBackoff.reset(key);
    // Events of earlier attempts cannot recur.
    for (const k of mem.emitted) {
      const m = /^([^/]+)\/(\d+)\//.exec(k);
      if (m && m[1] === name && Number(m[2]) < attempt - 1) mem.emitted.delete(k);
    }
    this.emit(record, pod, 'Normal', reasons.created, messages.created(name));
    this.emit(record, pod, 'Normal', reasons.started, messages.started(name));
    const planned = adapted.adjustments.filter((a) => a.source === 'plan').map((a) => a.message);
    if (planned.length) this.emit(record, pod, 'Warning', reasons.hostAdjusted, messages.hostAdjusted(planned));
    this.opts.metrics?.configured(cp.oomKillMode, (performance.now() - planAt) / 1000);
    return { started: true };
  }

  // -------------------------------------------------------------------------------------------
  // Status

  /** `podIsTerminal`: the pod is stopped for good (terminated, or already Succeeded/Failed). */
  private buildStatus(pod: Pod, plan: PodNodePlan, podRec: PodRecord, rt: PodRuntime, mem: PodMemory, podIsTerminal: boolean): PodStatus {
    const failures = podIsTerminal ? new Map<string, StartFailure>() : mem.failures;
    let inits = initContainerStatuses(pod, rt, failures);
    let regs = regularContainerStatuses(pod, rt, failures);
    if (podIsTerminal) ({ inits, regs } = terminatedPodStatuses(pod, inits, regs));
    let phase: PodPhase = getPhase(pod.spec, [...regs, ...inits], podIsTerminal);
    const terminal = podRec.terminal ?? (isTerminalPhase(pod.status?.phase) ? pod.status.phase : undefined);
    // Pods do not leave a terminal phase; a pod stopped for good gets one.
    if (terminal) phase = terminal;
    else if (podIsTerminal && !isTerminalPhase(phase)) phase = 'Failed';
    const sandboxReady = rt.sandbox?.ready === true;
    const status: PodStatus = {
      phase,
      conditions: podConditions(pod.spec, [...inits, ...regs], phase, sandboxReady, pod.status?.conditions, kubeTime(this.nowISO()), [oomKillModeCondition(plan.containers)]),
      ...(pod.status?.hostIP ? { hostIP: pod.status.hostIP } : {}),
      ...(pod.status?.podIP ? { podIP: pod.status.podIP } : {}),
      startTime: kubeTime(pod.status?.startTime ?? podRec.startTime),
      ...(inits.length ? { initContainerStatuses: inits } : {}),
      containerStatuses: regs,
      qosClass: plan.qosClass,
    };
    if (pod.status?.phase === phase) {
      if (pod.status.reason) status.reason = pod.status.reason;
      if (pod.status.message) status.message = pod.status.message;
    }
    return status;
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
    };
    this.records.writePod(rec);
    return rec;
  }

  // -------------------------------------------------------------------------------------------
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
      const s = await this.stopFor(pod, uid, { all: true }, grace, syncStopBudgetMs, record, mem);
      if (!s.done) want(s.nextMs);
      view = s.view;
    } else {
      this.ensurePodCgroup(podRec, plan, mem);
      view = await this.observe(uid, mem);
      const inits = pod.spec.initContainers ?? [];
      const rounds = 2 + inits.length + pod.spec.containers.length;
      // One start attempt per container and sync, as the kubelet makes.
      const tried = new Set<string>();
      let prepared: Map<string, Prepared> | undefined;
      let sandboxStarting: Promise<StartResult> | undefined;
      const start = async (c: Container, kind: ContainerKind): Promise<StartResult> => {
        if (tried.has(c.name)) return { started: false };
        const r = await this.startContainer(pod, podRec, plan, c, kind, view, record, mem, planAt, prepared, sandboxStarting);
        if (!r.started) tried.add(c.name);
        return r;
      };
      for (let round = 0; round < rounds; round++) {
        const actions = computePodActions(pod, view.rt, (c) => this.specHash(c));
        if (actions.killPod || actions.containersToKill.length) {
          const s = await this.stopFor(pod, uid, actions.killPod ? { all: true } : { kill: actions.containersToKill }, grace, syncStopBudgetMs, record, mem);
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
              const preparing = this.prepareStarts(pod, podRec, plan, actions, view, sandboxID, mem).catch(() => new Map<string, Prepared>());
              let r: Awaited<ReturnType<PodWorker['createSandbox']>>;
              try {
                r = await this.createSandbox(pod, podRec, plan, actions.sandboxAttempt, record, mem);
              } finally {
                prepared = await preparing;
              }
              want(r.retryMs);
              if (!r.started) return false;
              sandboxStarting = r.running;
              progressed = true;
              // The containers below start in the sandbox's namespaces while its runc runs.
              view = await this.observe(uid, mem, prepared, sandboxID);
            }
            for (const idx of actions.initContainersToStart) {
              const c = inits[idx]!;
              const r = await start(c, isSidecar(c) ? 'sidecar' : 'init');
              want(r.retryMs);
              if (r.started) progressed = true;
              else if (!isSidecar(c)) break;
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
            if (prepared?.size) for (const p of prepared.values()) await this.discard(p.rec);
            prepared = undefined;
          }
        };
        const creates = actions.createSandbox || actions.initContainersToStart.length > 0 || actions.containersToStart.length > 0;
        if (!(creates ? await this.startSlots.run(startRound) : await startRound())) break;
        view = await this.observe(uid, mem);
      }
    }

    const status = this.buildStatus(pod, plan, podRec, view.rt, mem, terminal !== undefined);
    if (!podRec.terminal && isTerminalPhase(status.phase) && view.recs.every((r) => r.state === 'exited')) {
      podRec.terminal = status.phase;
      this.records.writePod(podRec);
    }
    mem.lastStatus = status;
    return nextMs === undefined ? { status } : { status, nextSyncMs: Math.max(1, Math.ceil(nextMs)) };
  }

  /**
   * Graceful termination (kubectl delete, eviction): SIGTERM every container (regular first, then
   * sidecars in reverse order), SIGKILL after the grace (at least minimumGraceSeconds), then the
   * sandbox. Returns the final status: a terminal phase, every container state terminated.
   */
  terminate(pod: Pod, graceSeconds: number, record: EventSink): Promise<PodStatus> {
    return this.lock(this.uid(pod), async () => {
      const plan = this.plan(pod);
      const uid = this.uid(pod);
      const mem = this.mem(uid);
      const podRec = this.ensurePodRecord(pod, plan);
      // A new stop with its own grace; containers already signalled get no more than it allows.
      const now = this.now();
      mem.stopSince = undefined;
      mem.stopGraceMs = undefined;
      for (const k of mem.kills.values()) k.killAt = Math.min(k.killAt, now + Math.max(graceSeconds, minimumGraceSeconds) * 1000);
      const s = await this.stopFor(pod, uid, { all: true }, graceSeconds, Number.POSITIVE_INFINITY, record, mem);
      const status = this.buildStatus(pod, plan, podRec, s.view.rt, mem, true);
      if (isTerminalPhase(status.phase) && podRec.terminal !== status.phase) {
        podRec.terminal = status.phase;
        this.records.writePod(podRec);
      }
      mem.lastStatus = status;
      return status;
    });
  }

  /**
   * Removes everything of a terminated pod: runc containers, bundles, overlay mounts, emptyDir
   * volumes, the pod cgroup in every hierarchy and the parents this worker created (when empty),
   * and its log directory: the agent calls this once the pod is gone from the API, when nobody
   * can ask for its logs any more (the kubelet's container GC removes such pods' log dirs too).
   */
  remove(podUID: string): Promise<void> {
    return this.lock(podUID, async () => {
      const podRec = this.records.readPod(podUID);
      const mem = this.mem(podUID);
      const recs = this.records.listInstances(podUID);
      for (const r of recs) {
        if (r.state === 'exited') continue;
        await this.runc.kill(r.id, 'KILL').catch(() => undefined);
        for (let i = 0; i < 250 && readExit(this.exitDir, r.id) === undefined && this.conmonAlive(r); i++) await sleep(20);
        await this.finalize(r, readExit(this.exitDir, r.id), mem);
      }
      for (const r of recs) await this.discardKeepLog(r);
      // Containers runc knows for this pod but no record names (a crash between runc and the record).
      for (const st of await this.runcList()) {
        if (st.annotations?.['io.kubernetes.pod.uid'] !== podUID) continue;
        await this.runc.kill(st.id, 'KILL').catch(() => undefined);
        await this.runc.delete(st.id, { force: true }).catch((e: unknown) => {
          if (!notExist(e)) throw e;
        });
        await unmountIfMounted(join(this.records.bundleDir(st.id), 'rootfs'));
        await unpinNamespaces(join(this.records.bundleDir(st.id), sandboxNsDir));
      }
      const cgroupPath = podRec?.cgroupPath ?? (recs[0] ? dirname(recs[0].cgroupsPath) : undefined);
      if (cgroupPath) this.removePodCgroup(cgroupPath);
      rmSync(this.records.podDir(podUID), { recursive: true, force: true });
      this.removeLogDirs(podUID);
      this.pods.delete(podUID);
      for (const b of [this.restartBackoff, this.retryBackoff, this.imageBackoff]) b.forget(podUID);
    });
  }

  /** `<ns>_<name>_<uid>` below the logs directory: found by the uid, which no other pod has. */
  private removeLogDirs(podUID: string): void {
    const logs = join(this.opts.runDir, 'logs');
    let names: string[];
    try {
      names = readdirSync(logs);
    } catch (e) {
      if (errno(e) === 'ENOENT') return;
      throw e;
    }
    for (const n of names) if (n.endsWith(`_${podUID}`)) rmSync(join(logs, n), { recursive: true, force: true });
  }

  private async discardKeepLog(rec: InstanceRecord): Promise<void> {
    await this.cleanupInstance(rec);
    await this.removeBundle(rec.id);
  }

  /** Pods with state on this host (records, bundles, runc annotations), for an agent that restarts. */
  async knownPods(): Promise<{ uid: string; namespace: string; name: string }[]> {
    const out = new Map<string, { uid: string; namespace: string; name: string }>();
    for (const p of this.records.listPods()) out.set(p.uid, { uid: p.uid, namespace: p.namespace, name: p.name });
    for (const r of this.records.listInstances()) if (!out.has(r.podUID)) out.set(r.podUID, { uid: r.podUID, namespace: r.namespace, name: r.pod });
    for (const st of await this.runcList()) {
      const a = st.annotations ?? {};
      const uid = a['io.kubernetes.pod.uid'];
      if (uid && !out.has(uid)) out.set(uid, { uid, namespace: a['io.kubernetes.pod.namespace'] ?? '', name: a['io.kubernetes.pod.name'] ?? '' });
    }
    return [...out.values()];
  }

  /** The container whose v1 memory cgroup is `memcgPath` (as /dev/kmsg prints task_memcg=). */
  containerByMemcg(memcgPath: string): MemcgContainer | undefined {
    const id = basename(memcgPath);
    if (!idRe.test(id)) return undefined;
    const rec = this.records.readInstance(id);
    if (!rec || rec.kind === 'sandbox' || rec.cgroupsPath !== memcgPath.replace(/\/+$/, '')) return undefined;
    return {
      podUID: rec.podUID,
      namespace: rec.namespace,
      pod: rec.pod,
      container: rec.container,
      containerID: runtimeContainerID(rec.id),
      oomKillMode: rec.oomKillMode ?? 'Single',
      emulated: rec.oomKillModeEmulated === true,
      cgroupDir: join(this.memoryMount, rec.cgroupsPath),
    };
  }

  /** The pod a container id belongs to (`<id>` as named in exitDir, or `runc://<id>`). */
  podUIDOfContainer(containerID: string): string | undefined {
    const id = containerID.replace(/^runc:\/\//, '');
    if (!idRe.test(id)) return undefined;
    return this.records.readInstance(id)?.podUID;
  }

  /** Whether the container has a running instance on this node. */
  containerRunning(namespace: string, pod: string, container: string): boolean {
    return this.records
      .listPods()
      .filter((p) => p.namespace === namespace && p.name === pod)
      .some((p) => this.records.listInstances(p.uid).some((r) => r.kind !== 'sandbox' && r.container === container && r.state === 'running' && readExit(this.exitDir, r.id) === undefined));
  }

  /** The host pid of the container's init while it runs (`<id>` or `runc://<id>`). */
  async containerPid(containerID: string): Promise<number | undefined> {
    const id = containerID.replace(/^runc:\/\//, '');
    if (!idRe.test(id)) return undefined;
    const rec = this.records.readInstance(id);
    if (!rec || rec.state !== 'running' || readExit(this.exitDir, id) !== undefined) return undefined;
    const st = await this.runcState(id);
    return st && st.status === 'running' ? st.pid : undefined;
  }

  /**
   * The container's current log (or, with `previous`, its last terminated instance's), in
   * conmon's k8s-file format; undefined when there is none. "Current" is what `kubectl logs`
   * shows: the running or terminated instance, or the last terminated one while it waits.
   */
  logPath(namespace: string, pod: string, container: string, previous: boolean): string | undefined {
    const pods = this.records.listPods().filter((p) => p.namespace === namespace && p.name === pod);
    if (!pods.length) return undefined;
    const podRec = pods.sort((a, b) => Number(a.terminal !== undefined) - Number(b.terminal !== undefined) || b.startTime.localeCompare(a.startTime))[0]!;
    const recs = this.records.listInstances(podRec.uid).filter((r) => r.kind !== 'sandbox' && r.container === container).sort((a, b) => b.attempt - a.attempt);
    const st = this.pods.get(podRec.uid)?.lastStatus;
    const cs: ContainerStatus | undefined = st && [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])].find((s) => s.name === container);
    let id: string | undefined;
    if (cs) {
      if (previous) id = cs.lastState?.terminated?.containerID;
      else id = cs.state?.running || cs.state?.terminated ? cs.containerID : cs.lastState?.terminated?.containerID;
      id = id?.replace(/^runc:\/\//, '');
    } else {
      const [cur, prev] = recs;
      id = previous ? (cur?.state === 'exited' ? cur.id : prev?.id) : cur?.id;
    }
    const rec = recs.find((r) => r.id === id);
    return rec && existsSync(rec.logPath) ? rec.logPath : undefined;
  }
}
