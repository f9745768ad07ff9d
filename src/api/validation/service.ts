// Service validation (pkg/apis/core/validation validation.go: ValidateService,
// validateServicePort, ValidateServiceClusterIPsRelatedFields, validateClientIPAffinityConfig,
// the traffic policy checks, ValidateServiceUpdate with validateUpgradeDowngradeClusterIPs and
// …IPFamilies, ValidateServiceStatusUpdate), in upstream's order, paths and wording. Bad values
// print as Go's %#v would (`[]string{"10.96.0.1"}`, `core.ServicePort{…}`).

import { fieldError, FieldPath, GoSyntax, goQuote, type FieldError } from '../fielderrors.js';
import { externallyAccessible, maxClientIPServiceAffinitySeconds, needsHealthCheck } from '../servicedefaults.js';
import { isIPv6Address, parseIPv4 } from '../servicerange.js';
import type { Service, ServicePort, ServiceSpec } from '../servicetypes.js';
import { validateDNS1123Label } from './container.js';
import { goIntOrString, goStrings } from './gosyntax.js';
import { isDNS1123Subdomain, isQualifiedName, isSloppyIP, isValidPortNum, nameIsDNS1035Label, validIPMsg } from './names.js';
import { validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';
import { validatePortNumOrName } from './probes.js';

export const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const sessionAffinities = ['ClientIP', 'None'];
const portProtocols = ['SCTP', 'TCP', 'UDP'];
const ipFamilies = ['IPv4', 'IPv6'];
const ipFamilyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const trafficPolicies = ['Cluster', 'Local'];
export const clusterIPNone = 'None';

const spec = FieldPath.root('spec');
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** isHeadlessService: clusterIPs is exactly ["None"]. */
export function isHeadlessService(svc: Service): boolean {
  const ips = svc.spec?.clusterIPs;
  return Array.isArray(ips) && ips.length === 1 && ips[0] === clusterIPNone;
}

const isIPv6 = isIPv6Address;
const familiesValue = (xs: unknown) => new GoSyntax(Array.isArray(xs) ? `[]core.IPFamily{${xs.map((x) => goQuote(String(x))).join(', ')}}` : '[]core.IPFamily(nil)');
const ipsValue = (xs: unknown) => new GoSyntax(goStrings(Array.isArray(xs) ? xs : undefined));

/** ValidateNonSpecialIP for IPv4 (the ranges a service's external IP may not be in). */
function validateNonSpecialIP(ip: string, path: FieldPath, errs: FieldError[]): void {
  const n = parseIPv4(ip);
  if (n === undefined) {
    if (ip === '::') errs.push(fieldError.invalid(path, ip, `may not be unspecified (${ip})`));
    else if (ip === '::1') errs.push(fieldError.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
    else if (/^fe[89ab]/i.test(ip)) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
    else if (/^ff02:/i.test(ip)) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
    return;
  }
  if (n === 0) errs.push(fieldError.invalid(path, ip, `may not be unspecified (${ip})`));
  if (n >>> 24 === 127) errs.push(fieldError.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (n >>> 16 === (169 << 8) + 254) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (n >>> 8 === 224 << 16) errs.push(fieldError.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
}

/** IsValidCIDR (the loadBalancerSourceRanges entries). */
function validateCIDR(path: FieldPath, value: string, errs: FieldError[]): void {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(value);
  const ok = m && ((parseIPv4(m[1]!) !== undefined && Number(m[2]) <= 32) || (isIPv6(m[1]!) && Number(m[2]) <= 128));
  if (!ok) errs.push(fieldError.invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
}

function servicePortValue(p: ServicePort, key: { protocol: string; port: number }): GoSyntax {
  void p;
  return new GoSyntax(
    `core.ServicePort{Name:"", Protocol:${goQuote(key.protocol)}, AppProtocol:(*string)(nil), Port:${key.port}, TargetPort:${goIntOrString(undefined)}, NodePort:0}`,
  );
}

function validateServicePort(sp: ServicePort, requireName: boolean, names: Set<string>, path: FieldPath, errs: FieldError[]): void {
  const name = str(sp.name);
  if (requireName && name.length === 0) errs.push(fieldError.required(path.child('name')));
  else if (name.length !== 0) {
    validateDNS1123Label(name, path.child('name'), errs);
    if (names.has(name)) errs.push(fieldError.duplicate(path.child('name'), name));
    else names.add(name);
  }
  const port = typeof sp.port === 'number' ? sp.port : 0;
  for (const m of isValidPortNum(port)) errs.push(fieldError.invalid(path.child('port'), port, m));
  const protocol = str(sp.protocol);
  if (protocol.length === 0) errs.push(fieldError.required(path.child('protocol')));
  else if (!portProtocols.includes(protocol)) errs.push(fieldError.notSupported(path.child('protocol'), protocol, portProtocols));
  validatePortNumOrName(sp.targetPort, path.child('targetPort'), errs);
  if (sp.appProtocol !== undefined && sp.appProtocol !== null) {
    for (const m of isQualifiedName(str(sp.appProtocol))) errs.push(fieldError.invalid(path.child('appProtocol'), sp.appProtocol, m));
  }
}

/** ValidateServiceClusterIPsRelatedFields (also run by the allocator before it allocates). */
export function validateServiceClusterIPsRelatedFields(svc: Service): FieldError[] {
  const s = svc.spec ?? {};
  if (s.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  let hasInvalidIPs = false;
  const clusterIPsField = spec.child('clusterIPs');
  const clusterIP = str(s.clusterIP);
  const clusterIPs = Array.isArray(s.clusterIPs) ? s.clusterIPs.map(str) : [];
  if (clusterIP.length !== 0) {
    if (clusterIPs.length === 0) errs.push(fieldError.required(clusterIPsField));
    else if (clusterIPs[0] !== clusterIP) errs.push(fieldError.invalid(clusterIPsField, ipsValue(clusterIPs), 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(fieldError.invalid(clusterIPsField, ipsValue(clusterIPs), 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (Array.isArray(s.ipFamilies) ? s.ipFamilies : []).forEach((f, i) => {
    if (!ipFamilies.includes(f)) errs.push(fieldError.notSupported(spec.child('ipFamilies').index(i), f, ipFamilies));
    if (seen.has(f)) errs.push(fieldError.duplicate(spec.child('ipFamilies').index(i), f));
    seen.add(f);
  });
  if (s.ipFamilyPolicy !== undefined && s.ipFamilyPolicy !== null && !ipFamilyPolicies.includes(s.ipFamilyPolicy)) {
    errs.push(fieldError.notSupported(spec.child('ipFamilyPolicy'), s.ipFamilyPolicy, ipFamilyPolicies));
  }
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === clusterIPNone) {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(fieldError.invalid(clusterIPsField, ipsValue(clusterIPs), "'None' must be the first and only value"));
      }
      return;
    }
    if (!isSloppyIP(ip)) {
      hasInvalidIPs = true;
      errs.push(fieldError.invalid(clusterIPsField.index(i), ip, validIPMsg));
    }
  });
  if (clusterIPs.length > 2) errs.push(fieldError.invalid(clusterIPsField, ipsValue(clusterIPs), 'may only hold up to 2 values'));
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1) {
    const dualStack = clusterIPs.length === 2 && isIPv6(clusterIPs[0]!) !== isIPv6(clusterIPs[1]!);
    if (!dualStack) errs.push(fieldError.invalid(clusterIPsField, ipsValue(clusterIPs), 'may specify no more than one IP for each IP family'));
  }
  const families = Array.isArray(s.ipFamilies) ? s.ipFamilies : [];
  if (!isHeadlessService(svc) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6(ip)) errs.push(fieldError.invalid(clusterIPsField.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6(ip)) errs.push(fieldError.invalid(clusterIPsField.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

function validateClientIPAffinityConfig(cfg: ServiceSpec['sessionAffinityConfig'], path: FieldPath, errs: FieldError[]): void {
  const why = 'when session affinity type is ClientIP';
  if (!cfg) {
    errs.push(fieldError.required(path, why));
    return;
  }
  if (!cfg.clientIP) {
    errs.push(fieldError.required(path.child('clientIP'), why));
    return;
  }
  const t = cfg.clientIP.timeoutSeconds;
  if (typeof t !== 'number') errs.push(fieldError.required(path.child('clientIP', 'timeoutSeconds'), why));
  else if (t <= 0 || t > maxClientIPServiceAffinitySeconds) {
    errs.push(fieldError.invalid(path.child('clientIP', 'timeoutSeconds'), t, `must be greater than 0 and less than ${maxClientIPServiceAffinitySeconds}`));
  }
}

function validateLoadBalancerClass(old: Service | undefined, svc: Service, errs: FieldError[]): void {
  const path = spec.child('loadBalancerClass');
  const cls = svc.spec?.loadBalancerClass;
  if (old && old.spec?.type === 'LoadBalancer' && svc.spec?.type === 'LoadBalancer' && (old.spec.loadBalancerClass ?? null) !== (cls ?? null)) {
    errs.push(fieldError.invalid(path, cls ?? null, 'may not change once set'));
  }
  if (cls !== undefined && cls !== null) {
    if (svc.spec?.type !== 'LoadBalancer') errs.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    else for (const m of isQualifiedName(cls)) errs.push(fieldError.invalid(path, cls, m));
  }
}

function validateTrafficPolicies(svc: Service, errs: FieldError[]): void {
  const s = svc.spec ?? {};
  if (!externallyAccessible(svc)) {
    if (s.externalTrafficPolicy) errs.push(fieldError.invalid(spec.child('externalTrafficPolicy'), s.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else if (!s.externalTrafficPolicy) errs.push(fieldError.required(spec.child('externalTrafficPolicy')));
  else if (!trafficPolicies.includes(s.externalTrafficPolicy)) errs.push(fieldError.notSupported(spec.child('externalTrafficPolicy'), s.externalTrafficPolicy, trafficPolicies));
  const hc = typeof s.healthCheckNodePort === 'number' ? s.healthCheckNodePort : 0;
  if (!needsHealthCheck(svc)) {
    if (hc !== 0) errs.push(fieldError.invalid(spec.child('healthCheckNodePort'), hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) errs.push(fieldError.required(spec.child('healthCheckNodePort')));
  else for (const m of isValidPortNum(hc)) errs.push(fieldError.invalid(spec.child('healthCheckNodePort'), hc, m));
  if (s.internalTrafficPolicy === undefined || s.internalTrafficPolicy === null) {
    if (s.type === 'NodePort' || s.type === 'LoadBalancer' || s.type === 'ClusterIP') errs.push(fieldError.required(spec.child('internalTrafficPolicy')));
  } else if (!trafficPolicies.includes(s.internalTrafficPolicy)) {
    errs.push(fieldError.notSupported(spec.child('internalTrafficPolicy'), s.internalTrafficPolicy, trafficPolicies));
  }
  if (s.trafficDistribution !== undefined && s.trafficDistribution !== null && s.trafficDistribution !== 'PreferClose') {
    errs.push(fieldError.notSupported(spec.child('trafficDistribution'), s.trafficDistribution, ['PreferClose']));
  }
}

/** ValidateService. */
export function validateService(svc: Service): FieldError[] {
  const errs = validateObjectMeta(svc.metadata, { namespaced: true, nameFn: nameIsDNS1035Label });
  const s = svc.spec ?? {};
  const ports = Array.isArray(s.ports) ? s.ports : [];
  const clusterIPs = Array.isArray(s.clusterIPs) ? s.clusterIPs : [];
  if (ports.length === 0 && !isHeadlessService(svc) && s.type !== 'ExternalName') errs.push(fieldError.required(spec.child('ports')));
  switch (s.type) {
    case 'LoadBalancer':
      if (isHeadlessService(svc)) errs.push(fieldError.invalid(spec.child('clusterIPs').index(0), clusterIPs[0], "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (isHeadlessService(svc)) errs.push(fieldError.invalid(spec.child('clusterIPs').index(0), clusterIPs[0], "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if (clusterIPs.length > 0) errs.push(fieldError.forbidden(spec.child('clusterIPs'), 'may not be set for ExternalName services'));
      if (Array.isArray(s.ipFamilies) && s.ipFamilies.length > 0) errs.push(fieldError.forbidden(spec.child('ipFamilies'), 'may not be set for ExternalName services'));
      if (s.ipFamilyPolicy !== undefined && s.ipFamilyPolicy !== null) errs.push(fieldError.forbidden(spec.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      const cname = str(s.externalName).replace(/\.$/, '');
      if (cname.length > 0) for (const m of isDNS1123Subdomain(cname)) errs.push(fieldError.invalid(spec.child('externalName'), cname, m));
      else errs.push(fieldError.required(spec.child('externalName')));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((p, i) => validateServicePort(p ?? ({} as ServicePort), ports.length > 1, names, spec.child('ports').index(i), errs));
  if (s.selector !== undefined && s.selector !== null) validateLabels(s.selector, spec.child('selector'), errs);
  const affinity = str(s.sessionAffinity);
  if (affinity.length === 0) errs.push(fieldError.required(spec.child('sessionAffinity')));
  else if (!sessionAffinities.includes(affinity)) errs.push(fieldError.notSupported(spec.child('sessionAffinity'), affinity, sessionAffinities));
  if (affinity === 'ClientIP') validateClientIPAffinityConfig(s.sessionAffinityConfig, spec.child('sessionAffinityConfig'), errs);
  else if (affinity === 'None' && s.sessionAffinityConfig) errs.push(fieldError.forbidden(spec.child('sessionAffinityConfig'), 'must not be set when session affinity is None'));
  errs.push(...validateServiceClusterIPsRelatedFields(svc));
  (Array.isArray(s.externalIPs) ? s.externalIPs : []).forEach((ip, i) => {
    const path = spec.child('externalIPs').index(i);
    if (!isSloppyIP(str(ip))) errs.push(fieldError.invalid(path, ip, validIPMsg));
    else validateNonSpecialIP(ip, path, errs);
  });
  const type = str(s.type);
  if (type.length === 0) errs.push(fieldError.required(spec.child('type')));
  else if (!serviceTypes.includes(type)) errs.push(fieldError.notSupported(spec.child('type'), type, serviceTypes));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p?.nodePort) errs.push(fieldError.forbidden(spec.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p?.nodePort) return;
    const key = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(fieldError.duplicate(spec.child('ports').index(i).child('nodePort'), p.nodePort));
    nodePorts.add(key);
  });
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const key = { protocol: str(p?.protocol), port: typeof p?.port === 'number' ? p.port : 0 };
    const k = `${key.protocol}/${key.port}`;
    if (portKeys.has(k)) errs.push(fieldError.duplicate(spec.child('ports').index(i), servicePortValue(p, key)));
    portKeys.add(k);
  });
  const ranges = Array.isArray(s.loadBalancerSourceRanges) ? s.loadBalancerSourceRanges : [];
  if (ranges.length > 0) {
    const path = spec.child('LoadBalancerSourceRanges');
    if (type !== 'LoadBalancer') errs.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => validateCIDR(path.index(i), str(r).trim(), errs));
  } else {
    const key = 'service.beta.kubernetes.io/load-balancer-source-ranges';
    const val = svc.metadata?.annotations?.[key];
    if (val !== undefined) {
      const path = FieldPath.root('metadata').child('annotations').key(key);
      if (type !== 'LoadBalancer') errs.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
      if (val.trim() !== '') for (const r of val.trim().split(',')) validateCIDR(path, r.trim(), errs);
    }
  }
  if (s.allocateLoadBalancerNodePorts !== undefined && s.allocateLoadBalancerNodePorts !== null && type !== 'LoadBalancer') {
    errs.push(fieldError.forbidden(spec.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  }
  // Upstream's path, without `spec.`.
  if (type === 'LoadBalancer' && (s.allocateLoadBalancerNodePorts === undefined || s.allocateLoadBalancerNodePorts === null)) errs.push(fieldError.required('allocateLoadBalancerNodePorts'));
  validateLoadBalancerClass(undefined, svc, errs);
  validateTrafficPolicies(svc, errs);
  return errs;
}

function upgradeDowngradeClusterIPs(old: Service, svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  if (svc.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return errs;
  if (isHeadlessService(old) && isHeadlessService(svc)) return errs;
  const before = old.spec?.clusterIPs ?? [];
  const after = svc.spec?.clusterIPs ?? [];
  const path = spec.child('clusterIPs');
  if (before.length === after.length) {
    before.forEach((ip, i) => {
      if (ip !== after[i]) errs.push(fieldError.invalid(path.index(i), ipsValue(after), 'may not change once set'));
    });
  } else if (before.length > after.length) {
    if (after.length === 0) errs.push(fieldError.invalid(path.index(0), ipsValue(after), 'primary clusterIP can not be unset'));
    if (before.length > 0 && after.length > 0 && after[0] !== before[0]) errs.push(fieldError.invalid(path.index(0), ipsValue(after), 'may not change once set'));
    if (after.length === 1 && svc.spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldError.invalid(spec.child('ipFamilyPolicy'), svc.spec?.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (before.length > 0 && after[0] !== before[0]) {
    errs.push(fieldError.invalid(path.index(0), ipsValue(after), 'may not change once set'));
  }
  return errs;
}

function upgradeDowngradeIPFamilies(old: Service, svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  if (svc.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return errs;
  if (isHeadlessService(old) !== isHeadlessService(svc) || isHeadlessService(svc)) return errs;
  const before = old.spec?.ipFamilies ?? [];
  const after = svc.spec?.ipFamilies ?? [];
  const path = spec.child('ipFamilies').index(0);
  if (before.length === after.length) {
    before.forEach((f, i) => {
      if (f !== after[i]) errs.push(fieldError.invalid(path, familiesValue(after), 'may not change once set'));
    });
  } else if (before.length > after.length) {
    if ((svc.spec?.clusterIPs ?? []).length === 0) errs.push(fieldError.invalid(path, familiesValue(after), 'primary ipFamily can not be unset'));
    if (after.length > 0 && after[0] !== before[0]) errs.push(fieldError.invalid(path, ipsValue(svc.spec?.clusterIPs), 'may not change once set'));
    if (after.length === 1 && svc.spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldError.invalid(spec.child('ipFamilyPolicy'), svc.spec?.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (before.length > 0 && after.length > 0 && after[0] !== before[0]) {
    errs.push(fieldError.invalid(path, ipsValue(svc.spec?.clusterIPs), 'may not change once set'));
  }
  return errs;
}

/** ValidateServiceUpdate. */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  errs.push(...upgradeDowngradeClusterIPs(old, svc));
  errs.push(...upgradeDowngradeIPFamilies(old, svc));
  const lb: FieldError[] = [];
  if (old.spec?.type === 'LoadBalancer' && svc.spec?.type === 'LoadBalancer' && (old.spec.loadBalancerClass ?? null) !== (svc.spec.loadBalancerClass ?? null)) {
    lb.push(fieldError.invalid(spec.child('loadBalancerClass'), svc.spec.loadBalancerClass ?? null, 'may not change once set'));
  }
  errs.push(...lb);
  if (needsHealthCheck(old) && needsHealthCheck(svc) && svc.spec?.healthCheckNodePort !== old.spec?.healthCheckNodePort) {
    errs.push(fieldError.forbidden(spec.child('healthCheckNodePort'), 'field is immutable'));
  }
  errs.push(...validateService(svc));
  return errs;
}

/** ValidateServiceStatusUpdate: metadata as on update, and the load balancer's ingress points. */
export function validateServiceStatusUpdate(svc: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  const ingress = svc.status?.loadBalancer?.ingress;
  (Array.isArray(ingress) ? ingress : []).forEach((ing, i) => {
    const path = FieldPath.root('status').child('loadBalancer', 'ingress').index(i);
    if (ing?.ip && !isSloppyIP(ing.ip)) errs.push(fieldError.invalid(path.child('ip'), ing.ip, 'must be a valid IP address'));
    if (ing?.hostname) {
      for (const m of isDNS1123Subdomain(ing.hostname)) errs.push(fieldError.invalid(path.child('hostname'), ing.hostname, m));
      if (isSloppyIP(ing.hostname)) errs.push(fieldError.invalid(path.child('hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
