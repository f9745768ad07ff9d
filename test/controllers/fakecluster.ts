// The fake client of test/client/fakeclient.ts made kind-aware for the workload controller
// tests: objects kept per resource, watches fed by every write (or held back, to play a slow
// informer), generateName, uid, creationTimestamp, generation bumped on spec changes, the status
// subresource, resourceVersion conflicts, and the two strategic merge patches the controllers
// send (ownerReferences merged on uid; `$patch: delete` of one; metadata.uid as precondition).
// No server, no timers: tests step the clock themselves.

import type { KubeObject } from '../../src/api/types.js';
import { ApiError } from '../../src/client/errors.js';
import type { DeleteOptions, ListOptions, ObjectList, PatchType, ResourceRef, Watch, WatchEvent, WatchHandlers, WriteOptions } from '../../src/client/interface.js';
import { FakeClient } from '../client/fakeclient.js';

const status = (code: number, reason: string, message: string) => new ApiError(code, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message } as never);

export class FakeCluster extends FakeClient {
  private readonly store = new Map<string, Map<string, KubeObject>>();
  private readonly watchers = new Map<string, Set<WatchHandlers>>();
  private uidSeq = 0;
  private nameSeq = 0;
  /** While true, watch events wait in `held` (a slow informer). */
  holdWatches = false;
  held: { resource: string; e: WatchEvent }[] = [];
  /** A create of this resource fails with this error (e.g. quota), once per entry. */
  failCreates: { resource: string; error: ApiError }[] = [];
  log: string[] = [];

  private bucket(r: ResourceRef): Map<string, KubeObject> {
    let b = this.store.get(r.resource);
    if (!b) this.store.set(r.resource, (b = new Map()));
    return b;
  }

  private emit(resource: string, e: WatchEvent): void {
    if (this.holdWatches) {
      this.held.push({ resource, e });
      return;
    }
    for (const w of this.watchers.get(resource) ?? []) w.event(structuredClone(e));
  }

  /** Delivers the held watch events. */
  release(): void {
    this.holdWatches = false;
    const h = this.held;
    this.held = [];
    for (const { resource, e } of h) this.emit(resource, e);
  }

  objectsOf<T extends KubeObject>(r: ResourceRef, namespace = 'default'): T[] {
    return [...this.bucket(r).values()].filter((o) => (o.metadata?.namespace ?? '') === namespace).map((o) => structuredClone(o) as T);
  }

