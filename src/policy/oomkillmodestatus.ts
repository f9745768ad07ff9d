// The OOM kill mode a node applies, as the pod's status reports it. The spec's `oomKillMode` is
// often absent (the node decides), so the agent reports what it resolved for each container
// (policy/oomkillmode.ts) in a pod condition of its own; `kubectl get pods -o wide` reads the
// column from it, and from the spec until the agent has reported. The wording is plan's
// OOM KILL MODE column: `Single (default)`, `Group (container, emulated)`, `Group (container) ERROR`.

import type { PodCondition } from '../api/types.js';
import type { OOMKillModeSource, OOMKillModeValue } from './oomkillmode.js';

/** A condition type of the agent's own (domain-prefixed, as Kubernetes asks of custom condition types). */
export const OOMKillModeConditionType = 'bulkhead.dev/OOMKillMode';

export interface ResolvedOOMKillMode {
  oomKillMode: OOMKillModeValue;
  oomKillModeSource: OOMKillModeSource;
  oomKillModeEmulated?: boolean;
  oomKillModeError?: string;
}

export function describeOOMKillMode(c: ResolvedOOMKillMode): string {
  return `${c.oomKillMode} (${c.oomKillModeSource}${c.oomKillModeEmulated ? ', emulated' : ''})${c.oomKillModeError ? ' ERROR' : ''}`;
}

// Container names are DNS labels, so neither separator can occur in one.
const entrySeparator = '; ';

/** The condition for a pod's containers, in the order given: `web=Single (container); db=Group (node)`. */
export function oomKillModeCondition(containers: readonly (ResolvedOOMKillMode & { name: string })[]): PodCondition {
  return {
    type: OOMKillModeConditionType,
    status: 'True',
    message: containers.map((c) => `${c.name}=${describeOOMKillMode(c)}`).join(entrySeparator),
  };
}

/** The modes the condition reports, by container name; undefined when the agent has not reported. */
export function reportedOOMKillModes(conditions: readonly PodCondition[] | undefined): Map<string, string> | undefined {
  const c = conditions?.find((x) => x.type === OOMKillModeConditionType);
  if (!c?.message) return undefined;
  const out = new Map<string, string>();
  for (const entry of c.message.split(entrySeparator)) {
    const eq = entry.indexOf('=');
    if (eq > 0) out.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return out;
}
