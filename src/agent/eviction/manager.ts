// The node agent's eviction manager for memory pressure on cgroup v1 and v2 (the kubelet's
// pkg/kubelet/eviction managerImpl, memory signals only; memcg.ts reads the version's files). Every pass reads the node memcg,
// derives memory.available (and allocatableMemory.available when that memcg has a limit),
// keeps MemoryPressure for the transition period after the last met threshold, and, while a
// threshold is met, evicts at most one pod: the first non-critical pod in the memory-pressure
// ranking. After an eviction the next pass waits until the pod has left the active pods (the
// kubelet's waitForPodsCleanup), then runs at once; otherwise passes are intervalMs apart.
//
// Fast path: cgroup v1 usage-threshold eventfds fire at once, but Node cannot create an eventfd
// (reference/linux-host.md §5.3), so memory.usage_in_bytes (v2: memory.current) of the node
// memcg is polled every fastPollMs instead. The trigger is the kubelet's memcg notifier threshold
// (capacity − threshold + inactive_file, from the last pass); crossing it upward wakes the loop.
// Signals without an observation here (nodefs, imagefs, pid) are never met, as upstream skips
// a threshold it has no observation for.

import type { FeatureGates } from '../../api/featuregates.js';
import type { CgroupVersion } from '../../policy/cgroupvalues.js';
import type { Pod } from '../../api/types.js';
import {
  conditionsWithinTransition,
  evictedReason,
  evictionCandidates,
  evictionAnnotations,
  evictionMessage,
  memoryObservation,
  nodeConditionsOf,
  rankForMemoryPressure,
  thresholdAsQuantity,
  thresholdQuantity,
  thresholdsMet,
  thresholdToReclaim,
  type ContainerUsage,
  type EvictionSignal,
  type PressureCondition,
  type SignalObservation,
  type Threshold,
} from '../../policy/eviction.js';
import { admitUnderPressure, type AdmitResult } from './admission.js';
import {
  containerMemcgDir,
  listCgroupDirSync,
  readCgroupFileSync,
  readMemcg,
  readMemcgOrThrow,
  readUsage,
  type ListCgroupDir,
  type MemcgMemory,
  type ReadCgroupFile,
} from './memcg.js';

export const defaultPressureTransitionMs = 5 * 60 * 1000;
export const defaultEvictionIntervalMs = 10 * 1000;
export const defaultFastPollMs = 200;
/** The kubelet's podCleanupTimeout. */
export const defaultPodCleanupTimeoutMs = 30 * 1000;

const observableSignals: readonly EvictionSignal[] = ['memory.available', 'allocatableMemory.available'];

export interface EvictionManagerOptions {
  /** Node memory: the declared --node-memory or the host's. */
  capacityBytes: bigint;
  /** Parsed --eviction-hard. Soft thresholds (grace periods) are not supported. */
  thresholds: Threshold[];
  /** --eviction-pressure-transition-period; default 5 min. */
  pressureTransitionMs?: number;
  /** Housekeeping period; default 10 s (the kubelet's evictionMonitoringPeriod). */
  intervalMs?: number;
  /** Period of the node memcg usage poll that wakes the loop early; 0 turns it off. Default 200 ms. */
  fastPollMs?: number;
  /** How long a pass after an eviction waits for the pod to leave activePods(); default 30 s. */
  podCleanupTimeoutMs?: number;
  /** Memory cgroup holding every pod (v1 e.g. /sys/fs/cgroup/memory/bulkhead/kubepods, v2 /sys/fs/cgroup/bulkhead/kubepods), or the root memcg for a whole host. */
  nodeMemcgDir: string;
  /** Which files the memory cgroups have (memcg.ts); default 1. */
  cgroupVersion?: CgroupVersion;
  /** Pods bound to this node that are running. */
  activePods: () => Pod[];
  /** Where to read a pod's usage; undefined: the pod has no stats (ranked first, as upstream). */
  podMemcgDir: (pod: Pod) => string | undefined;
  /**
   * A container's memcg for the message's per-container sentences; default: its newest attempt
   * below the pod memcg, named as the pod worker names it (memcg.ts containerMemcgDir).
   */
  containerMemcgDir?: (pod: Pod, containerName: string) => string | undefined;
  /**
   * Kills the pod and writes its status: phase Failed, reason Evicted, the message, and a
   * DisruptionTarget condition (reason TerminationByKubelet). The kubelet gives a pod evicted
   * for a hard threshold a 1 s grace period. The next pass waits for this promise.
   */
  evict: (pod: Pod, reason: 'Evicted', message: string, annotations: Record<string, string>) => Promise<void>;
  onPressureChange?: (memoryPressure: boolean) => void;
  /** A pod was evicted for this signal (the kubelet's kubelet_evictions counter). */
  onEviction?: (signal: EvictionSignal) => void;
  gates: FeatureGates;
  now?: () => number;
  /** Reads a cgroup file (tests feed text); default fs.readFileSync. */
  readCgroupFile?: ReadCgroupFile;
  /** Lists a cgroup directory (tests feed names); default fs.readdirSync. */
  listCgroupDir?: ListCgroupDir;
  /** Default: console.error. */
  log?: (line: string) => void;
}

