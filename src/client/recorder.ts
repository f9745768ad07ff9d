// The one event recorder of the controllers (client-go tools/record: EventBroadcaster,
// EventCorrelator, recorder): core/v1 Events written through the client in the background. As
// client-go's broadcaster does, the caller never waits for the write, at most 1,000 events wait
// and a new one is dropped (and counted) while that many are queued. Before each write the
// correlator's rules apply: a repeat of the same type, reason and message about the same
// object bumps count and lastTimestamp of the first instead of writing another
// (src/api/events.ts), and each source and object has its own token bucket (spamfilter.ts), so
// one object cannot flood the server. Every write also takes a token of the recorder's own
// client-side rate limit when one is given (its clientset's qps and burst). The clock is
// injected (the client's by default), so the rules are deterministic under test. A write that
// fails is dropped, as recordToSink drops one the server refused; where it is reported is the
// owner's choice (`log`), and the two refusals upstream logs only at V(5) (AlreadyExists, and a
// namespace being terminated: on namespace deletion a pod's own Killing events would otherwise
// fill the log) are never reported. The node agent and every controller share this recorder.

import { eventKey, newEvent, repeatedEvent, type EventSource } from '../api/events.js';
import type { Event, KubeObject } from '../api/types.js';
import { errorCode, isNamespaceTerminating, isStatus, statusOf } from './errors.js';
import type { KubeClient } from './interface.js';
import type { TokenBucket } from './ratelimit.js';
import { eventsRef } from './resources.js';
import { SpamFilter, spamKey } from './spamfilter.js';

/** client-go tools/record maxQueuedEvents. */
export const maxQueuedEvents = 1000;

export type EventType = 'Normal' | 'Warning';

interface Pending {
  obj: KubeObject;
  type: EventType;
  reason: string;
  action: string;
  message: string;
  annotations?: Record<string, string>;
}

export interface RecorderOptions {
  /** The client-side rate limit of the writes (none when absent). */
  limiter?: TokenBucket;
  /** The clock of timestamps and of the spam filter (default: the client's). */
  now?: () => Date;
  /** The per-object limit (default upstream's: burst 25, one per 300 s). */
  spamBurst?: number;
  spamQPS?: number;
  /**
   * Where a failed write is reported (client-go: klog.Errorf). Absent: stderr, and only failures
   * that are not the server's refusal (a refusal is dropped silently). Given: refusals too, all
   * but AlreadyExists and a terminating namespace.
   */
  log?: (msg: string) => void;
}

/** client-go's EventCorrelator caches hold the 4,096 most recent keys; objects beyond that are forgotten oldest first. */
export const maxRememberedObjects = 4096;

export class EventRecorder {
  private readonly queue: Pending[] = [];
  private running?: Promise<void>;
  private seq = 0;
  private stopped = false;
  /** Event object name by eventKey, per involved object uid (dropped with the object). */
  private readonly written = new Map<string, Map<string, string>>();
  private readonly spam: SpamFilter;
  private readonly now: () => Date;
  /** Events dropped because the queue was full. */
  dropped = 0;
  /** Events dropped by the per-object limit. */
  spamFiltered = 0;

  constructor(private readonly client: KubeClient, private readonly source: EventSource, private readonly opts: RecorderOptions = {}) {
    this.now = opts.now ?? (() => client.now());
    this.spam = new SpamFilter(() => this.now().getTime(), opts.spamBurst, opts.spamQPS);
  }

  /** `annotations`: the new event's metadata.annotations (client-go's AnnotatedEventf); none when empty. */
  record(obj: KubeObject, type: EventType, reason: string, action: string, message: string, annotations?: Record<string, string>): void {
    if (this.stopped) return;
    if (this.queue.length >= maxQueuedEvents) {
      this.dropped++;
      return;
    }
    this.queue.push({ obj, type, reason, action, message, ...(annotations && Object.keys(annotations).length ? { annotations } : {}) });
    this.kick();
  }

  private kick(): void {
    if (this.running || this.stopped || this.queue.length === 0) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // Recorded between the loop's last check and here.
      this.kick();
    });
  }

  /** Forgets the events written about an object that is gone. */
  forget(uid: string | undefined): void {
    if (uid) this.written.delete(uid);
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const e = this.queue.shift()!;
      if (!this.spam.allow(spamKey(this.source, e.obj))) {
        this.spamFiltered++;
        continue;
      }
      await this.opts.limiter?.take();
      if (this.stopped) return;
      try {
        await this.write(e);
      } catch (err) {
        // The namespace may be going away; an event is not worth failing anything for.
        this.report(e, err);
      }
    }
  }

  private report(e: Pending, err: unknown): void {
    const what = `${e.reason} for ${e.obj.metadata?.namespace}/${e.obj.metadata?.name}: ${err instanceof Error ? err.message : String(err)}`;
    if (!this.opts.log) {
      if (errorCode(err) === undefined) console.error(`events: ${what}`);
      return;
    }
    if (statusOf(err)?.reason === 'AlreadyExists') return;
    if (isNamespaceTerminating(err)) return;
    this.opts.log(`event ${what}`);
  }

  private async write(e: Pending): Promise<void> {
    const uid = e.obj.metadata?.uid ?? '';
    const key = eventKey(e.obj, e.type, e.reason, e.message);
    const now = this.now();
    const known = this.written.get(uid)?.get(key);
    const namespace = e.obj.metadata?.namespace ?? 'default';
    if (known) {
      let ev: Event | undefined;
      try {
        ev = await this.client.get<Event>(eventsRef, namespace, known);
      } catch (err) {
        if (!isStatus(err, 404)) throw err;
      }
      if (ev) {
        try {
          await this.client.update(eventsRef, namespace, repeatedEvent(ev, now));
          return;
        } catch (err) {
          if (!isStatus(err, 404, 409)) throw err;
        }
      }
    }
    const ev = newEvent(e.obj, e.type, e.reason, e.message, this.source, now, this.seq++, e.action);
    if (e.annotations) ev.metadata.annotations = { ...e.annotations };
    await this.client.create(eventsRef, namespace, ev);
    let byKey = this.written.get(uid);
    if (!byKey) {
      if (this.written.size >= maxRememberedObjects) this.written.delete(this.written.keys().next().value!);
      this.written.set(uid, (byKey = new Map()));
    }
    byKey.set(key, ev.metadata.name!);
  }

  /** Resolves when every queued event has been written (or given up on). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Drops what is queued and waits for the write in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    this.opts.limiter?.releaseAll();
    await this.running;
  }
}
