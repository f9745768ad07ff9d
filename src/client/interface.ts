// The Kubernetes client every controller uses: the verbs of a REST client addressed by
// group/version/resource, as client-go's dynamic client is (k8s.io/client-go/dynamic), plus
// the pod subresources the controllers write (binding, eviction) and namespace finalize. Two
// implementations: http.ts (HTTPS, bearer token, CA) and loopback.ts (the in-process API,
// through the same decoding, admission and validation as an HTTP request). Errors carry the
// HTTP status code and the Status body (errors.ts).

import type { KubeObject, Scale } from '../api/types.js';
import type { TokenRequest } from '../api/serviceaccounttoken.js';

/** Where a kind is served: `/api/v1/pods`, `/apis/scheduling.k8s.io/v1/priorityclasses`. */
export interface ResourceRef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  /** The verbs discovery lists for it (namespacedResources fills them). */
  verbs?: string[];
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  limit?: number;
  continue?: string;
}

export interface ObjectList<T extends KubeObject = KubeObject> {
  items: T[];
  resourceVersion: string;
  continue?: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  /** The object, or a Status for ERROR. */
  object: T;
}

export interface WatchHandlers<T = KubeObject> {
  event(e: WatchEvent<T>): void;
  /** The stream ended on its own (server closed it, store gave up); never called after stop(). */
  end(): void;
}

export interface Watch {
  stop(): void;
}

export interface WriteOptions {
  /** `status` for the status subresource. */
  subresource?: string;
  fieldManager?: string;
  dryRun?: boolean;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: string;
}

export type PatchType = 'application/merge-patch+json' | 'application/strategic-merge-patch+json' | 'application/json-patch+json';

export interface KubeClient {
  get<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string): Promise<T>;
  list<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, opts?: ListOptions): Promise<ObjectList<T>>;
  /**
   * Starts a watch from `opts.resourceVersion`; resolves once it runs. A version too old is a
   * 410 (a rejection here, or an ERROR event carrying a Status of code 410 followed by end()).
   */
  watch<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, opts: ListOptions, on: WatchHandlers<T>): Promise<Watch>;
  create<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts?: WriteOptions): Promise<T>;
  update<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts?: WriteOptions): Promise<T>;
  patch<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, patch: unknown, opts?: WriteOptions): Promise<T>;
  delete(ref: ResourceRef, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<KubeObject>;
  /** POST pods/NAME/binding. */
  bind(namespace: string, name: string, node: string, opts?: { uid?: string; annotations?: Record<string, string> }): Promise<void>;
  /** POST pods/NAME/eviction (policy/v1). */
  evict(namespace: string, name: string, opts?: DeleteOptions): Promise<void>;
  /** POST serviceaccounts/NAME/token (authentication.k8s.io/v1 TokenRequest): the node agent's service account tokens. */
  createToken?(namespace: string, name: string, request: TokenRequest): Promise<TokenRequest>;
  /** PUT namespaces/NAME/finalize with no finalizers left: the namespace goes. */
  finalizeNamespace(name: string): Promise<void>;
  /** GET and PUT of the autoscaling/v1 `scale` subresource (the horizontal pod autoscaler's target). */
  getScale?(ref: ResourceRef, namespace: string, name: string): Promise<Scale>;
  updateScale?(ref: ResourceRef, namespace: string, scale: Scale): Promise<Scale>;
  /** The namespaced resources served (discovery), for the namespace controller's sweep. */
  namespacedResources(): Promise<ResourceRef[]>;
  /** The clock writes are stamped with (the server's in process, this host's otherwise). */
  now(): Date;
}
