// Baseline `windowsHostProcess` (v1.0+): pod and container
// securityContext.windowsOptions.hostProcess must be unset or false.
// Upstream: policy/check_windowsHostProcess.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase } from '../format.js';
import { v1 } from '../levels.js';
import {
  containers, get, podSecurityContext, rec, setsTrue, type PodMetadataInput, type PodSpecInput,
} from '../podfields.js';

const hostProcess = (sc: unknown) => setsTrue(get(rec(get(rec(sc), 'windowsOptions')), 'hostProcess'));

export function windowsHostProcess_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badContainers = containers(podSpec).filter((c) => hostProcess(c.securityContext)).map((c) => c.name);
  const setters: string[] = [];
  if (hostProcess(podSecurityContext(podSpec))) setters.push('pod');
  if (badContainers.length > 0) setters.push(containerPhrase(badContainers));
  if (setters.length === 0) return ALLOWED;
  return forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`);
}

export const windowsHostProcessCheck: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: windowsHostProcess_1_0 }],
};
