// One informer per kind for every controller of a process (client-go's
// informers.SharedInformerFactory): the first controller to ask for a kind creates its
// informer, the others share its list, watch and store. start() starts those not yet
// running and resolves when all have synced (Start + WaitForCacheSync).

import type { KubeObject } from '../api/types.js';
import { SharedIndexInformer, type InformerOptions } from './informer.js';
import type { KubeClient, ResourceRef } from './interface.js';

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer>();

  constructor(readonly client: KubeClient, private readonly defaults: { resyncMs?: number } = {}) {}

  /**
   * The informer of a kind. Options (selectors, keep) are fixed by the first caller:
   * a kind whose readers need different views is asked for under a distinct `name`.
   */
  informerFor<T extends KubeObject>(ref: ResourceRef, opts: InformerOptions<T> = {}, name = ''): SharedIndexInformer<T> {
    const key = `${ref.group}/${ref.version}/${ref.resource}${name ? `#${name}` : ''}`;
    let inf = this.informers.get(key);
    if (!inf) {
      inf = new SharedIndexInformer<T>(this.client, ref, { resyncMs: this.defaults.resyncMs, ...opts }) as unknown as SharedIndexInformer;
      this.informers.set(key, inf);
    }
    return inf as unknown as SharedIndexInformer<T>;
  }

  /** Starts every informer asked for so far; resolves once each holds its first list. */
  async start(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.start()));
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }
}
