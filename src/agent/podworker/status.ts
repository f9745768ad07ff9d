// The pod's status from its runtime view, the kubelet's generateAPIPodStatus
// (pkg/kubelet/kubelet_pods.go): container statuses, phase, conditions, QoS class; the
// decisions themselves are the pure rules of lifecycle/.

import type { Pod, PodStatus } from '../../api/types.js';
import type { PodNodePlan } from '../../plan/node.js';
import { oomKillModeCondition } from '../../policy/oomkillmodestatus.js';
import { podConditions } from '../lifecycle/conditions.js';
import { ephemeralContainerStatuses, initContainerStatuses, kubeTime, regularContainerStatuses, terminatedPodStatuses, type StartFailure } from '../lifecycle/containerstatus.js';
import { getPhase, isTerminalPhase, type PodPhase } from '../lifecycle/phase.js';
import { noProbes, type ProbeView } from '../lifecycle/probes.js';
import type { PodRuntime } from '../lifecycle/runtime.js';
import type { PodRecord } from '../podrecords.js';
import type { PodMemory } from './context.js';

/** `podIsTerminal`: the pod is stopped for good (terminated, or already Succeeded/Failed). */
export function buildStatus(pod: Pod, plan: PodNodePlan, podRec: PodRecord, rt: PodRuntime, mem: PodMemory, podIsTerminal: boolean, nowISO: string, probes: ProbeView = noProbes): PodStatus {
  const failures = podIsTerminal ? new Map<string, StartFailure>() : mem.failures;
  let inits = initContainerStatuses(pod, rt, failures, probes);
  let regs = regularContainerStatuses(pod, rt, failures, probes);
  if (podIsTerminal) ({ inits, regs } = terminatedPodStatuses(pod, inits, regs));
  const ephemerals = ephemeralContainerStatuses(pod, rt, failures);
  let phase: PodPhase = getPhase(pod.spec, [...regs, ...inits], podIsTerminal);
  const terminal = podRec.terminal ?? (isTerminalPhase(pod.status?.phase) ? pod.status.phase : undefined);
  // Pods do not leave a terminal phase; a pod stopped for good gets one.
  if (terminal) phase = terminal;
  else if (podIsTerminal && !isTerminalPhase(phase)) phase = 'Failed';
  const sandboxReady = rt.sandbox?.ready === true;
  const status: PodStatus = {
    phase,
    conditions: podConditions(pod.spec, [...inits, ...regs], phase, sandboxReady, pod.status?.conditions, kubeTime(nowISO), [oomKillModeCondition(plan.containers)]),
    ...(pod.status?.hostIP ? { hostIP: pod.status.hostIP } : {}),
    ...(pod.status?.podIP ? { podIP: pod.status.podIP } : {}),
    startTime: kubeTime(pod.status?.startTime ?? podRec.startTime),
    ...(inits.length ? { initContainerStatuses: inits } : {}),
    containerStatuses: regs,
    ...(ephemerals.length ? { ephemeralContainerStatuses: ephemerals } : {}),
    qosClass: plan.qosClass,
  };
  if (pod.status?.phase === phase) {
    if (pod.status.reason) status.reason = pod.status.reason;
    if (pod.status.message) status.message = pod.status.message;
  }
  return status;
}
