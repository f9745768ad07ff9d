// test/client/fakeclient.ts's FakeClient made resource-aware for controller unit tests: objects
// are kept per resource, writes are delivered at once to the watches of their resource (so an
// informer sees a write before the call returns, as with the loopback client), create fills
// generateName, uid and creationTimestamp, DELETE of an object with finalizers only marks it, and
// a patch understands merge patches and the `$deleteFromPrimitiveList/finalizers` directive. Every
// write is logged in `writes` with its resource and subresource. No server, no timers.

import type { KubeObject } from '../../src/api/types.js';
import { ApiError } from '../../src/client/errors.js';
import type { DeleteOptions, ListOptions, ObjectList, PatchType, ResourceRef, Watch, WatchHandlers, WriteOptions } from '../../src/client/interface.js';
import { FakeClient } from '../client/fakeclient.js';

export interface LoggedWrite {
  verb: string;
  resource: string;
  subresource?: string;
  obj: KubeObject;
}

const notFound = (name: string) => new ApiError(404, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 404, reason: 'NotFound', message: `${name} not found` } as never);

export class FakeCluster extends FakeClient {
  private readonly store = new Map<string, Map<string, KubeObject>>();
  private readonly watchers = new Map<string, WatchHandlers[]>();
  log: LoggedWrite[] = [];
  private seq = 0;

  private bucket(ref: ResourceRef): Map<string, KubeObject> {
    let b = this.store.get(ref.resource);
    if (!b) this.store.set(ref.resource, (b = new Map()));
    return b;
  }

  private emit(ref: ResourceRef, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void {
    for (const w of this.watchers.get(ref.resource) ?? []) w.event({ type, object: structuredClone(obj) });
  }

  private stamp(o: KubeObject): KubeObject {
    return { ...o, metadata: { ...o.metadata, resourceVersion: String(++this.resourceVersion) } };
  }

  /** Stores an object directly (test setup), delivered to watches as ADDED or MODIFIED. */
  seed(ref: ResourceRef, o: KubeObject): KubeObject {
    const b = this.bucket(ref);
    const k = this.key(o);
    const had = b.has(k);
    const obj = this.stamp(o);
    b.set(k, obj);
    this.emit(ref, had ? 'MODIFIED' : 'ADDED', obj);
    return obj;
  }

  lookup<T extends KubeObject>(ref: ResourceRef, namespace: string, name: string): T | undefined {
    return this.bucket(ref).get(`${namespace}/${name}`) as T | undefined;
  }

  all<T extends KubeObject>(ref: ResourceRef): T[] {
    return [...this.bucket(ref).values()] as T[];
  }

  override async get<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
    const o = this.bucket(ref).get(`${namespace ?? ''}/${name}`);
    if (!o) throw notFound(name);
    return structuredClone(o) as T;
  }

  override async list<T extends KubeObject>(ref?: ResourceRef): Promise<ObjectList<T>> {
    return { items: [...this.bucket(ref!).values()].map((o) => structuredClone(o) as T), resourceVersion: String(this.resourceVersion) };
  }

  override async watch<T extends KubeObject>(ref: ResourceRef, _ns: string | undefined, _opts: ListOptions, on: WatchHandlers<T>): Promise<Watch> {
    const list = this.watchers.get(ref.resource) ?? [];
    list.push(on as unknown as WatchHandlers);
    this.watchers.set(ref.resource, list);
    return { stop: () => list.splice(list.indexOf(on as unknown as WatchHandlers), 1) };
  }

  override async create<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const o = structuredClone(obj) as KubeObject;
    const m = (o.metadata ??= {});
    m.namespace ??= namespace;
    if (!m.name && m.generateName) m.name = `${m.generateName}${(++this.seq).toString(36).padStart(5, '0')}`;
    if (this.bucket(ref).has(this.key(o))) throw new ApiError(409, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 409, reason: 'AlreadyExists', message: `${m.name} already exists` } as never);
    m.uid ??= `uid-${ref.resource}-${m.name}`;
    m.creationTimestamp ??= this.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
    this.log.push({ verb: 'create', resource: ref.resource, subresource: opts.subresource, obj: structuredClone(o) });
    return structuredClone(this.seed(ref, o)) as T;
  }

  override async update<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const prev = await this.get(ref, namespace, obj.metadata?.name ?? '');
    if (obj.metadata?.resourceVersion && obj.metadata.resourceVersion !== prev.metadata?.resourceVersion) {
      throw new ApiError(409, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 409, reason: 'Conflict', message: 'the object has been modified' } as never);
    }
    const next = opts.subresource === 'status' ? { ...prev, status: structuredClone((obj as { status?: unknown }).status) } : structuredClone(obj);
    this.log.push({ verb: 'update', resource: ref.resource, subresource: opts.subresource, obj: structuredClone(next) });
    return structuredClone(this.seed(ref, next)) as T;
  }

  override async patch<T extends KubeObject>(ref?: ResourceRef, namespace?: string, name?: string, _type?: PatchType, patch?: unknown, opts: WriteOptions = {}): Promise<T> {
    const prev = await this.get(ref!, namespace, name ?? '');
    const p = structuredClone(patch) as { metadata?: Record<string, unknown> };
    const drop = p.metadata?.['$deleteFromPrimitiveList/finalizers'] as string[] | undefined;
    if (p.metadata) delete p.metadata['$deleteFromPrimitiveList/finalizers'];
    const next = mergePatch(prev, p) as KubeObject;
    if (drop) next.metadata = { ...next.metadata, finalizers: (next.metadata?.finalizers ?? []).filter((f) => !drop.includes(f)) };
    this.log.push({ verb: 'patch', resource: ref!.resource, subresource: opts.subresource, obj: structuredClone(next) });
    // The last finalizer gone from an object being deleted: it goes.
    if (next.metadata?.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      this.bucket(ref!).delete(this.key(next));
      this.emit(ref!, 'DELETED', next);
      return next as T;
    }
    return structuredClone(this.seed(ref!, next)) as T;
  }

  override async delete(ref: ResourceRef, namespace: string | undefined, name: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    const o = await this.get(ref, namespace, name);
    this.log.push({ verb: 'delete', resource: ref.resource, obj: o });
    void opts;
    if ((o.metadata?.finalizers ?? []).length > 0) {
      o.metadata = { ...o.metadata, deletionTimestamp: this.now().toISOString().replace(/\.\d{3}Z$/, 'Z'), deletionGracePeriodSeconds: 0 };
      return this.seed(ref, o);
    }
    this.bucket(ref).delete(this.key(o));
    this.emit(ref, 'DELETED', o);
    return o;
  }

  /** The writes to one resource, as `verb[/subresource] name`. */
  writesTo(resource: string): string[] {
    return this.log.filter((w) => w.resource === resource).map((w) => `${w.verb}${w.subresource ? `/${w.subresource}` : ''} ${w.obj.metadata?.name}`);
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
