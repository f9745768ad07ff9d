// Namespace lifecycle: a namespace marked for deletion has its contents deleted, then its
// finalizer removed and the namespace itself deleted. It reads namespaces from the shared
// informer and writes through the client (src/client), as kube-controller-manager's
// namespace controller does.

import type { Namespace } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { namespacesRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';

export class NamespaceController {
  private readonly queue: KeyedQueue;
  private readonly namespaces: SharedIndexInformer<Namespace>;
  private unsubscribe?: () => void;
  private retry?: NodeJS.Timeout;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory) {
    this.queue = new KeyedQueue((name) => this.sync(name));
    this.namespaces = informers.informerFor<Namespace>(namespacesRef);
  }

  async start(): Promise<void> {
    const enqueue = (ns: Namespace) => {
      if (ns.metadata?.deletionTimestamp) this.queue.add(ns.metadata.name!);
    };
    this.unsubscribe = this.namespaces.addEventHandler({ add: enqueue, update: (_old, ns) => enqueue(ns) });
    await this.namespaces.start();
    // Pods that terminate gracefully finish later; look again until the namespace is gone.
    this.retry = setInterval(() => this.requeueTerminating(), 2000);
    this.retry.unref();
  }

  private requeueTerminating(): void {
    for (const ns of this.namespaces.lister.list()) if (ns.metadata?.deletionTimestamp) this.queue.add(ns.metadata.name!);
  }

  async sync(name: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.client.get<Namespace>(namespacesRef, undefined, name);
    } catch (e) {
      if (isStatus(e, 404)) return;
      throw e;
    }
    if (!ns.metadata.deletionTimestamp) return;
    const kinds = await this.client.namespacedResources();
    let remaining = 0;
    for (const ref of kinds) {
      const items = (await this.client.list(ref, name)).items;
      for (const o of items) {
        remaining++;
        try {
          await this.client.delete(ref, name, o.metadata!.name!);
        } catch (e) {
          if (!isStatus(e, 404)) throw e;
        }
      }
    }
    if (remaining > 0) {
      // Check whether everything went (graceful pods may still be terminating).
      for (const ref of kinds) {
        if ((await this.client.list(ref, name, { limit: 1 })).items.length > 0) return;
      }
    }
    try {
      await this.client.finalizeNamespace(name);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }

  async idle(): Promise<void> {
    await this.queue.idle();
  }

  stop(): void {
    this.unsubscribe?.();
    if (this.retry) clearInterval(this.retry);
    this.queue.stop();
  }
}
