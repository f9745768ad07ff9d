// Endpoints and EndpointSlice validation: pkg/apis/core/validation ValidateEndpoints,
// ValidateEndpointsCreate/Update (validateEndpointSubsets, validateEndpointAddress,
// ValidateEndpointIP, validateEndpointPort) and pkg/apis/discovery/validation
// ValidateEndpointSlice, ValidateEndpointSliceCreate/Update (validateAddressType,
// validateEndpoints, validatePorts, validateHints), in upstream's order, paths and wording.

import { FieldPath, fieldError, type FieldError } from '../fielderrors.js';
import { isIPv6Address, parseIPv4 } from '../servicerange.js';
import type { EndpointAddress, EndpointPort, Endpoints, EndpointSlice, SliceEndpoint, SlicePort } from '../endpointstypes.js';
import { validateDNS1123Label } from './container.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPortNum, nameIsDNSSubdomain, validateIP } from './names.js';
import { fieldImmutableErrorMsg, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);

const portProtocols = ['SCTP', 'TCP', 'UDP'];
export const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const maxAddresses = 100;
const maxPorts = 20000;
export const maxEndpointsPerSlice = 1000;
const maxTopologyLabels = 16;
const maxZoneHints = 8;

/** The 16 bytes of an IPv6 address as net.ParseIP reads it (an IPv4 tail included). */
function ipv6Bytes(s: string): number[] {
  const expand = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const n = parseIPv4(g)!;
        out.push(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
      } else {
        const v = parseInt(g, 16);
        out.push(v >> 8, v & 255);
      }
    }
    return out;
  };
  const [head, tail] = s.split('::');
  const h = expand(head!);
  const t = tail === undefined ? [] : expand(tail);
  return [...h, ...new Array<number>(16 - h.length - t.length).fill(0), ...t];
}

/** ValidateEndpointIP: a parsable address outside the unspecified, loopback and link-local ranges. */
export function validateEndpointIP(ip: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  let v4 = parseIPv4(ip);
  let bytes: number[] | undefined;
  if (v4 === undefined) {
    if (!isIPv6Address(ip)) {
      errs.push(fieldError.invalid(path, ip, 'must be a valid IP address'));
      return errs;
    }
    bytes = ipv6Bytes(ip);
    // An IPv4-mapped address is the IPv4 address to Go's net.IP.
    if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) v4 = ((bytes[12]! << 24) | (bytes[13]! << 16) | (bytes[14]! << 8) | bytes[15]!) >>> 0;
  }
  const unspecified = v4 !== undefined ? v4 === 0 : bytes!.every((b) => b === 0);
  const loopback = v4 !== undefined ? v4 >>> 24 === 127 : bytes!.slice(0, 15).every((b) => b === 0) && bytes![15] === 1;
  const linkLocal = v4 !== undefined ? v4 >>> 16 === (169 << 8) + 254 : bytes![0] === 0xfe && (bytes![1]! & 0xc0) === 0x80;
  const linkLocalMulticast = v4 !== undefined ? v4 >>> 8 === 224 << 16 : bytes![0] === 0xff && (bytes![1]! & 0x0f) === 0x02;
  if (unspecified) errs.push(fieldError.invalid(path, ip, `may not be unspecified (${ip})`));
  if (loopback) errs.push(fieldError.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocal) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (linkLocalMulticast) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function validateNodeName(name: string, path: FieldPath, errs: FieldError[]): void {
  for (const m of nameIsDNSSubdomain(name, false)) errs.push(fieldError.invalid(path, name, m));
}

function validateEndpointAddress(a: EndpointAddress, path: FieldPath, errs: FieldError[]): void {
  const ip = str(a?.ip);
  validateIP(ip, path.child('ip'), errs);
  const hostname = str(a?.hostname);
  if (hostname.length > 0) validateDNS1123Label(hostname, path.child('hostname'), errs);
  if (a?.nodeName !== undefined && a.nodeName !== null) validateNodeName(str(a.nodeName), path.child('nodeName'), errs);
  validateEndpointIP(ip, path.child('ip'), errs);
}

