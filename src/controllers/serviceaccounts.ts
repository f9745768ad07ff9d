// The serviceaccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
// every active namespace has a `default` ServiceAccount. A namespace is synced when it appears
// or changes and when one of its ServiceAccounts is deleted; the sync creates the missing
// account. Terminating namespaces are left alone, so namespace deletion is never undone.

import type { Namespace, ServiceAccount } from '../api/types.js';
import { defaultServiceAccountName } from '../admission/serviceaccount.js';
import type { Api, RequestInfo } from '../apiserver/rest.js';
import { StatusError } from '../apiserver/status.js';
import { KeyedQueue } from './queue.js';
import { componentUserAgent } from './useragent.js';

const controllerUser: RequestInfo = {
  user: { name: 'system:serviceaccount:kube-system:service-account-controller', groups: ['system:masters'] },
  userAgent: componentUserAgent('kube-controller-manager', 'system:serviceaccount:kube-system:service-account-controller'),
  dryRun: false,
  fieldValidation: 'Ignore',
  warnings: [],
};

/** The accounts the controller keeps in every namespace (upstream's ServiceAccountsControllerOptions). */
export const managedServiceAccounts: readonly string[] = [defaultServiceAccountName];

export class ServiceAccountsController {
  private readonly queue: KeyedQueue;
  private watches: { cancel(): void }[] = [];

  constructor(private readonly api: Api) {
    this.queue = new KeyedQueue((ns) => this.syncNamespace(ns));
  }

  /** Starts the watches; the namespaces that exist now arrive as ADDED and are synced first. */
  async start(): Promise<void> {
    this.watches.push(
      await this.api.watch(this.api.def('serviceaccounts'), undefined, { resourceVersion: String(await this.api.store.currentRevision()) }, {
        send: (t, o) => {
          const sa = o as ServiceAccount;
          if (t === 'DELETED' && managedServiceAccounts.includes(sa.metadata?.name ?? '')) this.queue.add(sa.metadata!.namespace!);
        },
        close: () => undefined,
      }),
    );
    this.watches.push(
      await this.api.watch(this.api.def('namespaces'), undefined, {}, {
        send: (t, o) => {
          const ns = o as Namespace;
          if ((t === 'ADDED' || t === 'MODIFIED') && isActive(ns)) this.queue.add(ns.metadata!.name!);
        },
        close: () => undefined,
      }),
    );
  }

  async syncNamespace(name: string): Promise<void> {
    const ns = await this.api.tryGet<Namespace>(this.api.def('namespaces'), undefined, name);
    if (!ns || !isActive(ns)) return;
    const def = this.api.def('serviceaccounts');
    for (const sa of managedServiceAccounts) {
      if (await this.api.getKV(def, name, sa)) continue;
      try {
        await this.api.create(def, name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } }, { ...controllerUser, warnings: [] });
      } catch (e) {
        // Already there (a race with another writer), or the namespace began terminating.
        if (e instanceof StatusError && (e.code === 409 || e.code === 403 || e.code === 404)) continue;
        throw e;
      }
    }
  }

  async idle(): Promise<void> {
    await this.queue.idle();
  }

  stop(): void {
    for (const w of this.watches) w.cancel();
    this.queue.stop();
  }
}

function isActive(ns: Namespace): boolean {
  return !ns.metadata?.deletionTimestamp && (ns.status?.phase ?? 'Active') === 'Active';
}
