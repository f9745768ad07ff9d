// The events a kubelet records about its own Node (pkg/kubelet/nodestatus/setters.go and
// kubelet_node_status.go @ release-1.32; reasons from pkg/kubelet/events): `Starting` when it
// starts, `NodeAllocatableEnforced` once the node's allocatable cgroups are set, and a
// `Node <name> status is now: <reason>` for every condition the status setters move, in their
// order (MemoryPressure, DiskPressure, PIDPressure, Ready), then for spec.unschedulable changing
// (recordNodeSchedulableEvent). A pressure condition the node did not have yet counts as Unknown,
// so a first registration records NodeHasSufficientMemory, NodeHasNoDiskPressure and
// NodeHasSufficientPID; Ready records NodeReady/NodeNotReady only when a Ready condition was
// there before with another status. The involved object is the kubelet's nodeRef: kind Node,
// the node's name as its uid, no namespace (the events go to `default`). Pure: the agent records.

import type { KubeObject, NodeCondition } from '../api/types.js';

export const startingKubeletMessage = 'Starting kubelet.';
export const allocatableEnforcedMessage = 'Updated Node Allocatable limit across pods';

/** The kubelet's nodeRef as an object to record events about. */
export function nodeRef(nodeName: string): KubeObject {
  return { kind: 'Node', metadata: { name: nodeName, uid: nodeName } } as KubeObject;
}

/** "Node <name> status is now: <reason>" (recordNodeStatusEvent). */
export function nodeStatusMessage(nodeName: string, reason: string): string {
  return `Node ${nodeName} status is now: ${reason}`;
}

const pressureReasons: readonly [string, string, string][] = [
  ['MemoryPressure', 'NodeHasInsufficientMemory', 'NodeHasSufficientMemory'],
  ['DiskPressure', 'NodeHasDiskPressure', 'NodeHasNoDiskPressure'],
  ['PIDPressure', 'NodeHasInsufficientPID', 'NodeHasSufficientPID'],
];

/** The reasons of the status events going from `previous` to `next` conditions, in the setters' order. */
export function conditionEvents(previous: readonly NodeCondition[] | undefined, next: readonly NodeCondition[]): string[] {
  const before = (type: string) => previous?.find((c) => c.type === type)?.status;
  const after = (type: string) => next.find((c) => c.type === type)?.status;
  const out: string[] = [];
  for (const [type, onTrue, onFalse] of pressureReasons) {
    const was = before(type) ?? 'Unknown';
    const now = after(type);
    if (now === 'True' && was !== 'True') out.push(onTrue);
    else if (now === 'False' && was !== 'False') out.push(onFalse);
  }
  const wasReady = before('Ready');
  const ready = after('Ready');
  if (wasReady !== undefined && ready !== undefined && ready !== wasReady) out.push(ready === 'True' ? 'NodeReady' : 'NodeNotReady');
  return out;
}

/** recordNodeSchedulableEvent: the reason when spec.unschedulable differs from what the agent saw last, else undefined. */
export function schedulableEvent(lastUnschedulable: boolean, unschedulable: boolean): string | undefined {
  if (lastUnschedulable === unschedulable) return undefined;
  return unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable';
}
