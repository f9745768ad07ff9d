// What the queue-driven controllers share at the end of their life: the informer handlers they
// added and their key queue, undone in that order (no new keys, then no new syncs). The workload
// controllers (ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob) also own an event
// recorder, stopped last so that the events of the last syncs are still sent.

import type { EventRecorder } from '../client/recorder.js';
import type { KeyedQueue } from './queue.js';

export abstract class QueueController {
  /** Removes the handlers added to shared informers (the informers themselves are shared, and stay). */
  protected unsubscribe: (() => void)[] = [];
  protected abstract readonly queue: KeyedQueue;

  /** Resolves once every queued key has been synced (tests). */
  async idle(): Promise<void> {
    await this.queue.idle();
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.queue.stop();
  }
}

export abstract class WorkQueueController extends QueueController {
  protected abstract readonly events: EventRecorder;

  override async stop(): Promise<void> {
    super.stop();
    await this.events.stop();
  }
}
