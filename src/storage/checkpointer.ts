// WAL checkpoints on a worker thread, off the API server's event loop.
//
// SQLite's automatic checkpoint (every 1,000 WAL pages) runs inside the COMMIT that crosses the
// threshold, on the one thread that serves every request: in bench:api ~50 checkpoints per 5,000
// creates at ~14 ms each (most of it the two fsyncs a checkpoint makes), each stalling every
// request in flight. Here the store's connection has wal_autocheckpoint=0 and a worker thread,
// with its own connection to the file, runs PRAGMA wal_checkpoint(PASSIVE), which copies WAL
// frames into the database beside the writer without taking its lock or waiting for anyone.
//
// When. The store nudges the worker once every `rowsPerNudge` rows it committed (a row costs a
// few WAL pages: its log row, its index entries and the current table's entry), through a
// counter in shared memory and Atomics.notify: no message, no wake-up while the store is idle,
// and nudges that arrive during a checkpoint fold into one more. The worker starts at the first
// nudge, so a store that writes little never pays for a thread.
//
// Bound. A passive checkpoint copies the frames that were in the WAL when it began; the WAL file
// starts over from its beginning only when a write transaction begins with every frame copied.
// Under continuous writes the writer adds frames during each checkpoint, so that moment may
// never come and the file would grow without limit. When the WAL holds `boundFrames` frames or
// more after the worker's checkpoints caught up with the writer, the worker asks the store (a flag
// in shared memory) to copy the few frames written since, itself, right after its next COMMIT
// (again after the next one if the worker was checkpointing just then): the following write then
// restarts the WAL, and journal_size_limit cuts the file back to 64 MiB if it was longer. So the
// WAL stays below about `boundFrames` plus what the writer adds while the worker catches up, at
// the price of one short checkpoint on the event loop per `boundFrames` frames instead of one per
// 1,000 (bench:api: 1-4 per 5,000 creates, 4-58 ms each on a loaded machine). What the bound does
// not cover is a worker that lags: while it starts, or while a checkpoint waits on a slow disk,
// the WAL grows by whatever is written meanwhile (a 5,000-write burst of the raw store on a
// loaded machine left a 110 MB WAL: the worker, started at the burst's first nudge, made one
// checkpoint before the burst ended); it is cut back at the next restart. The store has no long readers (its reads are single statements), so nothing
// pins old frames.
//
// If the worker fails (it cannot open the file, or a checkpoint throws), the store goes back to
// SQLite's automatic checkpoint on its own connection.

import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/** Slots of the shared Int32Array. */
const enum Slot {
  /** Bumped by the store to ask for a checkpoint. */
  Nudges,
  /** Set by the store to make the worker checkpoint once more and exit. */
  Stop,
  /** Set by the worker when the WAL is long and the store should finish the copy itself. */
  Finish,
  /** The worker's checkpoints, their total and longest duration (µs): diagnostics. */
  Count,
  TotalMicros,
  MaxMicros,
  /** The WAL's length in frames after the worker's last checkpoint. */
  LastLog,
  /** The last value of Nudges the worker has answered. */
  Answered,
  Length,
}

