// The EndpointSlice mirroring controller (pkg/controller/endpointslicemirroring): Endpoints
// written by hand for a Service without a selector get EndpointSlices that say the same
// (src/policy/endpoints.ts mirroredSlices), labelled managed-by
// endpointslicemirroring-controller.k8s.io and owned by the Endpoints, so that what reads slices
// (kubectl describe svc) sees them. Endpoints whose Service is missing or has a selector, that
// are labelled endpointslice.kubernetes.io/skip-mirror (the kubernetes Service's) or being
// deleted lose their mirrored slices. Synced when the Endpoints, their Service or a mirrored
// slice change; written by slicewriter.ts; a failure is retried with a back-off and recorded on
// the Endpoints (FailedToUpdateEndpointSlices).

import type { Endpoints, EndpointSlice, Service } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { endpointSlicesRef, endpointsRef, servicesRef } from '../client/resources.js';
import { managedByLabel, mirroredSlices, mirroringControllerName, serviceNameLabel, shouldMirror } from '../policy/endpoints.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { SliceWriteError, SliceWriter } from './slicewriter.js';
import { WorkQueueController } from './workqueuecontroller.js';

export const endpointSliceMirroringControllerAccount = 'endpointslicemirroring-controller';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export class EndpointSliceMirroringController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  private readonly services: SharedIndexInformer<Service>;
  private readonly endpoints: SharedIndexInformer<Endpoints>;
  private readonly slices: SharedIndexInformer<EndpointSlice>;
  private readonly writer: SliceWriter;
  protected readonly events: EventRecorder;

  constructor(client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.queue = new KeyedQueue((key) => this.sync(key), this.backoff.requeue(() => this.queue, endpointSliceMirroringControllerAccount));
    this.services = informers.informerFor<Service>(servicesRef);
    this.endpoints = informers.informerFor<Endpoints>(endpointsRef);
    this.slices = informers.informerFor<EndpointSlice>(endpointSlicesRef);
    this.events = opts.events ?? new EventRecorder(client, { component: 'endpointslice-mirroring-controller' });
    this.writer = new SliceWriter(client);
  }

  async start(): Promise<void> {
    const enqueue = (o: Endpoints | Service) => this.queue.add(keyOf(o));
    this.unsubscribe.push(this.endpoints.addEventHandler({ add: enqueue, update: (_o, e) => enqueue(e), delete: enqueue }));
    this.unsubscribe.push(this.services.addEventHandler({ add: enqueue, update: (_o, s) => enqueue(s), delete: enqueue }));
    const sliceChanged = (s: EndpointSlice) => {
      const name = s.metadata?.labels?.[serviceNameLabel];
      if (name && s.metadata?.labels?.[managedByLabel] === mirroringControllerName) this.queue.add(`${s.metadata?.namespace ?? ''}/${name}`);
    };
    this.unsubscribe.push(this.slices.addEventHandler({ update: (_o, s) => sliceChanged(s), delete: sliceChanged }));
    await Promise.all([this.services.start(), this.endpoints.start(), this.slices.start()]);
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const ep = this.endpoints.lister.get(namespace, name);
    const svc = this.services.lister.get(namespace, name);
    const existing = this.writer.withWritten(
      key,
      this.slices.lister.list(namespace).filter((s) => s.metadata?.labels?.[serviceNameLabel] === name && s.metadata?.labels?.[managedByLabel] === mirroringControllerName),
    );
    if (ep?.metadata?.deletionTimestamp) return;
    const mirror = !!ep && !!svc && (svc.spec?.selector === undefined || svc.spec.selector === null) && shouldMirror(ep);
    if (!mirror && existing.length === 0) {
      this.writer.forget(key);
      return;
    }
    try {
      await this.writer.reconcile(key, namespace, mirror ? mirroredSlices(ep!) : [], existing, ep?.metadata?.uid ?? '', `for Endpoints ${namespace}/${name}`);
    } catch (e) {
      const cause = e instanceof SliceWriteError ? e.cause : e;
      if (ep && !isStatus(cause, 409)) this.events.record(ep, 'Warning', 'FailedToUpdateEndpointSlices', '', `Error updating EndpointSlices for Endpoints ${namespace}/${name}: ${errorText(e)}`);
      throw cause;
    }
    this.backoff.forget(key);
  }
}
