// The horizontal pod autoscaler controller (pkg/controller/podautoscaler/horizontal.go
// reconcileAutoscaler, as kube-controller-manager runs it at 1.32): every autoscaler is synced
// one sync period (15 s, --horizontal-pod-autoscaler-sync-period) after it appears or changes,
// and again every period after each sync:
// it reads the target's scale subresource, the pods its selector picks (the shared informer) and
// their metrics straight from the server's metrics.k8s.io storage (the reader the PodMetrics
// endpoint answers from, no HTTP), lets src/policy/hpa.ts decide, writes the new size to the
// scale subresource, records the events and writes the status when it changed. The
// recommendations and scale events each autoscaler's stabilization windows and rate limits read
// are kept here, in memory, as upstream keeps them; they start afresh with the controller.

import { stableJSON } from '../api/stablejson.js';
import type { HorizontalPodAutoscaler, Pod, Scale } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { podsRef } from '../client/resources.js';
import { emptyMemory, type AutoscalerMemory } from '../policy/hpabehavior.js';
import { defaultReconcileOptions, finishRescale, planReconcile, scaleUnavailable, type AutoscalerSelectors, type Reconciliation, type ReconcileOptions } from '../policy/hpa.js';
import type { PodMetricsReading } from '../policy/hpareplicas.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/** The controller's name in events and its service account (kube-controller-manager's). */
export const horizontalPodAutoscalerControllerName = 'horizontal-pod-autoscaler';

export const horizontalPodAutoscalersRef: ResourceRef = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true };

/** --horizontal-pod-autoscaler-sync-period. */
export const defaultSyncPeriodMs = 15_000;

/** Where the pods' resource usage comes from: the server's metrics.k8s.io storage (metricsstorage.ts), or a fake. */
export interface PodMetricsSource {
  podMetrics(pods: { namespace: string; name: string }[]): PodMetricsReading[];
}

export interface HorizontalPodAutoscalerControllerOptions {
  metrics: PodMetricsSource;
  syncPeriodMs?: number;
  /** Tolerance, CPU initialization period, initial readiness delay, downscale stabilization. */
  reconcile?: Partial<ReconcileOptions>;
  events?: EventRecorder;
  log?: (msg: string) => void;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export class HorizontalPodAutoscalerController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  protected readonly events: EventRecorder;
  private readonly hpas: SharedIndexInformer<HorizontalPodAutoscaler>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly memory = new Map<string, AutoscalerMemory>();
  private readonly selectors: AutoscalerSelectors = new Map();
  private readonly syncPeriodMs: number;
  private readonly options: ReconcileOptions;
  private served?: ResourceRef[];

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: HorizontalPodAutoscalerControllerOptions) {
    super();
    this.queue = new KeyedQueue(
      (key) => this.sync(key),
      (key, e) => opts.log?.(`horizontal-pod-autoscaler: ${key}: ${errorText(e)}`),
    );
    this.hpas = informers.informerFor<HorizontalPodAutoscaler>(horizontalPodAutoscalersRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.events = opts.events ?? new EventRecorder(client, { component: horizontalPodAutoscalerControllerName });
    this.syncPeriodMs = opts.syncPeriodMs ?? defaultSyncPeriodMs;
    this.options = { ...defaultReconcileOptions, ...opts.reconcile };
  }

  async start(): Promise<void> {
    // enqueueHPA: AddRateLimited with a fixed interval of the sync period, so a change (the
    // controller's own status write included) is looked at within one period, not at once;
    // a key already waiting keeps its time.
    const enqueue = (h: HorizontalPodAutoscaler) => this.queue.addAfter(keyOf(h), this.syncPeriodMs);
    const added = (h: HorizontalPodAutoscaler) => {
      // An autoscaler selects nothing until its first reconciliation (upstream's labels.Nothing()).
      if (!this.selectors.has(keyOf(h))) this.selectors.set(keyOf(h), undefined);
      enqueue(h);
    };
    const deleted = (h: HorizontalPodAutoscaler) => {
      this.memory.delete(keyOf(h));
      this.selectors.delete(keyOf(h));
    };
    this.unsubscribe.push(this.hpas.addEventHandler({ add: added, update: (_o, h) => enqueue(h), delete: deleted }));
    await Promise.all([this.hpas.start(), this.pods.start()]);
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const hpa = this.hpas.lister.get(namespace, name);
    if (!hpa) {
      this.memory.delete(key);
      return;
    }
    try {
      await this.reconcile(key, hpa);
    } finally {
      // Every autoscaler is looked at again after the sync period, whatever happened.
      this.queue.addAfter(key, this.syncPeriodMs);
    }
  }

  /** The resource the scaleTargetRef names (RESTMappings of its group and kind). */
  private async targetOf(hpa: HorizontalPodAutoscaler): Promise<ResourceRef> {
    const target = hpa.spec?.scaleTargetRef;
    const apiVersion = target?.apiVersion ?? '';
    const parts = apiVersion.split('/');
    if (parts.length > 2) throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
    const group = parts.length === 2 ? parts[0]! : '';
    this.served ??= await this.client.namespacedResources();
    const ref = this.served.find((r) => r.group === group && r.kind === target?.kind);
    if (!ref) throw new Error(`no matches for kind "${target?.kind ?? ''}" in group "${group}"`);
    return ref;
  }

  private async reconcile(key: string, hpa: HorizontalPodAutoscaler): Promise<void> {
    const namespace = hpa.metadata?.namespace ?? '';
    let r: Reconciliation;
    let scale: Scale | undefined;
    let ref: ResourceRef | undefined;
    try {
      ref = await this.targetOf(hpa);
      scale = await this.client.getScale!(ref, namespace, hpa.spec?.scaleTargetRef?.name ?? '');
    } catch (e) {
      r = scaleUnavailable(hpa, errorText(e), this.client.now().getTime());
    }
    if (scale && ref) {
      const memory = this.memory.get(key) ?? emptyMemory();
      this.memory.set(key, memory);
      const view = { specReplicas: scale.spec?.replicas ?? 0, statusReplicas: scale.status?.replicas ?? 0, selector: scale.status?.selector ?? '' };
      const metricsFor = (pods: readonly Pod[]) => this.opts.metrics.podMetrics(pods.map((p) => ({ namespace, name: p.metadata.name ?? '' })));
      r = planReconcile(hpa, view, this.pods.lister.list(namespace), metricsFor, memory, this.client.now().getTime(), this.options, this.selectors);
      if (r.rescale) {
        let writeError: string | undefined;
        try {
          await this.client.updateScale!(ref, namespace, { ...deepCopyJSON(scale), spec: { ...(scale.spec ?? {}), replicas: r.rescale.replicas } });
        } catch (e) {
          writeError = errorText(e);
        }
        finishRescale(r, memory, writeError, this.client.now().getTime());
      }
    }
    for (const e of r!.events) this.events.record(hpa, e.type, e.reason, '', e.message);
    // updateStatusIfNeeded.
    if (stableJSON(r!.hpa.status) !== stableJSON(hpa.status)) {
      await this.client.update<HorizontalPodAutoscaler>(horizontalPodAutoscalersRef, namespace, r!.hpa, { subresource: 'status' });
    }
    if (r!.error) this.opts.log?.(`horizontal-pod-autoscaler: ${key}: ${r!.error}`);
  }
}
