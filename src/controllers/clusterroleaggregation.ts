// The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation, v1.32): a cluster
// role with an aggregationRule gets, as its rules, those of the cluster roles its selectors match
// (policy/rbacaggregation.ts). Any cluster role's change queues every aggregated role, as
// upstream's enqueueAll does; a role whose rules already match is not written.

import type { ClusterRole } from '../api/types.js';
import { aggregatedRules, aggregationChanges } from '../policy/rbacaggregation.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { clusterRolesRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';
import { QueueController } from './workqueuecontroller.js';

export const clusterRoleAggregationControllerName = 'clusterrole-aggregation-controller';

export class ClusterRoleAggregationController extends QueueController {
  protected readonly queue: KeyedQueue;
  private readonly roles: SharedIndexInformer<ClusterRole>;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory) {
    super();
    this.queue = new KeyedQueue((name) => this.sync(name));
    this.roles = informers.informerFor<ClusterRole>(clusterRolesRef);
  }

  private enqueueAll(): void {
    for (const r of this.roles.lister.list()) if (r.aggregationRule && r.metadata?.name) this.queue.add(r.metadata.name);
  }

  async start(): Promise<void> {
    const all = () => this.enqueueAll();
    this.unsubscribe.push(this.roles.addEventHandler({ add: all, update: all, delete: all }));
    await this.roles.start();
  }

  async sync(name: string): Promise<void> {
    const role = this.roles.lister.get(undefined, name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, this.roles.lister.list());
    if (!rules || !aggregationChanges(role, rules)) return;
    try {
      await this.client.update(clusterRolesRef, undefined, { ...role, rules });
    } catch (e) {
      // A newer version is on its way through the informer (it queues the role again), or the role went.
      if (isStatus(e, 409, 404)) return;
      throw e;
    }
  }
}
