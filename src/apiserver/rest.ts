// Generic REST semantics over the store, as the generic registry of kube-apiserver implements
// them: get, list (selectors, resourceVersion rules), watch, create, update (optimistic
// concurrency), delete, deletecollection. Kind-specific rules come from a Strategy.

import type { FeatureGates } from '../api/featuregates.js';
import type { KubeObject, Namespace } from '../api/types.js';
import {
  CompactedError,
  FutureRevisionError,
  type Compare,
  type KeyValue,
  type Operation,
  type Store,
  type Watch,
  type WatchEvent,
} from '../storage/store.js';
import { deleteDuringUpdate, deletionFinalizers } from '../policy/gc.js';
import type { ObjectCache } from './cache.js';
import type { Cacher } from './watchcache.js';
import { decodeStored, encodeForStore, generateName, newUID } from './objects.js';
import { findResource, groupVersion, resources, storageKey, type ResourceDef } from './resources.js';
import { statusErrors, StatusError, type GroupResource } from './status.js';
import { selection, selects } from './selection.js';
import { updateWithCommonChecks } from './updatechecks.js';
import { fieldError } from '../api/fielderrors.js';
import { metaTime } from '../api/metatime.js';
import { currentDeadline, earliest, withDeadline, type Deadline } from '../storage/deadline.js';
import { DEFAULT_RESOURCE_QUOTA_CONFIGURATION, type ResourceQuotaConfiguration } from '../quota/config.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export interface UserInfo {
  name: string;
  groups: string[];
  /** user.Info's UID and Extra: set only by impersonation (Impersonate-Uid, Impersonate-Extra-*). */
  uid?: string;
  extra?: Record<string, string[]>;
}

export interface RequestInfo {
  user: UserInfo;
  namespace?: string;
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  /** Warnings for the response's Warning headers. */
  warnings: string[];
  /** The User-Agent, the field manager's fallback name. */
  userAgent?: string;
  /** Set when metadata.managedFields was already computed (server-side apply). */
  managedFieldsDone?: boolean;
}

/**
 * Records the create's field ownership (metadata.managedFields) on `obj` as it stands. Upstream's
 * field manager sees the object decoded and defaulted, before admission and PrepareForCreate, so
 * what those add (a Job's generated selector, a pod's default tolerations, a Service's cluster
 * IPs) belongs to no manager: a strategy that adds such fields calls this once defaulting is done.
 * Without a call, the stored object is tracked as a whole.
 */
export type TrackOwnership = (obj: KubeObject) => void;

/** Extra writes that must commit with the object (e.g. quota status), guarded by their revision. */
export interface GuardedWrite {
  key: string;
  modRevision: number;
  value: string;
}

/** Shared objects changed by the creates of one batch, with the revision they were read at. */
export interface CreateBatch {
  pending: Map<string, { modRevision: number; obj: KubeObject }>;
}

/**
 * A create's request body, for each time the create is prepared (a batch admitted again, the
 * one-by-one fallback): `owned` is an object decoded for this request alone, the first
 * preparation's to change (no copy); `again` gives an object equal to the body as it came,
 * no one else's either, for every later one.
 */
export interface CreateBody {
  /** metadata.name as it came (for the error of a create that gave up). */
  name: string;
  owned?: KubeObject;
  again(): KubeObject;
}

/** The body of a create whose caller keeps its object: each preparation changes a copy. */
function copiedBody(body: KubeObject): CreateBody {
  return { name: body.metadata?.name ?? '', again: () => deepCopyJSON(body) };
}

/** The object for one preparation of the create. */
function bodyToPrepare(b: CreateBody): KubeObject {
  const owned = b.owned;
  if (!owned) return b.again();
  b.owned = undefined;
  return owned;
}

interface PendingCreate {
  def: ResourceDef;
  namespace: string | undefined;
  body: CreateBody;
  req: RequestInfo;
  /** The request's deadline (deadline.ts): a batch's etcd calls end with its earliest. */
  deadline: Deadline | undefined;
  resolve(obj: KubeObject): void;
  reject(e: unknown): void;
}

interface PreparedCreate {
  key: string;
  name: string;
  obj: KubeObject;
  writes: GuardedWrite[];
}

