// Defaults of Endpoints and EndpointSlice (pkg/apis/core/v1 SetDefaults_Endpoints: a subset
// port's protocol TCP; pkg/apis/discovery/v1 SetDefaults_EndpointPort: a slice port's name ""
// and protocol TCP).

import type { Endpoints, EndpointSlice } from './endpointstypes.js';

export function defaultEndpoints(ep: Endpoints): Endpoints {
  if (!Array.isArray(ep.subsets)) return ep;
  for (const ss of ep.subsets) {
    if (!ss || !Array.isArray(ss.ports)) continue;
    for (const p of ss.ports) if (p && typeof p === 'object' && (p.protocol === undefined || p.protocol === '')) p.protocol = 'TCP';
  }
  return ep;
}

export function defaultEndpointSlice(slice: EndpointSlice): EndpointSlice {
  if (!Array.isArray(slice.ports)) return slice;
  for (const p of slice.ports) {
    if (!p || typeof p !== 'object') continue;
    if (p.name === undefined || p.name === null) p.name = '';
    if (p.protocol === undefined || p.protocol === null) p.protocol = 'TCP';
  }
  return slice;
}
