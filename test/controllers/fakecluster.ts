// test/client/fakeclient.ts's FakeClient made resource-aware for the controller unit tests (Job,
// CronJob, ReplicaSet, Deployment): objects kept per resource; every write delivered at once to
// the watches of its resource (so an informer sees a write before the call returns, as with the
// loopback client) or held back to play a slow informer; create fills generateName, uid and
// creationTimestamp and can be made to fail; updates check resourceVersion, bump generation on
// spec changes and keep spec and labels on the status subresource; DELETE of an object with
// finalizers only marks it; patches understand merge patches, the strategic merge of
// ownerReferences by uid (`$patch: delete` of one), a metadata.uid precondition, and the
// `$deleteFromPrimitiveList/finalizers` directive. Every write is logged in `log` with its
// resource and subresource (and a delete with its options). No server, no timers: tests step the clock themselves.

import type { KubeObject, OwnerReference } from '../../src/api/types.js';
import { ApiError } from '../../src/client/errors.js';
import type { DeleteOptions, ListOptions, ObjectList, PatchType, ResourceRef, Watch, WatchEvent, WatchHandlers, WriteOptions } from '../../src/client/interface.js';
import { FakeClient } from '../client/fakeclient.js';

export interface LoggedWrite {
  verb: string;
  resource: string;
  subresource?: string;
  obj: KubeObject;
  /** A delete's options (propagationPolicy, preconditions). */
  opts?: DeleteOptions;
}

