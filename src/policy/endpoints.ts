// What the endpoints and EndpointSlice controllers want for a Service, as pure functions
// (pkg/controller/endpoint endpoints_controller.go syncService and addEndpointSubset;
// pkg/api/v1/endpoints RepackSubsets; pkg/api/v1/pod FindPort; pkg/controller/util/endpointslice
// ShouldPodBeInEndpoints, ShouldSetHostname; pkg/controller/endpointslice's podToEndpoint and
// getEndpointPorts). The caller lists the Service's pods (its selector in its namespace) and
// writes the result. Deviations: RepackSubsets and the slice reconciler order by value, not by
// Go's object hashes, so the order is deterministic; one slice per port set, up to 100
// endpoints a slice (--max-endpoints-per-slice's default), filled in pod order; no
// last-change-trigger-time annotation.

import type { EndpointAddress, EndpointPort, Endpoints, EndpointSlice, EndpointSubset, SliceEndpoint, SlicePort } from '../api/endpointstypes.js';
import type { ObjectReference, OwnerReference, Pod, Service, ServicePort } from '../api/types.js';
import { isPodReady } from './activepods.js';

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
export const endpointSliceControllerName = 'endpointslice-controller.k8s.io';
export const headlessLabel = 'service.kubernetes.io/headless';
export const overCapacityAnnotation = 'endpoints.kubernetes.io/over-capacity';
/** The endpoints controller's maxCapacity: addresses beyond it are truncated. */
export const maxEndpointsCapacity = 1000;
export const maxEndpointsPerSlice = 100;

