// The Node object an agent registers and keeps current: capacity and allocatable (what pods
// may request: capacity less the hard memory eviction threshold, as the kubelet computes it
// with no reservations), the kubelet's four conditions with its reasons and messages, node
// info, addresses, the declared features and the capabilities annotation.

import { Quantity } from '../api/quantity.js';
import type { Node, NodeCondition, Taint } from '../api/types.js';
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

/** The taints the node lifecycle controller derives from conditions (memory pressure etc.). */
export function pressureTaints(health: NodeHealth): Taint[] {
  const t: Taint[] = [];
  if (health.memoryPressure) t.push({ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' });
  if (health.diskPressure) t.push({ key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' });
  if (health.pidPressure) t.push({ key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule' });
  if (!health.ready) t.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
  return t;
}

const ownedTaintKeys: ReadonlySet<string> = new Set(['node.kubernetes.io/memory-pressure', 'node.kubernetes.io/disk-pressure', 'node.kubernetes.io/pid-pressure', 'node.kubernetes.io/not-ready']);

/**
 * Whether the agent owns a taint: one pressureTaints can produce (key and NoSchedule effect), as
 * the node lifecycle controller's NoSchedule pass owns only its condition taints. Anything else
 * (a user's taint, not-ready:NoExecute, unreachable, out-of-service) is never touched.
 */
export function isOwnedTaint(t: Taint): boolean {
  return t.effect === 'NoSchedule' && ownedTaintKeys.has(t.key);
}

/**
 * The node's taints for this health: the taints the agent does not own, unchanged and in their
 * order, then the condition taints that apply now. An owned taint whose condition is gone is
 * removed, whoever's Node it was read from (so a restarted agent clears what an earlier run left).
 */
export function reconcileTaints(existing: readonly Taint[] | undefined, health: NodeHealth): Taint[] {
  const kept = (existing ?? []).filter((t) => !isOwnedTaint(t));
  const wanted = pressureTaints(health).map((w) => (existing ?? []).find((t) => isOwnedTaint(t) && t.key === w.key) ?? w);
  return [...kept, ...wanted];
}

export function buildNode(facts: NodeFacts, health: NodeHealth, previous: Node | undefined, now: string): Node {
  const memory = Quantity.fromInt(facts.memoryBytes, 'BinarySI');
  const cpu = Quantity.fromMilli(facts.milliCPU, 'DecimalSI');
  const allocatableMemory = facts.memoryBytes > facts.evictionHardMemoryBytes ? facts.memoryBytes - facts.evictionHardMemoryBytes : 0n;
  const capacity = { cpu: cpu.canonical(), memory: memory.canonical(), pods: String(facts.maxPods) };
  const allocatable = { cpu: cpu.canonical(), memory: Quantity.fromInt(allocatableMemory, 'BinarySI').canonical(), pods: String(facts.maxPods) };
  const taints = reconcileTaints(previous?.spec?.taints, health);
  const { taints: _previousTaints, ...previousSpec } = previous?.spec ?? {};
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
    spec: { ...previousSpec, ...(taints.length ? { taints } : {}) },
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
    },
  };
}
