// The endpoints controller (pkg/controller/endpoint/endpoints_controller.go): keeps the
// Endpoints of every Service with a selector (not ExternalName) equal to what its pods give —
// ready and not-ready addresses, target pods, node names, ports with named target ports
// resolved (src/policy/endpoints.ts). A Service is synced when it changes, when a pod it
// selects (before or after a label change) changes, and when its Endpoints are deleted; the
// Endpoints of a Service that is gone are deleted, and at start those left over from Services
// deleted while no controller ran (checkLeftoverEndpoints). A failed write is retried with a
// back-off and recorded as upstream records it (FailedToCreateEndpoint, FailedToUpdateEndpoint).

import { stableJSON } from '../api/stablejson.js';
import type { Endpoints, Pod, Service } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isNamespaceTerminating, isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { endpointsRef, podsRef, servicesRef } from '../client/resources.js';
import { desiredEndpoints, managesEndpoints, selects } from '../policy/endpoints.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { WorkQueueController } from './workqueuecontroller.js';

export const endpointsControllerName = 'endpoint-controller';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** The keys of the services in the pod's namespace that select it. */
export function servicesSelecting(services: SharedIndexInformer<Service>, pod: Pod): string[] {
  return services.lister
    .list(pod.metadata?.namespace)
    .filter((s) => managesEndpoints(s) && selects(s, pod))
    .map(keyOf);
}

/** A pod change that can change endpoints: IP, readiness, phase, deletion, labels, node, hostname, ports. */
export function podEndpointsChanged(old: Pod, pod: Pod): boolean {
  const view = (p: Pod) =>
    stableJSON({
      ip: p.status?.podIP,
      ips: p.status?.podIPs,
      ready: p.status?.conditions?.find((c) => c.type === 'Ready')?.status,
      phase: p.status?.phase,
      deleting: p.metadata?.deletionTimestamp,
      labels: p.metadata?.labels,
      node: p.spec?.nodeName,
      hostname: p.spec?.hostname,
      subdomain: p.spec?.subdomain,
    });
  return view(old) !== view(pod);
}

/** Subscribes `enqueue` to the pod changes that concern services (old and new labels on update). */
export function watchPodsForServices(pods: SharedIndexInformer<Pod>, services: SharedIndexInformer<Service>, enqueue: (key: string) => void): () => void {
  const changed = (p: Pod) => {
    for (const k of servicesSelecting(services, p)) enqueue(k);
  };
  return pods.addEventHandler({
    add: changed,
    update: (old, p) => {
      if (!podEndpointsChanged(old, p)) return;
      changed(p);
      if (stableJSON(old.metadata?.labels) !== stableJSON(p.metadata?.labels)) changed(old);
    },
    delete: changed,
  });
}

export class EndpointsController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  private readonly services: SharedIndexInformer<Service>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly endpoints: SharedIndexInformer<Endpoints>;
  protected readonly events: EventRecorder;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.queue = new KeyedQueue((key) => this.sync(key), this.backoff.requeue(() => this.queue, endpointsControllerName));
    this.services = informers.informerFor<Service>(servicesRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.endpoints = informers.informerFor<Endpoints>(endpointsRef);
    this.events = opts.events ?? new EventRecorder(client, { component: endpointsControllerName });
  }

  async start(): Promise<void> {
    const enqueue = (s: Service) => this.queue.add(keyOf(s));
    this.unsubscribe.push(this.services.addEventHandler({ add: enqueue, update: (_o, s) => enqueue(s), delete: enqueue }));
    this.unsubscribe.push(watchPodsForServices(this.pods, this.services, (k) => this.queue.add(k)));
    this.unsubscribe.push(this.endpoints.addEventHandler({ delete: (e) => (this.services.lister.get(e.metadata?.namespace, e.metadata?.name ?? '') ? this.queue.add(keyOf(e)) : undefined) }));
    await Promise.all([this.services.start(), this.pods.start(), this.endpoints.start()]);
    // checkLeftoverEndpoints: Endpoints whose Service went while no controller ran.
    for (const e of this.endpoints.lister.list()) if (!this.services.lister.get(e.metadata?.namespace, e.metadata?.name ?? '')) this.queue.add(keyOf(e));
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const svc = this.services.lister.get(namespace, name);
    if (!svc) {
      try {
        await this.client.delete(endpointsRef, namespace, name);
      } catch (e) {
        if (!isStatus(e, 404)) throw e;
      }
      this.backoff.forget(key);
      return;
    }
    if (!managesEndpoints(svc)) return;
    const pods = this.pods.lister.list(namespace).filter((p) => selects(svc, p));
    const current = this.endpoints.lister.get(namespace, name);
    const want = desiredEndpoints(svc, pods, current);
    if (
      current &&
      stableJSON(current.subsets ?? []) === stableJSON(want.subsets ?? []) &&
      stableJSON(current.metadata?.labels ?? {}) === stableJSON(want.metadata?.labels ?? {}) &&
      stableJSON(current.metadata?.annotations ?? {}) === stableJSON(want.metadata?.annotations ?? {})
    ) {
      this.backoff.forget(key);
      return;
    }
    try {
      if (current) await this.client.update<Endpoints>(endpointsRef, namespace, want);
      else await this.client.create<Endpoints>(endpointsRef, namespace, want);
    } catch (e) {
      // A create into a namespace being deleted keeps failing: dropped, as upstream drops it.
      if (!current && isNamespaceTerminating(e)) return;
      if (current) this.events.record(want, 'Warning', 'FailedToUpdateEndpoint', '', `Failed to update endpoint ${namespace}/${name}: ${errorText(e)}`);
      else this.events.record(want, 'Warning', 'FailedToCreateEndpoint', '', `Failed to create endpoint for service ${namespace}/${name}: ${errorText(e)}`);
      throw e;
    }
    this.backoff.forget(key);
  }
}