const isIPv4 = (ip: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(ip);

/** The service is headless (clusterIP None): no cluster IP is set. */
function isHeadless(svc: Service): boolean {
  return svc.spec?.clusterIP === 'None';
}

/** Whether the endpoints of this service are the controllers' to write: a selector, and not ExternalName. */
export function managesEndpoints(svc: Service): boolean {
  return svc.spec?.type !== 'ExternalName' && svc.spec?.selector !== undefined && svc.spec.selector !== null;
}

/** Labels of `pod` match the service's selector (a map selector: every key equal). */
export function selects(svc: Service, pod: Pod): boolean {
  const sel = svc.spec?.selector ?? {};
  const labels = pod.metadata?.labels ?? {};
  return Object.entries(sel).every(([k, v]) => labels[k] === v);
}

/**
 * ShouldPodBeInEndpoints: the pod has an IP, is not being deleted (unless `includeTerminating`),
 * and has not finished for good (a Never pod that ended, an OnFailure pod that succeeded).
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (!pod.status?.podIP && !(pod.status?.podIPs ?? []).length) return false;
  if (!includeTerminating && pod.metadata?.deletionTimestamp) return false;
  const phase = pod.status?.phase;
  if (pod.spec?.restartPolicy === 'Never') return phase !== 'Failed' && phase !== 'Succeeded';
  if (pod.spec?.restartPolicy === 'OnFailure') return phase !== 'Succeeded';
  return true;
}

/** The pod's IPv4 address (a single-stack IPv4 cluster's family), if it has one. */
function podIPv4(pod: Pod): string | undefined {
  const ips = [...(pod.status?.podIPs ?? []).map((p) => p.ip), pod.status?.podIP ?? ''];
  return ips.find((ip) => !!ip && isIPv4(ip));
}

/**
 * FindPort: a numeric targetPort as it is; a named one is the containerPort of the port of
 * that name and the service port's protocol in a container (or a restartable init container).
 */
export function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  const protocol = sp.protocol ?? 'TCP';
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
  for (const c of containers) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** ShouldSetHostname: the pod names this service as its subdomain and has a hostname. */
function hostnameFor(pod: Pod, svc: Service): string | undefined {
  const h = pod.spec?.hostname;
  return h && pod.spec?.subdomain === svc.metadata?.name && pod.metadata?.namespace === svc.metadata?.namespace ? h : undefined;
}

function podRef(pod: Pod): ObjectReference {
  return { kind: 'Pod', namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const portKey = (p: EndpointPort) => `${p.name ?? ''}\u0000${p.port}\u0000${p.protocol ?? ''}\u0000${p.appProtocol ?? ''}`;
const addressKey = (a: EndpointAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
const lessAddress = (a: EndpointAddress, b: EndpointAddress) => cmp(a.ip, b.ip) || cmp(a.targetRef?.uid ?? '', b.targetRef?.uid ?? '');

/**
 * RepackSubsets: each address with the set of ports it serves, addresses grouped by identical
 * port sets; an address ready on one copy is ready (ready wins over not ready); addresses
 * sorted by IP then target uid, ports by name, number and protocol, subsets by their first
 * address.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addrs = new Map<string, EndpointAddress>();
  // port key → (address key → ready)
  const byPort = new Map<string, { port?: EndpointPort; ready: Map<string, boolean> }>();
  for (const ss of subsets) {
    const ports: (EndpointPort | undefined)[] = ss.ports && ss.ports.length > 0 ? ss.ports : [undefined];
    for (const port of ports) {
      const key = port ? portKey(port) : '';
      let entry = byPort.get(key);
      if (!entry) byPort.set(key, (entry = { ...(port ? { port } : {}), ready: new Map() }));
      for (const a of ss.addresses ?? []) {
        const k = addressKey(a);
        if (!addrs.has(k)) addrs.set(k, a);
        entry.ready.set(k, true);
      }
      for (const a of ss.notReadyAddresses ?? []) {
        const k = addressKey(a);
        if (!addrs.has(k)) addrs.set(k, a);
        if (!entry.ready.has(k)) entry.ready.set(k, false);
      }
    }
  }
  // address set → ports
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    if (ready.size === 0) continue;
    const key = [...ready.entries()].map(([k, r]) => `${k}\u0001${r}`).sort().join('\u0002');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ready, ports: [] }));
    if (port) g.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const g of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [k, r] of g.ready) (r ? ready : notReady).push(addrs.get(k)!);
    ready.sort(lessAddress);
    notReady.sort(lessAddress);
    const ports = g.ports.sort((a, b) => cmp(a.name ?? '', b.name ?? '') || a.port - b.port || cmp(a.protocol ?? '', b.protocol ?? ''));
    out.push({ ...(ready.length ? { addresses: ready } : {}), ...(notReady.length ? { notReadyAddresses: notReady } : {}), ...(ports.length ? { ports } : {}) });
  }
  const first = (s: EndpointSubset) => (s.addresses ?? s.notReadyAddresses ?? [])[0]!;
  return out.sort((a, b) => lessAddress(first(a), first(b)) || cmp(JSON.stringify(a.ports ?? []), JSON.stringify(b.ports ?? [])));
}

/** The labels the controllers give a service's Endpoints: the service's, and headless when it is. */
function endpointsLabels(svc: Service): Record<string, string> {
  const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}) };
  if (isHeadless(svc)) labels[headlessLabel] = '';
  else delete labels[headlessLabel];
  return labels;
}

/** The subsets the endpoints controller computes for `svc` from its pods (already selected). */
export function endpointSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const tolerateUnready = svc.spec?.publishNotReadyAddresses === true;
  const subsets: EndpointSubset[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const ip = podIPv4(pod);
    if (!ip) continue;
    const hostname = hostnameFor(pod, svc);
    // Upstream always sets nodeName (a pod with an IP is bound); an unbound pod's empty name would not validate.
    const address: EndpointAddress = { ip, ...(hostname ? { hostname } : {}), ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}), targetRef: podRef(pod) };
    const ready = tolerateUnready || isPodReady(pod);
    const add = (ports: EndpointPort[]) => subsets.push(ready ? { addresses: [address], ports } : { notReadyAddresses: [address], ports });
    const svcPorts = svc.spec?.ports ?? [];
    if (svcPorts.length === 0 && isHeadless(svc)) {
      add([]);
      continue;
    }
    for (const sp of svcPorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      add([{ ...(sp.name ? { name: sp.name } : {}), port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) }]);
    }
  }
  return repackSubsets(subsets);
}

/** The first `max` addresses (ready, then not ready, subset by subset): the endpoints controller's truncation. */
function truncated(subsets: EndpointSubset[], max: number): EndpointSubset[] {
  let left = max;
  const out: EndpointSubset[] = [];
  for (const ss of subsets) {
    const addresses = (ss.addresses ?? []).slice(0, left);
    left -= addresses.length;
    const notReady = (ss.notReadyAddresses ?? []).slice(0, left);
    left -= notReady.length;
    if (addresses.length + notReady.length === 0) break;
    out.push({ ...(addresses.length ? { addresses } : {}), ...(notReady.length ? { notReadyAddresses: notReady } : {}), ...(ss.ports ? { ports: ss.ports } : {}) });
  }
  return out;
}

