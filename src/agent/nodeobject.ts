// The Node object an agent registers and keeps current: capacity and allocatable, the kubelet's
// four conditions with its reasons and messages, node info, addresses, the declared features
// and the capabilities annotation.
//
// Capacity is what the kubelet's MachineInfo setter reports (pkg/kubelet/nodestatus/setters.go
// @ release-1.32): cpu, memory, pods, ephemeral-storage (the size of the filesystem the agent
// keeps its data on, as cadvisor's RootFsInfo of the kubelet's root directory; 0 when it cannot
// be read) and one hugepages-<size> per page size the kernel offers (pages reserved × size).
// Allocatable is capacity less the hard eviction thresholds that reserve something
// (hardEvictionReservation: memory.available from memory, nodefs.available from
// ephemeral-storage; no kube- or system-reserved here), and memory less every hugepages
// capacity as well, never below zero.

import { Quantity } from '../api/quantity.js';
import type { Node, NodeCondition } from '../api/types.js';
import { kubernetesVersion } from '../api/version.js';
import { capabilitiesAnnotation, encodeCapabilities, ulimitsFeature, type NodeCapabilities } from '../policy/nodecapabilities.js';

export interface NodeFacts {
  name: string;
  memoryBytes: bigint;
  milliCPU: bigint;
  maxPods: number;
  /** memory.available hard eviction threshold in bytes (allocatable = capacity − this). */
  evictionHardMemoryBytes: bigint;
  /** The size of the filesystem holding the agent's data (ephemeral-storage capacity); 0 when unknown. */
  ephemeralStorageBytes?: bigint;
  /** nodefs.available hard eviction threshold in bytes (allocatable ephemeral-storage = capacity − this). */
  evictionHardNodefsBytes?: bigint;
  /** Each huge page size the kernel offers, with the bytes reserved in pages of it. */
  hugePages?: readonly HugePages[];
  internalIP: string;
  hostname: string;
  kernelVersion: string;
  osImage: string;
  architecture: string;
  machineID: string;
  bootID: string;
  containerRuntimeVersion: string;
  /** The runtime handlers pods may name through a RuntimeClass (runc, crun: those usable here); '' is the default. */
  runtimeHandlers?: string[];
  capabilities: NodeCapabilities;
  /** Whether the runtime can apply per-container ulimits. */
  ulimits: boolean;
  /** The agent endpoint's port (the kubelet's 10250), where the API server fetches logs. */
  endpointPort?: number;
}

export interface HugePages {
  pageSizeBytes: bigint;
  totalBytes: bigint;
}

export interface NodeHealth {
  memoryPressure: boolean;
  diskPressure: boolean;
  pidPressure: boolean;
  ready: boolean;
}

const conditionTexts = {
  MemoryPressure: [
    ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'],
  ],
  DiskPressure: [
    ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    ['KubeletHasDiskPressure', 'kubelet has disk pressure'],
  ],
  PIDPressure: [
    ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available'],
  ],
} as const;

/**
 * The conditions at `now`. A condition keeps its lastTransitionTime while its status is
 * unchanged; lastHeartbeatTime is always `now`.
 */
export function nodeConditions(health: NodeHealth, previous: readonly NodeCondition[] | undefined, now: string): NodeCondition[] {
  const transition = (type: string, status: string) => {
    const prev = previous?.find((c) => c.type === type);
    return prev && prev.status === status && prev.lastTransitionTime ? prev.lastTransitionTime : now;
  };
  const out: NodeCondition[] = [];
  for (const [type, on] of [['MemoryPressure', health.memoryPressure], ['DiskPressure', health.diskPressure], ['PIDPressure', health.pidPressure]] as const) {
    const [reason, message] = conditionTexts[type][on ? 1 : 0];
    const status = on ? 'True' : 'False';
    out.push({ type, status, lastHeartbeatTime: now, lastTransitionTime: transition(type, status), reason, message });
  }
  const ready = health.ready ? 'True' : 'False';
  out.push({
    type: 'Ready',
    status: ready,
    lastHeartbeatTime: now,
    lastTransitionTime: transition('Ready', ready),
    reason: health.ready ? 'KubeletReady' : 'KubeletNotReady',
    message: health.ready ? 'kubelet is posting ready status' : 'container runtime is down',
  });
  return out;
}