  /** Stores an object as a write would (for setup and for playing the kubelet), and tells the watchers. */
  seed<T extends KubeObject>(r: ResourceRef, o: T): T {
    const b = this.bucket(r);
    const key = `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    const existed = b.has(key);
    const obj = structuredClone(o) as T;
    obj.metadata = { ...obj.metadata, resourceVersion: String(++this.resourceVersion) };
    obj.metadata.uid ??= `uid-${++this.uidSeq}`;
    obj.metadata.creationTimestamp ??= this.clock.toISOString().replace(/\.\d{3}Z$/, 'Z');
    obj.metadata.generation ??= 1;
    b.set(key, obj);
    this.emit(r.resource, { type: existed ? 'MODIFIED' : 'ADDED', object: structuredClone(obj) });
    return structuredClone(obj);
  }

  override async get<T extends KubeObject>(r: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
    const o = this.bucket(r).get(`${namespace ?? ''}/${name}`);
    if (!o) throw status(404, 'NotFound', `${r.resource} "${name}" not found`);
    return structuredClone(o) as T;
  }

  override async list<T extends KubeObject>(r: ResourceRef, namespace?: string): Promise<ObjectList<T>> {
    this.lists++;
    const items = [...this.bucket(r).values()].filter((o) => namespace === undefined || o.metadata?.namespace === namespace);
    return { items: items.map((o) => structuredClone(o) as T), resourceVersion: String(this.resourceVersion) };
  }

  override async watch<T extends KubeObject>(r: ResourceRef, _ns: string | undefined, _opts: ListOptions, on: WatchHandlers<T>): Promise<Watch> {
    let s = this.watchers.get(r.resource);
    if (!s) this.watchers.set(r.resource, (s = new Set()));
    const h = on as unknown as WatchHandlers;
    s.add(h);
    return { stop: () => void s!.delete(h) };
  }

  override async create<T extends KubeObject>(r: ResourceRef, namespace: string | undefined, obj: T): Promise<T> {
    const i = this.failCreates.findIndex((f) => f.resource === r.resource);
    if (i >= 0) {
      const [f] = this.failCreates.splice(i, 1);
      throw f!.error;
    }
    const o = structuredClone(obj);
    o.metadata = { ...o.metadata, namespace: namespace ?? o.metadata?.namespace };
    if (!o.metadata.name && o.metadata.generateName) o.metadata.name = `${o.metadata.generateName}${(++this.nameSeq).toString(36).padStart(5, 'x')}`;
    if (this.bucket(r).has(`${namespace ?? ''}/${o.metadata.name}`)) throw status(409, 'AlreadyExists', `${r.resource} "${o.metadata.name}" already exists`);
    delete o.metadata.uid;
    delete o.metadata.creationTimestamp;
    this.writes.push({ verb: `create ${r.resource}`, obj: o });
    this.log.push(`create ${r.resource} ${o.metadata.name}`);
    return this.seed(r, o);
  }

  override async update<T extends KubeObject>(r: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const cur = await this.get<T>(r, namespace, obj.metadata?.name ?? '');
    if (obj.metadata?.resourceVersion && obj.metadata.resourceVersion !== cur.metadata?.resourceVersion) throw status(409, 'Conflict', `Operation cannot be fulfilled on ${r.resource} "${obj.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`);
    const next = structuredClone(obj) as T & { spec?: unknown; status?: unknown };
    const c = cur as T & { spec?: unknown; status?: unknown };
    if (opts.subresource === 'status') {
      // The status strategy: spec and labels stay; metadata (annotations) and status are taken.
      next.spec = c.spec;
      next.metadata = { ...next.metadata, labels: cur.metadata?.labels, generation: cur.metadata?.generation };
    } else {
      next.status = c.status;
      const changed = JSON.stringify(next.spec) !== JSON.stringify(c.spec);
      next.metadata = { ...next.metadata, generation: (cur.metadata?.generation ?? 1) + (changed ? 1 : 0) };
    }
    next.metadata = { ...next.metadata, uid: cur.metadata?.uid, creationTimestamp: cur.metadata?.creationTimestamp };
    this.writes.push({ verb: `update ${r.resource}${opts.subresource ? '/' + opts.subresource : ''}`, obj: next });
    this.log.push(`update ${r.resource}${opts.subresource ? '/' + opts.subresource : ''} ${obj.metadata?.name}`);
    return this.seed(r, next);
  }

  override async patch<T extends KubeObject>(r: ResourceRef, namespace: string | undefined, name: string, type: PatchType, patch: unknown): Promise<T> {
    const cur = await this.get<T>(r, namespace, name);
    const p = patch as { metadata?: { uid?: string; ownerReferences?: ({ uid: string; $patch?: string } & Record<string, unknown>)[] } };
    if (type !== 'application/strategic-merge-patch+json') throw new Error(`fake: patch type ${type} not supported`);
    if (p.metadata?.uid && p.metadata.uid !== cur.metadata?.uid) throw status(422, 'Invalid', `Precondition failed: UID in precondition: ${p.metadata.uid}, UID in object meta: ${cur.metadata?.uid}`);
    let refs = [...(cur.metadata?.ownerReferences ?? [])];
    for (const ref of p.metadata?.ownerReferences ?? []) {
      refs = refs.filter((x) => x.uid !== ref.uid);
      if (ref.$patch !== 'delete') refs.push(ref as never);
    }
    cur.metadata = { ...cur.metadata, ownerReferences: refs };
    if (refs.length === 0) delete cur.metadata.ownerReferences;
    this.writes.push({ verb: `patch ${r.resource}`, obj: cur });
    this.log.push(`patch ${r.resource} ${name}`);
    return this.seed(r, cur);
  }

  override async delete(r: ResourceRef, namespace: string | undefined, name: string, _opts?: DeleteOptions): Promise<KubeObject> {
    const o = await this.get(r, namespace, name);
    this.bucket(r).delete(`${namespace ?? ''}/${name}`);
    this.writes.push({ verb: `delete ${r.resource}`, obj: o });
    this.log.push(`delete ${r.resource} ${name}`);
    this.emit(r.resource, { type: 'DELETED', object: o });
    return o;
  }
}
