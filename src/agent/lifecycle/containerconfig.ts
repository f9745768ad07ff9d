// A container's process as Kubernetes defines it from the pod spec and the image config: the
// kubelet's environment (makeEnvironmentVariables: value with $(VAR) expansion over earlier
// variables, valueFrom.fieldRef, configMapKeyRef and secretKeyRef with optional, envFrom with
// prefix, invalid keys skipped with an InvalidEnvironmentVariableNames event), command/args expansion (ExpandContainerCommandAndArgs), and
// the CRI runtime's merge with the image (containerd: command replaces the entrypoint and drops
// the image cmd; args alone replace the cmd; image env first, container env overriding it;
// HOSTNAME set), the user (runAsUser/runAsGroup, else the image's user looked up in the image's
// /etc/passwd) and the kubelet's runAsNonRoot check. Pure: the image files are passed in.

import { extractFieldPathAsString } from '../../api/fieldpath.js';
import { isIPv6Address, parseIPv4 } from '../../api/servicerange.js';
import type { Container, Pod } from '../../api/types.js';
import { containerResourceValue, ResourceFieldError, type ResourceFieldRef } from './resourcefield.js';
import { notFound, type PodObjects } from './volumes.js';
import { formatPod, reasons } from './wording.js';

/** A container that cannot be created as specified; `reason` is the waiting reason it shows. */
export class ContainerConfigError extends Error {
  constructor(
    message: string,
    readonly reason: string = reasons.createContainerConfigError,
  ) {
    super(message);
    this.name = 'ContainerConfigError';
  }
}

export interface ImageProcessConfig {
  env: string[];
  entrypoint: string[] | null;
  cmd: string[] | null;
  workingDir: string;
  user: string;
}

/** third_party/forked/golang/expansion.Expand: $(VAR) from `lookup` (left as written when unknown), $$ → $. */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const rest = input.slice(cursor + 1);
    let read: string;
    let advance = 1;
    if (rest[0] === '$') read = '$';
    else if (rest[0] === '(') {
      const close = rest.indexOf(')', 1);
      if (close > 0) {
        const name = rest.slice(1, close);
        read = lookup(name) ?? `$(${name})`;
        advance = close + 1;
      } else read = '$(';
    } else read = `$${rest[0]}`;
    out += read;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

interface FieldRef {
  fieldPath?: string;
}

/** What the kubelet knows of its node when it makes a container's env. */
export interface EnvNode {
  /** The node's addresses, first the primary one (the kubelet's getHostIPsAnyWay). */
  hostIPs: readonly string[];
  /** The Node's status.allocatable: a resourceFieldRef's limit the container does not set. */
  allocatable?: Readonly<Record<string, string>>;
}

/**
 * A hostNetwork pod's IPs are its node's (pods of their own have no IP here: loopback only). The
 * list is the kubelet's sortPodIPs: the first IP of the node's primary family (IPv4 when the node
 * has no address), then the first of the other family; what is not an IP is left out.
 */
function podIPs(pod: Pod, addr: EnvNode): string[] {
  const ips = pod.spec.hostNetwork ? [...addr.hostIPs] : (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip): ip is string => !!ip);
  const v4 = (ip: string) => parseIPv4(ip) !== undefined;
  const primaryV4 = addr.hostIPs.length === 0 || v4(addr.hostIPs[0]!);
  const first = ips.find((ip) => (primaryV4 ? v4(ip) : isIPv6Address(ip)));
  const second = ips.find((ip) => (primaryV4 ? isIPv6Address(ip) : v4(ip)));
  return [first, second].filter((ip): ip is string => ip !== undefined);
}