const addressCount = (subsets: readonly EndpointSubset[]) => subsets.reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);

/**
 * The Endpoints the endpoints controller wants for `svc` (a service it manages) given its pods:
 * name and namespace of the service, its labels (and the headless label), the subsets
 * truncated to 1000 addresses with the over-capacity annotation when there were more. The
 * annotations of `current` are kept but for that one.
 */
export function desiredEndpoints(svc: Service, pods: readonly Pod[], current?: Endpoints): Endpoints {
  let subsets = endpointSubsets(svc, pods);
  const annotations: Record<string, string> = { ...(current?.metadata?.annotations ?? {}) };
  delete annotations[overCapacityAnnotation];
  if (addressCount(subsets) > maxEndpointsCapacity) {
    subsets = truncated(subsets, maxEndpointsCapacity);
    annotations[overCapacityAnnotation] = 'truncated';
  }
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      ...(current?.metadata ?? {}),
      name: svc.metadata?.name ?? '',
      namespace: svc.metadata?.namespace ?? '',
      labels: endpointsLabels(svc),
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
    ...(subsets.length ? { subsets } : {}),
  } as Endpoints;
}

/** podToEndpoint: the pod's address, conditions, target, node and hostname. */
function sliceEndpoint(pod: Pod, svc: Service, ip: string, zone?: string): SliceEndpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  const ready = svc.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const hostname = hostnameFor(pod, svc);
  return {
    addresses: [ip],
    conditions: { ready, serving, terminating },
    ...(hostname ? { hostname } : {}),
    targetRef: podRef(pod),
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    ...(zone ? { zone } : {}),
  };
}

/** getEndpointPorts: each service port the pod serves, by name, protocol and resolved number. */
function slicePorts(svc: Service, pod: Pod): SlicePort[] {
  const out: SlicePort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', protocol: sp.protocol ?? 'TCP', port, ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** The labels the EndpointSlice controller gives a service's slices. */
export function sliceLabels(svc: Service): Record<string, string> {
  const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}) };
  delete labels[headlessLabel];
  labels[serviceNameLabel] = svc.metadata?.name ?? '';
  labels[managedByLabel] = endpointSliceControllerName;
  if (isHeadless(svc)) labels[headlessLabel] = '';
  return labels;
}

/** The controller reference a slice has to its service. */
export function serviceOwnerReference(svc: Service): OwnerReference {
  return { apiVersion: 'v1', kind: 'Service', name: svc.metadata?.name ?? '', uid: svc.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** What one slice holds: its ports and endpoints (the rest comes from the service). */
export interface SliceContent {
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
}

/** A port set's key: slices are matched to what is wanted by it. */
export function portSetKey(ports: readonly SlicePort[] | undefined): string {
  return JSON.stringify([...(ports ?? [])].map((p) => [p.name ?? '', p.protocol ?? '', p.port ?? 0, p.appProtocol ?? '']).sort());
}

/**
 * The slices the EndpointSlice controller wants for `svc`: pods with an IPv4 address that
 * should be in endpoints (terminating ones included, with their conditions), grouped by the
 * ports they serve, at most 100 a slice. No pods: one placeholder slice, no endpoints or ports.
 * `zoneOf` gives a node's topology.kubernetes.io/zone label.
 */
export function desiredSlices(svc: Service, pods: readonly Pod[], zoneOf: (node: string) => string | undefined = () => undefined): SliceContent[] {
  const byPorts = new Map<string, SliceContent>();
  const sorted = [...pods].sort((a, b) => cmp(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  for (const pod of sorted) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ip = podIPv4(pod);
    if (!ip) continue;
    const ports = slicePorts(svc, pod);
    const key = portSetKey(ports);
    let group = byPorts.get(key);
    if (!group) byPorts.set(key, (group = { ports, endpoints: [] }));
    group.endpoints.push(sliceEndpoint(pod, svc, ip, pod.spec?.nodeName ? zoneOf(pod.spec.nodeName) : undefined));
  }
  const out: SliceContent[] = [];
  for (const g of byPorts.values()) {
    for (let i = 0; i < g.endpoints.length; i += maxEndpointsPerSlice) out.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + maxEndpointsPerSlice) });
  }
  return out.length ? out : [{ ports: [], endpoints: [] }];
}

