// Baseline `hostProbesAndHostLifecycle` (v1.34+): probes (liveness, readiness, startup) and
// lifecycle handlers (postStart, preStop) must not set httpGet.host or tcpSocket.host.
// Upstream: policy/check_hostProbesAndhostLifecycle.go. Unlike the other container checks, the
// container names are reported sorted and de-duplicated.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, joinQuote, pluralize, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, has, rec, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

/** The non-empty hosts of one probe or lifecycle handler (httpGet first, then tcpSocket). */
function badHosts(handler: unknown): string[] {
  const h = rec(handler);
  if (!h) return [];
  const out: string[] = [];
  for (const action of ['httpGet', 'tcpSocket']) {
    const host = get(rec(get(h, action)), 'host');
    if (has(host) && host !== '') out.push(text(host));
  }
  return out;
}

export function hostProbesAndHostLifecycle_1_34(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badContainers: string[] = [];
  const hosts: string[] = [];
  for (const c of containers(podSpec)) {
    const lifecycle = rec(get(c.raw, 'lifecycle'));
    const handlers = [
      get(c.raw, 'livenessProbe'), get(c.raw, 'readinessProbe'), get(c.raw, 'startupProbe'),
      get(lifecycle, 'postStart'), get(lifecycle, 'preStop'),
    ];
    for (const handler of handlers) {
      const bad = badHosts(handler);
      if (bad.length > 0) {
        badContainers.push(c.name);
        hosts.push(...bad);
      }
    }
  }
  if (badContainers.length === 0) return ALLOWED;
  const names = sortedSet(badContainers);
  const hostSet = sortedSet(hosts);
  return forbidden(
    'probe or lifecycle host',
    `${containerPhrase(names)} ${pluralize('uses', 'use', names.length)} ` +
      `${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', hostSet.length)} ${joinQuote(hostSet)}`,
  );
}

export const hostProbesAndHostLifecycleCheck: Check = {
  id: 'hostProbesAndHostLifecycle',
  level: 'baseline',
  versions: [{ minimumVersion: v1(34), checkPod: hostProbesAndHostLifecycle_1_34 }],
};
