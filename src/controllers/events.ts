// The event recorder of the in-process controllers: core/v1 Events written through the Api in
// the background, as client-go's recorder writes them (src/api/events.ts: a repeat of the same
// type, reason and message about the same object bumps count and lastTimestamp of the first
// instead of writing another). As client-go's broadcaster does, the caller never waits for the
// write, at most 1,000 events wait to be written and a new one is dropped while that many are
// queued; every write takes a token of the recorder's own client-side rate limit (its
// clientset's qps and burst). A burst of failures (thousands of pods created with no node to run
// on) therefore costs a bounded amount of work and never slows the decisions themselves.

import { eventKey, newEvent, repeatedEvent, type EventSource } from '../api/events.js';
import type { Event, KubeObject } from '../api/types.js';
import type { Api, RequestInfo } from '../apiserver/rest.js';
import { StatusError } from '../apiserver/status.js';
import type { TokenBucket } from '../client/ratelimit.js';

/** client-go tools/record maxQueuedEvents. */
export const maxQueuedEvents = 1000;

interface Pending {
  obj: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  message: string;
}

export class ApiEventRecorder {
  private readonly queue: Pending[] = [];
  private running?: Promise<void>;
  private seq = 0;
  private stopped = false;
  /** Event object name by eventKey, per involved object uid (dropped with the object). */
  private readonly written = new Map<string, Map<string, string>>();
  dropped = 0;

  constructor(private readonly api: Api, private readonly source: EventSource, private readonly user: RequestInfo, private readonly limiter?: TokenBucket) {}

  record(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, action: string, message: string): void {
    if (this.stopped) return;
    if (this.queue.length >= maxQueuedEvents) {
      this.dropped++;
      return;
    }
    this.queue.push({ obj, type, reason, action, message });
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
      await this.limiter?.take();
      if (this.stopped) return;
      try {
        await this.write(e);
      } catch (err) {
        // The namespace may be going away; an event is not worth failing anything for.
        if (!(err instanceof StatusError)) console.error(`events: ${e.reason} for ${e.obj.metadata?.namespace}/${e.obj.metadata?.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  private async write(e: Pending): Promise<void> {
    const def = this.api.def('events');
    const uid = e.obj.metadata?.uid ?? '';
    const key = eventKey(e.obj, e.type, e.reason, e.message);
    const now = this.api.now();
    const known = this.written.get(uid)?.get(key);
    const namespace = e.obj.metadata?.namespace ?? 'default';
    if (known) {
      const ev = await this.api.tryGet<Event>(def, namespace, known);
      if (ev) {
        try {
          await this.api.update(def, namespace, known, repeatedEvent(ev, now), { ...this.user, warnings: [] });
          return;
        } catch (err) {
          if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
        }
      }
    }
    const ev = newEvent(e.obj, e.type, e.reason, e.message, this.source, now, this.seq++, e.action);
    await this.api.create(def, namespace, ev, { ...this.user, warnings: [] });
    let byKey = this.written.get(uid);
    if (!byKey) this.written.set(uid, (byKey = new Map()));
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
    this.limiter?.releaseAll();
    await this.running;
  }
}