function fieldRefValue(pod: Pod, path: string, envName: string, addr: EnvNode): string {
  switch (path) {
    case 'spec.nodeName':
      return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec.serviceAccountName ?? '';
    // From the node, not from the pod's status: the first start comes before any status write.
    case 'status.hostIP':
      return addr.hostIPs[0] ?? '';
    case 'status.hostIPs':
      return addr.hostIPs.join(',');
    case 'status.podIP':
      return podIPs(pod, addr)[0] ?? '';
    case 'status.podIPs':
      return podIPs(pod, addr).join(',');
    default: {
      const v = extractFieldPathAsString(pod, path);
      if (v === undefined) throw new ContainerConfigError(`env ${envName}: fieldRef ${JSON.stringify(path)} is not supported by Bulkhead's node agent`);
      return v;
    }
  }
}

interface KeyRef {
  name?: string;
  key?: string;
  optional?: boolean;
}

interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

/** validation.IsEnvVarName: what envFrom keys (with their prefix) must be. */
export function isEnvVarName(name: string): boolean {
  return /^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name);
}

/** The InvalidEnvironmentVariableNames event's text (kubelet_pods.go makeEnvironmentVariables). */
export function invalidEnvKeysMessage(kind: 'configMap' | 'secret', namespace: string, name: string, keys: string[]): string {
  return `Keys [${[...keys].sort().join(', ')}] from the EnvFrom ${kind} ${namespace}/${name} were skipped since they are considered invalid environment variable names.`;
}

const noObjects: PodObjects = { configMaps: new Map(), secrets: new Map() };

/** A referenced object's string values (a Secret's decoded), or undefined when it is absent. */
function objectValues(kind: 'configMap' | 'secret', name: string, objects: PodObjects): Map<string, string> | undefined {
  if (kind === 'configMap') {
    const cm = objects.configMaps.get(name);
    return cm ? new Map(Object.entries(cm.data ?? {})) : undefined;
  }
  const sec = objects.secrets.get(name);
  return sec ? new Map(Object.entries(sec.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])) : undefined;
}

/**
 * The container's environment as the kubelet hands it to the runtime (makeEnvironmentVariables):
 * envFrom first (in source order, a later source overriding an earlier one), then env in spec
 * order, then the service variables it does not set itself. `objects`: the
 * ConfigMaps and Secrets the agent fetched (null: not found); `warn`: the events to record.
 */
