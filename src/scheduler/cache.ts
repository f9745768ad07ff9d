// The scheduler's cache (kube-scheduler's pkg/scheduler/backend/cache, read, not copied): one
// NodeInfo per node, kept current by the informers' node and pod events one object at a time,
// and the pods the scheduler has assumed. A decision assumes its pod on the chosen node at once
// (AssumePod), so the next decision counts it there while the binding is still being written;
// the bound pod's own event later confirms it (AddPod of an assumed pod), and a binding that
// fails forgets it (ForgetPod), giving its room back. The name-ordered list of nodes the walk
// reads is rebuilt only when a node comes or goes, never per pod.
//
// Upstream also expires an assumed pod whose event never arrives (a TTL, off by default); a
// binding here either fails, and is forgotten, or is written and its event arrives.

import type { Node, Pod } from '../api/types.js';
import { NodeInfo, isActivePod, podInfo, type InfoGates } from './nodeinfo.js';

/** namespace/name, the scheduler queue's key. */
export function podKey(p: Pod): string {
  return `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
}

interface PodState {
  node: string;
  uid: string | undefined;
  assumed: boolean;
}

export class SchedulerCache {
  private readonly infos = new Map<string, NodeInfo>();
  private readonly podStates = new Map<string, PodState>();
  private sorted?: NodeInfo[];

  constructor(private readonly gates: InfoGates) {}

  /** The nodes that exist, in name order; the same array until a node is added or removed. */
  nodeList(): readonly NodeInfo[] {
    this.sorted ??= [...this.infos.values()].filter((n) => n.node).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return this.sorted;
  }

  nodeInfo(name: string): NodeInfo | undefined {
    const n = this.infos.get(name);
    return n?.node ? n : undefined;
  }

  /** AddNode / UpdateNode. */
  setNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const info = this.infos.get(name);
    if (info) {
      if (!info.node) this.sorted = undefined;
      info.setNode(node);
      return;
    }
    this.infos.set(name, new NodeInfo(name, node));
    this.sorted = undefined;
  }

  /** RemoveNode: the node leaves the list; the pods still counted on it stay until their own deletes. */
  removeNode(name: string): void {
    const info = this.infos.get(name);
    if (!info?.node) return;
    info.node = undefined;
    if (info.pods.size === 0) this.infos.delete(name);
    this.sorted = undefined;
  }

  /**
   * AddPod / UpdatePod from the informer: a bound, active pod is counted on its node (confirming
   * it if it was assumed); any other state of a pod the cache counts removes it, unless it is
   * assumed and not yet seen bound (its binding is still being written).
   */
  updatePod(pod: Pod): void {
    const key = podKey(pod);
    const node = pod.spec.nodeName;
    if (!node || !isActivePod(pod)) {
      const cur = this.podStates.get(key);
      if (cur && !(cur.assumed && cur.uid === pod.metadata.uid && isActivePod(pod))) this.removePod(key);
      return;
    }
    const cur = this.podStates.get(key);
    // The binding changes nothing that is counted: the assumed pod's amounts stand.
    const confirmed = cur?.assumed && cur.node === node && cur.uid === pod.metadata.uid ? this.infos.get(node)?.pods.get(key) : undefined;
    this.place(key, pod, node, false, confirmed && { ...confirmed, pod });
  }

  /** RemovePod: the pod is gone (deleted, or finished), assumed or not. */
  removePod(key: string): void {
    const cur = this.podStates.get(key);
    if (!cur) return;
    this.podStates.delete(key);
    const info = this.infos.get(cur.node);
    if (!info) return;
    info.removePod(key);
    if (!info.node && info.pods.size === 0) this.infos.delete(cur.node);
  }

  /** AssumePod: counts a pending pod on the node chosen for it before its binding is written. False if the cache already counts it. */
  assume(pod: Pod, node: string): boolean {
    const key = podKey(pod);
    if (this.podStates.has(key)) return false;
    const bound = { ...pod, spec: { ...pod.spec, nodeName: node } };
    this.place(key, bound, node, true, { ...podInfo(pod, this.gates), pod: bound });
    return true;
  }

  /** ForgetPod: its binding failed; the room it took is free again. Only an assumed pod (of this uid) is forgotten. */
  forget(pod: Pod): boolean {
    const key = podKey(pod);
    const cur = this.podStates.get(key);
    if (!cur?.assumed || cur.uid !== pod.metadata.uid) return false;
    this.removePod(key);
    return true;
  }

  /** Whether a pod is assumed and its bound state not yet seen. */
  isAssumed(key: string): boolean {
    return this.podStates.get(key)?.assumed ?? false;
  }

  /** The node a pod is counted on, if any. */
  nodeOf(key: string): string | undefined {
    return this.podStates.get(key)?.node;
  }

  private place(key: string, pod: Pod, node: string, assumed: boolean, counted = podInfo(pod, this.gates)): void {
    const cur = this.podStates.get(key);
    if (cur && cur.node !== node) this.removePod(key);
    let info = this.infos.get(node);
    if (!info) this.infos.set(node, (info = new NodeInfo(node)));
    info.addPod(key, counted);
    this.podStates.set(key, { node, uid: pod.metadata.uid, assumed });
  }
}
