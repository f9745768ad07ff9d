// OOM kills as the kernel reports them in /dev/kmsg, for the agent's OOM watcher. Node has no
// eventfd without a native addon; polling /dev/kmsg every millisecond sees the kill ~1 ms
// after the kernel (shared/reference/linux-host.md §2), which is what the agent needs to
// report OOMKilled, count OOM events by mode, and emulate Group on cgroup v1.

import { closeSync, constants, openSync, readSync } from 'node:fs';

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

/**
 * Polls /dev/kmsg and reports every OOM kill logged after start(). Records already in the
 * ring buffer when it starts are skipped; records lost to ring-buffer overrun (EPIPE) are
 * skipped too, and counted.
 */
export class KmsgOOMWatcher {
  private fd?: number;
  private timer?: NodeJS.Timeout;
  private readonly buf = Buffer.alloc(8192);
  lost = 0;

  constructor(private readonly onKill: (k: OOMKill, r: KmsgRecord) => void, private readonly pollMs = 1, private readonly path = '/dev/kmsg') {}

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
        const kill = rec && parseOOMKill(rec.message);
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

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
