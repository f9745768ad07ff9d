// The Endpoints and EndpointSlice of the `kubernetes` Service, as kube-apiserver's endpoint
// reconciler writes them (pkg/controlplane/reconcilers lease.go and endpointsadapter.go): the
// addresses of the API servers holding a live lease, port `https` to their port; the Endpoints
// labelled endpointslice.kubernetes.io/skip-mirror, the slice named `kubernetes` with only the
// kubernetes.io/service-name label. Pure: the caller reads the leases and writes the objects.

import type { Endpoints, EndpointSlice } from '../api/endpointstypes.js';
import { validateEndpointIP } from '../api/validation/index.js';
import { FieldPath } from '../api/fielderrors.js';
import { serviceNameLabel } from './endpoints.js';

export const kubernetesServiceName = 'kubernetes';
export const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';
/** The lease reconciler's TTL of a server's lease (--endpoint-reconciler lease: 15 s), renewed every 10 s. */
export const masterLeaseTTLMs = 15_000;

/** Whether an address can stand in Endpoints (ValidateEndpointIP: not loopback, unspecified or link-local). */
export function isEndpointIP(ip: string): boolean {
  return validateEndpointIP(ip, FieldPath.root('ip')).length === 0;
}

/**
 * The address this server advertises (--advertise-address): the address it listens on when that
 * can be an endpoint, else the first of `advertise` that can, else the first IPv4 address of
 * the host's interfaces that can (the default route's interface, upstream), else none.
 */
export function advertiseAddress(host: string, advertise: readonly string[], interfaceAddresses: readonly string[]): string | undefined {
  const isV4 = (ip: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(ip);
  return [host, ...advertise, ...interfaceAddresses].find((ip) => isV4(ip) && isEndpointIP(ip));
}

/** The addresses of the leases still live at `now`, sorted. */
export function liveLeaseIPs(leases: readonly { ip: string; renewTime: number }[], now: number): string[] {
  return [...new Set(leases.filter((l) => now - l.renewTime < masterLeaseTTLMs).map((l) => l.ip))].sort();
}

export function kubernetesEndpoints(ips: readonly string[], port: number): Endpoints {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: kubernetesServiceName, namespace: 'default', labels: { [skipMirrorLabel]: 'true' } },
    ...(ips.length ? { subsets: [{ addresses: ips.map((ip) => ({ ip })), ports: [{ name: 'https', port, protocol: 'TCP' }] }] } : {}),
  };
}

/** endpointSliceFromEndpoints: the same addresses, ready, the same port. */
export function kubernetesEndpointSlice(ips: readonly string[], port: number): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: kubernetesServiceName, namespace: 'default', labels: { [serviceNameLabel]: kubernetesServiceName } },
    addressType: 'IPv4',
    endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ...(ips.length ? { ports: [{ name: 'https', port, protocol: 'TCP' }] } : {}),
  };
}