function validateEndpointPort(p: EndpointPort, requireName: boolean, path: FieldPath, errs: FieldError[]): void {
  const name = str(p?.name);
  if (requireName && name.length === 0) errs.push(fieldError.required(path.child('name')));
  else if (name.length !== 0) validateDNS1123Label(name, path.child('name'), errs);
  const port = typeof p?.port === 'number' ? p.port : 0;
  for (const m of isValidPortNum(port)) errs.push(fieldError.invalid(path.child('port'), port, m));
  const protocol = str(p?.protocol);
  if (protocol.length === 0) errs.push(fieldError.required(path.child('protocol')));
  else if (!portProtocols.includes(protocol)) errs.push(fieldError.notSupported(path.child('protocol'), protocol, portProtocols));
  if (p?.appProtocol !== undefined && p.appProtocol !== null) {
    for (const m of isQualifiedName(str(p.appProtocol))) errs.push(fieldError.invalid(path.child('appProtocol'), p.appProtocol, m));
  }
}

/** ValidateEndpoints (create): metadata with a DNS-subdomain name, then every subset. */
export function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs = validateObjectMeta(ep?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const subsets = FieldPath.root('subsets');
  arr(ep?.subsets).forEach((ss, i) => {
    const path = subsets.index(i);
    const addresses = arr(ss?.addresses);
    const notReady = arr(ss?.notReadyAddresses);
    const ports = arr(ss?.ports);
    if (addresses.length === 0 && notReady.length === 0) errs.push(fieldError.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => validateEndpointAddress(a, path.child('addresses').index(j), errs));
    notReady.forEach((a, j) => validateEndpointAddress(a, path.child('notReadyAddresses').index(j), errs));
    ports.forEach((p, j) => validateEndpointPort(p, ports.length > 1, path.child('ports').index(j), errs));
  });
  return errs;
}

/** ValidateEndpointsUpdate: the metadata rules of an update, then the object as on create. */
export function validateEndpointsUpdate(ep: Endpoints, old: Endpoints): FieldError[] {
  return [...validateObjectMetaUpdate(ep?.metadata, old?.metadata), ...validateEndpoints(ep)];
}

/** IsFullyQualifiedDomainName. */
function validateFQDN(value: string, path: FieldPath, errs: FieldError[]): void {
  let name = value;
  if (name.length === 0) {
    errs.push(fieldError.required(path));
    return;
  }
  if (name.endsWith('.')) name = name.slice(0, -1);
  for (const m of isDNS1123Subdomain(name)) errs.push(fieldError.invalid(path, value, m));
  if (name.split('.').length < 2) {
    errs.push(fieldError.invalid(path, value, 'should be a domain with at least two segments separated by dots'));
    return;
  }
  for (const label of name.split('.')) for (const m of isDNS1123Label(label)) errs.push(fieldError.invalid(path, value, m));
}

function validateSliceAddress(address: string, addressType: string, path: FieldPath, errs: FieldError[]): void {
  switch (addressType) {
    case 'IPv4':
      // IsValidIPv4Address, then ValidateEndpointIP only for an address that parsed.
      if (parseIPv4(address) === undefined) errs.push(fieldError.invalid(path, address, 'must be a valid IPv4 address'));
      else validateEndpointIP(address, path, errs);
      break;
    case 'IPv6':
      if (!isIPv6Address(address)) errs.push(fieldError.invalid(path, address, 'must be a valid IPv6 address'));
      validateEndpointIP(address, path, errs);
      break;
    case 'FQDN':
      validateFQDN(address, path, errs);
      break;
  }
}

