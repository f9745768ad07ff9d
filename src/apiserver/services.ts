// core/v1 Service in the API server (pkg/registry/core/service strategy.go and storage/storage.go,
// alloc.go): defaulting, the type-dependent fields an update drops, the allocated values an
// update keeps (patchAllocatedValues), clusterIP/clusterIPs kept in step (normalizeClusterIPs),
// the IP family fields of a single-stack IPv4 cluster (initIPFamilyFields), cluster IP and node
// port allocation (claims in the store: serviceallocations.ts), validation, and the quota
// charge of the service evaluator, in upstream's order: allocation errors come before field
// validation, quota last. No traffic is routed: there is no kube-proxy.

import { fieldError, GoSyntax, type FieldError } from '../api/fielderrors.js';
import { defaultService, needsHealthCheck } from '../api/servicedefaults.js';
import {
  formatIPv4,
  ipAllocatedMessage,
  ipNotInRangeMessage,
  kubernetesServiceIP,
  parseIPv4,
  portAllocatedMessage,
  portNotInRangeMessage,
  rangeFullMessage,
  type NodePortRange,
  type ServiceIPRange,
} from '../api/servicerange.js';
import type { Service, ServicePort } from '../api/servicetypes.js';
import { goStrings } from '../api/validation/gosyntax.js';
import { clusterIPNone, validateService, validateServiceClusterIPsRelatedFields, validateServiceStatusUpdate, validateServiceUpdate } from '../api/validation/index.js';
import { decideServiceQuota } from '../quota/services.js';
import { chargeQuotas } from './configstrategies.js';
import type { Api, CreateBatch, RequestInfo, Strategy } from './rest.js';
import { heldPorts, ServiceClaims } from './serviceallocations.js';
import { statusErrors, StatusError } from './status.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export interface ServiceRanges {
  ip: ServiceIPRange;
  nodePorts: NodePortRange;
}

const invalid = (name: string, errs: FieldError[]): StatusError => statusErrors.invalid('Service', '', name, errs);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const needsClusterIP = (s: Service) => s.spec?.type !== 'ExternalName';
const needsNodePort = (s: Service) => s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer';
const shouldAllocateNodePorts = (s: Service) => s.spec?.type === 'NodePort' || (s.spec?.type === 'LoadBalancer' && s.spec.allocateLoadBalancerNodePorts !== false);
const isIPv6 = (ip: string) => ip.includes(':');

/** dropTypeDependentFields: what a change of type makes meaningless goes, unless the user changed it too. */
function dropTypeDependentFields(svc: Service, old: Service): void {
  const s = svc.spec!;
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (same(s.clusterIPs, old.spec?.clusterIPs)) {
      delete s.clusterIP;
      delete s.clusterIPs;
    }
    if (same(s.ipFamilies, old.spec?.ipFamilies)) delete s.ipFamilies;
    if (same(s.ipFamilyPolicy, old.spec?.ipFamilyPolicy)) delete s.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(svc)) {
    const nodePorts = (x: Service) => (x.spec?.ports ?? []).map((p) => p?.nodePort ?? 0);
    if (same(nodePorts(svc), nodePorts(old))) for (const p of s.ports ?? []) if (p) delete p.nodePort;
    if (needsHealthCheck(old) && (s.healthCheckNodePort ?? 0) === (old.spec?.healthCheckNodePort ?? 0)) delete s.healthCheckNodePort;
  }
  if (old.spec?.type === 'LoadBalancer' && s.type !== 'LoadBalancer') {
    if (s.allocateLoadBalancerNodePorts !== undefined && old.spec.allocateLoadBalancerNodePorts !== undefined && s.allocateLoadBalancerNodePorts === old.spec.allocateLoadBalancerNodePorts) delete s.allocateLoadBalancerNodePorts;
    if (same(s.loadBalancerClass, old.spec.loadBalancerClass)) delete s.loadBalancerClass;
  }
  const accessible = (x: Service) => x.spec?.type === 'LoadBalancer' || x.spec?.type === 'NodePort' || (x.spec?.type === 'ClusterIP' && (x.spec.externalIPs?.length ?? 0) > 0);
  if (accessible(old) && !accessible(svc) && same(s.externalTrafficPolicy, old.spec?.externalTrafficPolicy)) delete s.externalTrafficPolicy;
}