export function containerEnv(pod: Pod, c: Container, addr: EnvNode = { hostIPs: [] }, objects: PodObjects = noObjects, warn?: (reason: string, message: string) => void): [string, string][] {
  const out: [string, string][] = [];
  const ns = pod.metadata.namespace ?? 'default';
  const services = objects.serviceEnv;
  // expansion.MappingFuncFor(tmpEnv, serviceEnv): the container's own variables, then the services'.
  const lookup = (name: string) => {
    for (let i = out.length - 1; i >= 0; i--) if (out[i]![0] === name) return out[i]![1];
    return services?.get(name);
  };
  const set = (name: string, value: string) => {
    const i = out.findIndex(([n]) => n === name);
    if (i >= 0) out[i] = [name, value];
    else out.push([name, value]);
  };
  for (const from of ((c as { envFrom?: EnvFromSource[] }).envFrom ?? [])) {
    const kind = from.configMapRef ? 'configMap' : from.secretRef ? 'secret' : undefined;
    if (!kind) continue;
    const ref = (kind === 'configMap' ? from.configMapRef : from.secretRef)!;
    const name = ref.name ?? '';
    const values = objectValues(kind, name, objects);
    if (!values) {
      if (ref.optional) continue;
      throw new ContainerConfigError(kind === 'configMap' ? notFound.configMap(name) : notFound.secret(name));
    }
    const invalid: string[] = [];
    for (const k of [...values.keys()].sort()) {
      const key = (from.prefix ?? '') + k;
      if (!isEnvVarName(key)) invalid.push(key);
      else set(key, values.get(k)!);
    }
    if (invalid.length) warn?.('InvalidEnvironmentVariableNames', invalidEnvKeysMessage(kind, ns, name, invalid));
  }
  for (const e of c.env ?? []) {
    let value: string;
    if (e.valueFrom !== undefined && e.valueFrom !== null) {
      const from = e.valueFrom as { fieldRef?: FieldRef; resourceFieldRef?: unknown; configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef };
      if (from.fieldRef?.fieldPath) value = fieldRefValue(pod, from.fieldRef.fieldPath, e.name, addr);
      else if (from.configMapKeyRef || from.secretKeyRef) {
        const kind = from.configMapKeyRef ? 'configMap' : 'secret';
        const ref = (from.configMapKeyRef ?? from.secretKeyRef)!;
        const name = ref.name ?? '';
        const values = objectValues(kind, name, objects);
        if (!values) {
          if (ref.optional) continue;
          throw new ContainerConfigError(kind === 'configMap' ? notFound.configMap(name) : notFound.secret(name));
        }
        const v = values.get(ref.key ?? '');
        if (v === undefined) {
          if (ref.optional) continue;
          throw new ContainerConfigError(`couldn't find key ${ref.key ?? ''} in ${kind === 'configMap' ? 'ConfigMap' : 'Secret'} ${ns}/${name}`);
        }
        value = v;
      } else if (from.resourceFieldRef && typeof from.resourceFieldRef === 'object') {
        try {
          value = containerResourceValue(pod, from.resourceFieldRef as ResourceFieldRef, addr.allocatable ?? {}, c);
        } catch (err) {
          if (err instanceof ResourceFieldError) throw new ContainerConfigError(err.message);
          throw err;
        }
      } else {
        throw new ContainerConfigError(`env ${e.name}: valueFrom is not supported by Bulkhead's node agent yet`);
      }
    } else value = expand(e.value ?? '', lookup);
    set(e.name, value);
  }
  // Then the service variables the container does not set itself.
  if (services) for (const [name, value] of services) if (!out.some(([n]) => n === name)) out.push([name, value]);
  return out;
}

/** process.args: the spec's command/args (with $(VAR) from the container env) over the image's entrypoint/cmd. */
export function processArgs(c: Container, image: Pick<ImageProcessConfig, 'entrypoint' | 'cmd'>, env: [string, string][]): string[] {
  const map = new Map(env);
  const lookup = (n: string) => map.get(n);
  let command = (c.command ?? []).map((s) => expand(s, lookup));
  let args = (c.args ?? []).map((s) => expand(s, lookup));
  if (command.length === 0) {
    if (args.length === 0) args = [...(image.cmd ?? [])];
    const ep = image.entrypoint ?? [];
    if (!(ep.length === 1 && ep[0] === '')) command = [...ep];
  }
  const all = [...command, ...args];
  if (all.length === 0) throw new ContainerConfigError('no command specified', reasons.createContainerError);
  return all;
}

/** process.env: the image's, then HOSTNAME, then the container's (same name: replaced in place). */
export function processEnv(imageEnv: readonly string[], hostname: string, env: [string, string][]): string[] {
  const out: string[] = [];
  const set = (name: string, value: string) => {
    const i = out.findIndex((x) => x.slice(0, x.indexOf('=') < 0 ? x.length : x.indexOf('=')) === name);
    if (i >= 0) out[i] = `${name}=${value}`;
    else out.push(`${name}=${value}`);
  };
  for (const e of imageEnv) {
    const eq = e.indexOf('=');
    if (eq > 0) set(e.slice(0, eq), e.slice(eq + 1));
  }
  set('HOSTNAME', hostname);
  for (const [n, v] of env) set(n, v);
  return out;
}

export interface ProcessUser {
  uid: number;
  gid: number;
  additionalGids?: number[];
}

function parseDb(text: string | undefined): string[][] {
  return (text ?? '').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(':'));
}

const numeric = /^[0-9]+$/;

