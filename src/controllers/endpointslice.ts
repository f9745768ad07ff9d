// The EndpointSlice controller (pkg/controller/endpointslice endpointslice_controller.go and
// reconciler.go): keeps the EndpointSlices of every Service with a selector (not ExternalName)
// equal to what its pods give (src/policy/endpoints.ts desiredSlices): labelled
// kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by
// endpointslice-controller.k8s.io, owned by the Service (the garbage collector removes them with
// it), named `<service>-<random>`, written by slicewriter.ts. Synced as the endpoints controller
// is synced; a failure is retried with a back-off and recorded on the Service
// (FailedToUpdateEndpointSlices).

import type { EndpointSlice, Node, Pod, Service } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { endpointSlicesRef, nodesRef, podsRef, servicesRef } from '../client/resources.js';
import { desiredSlices, endpointSliceControllerName, managedByLabel, managesEndpoints, selects, serviceNameLabel, sliceObject } from '../policy/endpoints.js';
import { watchPodsForServices } from './endpoints.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { SliceWriteError, SliceWriter } from './slicewriter.js';
import { WorkQueueController } from './workqueuecontroller.js';

export const endpointSliceControllerAccount = 'endpointslice-controller';
const zoneLabel = 'topology.kubernetes.io/zone';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** The slices of `service` this controller manages. */
function managedSlices(slices: readonly EndpointSlice[], service: string): EndpointSlice[] {
  return slices.filter((s) => s.metadata?.labels?.[serviceNameLabel] === service && s.metadata?.labels?.[managedByLabel] === endpointSliceControllerName);
}

export class EndpointSliceController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  private readonly services: SharedIndexInformer<Service>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly slices: SharedIndexInformer<EndpointSlice>;
  protected readonly events: EventRecorder;
  private readonly writer: SliceWriter;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.queue = new KeyedQueue((key) => this.sync(key), this.backoff.requeue(() => this.queue, endpointSliceControllerAccount));
    this.services = informers.informerFor<Service>(servicesRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.nodes = informers.informerFor<Node>(nodesRef);
    this.slices = informers.informerFor<EndpointSlice>(endpointSlicesRef);
    this.events = opts.events ?? new EventRecorder(client, { component: 'endpointslice-controller' });
    this.writer = new SliceWriter(client);
  }

  async start(): Promise<void> {
    const enqueue = (s: Service) => this.queue.add(keyOf(s));
    this.unsubscribe.push(this.services.addEventHandler({ add: enqueue, update: (_o, s) => enqueue(s), delete: enqueue }));
    this.unsubscribe.push(watchPodsForServices(this.pods, this.services, (k) => this.queue.add(k)));
    // A managed slice changed or deleted by someone else is put back (onEndpointSliceUpdate/Delete).
    const sliceChanged = (s: EndpointSlice) => {
      const service = s.metadata?.labels?.[serviceNameLabel];
      if (service && s.metadata?.labels?.[managedByLabel] === endpointSliceControllerName) this.queue.add(`${s.metadata?.namespace ?? ''}/${service}`);
    };
    this.unsubscribe.push(this.slices.addEventHandler({ update: (_o, s) => sliceChanged(s), delete: sliceChanged }));
    await Promise.all([this.services.start(), this.pods.start(), this.nodes.start(), this.slices.start()]);
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const svc = this.services.lister.get(namespace, name);
    // A deleted Service's slices go with it (owner references, the garbage collector).
    if (!svc) this.writer.forget(key);
    if (!svc || !managesEndpoints(svc) || svc.metadata?.deletionTimestamp) return;
    const pods = this.pods.lister.list(namespace).filter((p) => selects(svc, p));
    const want = desiredSlices(svc, pods, (node) => this.nodes.lister.get(undefined, node)?.metadata?.labels?.[zoneLabel]);
    const existing = this.writer.withWritten(key, managedSlices(this.slices.lister.list(namespace), name));
    try {
      await this.writer.reconcile(key, namespace, want.map((c) => sliceObject(svc, c)), existing, svc.metadata?.uid ?? '', `for Service ${namespace}/${name}`);
    } catch (e) {
      // A conflict means the informer was behind (isStaleInformerCacheErr): retried, not recorded.
      const cause = e instanceof SliceWriteError ? e.cause : e;
      if (!isStatus(cause, 409)) this.events.record(svc, 'Warning', 'FailedToUpdateEndpointSlices', '', `Error updating Endpoint Slices for Service ${namespace}/${name}: ${errorText(e)}`);
      throw cause;
    }
    this.backoff.forget(key);
  }
}
