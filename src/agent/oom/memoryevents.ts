// OOM kills on cgroup v2, read from each container cgroup's memory.events: the kernel bumps
// `oom_kill` for every task its OOM killer kills in the cgroup (or below it) and `oom_group_kill`
// for every whole-group kill under memory.oom.group, and notifies inotify watchers of the file
// (IN_MODIFY, cgroup_file_notify) each time. Follows the idea of containerd's cgroups v2 OOM
// event monitor (an inotify watch per container on memory.events, acting on a rise of
// oom_kill) and the kubelet's oom_watcher / cAdvisor (which read /dev/kmsg for the process
// name): here memory.events says that and how often a container was OOM-killed, and the agent
// takes the victim's pid and name from /dev/kmsg when it can read it (OOMKillCorrelator).
//
// Counts are kept per container id: a container registered again (the agent rescans, or
// restarts and adopts it) reports only the kills after the counts it last saw.

import { readFileSync, watch as fsWatch } from 'node:fs';
import type { OOMKill } from './kmsg.js';

/** The OOM counters of one memory.events file. */
export interface OOMCounts {
  oomKill: number;
  oomGroupKill: number;
}

/** Every `key value` line of a memory.events file (pure); malformed lines are skipped. */
export function parseMemoryEvents(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+) (\d+)$/.exec(line.trim());
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** The OOM counters of a memory.events text; a missing key counts 0 (pure). */
export function oomCounts(text: string): OOMCounts {
  const e = parseMemoryEvents(text);
  return { oomKill: e['oom_kill'] ?? 0, oomGroupKill: e['oom_group_kill'] ?? 0 };
}

/**
 * The kills between two readings (pure). Counters only grow within one cgroup; a reading lower
 * than the last one is a new cgroup of the same name, whose kills all count.
 */
export function oomDelta(prev: OOMCounts | undefined, next: OOMCounts): OOMCounts {
  if (!prev) return { ...next };
  if (next.oomKill < prev.oomKill || next.oomGroupKill < prev.oomGroupKill) return { ...next };
  return { oomKill: next.oomKill - prev.oomKill, oomGroupKill: next.oomGroupKill - prev.oomGroupKill };
}

export type OOMDeltaListener = (delta: OOMCounts, total: OOMCounts) => void;

export interface MemoryEventsWatcherDeps {
  read(file: string): string;
  /** Calls `onChange` when `file` changes; the handle stops watching. */
  watch(file: string, onChange: () => void, onError: (e: unknown) => void): { close(): void };
  /**
   * How long to let the counters settle after a change before reading them (0: read at once).
   * A group kill raises oom_kill once per task and oom_group_kill after the victim's kill: read
   * in the middle of the sweep, it would look like a single kill followed by a group kill. So a
   * rise is reported once two reads this far apart agree (at most `settleRounds` reads).
   */
  settleMs: number;
}

const realDeps: MemoryEventsWatcherDeps = {
  read: (file) => readFileSync(file, 'utf8'),
  watch: (file, onChange, onError) => {
    const w = fsWatch(file, { persistent: false }, () => onChange());
    w.on('error', onError);
    return w;
  },
  settleMs: 25,
};

/** Reads of a rising counter before it is reported even if still rising. */
const settleRounds = 10;

const sameCounts = (a: OOMCounts | undefined, b: OOMCounts) => a !== undefined && a.oomKill === b.oomKill && a.oomGroupKill === b.oomGroupKill;

/** How many containers' last counts are remembered after they are deleted. */
const rememberedMax = 4096;

/**
 * Watches the memory.events of registered container cgroups and reports each rise of the OOM
 * counters once. `add` with `from: 'current'` (a container that was already running when the
 * agent started) takes the counts as they are now as already reported; `from: 'zero'` (a
 * container started since) reports any kill it already had.
 */
export class MemoryEventsWatcher {
  private readonly watched = new Map<string, { file: string; onChange: OOMDeltaListener; handle: { close(): void }; timer?: NodeJS.Timeout }>();
  /** The last counts seen per container id (kept after delete, bounded). */
  private readonly last = new Map<string, OOMCounts>();

