// What one pod charges against a quota (quota/v1/evaluator/core/pods.go).

import type { FeatureGates } from '../api/featuregates.js';
import { podLimits, podRequests } from '../api/podresources.js';
import { Quantity } from '../api/quantity.js';
import type { Resources } from '../api/resourcelist.js';
import type { Container, Pod } from '../api/types.js';
import { parseResourceList } from '../api/resourcelist.js';
import { isDRAExtendedResourceName, limitsPrefix, podObjectCountName, requestsPrefix } from './resourcenames.js';

const one = Quantity.fromInt(1, 'DecimalSI');

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

/** Each compute resource with its requests. and limits. quota names, spelled once. */
const computeNames = ['cpu', 'memory', 'ephemeral-storage'].map((name) => ({ name, request: requestsPrefix + name, limit: `limits.${name}` }));

/** podComputeUsageHelper: the quota keys a set of requests and limits produces. */
export function computeUsage(requests: Resources, limits: Resources): Resources {
  return addComputeUsage(new Map(), requests, limits);
}

/** computeUsage's keys, in its order, set on `out`. */
function addComputeUsage(out: Resources, requests: Resources, limits: Resources): Resources {
  out.set('pods', one);
  for (const { name, request, limit } of computeNames) {
    const r = requests.get(name);
    if (r) {
      out.set(name, r);
      out.set(request, r);
    }
    const l = limits.get(name);
    if (l) out.set(limit, l);
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

/** computeUsage's compute keys by name: the list and the resource each comes from. */
const computeKeySources = new Map<string, { fromLimits: boolean; resource: string }>();
for (const { name, request, limit } of computeNames) {
  computeKeySources.set(name, { fromLimits: false, resource: name });
  computeKeySources.set(request, { fromLimits: false, resource: name });
  computeKeySources.set(limit, { fromLimits: true, resource: name });
}

/**
 * containerUsage(c).has(name) for a name of computeUsage's compute keys (cpu, memory,
 * ephemeral-storage, each also as requests.<name> and limits.<name>), from the keys alone:
 * quota's Constraints asks it of every container of every pod.
 */
export function containerUsageHas(c: Container, name: string): boolean {
  const source = computeKeySources.get(name);
  if (!source) throw new RangeError(`not a compute quota key: ${name}`);
  const rl = source.fromLimits ? c.resources?.limits : c.resources?.requests;
  return !!rl && Object.prototype.hasOwnProperty.call(rl, source.resource);
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
  return addComputeUsage(out, podRequests(pod, ro), podLimits(pod, ro));
}
