// The numbers the kubelet (pkg/kubelet/cm/helpers_linux.go) and an OCI runtime
// (opencontainers/cgroups) write into cgroup files, and the pod- and container-level
// configurations they come from.

import type { FeatureGates } from '../api/featuregates.js';
import { isPodLevelResourcesSet, podLimits, podRequests } from '../api/podresources.js';
import { parseResourceList, resourceQuantity, ResourceCPU, ResourceMemory, HugePagesPrefix, type Resources } from '../api/resourcelist.js';
import { Quantity } from '../api/quantity.js';
import type { Container, Pod, QOSClass } from '../api/types.js';
import { isSidecar } from '../api/types.js';
import { containerSwapFiles } from './swap.js';

export const MinShares = 2n;
export const MaxShares = 262144n;
export const SharesPerCPU = 1024n;
export const MilliCPUToCPU = 1000n;
/** 100ms, the default CFS period in microseconds. */
export const QuotaPeriod = 100000n;
/** 1ms, the smallest quota the kernel takes. */
export const MinQuotaPeriod = 1000n;

export function milliCPUToShares(milliCPU: bigint): bigint {
  if (milliCPU <= 0n) return MinShares;
  const shares = (milliCPU * SharesPerCPU) / MilliCPUToCPU;
  if (shares < MinShares) return MinShares;
  if (shares > MaxShares) return MaxShares;
  return shares;
}

/**
 * 0 means "no quota". The period is taken as given: the CustomCPUCFSQuotaPeriod gate, which
 * upstream's MilliCPUToQuota checks itself, is applied by the callers (quotaPeriodFor).
 */
export function milliCPUToQuota(milliCPU: bigint, period: bigint = QuotaPeriod): bigint {
  if (milliCPU === 0n) return 0n;
  const quota = (milliCPU * period) / MilliCPUToCPU;
  return quota < MinQuotaPeriod ? MinQuotaPeriod : quota;
}

/**
 * The period a quota is computed over: the configured one only with the CustomCPUCFSQuotaPeriod
 * gate (alpha, off in v1.32); without it upstream computes every quota over 100ms.
 */
export function quotaPeriodFor(period: bigint, customCPUCFSQuotaPeriod: boolean | undefined): bigint {
  return customCPUCFSQuotaPeriod ? period : QuotaPeriod;
}

/** Kubelet-managed cgroups on v2 (kubepods, tiers, pod cgroups): the linear map. */
export function sharesToWeightLinear(shares: bigint): bigint {
  if (shares >= MaxShares) return 10000n;
  const s = shares < MinShares ? MinShares : shares;
  return 1n + ((s - 2n) * 9999n) / 262142n;
}

/**
 * Container cgroups on v2, written by runc >= 1.3.2 / crun >= 1.23 from the CRI cpu_shares:
 * quadratic in log space through (2,1), (1024,100), (262144,10000). IEEE doubles reproduce
 * Go's result for every input.
 */
export function sharesToWeightRuntime(shares: bigint): bigint {
  if (shares === 0n) return 0n;
  if (shares <= 2n) return 1n;
  if (shares >= MaxShares) return 10000n;
  const l = Math.log2(Number(shares));
  const exponent = (l * l + 125 * l) / 612.0 - 7.0 / 34.0;
  return BigInt(Math.ceil(Math.pow(10, exponent)));
}

/** Pod (or tier) cgroup settings; an absent field is not written. */
export interface ResourceConfig {
  cpuShares?: bigint;
  /** -1 means unlimited. */
  cpuQuota?: bigint;
  cpuPeriod?: bigint;
  memory?: bigint;
  /** page size in bytes -> limit in bytes */
  hugePageLimits?: Map<bigint, bigint>;
}

export interface PodCgroupOptions {
  gates: Pick<FeatureGates, 'PodLevelResources'>;
  /** kubelet cpuCFSQuota (default true). */
  enforceCPULimits?: boolean;
  cpuPeriod?: bigint;
  /** The CustomCPUCFSQuotaPeriod gate (default off, as in v1.32). */
  customCPUCFSQuotaPeriod?: boolean;
}

function hugePageLimits(requests: Resources): Map<bigint, bigint> {
  const out = new Map<bigint, bigint>();
  for (const [name, q] of requests) {
    if (!name.startsWith(HugePagesPrefix)) continue;
    const size = Quantity.tryParse(name.slice(HugePagesPrefix.length));
    if (!size) continue;
    const page = size.value();
    out.set(page, (out.get(page) ?? 0n) + q.value());
  }
  return out;
}

function milli(r: Resources, name: string): bigint {
  return r.get(name)?.milliValue() ?? 0n;
}

function bytes(r: Resources, name: string): bigint {
  return r.get(name)?.value() ?? 0n;
}