export interface Strategy {
  /** AllowCreateOnUpdate: a PUT of an object that does not exist creates it (the HTTP handler asks). */
  allowCreateOnUpdate?: boolean;
  /** AllowUnconditionalUpdate false: an update must carry a resourceVersion (RuntimeClass). */
  requiresResourceVersion?: boolean;
  /**
   * Creates in one namespace run one at a time: their admission reads and writes shared
   * objects (quota status), and running them concurrently would only make all but one of
   * them fail their compare-and-swap and start over.
   */
  serializeCreatesPerNamespace?: boolean;
  /**
   * PrepareForCreate sets metadata.generation to 1: the kinds whose spec writes move it (the
   * workloads, Jobs, CronJobs, PodDisruptionBudgets, EndpointSlices). Every other kind keeps what
   * the request sent, none when it sent none, as the generic registry does (BeforeCreate leaves
   * generation alone).
   */
  setsGeneration?: boolean;
  /** Turns a decoded request body into the object to store, or throws a StatusError. */
  /**
   * With `batch`, the create is one of several committed together: shared objects it changes go
   * into `batch.pending` (read them from there first) instead of `writes`.
   */
  create?(obj: KubeObject, req: RequestInfo, api: Api, batch?: CreateBatch, track?: TrackOwnership): Promise<{ obj: KubeObject; writes?: GuardedWrite[] }>;
  update?(obj: KubeObject, old: KubeObject, req: RequestInfo, api: Api, subresource?: string): Promise<{ obj: KubeObject; writes?: GuardedWrite[] }>;
  /**
   * The mutating admission of an update that may refuse it (NodeRestriction's Admit). Upstream
   * runs mutating admission in UpdatedObject, before the store compares resourceVersions, so a
   * node writing another node's object gets its 403 even with a stale resourceVersion.
   */
  admitUpdate?(obj: KubeObject, old: KubeObject, req: RequestInfo, subresource?: string): void;
  /** Decides how a delete happens: at once, or by marking the object (graceful pods, namespaces). */
  delete?(obj: KubeObject, opts: DeleteOptions, req: RequestInfo, api: Api): Promise<{ mark?: KubeObject } | undefined>;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  /** Deprecated spelling of propagationPolicy (true = Orphan). */
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  /** Watch only: undefined when absent (the legacy rule: initial events for resourceVersion 0 or none). */
  sendInitialEvents?: boolean;
  /** Watch only: BOOKMARK events, here the one that ends the initial events. */
  allowWatchBookmarks?: boolean;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchSink {
  send(type: WatchEventType, object: unknown): void;
  /** Called when the watch ends on its own (e.g. the store gave up). */
  close(): void;
}

export interface ApiOptions {
  store: Store;
  gates: FeatureGates;
  now?: () => Date;
  /** How the server's own retries wait between attempts (retry.ts); a timer unless a test counts them. */
  sleep?: (ms: number) => Promise<void>;
  /** The ResourceQuota admission plugin's configuration (nothing limited by default when absent). */
  resourceQuota?: ResourceQuotaConfiguration;
}

function gr(def: ResourceDef): GroupResource {
  return { group: def.group, resource: def.resource };
}

function tooOld(requested: number, current: number): StatusError {
  return statusErrors.gone(`too old resource version: ${requested} (${current})`);
}

export function parseRV(rv: string | undefined): number | undefined {
  if (rv === undefined || rv === '') return undefined;
  // storage.GetCurrentResourceVersionFromStorage's wording for APIObjectVersioner's ParseUint error.
  const invalid = (why: string) => statusErrors.badRequest(`invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`);
  if (!/^\d+$/.test(rv)) throw invalid('invalid syntax');
  if (BigInt(rv) > 2n ** 64n - 1n) throw invalid('value out of range');
  return Number(rv);
}

const maxCreateRetries = 16;
/** Creates committed in one store transaction at most. */
const maxCreateBatch = 64;

export class Api {
  readonly store: Store;
  readonly gates: FeatureGates;
  readonly now: () => Date;
  readonly sleep: (ms: number) => Promise<void>;
  /** The ResourceQuota admission plugin's configuration: what it limits by default (quota/limited.ts). */
  readonly resourceQuota: ResourceQuotaConfiguration;
  readonly strategies = new Map<string, Strategy>();
  /** Watch-fed copies of hot resources (see cache.ts), by resource name. */
  readonly caches = new Map<string, ObjectCache>();
  /** The watch caches LIST and WATCH read (installed by the server; absent in bare tests). */
  cacher?: Cacher;
  /** Records a write in metadata.managedFields (installed by the server; absent in bare tests). */
  trackWrite?: (def: ResourceDef, old: KubeObject | undefined, next: KubeObject, req: RequestInfo, subresource?: string) => KubeObject;

