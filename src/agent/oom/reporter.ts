// The agent's OOM reporting: what the kernel's OOM killer did to a container, turned into the
// `OOMKilling` Warning event, the design's metrics by mode and a pod sync (whose status then
// says OOMKilled from the runtime's counters). As the kubelet's oom_watcher over cAdvisor, with
// the OOM kill mode design's additions:
//   cgroup v1: /dev/kmsg names each kill and its memcg (kmsg.ts); a `Group` container under
//              --oom-group-emulation has the rest of its tasks killed at once (groupkill.ts).
//   cgroup v2: each container cgroup's memory.events says that and how often (memoryevents.ts);
//              kmsg, when readable, names the victims; `Group` is the kernel's own
//              (memory.oom.group), nothing is emulated.

import { readdirSync } from 'node:fs';
import type { Pod } from '../../api/types.js';
import type { CgroupManager } from '../cgroups/manager.js';
import type { AgentMetrics } from '../metrics.js';
import type { EventSink, MemcgContainer } from '../podworker/context.js';
import { emulateGroupKill } from './groupkill.js';
import { KmsgOOMWatcher, type OOMKill } from './kmsg.js';
import { MemoryEventsWatcher, OOMKillCorrelator, oomKillingMessages, type OOMCounts } from './memoryevents.js';

/** What the reporter needs of the pod runtime. */
export interface OOMRuntime {
  containerByMemcg(memcgPath: string): MemcgContainer | undefined;
  containerPid(containerID: string): Promise<number | undefined>;
  /** Every container whose cgroup exists now; without it the node cgroup tree is walked. */
  runningContainers?(): { owner: MemcgContainer; cgroupPath: string }[];
}