/** Whether every container (init containers by their init-phase totals) limits this resource. */
function limitsDeclared(pod: Pod, name: string): boolean {
  for (const c of pod.spec.containers ?? []) {
    if (!(resourceQuantity(c.resources?.limits, name)?.sign() ?? 0)) return false;
  }
  let sidecarTotal = 0n;
  for (const c of pod.spec.initContainers ?? []) {
    const own = resourceQuantity(c.resources?.limits, name)?.nanos() ?? 0n;
    let inUse: bigint;
    if (isSidecar(c)) {
      sidecarTotal += own;
      inUse = sidecarTotal;
    } else {
      inUse = own + sidecarTotal;
    }
    if (inUse === 0n) return false;
  }
  return true;
}

/** ResourceConfigForPod. */
export function podResourceConfig(pod: Pod, qos: QOSClass, opts: PodCgroupOptions): ResourceConfig {
  const podLevel = opts.gates.PodLevelResources;
  const period = opts.cpuPeriod ?? QuotaPeriod;
  const reqs = podRequests(pod, { podLevelResources: podLevel });
  const limits = podLimits(pod, { podLevelResources: podLevel });

  let cpuDeclared = limitsDeclared(pod, ResourceCPU);
  let memoryDeclared = limitsDeclared(pod, ResourceMemory);
  if (podLevel && isPodLevelResourcesSet(pod)) {
    const podLimitsList = parseResourceList(pod.spec.resources?.limits);
    if (podLimitsList.get(ResourceCPU)?.sign()) cpuDeclared = true;
    if (podLimitsList.get(ResourceMemory)?.sign()) memoryDeclared = true;
  }

  const cpuShares = milliCPUToShares(milli(reqs, ResourceCPU));
  // Upstream writes the configured period but, with the gate off, computes the quota over 100ms
  // (helpers_linux_test.go TestResourceConfigForPod "...-with-tuned-quota" rows); kubelet config
  // validation keeps a real node from having a custom period without the gate.
  let cpuQuota = milliCPUToQuota(milli(limits, ResourceCPU), quotaPeriodFor(period, opts.customCPUCFSQuotaPeriod));
  if (opts.enforceCPULimits === false) cpuQuota = -1n;
  const memory = bytes(limits, ResourceMemory);
  const huge = hugePageLimits(reqs);

  const cfg: ResourceConfig = {};
  if (qos === 'Guaranteed') {
    Object.assign(cfg, { cpuShares, cpuQuota, cpuPeriod: period, memory });
  } else if (qos === 'Burstable') {
    cfg.cpuShares = cpuShares;
    if (cpuDeclared) Object.assign(cfg, { cpuQuota, cpuPeriod: period });
    if (memoryDeclared) cfg.memory = memory;
  } else {
    cfg.cpuShares = MinShares;
  }
  if (huge.size > 0) cfg.hugePageLimits = huge;
  return cfg;
}

/** What the kubelet hands the runtime for one container (calculateLinuxResources). */
export interface ContainerResourceConfig {
  cpuShares: bigint;
  /** 0 = unset */
  cpuQuota: bigint;
  /** 0 = unset */
  cpuPeriod: bigint;
  /** 0 = unset */
  memoryLimit: bigint;
}

export interface ContainerCgroupOptions {
  gates: Pick<FeatureGates, 'PodLevelResources'>;
  cpuCFSQuota?: boolean;
  cpuPeriod?: bigint;
  /** The CustomCPUCFSQuotaPeriod gate (default off, as in v1.32): without it the period is 100ms. */
  customCPUCFSQuotaPeriod?: boolean;
}

export function containerResourceConfig(pod: Pod, c: Container, opts: ContainerCgroupOptions): ContainerResourceConfig {
  const limits = c.resources?.limits;
  const podLevel = opts.gates.PodLevelResources && isPodLevelResourcesSet(pod) ? pod.spec.resources?.limits : undefined;
  const cpuLimit = resourceQuantity(limits, ResourceCPU) ?? resourceQuantity(podLevel, ResourceCPU);
  const memoryLimit = resourceQuantity(limits, ResourceMemory) ?? resourceQuantity(podLevel, ResourceMemory);
  const cpuRequest = resourceQuantity(c.resources?.requests, ResourceCPU);

  const cpuShares = milliCPUToShares(cpuRequest === undefined && cpuLimit !== undefined ? cpuLimit.milliValue() : (cpuRequest?.milliValue() ?? 0n));
  const cfg: ContainerResourceConfig = { cpuShares, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: memoryLimit?.value() ?? 0n };
  if (opts.cpuCFSQuota !== false) {
    const period = quotaPeriodFor(opts.cpuPeriod ?? QuotaPeriod, opts.customCPUCFSQuotaPeriod);
    cfg.cpuPeriod = period;
    cfg.cpuQuota = milliCPUToQuota(cpuLimit?.milliValue() ?? 0n, period);
  }
  return cfg;
}

export type CgroupVersion = 1 | 2;
export type CgroupFiles = Record<string, string>;

function hugePageSizeName(pageBytes: bigint): string {
  const units: [bigint, string][] = [[1n << 30n, 'GB'], [1n << 20n, 'MB'], [1n << 10n, 'KB']];
  for (const [size, unit] of units) if (pageBytes % size === 0n) return `${pageBytes / size}${unit}`;
  return `${pageBytes}B`;
}

