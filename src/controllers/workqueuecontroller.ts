// What the queue-driven workload controllers (ReplicaSet, Deployment, StatefulSet, DaemonSet)
// share at the end of their life: the informer handlers they added, their key queue and their
// event recorder, undone in that order (no new keys, no new syncs, then the last events sent).

import type { EventRecorder } from '../client/recorder.js';
import type { KeyedQueue } from './queue.js';

export abstract class WorkQueueController {
  /** Removes the handlers added to shared informers (the informers themselves are shared, and stay). */
  protected unsubscribe: (() => void)[] = [];
  protected abstract readonly queue: KeyedQueue;
  protected abstract readonly events: EventRecorder;

  /** Resolves once every queued key has been synced (tests). */
  async idle(): Promise<void> {
    await this.queue.idle();
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.queue.stop();
    await this.events.stop();
  }
}