/** patchAllocatedValues: values the client left out of an update keep what was allocated. */
function patchAllocatedValues(svc: Service, old: Service): void {
  const s = svc.spec!;
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (!s.clusterIP && old.spec?.clusterIP) s.clusterIP = old.spec.clusterIP;
    if ((s.clusterIPs ?? []).length === 0 && (old.spec?.clusterIPs ?? []).length > 0) s.clusterIPs = [...old.spec!.clusterIPs!];
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const used = (x: Service) => new Set((x.spec?.ports ?? []).map((p) => p?.nodePort ?? 0).filter((n) => n !== 0));
    const newUsed = used(svc);
    const inBoth = new Set([...used(old)].filter((n) => newUsed.has(n)));
    const byName = new Map((old.spec?.ports ?? []).map((p) => [p?.name ?? '', p?.nodePort ?? 0]));
    for (const p of s.ports ?? []) {
      if (!p || p.nodePort) continue;
      const prev = byName.get(p.name ?? '') ?? 0;
      if (prev !== 0 && !inBoth.has(prev)) p.nodePort = prev;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(svc) && !s.healthCheckNodePort) s.healthCheckNodePort = old.spec?.healthCheckNodePort;
}

/** normalizeClusterIPs: clusterIPs follows clusterIP for clients that only know the singular field. */
function normalizeClusterIPs(svc: Service, old: Service | undefined): void {
  const s = svc.spec!;
  if (!old) {
    if (s.clusterIP && (s.clusterIPs ?? []).length === 0) s.clusterIPs = [s.clusterIP];
    return;
  }
  const o = old.spec ?? {};
  if ((o.clusterIPs ?? []).length > 0 && (s.clusterIPs ?? []).length === 0 && (o.clusterIP ?? '') === (s.clusterIP ?? '')) s.clusterIPs = o.clusterIPs;
  if ((o.clusterIP ?? '') !== (s.clusterIP ?? '')) {
    const sameIPs = same(o.clusterIPs, s.clusterIPs);
    if (o.clusterIP && !s.clusterIP) {
      if (sameIPs) delete s.clusterIPs;
    } else if (sameIPs) s.clusterIPs = [s.clusterIP ?? ''];
  }
}

const policyValue = (svc: Service) => svc.spec?.ipFamilyPolicy ?? null;

