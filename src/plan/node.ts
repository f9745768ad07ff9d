// The node a plan is made for, and what that node does with one admitted pod: QoS, pod cgroup,
// per-container oom_score_adj, OOM kill mode, cgroup values (swap included) and rlimits. The
// node agent uses the same function, so the plan and the running system cannot disagree.

import { hash } from 'node:crypto';
import type { FeatureGates } from '../api/featuregates.js';
import type { Container, ContainerKind, Pod, QOSClass } from '../api/types.js';
import { isSidecar } from '../api/types.js';
import { podCgroupPath, type CgroupDriver } from '../policy/cgrouplayout.js';
import {
  containerCgroupFiles,
  containerResourceConfig,
  milliCPUToQuota,
  podCgroupFiles,
  podResourceConfig,
  type CgroupFiles,
  type CgroupVersion,
} from '../policy/cgroupvalues.js';
import { effectiveOOMKillMode, type OOMKillModeSource, type OOMKillModeValue } from '../policy/oomkillmode.js';
import { containerOOMScoreAdjFor, podOOMScoreInput, sandboxOOMScoreAdj, type PodOOMScoreInput } from '../policy/oomscore.js';
import { getPodQOS } from '../policy/qos.js';
import { formatRlimitValue, RLIM_INFINITY, ulimitsToRlimits, type Rlimit, type RlimitAdjustment, type RlimitType } from '../policy/rlimits.js';
import { adaptToHost, type HostCapabilities, type RlimitValue } from '../policy/hostadapt.js';

export interface NodeConfig {
  /** Machine memory capacity in bytes: the C of the Burstable oom_score_adj formula. */
  memoryBytes: bigint;
  milliCPU: bigint;
  cgroupVersion: CgroupVersion;
  cgroupDriver: CgroupDriver;
  /** The agent's singleProcessOOMKill; undefined when not set. */
  singleProcessOOMKill?: boolean;
  /** Group kill emulated on cgroup v1 by the agent. */
  oomGroupEmulation?: boolean;
  /**
   * Whether the kernel accounts swap per cgroup (v1 memory.memsw.*, v2 memory.swap.max), the
   * kubelet's swapControllerAvailable; containers are then kept from swapping (policy/swap.ts).
   * Absent: true, as on kernels since 5.8 unless booted with swapaccount=0.
   */
  swapControllerAvailable?: boolean;
  /** /proc/sys/fs/nr_open */
  nrOpen?: bigint;
  /** Hard rlimit ceilings of a host without CAP_SYS_RESOURCE. */
  hardRlimitCeilings?: Partial<Record<RlimitType, bigint>>;
  /** What this host lets the agent set (plan --this-host): the plan then also says what it applies instead. */
  host?: HostCapabilities;
}

export type { RlimitValue };

export interface ContainerPlan {
  name: string;
  kind: ContainerKind;
  oomScoreAdj: number;
  oomKillMode: OOMKillModeValue;
  oomKillModeSource: OOMKillModeSource;
  /** Why the container cannot be created with its OOM kill mode on this node. */
  oomKillModeError?: string;
  oomKillModeEmulated?: boolean;
  cgroup: CgroupFiles;
  rlimits: { type: RlimitType; soft: RlimitValue; hard: RlimitValue }[];
  rlimitAdjustments?: { type: RlimitType; requested: { soft: RlimitValue; hard: RlimitValue }; applied: { soft: RlimitValue; hard: RlimitValue }; reason: string }[];
  /** With NodeConfig.host: the oom_score_adj the agent applies, and each planned value the host changes (the agent's HostAdjusted event). */
  onHost?: { oomScoreAdj: number; adjustments: string[] };
}

export interface PodNodePlan {
  qosClass: QOSClass;
  podCgroup: { path: string; values: CgroupFiles };
  sandbox: { oomScoreAdj: number; onHost?: { oomScoreAdj: number } };
  containers: ContainerPlan[];
}

/** A JSON-safe rlimit value: "unlimited", a number, or a decimal string past 2^53. */
export function rlimitJSON(v: bigint): RlimitValue {
  if (v === RLIM_INFINITY) return 'unlimited';
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : formatRlimitValue(v);
}

/**
 * A stable UID for a pod that has none (offline plans): UUID-shaped, derived from
 * namespace/name, so the same manifest always plans to the same cgroup path.
 */
export function derivedPodUID(namespace: string, name: string): string {
  return uuidFromSeed(`bulkhead-plan/${namespace}/${name}`);
}

/** The uid of another kind's object of the input (a Job's, which its pods' labels carry). */
export function derivedObjectUID(kind: string, namespace: string, name: string): string {
  return uuidFromSeed(`bulkhead-plan/${kind}/${namespace}/${name}`);
}

/**
 * A name-based (version 5 layout) UUID from a SHA-1 of the seed. The UID is in the plan's output
 * (the pod cgroup path, metadata.uid), so it stays this hash; the one-shot crypto.hash spares a
 * Hash object per pod.
 */