export interface SyncResult {
  observations: ReadonlyMap<EvictionSignal, SignalObservation>;
  /** Thresholds met in this pass. */
  met: Threshold[];
  /** The pod this pass evicted (or tried to: a failed evict counts, as upstream). */
  evicted?: Pod;
}

function podKey(p: Pod): string {
  return p.metadata.uid ?? `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
}

function podName(p: Pod): string {
  return `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
}

function formatThreshold(t: Threshold): string {
  return `${t.signal}<${t.quantity ? t.quantity.toString() : `${Math.round((t.percentage ?? 0) * 1e6) / 1e4}%`}`;
}

export class EvictionManager {
  private readonly read: ReadCgroupFile;
  private readonly list: ListCgroupDir;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly transitionMs: number;
  private readonly intervalMs: number;
  private readonly fastPollMs: number;
  private readonly cleanupTimeoutMs: number;
  private readonly version: CgroupVersion;

  private conditions: PressureCondition[] = [];
  private lastObservedAt = new Map<PressureCondition, number>();
  private lastObservations: ReadonlyMap<EvictionSignal, SignalObservation> = new Map();
  /** Pods this manager evicted that are still among the active pods: never candidates twice. */
  private readonly evicted = new Map<string, Pod>();

  private running: Promise<SyncResult> | undefined;
  private queued: Promise<SyncResult> | undefined;

  private started = false;
  private stopped = false;
  /** A loop from before a stop() may still be finishing its pass; start() then reuses it. */
  private loopRunning = false;
  private sleepTimer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private fastTimer: NodeJS.Timeout | undefined;
  private waitingForCleanup = false;
  /** The loop is in its interval sleep (the only sleep the usage poll may cut short). */
  private idle = false;
  /** The poll saw a crossing while a pass or a cleanup wait was under way: skip the next interval sleep. */
  private wakeRequested = false;
  /** Node memcg usage at which a memory threshold would be met (from the last pass). */
  private usageTrigger: bigint | undefined;
  private lastPolledUsage: bigint | undefined;
  private noPodsLogged = false;
  /** `<pod key>/<container>` whose memcg could not be read, logged once while the pod is active. */
  private readonly usageFailuresLogged = new Set<string>();

