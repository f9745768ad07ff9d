// core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlice with their lists (k8s.io/api core/v1
// and discovery/v1 types.go; the descriptions are our own).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const core = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) => struct(PKG.core, short, description, fields, opts);
const disc = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) => struct(PKG.discovery, short, description, fields, opts);

export const endpointsSchemas: readonly SchemaDef[] = [
  core(
    'Endpoints',
    'The addresses and ports that implement a service: written by the endpoints controller for a service with a selector, by hand for one without.',
    { ...typeMeta, metadata: 'ObjectMeta | Standard object metadata.', subsets: '[]EndpointSubset lt=atomic | Groups of addresses that share the same ports; the endpoints are their union.' },
    { gvk: [gvk('', 'v1', 'Endpoints')] },
  ),
  core('EndpointsList', 'A list of endpoints.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]Endpoints! | The endpoints.' }, { gvk: [gvk('', 'v1', 'EndpointsList')] }),
  core('EndpointSubset', 'Addresses that all serve the same ports.', {
    addresses: '[]EndpointAddress lt=atomic | Addresses ready to serve on these ports.',
    notReadyAddresses: '[]EndpointAddress lt=atomic | Addresses not ready yet (or no longer), published for those who ask.',
    ports: '[]EndpointPort lt=atomic | The ports these addresses serve.',
  }),
  core(
    'EndpointAddress',
    'One address of an endpoint.',
    {
      ip: 's! | The IP of the endpoint (not loopback, link-local or link-local multicast).',
      hostname: 's | The hostname of the endpoint.',
      nodeName: 's | The node that hosts the endpoint.',
      targetRef: 'ObjectReference | The object (usually a pod) behind the endpoint.',
    },
    { mapType: 'atomic' },
  ),
  core(
    'EndpointPort',
    'One port of an endpoint subset.',
    {
      name: 's | Name of the port, matching the service port\'s name; required when there is more than one port.',
      port: 'i32! | The port number.',
      protocol: 's go=Protocol | TCP (the default), UDP or SCTP.',
      appProtocol: 's | The application protocol of the port.',
    },
    { mapType: 'atomic' },
  ),
  disc(
    'EndpointSlice',
    'A subset of the endpoints of a service: the endpointslice controller writes them for a service with a selector, labelled kubernetes.io/service-name.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      addressType: 's! go=AddressType | The type of every address in the slice: IPv4, IPv6 or FQDN. Immutable.',
      endpoints: '[]Endpoint! lt=atomic | The endpoints of the slice (at most 1000).',
      ports: '[]EndpointPort lt=atomic | The ports every endpoint of the slice serves; none means no ports are exposed.',
    },
    { gvk: [gvk('discovery.k8s.io', 'v1', 'EndpointSlice')] },
  ),
  disc('EndpointSliceList', 'A list of endpoint slices.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]EndpointSlice! | The endpoint slices.' }, { gvk: [gvk('discovery.k8s.io', 'v1', 'EndpointSliceList')] }),
  disc('Endpoint', 'One backend of an endpoint slice.', {
    addresses: '[]s! lt=set | The addresses of the endpoint (one, as consumers read only the first).',
    conditions: 'EndpointConditions | The state of the endpoint.',
    hostname: 's | The hostname of the endpoint.',
    targetRef: 'ObjectReference | The object (usually a pod) behind the endpoint.',
    deprecatedTopology: '{}s | Deprecated topology labels; use nodeName and zone.',
    nodeName: 's | The node that hosts the endpoint.',
    zone: 's | The zone the endpoint is in.',
    hints: 'EndpointHints | Hints for how the endpoint should be consumed.',
  }),
  disc('EndpointConditions', 'The state of an endpoint.', {
    ready: 'b | The endpoint is ready to receive traffic (serving and not terminating, unless the service publishes not-ready addresses).',
    serving: 'b | The endpoint is ready, whether or not it is terminating.',
    terminating: 'b | The endpoint is terminating.',
  }),
  disc('EndpointHints', 'Hints for topology-aware routing.', { forZones: '[]ForZone lt=atomic | The zones this endpoint should serve.' }),
  disc('ForZone', 'A zone an endpoint should serve.', { name: 's! | The name of the zone.' }),
  disc(
    'EndpointPort',
    'One port of an endpoint slice.',
    {
      name: 's | Name of the port, matching the service port\'s name (empty when it has none).',
      protocol: 's go=Protocol | TCP (the default), UDP or SCTP.',
      port: 'i32 | The port number; unset means every port.',
      appProtocol: 's | The application protocol of the port.',
    },
    { mapType: 'atomic' },
  ),
];
