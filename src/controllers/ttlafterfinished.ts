// The TTL-after-finished controller (pkg/controller/ttlafterfinished/
// ttlafterfinished_controller.go): the shared Job informer enqueues every added or updated Job
// that has finished and has spec.ttlSecondsAfterFinished and is not being deleted; processJob
// asks src/policy/jobttl.ts about the cached Job (not yet: come back when the TTL would expire,
// KeyedQueue.addAfter), then, once it seems expired, reads the Job again from the API server,
// since the cached TTL may be stale, asks again about that copy, and deletes it with
// propagationPolicy Foreground (the garbage collector deletes its pods first) and a UID
// precondition (a Job recreated under the same name is not touched). A failed sync is retried
// with back-off. Like upstream it records no events (its recorder is never used) and it has no
// metrics here (upstream's job_deletion_duration_seconds). The time is the server's
// (client.now()) unless a clock is injected, as tests do.

import type { Job } from '../api/types.js';
import { jobTtlDecision, needsCleanup } from '../policy/jobttl.js';
import { isStatus } from '../client/errors.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { objectKey } from '../client/indexer.js';
import type { KubeClient } from '../client/interface.js';
import { jobsRef } from '../client/resources.js';
import { splitKey } from './job.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { QueueController } from './workqueuecontroller.js';

/** Its name in kube-controller-manager, and the service account it runs as. */
export const ttlAfterFinishedControllerName = 'ttl-after-finished-controller';

export interface TtlAfterFinishedControllerOptions {
  /** The controller's clock (default: the client's, i.e. the server's). */
  now?: () => Date;
  /** Where upstream's klog lines go (the clock-skew warning). */
  log?: (msg: string) => void;
}

export class TtlAfterFinishedController extends QueueController {
  private readonly jobs: SharedIndexInformer<Job>;
  protected readonly queue: KeyedQueue;
  /** DefaultControllerRateLimiter's per-item part: 5 ms doubling (capped at a minute here). */
  private readonly backoff = new FailureBackoff();
  private readonly now: () => Date;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: TtlAfterFinishedControllerOptions = {}) {
    super();
    this.now = opts.now ?? (() => client.now());
    this.jobs = informers.informerFor<Job>(jobsRef);
    this.queue = new KeyedQueue(
      async (key) => {
        await this.processJob(key);
        this.backoff.forget(key);
      },
      this.backoff.requeue(() => this.queue, ttlAfterFinishedControllerName),
    );
  }

  async start(): Promise<void> {
    // addJob and updateJob: the same test; a deleted Job needs nothing.
    const enqueue = (j: Job) => {
      if (!j.metadata.deletionTimestamp && needsCleanup(j)) this.queue.add(objectKey(j));
    };
    this.unsubscribe.push(this.jobs.addEventHandler({ add: enqueue, update: (_old, cur) => enqueue(cur) }));
    await this.jobs.start();
  }

  /** The Job as this controller's informer holds it now (tests wait for it to have seen a write). */
  cached(namespace: string, name: string): Job | undefined {
    return this.jobs.lister.get(namespace, name);
  }

  /** processJob: delete the Job if its TTL has expired, on the cache's word and then on the server's. */
  async processJob(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const job = this.jobs.lister.get(namespace, name);
    if (!job || !this.expired(key, job)) return;
    // The cached TTL may be stale (changed since): decide again on the Job as the server has it.
    let fresh: Job;
    try {
      fresh = await this.client.get<Job>(jobsRef, namespace, name);
    } catch (e) {
      if (isStatus(e, 404)) return;
      throw e;
    }
    if (!this.expired(key, fresh)) return;
    await this.client.delete(jobsRef, fresh.metadata.namespace, fresh.metadata.name ?? name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid } });
  }

  /** processTTL: true once the TTL has expired; not yet: the key comes back when it would. */
  private expired(key: string, job: Job): boolean {
    const d = jobTtlDecision(job, this.now().getTime());
    if (d.action === 'none') return false;
    if (d.action === 'error') throw new Error(d.message);
    if (d.finishedInFuture) {
      this.opts.log?.(`${ttlAfterFinishedControllerName}: Warning: Found Job finished in the future. This is likely due to time skew in the cluster. Job cleanup will be deferred. job=${key}`);
    }
    if (d.action === 'wait') {
      this.queue.addAfter(key, d.afterMs);
      return false;
    }
    return true;
  }
}