  constructor(opts: ApiOptions) {
    this.store = opts.store;
    this.gates = opts.gates;
    this.now = opts.now ?? (() => new Date());
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.resourceQuota = opts.resourceQuota ?? DEFAULT_RESOURCE_QUOTA_CONFIGURATION;
  }

  resource(group: string, version: string, resource: string): ResourceDef | undefined {
    return findResource(group, version, resource);
  }

  def(resource: string): ResourceDef {
    const d = resources.find((r) => r.resource === resource);
    if (!d) throw new Error(`unknown resource ${resource}`);
    return d;
  }

  strategy(def: ResourceDef): Strategy {
    return this.strategies.get(def.resource) ?? {};
  }

  async getKV(def: ResourceDef, namespace: string | undefined, name: string): Promise<KeyValue | undefined> {
    return this.store.get(storageKey(def, namespace, name));
  }

  async get<T extends KubeObject = KubeObject>(def: ResourceDef, namespace: string | undefined, name: string): Promise<T> {
    const kv = await this.getKV(def, namespace, name);
    if (!kv) throw statusErrors.notFound(gr(def), name);
    return served(def, decodeStored<T>(kv));
  }

  async tryGet<T extends KubeObject = KubeObject>(def: ResourceDef, namespace: string | undefined, name: string): Promise<T | undefined> {
    const kv = await this.getKV(def, namespace, name);
    return kv ? served(def, decodeStored<T>(kv)) : undefined;
  }

  /** The stored version's def of a version served by conversion (the def itself otherwise). */
  storageDef(def: ResourceDef): ResourceDef {
    if (!def.convert) return def;
    const d = findResource(def.group, def.convert.storageVersion, def.resource);
    if (!d) throw new Error(`no storage version ${def.convert.storageVersion} of ${def.resource}`);
    return d;
  }

  async list(def: ResourceDef, namespace: string | undefined, opts: ListOptions = {}): Promise<ListResult> {
    const sel = selection(def, opts);
    const rv = parseRV(opts.resourceVersion);
    const prefix = storageKey(def, namespace);
    let readAt: number | undefined;
    if (rv !== undefined && rv !== 0 && opts.resourceVersionMatch === 'Exact') readAt = rv;
    if (rv !== undefined && rv !== 0 && opts.resourceVersionMatch !== 'Exact') {
      const current = await this.store.currentRevision();
      if (rv > current) throw statusErrors.tooLargeResourceVersion(rv, current);
    }
    let after: string | undefined;
    if (opts.continue) {
      try {
        const c = JSON.parse(Buffer.from(opts.continue, 'base64url').toString('utf8')) as { rv: number; start: string };
        readAt = c.rv;
        after = c.start;
      } catch {
        throw statusErrors.badRequest('continue key is not valid: illegal base64 data');
      }
    }
    try {
      const items: KubeObject[] = [];
      const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
      let revision = 0;
      let more = false;
      let last: string | undefined;
      // Page through the store until `limit` matching items are found (selectors filter after reading).
      for (;;) {
        const page = await this.store.list(prefix, { revision: readAt, after, limit: limit ? Math.max(limit, 256) : 0 });
        revision = page.revision;
        readAt ??= page.revision;
        for (const kv of page.items) {
          last = kv.key;
          const obj = decodeStored(kv);
          if (!selects(def, sel, obj)) continue;
          items.push(served(def, obj));
          if (limit && items.length === limit) break;
        }
        if (limit && items.length === limit) {
          more = page.more || page.items[page.items.length - 1]?.key !== last;
          break;
        }
        if (!page.more) break;
        after = last;
      }
      const result: ListResult = { items, resourceVersion: String(revision) };
      if (more && last) result.continue = Buffer.from(JSON.stringify({ rv: revision, start: last })).toString('base64url');
      return result;
    } catch (e) {
      if (e instanceof CompactedError) throw statusErrors.gone(`The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.`);
      if (e instanceof FutureRevisionError) throw statusErrors.tooLargeResourceVersion(e.requested, e.current);
      throw e;
    }
  }

