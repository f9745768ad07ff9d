// core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlice in the API server
// (pkg/registry/core/endpoint strategy.go: defaults, ValidateEndpointsCreate/Update, then
// Canonicalize repacks the subsets; pkg/registry/discovery/endpointslice strategy.go: defaults,
// dropTopologyOnV1 (a v1 write drops endpoints' deprecatedTopology, keeping a node name it held
// before as nodeName), ValidateEndpointSliceCreate/Update, the FQDN deprecation warning on
// create, generation moved when addressType, endpoints, ports or labels change).

import { defaultEndpoints, defaultEndpointSlice } from '../api/endpointsdefaults.js';
import type { Endpoints, EndpointSlice } from '../api/types.js';
import { validateEndpoints, validateEndpointsUpdate, validateEndpointSlice, validateEndpointSliceUpdate } from '../api/validation/index.js';
import { stableJSON } from '../api/stablejson.js';
import { repackSubsets } from '../policy/endpoints.js';
import type { Strategy } from './rest.js';
import { statusErrors } from './status.js';

function canonical(ep: Endpoints): Endpoints {
  if (Array.isArray(ep.subsets)) {
    const repacked = repackSubsets(ep.subsets);
    if (repacked.length) ep.subsets = repacked;
    else delete ep.subsets;
  }
  return ep;
}

export const endpointsStrategy: Strategy = {
  // The registry's AllowCreateOnUpdate: a PUT of a missing object creates it.
  allowCreateOnUpdate: true,
  async create(obj) {
    const ep = defaultEndpoints(obj as Endpoints);
    const errs = validateEndpoints(ep);
    if (errs.length) throw statusErrors.invalid('Endpoints', '', ep.metadata?.name ?? '', errs);
    return { obj: canonical(ep) };
  },
  async update(obj, old) {
    const ep = defaultEndpoints(obj as Endpoints);
    const errs = validateEndpointsUpdate(ep, old as Endpoints);
    if (errs.length) throw statusErrors.invalid('Endpoints', '', old.metadata?.name ?? '', errs);
    return { obj: canonical(ep) };
  },
};

const group = 'discovery.k8s.io';
const hostnameLabel = 'kubernetes.io/hostname';

/**
 * dropTopologyOnV1: unless the endpoints are unchanged, every endpoint's deprecatedTopology is
 * dropped; an endpoint without nodeName takes the kubernetes.io/hostname it names when the
 * previous slice's topology named that node.
 */
function dropTopology(slice: EndpointSlice, old?: EndpointSlice): void {
  if (!Array.isArray(slice.endpoints)) return;
  if (old && stableJSON(old.endpoints ?? []) === stableJSON(slice.endpoints)) return;
  const previous = new Set((old?.endpoints ?? []).map((e) => e?.deprecatedTopology?.[hostnameLabel]).filter((n): n is string => !!n));
  for (const e of slice.endpoints) {
    if (!e || typeof e !== 'object' || e.deprecatedTopology === undefined) continue;
    const node = e.deprecatedTopology?.[hostnameLabel];
    if (e.nodeName === undefined && node && previous.has(node)) e.nodeName = node;
    delete e.deprecatedTopology;
  }
}

/** warnOnDeprecatedAddressType. */
function addressTypeWarnings(slice: EndpointSlice): string[] {
  return slice.addressType === 'FQDN' ? ['spec.addressType: FQDN endpoints are deprecated'] : [];
}
const content = (s: EndpointSlice) => stableJSON({ addressType: s.addressType, endpoints: s.endpoints, ports: s.ports, labels: s.metadata?.labels ?? {} });

export const endpointSliceStrategy: Strategy = {
  setsGeneration: true,
  async create(obj, req) {
    const slice = defaultEndpointSlice(obj as EndpointSlice);
    dropTopology(slice);
    const errs = validateEndpointSlice(slice);
    if (errs.length) throw statusErrors.invalid('EndpointSlice', group, slice.metadata?.name ?? '', errs);
    req.warnings.push(...addressTypeWarnings(slice));
    return { obj: slice };
  },
  async update(obj, old) {
    const slice = defaultEndpointSlice(obj as EndpointSlice);
    const prev = old as EndpointSlice;
    dropTopology(slice, prev);
    const errs = validateEndpointSliceUpdate(slice, prev);
    if (errs.length) throw statusErrors.invalid('EndpointSlice', group, prev.metadata?.name ?? '', errs);
    const generation = prev.metadata?.generation ?? 1;
    slice.metadata = { ...slice.metadata, generation: content(slice) === content(prev) ? generation : generation + 1 };
    return { obj: slice };
  },
};
