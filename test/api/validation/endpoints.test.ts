// Endpoints and EndpointSlice validation, one row per rule of pkg/apis/core/validation
// (ValidateEndpoints*, validateEndpointSubsets, validateEndpointAddress, ValidateEndpointIP,
// validateEndpointPort) and pkg/apis/discovery/validation (ValidateEndpointSlice*), with
// Kubernetes' paths and wording.

import { describe, test } from 'node:test';
import type { Endpoints, EndpointSlice, EndpointSubset, SliceEndpoint, SlicePort } from '../../../src/api/types.js';
import { validateEndpoints, validateEndpointsUpdate, validateEndpointSlice, validateEndpointSliceUpdate } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { dnsLabelMsg, dnsSubdomainMsg } from './messages.js';

function ep(subsets: EndpointSubset[] | undefined, name = 'web'): Endpoints {
  return { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: 'default' }, ...(subsets ? { subsets } : {}) };
}

const port = { port: 80, protocol: 'TCP' };

describe('validateEndpoints', () => {
  const rows: { name: string; ep: Endpoints; want: Want }[] = [
    { name: 'no subsets are valid', ep: ep(undefined), want: [] },
    { name: 'an address and a port are valid', ep: ep([{ addresses: [{ ip: '10.1.2.3', nodeName: 'n1', targetRef: { kind: 'Pod', name: 'p' } }], ports: [port] }]), want: [] },
    { name: 'a subset without ports is valid (headless)', ep: ep([{ addresses: [{ ip: '10.1.2.3' }] }]), want: [] },
    { name: 'the name must be a DNS subdomain', ep: ep(undefined, 'Web_1'), want: [['FieldValueInvalid', `metadata.name: Invalid value: "Web_1": ${dnsSubdomainMsg}`]] },
    { name: 'a subset needs addresses or notReadyAddresses', ep: ep([{ ports: [port] }]), want: [['FieldValueRequired', 'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`']] },
    {
      name: 'an address that is no IP: the legacy-field message and ValidateEndpointIP\'s',
      ep: ep([{ addresses: [{ ip: 'web-1' }], ports: [port] }]),
      want: [
        ['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "web-1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
        ['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "web-1": must be a valid IP address'],
      ],
    },
    { name: 'a loopback address is refused', ep: ep([{ addresses: [{ ip: '127.0.0.1' }] }]), want: [['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']] },
    { name: 'the IPv6 loopback is refused', ep: ep([{ addresses: [{ ip: '::1' }] }]), want: [['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)']] },
    { name: 'the unspecified address is refused', ep: ep([{ addresses: [{ ip: '0.0.0.0' }] }]), want: [['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']] },
    { name: 'a link-local address is refused', ep: ep([{ notReadyAddresses: [{ ip: '169.254.169.254' }] }]), want: [['FieldValueInvalid', 'subsets[0].notReadyAddresses[0].ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)']] },
    { name: 'an IPv6 link-local address is refused', ep: ep([{ addresses: [{ ip: 'fe80::1' }] }]), want: [['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)']] },
    { name: 'a link-local multicast address is refused', ep: ep([{ addresses: [{ ip: '224.0.0.10' }] }]), want: [['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "224.0.0.10": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']] },
    { name: 'a global IPv6 address is valid', ep: ep([{ addresses: [{ ip: '2001:db8::1' }] }]), want: [] },
    { name: 'the hostname must be a DNS label', ep: ep([{ addresses: [{ ip: '10.1.2.3', hostname: 'a.b' }] }]), want: [['FieldValueInvalid', `subsets[0].addresses[0].hostname: Invalid value: "a.b": must not contain dots`]] },
    { name: 'the nodeName must be a DNS subdomain', ep: ep([{ addresses: [{ ip: '10.1.2.3', nodeName: 'N_1' }] }]), want: [['FieldValueInvalid', `subsets[0].addresses[0].nodeName: Invalid value: "N_1": ${dnsSubdomainMsg}`]] },
    { name: 'with several ports each needs a name', ep: ep([{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { port: 81, protocol: 'TCP' }] }]), want: [['FieldValueRequired', 'subsets[0].ports[1].name: Required value']] },
    { name: 'a port name must be a DNS label', ep: ep([{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'Http', port: 80, protocol: 'TCP' }] }]), want: [['FieldValueInvalid', `subsets[0].ports[0].name: Invalid value: "Http": ${dnsLabelMsg}`]] },
    { name: 'the port number is 1-65535', ep: ep([{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 0, protocol: 'TCP' }] }]), want: [['FieldValueInvalid', 'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive']] },
    { name: 'the protocol is required', ep: ep([{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }]), want: [['FieldValueRequired', 'subsets[0].ports[0].protocol: Required value']] },
    { name: 'the protocol is TCP, UDP or SCTP', ep: ep([{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80, protocol: 'HTTP' }] }]), want: [['FieldValueNotSupported', 'subsets[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']] },
    {
      name: 'appProtocol is a qualified name',
      ep: ep([{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80, protocol: 'TCP', appProtocol: 'a b' }] }]),
      want: [['FieldValueInvalid', "subsets[0].ports[0].appProtocol: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateEndpoints(r.ep), r.want));

  test('an update checks the object as a create and keeps the metadata rules', () => {
    const old = { ...ep([{ addresses: [{ ip: '10.1.2.3' }] }]), metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '5' } };
    assertErrors(validateEndpointsUpdate({ ...old, subsets: [{ addresses: [{ ip: '127.0.0.2' }] }] }, old), [['FieldValueInvalid', 'subsets[0].addresses[0].ip: Invalid value: "127.0.0.2": may not be in the loopback range (127.0.0.0/8, ::1/128)']]);
    assertErrors(validateEndpointsUpdate({ ...old, metadata: { ...old.metadata, uid: 'u2' } }, old), [['FieldValueInvalid', 'metadata.uid: Invalid value: "u2": field is immutable']]);
  });
});