/** cpu.max as the cgroup v2 drivers write it: "<quota|max> <period>", only when either is set. */
function cpuMax(quota: bigint | undefined, period: bigint | undefined): string | undefined {
  const q = quota ?? 0n;
  const p = period ?? 0n;
  if (q === 0n && p === 0n) return undefined;
  let s = q > 0n ? String(q) : 'max';
  if (p !== 0n) s += ` ${p}`;
  return s;
}

/** The files a kubelet-managed cgroup (pod or QoS tier) gets, by name, for this cgroup version. */
export function podCgroupFiles(cfg: ResourceConfig, version: CgroupVersion): CgroupFiles {
  const f: CgroupFiles = {};
  if (version === 1) {
    if (cfg.cpuShares !== undefined) f['cpu.shares'] = String(cfg.cpuShares);
    if (cfg.cpuPeriod !== undefined && cfg.cpuPeriod !== 0n) f['cpu.cfs_period_us'] = String(cfg.cpuPeriod);
    if (cfg.cpuQuota !== undefined && cfg.cpuQuota !== 0n) f['cpu.cfs_quota_us'] = String(cfg.cpuQuota);
    if (cfg.memory !== undefined && cfg.memory !== 0n) f['memory.limit_in_bytes'] = String(cfg.memory);
    for (const [page, limit] of cfg.hugePageLimits ?? []) f[`hugetlb.${hugePageSizeName(page)}.limit_in_bytes`] = String(limit);
  } else {
    if (cfg.cpuShares !== undefined) f['cpu.weight'] = String(sharesToWeightLinear(cfg.cpuShares));
    const max = cpuMax(cfg.cpuQuota, cfg.cpuPeriod);
    if (max !== undefined) f['cpu.max'] = max;
    if (cfg.memory !== undefined && cfg.memory !== 0n) f['memory.max'] = String(cfg.memory);
    for (const [page, limit] of cfg.hugePageLimits ?? []) f[`hugetlb.${hugePageSizeName(page)}.max`] = String(limit);
  }
  return f;
}

/**
 * The files the runtime writes for a container cgroup; memory.oom.group only exists on v2. The
 * swap files (policy/swap.ts) follow the memory limit: v1 refuses a memsw limit below the
 * memory limit in force, and a new cgroup's is unlimited until its limit is written.
 */
export function containerCgroupFiles(cfg: ContainerResourceConfig, version: CgroupVersion, oomGroup: boolean, swapControllerAvailable: boolean): CgroupFiles {
  const f: CgroupFiles = {};
  const swap = containerSwapFiles({ cgroupVersion: version, swapControllerAvailable, memoryLimit: cfg.memoryLimit });
  if (version === 1) {
    f['cpu.shares'] = String(cfg.cpuShares);
    if (cfg.cpuPeriod !== 0n) f['cpu.cfs_period_us'] = String(cfg.cpuPeriod);
    if (cfg.cpuQuota !== 0n) f['cpu.cfs_quota_us'] = String(cfg.cpuQuota);
    if (cfg.memoryLimit !== 0n) f['memory.limit_in_bytes'] = String(cfg.memoryLimit);
    Object.assign(f, swap);
  } else {
    f['cpu.weight'] = String(sharesToWeightRuntime(cfg.cpuShares));
    const max = cpuMax(cfg.cpuQuota, cfg.cpuPeriod);
    if (max !== undefined) f['cpu.max'] = max;
    if (cfg.memoryLimit !== 0n) f['memory.max'] = String(cfg.memoryLimit);
    Object.assign(f, swap);
    f['memory.oom.group'] = oomGroup ? '1' : '0';
  }
  return f;
}

/**
 * The QoS tier cgroups (qos_container_manager): besteffort gets the minimum shares,
 * burstable the shares of all Burstable pods' cpu requests together.
 */
export function qosTierConfigs(pods: readonly { pod: Pod; qos: QOSClass }[], opts: { gates: Pick<FeatureGates, 'PodLevelResources'> }): { burstable: ResourceConfig; besteffort: ResourceConfig } {
  let burstableMilli = 0n;
  for (const { pod, qos } of pods) {
    if (qos !== 'Burstable') continue;
    burstableMilli += milli(podRequests(pod, { podLevelResources: opts.gates.PodLevelResources }), ResourceCPU);
  }
  return { burstable: { cpuShares: milliCPUToShares(burstableMilli) }, besteffort: { cpuShares: MinShares } };
}

/**
 * The node-level cgroup that holds every pod (`kubepods`): it enforces the node's size, so a
 * node declared smaller than the machine really is that small.
 */
export function nodeCgroupConfig(node: { memoryBytes: bigint; milliCPU: bigint }, period: bigint = QuotaPeriod): ResourceConfig {
  return {
    cpuShares: milliCPUToShares(node.milliCPU),
    cpuQuota: milliCPUToQuota(node.milliCPU, period),
    cpuPeriod: period,
    memory: node.memoryBytes,
  };
}
