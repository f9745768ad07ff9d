// Namespace lifecycle: a namespace marked for deletion has its contents deleted, then its
// finalizer removed and the namespace itself deleted.

import type { Namespace } from '../api/types.js';
import type { Api, RequestInfo } from '../apiserver/rest.js';
import { resources } from '../apiserver/resources.js';
import { StatusError } from '../apiserver/status.js';
import { KeyedQueue } from './queue.js';
import { componentUserAgent } from './useragent.js';

const controllerUser: RequestInfo = {
  user: { name: 'system:serviceaccount:kube-system:namespace-controller', groups: ['system:masters'] },
  userAgent: componentUserAgent('kube-controller-manager', 'system:serviceaccount:kube-system:namespace-controller'),
  dryRun: false,
  fieldValidation: 'Ignore',
  warnings: [],
};

export class NamespaceController {
  private readonly queue: KeyedQueue;
  private watch?: { cancel(): void };
  private retry?: NodeJS.Timeout;

  constructor(private readonly api: Api) {
    this.queue = new KeyedQueue((name) => this.sync(name));
  }

  async start(): Promise<void> {
    this.watch = await this.api.watch(this.api.def('namespaces'), undefined, {}, {
      send: (_t, o) => {
        const ns = o as Namespace;
        if (ns.metadata?.deletionTimestamp) this.queue.add(ns.metadata.name!);
      },
      close: () => undefined,
    });
    // Pods that terminate gracefully finish later; look again until the namespace is gone.
    this.retry = setInterval(() => void this.requeueTerminating(), 2000);
    this.retry.unref();
  }

  private async requeueTerminating(): Promise<void> {
    const list = await this.api.list(this.api.def('namespaces'), undefined);
    for (const ns of list.items) if (ns.metadata?.deletionTimestamp) this.queue.add(ns.metadata.name!);
  }

  async sync(name: string): Promise<void> {
    const ns = await this.api.tryGet<Namespace>(this.api.def('namespaces'), undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    let remaining = 0;
    for (const def of resources) {
      if (!def.namespaced) continue;
      const items = (await this.api.list(def, name)).items;
      for (const o of items) {
        remaining++;
        try {
          await this.api.delete(def, name, o.metadata!.name!, {}, { ...controllerUser, warnings: [] });
        } catch (e) {
          if (!(e instanceof StatusError && e.code === 404)) throw e;
        }
      }
    }
    if (remaining > 0) {
      // Check whether everything went (graceful pods may still be terminating).
      for (const def of resources) {
        if (def.namespaced && (await this.api.list(def, name, { limit: 1 })).items.length > 0) return;
      }
    }
    try {
      await this.api.remove(this.api.def('namespaces'), undefined, name);
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
  }

  async idle(): Promise<void> {
    await this.queue.idle();
  }

  stop(): void {
    this.watch?.cancel();
    if (this.retry) clearInterval(this.retry);
    this.queue.stop();
  }
}