function slice(endpoints: SliceEndpoint[], ports?: SlicePort[], addressType = 'IPv4'): EndpointSlice {
  return { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abcde', namespace: 'default' }, addressType, endpoints, ...(ports ? { ports } : {}) };
}

describe('validateEndpointSlice', () => {
  const rows: { name: string; slice: EndpointSlice; want: Want }[] = [
    { name: 'an IPv4 endpoint with a port is valid', slice: slice([{ addresses: ['10.1.2.3'], conditions: { ready: true }, nodeName: 'n1', zone: 'z1' }], [{ name: 'http', protocol: 'TCP', port: 80 }]), want: [] },
    { name: 'no endpoints are valid (the placeholder)', slice: slice([]), want: [] },
    { name: 'addressType is required', slice: slice([], undefined, ''), want: [['FieldValueRequired', 'addressType: Required value']] },
    { name: 'addressType is IPv4, IPv6 or FQDN', slice: slice([], undefined, 'IP'), want: [['FieldValueNotSupported', 'addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']] },
    { name: 'an endpoint needs an address', slice: slice([{ addresses: [] }]), want: [['FieldValueRequired', 'endpoints[0].addresses: Required value: must contain at least 1 address']] },
    { name: 'at most 100 addresses an endpoint', slice: slice([{ addresses: Array.from({ length: 101 }, (_, i) => `10.0.${i >> 8}.${(i & 255) + 1}`) }]), want: [['FieldValueTooMany', 'endpoints[0].addresses: Too many: 101: must have at most 100 items']] },
    { name: 'an IPv4 slice takes IPv4 addresses only', slice: slice([{ addresses: ['2001:db8::1'] }]), want: [['FieldValueInvalid', 'endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address']] },
    { name: 'an IPv4 loopback address is refused', slice: slice([{ addresses: ['127.0.0.1'] }]), want: [['FieldValueInvalid', 'endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']] },
    { name: 'an IPv6 slice takes IPv6 addresses', slice: slice([{ addresses: ['2001:db8::1'] }], undefined, 'IPv6'), want: [] },
    { name: 'an FQDN slice takes domain names', slice: slice([{ addresses: ['web.example.com'] }], undefined, 'FQDN'), want: [] },
    { name: 'an FQDN needs two segments', slice: slice([{ addresses: ['web'] }], undefined, 'FQDN'), want: [['FieldValueInvalid', 'endpoints[0].addresses[0]: Invalid value: "web": should be a domain with at least two segments separated by dots']] },
    { name: 'nodeName must be a DNS subdomain', slice: slice([{ addresses: ['10.1.2.3'], nodeName: 'N_1' }]), want: [['FieldValueInvalid', `endpoints[0].nodeName: Invalid value: "N_1": ${dnsSubdomainMsg}`]] },
    { name: 'zone must be a DNS label', slice: slice([{ addresses: ['10.1.2.3'], zone: 'Z_1' }]), want: [['FieldValueInvalid', `endpoints[0].zone: Invalid value: "Z_1": ${dnsLabelMsg}`]] },
    { name: 'hostname must be a DNS label', slice: slice([{ addresses: ['10.1.2.3'], hostname: 'a.b' }]), want: [['FieldValueInvalid', `endpoints[0].hostname: Invalid value: "a.b": must not contain dots`]] },
    { name: 'zone hints may not repeat', slice: slice([{ addresses: ['10.1.2.3'], hints: { forZones: [{ name: 'a' }, { name: 'a' }] } }]), want: [['FieldValueDuplicate', 'endpoints[0].hints.forZones[1].name: Duplicate value: "a"']] },
    { name: 'port names may not repeat', slice: slice([], [{ name: 'http', protocol: 'TCP', port: 80 }, { name: 'http', protocol: 'TCP', port: 81 }]), want: [['FieldValueDuplicate', 'ports[1].name: Duplicate value: "http"']] },
    { name: 'a port name must be a DNS label', slice: slice([], [{ name: 'Http', protocol: 'TCP', port: 80 }]), want: [['FieldValueInvalid', `ports[0].name: Invalid value: "Http": ${dnsLabelMsg}`]] },
    { name: 'a port protocol is required', slice: slice([], [{ name: '', port: 80 }]), want: [['FieldValueRequired', 'ports[0].protocol: Required value']] },
    { name: 'a port protocol is TCP, UDP or SCTP', slice: slice([], [{ name: '', protocol: 'ICMP', port: 80 }]), want: [['FieldValueNotSupported', 'ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateEndpointSlice(r.slice), r.want));

  test('at most 1000 endpoints a slice', () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ addresses: [`10.1.${i >> 8}.${(i & 255) + 1}`] }));
    assertErrors(validateEndpointSlice(slice(many)), [['FieldValueTooMany', 'endpoints: Too many: 1001: must have at most 1000 items']]);
  });

  test('addressType is immutable', () => {
    const old = slice([]);
    assertErrors(validateEndpointSliceUpdate(slice([], undefined, 'IPv6'), old), [['FieldValueInvalid', 'addressType: Invalid value: "IPv6": field is immutable']]);
  });
});