  constructor(
    private readonly log: (msg: string) => void = () => undefined,
    private readonly deps: MemoryEventsWatcherDeps = realDeps,
  ) {}

  has(id: string): boolean {
    return this.watched.has(id);
  }

  ids(): string[] {
    return [...this.watched.keys()];
  }

  add(id: string, eventsFile: string, onChange: OOMDeltaListener, from: 'current' | 'zero' = 'zero'): void {
    const had = this.watched.get(id);
    if (had?.file === eventsFile) {
      had.onChange = onChange;
      return;
    }
    if (had) this.delete(id);
    // Watch first, then read: a kill between the two is seen by the read or by the event.
    let handle: { close(): void };
    try {
      handle = this.deps.watch(eventsFile, () => this.changed(id), (e) => this.lost(id, e));
    } catch (e) {
      this.log(`cannot watch ${eventsFile}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.watched.set(id, { file: eventsFile, onChange, handle });
    if (from === 'current' && !this.last.has(id)) {
      const now = this.readCounts(eventsFile);
      if (now) this.remember(id, now);
    }
    this.check(id);
  }

  /**
   * Stops watching a container that went. Its counters are read a last time first: the sync that
   * saw an OOM-killed container exit can come before the settle timer, and the kill must not go
   * unreported with the watch (the cgroup is still there until the runtime deletes it).
   */
  delete(id: string): void {
    const w = this.watched.get(id);
    if (!w) return;
    this.check(id);
    this.watched.delete(id);
    if (w.timer) clearTimeout(w.timer);
    w.handle.close();
  }

  /**
   * An inotify event: read `settleMs` later (events meanwhile change nothing: a container at its
   * limit changes memory.events all the time, `max` and `high`); a rise of the OOM counters is
   * read again until two reads agree, then reported.
   */
  private changed(id: string): void {
    const w = this.watched.get(id);
    if (!w) return;
    if (this.deps.settleMs <= 0) return this.check(id);
    if (!w.timer) this.settleLater(id, undefined, 0);
  }

  private settleLater(id: string, prev: OOMCounts | undefined, round: number): void {
    const w = this.watched.get(id);
    if (!w) return;
    w.timer = setTimeout(() => {
      w.timer = undefined;
      const now = this.readCounts(w.file);
      if (!now || sameCounts(this.last.get(id), now)) return;
      if (!sameCounts(prev, now) && round < settleRounds) return this.settleLater(id, now, round + 1);
      this.check(id);
    }, this.deps.settleMs);
  }

  /** Reads the container's counters now and reports a rise (also called on each inotify event). */
  check(id: string): void {
    const w = this.watched.get(id);
    if (!w) return;
    const now = this.readCounts(w.file);
    if (!now) return;
    const delta = oomDelta(this.last.get(id), now);
    this.remember(id, now);
    if (delta.oomKill > 0 || delta.oomGroupKill > 0) w.onChange(delta, now);
  }

  stop(): void {
    for (const id of [...this.watched.keys()]) this.delete(id);
  }

  private readCounts(file: string): OOMCounts | undefined {
    try {
      return oomCounts(this.deps.read(file));
    } catch {
      // The cgroup is gone (its container was removed); the next scan deletes it.
      return undefined;
    }
  }

  private remember(id: string, c: OOMCounts): void {
    this.last.delete(id);
    this.last.set(id, c);
    if (this.last.size > rememberedMax) this.last.delete(this.last.keys().next().value!);
  }

  private lost(id: string, e: unknown): void {
    this.log(`watching memory.events of ${id}: ${e instanceof Error ? e.message : String(e)}`);
    this.delete(id);
  }
}

/** The OOMKilling report for one rise of a container's counters. */
export interface OOMReport {
  /** The killed processes /dev/kmsg named (the victim of each OOM; a group sweep's members are not listed). */
  named: OOMKill[];
  /** Kills memory.events counted that kmsg did not name (unreadable, rate-limited, or not yet read). */
  unnamed: number;
  /** Whole-group kills (memory.oom.group). */
  groupKills: number;
  /** Tasks the kernel killed in all (oom_kill less the victims counted twice by a group sweep). */
  processes: number;
  /** OOM events in the sense of container_oom_events_by_mode: one per OOM kill, one per group kill. */
  events: number;
}

/**
 * Pairs memory.events rises with the /dev/kmsg kill records of the same cgroup. kmsg records
 * are kept (bounded) until a rise of their cgroup's counters takes them.
 */
export class OOMKillCorrelator {
  private readonly pending = new Map<string, OOMKill[]>();
  private size = 0;

  constructor(private readonly max = 256) {}

  /** A kill read from /dev/kmsg. */
  kmsg(k: OOMKill): void {
    const key = trimPath(k.taskMemcg);
    const list = this.pending.get(key) ?? [];
    list.push(k);
    this.pending.set(key, list);
    this.size++;
    while (this.size > this.max) {
      const [oldest, l] = this.pending.entries().next().value as [string, OOMKill[]];
      l.shift();
      this.size--;
      if (!l.length) this.pending.delete(oldest);
    }
  }

  /** How many kmsg kills of `cgroupPath` are waiting. */
  waiting(cgroupPath: string): number {
    return this.pending.get(trimPath(cgroupPath))?.length ?? 0;
  }

  /** The report of a rise `delta` of `cgroupPath`'s counters, taking its kmsg kills (pure but for the queue). */
  take(cgroupPath: string, delta: OOMCounts): OOMReport {
    const key = trimPath(cgroupPath);
    const list = this.pending.get(key) ?? [];
    // One victim per OOM: a Single rise of n kills names up to n, a group kill names its victim.
    const victims = delta.oomGroupKill > 0 ? delta.oomGroupKill : delta.oomKill;
    const named = list.splice(0, victims);
    this.size -= named.length;
    if (!list.length) this.pending.delete(key);
    const processes = delta.oomGroupKill > 0 ? Math.max(delta.oomKill - delta.oomGroupKill, delta.oomGroupKill) : delta.oomKill;
    return { named, unnamed: victims - named.length, groupKills: delta.oomGroupKill, processes, events: victims };
  }
}

function trimPath(p: string): string {
  return p.replace(/\/+$/, '') || '/';
}

/** What the agent knows of the container when it reports a rise of its counters. */
export interface OOMReportTarget {
  container: string;
  oomKillMode: 'Single' | 'Group';
  /** The container's init pid while it is still in the container's cgroup; undefined when it is gone. */
  livingInitPid?: number;
}

/**
 * The `OOMKilling` Warning events for one rise of a container's counters (pure), worded as on
 * cgroup v1 (agent.ts onOOMKill): a group kill is reported always, and says the kernel did it; a
 * single kill only when it was not the container's init (the container keeps running; the
 * init's kill shows as OOMKilled in the container's status instead).
 */
export function oomKillingMessages(t: OOMReportTarget, r: OOMReport): string[] {
  const killed = (k: OOMKill) => `Memory cgroup out of memory: Killed process ${k.pid} (${k.task}) in container ${t.container}`;
  if (r.groupKills > 0) {
    const what = `the kernel killed all ${r.processes} processes of the container (memory.oom.group)`;
    const head = r.named[0] ? killed(r.named[0]) : `Memory cgroup out of memory in container ${t.container}`;
    return [`${head}; oomKillMode Group: ${what}`];
  }
  if (t.livingInitPid === undefined) return [];
  const keeps = `oomKillMode ${t.oomKillMode}: the container keeps running`;
  const out = r.named.filter((k) => k.pid !== t.livingInitPid).map((k) => `${killed(k)}; ${keeps}`);
  if (r.unnamed > 0) out.push(`Memory cgroup out of memory: Killed ${r.unnamed} process${r.unnamed === 1 ? '' : 'es'} in container ${t.container}; ${keeps}`);
  return out;
}
