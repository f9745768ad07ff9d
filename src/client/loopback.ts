// The client over the in-process API (kube-apiserver's loopback client, which its own
// post-start hooks and controllers use): every call goes through the verbs of src/apiserver/rest.ts
// as the HTTP handler calls them, after the same body decoding (decode.ts) and with the same
// patch, binding and eviction code, so admission, validation, quota and managedFields apply
// exactly as to a request. The identity is a privileged one (system:masters), which the
// authorizer would allow everything; only the HTTP framing is skipped. Watch events are
// delivered inside the write that causes them (the store's order), so an informer built on this
// client is never behind a write this process has finished.
//
// LIST and WATCH read the watch cache first, as an HTTP request does: the informers of every
// in-process controller then hold the cache's decoded objects instead of decoding each event
// themselves, one copy of each object for the whole server. Those objects are shared and
// deep-frozen; a reader that wants to change one copies it first.

import type { KubeObject, Scale } from '../api/types.js';
import { bindPod } from '../apiserver/binding.js';
import { decodeRequestObject } from '../apiserver/decode.js';
import { patchResource } from '../apiserver/patching.js';
import { scaleOf, writeScale } from '../apiserver/scale.js';
import { resources as served, type ResourceDef } from '../apiserver/resources.js';
import type { Api, RequestInfo } from '../apiserver/rest.js';
import { statusErrors } from '../apiserver/status.js';
import type { DeleteOptions, KubeClient, ListOptions, ObjectList, PatchType, ResourceRef, Watch, WatchEventType, WatchHandlers, WriteOptions } from './interface.js';
import { apiVersionOf } from './resources.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export interface LoopbackIdentity {
  /** The user name, e.g. system:serviceaccount:kube-system:namespace-controller. */
  user: string;
  groups?: string[];
  /** The User-Agent: the managedFields manager of writes without a fieldManager. */
  userAgent?: string;
}

export class LoopbackClient implements KubeClient {
  constructor(private readonly api: Api, private readonly identity: LoopbackIdentity) {}

  /** A request's identity and options, as the handler builds them (fieldValidation absent: Ignore for a component). */
  private info(opts: WriteOptions = {}): RequestInfo {
    return {
      user: { name: this.identity.user, groups: this.identity.groups ?? ['system:masters'] },
      ...(this.identity.userAgent ? { userAgent: this.identity.userAgent } : {}),
      ...(opts.fieldManager ? { fieldManager: opts.fieldManager } : {}),
      dryRun: opts.dryRun ?? false,
      fieldValidation: 'Ignore',
      warnings: [],
    };
  }

  private def(ref: ResourceRef): ResourceDef {
    const def = this.api.resource(ref.group, ref.version, ref.resource);
    if (!def) throw statusErrors.notFound({ group: ref.group, resource: ref.resource }, '');
    return def;
  }

  /** The handler's body step: kind and apiVersion filled in, then the one decoder. */
  private body(def: ResourceDef, obj: KubeObject, info: RequestInfo): KubeObject {
    return decodeRequestObject(def, { ...obj, apiVersion: obj.apiVersion ?? apiVersionOf(def), kind: obj.kind ?? def.kind }, info);
  }

  get<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
    return this.api.get<T>(this.def(ref), namespace, name);
  }

  async list<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const def = this.def(ref);
    const cached = await this.api.cacher?.list(def, namespace, opts);
    if (cached) return { items: cached.items.map((e) => e.obj as T), resourceVersion: cached.resourceVersion, ...(cached.continue ? { continue: cached.continue } : {}) };
    const r = await this.api.list(def, namespace, opts);
    return { items: r.items as T[], resourceVersion: r.resourceVersion, ...(r.continue ? { continue: r.continue } : {}) };
  }

  async watch<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, opts: ListOptions, on: WatchHandlers<T>): Promise<Watch> {
    let stopped = false;
    const def = this.def(ref);
    const watchOpts = { ...opts, allowWatchBookmarks: true };
    const sink = {
      send: (type: WatchEventType, object: unknown) => {
        if (!stopped) on.event({ type, object: object as T });
      },
      close: () => {
        if (!stopped) on.end();
      },
    };
    const w = (await this.api.cacher?.watch(def, namespace, watchOpts, sink)) ?? (await this.api.watch(def, namespace, watchOpts, sink));
    return {
      stop() {
        stopped = true;
        w.cancel();
      },
    };
  }

  async create<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const def = this.def(ref);
    const info = this.info(opts);
    return (await this.api.create(def, namespace, this.body(def, obj, info), info)) as T;
  }

  async update<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const def = this.def(ref);
    const info = this.info(opts);
    return (await this.api.update(def, namespace, obj.metadata?.name ?? '', this.body(def, obj, info), info, opts.subresource)) as T;
  }

  async patch<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, patch: unknown, opts: WriteOptions = {}): Promise<T> {
    const def = this.def(ref);
    const path = { group: ref.group, version: ref.version, resource: ref.resource, namespace, name, ...(opts.subresource ? { subresource: opts.subresource } : {}) };
    const r = await patchResource(this.api, def, path, type, Buffer.from(JSON.stringify(patch)), this.info(opts), new URLSearchParams());
    return r.obj as T;
  }

  delete(ref: ResourceRef, namespace: string | undefined, name: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    return this.api.delete(this.def(ref), namespace, name, opts, this.info());
  }

  async getScale(ref: ResourceRef, namespace: string, name: string): Promise<Scale> {
    const def = this.scalable(ref);
    return scaleOf(await this.api.get(def, namespace, name));
  }

  async updateScale(ref: ResourceRef, namespace: string, scale: Scale): Promise<Scale> {
    const def = this.scalable(ref);
    return writeScale(this.api, def, namespace, scale.metadata?.name ?? '', this.info(), () => deepCopyJSON(scale));
  }

  /** A resource with the scale subresource; any other is the handler's 404. */
  private scalable(ref: ResourceRef): ResourceDef {
    const def = this.def(ref);
    if (!def.subresources.some((s) => s.name === 'scale')) throw statusErrors.pathNotFound();
    return def;
  }

  async bind(namespace: string, name: string, node: string, opts: { uid?: string; annotations?: Record<string, string> } = {}): Promise<void> {
    await bindPod(this.api, namespace, name, node, this.info(), opts);
  }

  async evict(namespace: string, name: string, opts: DeleteOptions = {}): Promise<void> {
    await this.api.delete(this.api.def('pods'), namespace, name, opts, this.info());
  }

  async finalizeNamespace(name: string): Promise<void> {
    await this.api.remove(this.api.def('namespaces'), undefined, name);
  }

  async namespacedResources(): Promise<ResourceRef[]> {
    // The preferred version of each resource, as discovery's preferred versions give the HTTP client: not the ones served by conversion.
    return served.filter((d) => d.namespaced && !d.convert).map(({ group, version, resource, kind, namespaced, verbs }) => ({ group, version, resource, kind, namespaced, verbs: [...verbs] }));
  }

  now(): Date {
    return this.api.now();
  }
}