/** A slice for `svc` with this content (a generated name unless `name`). */
export function sliceObject(svc: Service, content: SliceContent, name?: string): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...(name ? { name } : { generateName: `${svc.metadata?.name ?? ''}-` }),
      namespace: svc.metadata?.namespace ?? '',
      labels: sliceLabels(svc),
      ownerReferences: [serviceOwnerReference(svc)],
    },
    addressType: 'IPv4',
    endpoints: content.endpoints,
    ...(content.ports.length ? { ports: content.ports } : {}),
  };
}

export const mirroringControllerName = 'endpointslicemirroring-controller.k8s.io';
export const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';
/** The mirroring controller's --mirroring-max-endpoints-per-subset default. */
export const maxMirroredEndpointsPerSubset = 1000;
const unmirroredAnnotations = new Set(['endpoints.kubernetes.io/last-change-trigger-time', 'kubectl.kubernetes.io/last-applied-configuration']);

/** shouldMirror: Endpoints not labelled skip-mirror and not a leader-election lock. */
export function shouldMirror(ep: Endpoints): boolean {
  return ep.metadata?.labels?.[skipMirrorLabel] !== 'true' && ep.metadata?.annotations?.['control-plane.alpha.kubernetes.io/leader'] === undefined;
}

/**
 * The slices the EndpointSlice mirroring controller makes of hand-written Endpoints
 * (pkg/controller/endpointslicemirroring reconciler.go and utils.go): per address type and port
 * set, ready and not-ready addresses as endpoints with the ready condition, target, node and
 * hostname (an address that is no IP is skipped; at most 1000 a subset and a slice); labels of the
 * Endpoints with service-name and managed-by endpointslicemirroring-controller.k8s.io, its
 * annotations but the trigger time and last-applied ones, owned by the Endpoints.
 */
export function mirroredSlices(ep: Endpoints): EndpointSlice[] {
  const groups = new Map<string, { addressType: string; ports: SlicePort[]; endpoints: SliceEndpoint[] }>();
  for (const ss of ep.subsets ?? []) {
    const ports: SlicePort[] = (ss.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    const addresses = [...(ss.addresses ?? []).map((a) => [a, true] as const), ...(ss.notReadyAddresses ?? []).map((a) => [a, false] as const)].slice(0, maxMirroredEndpointsPerSubset);
    for (const [a, ready] of addresses) {
      const addressType = isIPv4(a.ip) ? 'IPv4' : a.ip.includes(':') ? 'IPv6' : undefined;
      if (!addressType) continue;
      const key = `${addressType}\u0000${portSetKey(ports)}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { addressType, ports, endpoints: [] }));
      g.endpoints.push({
        addresses: [a.ip],
        conditions: { ready },
        ...(a.hostname ? { hostname: a.hostname } : {}),
        ...(a.targetRef ? { targetRef: a.targetRef } : {}),
        ...(a.nodeName ? { nodeName: a.nodeName } : {}),
      });
    }
  }
  const labels: Record<string, string> = { ...(ep.metadata?.labels ?? {}), [serviceNameLabel]: ep.metadata?.name ?? '', [managedByLabel]: mirroringControllerName };
  const annotations = Object.fromEntries(Object.entries(ep.metadata?.annotations ?? {}).filter(([k]) => !unmirroredAnnotations.has(k)));
  const owner: OwnerReference = { apiVersion: 'v1', kind: 'Endpoints', name: ep.metadata?.name ?? '', uid: ep.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
  const out: EndpointSlice[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.endpoints.length; i += maxMirroredEndpointsPerSubset) {
      out.push({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          generateName: `${ep.metadata?.name ?? ''}-`,
          namespace: ep.metadata?.namespace ?? '',
          labels,
          ...(Object.keys(annotations).length ? { annotations } : {}),
          ownerReferences: [owner],
        },
        addressType: g.addressType,
        endpoints: g.endpoints.slice(i, i + maxMirroredEndpointsPerSubset),
        ...(g.ports.length ? { ports: g.ports } : {}),
      });
    }
  }
  return out;
}
