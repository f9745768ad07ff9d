// What one pod charges against a quota (quota/v1/evaluator/core/pods.go).

import type { FeatureGates } from '../api/featuregates.js';
import { podLimits, podRequests } from '../api/podresources.js';
import { Quantity } from '../api/quantity.js';
import type { Resources } from '../api/resourcelist.js';
import type { Container, Pod } from '../api/types.js';
import { parseResourceList } from '../api/resourcelist.js';
import { isDRAExtendedResourceName, podObjectCountName, requestsPrefix } from './resourcenames.js';

const one = Quantity.fromInt(1, 'DecimalSI');
const computeNames = ['cpu', 'memory', 'ephemeral-storage'];

/** Terminal pods, and pods past their deletion grace period, no longer hold compute quota. */
export function isChargeable(pod: Pod, now: Date): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const ts = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (ts !== undefined && grace !== undefined) {
    const deadline = Date.parse(ts) + grace * 1000;
    if (now.getTime() > deadline) return false;
  }
  return true;
}

/** podComputeUsageHelper: the quota keys a set of requests and limits produces. */
export function computeUsage(requests: Resources, limits: Resources): Resources {
  const out: Resources = new Map([['pods', one]]);
  for (const name of computeNames) {
    const r = requests.get(name);
    if (r) {
      out.set(name, r);
      out.set(requestsPrefix + name, r);
    }
    const l = limits.get(name);
    if (l) out.set(`limits.${name}`, l);
  }
  for (const [name, q] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, q);
      out.set(requestsPrefix + name, q);
    }
    if (isDRAExtendedResourceName(name)) out.set(requestsPrefix + name, q);
  }
  return out;
}

export function containerUsage(c: Container): Resources {
  return computeUsage(parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits));
}

export interface UsageOptions {
  gates: Pick<FeatureGates, 'PodLevelResources'>;
  now: Date;
}

/** PodUsageFunc: count/pods always; compute resources only while the pod is chargeable. */
export function podUsage(pod: Pod, opts: UsageOptions): Resources {
  const out: Resources = new Map([[podObjectCountName, one]]);
  if (!isChargeable(pod, opts.now)) return out;
  const ro = { podLevelResources: opts.gates.PodLevelResources };
  for (const [k, q] of computeUsage(podRequests(pod, ro), podLimits(pod, ro))) out.set(k, q);
  return out;
}
