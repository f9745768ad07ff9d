// What a container's cgroup gets for swap: the kubelet's configureContainerSwapResources and
// swapConfigurationHelper.ConfigureNoSwap (pkg/kubelet/kuberuntime/kuberuntime_container_linux.go
// @ v1.32). The kubelet hands the runtime MemorySwapLimitInBytes (v1; runc writes it as
// memory.memsw.limit_in_bytes) or unified memory.swap.max (v2); Bulkhead writes the same files.
//
// With the default memorySwap.swapBehavior ("" or NoSwap) containers cannot swap:
// - no swap controller on the node (v1: no memory.memsw.limit_in_bytes, v2: no memory.swap.max;
//   src/agent/cgroups detects it): nothing is set, the kernel's own setting stays;
// - v1: memory+swap is capped at the memory limit. A container without a memory limit gets no
//   memsw limit either (the CRI's 0 means "unset": "if memory limit is 0, memory swap limit is
//   ignored"), so it could swap if the host had swap;
// - v2: memory.swap.max 0, with or without a memory limit.
// QoS class, critical pods and the NodeSwap gate (beta, on by default since v1.30) only matter for
// LimitedSwap: the kubelet answers a critical pod, or the gate being off, with NoSwap too, so none
// of them is an input here.
//
// Not implemented: swapBehavior LimitedSwap (cgroup v2 only, the kubelet refuses to start with it
// on v1: Burstable, non-critical containers whose memory request is set and differs from their
// limit get memory.swap.max = request / node memory × node swap capacity). Bulkhead has no
// setting for the swap behaviour, so every container is planned and run with NoSwap.

import type { CgroupFiles, CgroupVersion } from './cgroupvalues.js';

/** cgroup v1: the memory+swap limit (runc's linux.resources.memory.swap). */
export const memswLimitFile = 'memory.memsw.limit_in_bytes';
/** cgroup v2 (the kubelet's cm.Cgroup2MaxSwapFilename). */
export const swapMaxFile = 'memory.swap.max';

export interface ContainerSwapInput {
  cgroupVersion: CgroupVersion;
  /** The kubelet's swapControllerAvailable: whether the node's kernel accounts swap per cgroup. */
  swapControllerAvailable: boolean;
  /** The memory limit the container's cgroup gets (the container's, else the pod-level one); 0 when none. */
  memoryLimit: bigint;
}

/** The swap files of a container's cgroup, to be written after its memory limit. */
export function containerSwapFiles(input: ContainerSwapInput): CgroupFiles {
  if (!input.swapControllerAvailable) return {};
  if (input.cgroupVersion === 1) return input.memoryLimit !== 0n ? { [memswLimitFile]: String(input.memoryLimit) } : {};
  return { [swapMaxFile]: '0' };
}
