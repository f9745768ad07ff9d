// The concrete parts behind assembleAgent's hooks: the PodWorker as the agent's pod runtime,
// and the eviction manager reading the node cgroup (which holds every pod) and the pod cgroups,
// where the host's CgroupManager says they are (v1: the memory hierarchy; v2: the one tree).

import type { Pod } from '../api/types.js';
import { EvictionManager } from './eviction/manager.js';
import { PodWorker } from './podworker.js';
import type { PodAdmitter, PodRuntime } from './agent.js';
import type { EvictionContext, RuntimeContext } from './setup.js';

export function createPodRuntime(ctx: RuntimeContext): PodRuntime & PodWorker {
  return new PodWorker({
    cgroupRoot: ctx.cgroupRoot,
    stateDir: ctx.stateDir,
    runDir: ctx.runDir,
    node: ctx.node,
    host: ctx.host,
    gates: ctx.gates,
    cgroups: ctx.cgroups,
    images: ctx.images,
    metrics: ctx.metrics.oomConfig,
    hostIPs: ctx.hostIPs,
    allocatable: ctx.allocatable,
    runtime: ctx.ociRuntime.binary,
    handlers: Object.fromEntries(ctx.handlerRuntimes.map((r) => [r.name, r.binary])),
    objects: ctx.objects,
    containerStarted: ctx.containerStarted,
    containerRemoving: ctx.containerRemoving,
    probeEvents: ctx.probeEvents,
    probeChanged: ctx.probeChanged,
  });
}

export function createEviction(ctx: EvictionContext): PodAdmitter {
  const worker = ctx.runtime as PodRuntime & PodWorker;
  // Only memory is observed so far; the disk signals of the default --eviction-hard are named once.
  const unobserved = ctx.thresholds.filter((t) => !t.signal.startsWith('memory.') && !t.signal.startsWith('allocatableMemory.'));
  if (unobserved.length) process.stderr.write(`bulkhead agent: eviction: ${unobserved.map((t) => t.signal).join(', ')} are not observed on this node yet; only memory.available evicts\n`);
  return new EvictionManager({
    capacityBytes: ctx.node.memoryBytes,
    thresholds: ctx.thresholds.filter((t) => !unobserved.includes(t)),
    nodeMemcgDir: ctx.nodeCgroups.memoryDir(),
    cgroupVersion: ctx.nodeCgroups.cgroups.version,
    activePods: () => ctx.agent.activePods(),
    podMemcgDir: (pod: Pod) => ctx.nodeCgroups.cgroups.memoryDir(worker.podCgroupPath(pod)),
    evict: (pod, reason, message, annotations) => ctx.agent.evict(pod, reason, message, annotations),
    onPressureChange: () => ctx.agent.nodeStatusChanged(),
    onEviction: (signal) => ctx.agent.metrics.evicted(signal),
    gates: ctx.gates,
    log: (line) => process.stderr.write(`bulkhead agent: eviction: ${line}\n`),
  });
}
