// The eviction manager's pod admission (eviction_manager.go Admit): while the node reports a
// pressure condition, pods are refused with reason Evicted, except critical pods, and, when
// MemoryPressure is the only condition, pods that are not BestEffort or that tolerate the
// memory-pressure taint. Pure: the manager passes the conditions it currently reports.

import type { FeatureGates } from '../../api/featuregates.js';
import type { Pod } from '../../api/types.js';
import { evictedReason, nodeConditionMessage, type PressureCondition } from '../../policy/eviction.js';
import { isCriticalPod } from '../../policy/oomscore.js';
import { getPodQOS } from '../../policy/qos.js';
import { TaintNodeMemoryPressure, tolerationsTolerateTaint } from '../../scheduler/filters.js';

export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

export function admitUnderPressure(pod: Pod, conditions: readonly PressureCondition[], gates: Pick<FeatureGates, 'PodLevelResources'>): AdmitResult {
  if (conditions.length === 0) return { admit: true };
  if (isCriticalPod(pod)) return { admit: true };
  if (conditions.length === 1 && conditions[0] === 'MemoryPressure') {
    // GetPodQOS: a persisted status.qosClass wins over the spec, as upstream's admit reads it.
    if (getPodQOS(pod, gates) !== 'BestEffort') return { admit: true };
    if (tolerationsTolerateTaint(pod.spec.tolerations, { key: TaintNodeMemoryPressure, effect: 'NoSchedule' })) return { admit: true };
  }
  return { admit: false, reason: evictedReason, message: nodeConditionMessage(conditions) };
}