type CapacityFacts = Pick<NodeFacts, 'memoryBytes' | 'milliCPU' | 'maxPods' | 'ephemeralStorageBytes' | 'hugePages'>;

/** `hugepages-<size>`, the size as a binary quantity (HugePageResourceName). */
function hugePagesResource(pageSizeBytes: bigint): string {
  return `hugepages-${Quantity.fromInt(pageSizeBytes, 'BinarySI').canonical()}`;
}

/** status.capacity, its names in the order Go writes a map's keys (sorted). */
export function capacityOf(facts: CapacityFacts): Record<string, string> {
  const out: Record<string, string> = {
    cpu: Quantity.fromMilli(facts.milliCPU, 'DecimalSI').canonical(),
    'ephemeral-storage': Quantity.fromInt(facts.ephemeralStorageBytes ?? 0n, 'BinarySI').canonical(),
  };
  const pages = (facts.hugePages ?? []).map((h) => [hugePagesResource(h.pageSizeBytes), h.totalBytes] as const);
  for (const [name, bytes] of pages.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[name] = Quantity.fromInt(bytes, 'BinarySI').canonical();
  out['memory'] = Quantity.fromInt(facts.memoryBytes, 'BinarySI').canonical();
  out['pods'] = String(facts.maxPods);
  return out;
}

const atLeastZero = (n: bigint) => (n > 0n ? n : 0n);

/**
 * status.allocatable: capacity less the memory.available and nodefs.available hard eviction
 * thresholds, memory less every hugepages capacity too; in capacity's order.
 */
export function allocatableOf(facts: CapacityFacts & Pick<NodeFacts, 'evictionHardMemoryBytes' | 'evictionHardNodefsBytes'>): Record<string, string> {
  const out = capacityOf(facts);
  let memory = atLeastZero(facts.memoryBytes - facts.evictionHardMemoryBytes);
  for (const h of facts.hugePages ?? []) memory = atLeastZero(memory - h.totalBytes);
  out['memory'] = Quantity.fromInt(memory, 'BinarySI').canonical();
  out['ephemeral-storage'] = Quantity.fromInt(atLeastZero((facts.ephemeralStorageBytes ?? 0n) - (facts.evictionHardNodefsBytes ?? 0n)), 'BinarySI').canonical();
  return out;
}

export function buildNode(facts: NodeFacts, health: NodeHealth, previous: Node | undefined, now: string): Node {
  const capacity = capacityOf(facts);
  const allocatable = allocatableOf(facts);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      ...(previous?.metadata ?? {}),
      name: facts.name,
      labels: {
        ...(previous?.metadata?.labels ?? {}),
        'kubernetes.io/hostname': facts.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': facts.architecture,
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': facts.architecture,
      },
      annotations: { ...(previous?.metadata?.annotations ?? {}), [capabilitiesAnnotation]: encodeCapabilities(facts.capabilities) },
    },
    // The taints its conditions imply are the server's to keep, from registration on
    // (src/api/nodetaints.ts); NodeRestriction forbids a node to change them.
    spec: previous ? { ...(previous.spec ?? {}) } : {},
    status: {
      capacity,
      allocatable,
      conditions: nodeConditions(health, previous?.status?.conditions, now),
      addresses: [
        { type: 'InternalIP', address: facts.internalIP },
        { type: 'Hostname', address: facts.hostname },
      ],
      ...(facts.endpointPort ? { daemonEndpoints: { kubeletEndpoint: { Port: facts.endpointPort } } } : {}),
      nodeInfo: {
        machineID: facts.machineID,
        systemUUID: facts.machineID,
        bootID: facts.bootID,
        kernelVersion: facts.kernelVersion,
        osImage: facts.osImage,
        containerRuntimeVersion: facts.containerRuntimeVersion,
        kubeletVersion: kubernetesVersion.gitVersion,
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: facts.architecture,
      },
      ...(facts.ulimits ? { declaredFeatures: [ulimitsFeature] } : {}),
      // The kubelet copies the runtime's handler list (1.30+); neither feature is implemented here.
      ...(facts.runtimeHandlers?.length ? { runtimeHandlers: facts.runtimeHandlers.map((name) => ({ name, features: { recursiveReadOnlyMounts: false, userNamespaces: false } })) } : {}),
    },
  };
}
