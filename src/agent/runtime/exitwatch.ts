// Noticing that a process the agent does not parent has exited, without polling it: a
// container's processes live in its own cgroup, and on a host with a cgroup2 tree (hybrid, as
// this one: runc puts every container there as well) the kernel reports `populated 0` in the
// cgroup's cgroup.events, which inotify sees 0.4–0.8 ms after the last process is gone
// (shared/reference/linux-host.md §6). Where there is no such file to watch, every watched
// process is checked once a second instead, as often as the kubelet's PLEG relists.
//
// inotify only says "look again": the caller's `alive` check decides, so a spurious event or a
// populated flip during creation is harmless. Watches do not keep the process alive.

import { watch, type FSWatcher } from 'node:fs';

interface Entry {
  alive: () => boolean;
  onExit: () => void;
  watcher?: FSWatcher;
}

export class ExitWatch {
  private readonly entries = new Map<string, Entry>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly pollMs = 1000) {}

  /**
   * Calls `onExit` once, when `alive()` has turned false: checked now, on every change of
   * `eventsFile` (a cgroup2 cgroup.events) and, without one, every `pollMs`. Watching a key
   * already watched does nothing.
   */
  add(key: string, eventsFile: string | undefined, alive: () => boolean, onExit: () => void): void {
    if (this.entries.has(key)) return;
    const e: Entry = { alive, onExit };
    this.entries.set(key, e);
    if (eventsFile !== undefined) {
      try {
        e.watcher = watch(eventsFile, () => this.check(key));
        e.watcher.unref();
        e.watcher.on('error', () => this.poll(key));
      } catch {
        e.watcher = undefined;
      }
    }
    if (!e.watcher) this.startTimer();
    // It may have exited before the watch was in place.
    this.check(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.watcher?.close();
    this.entries.delete(key);
    if (this.timer && ![...this.entries.values()].some((x) => !x.watcher)) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Stops every watch (nothing is reported after this). */
  close(): void {
    for (const k of [...this.entries.keys()]) this.delete(k);
  }

  /** The watch broke (e.g. the cgroup went away): fall back to the timer for this key. */
  private poll(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.watcher?.close();
    e.watcher = undefined;
    this.startTimer();
    this.check(key);
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const [k, e] of [...this.entries]) if (!e.watcher) this.check(k);
    }, this.pollMs);
    this.timer.unref();
  }

  private check(key: string): void {
    const e = this.entries.get(key);
    if (!e || e.alive()) return;
    this.delete(key);
    e.onExit();
  }
}