  /** Starts a watch; resolves once the initial state (if any) has been sent. */
  async watch(def: ResourceDef, namespace: string | undefined, opts: ListOptions, sink: WatchSink): Promise<Watch> {
    if (def.convert) {
      const convert = def.convert;
      const apiVersion = groupVersion(def);
      return this.watch(this.storageDef(def), namespace, opts, {
        send: (type, obj) => {
          if (type === 'ERROR') return sink.send(type, obj);
          if (type === 'BOOKMARK') return sink.send(type, { ...(obj as KubeObject), apiVersion });
          sink.send(type, convert.fromStorage(obj as KubeObject));
        },
        close: () => sink.close(),
      });
    }
    const sel = selection(def, opts);
    const prefix = storageKey(def, namespace);
    const requested = parseRV(opts.resourceVersion) ?? 0;
    let from = requested;
    if (requested !== 0) {
      // The store's revision is the newest there is, so a later one will not arrive by waiting:
      // answer at once what the watch cache answers when it cannot catch up.
      const current = await this.store.currentRevision();
      if (requested > current) {
        sink.send('ERROR', statusErrors.tooLargeResourceVersion(requested, current).status);
        sink.close();
        return { cancel() {} };
      }
    }
    if (opts.sendInitialEvents ?? requested === 0) {
      // The current objects arrive as ADDED events first (for sendInitialEvents, a state not
      // older than the resourceVersion asked for: the current one).
      const snapshot = await this.list(def, namespace, { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector });
      for (const o of snapshot.items) sink.send('ADDED', o);
      from = Number(snapshot.resourceVersion);
      if (opts.sendInitialEvents && opts.allowWatchBookmarks) {
        sink.send('BOOKMARK', { kind: def.kind, apiVersion: groupVersion(def), metadata: { resourceVersion: String(from), annotations: { 'k8s.io/initial-events-end': 'true' } } });
      }
    } else if (requested === 0) {
      from = await this.store.currentRevision();
    }
    const onEvent = (e: WatchEvent) => {
      const obj = decodeStored(e.kv);
      if (e.type === 'DELETE') {
        const last = e.prevKv ? decodeStored(e.prevKv) : obj;
        last.metadata = { ...last.metadata, resourceVersion: String(e.kv.modRevision) };
        if (selects(def, sel, last)) sink.send('DELETED', last);
        return;
      }
      const now = selects(def, sel, obj);
      // Without selectors the previous state cannot change the event type; skip decoding it.
      const unfiltered = sel.labels.length === 0 && sel.fields.length === 0;
      const before = e.prevKv && !e.created ? unfiltered || selects(def, sel, decodeStored(e.prevKv)) : false;
      if (now && before) sink.send('MODIFIED', obj);
      else if (now) sink.send('ADDED', obj);
      else if (before) sink.send('DELETED', obj);
    };
    try {
      return await this.store.watch(prefix, from, {
        event: onEvent,
        error: (err) => {
          if (err instanceof CompactedError) sink.send('ERROR', tooOld(err.requested, err.compactRevision).status);
          sink.close();
        },
      });
    } catch (e) {
      if (e instanceof CompactedError) {
        sink.send('ERROR', tooOld(from, e.compactRevision).status);
        sink.close();
        return { cancel() {} };
      }
      throw e;
    }
  }

  /**
   * The object an update starts from and the revision its write is guarded by: the watch
   * cache's (deep-frozen) where one current on commit holds the resource, else the store's.
   */
  private async current(def: ResourceDef, key: string, name: string): Promise<{ old: KubeObject; modRevision: number }> {
    const cached = this.cacher?.lookup(def, key);
    if (cached) {
      if (!cached.obj) throw statusErrors.notFound(gr(def), name);
      return { old: cached.obj, modRevision: cached.rev };
    }
    const kv = await this.store.get(key);
    if (!kv) throw statusErrors.notFound(gr(def), name);
    return { old: decodeStored(kv), modRevision: kv.modRevision };
  }

  /** Whether `key` holds an object: the watch cache's answer where it has one, else the store's. */
  private async exists(def: ResourceDef, key: string): Promise<boolean> {
    const cached = this.cacher?.lookup(def, key);
    return cached ? cached.obj !== undefined : (await this.store.get(key)) !== undefined;
  }

  async requireNamespace(def: ResourceDef, namespace: string | undefined, name: string, forCreate: boolean): Promise<Namespace | undefined> {
    if (!def.namespaced || namespace === undefined) return undefined;
    const cached = this.caches.get('namespaces');
    // As the NamespaceLifecycle plugin: a namespace the watch-fed cache has not seen yet (just
    // created, possibly through another API server on the same store) is looked up live.
    const ns = (cached?.get(undefined, namespace)?.obj as Namespace | undefined) ?? (await this.tryGet<Namespace>(this.def('namespaces'), undefined, namespace));
    if (!ns) throw statusErrors.notFound({ group: '', resource: 'namespaces' }, namespace);
    if (forCreate && (ns.status?.phase === 'Terminating' || ns.metadata.deletionTimestamp)) {
      const why = `unable to create new content in namespace ${namespace} because it is being terminated`;
      const e = statusErrors.forbidden(gr(def), name, why);
      // As the NamespaceLifecycle plugin: clients tell this refusal by its cause, not its words.
      e.status.details = { ...e.status.details, causes: [{ reason: 'NamespaceTerminating', message: why, field: 'metadata.namespace' }] };
      throw e;
    }
    return ns;
  }