export interface OOMReporterOptions {
  runtime: OOMRuntime;
  /** The host's cgroups; on v2 the container cgroups' memory.events are watched through it. */
  cgroups?: CgroupManager;
  /** `<root>/kubepods`, where the container cgroups are looked for on v2. */
  kubepods?: string;
  metrics: Pick<AgentMetrics, 'oomEvent' | 'groupKillEmulated'>;
  /** The pod the agent knows by this UID. */
  pod(uid: string): Pod | undefined;
  record: EventSink;
  /** Asks for a sync of the pod (its status then reports the kill). */
  kick(uid: string): void;
  log(msg: string): void;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class OOMReporter {
  private kmsg?: KmsgOOMWatcher;
  /** cgroup v2: the container cgroups' memory.events, and kmsg's names for their kills. */
  private memEvents?: MemoryEventsWatcher;
  private readonly correlator = new OOMKillCorrelator();
  private scanQueued = false;
  private stopped = false;

  constructor(private readonly o: OOMReporterOptions) {}

  private get v2(): boolean {
    return this.o.cgroups?.version === 2;
  }

  start(): void {
    const v2 = this.v2;
    // On v2 kmsg only names the processes memory.events counts (onMemoryEvents reports them).
    const onKill = v2 ? (k: OOMKill) => this.correlator.kmsg(k) : (k: OOMKill) => void this.onKmsgKill(k).catch((e: unknown) => this.o.log(`OOM report: ${errText(e)}`));
    this.kmsg = new KmsgOOMWatcher(onKill);
    try {
      this.kmsg.start();
    } catch (e) {
      this.o.log(
        v2
          ? `cannot read /dev/kmsg (${errText(e)}): OOM kills are seen from memory.events, without the killed process's name`
          : `cannot read /dev/kmsg (${errText(e)}): OOM kills will only be seen from exit codes and memory.oom_control`,
      );
      this.kmsg = undefined;
    }
    if (v2) {
      this.memEvents = new MemoryEventsWatcher(this.o.log);
      // Containers already running were adopted: their earlier kills were reported (or missed) before.
      this.scanContainerCgroups('current');
    }
  }

  stop(): void {
    this.stopped = true;
    this.kmsg?.stop();
    this.memEvents?.stop();
  }

  /** Containers may have started or gone (a sync, a resync): their memory.events are (un)watched, once per tick. */
  containersChanged(): void {
    if (!this.memEvents || this.scanQueued || this.stopped) return;
    this.scanQueued = true;
    setImmediate(() => {
      this.scanQueued = false;
      if (!this.stopped) this.scanContainerCgroups('zero');
    });
  }

  /**
   * A container's cgroup is about to be removed: its memory.events is read now and the watch
   * dropped. The sync that saw an OOM-killed container exit removes its cgroup, and can do so
   * before the watch's settle timer reads the kill (or before any rescan added the watch).
   */
  containerRemoving(containerID: string): void {
    const w = this.memEvents;
    if (!w || this.stopped) return;
    if (!w.has(containerID)) this.scanContainerCgroups('zero');
    w.delete(containerID);
  }

  // ------------------------------------------------------------------------------------------
  // cgroup v1: a kill read from /dev/kmsg

  private async onKmsgKill(k: OOMKill): Promise<void> {
    const owner = this.o.runtime.containerByMemcg(k.taskMemcg);
    if (!owner) return;
    const started = performance.now();
    // The group kill first, in this same tick: everything below may wait (runc state takes
    // 4–28 ms here, more under load), and the rest of a Group container must not run on.
    const groupKill = emulateGroupKill(owner);
    this.o.metrics.oomEvent(owner.oomKillMode);
    const pod = this.o.pod(owner.podUID);
    if (groupKill) {
      const r = await groupKill.catch((err: unknown) => {
        this.o.log(`group kill of ${owner.cgroupDir}: ${errText(err)}`);
        return undefined;
      });
      const ms = performance.now() - started;
      if (r) this.o.metrics.groupKillEmulated(ms / 1000);
      if (pod) {
        this.o.record(pod, 'Warning', 'OOMKilling', `Memory cgroup out of memory: Killed process ${k.pid} (${k.task}) in container ${owner.container}; oomKillMode Group (emulated): killed the rest of the container (${r ? `${r.killed.length} more, in ${ms.toFixed(1)} ms` : 'failed'})`);
      }
    } else if (pod) {
      const initPid = await this.o.runtime.containerPid(owner.containerID).catch(() => undefined);
      const wasInit = initPid === undefined || initPid === k.pid;
      if (!wasInit) this.o.record(pod, 'Warning', 'OOMKilling', `Memory cgroup out of memory: Killed process ${k.pid} (${k.task}) in container ${owner.container}; oomKillMode ${owner.oomKillMode}: the container keeps running`);
    }
    if (pod) this.o.kick(owner.podUID);
  }

  // ------------------------------------------------------------------------------------------
  // cgroup v2: OOM kills from the container cgroups' memory.events

  /** Watches the memory.events of every container cgroup there is now, and of no other. */
  private scanContainerCgroups(from: 'current' | 'zero'): void {
    const w = this.memEvents;
    const cg = this.o.cgroups;
    if (!w || !cg) return;
    let found: { owner: MemcgContainer; cgroupPath: string }[];
    try {
      found = this.o.runtime.runningContainers?.() ?? this.findContainerCgroups(cg);
    } catch (e) {
      this.o.log(`listing container cgroups: ${errText(e)}`);
      return;
    }
    const ids = new Set<string>();
    for (const { owner, cgroupPath } of found) {
      const file = cg.oomEventsFile(cgroupPath);
      if (!file) continue;
      ids.add(owner.containerID);
      w.add(owner.containerID, file, (delta) => void this.onMemoryEvents(owner, cgroupPath, delta).catch((e: unknown) => this.o.log(`OOM report: ${errText(e)}`)), from);
    }
    for (const id of w.ids()) if (!ids.has(id)) w.delete(id);
  }

  /** The container cgroups below kubepods: `[<qos>/]pod<uid>/<id>`, each asked of containerByMemcg. */
  private findContainerCgroups(cg: CgroupManager): { owner: MemcgContainer; cgroupPath: string }[] {
    const kubepods = this.o.kubepods;
    if (kubepods === undefined) return [];
    const out: { owner: MemcgContainer; cgroupPath: string }[] = [];
    const walk = (path: string, depth: number): void => {
      let names: string[];
      try {
        names = readdirSync(cg.memoryDir(path), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
      } catch {
        return;
      }
      for (const n of names) {
        const p = `${path}/${n}`;
        const owner = this.o.runtime.containerByMemcg(p);
        if (owner) out.push({ owner, cgroupPath: p });
        else if (depth < 2) walk(p, depth + 1);
      }
    };
    walk(kubepods, 0);
    return out;
  }

  /**
   * A rise of a container's OOM counters (memory.events says that and how often; kmsg names the
   * victims when it could be read). Group is the kernel's (memory.oom.group): nothing to emulate.
   */
  private async onMemoryEvents(owner: MemcgContainer, cgroupPath: string, delta: OOMCounts): Promise<void> {
    // The kernel logs a kill right after it counts it: take whatever kmsg has by now.
    this.kmsg?.drain();
    const report = this.correlator.take(cgroupPath, delta);
    for (let i = 0; i < report.events; i++) this.o.metrics.oomEvent(owner.oomKillMode);
    const pod = this.o.pod(owner.podUID);
    if (pod) {
      let livingInitPid: number | undefined;
      if (report.groupKills === 0) {
        const initPid = await this.o.runtime.containerPid(owner.containerID).catch(() => undefined);
        if (initPid !== undefined && this.o.cgroups?.pidIn(initPid, cgroupPath)) livingInitPid = initPid;
      }
      const target = { container: owner.container, oomKillMode: owner.oomKillMode, ...(livingInitPid !== undefined ? { livingInitPid } : {}) };
      for (const message of oomKillingMessages(target, report)) this.o.record(pod, 'Warning', 'OOMKilling', message);
      this.o.kick(owner.podUID);
    }
  }
}
