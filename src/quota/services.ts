// The service evaluator of quota/v1/evaluator/core/services.go: a Service counts 1 under
// `services` and `count/services`, 1 under `services.loadbalancers` when it is a LoadBalancer,
// and its ports under `services.nodeports` when it is a NodePort or a LoadBalancer (for a
// LoadBalancer with allocateLoadBalancerNodePorts false, only the ports that name a nodePort).
// Charged on create and update (the increase only); quotas with scopes never match. The plugin
// configuration's limitedResources for services (limited.ts) read the new Service's usage. Pure.

import type { ResourceQuota } from '../api/types.js';
import type { Service } from '../api/servicetypes.js';
import { decideCountCharge } from './objectcount.js';
import { quotaSelectors } from './scopes.js';
import type { QuotaDecision } from './admission.js';
import type { LimitedResource } from './config.js';
import { limitedByDefault, limitedResourcesFor } from './limited.js';

export const serviceQuotaResources = ['count/services', 'services', 'services.loadbalancers', 'services.nodeports'] as const;

/** The usage of one Service (Usage of the evaluator). */
export function serviceUsage(svc: Service): Record<string, number> {
  const ports = Array.isArray(svc.spec?.ports) ? svc.spec.ports : [];
  const usage: Record<string, number> = { 'count/services': 1, services: 1, 'services.loadbalancers': 0, 'services.nodeports': 0 };
  if (svc.spec?.type === 'NodePort') usage['services.nodeports'] = ports.length;
  if (svc.spec?.type === 'LoadBalancer') {
    usage['services.nodeports'] = svc.spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => (p?.nodePort ?? 0) !== 0).length : ports.length;
    usage['services.loadbalancers'] = 1;
  }
  return usage;
}

/**
 * The quota decision for creating `svc`, or for updating `old` to `svc` (the increase is
 * charged when `old` has a resourceVersion, the whole usage otherwise); what the configuration limits is read from the new Service's whole usage, and needs a
 * covering quota only when the request adds something.
 */
export function decideServiceQuota(svc: Service, old: Service | undefined, quotas: readonly ResourceQuota[], limited: readonly LimitedResource[] = []): QuotaDecision {
  const usage = serviceUsage(svc);
  const entries = limitedResourcesFor(limited, '', 'services');
  const limitedNames = entries.length > 0 ? limitedByDefault(Object.keys(usage).filter((k) => usage[k]! > 0), entries) : [];
  // CheckRequest charges the delta only when the old object has a resourceVersion: without one
  // the update may be a create-on-update, and the whole usage is billed.
  if (old && (old.metadata?.resourceVersion ?? '') !== '') {
    const prev = serviceUsage(old);
    for (const k of Object.keys(usage)) usage[k] = Math.max(0, usage[k]! - (prev[k] ?? 0));
  }
  return decideCountCharge(serviceQuotaResources, usage, quotas, limitedNames);
}

/** Whether a quota's spec.hard names any resource the service evaluator covers. */
export function tracksServices(q: ResourceQuota): boolean {
  const hard = q.spec?.hard ?? {};
  return serviceQuotaResources.some((n) => n in hard);
}

/** status.used entries of the service resources a quota limits: the sum over the namespace's services. */
export function serviceQuotaUsage(q: ResourceQuota, services: readonly Service[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (quotaSelectors(q).length > 0) return out;
  const hard = q.spec?.hard ?? {};
  const sum: Record<string, number> = {};
  for (const svc of services) for (const [k, v] of Object.entries(serviceUsage(svc))) sum[k] = (sum[k] ?? 0) + v;
  for (const n of serviceQuotaResources) if (n in hard) out[n] = String(sum[n] ?? 0);
  return out;
}