  private readonly createQueues = new Map<string, PendingCreate[]>();

  /**
   * `again`: where `body` was decoded for this request alone (the handler's), the create
   * changes it instead of a copy, and `again` decodes the request's body once more should the
   * create be admitted a second time.
   */
  async create(def: ResourceDef, namespace: string | undefined, body: KubeObject, req: RequestInfo, again?: () => KubeObject): Promise<KubeObject> {
    if (def.convert) return def.convert.fromStorage(await this.create(this.storageDef(def), namespace, def.convert.toStorage(body), req));
    const source: CreateBody = again ? { name: body.metadata?.name ?? '', owned: body, again } : copiedBody(body);
    if (this.strategy(def).serializeCreatesPerNamespace && namespace !== undefined && !req.dryRun) {
      // Creates of one namespace are admitted one after another against the running quota
      // state and committed together (as upstream's quota admission batches a namespace's
      // requests), so concurrent creators never race each other on the quota objects.
      const queueKey = `${def.resource}/${namespace}`;
      return new Promise((resolve, reject) => {
        let queue = this.createQueues.get(queueKey);
        const start = !queue;
        if (!queue) this.createQueues.set(queueKey, (queue = []));
        queue.push({ def, namespace, body: source, req, deadline: currentDeadline(), resolve, reject });
        // setImmediate, not a microtask: requests already read from the sockets join this batch.
        if (start) setImmediate(() => void this.drainCreates(queueKey));
      });
    }
    return this.createNow(def, namespace, source, req);
  }

  private async drainCreates(queueKey: string): Promise<void> {
    const queue = this.createQueues.get(queueKey)!;
    try {
      while (queue.length > 0) {
        // Under the earliest deadline of the batch's requests, not that of the request whose
        // arrival started this drain (which may have passed by a later batch).
        const items = queue.splice(0, maxCreateBatch);
        await withDeadline(earliest(items.map((i) => i.deadline)), () => this.createBatch(items));
      }
    } finally {
      this.createQueues.delete(queueKey);
      // Anything queued after the loop saw it empty starts a new drain.
      if (queue.length > 0) {
        this.createQueues.set(queueKey, queue);
        void this.drainCreates(queueKey);
      }
    }
  }

  private async createBatch(items: PendingCreate[], attempt = 0): Promise<void> {
    const batch: CreateBatch = { pending: new Map() };
    const accepted: { item: PendingCreate; prepared: PreparedCreate }[] = [];
    const keys = new Set<string>();
    for (const item of items) {
      const before = new Map(batch.pending);
      try {
        const prepared = await this.prepareCreate(item.def, item.namespace, item.body, item.req, batch);
        if (keys.has(prepared.key) || (await this.exists(item.def, prepared.key))) throw statusErrors.alreadyExists(gr(item.def), prepared.name);
        keys.add(prepared.key);
        accepted.push({ item, prepared });
      } catch (e) {
        batch.pending = before;
        item.reject(e);
      }
    }
    if (accepted.length === 0) return;
    const compares: Compare[] = [];
    const ops: Operation[] = [];
    for (const { prepared } of accepted) {
      compares.push({ key: prepared.key, modRevision: 0 });
      ops.push({ op: 'put', key: prepared.key, value: encodeForStore(prepared.obj) });
    }
    for (const [key, p] of batch.pending) {
      compares.push({ key, modRevision: p.modRevision });
      ops.push({ op: 'put', key, value: encodeForStore(p.obj) });
    }
    let r;
    try {
      r = await this.store.txn(compares, ops);
    } catch (e) {
      for (const { item } of accepted) item.reject(e);
      return;
    }
    if (r.succeeded) {
      for (const { item, prepared } of accepted) {
        prepared.obj.metadata!.resourceVersion = String(r.revision);
        item.resolve(prepared.obj);
      }
      return;
    }
    // Something outside this queue changed a quota meanwhile. The txn answered after the
    // commit that changed it, so the caches admission reads are current again: admit the batch
    // once more, then (should that lose a race too) each one by one.
    if (attempt === 0) return this.createBatch(accepted.map((a) => a.item), 1);
    for (const { item } of accepted) {
      try {
        item.resolve(await withDeadline(item.deadline, () => this.createNow(item.def, item.namespace, item.body, item.req)));
      } catch (e) {
        item.reject(e);
      }
    }
  }