const status = (code: number, reason: string, message: string) => new ApiError(code, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message } as never);
const timestamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export class FakeCluster extends FakeClient {
  private readonly store = new Map<string, Map<string, KubeObject>>();
  private readonly watchers = new Map<string, Set<WatchHandlers>>();
  private nameSeq = 0;
  /** While true, watch events wait in `held` (a slow informer); release() delivers them. */
  holdWatches = false;
  held: { resource: string; e: WatchEvent }[] = [];
  /** A create of this resource fails with this error (e.g. quota), once per entry. */
  failCreates: { resource: string; error: ApiError }[] = [];
  log: LoggedWrite[] = [];

  private bucket(ref: ResourceRef): Map<string, KubeObject> {
    let b = this.store.get(ref.resource);
    if (!b) this.store.set(ref.resource, (b = new Map()));
    return b;
  }

  private emit(resource: string, e: WatchEvent): void {
    if (this.holdWatches) {
      this.held.push({ resource, e });
      return;
    }
    for (const w of this.watchers.get(resource) ?? []) w.event(structuredClone(e));
  }

  private record(verb: string, ref: ResourceRef, obj: KubeObject, subresource?: string): void {
    this.log.push({ verb, resource: ref.resource, ...(subresource ? { subresource } : {}), obj: structuredClone(obj) });
    this.writes.push({ verb: `${verb} ${ref.resource}${subresource ? `/${subresource}` : ''}`, obj: structuredClone(obj) });
  }

  /** Delivers the held watch events. */
  release(): void {
    this.holdWatches = false;
    const h = this.held;
    this.held = [];
    for (const { resource, e } of h) this.emit(resource, e);
  }

  /** Stores an object as a write would (setup, or playing the kubelet): uid, creationTimestamp and generation filled when absent; watchers told. */
  seed<T extends KubeObject>(ref: ResourceRef, o: T): T {
    const b = this.bucket(ref);
    const k = this.key(o);
    const existed = b.has(k);
    const obj = structuredClone(o) as T;
    obj.metadata = { ...obj.metadata, resourceVersion: String(++this.resourceVersion) };
    obj.metadata.uid ??= `uid-${ref.resource}-${obj.metadata.name}`;
    obj.metadata.creationTimestamp ??= timestamp(this.now());
    obj.metadata.generation ??= 1;
    b.set(k, obj);
    this.emit(ref.resource, { type: existed ? 'MODIFIED' : 'ADDED', object: structuredClone(obj) });
    return structuredClone(obj);
  }

  lookup<T extends KubeObject>(ref: ResourceRef, namespace: string, name: string): T | undefined {
    return this.bucket(ref).get(`${namespace}/${name}`) as T | undefined;
  }

  all<T extends KubeObject>(ref: ResourceRef): T[] {
    return [...this.bucket(ref).values()] as T[];
  }

  objectsOf<T extends KubeObject>(ref: ResourceRef, namespace = 'default'): T[] {
    return this.all(ref).filter((o) => (o.metadata?.namespace ?? '') === namespace).map((o) => structuredClone(o) as T);
  }

  override async get<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
    const o = this.bucket(ref).get(`${namespace ?? ''}/${name}`);
    if (!o) throw status(404, 'NotFound', `${ref.resource} "${name}" not found`);
    return structuredClone(o) as T;
  }

  override async list<T extends KubeObject>(ref?: ResourceRef, namespace?: string): Promise<ObjectList<T>> {
    this.lists++;
    const items = this.all(ref!).filter((o) => namespace === undefined || o.metadata?.namespace === namespace);
    return { items: items.map((o) => structuredClone(o) as T), resourceVersion: String(this.resourceVersion) };
  }

  override async watch<T extends KubeObject>(ref: ResourceRef, _ns: string | undefined, _opts: ListOptions, on: WatchHandlers<T>): Promise<Watch> {
    let s = this.watchers.get(ref.resource);
    if (!s) this.watchers.set(ref.resource, (s = new Set()));
    const h = on as unknown as WatchHandlers;
    s.add(h);
    return { stop: () => void s!.delete(h) };
  }

  override async create<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const i = this.failCreates.findIndex((f) => f.resource === ref.resource);
    if (i >= 0) throw this.failCreates.splice(i, 1)[0]!.error;
    const o = structuredClone(obj);
    const m = (o.metadata ??= {});
    m.namespace ??= namespace;
    if (!m.name && m.generateName) m.name = `${m.generateName}${(++this.nameSeq).toString(36).padStart(5, '0')}`;
    if (this.bucket(ref).has(this.key(o))) throw status(409, 'AlreadyExists', `${ref.resource} "${m.name}" already exists`);
    // The server gives these; a client's are ignored.
    delete m.uid;
    delete m.creationTimestamp;
    this.record('create', ref, o, opts.subresource);
    return this.seed(ref, o);
  }

  override async update<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const cur = await this.get<T & { spec?: unknown; status?: unknown }>(ref, namespace, obj.metadata?.name ?? '');
    if (obj.metadata?.resourceVersion && obj.metadata.resourceVersion !== cur.metadata?.resourceVersion) {
      throw status(409, 'Conflict', `Operation cannot be fulfilled on ${ref.resource} "${obj.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    const next = structuredClone(obj) as T & { spec?: unknown; status?: unknown };
    if (opts.subresource === 'status') {
      // The status strategies: spec and labels stay; annotations and status are taken.
      next.spec = cur.spec;
      next.metadata = { ...next.metadata, labels: cur.metadata?.labels, generation: cur.metadata?.generation };
    } else {
      next.status = cur.status;
      const changed = JSON.stringify(next.spec) !== JSON.stringify(cur.spec);
      next.metadata = { ...next.metadata, generation: (cur.metadata?.generation ?? 1) + (changed ? 1 : 0) };
    }
    next.metadata = { ...next.metadata, uid: cur.metadata?.uid, creationTimestamp: cur.metadata?.creationTimestamp };
    this.record('update', ref, next, opts.subresource);
    return this.seed(ref, next);
  }

  override async patch<T extends KubeObject>(ref?: ResourceRef, namespace?: string, name?: string, _type?: PatchType, patch?: unknown, opts: WriteOptions = {}): Promise<T> {
    const cur = await this.get(ref!, namespace, name ?? '');
    const p = structuredClone(patch) as { metadata?: Record<string, unknown> & { uid?: string; ownerReferences?: (OwnerReference & { $patch?: string })[] } };
    const meta = p.metadata;
    if (meta?.uid !== undefined && meta.uid !== cur.metadata?.uid) throw status(422, 'Invalid', `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${cur.metadata?.uid}`);
    const dropFinalizers = meta?.['$deleteFromPrimitiveList/finalizers'] as string[] | undefined;
    const refPatches = meta?.ownerReferences;
    if (meta) {
      delete meta['$deleteFromPrimitiveList/finalizers'];
      delete meta.ownerReferences;
      delete meta.uid;
    }
    const next = mergePatch(cur, p) as KubeObject;
    if (refPatches) {
      // Strategic merge of ownerReferences: merged on uid, `$patch: delete` removes one.
      let refs = [...(next.metadata?.ownerReferences ?? [])];
      for (const r of refPatches) {
        refs = refs.filter((x) => x.uid !== r.uid);
        if (r.$patch !== 'delete') refs.push(r);
      }
      next.metadata = { ...next.metadata, ownerReferences: refs };
      if (refs.length === 0) delete next.metadata.ownerReferences;
    }
    if (dropFinalizers) next.metadata = { ...next.metadata, finalizers: (next.metadata?.finalizers ?? []).filter((f) => !dropFinalizers.includes(f)) };
    this.record('patch', ref!, next, opts.subresource);
    // The last finalizer gone from an object being deleted: it goes.
    if (next.metadata?.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      this.bucket(ref!).delete(this.key(next));
      this.emit(ref!.resource, { type: 'DELETED', object: next });
      return next as T;
    }
    return this.seed(ref!, next) as T;
  }

  override async delete(ref: ResourceRef, namespace: string | undefined, name: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    const o = await this.get(ref, namespace, name);
    this.record('delete', ref, o);
    this.log[this.log.length - 1]!.opts = structuredClone(opts);
    if ((o.metadata?.finalizers ?? []).length > 0) {
      o.metadata = { ...o.metadata, deletionTimestamp: timestamp(this.now()), deletionGracePeriodSeconds: 0 };
      return this.seed(ref, o);
    }
    this.bucket(ref).delete(this.key(o));
    this.emit(ref.resource, { type: 'DELETED', object: o });
    return o;
  }

  /** The writes to one resource, as `verb[/subresource] name`. */
  writesTo(resource: string): string[] {
    return this.log.filter((w) => w.resource === resource).map((w) => `${w.verb}${w.subresource ? `/${w.subresource}` : ''} ${w.obj.metadata?.name}`);
  }

  /** Every write in order, as `verb resource[/subresource] name`. */
  lines(): string[] {
    return this.log.map((w) => `${w.verb} ${w.resource}${w.subresource ? `/${w.subresource}` : ''} ${w.obj.metadata?.name}`);
  }
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
