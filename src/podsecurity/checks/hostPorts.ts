// Baseline `hostPorts` (v1.0+): containers' ports[*].hostPort must be unset or 0. Upstream:
// policy/check_hostPorts.go. Ports are reported as a set of decimal strings in string order.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, pluralize, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, has, items, rec, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export function hostPorts_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badContainers: string[] = [];
  const ports: string[] = [];
  for (const c of containers(podSpec)) {
    let valid = true;
    for (const p of items(get(c.raw, 'ports'))) {
      const hostPort = get(rec(p), 'hostPort');
      if (has(hostPort) && hostPort !== 0) {
        valid = false;
        ports.push(text(hostPort));
      }
    }
    if (!valid) badContainers.push(c.name);
  }
  if (badContainers.length === 0) return ALLOWED;
  const set = sortedSet(ports);
  return forbidden(
    'hostPort',
    `${containerPhrase(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ` +
      `${pluralize('hostPort', 'hostPorts', set.length)} ${set.join(', ')}`,
  );
}

export const hostPortsCheck: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: hostPorts_1_0 }],
};