  /** Everything a create does before its write: server-owned metadata, strategy, ownership. */
  private async prepareCreate(def: ResourceDef, namespace: string | undefined, body: CreateBody, req: RequestInfo, batch?: CreateBatch): Promise<PreparedCreate> {
    const obj = bodyToPrepare(body);
    // The body's own metadata: the copy below is the one changed.
    const meta = obj.metadata ?? {};
    if (def.namespaced && meta.namespace && namespace && meta.namespace !== namespace) {
      throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    obj.apiVersion = groupVersion(def);
    obj.kind = def.kind;
    obj.metadata = { ...(obj.metadata ?? {}) };
    if (def.namespaced) obj.metadata.namespace = namespace;
    else delete obj.metadata.namespace;
    if (!meta.name && meta.generateName) obj.metadata.name = generateName(meta.generateName);
    const name = obj.metadata.name ?? '';
    await this.requireNamespace(def, namespace, name, true);
    // Fields the server owns.
    delete obj.metadata.resourceVersion;
    delete obj.metadata.deletionTimestamp;
    delete obj.metadata.deletionGracePeriodSeconds;
    obj.metadata.uid = newUID();
    obj.metadata.creationTimestamp = metaTime(this.now());
    const strat = this.strategy(def);
    if (strat.setsGeneration) obj.metadata.generation = 1;
    const trackWrite = this.trackWrite;
    let tracked = false;
    const track: TrackOwnership = (o) => {
      if (!trackWrite || tracked) return;
      tracked = true;
      omitEmptyMetadata(o);
      const managedFields = trackWrite(def, undefined, o, req).metadata?.managedFields;
      const { managedFields: _untracked, ...meta } = o.metadata ?? {};
      o.metadata = managedFields === undefined ? meta : { ...meta, managedFields };
    };
    const prepared = strat.create ? await strat.create(obj, req, this, batch, track) : { obj };
    omitEmptyMetadata(prepared.obj);
    if (trackWrite && !tracked) prepared.obj = trackWrite(def, undefined, prepared.obj, req);
    return { key: storageKey(def, namespace, prepared.obj.metadata?.name ?? name), name, obj: prepared.obj, writes: prepared.writes ?? [] };
  }

  private async createNow(def: ResourceDef, namespace: string | undefined, body: CreateBody, req: RequestInfo): Promise<KubeObject> {
    for (let attempt = 0; attempt < maxCreateRetries; attempt++) {
      const prepared = await this.prepareCreate(def, namespace, body, req);
      const { key, name } = prepared;
      if (req.dryRun) {
        if (await this.store.get(key)) throw statusErrors.alreadyExists(gr(def), name);
        return prepared.obj;
      }
      const compares: Compare[] = [{ key, modRevision: 0 }];
      const ops: Operation[] = [{ op: 'put', key, value: encodeForStore(prepared.obj) }];
      for (const w of prepared.writes) {
        compares.push({ key: w.key, modRevision: w.modRevision });
        ops.push({ op: 'put', key: w.key, value: w.value });
      }
      const r = await this.store.txn(compares, ops);
      if (r.succeeded) {
        prepared.obj.metadata!.resourceVersion = String(r.revision);
        return prepared.obj;
      }
      if (await this.store.get(key)) throw statusErrors.alreadyExists(gr(def), name);
      // A guarded write (quota status) changed under us: admit again against the new state.
    }
    throw statusErrors.conflict(gr(def), body.name, 'too many concurrent changes to the objects this create depends on; please retry');
  }

  /**
   * Replaces an object (PUT, or the result of a PATCH). With `expectRV` the write is a
   * compare-and-swap; a stale resourceVersion is a 409 Conflict. `preconditions` are checked
   * against the stored object first (a PUT's body uid: rest.DefaultUpdatedObjectInfo's).
   */
  async update(def: ResourceDef, namespace: string | undefined, name: string, body: KubeObject, req: RequestInfo, subresource?: string, preconditions?: DeleteOptions['preconditions']): Promise<KubeObject> {
    if (def.convert) return def.convert.fromStorage(await this.update(this.storageDef(def), namespace, name, def.convert.toStorage(body), req, subresource, preconditions));
    const key = storageKey(def, namespace, name);
    if (body.metadata?.name && body.metadata.name !== name) {
      throw statusErrors.badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`);
    }
    if (def.namespaced && body.metadata?.namespace && body.metadata.namespace !== namespace) {
      throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    for (let attempt = 0; attempt < maxCreateRetries; attempt++) {
      const { old, modRevision } = await this.current(def, key, name);
      checkPreconditions(def, name, old, preconditions);
      const obj = deepCopyJSON(body);
      obj.apiVersion = groupVersion(def);
      obj.kind = def.kind;
      // BeforeUpdate: the stored uid when the body has none (a different one: a PUT's failed
      // precondition above, a PATCH's 422 below).
      obj.metadata = { ...(obj.metadata ?? {}), name, uid: obj.metadata?.uid || old.metadata?.uid, creationTimestamp: old.metadata?.creationTimestamp };
      // BeforeUpdate: a request cannot change generation (the strategies that track it move it).
      if (old.metadata?.generation === undefined) delete obj.metadata.generation;
      else obj.metadata.generation = old.metadata.generation;
      if (def.namespaced) obj.metadata.namespace = namespace;
      else delete obj.metadata.namespace;
      const strat = this.strategy(def);
      strat.admitUpdate?.(obj, old, req, subresource);
      const wantRV = body.metadata?.resourceVersion;
      if (!wantRV && strat.requiresResourceVersion) {
        // The store's error names the resource where the kind goes, as upstream's does (#18526).
        throw statusErrors.invalid(def.resource, def.group, name, [fieldError.invalid('metadata.resourceVersion', 0, 'must be specified for an update')]);
      }
      if (wantRV && wantRV !== String(modRevision)) throw statusErrors.modified(gr(def), name);
      if (old.metadata?.deletionTimestamp) {
        obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
        obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
      }
      const prepared = await updateWithCommonChecks(this, def, strat, obj, old, req, subresource);
      omitEmptyMetadata(prepared.obj);
      if (this.trackWrite && subresource !== 'delete') prepared.obj = this.trackWrite(def, old, prepared.obj, req, subresource);
      // A dry run answers with the revision it was computed against; nothing is written.
      if (req.dryRun) return { ...prepared.obj, metadata: { ...prepared.obj.metadata, resourceVersion: String(modRevision) } };
      const compares: Compare[] = [{ key, modRevision }];
      // An object being deleted whose last finalizer went is removed by this write (store.go ShouldDeleteDuringUpdate).
      const removeNow = def.kind !== 'Namespace' && deleteDuringUpdate(prepared.obj.metadata);
      const value = removeNow ? undefined : encodeForStore(prepared.obj);
      const ops: Operation[] = [value === undefined ? { op: 'delete', key } : { op: 'put', key, value }];
      for (const w of prepared.writes ?? []) {
        compares.push({ key: w.key, modRevision: w.modRevision });
        ops.push({ op: 'put', key: w.key, value: w.value });
      }
      const r = await this.store.txn(compares, ops);
      if (r.succeeded) {
        // The caller's copy, from the encoding just written (no second stringify).
        const out = value === undefined ? deepCopyJSON(prepared.obj) : (JSON.parse(value) as KubeObject);
        out.metadata = { ...out.metadata, resourceVersion: String(r.revision) };
        return out;
      }
      if (wantRV) throw statusErrors.modified(gr(def), name);
    }
    throw statusErrors.modified(gr(def), name);
  }

  /** Removes the object now (after preconditions); returns its last state. */
  async remove(def: ResourceDef, namespace: string | undefined, name: string, preconditions?: DeleteOptions['preconditions']): Promise<KubeObject> {
    const key = storageKey(def, namespace, name);
    for (;;) {
      const kv = await this.store.get(key);
      if (!kv) throw statusErrors.notFound(gr(def), name);
      const obj = decodeStored(kv);
      checkPreconditions(def, name, obj, preconditions);
      const r = await this.store.txn([{ key, modRevision: kv.modRevision }], [{ op: 'delete', key }]);
      if (r.succeeded) {
        obj.metadata = { ...obj.metadata, resourceVersion: String(r.revision) };
        return obj;
      }
    }
  }

  async delete(def: ResourceDef, namespace: string | undefined, name: string, opts: DeleteOptions, req: RequestInfo): Promise<KubeObject> {
    if (def.convert) {
      const out = await this.delete(this.storageDef(def), namespace, name, opts, req);
      return out.kind === def.kind ? def.convert.fromStorage(out) : out;
    }
    const obj = await this.get(def, namespace, name);
    checkPreconditions(def, name, obj, opts.preconditions);
    const strat = this.strategy(def);
    const decision = strat.delete ? await strat.delete(obj, opts, req, this) : undefined;
    // The garbage collector's finalizers (store.go deletionFinalizersForGarbageCollection):
    // `orphan` or `foregroundDeletion` as the options (or the kind's default) ask. Namespaces
    // have their own lifecycle. A pod whose graceful deletion is already pending keeps its set.
    const gcFinalizers = def.kind === 'Namespace' ? undefined : deletionFinalizers(obj.metadata?.finalizers, opts, defaultOrphans(def));
    if (decision?.mark) {
      const pending = !!obj.metadata?.deletionTimestamp && decision.mark.metadata?.deletionTimestamp === obj.metadata.deletionTimestamp;
      if (gcFinalizers?.changed && !pending) decision.mark.metadata = { ...decision.mark.metadata, finalizers: gcFinalizers.finalizers };
      if (req.dryRun) return decision.mark;
      return this.update(def, namespace, name, decision.mark, { ...req, fieldManager: undefined }, 'delete');
    }
    const finalizers = gcFinalizers?.finalizers ?? obj.metadata?.finalizers ?? [];
    if (finalizers.length > 0) {
      // Pending finalizers: the object is marked (deletionTimestamp, a zero grace period) and stays
      // until they are removed; Api.update removes it then (store.go updateForGracefulDeletionAndFinalizers).
      const mark = deepCopyJSON(obj);
      delete mark.metadata!.resourceVersion;
      mark.metadata!.finalizers = finalizers;
      mark.metadata!.deletionTimestamp ??= metaTime(this.now());
      mark.metadata!.deletionGracePeriodSeconds = 0;
      if (req.dryRun) return mark;
      return this.update(def, namespace, name, mark, { ...req, fieldManager: undefined }, 'delete');
    }
    if (req.dryRun) return obj;
    return this.remove(def, namespace, name, opts.preconditions);
  }

  async deleteCollection(def: ResourceDef, namespace: string | undefined, opts: DeleteOptions, list: ListOptions, req: RequestInfo): Promise<KubeObject[]> {
    const items = (await this.list(def, namespace, list)).items;
    const out: KubeObject[] = [];
    for (const o of items) {
      try {
        out.push(await this.delete(def, o.metadata?.namespace, o.metadata!.name!, opts, req));
      } catch (e) {
        if (e instanceof StatusError && e.code === 404) continue;
        throw e;
      }
    }
    return out;
  }
}

/** An object read from the store, in the version `def` serves. */
function served<T extends KubeObject>(def: ResourceDef, obj: T): T {
  return def.convert ? (def.convert.fromStorage(obj) as T) : obj;
}

/** DefaultGarbageCollectionPolicy: batch/v1 Jobs orphan their pods unless told otherwise (kept for old clients). */
function defaultOrphans(def: ResourceDef): boolean {
  return def.group === 'batch' && def.version === 'v1' && def.kind === 'Job';
}

/** storage.Preconditions.Check: a uid or resourceVersion the object no longer has is a 409. */
export function checkPreconditions(def: ResourceDef, name: string, obj: KubeObject, pre: DeleteOptions['preconditions']): void {
  if (!pre) return;
  // A precondition that is present but empty still has to match (an object always has a uid).
  if (pre.uid !== undefined && pre.uid !== obj.metadata?.uid) {
    throw statusErrors.conflict(gr(def), name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata?.uid ?? ''}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata?.resourceVersion) {
    throw statusErrors.conflict(gr(def), name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata?.resourceVersion ?? ''}`);
  }
}

/**
 * ObjectMeta's lists and maps are `omitempty` in Go: an empty one is never stored or returned
 * (`finalizers: []` after a patch removed the last finalizer comes back without the field).
 */
function omitEmptyMetadata(obj: KubeObject): void {
  const m = obj.metadata as Record<string, unknown> | undefined;
  if (!m) return;
  for (const k of ['finalizers', 'ownerReferences', 'labels', 'annotations']) {
    const v = m[k];
    if (v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0)) delete m[k];
  }
  // int64 with omitempty: a create's null or 0 decodes to 0 and is not written.
  if (m.generation === null || m.generation === 0) delete m.generation;
}
