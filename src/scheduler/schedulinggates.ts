// The SchedulingGates PreEnqueue plugin (pkg/scheduler/framework/plugins/schedulinggates, v1.32):
// a pod with scheduling gates never enters the active queue, so it is neither scheduled nor
// reported unschedulable; it is considered again when an update removes the last gate.

import type { Pod } from '../api/types.js';

/** Why the pod may not be queued (upstream's UnschedulableAndUnresolvable status message), or undefined when it may. */
export function schedulingGatesPreEnqueue(pod: Pod): string | undefined {
  const gates = pod.spec?.schedulingGates ?? [];
  if (!gates.length) return undefined;
  return `waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`;
}
