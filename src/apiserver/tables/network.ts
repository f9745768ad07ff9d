// Tables of the network kinds (pkg/printers/internalversion printers.go at v1.32): printService,
// printEndpoints and printEndpointSlice (their list cells in ../endpointstable.ts).

import type { Endpoints, EndpointSlice, Service } from '../../api/types.js';
import { formatEndpoints, formatSliceEndpoints, formatSlicePorts } from '../endpointstable.js';
import { age, ageCol, col, formatLabels, nameCol, type Printer } from './common.js';

// printService (pkg/printers/internalversion), rendered wide as the server's table convertor does.
/** getServiceExternalIP with loadBalancerStatusStringer (wide: never shortened). */
function serviceExternalIP(svc: Service): string {
  const external = Array.isArray(svc.spec?.externalIPs) ? svc.spec.externalIPs : [];
  switch (svc.spec?.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = Array.isArray(svc.status?.loadBalancer?.ingress) ? svc.status.loadBalancer.ingress : [];
      const lb = [...new Set(ingress.map((i) => i?.ip || i?.hostname || '').filter((x) => x !== ''))].sort();
      const all = [...lb, ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
  }
  return '<unknown>';
}

export const servicePrinter: Printer<Service> = {
  columns: [
    nameCol,
    col('Type', 'string', 'type determines how the Service is exposed: ClusterIP (the default), NodePort, LoadBalancer or ExternalName.'),
    col('Cluster-IP', 'string', 'clusterIP is the IP address of the service, usually assigned randomly from the service cluster IP range.'),
    col('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
    col('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    ageCol,
    col('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', 1),
  ],
  cells: (svc, now) => {
    const ips = Array.isArray(svc.spec?.clusterIPs) ? svc.spec.clusterIPs : [];
    const ports = (Array.isArray(svc.spec?.ports) ? svc.spec.ports : [])
      .map((p) => ((p?.nodePort ?? 0) > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p?.port ?? 0}/${p?.protocol ?? ''}`))
      .join(',');
    return [svc.metadata?.name ?? '', svc.spec?.type ?? '', ips.length > 0 ? ips[0]! : '<none>', serviceExternalIP(svc), ports || '<none>', age(svc.metadata?.creationTimestamp, now), formatLabels(svc.spec?.selector)];
  },
};

// printEndpoints (NAME ENDPOINTS AGE) and printEndpointSlice (NAME ADDRESSTYPE PORTS ENDPOINTS AGE).
export const endpointsPrinter: Printer<Endpoints> = {
  columns: [nameCol, col('Endpoints', 'string', 'The set of all endpoints is the union of all subsets.'), ageCol],
  cells: (e, now) => [e.metadata?.name ?? '', formatEndpoints(e), age(e.metadata?.creationTimestamp, now)],
};

export const endpointSlicePrinter: Printer<EndpointSlice> = {
  columns: [
    nameCol,
    col('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type.'),
    col('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    col('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice.'),
    ageCol,
  ],
  cells: (s, now) => [s.metadata?.name ?? '', s.addressType ?? '', formatSlicePorts(s), formatSliceEndpoints(s), age(s.metadata?.creationTimestamp, now)],
};
