// A KubeClient for the informer and recorder tests: lists answer from `objects`, watches hand
// their handlers to the test (which pushes events or ends the stream), writes are kept in
// order. No server, no timers.

import type { KubeObject } from '../../src/api/types.js';
import { ApiError } from '../../src/client/errors.js';
import type { KubeClient, ListOptions, ObjectList, PatchType, ResourceRef, Watch, WatchHandlers, WriteOptions } from '../../src/client/interface.js';

export class FakeClient implements KubeClient {
  objects = new Map<string, KubeObject>();
  resourceVersion = 1;
  lists = 0;
  watches: { opts: ListOptions; on: WatchHandlers; stopped: boolean }[] = [];
  /** Watch starts to refuse with this code (e.g. 410), once each. */
  refuseWatch: number[] = [];
  writes: { verb: string; obj: KubeObject }[] = [];
  clock = new Date('2025-01-01T00:00:00Z');

  key(o: KubeObject): string {
    return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  }

  put(o: KubeObject): KubeObject {
    const obj = { ...o, metadata: { ...o.metadata, resourceVersion: String(++this.resourceVersion) } };
    this.objects.set(this.key(obj), obj);
    return obj;
  }

  /** The watch started last. */
  get current(): WatchHandlers {
    return this.watches[this.watches.length - 1]!.on;
  }

  async get<T extends KubeObject>(_r: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
    const o = this.objects.get(`${namespace ?? ''}/${name}`);
    if (!o) throw new ApiError(404, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 404, reason: 'NotFound', message: `${name} not found` } as never);
    return structuredClone(o) as T;
  }

  async list<T extends KubeObject>(_r?: ResourceRef, _ns?: string, _opts?: ListOptions): Promise<ObjectList<T>> {
    this.lists++;
    return { items: [...this.objects.values()].map((o) => structuredClone(o) as T), resourceVersion: String(this.resourceVersion) };
  }

  async watch<T extends KubeObject>(_r: ResourceRef, _ns: string | undefined, opts: ListOptions, on: WatchHandlers<T>): Promise<Watch> {
    const code = this.refuseWatch.shift();
    if (code) throw new ApiError(code, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason: 'Expired', message: 'too old resource version' } as never);
    const w = { opts, on: on as unknown as WatchHandlers, stopped: false };
    this.watches.push(w);
    return { stop: () => void (w.stopped = true) };
  }

  async create<T extends KubeObject>(_r: ResourceRef, _ns: string | undefined, obj: T): Promise<T> {
    this.writes.push({ verb: 'create', obj });
    return this.put(obj) as T;
  }

  async update<T extends KubeObject>(_r: ResourceRef, _ns: string | undefined, obj: T): Promise<T> {
    this.writes.push({ verb: 'update', obj });
    return this.put(obj) as T;
  }

  async patch<T extends KubeObject>(_r: ResourceRef, _ns: string | undefined, _name: string, _type: PatchType, _patch: unknown, _opts?: WriteOptions): Promise<T> {
    throw new Error('not used');
  }

  async delete(_r: ResourceRef, namespace: string | undefined, name: string): Promise<KubeObject> {
    const o = await this.get(_r, namespace, name);
    this.objects.delete(this.key(o));
    return o;
  }

  async bind(): Promise<void> {}
  async evict(): Promise<void> {}
  async finalizeNamespace(): Promise<void> {}
  async namespacedResources(): Promise<ResourceRef[]> {
    return [];
  }

  now(): Date {
    return this.clock;
  }
}

export const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}` }, ...extra });