function uuidFromSeed(seed: string): string {
  const h = hash('sha1', seed, 'hex');
  // Version 5 in the 13th digit; variant 10 in the top bits of byte 8, whose first digit becomes 8, 9, a or b.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variantDigits[parseInt(h[16]!, 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const variantDigits = '89ab';

function adjustmentJSON(a: RlimitAdjustment): NonNullable<ContainerPlan['rlimitAdjustments']>[number] {
  return {
    type: a.type,
    requested: { soft: rlimitJSON(a.requested.soft), hard: rlimitJSON(a.requested.hard) },
    applied: { soft: rlimitJSON(a.applied.soft), hard: rlimitJSON(a.applied.hard) },
    reason: a.reason,
  };
}

/**
 * On cgroup v1 the kernel refuses (EINVAL) a CFS quota above the parent's, and the node cgroup
 * that holds every pod carries the node's CPU as its quota; so a CPU limit above the node's
 * size is written as the node's quota (it could never get more CPU time anyway). v2 accepts a
 * child cpu.max above the parent's, and the parent limits it.
 */
function capCPUQuota<T extends { cpuQuota?: bigint }>(cfg: T, node: NodeConfig): T {
  if (node.cgroupVersion !== 1 || cfg.cpuQuota === undefined) return cfg;
  const nodeQuota = milliCPUToQuota(node.milliCPU);
  return cfg.cpuQuota > nodeQuota ? { ...cfg, cpuQuota: nodeQuota } : cfg;
}

/** What this node does with an admitted (defaulted, valid) pod. */
export function planPodOnNode(pod: Pod, node: NodeConfig, gates: FeatureGates): PodNodePlan {
  const qos = getPodQOS(pod, gates);
  const uid = pod.metadata.uid ?? derivedPodUID(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
  const podCfg = capCPUQuota(podResourceConfig(pod, qos, { gates }), node);
  const oom = podOOMScoreInput(pod, gates);
  // Init containers (sidecars among them), then regular, then ephemeral containers, in spec order.
  const containers: ContainerPlan[] = [];
  for (const c of pod.spec.initContainers ?? []) containers.push(planContainer(pod, c, isSidecar(c) ? 'sidecar' : 'init', oom, node, gates));
  for (const c of pod.spec.containers ?? []) containers.push(planContainer(pod, c, 'container', oom, node, gates));
  for (const c of pod.spec.ephemeralContainers ?? []) containers.push(planContainer(pod, c, 'ephemeral', oom, node, gates));
  return {
    qosClass: qos,
    podCgroup: { path: podCgroupPath(qos, uid, node.cgroupDriver), values: podCgroupFiles(podCfg, node.cgroupVersion) },
    sandbox: node.host ? { oomScoreAdj: sandboxOOMScoreAdj, onHost: { oomScoreAdj: adaptToHost({ oomScoreAdj: sandboxOOMScoreAdj, rlimits: [] }, node.host).oomScoreAdj } } : { oomScoreAdj: sandboxOOMScoreAdj },
    containers,
  };
}

function planContainer(pod: Pod, c: Container, kind: ContainerKind, oom: PodOOMScoreInput, node: NodeConfig, gates: FeatureGates): ContainerPlan {
  const mode = effectiveOOMKillMode({
    containerMode: gates.ContainerOOMKillMode ? c.oomKillMode : undefined,
    singleProcessOOMKill: node.singleProcessOOMKill,
    cgroupVersion: node.cgroupVersion,
    groupEmulation: node.oomGroupEmulation,
  });
  const cfg = capCPUQuota(containerResourceConfig(pod, c, { gates }), node);
  const { rlimits, adjustments } = ulimitsToRlimits(gates.ContainerUlimits ? c.securityContext?.ulimits : undefined, {
    nrOpen: node.nrOpen,
    hardCeilings: node.hardRlimitCeilings,
  });
  const plan: ContainerPlan = {
    name: c.name,
    kind,
    oomScoreAdj: containerOOMScoreAdjFor(oom, pod, c, node.memoryBytes),
    oomKillMode: mode.mode,
    oomKillModeSource: mode.source,
    cgroup: containerCgroupFiles(cfg, node.cgroupVersion, mode.mode === 'Group' && !mode.emulated, node.swapControllerAvailable ?? true),
    rlimits: rlimits.map(rlimitEntryJSON),
  };
  if (mode.error) plan.oomKillModeError = mode.error;
  if (mode.emulated) plan.oomKillModeEmulated = true;
  if (adjustments.length) plan.rlimitAdjustments = adjustments.map(adjustmentJSON);
  if (node.host) {
    const a = adaptToHost(plan, node.host);
    plan.onHost = { oomScoreAdj: a.oomScoreAdj, adjustments: a.adjustments.filter((x) => x.source === 'plan').map((x) => x.message) };
  }
  return plan;
}

function rlimitEntryJSON(r: Rlimit): ContainerPlan['rlimits'][number] {
  return { type: r.type, soft: rlimitJSON(r.soft), hard: rlimitJSON(r.hard) };
}