/** initIPFamilyFields on a cluster whose one service IP family is IPv4. */
function initIPFamilyFields(svc: Service, old: Service | undefined): void {
  const s = svc.spec!;
  if (s.type === 'ExternalName') return;
  const o = old?.spec;
  if (o && o.ipFamilyPolicy === 'PreferDualStack' && s.ipFamilyPolicy === 'PreferDualStack' && same(o.clusterIPs, s.clusterIPs) && same(o.ipFamilies, s.ipFamilies)) return;
  if (!s.ipFamilyPolicy) {
    if (o?.ipFamilyPolicy) s.ipFamilyPolicy = o.ipFamilyPolicy;
    else if (s.clusterIP === clusterIPNone && Object.keys(s.selector ?? {}).length === 0) s.ipFamilyPolicy = 'RequireDualStack';
    else s.ipFamilyPolicy = 'SingleStack';
  }
  const pre = validateServiceClusterIPsRelatedFields(svc);
  if (pre.length > 0) throw invalid(svc.metadata?.name ?? '', pre);
  const errs: FieldError[] = [];
  const ips = s.clusterIPs ?? [];
  const families = s.ipFamilies ?? [];
  if (o) {
    if (s.ipFamilyPolicy === 'SingleStack') {
      if (same(o.clusterIPs, s.clusterIPs) && ips.length > 1) s.clusterIPs = ips.slice(0, 1);
      if (same(o.ipFamilies, s.ipFamilies) && families.length > 1) s.ipFamilies = families.slice(0, 1);
    } else {
      if ((s.clusterIPs ?? []).length < (o.clusterIPs ?? []).length) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policyValue(svc), "must be 'SingleStack' to release the secondary cluster IP"));
      if ((s.ipFamilies ?? []).length < (o.ipFamilies ?? []).length) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policyValue(svc), "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (s.ipFamilyPolicy === 'SingleStack') {
    if ((s.clusterIPs ?? []).length === 2) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policyValue(svc), "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if ((s.ipFamilies ?? []).length === 2) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policyValue(svc), "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  (s.clusterIPs ?? []).some((ip, i) => {
    if (ip === clusterIPNone) return true;
    const fam = isIPv6(ip) ? 'IPv6' : 'IPv4';
    if (i >= (s.ipFamilies ?? []).length) {
      if (fam === 'IPv6') errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, new GoSyntax(goStrings(s.clusterIPs)), 'IPv6 is not configured on this cluster'));
      else s.ipFamilies = [...(s.ipFamilies ?? []), fam];
    }
    return false;
  });
  if (errs.length > 0) throw invalid(svc.metadata?.name ?? '', errs);
  if (s.clusterIP === clusterIPNone && Object.keys(s.selector ?? {}).length === 0) {
    if ((s.ipFamilies ?? []).length === 0) s.ipFamilies = ['IPv4'];
    if (s.ipFamilies!.length < 2 && s.ipFamilyPolicy !== 'SingleStack') s.ipFamilies = [...s.ipFamilies!, s.ipFamilies![0] === 'IPv4' ? 'IPv6' : 'IPv4'];
    return;
  }
  if (s.ipFamilyPolicy === 'RequireDualStack') errs.push(fieldError.invalid('spec.ipFamilyPolicy', policyValue(svc), 'this cluster is not configured for dual-stack services'));
  (s.ipFamilies ?? []).forEach((f, i) => {
    if (f !== 'IPv4') errs.push(fieldError.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  if (errs.length > 0) throw invalid(svc.metadata?.name ?? '', errs);
  if ((s.ipFamilies ?? []).length === 0) s.ipFamilies = ['IPv4'];
}

/** allocClusterIPs: the requested address claimed, or the next free one. */
async function allocClusterIPs(svc: Service, claims: ServiceClaims, range: ServiceIPRange): Promise<void> {
  const s = svc.spec!;
  if (s.type === 'ExternalName' || s.clusterIPs?.[0] === clusterIPNone) return;
  const ips = [...(s.clusterIPs ?? [])];
  (s.ipFamilies ?? []).forEach((_f, i) => {
    if (i > ips.length - 1) ips.push('');
  });
  // Only IPv4 gets this far (initIPFamilyFields refused IPv6).
  const i = (s.ipFamilies ?? []).indexOf('IPv4');
  if (i < 0) return;
  const requested = ips[i]!;
  if (requested === '') {
    const ip = await claims.nextIP(range);
    if (ip === undefined) throw statusErrors.internal(`failed to allocate a serviceIP: ${rangeFullMessage}`);
    ips[i] = ip;
  } else {
    const r = await claims.claimIP(range, requested);
    if (r !== 'ok') {
      const n = parseIPv4(requested);
      const why = r === 'allocated' ? ipAllocatedMessage : ipNotInRangeMessage(n === undefined ? requested : formatIPv4(n), range);
      throw invalid(svc.metadata?.name ?? '', [fieldError.invalid('spec.clusterIPs', new GoSyntax(goStrings(s.clusterIPs ?? [])), `failed to allocate IP ${requested}: ${why}`)]);
    }
  }
  s.clusterIPs = ips;
  if (i === 0) s.clusterIP = ips[0];
}

function portError(svc: Service, i: number, port: number, r: 'allocated' | 'not-in-range', range: NodePortRange): StatusError {
  const why = r === 'allocated' ? portAllocatedMessage : portNotInRangeMessage(range);
  return invalid(svc.metadata?.name ?? '', [fieldError.invalid(`spec.ports[${i}].nodePort`, port, why)]);
}

async function nextPort(claims: ServiceClaims, range: NodePortRange): Promise<number> {
  const p = await claims.nextPort(range);
  if (p === undefined) throw statusErrors.internal(`failed to allocate a nodePort: ${rangeFullMessage}`);
  return p;
}

/** initNodePorts: a service port's requested node port claimed, or one allocated (shared by the ports of one port number). */
async function initNodePorts(svc: Service, claims: ServiceClaims, range: NodePortRange): Promise<void> {
  const ports: ServicePort[] = svc.spec!.ports ?? [];
  const byPort = new Map<number, number>();
  for (const [i, sp] of ports.entries()) {
    if (!sp || (!sp.nodePort && !shouldAllocateNodePorts(svc))) continue;
    const allocated = byPort.get(sp.port) ?? 0;
    if (allocated === 0) {
      const np = ports.find((p) => p?.port === sp.port && p.nodePort)?.nodePort ?? 0;
      if (np !== 0) {
        const r = await claims.claimPort(range, np);
        if (r !== 'ok') throw portError(svc, i, np, r, range);
        sp.nodePort = np;
      } else sp.nodePort = await nextPort(claims, range);
      byPort.set(sp.port, sp.nodePort);
    } else if (sp.nodePort !== allocated) {
      if (!sp.nodePort) sp.nodePort = allocated;
      else {
        const r = await claims.claimPort(range, sp.nodePort);
        if (r !== 'ok') throw portError(svc, i, sp.nodePort, r, range);
      }
    }
  }
}

/** updateNodePorts: new node ports claimed, missing ones allocated; the dropped ones are released by the write. */
async function updateNodePorts(svc: Service, old: Service, claims: ServiceClaims, range: NodePortRange): Promise<void> {
  const before = new Set((old.spec?.ports ?? []).map((p) => p?.nodePort ?? 0).filter((n) => n !== 0));
  const claimed = new Set<number>();
  for (const [i, sp] of (svc.spec!.ports ?? []).entries()) {
    if (!sp || (!sp.nodePort && !shouldAllocateNodePorts(svc))) continue;
    if (sp.nodePort) {
      if (before.has(sp.nodePort) || claimed.has(sp.nodePort)) continue;
      const r = await claims.claimPort(range, sp.nodePort);
      if (r !== 'ok') throw portError(svc, i, sp.nodePort, r, range);
      claimed.add(sp.nodePort);
    } else sp.nodePort = await nextPort(claims, range);
  }
}

/** allocHealthCheckNodePort for a LoadBalancer with externalTrafficPolicy Local. */
async function allocHealthCheckNodePort(svc: Service, claims: ServiceClaims, range: NodePortRange): Promise<void> {
  const s = svc.spec!;
  if (s.healthCheckNodePort) {
    const r = await claims.claimPort(range, s.healthCheckNodePort);
    if (r !== 'ok') throw statusErrors.internal(`failed to allocate requested HealthCheck NodePort ${s.healthCheckNodePort}: ${r === 'allocated' ? portAllocatedMessage : portNotInRangeMessage(range)}`);
    return;
  }
  const p = await claims.nextPort(range);
  if (p === undefined) throw statusErrors.internal(`failed to allocate a HealthCheck NodePort 0: ${rangeFullMessage}`);
  s.healthCheckNodePort = p;
}

function claimsFor(api: Api, svc: Service, batch?: CreateBatch): ServiceClaims {
  return new ServiceClaims(api, { namespace: svc.metadata?.namespace ?? '', name: svc.metadata?.name ?? '', uid: svc.metadata?.uid ?? '' }, batch);
}

export function serviceStrategy(ranges: ServiceRanges): Strategy {
  return {
    serializeCreatesPerNamespace: true,
    async create(obj, _req: RequestInfo, api, batch, track) {
      const svc = defaultService(obj as Service);
      track?.(svc);
      svc.status = { loadBalancer: {} };
      normalizeClusterIPs(svc, undefined);
      initIPFamilyFields(svc, undefined);
      const claims = claimsFor(api, svc, batch);
      await allocClusterIPs(svc, claims, ranges.ip);
      if (needsNodePort(svc)) await initNodePorts(svc, claims, ranges.nodePorts);
      if (needsHealthCheck(svc)) await allocHealthCheckNodePort(svc, claims, ranges.nodePorts);
      const errs = validateService(svc);
      if (errs.length > 0) throw invalid(svc.metadata?.name ?? '', errs);
      const quota = await chargeQuotas(api, { group: '', resource: 'services' }, svc, (quotas, limited) => decideServiceQuota(svc, undefined, quotas, limited), batch);
      return { obj: svc, writes: [...claims.writes, ...quota] };
    },
    async update(obj, old, _req, api, subresource) {
      const prev = old as Service;
      const name = prev.metadata?.name ?? '';
      if (subresource === 'status') {
        const svc = { ...(obj as Service), spec: prev.spec };
        const errs = validateServiceStatusUpdate(svc, prev);
        if (errs.length > 0) throw invalid(name, errs);
        return { obj: svc };
      }
      if (subresource === 'delete') return { obj: { ...(obj as Service), status: prev.status } };
      const svc = defaultService(obj as Service);
      svc.spec = deepCopyJSON(svc.spec);
      svc.status = prev.status;
      dropTypeDependentFields(svc, prev);
      patchAllocatedValues(svc, prev);
      normalizeClusterIPs(svc, prev);
      initIPFamilyFields(svc, prev);
      const claims = claimsFor(api, prev);
      if (prev.spec?.type === 'ExternalName' && svc.spec?.type !== 'ExternalName') await allocClusterIPs(svc, claims, ranges.ip);
      if (needsNodePort(svc)) await updateNodePorts(svc, prev, claims, ranges.nodePorts);
      if (!needsHealthCheck(prev) && needsHealthCheck(svc)) {
        const hc = svc.spec!.healthCheckNodePort;
        if (!hc || !heldPorts(prev).includes(hc)) await allocHealthCheckNodePort(svc, claims, ranges.nodePorts);
      }
      const errs = validateServiceUpdate(svc, prev);
      if (errs.length > 0) throw invalid(name, errs);
      const quota = await chargeQuotas(api, { group: '', resource: 'services' }, svc, (quotas, limited) => decideServiceQuota(svc, prev, quotas, limited));
      return { obj: svc, writes: [...claims.writes, ...quota] };
    },
  };
}

/** The `kubernetes` Service of the default namespace: the first address of the range, 443 to the API server's port. */
export function kubernetesService(ranges: ServiceRanges, apiServerPort: number): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: kubernetesServiceIP(ranges.ip),
      sessionAffinity: 'None',
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: apiServerPort }],
    },
  };
}

/**
 * The kubernetes service controller's reconcile: create the Service when it is missing and, with
 * `updatePorts` (at start), put its ports right when the API server's port changed. Later rounds
 * only recreate it, so that servers on different ports sharing one store do not take turns.
 */
export async function ensureKubernetesService(api: Api, ranges: ServiceRanges, apiServerPort: number, req: RequestInfo, updatePorts = true): Promise<void> {
  const def = api.def('services');
  const want = kubernetesService(ranges, apiServerPort);
  const have = await api.tryGet<Service>(def, 'default', 'kubernetes');
  if (!have) {
    try {
      await api.create(def, 'default', want, { ...req, warnings: [] });
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 409)) throw e;
    }
    return;
  }
  if (!updatePorts || same(have.spec?.ports, defaultService(want).spec?.ports)) return;
  await api.update(def, 'default', 'kubernetes', { ...have, spec: { ...have.spec, ports: want.spec!.ports } } as Service, { ...req, warnings: [] });
}
