// SetDefaults_Service (pkg/apis/core/v1/defaults.go), applied to a decoded Service before the
// strategy sees it, and pkg/api/service's helpers that defaulting and validation share.
// The IP family fields are not defaulted here: the allocator does that (initIPFamilyFields in
// apiserver/services.ts), as upstream's REST storage does.

import type { Service, ServicePort } from './servicetypes.js';

export const defaultClientIPServiceAffinitySeconds = 10800;
export const maxClientIPServiceAffinitySeconds = 86400;

/** ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with externalIPs. */
export function externallyAccessible(svc: Service): boolean {
  const t = svc.spec?.type;
  return t === 'LoadBalancer' || t === 'NodePort' || (t === 'ClusterIP' && (svc.spec?.externalIPs?.length ?? 0) > 0);
}

/** NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(svc: Service): boolean {
  return svc.spec?.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';
}

function defaultPort(p: ServicePort): ServicePort {
  const out = { ...p };
  if (!out.protocol) out.protocol = 'TCP';
  if (out.targetPort === undefined || out.targetPort === null || out.targetPort === 0 || out.targetPort === '') out.targetPort = out.port;
  return out;
}

/** A defaulted copy of the Service. */
export function defaultService(svc: Service): Service {
  const spec = { ...(svc.spec ?? {}) };
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && typeof spec.sessionAffinityConfig?.clientIP?.timeoutSeconds !== 'number') {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPServiceAffinitySeconds } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  if (Array.isArray(spec.ports)) spec.ports = spec.ports.map((p) => (p && typeof p === 'object' ? defaultPort(p) : p));
  const out: Service = { ...svc, spec };
  if (externallyAccessible(out) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
  return out;
}
