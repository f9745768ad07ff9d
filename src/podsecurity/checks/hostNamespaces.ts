// Baseline `hostNamespaces` (v1.0+): spec.hostNetwork, hostPID and hostIPC must be unset or false.
// Upstream: policy/check_hostNamespaces.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { v1 } from '../levels.js';
import { get, setsTrue, specObj, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export function hostNamespaces_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const s = specObj(podSpec);
  const bad: string[] = [];
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) {
    if (setsTrue(get(s, field))) bad.push(`${field}=true`);
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden('host namespaces', bad.join(', '));
}

export const hostNamespacesCheck: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: hostNamespaces_1_0 }],
};