/** The effective runAsUser/runAsGroup/runAsNonRoot/supplementalGroups (container over pod). */
function effective(pod: Pod, c: Container) {
  const psc = pod.spec.securityContext;
  const sc = c.securityContext;
  return {
    runAsUser: sc?.runAsUser ?? psc?.runAsUser,
    runAsGroup: sc?.runAsGroup ?? psc?.runAsGroup,
    runAsNonRoot: sc?.runAsNonRoot ?? psc?.runAsNonRoot,
    supplementalGroups: psc?.supplementalGroups ?? [],
  };
}

/**
 * uid/gid for the process. `passwd`/`group`: the image's /etc/passwd and /etc/group text
 * (undefined when absent). Throws ContainerConfigError for an unknown user name and for
 * runAsNonRoot violations (the kubelet's wording).
 */
export function processUser(pod: Pod, c: Container, imageUser: string, passwd: string | undefined, group: string | undefined): ProcessUser {
  const eff = effective(pod, c);
  const users = parseDb(passwd);
  const groups = parseDb(group);
  const [userPart = '', groupPart] = imageUser.split(':');

  if (eff.runAsNonRoot) {
    if (eff.runAsUser !== undefined) {
      if (eff.runAsUser === 0) throw new ContainerConfigError(`container's runAsUser breaks non-root policy (pod: "${formatPod(pod)}", container: ${c.name})`);
    } else if (userPart === '' || (numeric.test(userPart) && Number(userPart) === 0)) {
      throw new ContainerConfigError(`container has runAsNonRoot and image will run as root (pod: "${formatPod(pod)}", container: ${c.name})`);
    } else if (!numeric.test(userPart)) {
      throw new ContainerConfigError(`container has runAsNonRoot and image has non-numeric user (${userPart}), cannot verify user is non-root (pod: "${formatPod(pod)}", container: ${c.name})`);
    }
  }

  let uid: number;
  let gid: number | undefined;
  if (eff.runAsUser !== undefined) {
    uid = eff.runAsUser;
    const row = users.find((r) => r[2] === String(uid));
    gid = row && numeric.test(row[3] ?? '') ? Number(row[3]) : 0;
  } else if (userPart === '') {
    uid = 0;
    gid = 0;
  } else if (numeric.test(userPart)) {
    uid = Number(userPart);
    const row = users.find((r) => r[2] === userPart);
    gid = row && numeric.test(row[3] ?? '') ? Number(row[3]) : 0;
  } else {
    const row = users.find((r) => r[0] === userPart);
    if (!row || !numeric.test(row[2] ?? '')) throw new ContainerConfigError(`unable to find user ${userPart}: no matching entries in passwd file`, reasons.createContainerError);
    uid = Number(row[2]);
    gid = numeric.test(row[3] ?? '') ? Number(row[3]) : 0;
  }
  if (eff.runAsUser === undefined && groupPart !== undefined && groupPart !== '') {
    if (numeric.test(groupPart)) gid = Number(groupPart);
    else {
      const row = groups.find((r) => r[0] === groupPart);
      if (!row || !numeric.test(row[2] ?? '')) throw new ContainerConfigError(`unable to find group ${groupPart}: no matching entries in group file`, reasons.createContainerError);
      gid = Number(row[2]);
    }
  }
  if (eff.runAsGroup !== undefined) gid = eff.runAsGroup;
  const extra = eff.supplementalGroups.filter((g) => g !== gid);
  return { uid, gid, ...(extra.length ? { additionalGids: [...new Set(extra)] } : {}) };
}

/** A volumeMount subPath: relative, no `..`, no empty components. */
export function checkSubPath(subPath: string, mountName: string): string[] {
  const parts = subPath.split('/').filter((p) => p !== '' && p !== '.');
  if (subPath.startsWith('/') || parts.some((p) => p === '..')) {
    throw new ContainerConfigError(`volumeMount ${mountName}: subPath ${JSON.stringify(subPath)} must be a relative path without '..'`);
  }
  return parts;
}
