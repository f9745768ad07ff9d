// OOM kills as the kernel reports them in /dev/kmsg, for the agent's OOM watcher. Node has no
// eventfd without a native addon; polling /dev/kmsg every millisecond sees the kill ~1 ms
// after the kernel (shared/reference/linux-host.md §2), which is what the agent needs to
// report OOMKilled, count OOM events by mode, and emulate Group on cgroup v1.
//
// The kernel rate-limits an OOM's report (mm/oom_kill.c oom_kill_process: `oom_rs`, 10 reports
// per 5 s host-wide), and the `oom-kill:` record naming the memcgs is part of it; only the
// `Killed process N (comm)` line is printed for every kill. Past the limit the memcg is read
// from /proc/N/cgroup while the victim is still exiting (OOMKillDecoder); without that, an
// eleventh OOM kill in 5 s anywhere on the host went unseen and a Group container lived on.

import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';

export interface KmsgRecord {
  priority: number;
  seq: number;
  /** Microseconds since boot (CLOCK_MONOTONIC). */
  timestampUs: bigint;
  message: string;
}

/** One /dev/kmsg record: `<prio>,<seq>,<usec>,<flags>[,...];<message>`. */
export function parseKmsgRecord(text: string): KmsgRecord | undefined {
  const semi = text.indexOf(';');
  if (semi < 0) return undefined;
  const [prio, seq, usec] = text.slice(0, semi).split(',');
  if (prio === undefined || seq === undefined || usec === undefined || !/^\d+$/.test(seq) || !/^\d+$/.test(usec)) return undefined;
  const message = text.slice(semi + 1).split('\n')[0]!;
  return { priority: Number(prio) & 7, seq: Number(seq), timestampUs: BigInt(usec), message };
}

export interface OOMKill {
  /** The memcg whose limit was hit (the container's or an ancestor's), as a cgroup path. */
  oomMemcg: string;
  /** The memcg of the killed task. */
  taskMemcg: string;
  task: string;
  pid: number;
  uid: number;
  constraint: string;
}

/** The kernel's `oom-kill:constraint=…,oom_memcg=…,task_memcg=…,task=…,pid=…,uid=…` line. */
export function parseOOMKill(message: string): OOMKill | undefined {
  if (!message.startsWith('oom-kill:')) return undefined;
  const fields = new Map<string, string>();
  for (const part of message.slice('oom-kill:'.length).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq), part.slice(eq + 1));
  }
  const pid = Number(fields.get('pid'));
  if (!Number.isInteger(pid) || !fields.has('task_memcg')) return undefined;
  return {
    oomMemcg: fields.get('oom_memcg') ?? '',
    taskMemcg: fields.get('task_memcg')!,
    task: fields.get('task') ?? '',
    pid,
    uid: Number(fields.get('uid') ?? '0'),
    constraint: fields.get('constraint') ?? '',
  };
}

/** The `Killed process N (comm) total-vm:… UID:u …` line the kernel prints for every OOM kill. */
export function parseKilledProcess(message: string): { pid: number; task: string; uid: number } | undefined {
  const m = /Killed process (\d+) \((.*)\) total-vm:.*?UID:(\d+)/.exec(message);
  return m ? { pid: Number(m[1]), task: m[2]!, uid: Number(m[3]) } : undefined;
}

/**
 * The memory cgroup of a process from /proc/<pid>/cgroup (the v1 `memory` line, else the v2
 * `0::` line); undefined once it has left its cgroup (an exited task shows the root, `/`).
 */
export function memcgOfPid(pid: number, procRoot = '/proc'): string | undefined {
  let text: string;
  try {
    text = readFileSync(`${procRoot}/${pid}/cgroup`, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const line = lines.find((l) => /^\d+:([^:]*,)?memory(,[^:]*)?:/.test(l)) ?? lines.find((l) => l.startsWith('0::'));
  const path = line?.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
  return path && path !== '/' ? path : undefined;
}

/**
 * Kernel log messages → OOM kills, one per kill: the `oom-kill:` record when the kernel printed
 * it, else the `Killed process` line with the memcg read from /proc (see the top of the file).
 * A cgroup v2 group sweep (`Tasks in X are going to be killed due to memory.oom.group set`,
 * then a `Killed process` per member) is the kernel's own group kill, not more OOM kills.
 */
export class OOMKillDecoder {
  /** Pids whose `oom-kill:` record was seen and whose `Killed process` line is still to come. */
  private readonly reported = new Set<number>();
  private sweeping = false;
  /** `Killed process` lines whose memcg could no longer be read. */
  unattributed = 0;

  constructor(private readonly memcgOf: (pid: number) => string | undefined = memcgOfPid) {}

  push(message: string): OOMKill | undefined {
    const killed = parseKilledProcess(message);
    if (!killed) {
      this.sweeping = message.includes('are going to be killed due to memory.oom.group set');
      const kill = parseOOMKill(message);
      if (kill) {
        this.reported.add(kill.pid);
        // Bounded: a record whose Killed line never came (lost to an overrun) is forgotten.
        if (this.reported.size > 64) this.reported.delete(this.reported.values().next().value!);
      }
      return kill;
    }
    if (this.reported.delete(killed.pid) || this.sweeping) return undefined;
    const taskMemcg = this.memcgOf(killed.pid);
    if (taskMemcg === undefined) {
      this.unattributed++;
      return undefined;
    }
    return { oomMemcg: '', taskMemcg, task: killed.task, pid: killed.pid, uid: killed.uid, constraint: '' };
  }
}

/**
 * Polls /dev/kmsg and reports every OOM kill logged after start(). Records already in the
 * ring buffer when it starts are skipped; records lost to ring-buffer overrun (EPIPE) are
 * skipped too, and counted. A blocking or epoll reader would be woken later, not sooner: the
 * kernel defers waking log readers to its next tick (2.3–3.7 ms, linux-host.md §2).
 */
export class KmsgOOMWatcher {
  private fd?: number;
  private timer?: NodeJS.Timeout;
  private readonly buf = Buffer.alloc(8192);
  lost = 0;

  constructor(
    private readonly onKill: (k: OOMKill, r: KmsgRecord) => void,
    private readonly pollMs = 1,
    private readonly path = '/dev/kmsg',
    private readonly decoder = new OOMKillDecoder(),
  ) {}

  start(): void {
    this.fd = openSync(this.path, constants.O_RDONLY | constants.O_NONBLOCK);
    // Skip the backlog: everything readable now happened before we started.
    while (this.readOne(false) !== 'empty');
    this.timer = setInterval(() => this.drain(), this.pollMs);
  }

  private readOne(deliver: boolean): 'record' | 'empty' {
    // A callback may stop the watcher in the middle of a drain.
    if (this.fd === undefined) return 'empty';
    try {
      const n = readSync(this.fd!, this.buf, 0, this.buf.length, null);
      if (n <= 0) return 'empty';
      if (deliver) {
        const rec = parseKmsgRecord(this.buf.toString('utf8', 0, n));
        const kill = rec && this.decoder.push(rec.message);
        if (rec && kill) this.onKill(kill, rec);
      }
      return 'record';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') return 'empty';
      if (code === 'EPIPE') {
        this.lost++;
        return 'record';
      }
      throw e;
    }
  }

  /** Reads everything available now (also called by the poll timer). */
  drain(): void {
    if (this.fd === undefined) return;
    while (this.readOne(true) === 'record');
  }

  /** OOM kills seen only as a `Killed process` line, after the victim had left its cgroup. */
  get unattributed(): number {
    return this.decoder.unattributed;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
