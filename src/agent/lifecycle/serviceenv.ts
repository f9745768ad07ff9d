// The service environment variables the kubelet gives every container (pkg/kubelet/envvars
// envvars.go FromServices, kubelet_pods.go getServiceEnvVarMap @ release-1.32): for the
// `kubernetes` service of the `default` namespace always, and for every service of the pod's own
// namespace when spec.enableServiceLinks is true, each with a cluster IP (not None, not empty):
// <NAME>_SERVICE_HOST, <NAME>_SERVICE_PORT (the first port), <NAME>_SERVICE_PORT_<PORTNAME> for
// each named port, and Docker's link variables <NAME>_PORT (the first port's URL) and
// <NAME>_PORT_<port>_<PROTO>{,_PROTO,_PORT,_ADDR} for every port. NAME is the service's name
// upper-cased with '-' as '_'. A container's own env (and envFrom) wins over a service variable
// of the same name; $(VAR) in env values can name service variables. Pure.

import type { Service } from '../../api/servicetypes.js';

/** The master services, whose variables every pod gets whatever its enableServiceLinks. */
const masterServices = new Set(['kubernetes']);

/** IsServiceIPSet: a cluster IP that is neither None nor empty. */
function serviceIPSet(s: Service): boolean {
  const ip = s.spec?.clusterIP;
  return ip !== undefined && ip !== '' && ip !== 'None';
}

/** makeEnvVariableName: upper case, '-' as '_'. */
function envName(s: string): string {
  return s.replaceAll('-', '_').toUpperCase();
}

/** net.JoinHostPort: an IPv6 address in brackets. */
function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** FromServices: the variables of these services, in order. */
export function fromServices(services: readonly Service[]): [string, string][] {
  const out: [string, string][] = [];
  for (const s of services) {
    if (!serviceIPSet(s)) continue;
    const ip = s.spec!.clusterIP!;
    const ports = s.spec?.ports ?? [];
    const prefix = envName(s.metadata?.name ?? '');
    out.push([`${prefix}_SERVICE_HOST`, ip]);
    const portName = `${prefix}_SERVICE_PORT`;
    out.push([portName, String(ports[0]?.port ?? 0)]);
    for (const p of ports) if (p.name) out.push([`${portName}_${envName(p.name)}`, String(p.port)]);
    // makeLinkVariables: Docker's, the first port special-cased.
    ports.forEach((p, i) => {
      const protocol = p.protocol || 'TCP';
      const url = `${protocol.toLowerCase()}://${hostPort(ip, p.port)}`;
      if (i === 0) out.push([`${prefix}_PORT`, url]);
      const portPrefix = `${prefix}_PORT_${p.port}_${protocol.toUpperCase()}`;
      out.push([portPrefix, url], [`${portPrefix}_PROTO`, protocol.toLowerCase()], [`${portPrefix}_PORT`, String(p.port)], [`${portPrefix}_ADDR`, ip]);
    });
  }
  return out;
}

/**
 * getServiceEnvVarMap: the variables of the master services of `default` and, when
 * `enableServiceLinks`, of every service of `namespace` (one there named like a master service
 * takes its place). Services are taken in namespace and name order, so the result is the same
 * every time (upstream's order is a Go map's).
 */
export function serviceEnv(services: readonly Service[], namespace: string, enableServiceLinks: boolean): Map<string, string> {
  const byName = new Map<string, Service>();
  const sorted = [...services].sort((a, b) => key(a).localeCompare(key(b)));
  for (const s of sorted) {
    if (!serviceIPSet(s)) continue;
    const name = s.metadata?.name ?? '';
    if (s.metadata?.namespace === 'default' && masterServices.has(name)) {
      if (!byName.has(name)) byName.set(name, s);
    } else if (s.metadata?.namespace === namespace && enableServiceLinks) byName.set(name, s);
  }
  return new Map(fromServices([...byName.values()]));
}

function key(s: Service): string {
  return `${s.metadata?.namespace ?? ''}/${s.metadata?.name ?? ''}`;
}