  constructor(private readonly opts: EvictionManagerOptions) {
    if (opts.capacityBytes <= 0n) throw new RangeError(`eviction manager: capacityBytes must be positive, got ${opts.capacityBytes}`);
    this.read = opts.readCgroupFile ?? readCgroupFileSync;
    this.list = opts.listCgroupDir ?? listCgroupDirSync;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? ((line) => console.error(line));
    this.transitionMs = opts.pressureTransitionMs ?? defaultPressureTransitionMs;
    this.intervalMs = opts.intervalMs ?? defaultEvictionIntervalMs;
    this.fastPollMs = opts.fastPollMs ?? defaultFastPollMs;
    this.cleanupTimeoutMs = opts.podCleanupTimeoutMs ?? defaultPodCleanupTimeoutMs;
    this.version = opts.cgroupVersion ?? 1;
    for (const [name, v] of [['pressureTransitionMs', this.transitionMs], ['intervalMs', this.intervalMs], ['fastPollMs', this.fastPollMs], ['podCleanupTimeoutMs', this.cleanupTimeoutMs]] as const) {
      if (!Number.isFinite(v) || v < 0) throw new RangeError(`eviction manager: ${name} must be a non-negative number of milliseconds, got ${v}`);
    }
    if (this.intervalMs === 0) throw new RangeError('eviction manager: intervalMs must be positive');
    for (const t of opts.thresholds) {
      if (!observableSignals.includes(t.signal)) this.log(`eviction manager: no observation for ${t.signal} on this node; threshold ${formatThreshold(t)} is never met`);
    }
  }

  // ------------------------------------------------------------------ state the agent reads

  memoryPressure(): boolean {
    return this.conditions.includes('MemoryPressure');
  }

  /** The pressure conditions currently reported (within the transition period). */
  nodeConditions(): PressureCondition[] {
    return [...this.conditions];
  }

  /** The signals observed by the last pass. */
  observations(): ReadonlyMap<EvictionSignal, SignalObservation> {
    return this.lastObservations;
  }

  admit(pod: Pod): AdmitResult {
    return admitUnderPressure(pod, this.conditions, this.opts.gates);
  }

