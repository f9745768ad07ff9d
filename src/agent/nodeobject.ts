// The Node object an agent registers and keeps current: capacity and allocatable (what pods
// may request: capacity less the hard memory eviction threshold, as the kubelet computes it
// with no reservations), the kubelet's four conditions with its reasons and messages, node
// info, addresses, the declared features and the capabilities annotation.

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

/** status.allocatable: the capacity less the memory.available hard eviction threshold. */
export function allocatableOf(facts: Pick<NodeFacts, 'memoryBytes' | 'milliCPU' | 'evictionHardMemoryBytes' | 'maxPods'>): Record<string, string> {
  const allocatableMemory = facts.memoryBytes > facts.evictionHardMemoryBytes ? facts.memoryBytes - facts.evictionHardMemoryBytes : 0n;
  return { cpu: Quantity.fromMilli(facts.milliCPU, 'DecimalSI').canonical(), memory: Quantity.fromInt(allocatableMemory, 'BinarySI').canonical(), pods: String(facts.maxPods) };
}

export function buildNode(facts: NodeFacts, health: NodeHealth, previous: Node | undefined, now: string): Node {
  const memory = Quantity.fromInt(facts.memoryBytes, 'BinarySI');
  const cpu = Quantity.fromMilli(facts.milliCPU, 'DecimalSI');
  const capacity = { cpu: cpu.canonical(), memory: memory.canonical(), pods: String(facts.maxPods) };
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
