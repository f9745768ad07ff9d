// The quota controller: status.hard from spec.hard and status.used recomputed from the pods of
// the namespace (and the counts of configmaps, secrets and serviceaccounts) whenever a quota or a
// pod changes, and on a period to repair drift. Admission
// charges optimistically; this controller is the source of truth (it releases what finished
// or deleted pods held).

import type { Pod, ResourceQuota } from '../api/types.js';
import { computeQuotaStatus } from '../quota/admission.js';
import { countedResources, tracksObjectCounts } from '../quota/objectcount.js';
import type { Api, RequestInfo } from '../apiserver/rest.js';
import { StatusError } from '../apiserver/status.js';
import { stableJSON } from '../api/stablejson.js';
import { KeyedQueue } from './queue.js';
import { componentUserAgent } from './useragent.js';
import { storageKey } from '../apiserver/resources.js';

const controllerUser: RequestInfo = {
  user: { name: 'system:serviceaccount:kube-system:resourcequota-controller', groups: ['system:masters'] },
  userAgent: componentUserAgent('kube-controller-manager', 'system:serviceaccount:kube-system:resourcequota-controller'),
  dryRun: false,
  fieldValidation: 'Ignore',
  warnings: [],
};

export class QuotaController {
  private readonly queue: KeyedQueue;
  private timer?: NodeJS.Timeout;
  private watches: { cancel(): void }[] = [];

  constructor(private readonly api: Api, private readonly resyncMs = 30_000) {
    this.queue = new KeyedQueue((ns) => this.syncNamespace(ns));
  }

  async start(): Promise<void> {
    const quotas = this.api.def('resourcequotas');
    const pods = this.api.def('pods');
    const enqueue = (o: { metadata?: { namespace?: string } }) => {
      const ns = o.metadata?.namespace;
      if (ns) this.queue.add(ns);
    };
    // A quota needs a sync when it is new or its spec.hard is not yet reflected in status.
    this.watches.push(
      await this.api.watch(quotas, undefined, {}, {
        send: (t, o) => {
          const q = o as ResourceQuota;
          if (t === 'ADDED' || t === 'MODIFIED') {
            if (!q.status?.used || stableJSON(q.spec?.hard ?? {}) !== stableJSON(q.status?.hard ?? {})) enqueue(q);
          }
        },
        close: () => undefined,
      }),
    );
    // Admission charged every pod when it was created; usage only has to be given back when a
    // pod goes away, finishes, or starts terminating (replenishment, as upstream does it). The
    // raw store watch lets the common case, a new pod, pass without decoding it.
    const podPrefix = storageKey(pods, undefined);
    this.watches.push(
      await this.api.store.watch(podPrefix, await this.api.store.currentRevision(), {
        event: (e) => {
          const releases =
            e.type === 'DELETE' ||
            (!e.created && (e.kv.value.includes('"deletionTimestamp"') || e.kv.value.includes('"phase":"Succeeded"') || e.kv.value.includes('"phase":"Failed"')));
          if (releases) this.queue.add(e.kv.key.slice(podPrefix.length).split('/')[0]!);
        },
      }),
    );
    // Object counts (configmaps, secrets, …): admission charged the create; a delete gives it back.
    for (const { resource } of countedResources) {
      const prefix = storageKey(this.api.def(resource), undefined);
      this.watches.push(
        await this.api.store.watch(prefix, await this.api.store.currentRevision(), {
          event: (e) => {
            if (e.type === 'DELETE') this.queue.add(e.kv.key.slice(prefix.length).split('/')[0]!);
          },
        }),
      );
    }
    this.timer = setInterval(() => void this.resyncAll(), this.resyncMs);
    this.timer.unref();
  }

  async resyncAll(): Promise<void> {
    const list = await this.api.list(this.api.def('resourcequotas'), undefined);
    for (const q of list.items) this.queue.add(q.metadata!.namespace!);
  }

  /** Recomputes every quota of a namespace; a conflicting write is retried by requeueing. */
  async syncNamespace(namespace: string): Promise<void> {
    const quotas = (await this.api.list(this.api.def('resourcequotas'), namespace)).items as ResourceQuota[];
    if (quotas.length === 0) return;
    const pods = (await this.api.list(this.api.def('pods'), namespace)).items as Pod[];
    const opts = { gates: this.api.gates, now: this.api.now() };
    const counts = new Map<string, number>();
    if (quotas.some(tracksObjectCounts)) {
      for (const { group, resource } of countedResources) {
        const page = await this.api.store.list(storageKey(this.api.def(resource), namespace));
        counts.set(`${group}/${resource}`, page.items.length);
      }
    }
    for (const q of quotas) {
      const fresh = computeQuotaStatus(q, pods, opts, counts);
      const status = { hard: fresh.hard, used: fresh.used };
      if (stableJSON(q.status) === stableJSON(status)) continue;
      try {
        await this.api.update(this.api.def('resourcequotas'), namespace, q.metadata.name!, { ...q, status } as ResourceQuota, { ...controllerUser, warnings: [] }, 'status');
      } catch (e) {
        if (e instanceof StatusError && (e.code === 409 || e.code === 404)) {
          if (e.code === 409) this.queue.add(namespace);
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
    for (const w of this.watches) w.cancel();
    this.queue.stop();
  }
}
