// A shared informer for one kind (client-go tools/cache SharedIndexInformer with its Reflector):
// list, then watch from the list's resourceVersion; every change is applied to the indexed
// store first, then handed to each handler in the order they were added (add, update,
// delete). A watch that ends is resumed from the last resourceVersion seen (BOOKMARKs move it);
// one the server no longer can resume (410 Gone) is replaced by a new list, whose differences
// from the store arrive as adds, updates and deletes. resync() replays every object to the
// handlers as an update of itself (the periodic resync, when resyncMs is set). Objects are
// shared between handlers and frozen at the top level: readers must not change them.

import type { KubeObject } from '../api/types.js';
import { errorCode } from './errors.js';
import { Indexer, Lister, objectKey, type IndexFunc } from './indexer.js';
import type { KubeClient, ResourceRef, Watch, WatchEvent } from './interface.js';

export interface EventHandler<T extends KubeObject> {
  add?(obj: T): void;
  update?(old: T, obj: T): void;
  delete?(obj: T): void;
}

export interface InformerOptions<T extends KubeObject> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Which objects to hold; one that stops matching leaves as a delete (a client-side field selector). */
  keep?: (obj: T) => boolean;
  /** Milliseconds between resyncs to the handlers; 0 or absent: none. */
  resyncMs?: number;
  /** Milliseconds before a failed list or watch is tried again (default 1000). */
  retryMs?: number;
}

export class SharedIndexInformer<T extends KubeObject = KubeObject> {
  readonly indexer = new Indexer<T>();
  readonly lister = new Lister<T>(this.indexer);
  private readonly handlers: EventHandler<T>[] = [];
  private watch?: Watch;
  private timers = new Set<NodeJS.Timeout>();
  private resyncTimer?: NodeJS.Timeout;
  private started?: Promise<void>;
  private stopped = false;
  /** The resourceVersion the next watch starts from. */
  lastSyncResourceVersion = '';
  /** Lists made (the first and every re-list after a 410). */
  lists = 0;

  constructor(private readonly client: KubeClient, readonly ref: ResourceRef, private readonly opts: InformerOptions<T> = {}) {}

  /** Adds a handler; on a running informer it first gets every stored object as an add. Returns its removal. */
  addEventHandler(h: EventHandler<T>): () => void {
    this.handlers.push(h);
    if (this.hasSynced()) for (const o of this.indexer.values()) this.call(() => h.add?.(o));
    return () => {
      const i = this.handlers.indexOf(h);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    this.indexer.addIndex(name, fn);
  }

  hasSynced(): boolean {
    return this.lists > 0;
  }

  /** Lists and starts watching; resolves once the store holds the first list (WaitForCacheSync). */
  start(): Promise<void> {
    this.started ??= (async () => {
      await this.relist();
      await this.startWatch();
      if (this.opts.resyncMs && this.opts.resyncMs > 0) {
        this.resyncTimer = setInterval(() => this.resync(), this.opts.resyncMs);
        this.resyncTimer.unref();
      }
    })();
    return this.started;
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    this.watch = undefined;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Every stored object to every handler as an update of itself. */
  resync(): void {
    for (const o of [...this.indexer.values()]) for (const h of [...this.handlers]) this.call(() => h.update?.(o, o));
  }

  private decode(raw: T): T | undefined {
    if (this.opts.keep && !this.opts.keep(raw)) return undefined;
    return Object.freeze(raw);
  }

  /** Lists and makes the store equal to the list (DeltaFIFO.Replace): deletes for what is gone. */
  private async relist(): Promise<void> {
    const list = await this.client.list<T>(this.ref, this.opts.namespace, { labelSelector: this.opts.labelSelector, fieldSelector: this.opts.fieldSelector });
    if (this.stopped) return;
    const seen = new Set<string>();
    for (const raw of list.items) {
      const obj = this.decode(raw);
      if (!obj) continue;
      seen.add(objectKey(obj));
      this.upsert(obj);
    }
    for (const key of [...this.indexer.keys()]) if (!seen.has(key)) this.remove(key);
    this.lastSyncResourceVersion = list.resourceVersion;
    this.lists++;
  }

  private async startWatch(): Promise<void> {
    if (this.stopped) return;
    let ended = false;
    try {
      const w = await this.client.watch<T>(this.ref, this.opts.namespace, { resourceVersion: this.lastSyncResourceVersion, labelSelector: this.opts.labelSelector, fieldSelector: this.opts.fieldSelector }, {
        event: (e) => this.onEvent(e),
        end: () => {
          ended = true;
          this.restart(false);
        },
      });
      // A watch that ended while starting (an ERROR 410 at once) has been replaced already.
      if (this.stopped) w.stop();
      else if (!ended) this.watch = w;
    } catch (e) {
      if (errorCode(e) === 410) this.expired = true;
      // A refused or failed start waits before the next try; an expired one re-lists at once.
      this.restart(!this.expired);
    }
  }

  /** Set by a 410: the next watch starts after a new list. */
  private expired = false;

  /** Resumes watching (after a re-list when expired), at once or after retryMs. */
  private restart(delayed: boolean): void {
    if (this.stopped) return;
    this.watch = undefined;
    const run = async () => {
      if (this.expired) {
        await this.relist();
        this.expired = false;
      }
      await this.startWatch();
    };
    if (delayed) this.retry(run);
    else void run().catch(() => this.retry(run));
  }

  private retry(run: () => Promise<void>): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      void run().catch(() => this.retry(run));
    }, this.opts.retryMs ?? 1000);
    t.unref();
    this.timers.add(t);
  }

  private onEvent(e: WatchEvent<T>): void {
    if (this.stopped) return;
    const rv = e.object?.metadata?.resourceVersion;
    switch (e.type) {
      case 'BOOKMARK':
        if (rv) this.lastSyncResourceVersion = rv;
        return;
      case 'ERROR': {
        // A Status: 410 means the history is gone; the stream's end() follows and re-lists.
        if ((e.object as unknown as { code?: number }).code === 410) this.expired = true;
        return;
      }
      case 'DELETED':
        this.remove(objectKey(e.object));
        break;
      default: {
        const obj = this.decode(e.object);
        if (obj) this.upsert(obj);
        else this.remove(objectKey(e.object));
      }
    }
    if (rv) this.lastSyncResourceVersion = rv;
  }

  private upsert(obj: T): void {
    const prev = this.indexer.set(obj);
    for (const h of [...this.handlers]) this.call(() => (prev ? h.update?.(prev, obj) : h.add?.(obj)));
  }

  private remove(key: string): void {
    const prev = this.indexer.delete(key);
    if (!prev) return;
    for (const h of [...this.handlers]) this.call(() => h.delete?.(prev));
  }

  /** A handler's failure must not end the watch that keeps every other reader current. */
  private call(f: () => void): void {
    try {
      f();
    } catch (e) {
      console.error(`informer ${this.ref.resource}: handler: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
