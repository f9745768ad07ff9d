// The EndpointSlice controller (pkg/controller/endpointslice endpointslice_controller.go and
// reconciler.go): keeps the EndpointSlices of every Service with a selector (not ExternalName)
// equal to what its pods give (src/policy/endpoints.ts desiredSlices): labelled
// kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by
// endpointslice-controller.k8s.io, owned by the Service (the garbage collector removes them with
// it), named `<service>-<random>`. Slices are matched to what is wanted by their port set: a
// match that differs is updated, what is missing is created, what is left over deleted (in that
// order, as the reconciler). Synced as the endpoints controller is synced; a failure is retried
// with a back-off and recorded on the Service (FailedToUpdateEndpointSlices).

import { stableJSON } from '../api/stablejson.js';
import type { EndpointSlice, Node, Pod, Service } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isNamespaceTerminating, isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { endpointSlicesRef, nodesRef, podsRef, servicesRef } from '../client/resources.js';
import { desiredSlices, endpointSliceControllerName, managedByLabel, managesEndpoints, portSetKey, selects, serviceNameLabel, sliceObject, type SliceContent } from '../policy/endpoints.js';
import { watchPodsForServices } from './endpoints.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { WorkQueueController } from './workqueuecontroller.js';

export const endpointSliceControllerAccount = 'endpointslice-controller';
const zoneLabel = 'topology.kubernetes.io/zone';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** A slice write that failed, worded as the reconciler wraps it; `cause` is the API error. */
class SliceWriteError extends Error {
  constructor(message: string, override readonly cause: unknown) {
    super(message);
  }
}

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
  /**
   * What this controller last wrote per service, until the informer shows it (upstream's
   * endpointSliceTracker): a sync right after a create must not create the slice again.
   */
  private readonly written = new Map<string, { slices: Map<string, EndpointSlice>; deleted: Set<string> }>();

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.queue = new KeyedQueue((key) => this.sync(key), this.backoff.requeue(() => this.queue, endpointSliceControllerAccount));
    this.services = informers.informerFor<Service>(servicesRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.nodes = informers.informerFor<Node>(nodesRef);
    this.slices = informers.informerFor<EndpointSlice>(endpointSlicesRef);
    this.events = opts.events ?? new EventRecorder(client, { component: 'endpointslice-controller' });
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
    if (!svc) this.written.delete(key);
    if (!svc || !managesEndpoints(svc) || svc.metadata?.deletionTimestamp) return;
    const pods = this.pods.lister.list(namespace).filter((p) => selects(svc, p));
    const want = desiredSlices(svc, pods, (node) => this.nodes.lister.get(undefined, node)?.metadata?.labels?.[zoneLabel]);
    const existing = this.withWritten(key, managedSlices(this.slices.lister.list(namespace), name));
    try {
      await this.reconcile(key, svc, want, existing);
    } catch (e) {
      // A conflict means the informer was behind (isStaleInformerCacheErr): retried, not recorded.
      const cause = e instanceof SliceWriteError ? e.cause : e;
      if (!isStatus(cause, 409)) this.events.record(svc, 'Warning', 'FailedToUpdateEndpointSlices', '', `Error updating Endpoint Slices for Service ${namespace}/${name}: ${errorText(e)}`);
      throw cause;
    }
    this.backoff.forget(key);
  }

  /** The informer's slices with this controller's own writes the informer has not shown yet. */
  private withWritten(key: string, seen: EndpointSlice[]): EndpointSlice[] {
    const w = this.written.get(key);
    if (!w) return seen;
    const rv = (s: EndpointSlice | undefined) => Number(s?.metadata?.resourceVersion ?? 0);
    const out = new Map(seen.map((s) => [s.metadata?.name ?? '', s]));
    for (const [n, s] of w.slices) {
      if (rv(out.get(n)) >= rv(s)) w.slices.delete(n);
      else out.set(n, s);
    }
    for (const n of w.deleted) {
      if (out.has(n)) out.delete(n);
      else w.deleted.delete(n);
    }
    if (w.slices.size === 0 && w.deleted.size === 0) this.written.delete(key);
    return [...out.values()];
  }

  private track(key: string): { slices: Map<string, EndpointSlice>; deleted: Set<string> } {
    let w = this.written.get(key);
    if (!w) this.written.set(key, (w = { slices: new Map(), deleted: new Set() }));
    return w;
  }

  private async reconcile(key: string, svc: Service, want: SliceContent[], existing: EndpointSlice[]): Promise<void> {
    const namespace = svc.metadata?.namespace ?? '';
    const unused = [...existing].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    const creates: EndpointSlice[] = [];
    const updates: EndpointSlice[] = [];
    for (const content of want) {
      const i = unused.findIndex((s) => portSetKey(s.ports) === portSetKey(content.ports));
      if (i < 0) {
        creates.push(sliceObject(svc, content));
        continue;
      }
      const [have] = unused.splice(i, 1) as [EndpointSlice];
      const next = sliceObject(svc, content, have.metadata?.name);
      const view = (s: EndpointSlice) => stableJSON({ e: s.endpoints ?? [], p: s.ports ?? [], l: s.metadata?.labels ?? {}, o: s.metadata?.ownerReferences ?? [], t: s.addressType });
      if (view(have) === view(next)) continue;
      updates.push({ ...next, metadata: { ...have.metadata, labels: next.metadata?.labels, ownerReferences: next.metadata?.ownerReferences } });
    }
    // Creates become updates of slices that would be deleted (owned by this Service, same
    // address type), as the reconciler does: the placeholder is filled in place.
    for (let i = 0; i < unused.length && creates.length > 0; ) {
      const old = unused[i]!;
      if (old.addressType === 'IPv4' && (old.metadata?.ownerReferences ?? []).some((r) => r.uid === svc.metadata?.uid)) {
        const next = creates.pop()!;
        updates.push({ ...next, metadata: { ...old.metadata, labels: next.metadata?.labels, ownerReferences: next.metadata?.ownerReferences } });
        unused.splice(i, 1);
      } else i++;
    }
    const of = `for Service ${namespace}/${svc.metadata?.name ?? ''}`;
    for (const s of [...creates, ...updates]) {
      const isUpdate = !!(s.metadata?.name && s.metadata.resourceVersion);
      let done: EndpointSlice;
      try {
        done = isUpdate ? await this.client.update<EndpointSlice>(endpointSlicesRef, namespace, s) : await this.client.create<EndpointSlice>(endpointSlicesRef, namespace, s);
      } catch (e) {
        // Creates into a namespace being deleted keep failing: dropped, as upstream drops them.
        if (!isUpdate && isNamespaceTerminating(e)) return;
        throw new SliceWriteError(isUpdate ? `failed to update ${s.metadata?.name} EndpointSlice ${of}: ${errorText(e)}` : `failed to create EndpointSlice ${of}: ${errorText(e)}`, e);
      }
      this.track(key).slices.set(done.metadata?.name ?? '', done);
    }
    for (const s of unused) {
      const n = s.metadata?.name ?? '';
      try {
        await this.client.delete(endpointSlicesRef, namespace, n);
      } catch (e) {
        if (!isStatus(e, 404)) throw new SliceWriteError(`failed to delete ${n} EndpointSlice ${of}: ${errorText(e)}`, e);
      }
      this.track(key).slices.delete(n);
      this.track(key).deleted.add(n);
    }
  }
}