// The worker's code, run with `eval` so it needs no file of its own beside the bundled CLI.
const workerSource = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const s = new Int32Array(workerData.shared);
const [Nudges, Stop, Finish, Count, TotalMicros, MaxMicros, LastLog, Answered] = [0, 1, 2, 3, 4, 5, 6, 7];
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs, nativeBinding: workerData.addon });
db.pragma('wal_autocheckpoint = 0');
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('cache_size = -64');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
function run() {
  const t0 = process.hrtime.bigint();
  const r = checkpoint.get();
  const us = Number((process.hrtime.bigint() - t0) / 1000n);
  Atomics.add(s, Count, 1);
  Atomics.add(s, TotalMicros, us);
  if (us > Atomics.load(s, MaxMicros)) Atomics.store(s, MaxMicros, us);
  Atomics.store(s, LastLog, r.log);
  return r;
}
let seen = 0;
for (;;) {
  Atomics.wait(s, Nudges, seen);
  if (Atomics.load(s, Stop)) break;
  seen = Atomics.load(s, Nudges);
  let r = run();
  // Past the bound: catch up with the writer, checkpoint after checkpoint, until one copied
  // few frames beyond the previous (what the writer added while it ran), then leave the rest,
  // about as few, to the store.
  for (let i = 0; r.log >= workerData.boundFrames && !Atomics.load(s, Stop); i++) {
    const before = r.log;
    r = run();
    if (r.log - before <= workerData.tailFrames || i === 7) {
      Atomics.store(s, Finish, 1);
      break;
    }
  }
  Atomics.store(s, Answered, seen);
}
run();
db.close();
`;

export interface CheckpointerOptions {
  path: string;
  synchronous: 'NORMAL' | 'FULL';
  busyTimeoutMs: number;
  /** better-sqlite3's addon, as the store loads it. */
  addon: string;
  rowsPerNudge: number;
  boundFrames: number;
  /** Frames few enough for the store to copy itself, at the bound. */
  tailFrames: number;
  /** Called (once) when the worker failed; the store then checkpoints on its own. */
  onFailure(err: Error): void;
}

export interface CheckpointStats {
  count: number;
  totalMs: number;
  maxMs: number;
  /** The WAL's length in frames after the last checkpoint. */
  lastLogFrames: number;
}

export class Checkpointer {
  readonly #opts: CheckpointerOptions;
  readonly #shared = new Int32Array(new SharedArrayBuffer(Slot.Length * 4));
  #worker: Worker | undefined;
  #exited: Promise<void> | undefined;
  #rows = 0;
  #failed = false;
  #stopped = false;

  constructor(opts: CheckpointerOptions) {
    this.#opts = opts;
  }

  /** Counts committed rows; every `rowsPerNudge` of them, asks the worker for a checkpoint. */
  committed(rows: number): void {
    this.#rows += rows;
    if (this.#rows < this.#opts.rowsPerNudge || this.#failed || this.#stopped) return;
    this.#rows = 0;
    this.#worker ??= this.#start();
    Atomics.add(this.#shared, Slot.Nudges, 1);
    Atomics.notify(this.#shared, Slot.Nudges);
  }

  /** Whether the worker asked the store to finish a checkpoint itself. */
  finishRequested(): boolean {
    return Atomics.load(this.#shared, Slot.Finish) !== 0;
  }

  /** The store copied every frame: the next write restarts the WAL. */
  finished(): void {
    Atomics.store(this.#shared, Slot.Finish, 0);
  }

  /** Whether the worker has answered every nudge so far (none asked counts as answered). */
  caughtUp(): boolean {
    return Atomics.load(this.#shared, Slot.Answered) === Atomics.load(this.#shared, Slot.Nudges);
  }

  stats(): CheckpointStats {
    const s = this.#shared;
    return { count: s[Slot.Count]!, totalMs: s[Slot.TotalMicros]! / 1000, maxMs: s[Slot.MaxMicros]! / 1000, lastLogFrames: s[Slot.LastLog]! };
  }

  /** Resolves once the worker has exited, after its failure was reported (at once if it never started). */
  exited(): Promise<void> {
    // Held while someone waits for it: an unreferenced worker would let the event loop end first.
    this.#worker?.ref();
    return this.#exited ?? Promise.resolve();
  }

  /** Lets the worker make a last checkpoint and waits for it to close its connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (!this.#worker) return;
    // Held while it finishes: the process must not end before the worker closed its connection.
    this.#worker.ref();
    Atomics.store(this.#shared, Slot.Stop, 1);
    Atomics.add(this.#shared, Slot.Nudges, 1);
    Atomics.notify(this.#shared, Slot.Nudges);
    await this.#exited;
  }

  #start(): Worker {
    const o = this.#opts;
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        addon: o.addon,
        path: o.path,
        synchronous: o.synchronous,
        busyTimeoutMs: o.busyTimeoutMs,
        boundFrames: o.boundFrames,
        tailFrames: o.tailFrames,
        shared: this.#shared.buffer,
      },
    });
    // A process that ends without closing its store is not held up by the worker (SQLite's
    // checkpoint is safe to interrupt: the frames stay in the WAL until they are copied).
    worker.unref();
    this.#exited = new Promise((resolve) => {
      worker.on('error', (err) => this.#fail(err));
      worker.on('exit', (code) => {
        if (code !== 0 && !this.#stopped) this.#fail(new Error(`the WAL checkpoint worker exited with code ${code}`));
        resolve();
      });
    });
    return worker;
  }

  #fail(err: Error): void {
    if (this.#failed || this.#stopped) return;
    this.#failed = true;
    this.#opts.onFailure(err);
  }
}
