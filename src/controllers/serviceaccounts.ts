// The serviceaccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
// every active namespace has a `default` ServiceAccount. A namespace is synced when it appears
// or changes and when one of its ServiceAccounts is deleted; the sync creates the missing
// account. Terminating namespaces are left alone, so namespace deletion is never undone. It
// reads namespaces and ServiceAccounts from the shared informers and writes through the client.

import type { Namespace, ServiceAccount } from '../api/types.js';
import { defaultServiceAccountName } from '../admission/serviceaccount.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { namespacesRef, serviceAccountsRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';
import { QueueController } from './workqueuecontroller.js';

/** The accounts the controller keeps in every namespace (upstream's ServiceAccountsControllerOptions). */
export const managedServiceAccounts: readonly string[] = [defaultServiceAccountName];

export class ServiceAccountsController extends QueueController {
  protected readonly queue: KeyedQueue;
  private readonly namespaces: SharedIndexInformer<Namespace>;
  private readonly accounts: SharedIndexInformer<ServiceAccount>;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory) {
    super();
    this.queue = new KeyedQueue((ns) => this.syncNamespace(ns));
    this.namespaces = informers.informerFor<Namespace>(namespacesRef);
    this.accounts = informers.informerFor<ServiceAccount>(serviceAccountsRef);
  }

  /** Starts the informers; the namespaces that exist now arrive as adds and are synced first. */
  async start(): Promise<void> {
    await this.accounts.start();
    this.unsubscribe.push(
      this.accounts.addEventHandler({
        delete: (sa) => {
          if (managedServiceAccounts.includes(sa.metadata?.name ?? '')) this.queue.add(sa.metadata!.namespace!);
        },
      }),
    );
    const enqueue = (ns: Namespace) => {
      if (isActive(ns)) this.queue.add(ns.metadata!.name!);
    };
    this.unsubscribe.push(this.namespaces.addEventHandler({ add: enqueue, update: (_old, ns) => enqueue(ns) }));
    await this.namespaces.start();
  }

  async syncNamespace(name: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.client.get<Namespace>(namespacesRef, undefined, name);
    } catch (e) {
      if (isStatus(e, 404)) return;
      throw e;
    }
    if (!isActive(ns)) return;
    for (const sa of managedServiceAccounts) {
      if (this.accounts.lister.get(name, sa)) continue;
      try {
        await this.client.create(serviceAccountsRef, name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } });
      } catch (e) {
        // Already there (a race with another writer), or the namespace began terminating.
        if (isStatus(e, 409, 403, 404)) continue;
        throw e;
      }
    }
  }
}

function isActive(ns: Namespace): boolean {
  return !ns.metadata?.deletionTimestamp && (ns.status?.phase ?? 'Active') === 'Active';
}
