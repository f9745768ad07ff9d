// The garbage collector (kubernetes pkg/controller/garbagecollector: graph_builder.go keeps a
// graph of objects and their ownerReferences from informers over every kind that can own or be
// owned; garbagecollector.go's attemptToDeleteItem deletes an object none of whose owners
// exists any more, and handles owners being deleted in the foreground (`foregroundDeletion`:
// dependents first, then the finalizer goes; a dependent that would wait on a dependent waiting
// in turn, a cycle, unblocks its own references first) or with `orphan` (the dependents lose their
// references, then the finalizer goes)). The decisions are the pure rules of src/policy/gc.ts;
// this file keeps the graph, reads owners live through the client and writes the results.

import type { KubeObject, OwnerReference } from '../api/types.js';
import { decideDependent, decideOwner, finalizerForeground, finalizerOrphan, isDeletingDependents, ownerStateOf, unblockedOwnerReferences, type DependentView, type OwnerState } from '../policy/gc.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';
import { apiVersionOf, namespacesRef, nodesRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';

/** One object of the graph (graph.go's node): where it is and what it points at. */
interface GraphNode {
  ref: ResourceRef;
  namespace?: string;
  name: string;
  uid: string;
  owners: OwnerReference[];
  deletionTimestamp?: string;
  finalizers: string[];
}

/** Kinds left out of the graph: events are many, short-lived and own nothing. */
const skipped = new Set(['events']);

export class GarbageCollector {
  private readonly queue: KeyedQueue;
  private readonly nodes = new Map<string, GraphNode>();
  /** owner uid → the uids of the objects that reference it. */
  private readonly dependents = new Map<string, Set<string>>();
  private kinds: ResourceRef[] = [];
  private informers: SharedIndexInformer[] = [];
  private unsubscribe: (() => void)[] = [];
  /** Failures per uid: a failed attempt (a conflict, an owner not readable yet) comes back after 5 ms, doubling, as upstream's rate-limited queue. */
  private readonly backoff = new FailureBackoff();

  constructor(private readonly client: KubeClient, private readonly factory: SharedInformerFactory) {
    this.queue = new KeyedQueue(async (uid) => {
      await this.attemptToDelete(uid);
      this.backoff.forget(uid);
    }, this.backoff.requeue(() => this.queue, 'garbage-collector'));
  }

  /** Discovers the kinds, starts an informer over each and resolves once all have synced. */
  async start(): Promise<void> {
    const namespaced = (await this.client.namespacedResources()).filter((r) => !skipped.has(r.resource));
    this.kinds = [...namespaced, namespacesRef, nodesRef];
    for (const ref of this.kinds) {
      // The graph reads only metadata (upstream's are metadata informers). In process the
      // objects are the watch cache's, shared, so a metadata-only copy would add memory.
      const inf = this.factory.informerFor<KubeObject>(ref, {}, 'garbage-collector');
      this.informers.push(inf);
      this.unsubscribe.push(
        inf.addEventHandler({
          add: (o) => this.upsert(ref, o),
          update: (_old, o) => this.upsert(ref, o),
          delete: (o) => this.remove(o),
        }),
      );
    }
    await Promise.all(this.informers.map((i) => i.start()));
  }

  private upsert(ref: ResourceRef, o: KubeObject): void {
    const m = o.metadata ?? {};
    if (!m.uid || !m.name) return;
    const prev = this.nodes.get(m.uid);
    for (const r of prev?.owners ?? []) this.dependents.get(r.uid)?.delete(m.uid);
    const node: GraphNode = { ref, namespace: m.namespace, name: m.name, uid: m.uid, owners: m.ownerReferences ?? [], deletionTimestamp: m.deletionTimestamp, finalizers: m.finalizers ?? [] };
    this.nodes.set(m.uid, node);
    for (const r of node.owners) {
      let s = this.dependents.get(r.uid);
      if (!s) this.dependents.set(r.uid, (s = new Set()));
      s.add(m.uid);
    }
    // The object itself (owners gone? being deleted with a GC finalizer?), and the owners it
    // points at now or did before (one of them may be waiting on it).
    if (node.owners.length || node.finalizers.includes(finalizerForeground) || node.finalizers.includes(finalizerOrphan)) this.queue.add(m.uid);
    for (const r of [...(prev?.owners ?? []), ...node.owners]) if (this.nodes.has(r.uid)) this.queue.add(r.uid);
  }

  private remove(o: KubeObject): void {
    const uid = o.metadata?.uid;
    if (!uid) return;
    const node = this.nodes.get(uid);
    this.nodes.delete(uid);
    for (const r of node?.owners ?? []) {
      this.dependents.get(r.uid)?.delete(uid);
      if (this.nodes.has(r.uid)) this.queue.add(r.uid);
    }
    // Its dependents may have lost their last owner.
    for (const d of this.dependents.get(uid) ?? []) this.queue.add(d);
  }

  /** attemptToDeleteItem: the object as it is now, then the owner rules or the dependent rules. */
  private async attemptToDelete(uid: string): Promise<void> {
    const node = this.nodes.get(uid);
    if (!node) return;
    let latest: KubeObject;
    try {
      latest = await this.client.get(node.ref, node.namespace, node.name);
    } catch (e) {
      if (isStatus(e, 404)) return;
      throw e;
    }
    const m = latest.metadata ?? {};
    if (m.uid !== uid) return;
    if (m.deletionTimestamp) return this.processDeletingOwner(node, latest);
    const refs = m.ownerReferences ?? [];
    if (refs.length === 0) return;
    const states = await Promise.all(refs.map((r) => this.ownerState(r, node)));
    const deps = [...(this.dependents.get(uid) ?? [])].flatMap((d) => this.nodes.get(d) ?? []);
    const d = decideDependent(refs, states, { finalizers: m.finalizers, hasDependents: deps.length > 0, dependentDeletingDependents: deps.some(isDeletingDependents), beingDeleted: false });
    if (d.action === 'removeRefs') {
      await this.client.patch(node.ref, node.namespace, node.name, 'application/merge-patch+json', {
        metadata: { resourceVersion: m.resourceVersion, ownerReferences: refs.filter((r) => !d.uids.includes(r.uid)) },
      });
    } else if (d.action === 'delete') {
      try {
        // A possible cycle: this item's owners stop waiting on it before it waits on its dependents.
        const resourceVersion = d.unblockFirst ? await this.unblockOwnerReferences(node, latest) : m.resourceVersion;
        await this.client.delete(node.ref, node.namespace, node.name, { preconditions: { uid, resourceVersion }, propagationPolicy: d.policy });
      } catch (e) {
        if (!isStatus(e, 404)) throw e;
      }
    }
  }

  /**
   * unblockOwnerReferences: blockOwnerDeletion=false on the item's references, at the revision it
   * was read (a conflict comes back through the queue's back-off). Returns the revision the
   * delete that follows is conditioned on: the patched one, whose references are the ones decided on.
   */
  private async unblockOwnerReferences(node: GraphNode, latest: KubeObject): Promise<string | undefined> {
    const m = latest.metadata!;
    const ownerReferences = unblockedOwnerReferences(m.ownerReferences ?? []);
    if (!ownerReferences) return m.resourceVersion;
    const patched = await this.client.patch(node.ref, node.namespace, node.name, 'application/merge-patch+json', {
      metadata: { resourceVersion: m.resourceVersion, ownerReferences },
    });
    return patched.metadata?.resourceVersion;
  }

  /** An owner being deleted: orphan its dependents, or wait for the blocking ones (foreground). */
  private async processDeletingOwner(node: GraphNode, latest: KubeObject): Promise<void> {
    const m = latest.metadata!;
    const deps: DependentView[] = [...(this.dependents.get(node.uid) ?? [])].flatMap((d) => {
      const n = this.nodes.get(d);
      return n ? [{ uid: n.uid, ownerReferences: n.owners, beingDeleted: !!n.deletionTimestamp }] : [];
    });
    const d = decideOwner({ uid: node.uid, deletionTimestamp: m.deletionTimestamp, finalizers: m.finalizers }, deps);
    switch (d.action) {
      case 'orphan':
        // The finalizer goes on a later pass: each dependent's update, seen by its informer, requeues this owner.
        for (const uid of d.uids) await this.dropReference(uid, node.uid);
        return;
      case 'deleteDependents':
        for (const uid of d.uids) this.queue.add(uid);
        return;
      case 'removeFinalizer':
        await this.client.patch(node.ref, node.namespace, node.name, 'application/merge-patch+json', {
          metadata: { resourceVersion: m.resourceVersion, finalizers: (m.finalizers ?? []).filter((f) => f !== d.finalizer) },
        });
        return;
      case 'none':
        return;
    }
  }

  /** Removes the references to `ownerUid` from a dependent (orphanDependents). */
  private async dropReference(uid: string, ownerUid: string): Promise<void> {
    const n = this.nodes.get(uid);
    if (!n) return;
    let dep: KubeObject;
    try {
      dep = await this.client.get(n.ref, n.namespace, n.name);
    } catch (e) {
      if (isStatus(e, 404)) return;
      throw e;
    }
    if (dep.metadata?.uid !== uid) return;
    const refs = dep.metadata.ownerReferences ?? [];
    if (!refs.some((r) => r.uid === ownerUid)) return;
    const rest = refs.filter((r) => r.uid !== ownerUid);
    try {
      await this.client.patch(n.ref, n.namespace, n.name, 'application/merge-patch+json', {
        metadata: { resourceVersion: dep.metadata.resourceVersion, ownerReferences: rest.length ? rest : null },
      });
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }

  /** isDangling: the owner read by name in the dependent's namespace, compared by uid. */
  private async ownerState(ref: OwnerReference, dependent: GraphNode): Promise<OwnerState> {
    const kind = this.kinds.find((k) => k.kind === ref.kind && apiVersionOf(k) === ref.apiVersion);
    if (!kind) return 'unknown';
    // A namespaced owner of a cluster-scoped object cannot exist (upstream: OwnerRefInvalidNamespace).
    if (kind.namespaced && !dependent.namespace) return 'absent';
    let owner: KubeObject | undefined;
    try {
      owner = await this.client.get(kind, kind.namespaced ? dependent.namespace : undefined, ref.name);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
    return ownerStateOf(ref, owner?.metadata);
  }

  async idle(): Promise<void> {
    await this.queue.idle();
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.queue.stop();
  }
}
