// The root CA certificate publisher (pkg/controller/certificates/rootcacertpublisher): every
// namespace has a ConfigMap `kube-root-ca.crt` holding the cluster CA as `ca.crt`, with the
// `kubernetes.io/description` annotation, so that a pod or a tool can verify the API server.
// A namespace is synced when it appears or changes while active, and when its kube-root-ca.crt
// is changed or deleted: a missing one is created, a changed one put back (other annotations
// and labels kept). A create refused because the namespace is gone or terminating is not
// retried, so namespace deletion is never undone.

import type { ConfigMap, Namespace } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isNamespaceTerminating, isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { configMapsRef, namespacesRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { QueueController } from './workqueuecontroller.js';

export const rootCACertConfigMapName = 'kube-root-ca.crt';
export const descriptionAnnotation = 'kubernetes.io/description';
export const rootCADescription =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** What a namespace's kube-root-ca.crt should become: nothing to do, created, or the stored one put back. */
export function rootCAConfigMapChange(current: ConfigMap | undefined, rootCA: string): { action: 'none' } | { action: 'create' | 'update'; configMap: ConfigMap } {
  const data = { 'ca.crt': rootCA };
  if (!current) {
    return { action: 'create', configMap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: rootCACertConfigMapName, annotations: { [descriptionAnnotation]: rootCADescription } }, data } };
  }
  // As upstream: data compared whole, the annotation only for being there; binaryData left as it is.
  const stored = current.data ?? {};
  const sameData = Object.keys(stored).length === 1 && stored['ca.crt'] === rootCA;
  if (sameData && (current.metadata?.annotations?.[descriptionAnnotation] ?? '') !== '') return { action: 'none' };
  return {
    action: 'update',
    configMap: { ...current, metadata: { ...current.metadata, annotations: { ...(current.metadata?.annotations ?? {}), [descriptionAnnotation]: rootCADescription } }, data },
  };
}

export class RootCACertPublisher extends QueueController {
  protected readonly queue: KeyedQueue;
  private readonly namespaces: SharedIndexInformer<Namespace>;
  private readonly configMaps: SharedIndexInformer<ConfigMap>;
  private readonly backoff = new FailureBackoff();

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly rootCA: string) {
    super();
    this.queue = new KeyedQueue(async (ns) => {
      await this.syncNamespace(ns);
      this.backoff.forget(ns);
    }, this.backoff.requeue(() => this.queue, 'root-ca-cert-publisher'));
    this.namespaces = informers.informerFor<Namespace>(namespacesRef);
    this.configMaps = informers.informerFor<ConfigMap>(configMapsRef);
  }

  async start(): Promise<void> {
    const ours = (cm: ConfigMap) => {
      if (cm.metadata?.name === rootCACertConfigMapName && cm.metadata.namespace) this.queue.add(cm.metadata.namespace);
    };
    this.unsubscribe.push(this.configMaps.addEventHandler({ update: (_old, cm) => ours(cm), delete: ours }));
    await this.configMaps.start();
    this.unsubscribe.push(
      this.namespaces.addEventHandler({
        add: (ns) => this.queue.add(ns.metadata!.name!),
        update: (_old, ns) => {
          if ((ns.status?.phase ?? 'Active') === 'Active') this.queue.add(ns.metadata!.name!);
        },
      }),
    );
    await this.namespaces.start();
  }

  async syncNamespace(namespace: string): Promise<void> {
    const change = rootCAConfigMapChange(this.configMaps.lister.get(namespace, rootCACertConfigMapName), this.rootCA);
    if (change.action === 'none') return;
    if (change.action === 'create') {
      try {
        await this.client.create(configMapsRef, namespace, change.configMap);
      } catch (e) {
        // The namespace is gone or terminating: not retried. Anything else is (a 409: the
        // informer had not seen the ConfigMap yet; the retry compares it).
        if (isStatus(e, 404) || isNamespaceTerminating(e)) return;
        throw e;
      }
      return;
    }
    await this.client.update(configMapsRef, namespace, change.configMap);
  }
}
