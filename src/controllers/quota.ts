// The quota controller: status.hard from spec.hard and status.used recomputed from the pods of
// the namespace (and the object counts of every other quotable kind served: quota/objectcount.ts's
// countsObjects, as upstream's controller monitors GetQuotableResources) whenever a quota or a
// pod changes, and the services resources from the namespace's Services; on a period to repair drift. Admission
// charges optimistically; this controller is the source of truth (it releases what finished
// or deleted pods held). Changes come from the shared informers; a sync reads the namespace
// afresh through the client (a list of its quotas, pods and counted objects) and writes the
// quota's status subresource.

import type { FeatureGates } from '../api/featuregates.js';
import type { KubeObject, Pod, ResourceQuota, Service } from '../api/types.js';
import { tracksServices } from '../quota/services.js';
import { computeQuotaStatus } from '../quota/admission.js';
import { countsObjects, tracksObjectCounts } from '../quota/objectcount.js';
import { stableJSON } from '../api/stablejson.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';
import { podsRef, resourceQuotasRef, servicesRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';

export interface QuotaControllerOptions {
  gates: FeatureGates;
  /** Milliseconds between full resyncs (default 30 s). */
  resyncMs?: number;
}

export class QuotaController {
  private readonly queue: KeyedQueue;
  private readonly resyncMs: number;
  private timer?: NodeJS.Timeout;
  private unsubscribe: (() => void)[] = [];
  private readonly quotas: SharedIndexInformer<ResourceQuota>;
  /** The counted kinds, as served (found by discovery at start). */
  private counted: { key: string; ref: ResourceRef }[] = [];

  constructor(private readonly client: KubeClient, private readonly informers: SharedInformerFactory, private readonly opts: QuotaControllerOptions) {
    this.queue = new KeyedQueue((ns) => this.syncNamespace(ns));
    this.resyncMs = opts.resyncMs ?? 30_000;
    this.quotas = informers.informerFor<ResourceQuota>(resourceQuotasRef);
  }

  async start(): Promise<void> {
    const enqueue = (o: KubeObject) => {
      const ns = o.metadata?.namespace;
      if (ns) this.queue.add(ns);
    };
    // A quota needs a sync when it is new or its spec.hard is not yet reflected in status.
    const quotaChanged = (q: ResourceQuota) => {
      if (!q.status?.used || stableJSON(q.spec?.hard ?? {}) !== stableJSON(q.status?.hard ?? {})) enqueue(q);
    };
    this.unsubscribe.push(this.quotas.addEventHandler({ add: quotaChanged, update: (_old, q) => quotaChanged(q) }));
    // Admission charged every pod when it was created; usage only has to be given back when a
    // pod goes away, finishes, or starts terminating (replenishment, as upstream does it).
    const pods = this.informers.informerFor<Pod>(podsRef);
    this.unsubscribe.push(
      pods.addEventHandler({
        update: (_old, p) => {
          if (p.metadata?.deletionTimestamp || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') enqueue(p);
        },
        delete: enqueue,
      }),
    );
    // Object counts (configmaps, secrets, budgets, …): admission charged the create; a delete gives it back.
    const served = await this.client.namespacedResources();
    this.counted = [];
    const informers = [this.quotas, pods] as SharedIndexInformer<KubeObject>[];
    for (const ref of served) {
      if (!countsObjects(ref)) continue;
      this.counted.push({ key: `${ref.group}/${ref.resource}`, ref });
      const inf = this.informers.informerFor(ref);
      this.unsubscribe.push(inf.addEventHandler({ delete: enqueue }));
      informers.push(inf);
    }
    // Services: admission charged the create and any increase; a delete or a smaller update gives back.
    const services = this.informers.informerFor<Service>(servicesRef);
    this.unsubscribe.push(services.addEventHandler({ update: (_old, s) => enqueue(s), delete: enqueue }));
    informers.push(services as SharedIndexInformer<KubeObject>);
    await Promise.all(informers.map((i) => i.start()));
    this.timer = setInterval(() => this.resyncAll(), this.resyncMs);
    this.timer.unref();
  }

  resyncAll(): void {
    for (const q of this.quotas.lister.list()) this.queue.add(q.metadata!.namespace!);
  }

  /** Recomputes every quota of a namespace; a conflicting write is retried by requeueing. */
  async syncNamespace(namespace: string): Promise<void> {
    const quotas = (await this.client.list<ResourceQuota>(resourceQuotasRef, namespace)).items;
    if (quotas.length === 0) return;
    const pods = (await this.client.list<Pod>(podsRef, namespace)).items;
    const opts = { gates: this.opts.gates, now: this.client.now() };
    const counts = new Map<string, number>();
    if (quotas.some((q) => tracksObjectCounts(q, this.counted.map((c) => c.ref)))) {
      for (const { key, ref } of this.counted) counts.set(key, (await this.client.list(ref, namespace)).items.length);
    }
    const services = quotas.some(tracksServices) ? (await this.client.list<Service>(servicesRef, namespace)).items : [];
    for (const q of quotas) {
      const fresh = computeQuotaStatus(q, pods, opts, counts, services);
      const status = { hard: fresh.hard, used: fresh.used };
      if (stableJSON(q.status) === stableJSON(status)) continue;
      try {
        await this.client.update(resourceQuotasRef, namespace, { ...q, status } as ResourceQuota, { subresource: 'status' });
      } catch (e) {
        if (isStatus(e, 409, 404)) {
          if (isStatus(e, 409)) this.queue.add(namespace);
          continue;
        }
        throw e;
      }
    }
  }

  async idle(): Promise<void> {
    await this.queue.idle();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.queue.stop();
  }
}