  // ------------------------------------------------------------------ loop

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopped = false;
    if (!this.loopRunning) void this.loop();
    if (this.fastPollMs > 0) this.fastTimer = setInterval(() => this.pollUsage(), this.fastPollMs);
  }

  stop(): void {
    this.stopped = true;
    this.started = false;
    this.wakeRequested = false;
    if (this.fastTimer) clearInterval(this.fastTimer);
    this.fastTimer = undefined;
    if (this.sleepTimer) clearTimeout(this.sleepTimer);
    this.sleepTimer = undefined;
    this.wake?.();
  }

  /** One pass; concurrent calls wait for the running pass and share one more. */
  async synchronize(): Promise<void> {
    await this.sync();
  }

  private sync(): Promise<SyncResult> {
    if (!this.running) {
      this.running = this.pass().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.sync();
      });
    return this.queued;
  }

  private async loop(): Promise<void> {
    this.loopRunning = true;
    try {
      await this.loopBody();
    } finally {
      this.loopRunning = false;
    }
  }

  private async loopBody(): Promise<void> {
    while (!this.stopped) {
      let r: SyncResult | undefined;
      try {
        r = await this.sync();
      } catch (e) {
        this.log(`eviction manager: synchronize failed: ${(e as Error).message}`);
      }
      if (this.stopped) break;
      if (r?.evicted) {
        await this.waitForCleanup(r.evicted);
        continue;
      }
      if (this.wakeRequested) {
        this.wakeRequested = false;
        continue;
      }
      this.idle = true;
      try {
        await this.sleep(this.intervalMs);
      } finally {
        this.idle = false;
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (this.sleepTimer) clearTimeout(this.sleepTimer);
        this.sleepTimer = undefined;
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
      this.sleepTimer = setTimeout(done, ms);
    });
  }

  private async waitForCleanup(pod: Pod): Promise<void> {
    const key = podKey(pod);
    const deadline = this.now() + this.cleanupTimeoutMs;
    const step = Math.min(1000, this.intervalMs);
    this.waitingForCleanup = true;
    try {
      while (!this.stopped) {
        if (!this.opts.activePods().some((p) => podKey(p) === key)) return;
        if (this.now() >= deadline) {
          this.log(`eviction manager: timed out waiting for pod ${podName(pod)} to be cleaned up`);
          return;
        }
        await this.sleep(step);
      }
    } finally {
      this.waitingForCleanup = false;
    }
  }

  /** The fast path: wake the loop when node usage crosses the trigger upward. */
  private pollUsage(): void {
    if (this.stopped || this.usageTrigger === undefined) return;
    let usage: bigint;
    try {
      usage = readUsage(this.opts.nodeMemcgDir, this.read, this.version);
    } catch {
      return;
    }
    const last = this.lastPolledUsage;
    this.lastPolledUsage = usage;
    const crossed = usage >= this.usageTrigger && (last === undefined || last < this.usageTrigger);
    if (!crossed) return;
    if (this.idle) this.wake?.();
    else if (!this.waitingForCleanup) this.wakeRequested = true;
  }

  // ------------------------------------------------------------------ one pass

  private observe(node: MemcgMemory): Map<EvictionSignal, SignalObservation> {
    const obs = new Map<EvictionSignal, SignalObservation>();
    obs.set('memory.available', memoryObservation(this.opts.capacityBytes, node.workingSetBytes));
    if (node.limitBytes !== undefined) obs.set('allocatableMemory.available', memoryObservation(node.limitBytes, node.workingSetBytes));
    return obs;
  }

  /** The kubelet's memcg notifier threshold: usage = capacity − threshold + inactive_file. */
  private updateUsageTrigger(obs: ReadonlyMap<EvictionSignal, SignalObservation>, node: MemcgMemory): void {
    let trigger: bigint | undefined;
    for (const t of this.opts.thresholds) {
      const o = obs.get(t.signal);
      if (!o) continue;
      const at = o.capacity - thresholdQuantity(t, o.capacity) + node.inactiveFileBytes;
      if (trigger === undefined || at < trigger) trigger = at;
    }
    this.usageTrigger = trigger;
  }

  private setConditions(conditions: PressureCondition[]): void {
    const before = this.memoryPressure();
    this.conditions = conditions;
    const after = this.memoryPressure();
    if (before === after) return;
    this.log(`eviction manager: node condition MemoryPressure is now ${after ? 'True' : 'False'}`);
    try {
      this.opts.onPressureChange?.(after);
    } catch (e) {
      this.log(`eviction manager: onPressureChange failed: ${(e as Error).message}`);
    }
  }

  /** Terminal, deleting, or already evicted by this manager: not a candidate. */
  private terminating(p: Pod): boolean {
    const phase = p.status?.phase;
    return phase === 'Failed' || phase === 'Succeeded' || p.metadata.deletionTimestamp !== undefined || this.evicted.has(podKey(p));
  }

  private podMemory(pod: Pod): MemcgMemory | undefined {
    const dir = this.opts.podMemcgDir(pod);
    if (dir === undefined) return undefined;
    try {
      return readMemcg(dir, this.read, false, this.version);
    } catch (e) {
      this.log(`eviction manager: reading ${dir}: ${(e as Error).message}`);
      return undefined;
    }
  }

  private containerUsage(pod: Pod): ContainerUsage[] {
    const podDir = this.opts.podMemcgDir(pod);
    const uid = pod.metadata.uid;
    const out: ContainerUsage[] = [];
    const containers = [...(pod.spec.containers ?? []).map((c) => ({ c, init: false })), ...(pod.spec.initContainers ?? []).map((c) => ({ c, init: true }))];
    for (const { c, init } of containers) {
      try {
        let dir: string | undefined;
        if (this.opts.containerMemcgDir) dir = this.opts.containerMemcgDir(pod, c.name);
        else if (podDir !== undefined && uid !== undefined) dir = containerMemcgDir(podDir, uid, c.name, this.list);
        if (dir === undefined) {
          const where = podDir !== undefined && uid !== undefined ? `below ${podDir}` : '(the pod has no memory cgroup or uid)';
          throw Object.assign(new Error(`ENOENT: no memory cgroup of the container ${where}`), { code: 'ENOENT' });
        }
        out.push({ name: c.name, usageBytes: readMemcgOrThrow(dir, this.read, false, this.version).workingSetBytes });
      } catch (e) {
        // An init container that has completed has no cgroup left: no stats, as for the kubelet.
        if (init && (e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        // The container gets no sentence in the message; say why once, not every pass.
        const key = `${podKey(pod)}/${c.name}`;
        if (this.usageFailuresLogged.has(key)) continue;
        this.usageFailuresLogged.add(key);
        this.log(`eviction manager: no memory usage for container ${c.name} of pod ${podName(pod)}: ${(e as Error).message}`);
      }
    }
    return out;
  }

  private async pass(): Promise<SyncResult> {
    const pods = this.opts.activePods();
    const active = new Set(pods.map(podKey));
    for (const k of [...this.evicted.keys()]) if (!active.has(k)) this.evicted.delete(k);
    for (const k of [...this.usageFailuresLogged]) if (!active.has(k.slice(0, k.lastIndexOf('/')))) this.usageFailuresLogged.delete(k);

    const withLimit = this.opts.thresholds.some((t) => t.signal === 'allocatableMemory.available');
    let node: MemcgMemory | undefined;
    try {
      node = readMemcg(this.opts.nodeMemcgDir, this.read, withLimit, this.version);
    } catch (e) {
      this.log(`eviction manager: failed to read node memory stats from ${this.opts.nodeMemcgDir}: ${(e as Error).message}`);
      return { observations: new Map(), met: [] };
    }
    if (!node) {
      this.log(`eviction manager: node memory cgroup ${this.opts.nodeMemcgDir} does not exist`);
      return { observations: new Map(), met: [] };
    }
    const now = this.now();
    const observations = this.observe(node);
    this.lastObservations = observations;
    this.updateUsageTrigger(observations, node);

    const met = thresholdsMet(this.opts.thresholds, observations);
    const within = conditionsWithinTransition(nodeConditionsOf(met), this.lastObservedAt, now, this.transitionMs);
    this.lastObservedAt = within.lastObservedAt;
    this.setConditions(within.conditions);

    const reclaim = thresholdToReclaim(met);
    if (!reclaim) return { observations, met };

    const candidates = pods.filter((p) => !this.terminating(p));
    if (candidates.length === 0) {
      if (!this.noPodsLogged) this.log('eviction manager: eviction thresholds have been met, but no pods are active to evict');
      this.noPodsLogged = true;
      return { observations, met };
    }
    this.noPodsLogged = false;

    const usage = new Map<Pod, MemcgMemory | undefined>();
    for (const p of candidates) usage.set(p, this.podMemory(p));
    const ranked = evictionCandidates(rankForMemoryPressure(candidates, (p) => usage.get(p)?.workingSetBytes, this.opts.gates));
    const pod = ranked[0];
    if (!pod) {
      this.log('eviction manager: unable to evict any pods from the node (only critical pods are active)');
      return { observations, met };
    }

    const o = observations.get(reclaim.threshold.signal)!;
    const podUsage = usage.get(pod);
    const containerUsage = podUsage ? this.containerUsage(pod) : undefined;
    const message = evictionMessage(
      pod,
      reclaim.resource,
      { quantity: thresholdAsQuantity(reclaim.threshold, o.capacity), available: o.available },
      containerUsage ?? [],
      podUsage ? { podUsageBytes: podUsage.workingSetBytes, gates: this.opts.gates } : {},
    );
    const annotations = evictionAnnotations(pod, reclaim.resource, containerUsage);
    this.log(`eviction manager: threshold ${formatThreshold(reclaim.threshold)} met; evicting pod ${podName(pod)}: ${message}`);
    const key = podKey(pod);
    this.evicted.set(key, pod);
    try {
      await this.opts.evict(pod, evictedReason, message, annotations);
      this.opts.onEviction?.(reclaim.threshold.signal);
    } catch (e) {
      // As upstream, the attempt still ends the pass; the pod stays a candidate for the next one.
      this.evicted.delete(key);
      this.log(`eviction manager: pod ${podName(pod)} failed to evict: ${(e as Error).message}`);
    }
    return { observations, met, evicted: pod };
  }
}