function validateSliceEndpoints(endpoints: SliceEndpoint[], addressType: string, errs: FieldError[]): void {
  const root = FieldPath.root('endpoints');
  if (endpoints.length > maxEndpointsPerSlice) {
    errs.push(fieldError.tooMany(root, endpoints.length, maxEndpointsPerSlice));
    return;
  }
  endpoints.forEach((e, i) => {
    const path = root.index(i);
    const addressPath = path.child('addresses');
    const addresses = arr(e?.addresses);
    if (addresses.length === 0) errs.push(fieldError.required(addressPath, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses) errs.push(fieldError.tooMany(addressPath, addresses.length, maxAddresses));
    addresses.forEach((a, j) => validateSliceAddress(str(a), addressType, addressPath.index(j), errs));
    if (e?.nodeName !== undefined && e.nodeName !== null) validateNodeName(str(e.nodeName), path.child('nodeName'), errs);
    const topologyPath = path.child('deprecatedTopology');
    const topology = e?.deprecatedTopology && typeof e.deprecatedTopology === 'object' ? e.deprecatedTopology : {};
    if (Object.keys(topology).length > maxTopologyLabels) errs.push(fieldError.tooMany(topologyPath, Object.keys(topology).length, maxTopologyLabels));
    validateLabels(topology, topologyPath, errs);
    if (e?.zone !== undefined && e.zone !== null) validateDNS1123Label(str(e.zone), path.child('zone'), errs);
    if (e?.hostname !== undefined && e.hostname !== null) validateDNS1123Label(str(e.hostname), path.child('hostname'), errs);
    if (e?.hints !== undefined && e.hints !== null) {
      const fz = path.child('hints').child('forZones');
      const zones = arr(e.hints.forZones);
      if (zones.length > maxZoneHints) {
        errs.push(fieldError.tooMany(fz, zones.length, maxZoneHints));
        return;
      }
      const seen = new Set<string>();
      zones.forEach((z, j) => {
        const zp = fz.index(j).child('name');
        const name = str(z?.name);
        if (seen.has(name)) errs.push(fieldError.duplicate(zp, name));
        else seen.add(name);
        for (const m of isValidLabelValue(name)) errs.push(fieldError.invalid(zp, name, m));
      });
    }
  });
}

function validateSlicePorts(ports: SlicePort[], errs: FieldError[]): void {
  const root = FieldPath.root('ports');
  if (ports.length > maxPorts) {
    errs.push(fieldError.tooMany(root, ports.length, maxPorts));
    return;
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = root.index(i);
    const name = str(p?.name);
    if (name.length > 0) validateDNS1123Label(name, path.child('name'), errs);
    if (names.has(name)) errs.push(fieldError.duplicate(path.child('name'), name));
    else names.add(name);
    if (p?.protocol === undefined || p.protocol === null) errs.push(fieldError.required(path.child('protocol')));
    else if (!portProtocols.includes(str(p.protocol))) errs.push(fieldError.notSupported(path.child('protocol'), p.protocol, portProtocols));
    if (p?.appProtocol !== undefined && p.appProtocol !== null) {
      for (const m of isQualifiedName(str(p.appProtocol))) errs.push(fieldError.invalid(path.child('appProtocol'), p.appProtocol, m));
    }
  });
}

/** ValidateEndpointSlice (create): metadata, addressType, endpoints, ports. */
export function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs = validateObjectMeta(slice?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const addressType = str(slice?.addressType);
  if (addressType.length === 0) errs.push(fieldError.required(FieldPath.root('addressType')));
  else if (!addressTypes.includes(addressType)) errs.push(fieldError.notSupported(FieldPath.root('addressType'), addressType, addressTypes));
  validateSliceEndpoints(arr(slice?.endpoints), addressType, errs);
  validateSlicePorts(arr(slice?.ports), errs);
  return errs;
}

/** ValidateEndpointSliceUpdate: the object as on create, the metadata rules of an update, and an unchanged addressType. */
export function validateEndpointSliceUpdate(slice: EndpointSlice, old: EndpointSlice): FieldError[] {
  const errs = validateEndpointSlice(slice);
  errs.push(...validateObjectMetaUpdate(slice?.metadata, old?.metadata));
  if (str(slice?.addressType) !== str(old?.addressType)) errs.push(fieldError.invalid(FieldPath.root('addressType'), str(slice?.addressType), fieldImmutableErrorMsg));
  return errs;
}
