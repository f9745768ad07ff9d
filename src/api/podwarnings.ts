// The API server's warnings about a pod spec (pkg/api/pod/warnings.go as of v1.32:
// GetWarningsForPod, GetWarningsForPodTemplate), with the node label table of pkg/api/node/util.go
// and the claim check of pkg/api/persistentvolumeclaim/util.go. Pure: the pod strategy and the
// workload strategies (workloadwarnings.ts) call it after validation passed, `bulkhead plan` through
// the same paths.
//
// Followed as v1.32 has it, quirks included:
//   - the old object is never compared: an update that draws warnings draws all of them again;
//   - a projected volume's source that yields no paths (a configMap without items) re-checks the
//     previous source's paths against themselves (the sourcePaths variable outlives its source);
//   - the AppArmor annotation warning here is for templates only; a pod's comes from the strategy's
//     PrepareForCreate (applyAppArmorVersionSkew, apparmorskew.ts).
// Not in v1.32 and left out: the duplicate port name warning (v1.33) and the label value check of
// node selector terms (later).

import { FieldPath } from './fielderrors.js';
import { goQuote } from './goquote.js';
import { Quantity } from './quantity.js';
import type { Container, ContainerPort, EnvVar, NodeSelectorTerm, ObjectMeta, Pod, PodAffinityLike, PodSpec, TopologySpreadConstraint, Volume } from './types.js';

/** A pod template as the workload kinds carry it (metadata and spec both optional). */
export interface PodTemplate {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

/** pkg/api/node deprecatedNodeLabels. */
const deprecatedNodeLabels: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  'app.kubernetes.io/created-by': 'deprecated since v1.9',
  'scheduler.alpha.kubernetes.io/preferAvoidPods': 'deprecated since v1.22; use Taints and Tolerations instead',
  'node-role.kubernetes.io/master': 'use "node-role.kubernetes.io/control-plane" instead',
};

/** GetNodeLabelDeprecatedMessage. */
export function nodeLabelDeprecatedMessage(key: string): string | undefined {
  return Object.hasOwn(deprecatedNodeLabels, key) ? deprecatedNodeLabels[key] : undefined;
}

const deprecatedAnnotations: readonly { key: string; message: string }[] = [
  { key: 'scheduler.alpha.kubernetes.io/critical-pod', message: 'non-functional in v1.16+; use the "priorityClassName" field instead' },
  { key: 'security.alpha.kubernetes.io/sysctls', message: 'non-functional in v1.11+; use the "sysctls" field instead' },
  { key: 'security.alpha.kubernetes.io/unsafe-sysctls', message: 'non-functional in v1.11+; use the "sysctls" field instead' },
];

/** Removed volume plugins: the v1 JSON key, the path part the warning names, the message. */
const deprecatedVolumes: readonly (readonly [string, string, string])[] = [
  ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
];
const deprecatedVolumesAfterEphemeral: readonly (readonly [string, string, string])[] = [
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompContainerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const appArmorContainerAnnotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const appArmorDeprecated = 'deprecated since v1.30; use the "appArmorProfile" field instead';
const seccompDeprecated = 'non-functional in v1.27+; use the "seccompProfile" field instead';
const nullSelector = 'a null labelSelector results in matching no pod';

/** GetWarningsForPod: the warnings about a pod being created (paths from `spec`, `metadata`). */
export function podWarnings(pod: Pod | undefined): string[] {
  if (!pod) return [];
  return specAndMetaWarnings('', pod.spec, pod.metadata, false);
}

/**
 * GetWarningsForPodTemplate: the warnings about the template at `path` (e.g. spec.template). With
 * no path (upstream's nil) the paths start at `spec` and the template-only AppArmor check is off.
 */
export function podTemplateWarnings(path: FieldPath | undefined, template: PodTemplate | undefined): string[] {
  if (!template) return [];
  return path ? specAndMetaWarnings(`${path}.`, template.spec, template.metadata, true) : specAndMetaWarnings('', template.spec, template.metadata, false);
}

/** Field paths as text: the warnings are built only when one is due, so no path objects are made for a clean pod. */
function has(o: object | undefined, k: string): boolean {
  return !!o && Object.hasOwn(o, k);
}

const set = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * A byte quantity whose value is not a whole number ("4m", "1.5"), as its String() prints it;
 * undefined for whole or unreadable values (validation has refused the latter already).
 */
function fractionalBytes(v: unknown): string | undefined {
  // Plain integers with a whole-number suffix (the common case) need no parsing.
  if (typeof v === 'string' && /^[0-9]+(?:[KMGTPE]i|[kMGTPE])?$/.test(v)) return undefined;
  if (typeof v === 'number' && Number.isInteger(v)) return undefined;
  try {
    const q = Quantity.fromJSON(v);
    return q.milliValue() % 1000n !== 0n ? q.toString() : undefined;
  } catch {
    return undefined;
  }
}

function fractional(out: string[], path: string, list: Record<string, unknown> | undefined, name: string): void {
  if (!list || !has(list, name)) return;
  const s = fractionalBytes(list[name]);
  if (s !== undefined) out.push(`${path}[${name}]: fractional byte value ${goQuote(s)} is invalid, must be an integer`);
}

/** GetWarningsForNodeSelectorTerm (v1.32: deprecated keys of matchExpressions only). */
function nodeSelectorTermWarnings(out: string[], term: NodeSelectorTerm | undefined, path: string): void {
  const exprs = term?.matchExpressions;
  if (!Array.isArray(exprs)) return;
  for (let i = 0; i < exprs.length; i++) {
    const key = exprs[i]?.key ?? '';
    const msg = nodeLabelDeprecatedMessage(key);
    if (msg !== undefined) out.push(`${path}.matchExpressions[${i}].key: ${key} is ${msg}`);
  }
}

/** GetWarningsForPersistentVolumeClaimSpec: fractional storage requests and limits. */
export function claimSpecWarnings(path: string, spec: { resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> } } | undefined): string[] {
  const out: string[] = [];
  fractional(out, `${path}.resources.requests`, spec?.resources?.requests, 'storage');
  fractional(out, `${path}.resources.limits`, spec?.resources?.limits, 'storage');
  return out;
}

/** A port as Go's %+v prints the internal ContainerPort. */
function goPort(p: ContainerPort): string {
  return `{Name:${p.name ?? ''} HostPort:${p.hostPort ?? 0} ContainerPort:${p.containerPort ?? 0} Protocol:${p.protocol ?? ''} HostIP:${p.hostIP ?? ''}}`;
}

const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** VisitContainersWithPath with text paths: init containers, containers, ephemeral containers. */
function eachContainer(spec: PodSpec, specPath: string, visit: (c: Container, path: string) => void): void {
  for (const list of containerLists) {
    const cs = spec[list];
    if (!Array.isArray(cs)) continue;
    for (let i = 0; i < cs.length; i++) visit((cs[i] ?? {}) as Container, `${specPath}.${list}[${i}]`);
  }
}

function affinityTermWarnings(out: string[], a: PodAffinityLike | undefined, path: string): void {
  if (!a) return;
  const req = a.requiredDuringSchedulingIgnoredDuringExecution;
  if (Array.isArray(req)) {
    for (let i = 0; i < req.length; i++) if (!set(req[i]?.labelSelector)) out.push(`${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}].labelSelector: ${nullSelector}`);
  }
  const pref = a.preferredDuringSchedulingIgnoredDuringExecution;
  if (Array.isArray(pref)) {
    for (let i = 0; i < pref.length; i++) {
      if (!set(pref[i]?.podAffinityTerm?.labelSelector)) out.push(`${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.labelSelector: ${nullSelector}`);
    }
  }
}

/** warningsForPodSpecAndMeta. `base` is '' for a pod, 'spec.template.' etc. for a template. */
function specAndMetaWarnings(base: string, specIn: PodSpec | undefined, meta: ObjectMeta | undefined, isTemplate: boolean): string[] {
  const out: string[] = [];
  const spec = (specIn ?? {}) as PodSpec;
  const sp = `${base}spec`;
  const annotations = meta?.annotations;

  // Deprecated node labels in the node selector, node affinity and topology spread constraints.
  if (spec.nodeSelector) {
    for (const k of Object.keys(spec.nodeSelector)) {
      const msg = nodeLabelDeprecatedMessage(k);
      if (msg !== undefined) out.push(`${sp}.nodeSelector[${k}]: ${msg}`);
    }
  }
  const na = spec.affinity?.nodeAffinity;
  if (na) {
    const terms = na.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    if (set(na.requiredDuringSchedulingIgnoredDuringExecution) && Array.isArray(terms)) {
      for (let i = 0; i < terms.length; i++) nodeSelectorTermWarnings(out, terms[i], `${sp}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`);
    }
    const pref = na.preferredDuringSchedulingIgnoredDuringExecution;
    if (Array.isArray(pref)) {
      for (let i = 0; i < pref.length; i++) nodeSelectorTermWarnings(out, pref[i]?.preference, `${sp}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}].preference`);
    }
  }
  const tscs = spec.topologySpreadConstraints;
  if (Array.isArray(tscs)) {
    for (let i = 0; i < tscs.length; i++) {
      const t = (tscs[i] ?? {}) as Partial<TopologySpreadConstraint>;
      const key = t.topologyKey ?? '';
      const msg = nodeLabelDeprecatedMessage(key);
      if (msg !== undefined) out.push(`${sp}.topologySpreadConstraints[${i}].topologyKey: ${key} is ${msg}`);
      if (!set(t.labelSelector)) out.push(`${sp}.topologySpreadConstraints[${i}].labelSelector: ${nullSelector}`);
    }
  }

  for (const d of deprecatedAnnotations) {
    if (has(annotations, d.key)) out.push(`${base}metadata.annotations[${d.key}]: ${d.message}`);
  }

  // Deprecated and removed volume plugins, and the claim template of an ephemeral volume.
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  for (let i = 0; i < volumes.length; i++) {
    const v = (volumes[i] ?? {}) as Volume;
    const vp = `${sp}.volumes[${i}]`;
    for (const [key, part, msg] of deprecatedVolumes) if (set(v[key])) out.push(`${vp}.${part}: ${msg}`);
    const claim = (v.ephemeral as { volumeClaimTemplate?: { spec?: Parameters<typeof claimSpecWarnings>[1] } } | undefined)?.volumeClaimTemplate;
    if (set(v.ephemeral) && set(claim)) out.push(...claimSpecWarnings(`${vp}.ephemeral.volumeClaimTemplate.spec`, claim!.spec));
    for (const [key, part, msg] of deprecatedVolumesAfterEphemeral) if (set(v[key])) out.push(`${vp}.${part}: ${msg}`);
  }
  overlappingPathWarnings(out, volumes);

  // Duplicate hostAliases and imagePullSecrets; imagePullSecrets without a name.
  const aliases = spec.hostAliases;
  if (Array.isArray(aliases) && aliases.length > 1) {
    const seen = new Set<string>();
    for (let i = 0; i < aliases.length; i++) {
      const ip = aliases[i]?.ip ?? '';
      if (seen.has(ip)) out.push(`${sp}.hostAliases[${i}].ip: duplicate ip ${goQuote(ip)}`);
      else seen.add(ip);
    }
  }
  const pullSecrets = Array.isArray(spec.imagePullSecrets) ? spec.imagePullSecrets : [];
  if (pullSecrets.length > 1) {
    const seen = new Set<string>();
    for (let i = 0; i < pullSecrets.length; i++) {
      const name = pullSecrets[i]?.name ?? '';
      if (seen.has(name)) out.push(`${sp}.imagePullSecrets[${i}].name: duplicate name ${goQuote(name)}`);
      else seen.add(name);
    }
  }
  for (let i = 0; i < pullSecrets.length; i++) {
    const name = pullSecrets[i]?.name ?? '';
    if (name.length === 0) out.push(`${sp}.imagePullSecrets[${i}].name: invalid empty name ${goQuote(name)}`);
  }

  const overhead = spec.overhead as Record<string, unknown> | undefined;
  fractional(out, `${sp}.overhead`, overhead, 'memory');
  fractional(out, `${sp}.overhead`, overhead, 'ephemeral-storage');

  // Seccomp annotations without the field that replaced them.
  if (!set(spec.securityContext?.seccompProfile) && has(annotations, seccompPodAnnotation)) {
    out.push(`${base}metadata.annotations[${seccompPodAnnotation}]: ${seccompDeprecated}`);
  }
  const podAppArmor = set(spec.securityContext?.appArmorProfile);

  eachContainer(spec, sp, (c, p) => {
    const sc = c.securityContext;
    if (!set(sc?.seccompProfile)) {
      const key = seccompContainerAnnotationPrefix + (c.name ?? '');
      if (has(annotations, key)) out.push(`${base}metadata.annotations[${key}]: ${seccompDeprecated}`);
    }
    if (isTemplate && !podAppArmor && !set(sc?.appArmorProfile)) {
      const key = appArmorContainerAnnotationPrefix + (c.name ?? '');
      if (has(annotations, key)) out.push(`${base}metadata.annotations[${key}]: ${appArmorDeprecated}`);
    }
    const limits = c.resources?.limits as Record<string, unknown> | undefined;
    const requests = c.resources?.requests as Record<string, unknown> | undefined;
    fractional(out, `${p}.resources.limits`, limits, 'memory');
    fractional(out, `${p}.resources.requests`, requests, 'memory');
    fractional(out, `${p}.resources.limits`, limits, 'ephemeral-storage');
    fractional(out, `${p}.resources.requests`, requests, 'ephemeral-storage');

    // A later env entry of the same name hides the earlier one unless it refers to it ("$(X)123").
    const env = c.env;
    if (Array.isArray(env) && env.length > 1) {
      const seen = new Set<string>();
      for (let i = 0; i < env.length; i++) {
        const item = (env[i] ?? {}) as Partial<EnvVar>;
        const name = item.name ?? '';
        if (!seen.has(name)) {
          seen.add(name);
          continue;
        }
        const ref = `$(${name})`;
        const value = item.value ?? '';
        if (set(item.valueFrom) || value === ref || !value.includes(ref)) {
          out.push(`${p}.env[${i}]: hides previous definition of ${goQuote(name)}, which may be dropped when using apply`);
        }
      }
    }
  });

  // Ports across all containers: the same port and protocol twice.
  const allPorts = new Map<string, { path: string; port: ContainerPort }[]>();
  eachContainer(spec, sp, (c, p) => {
    const ports = c.ports;
    if (!Array.isArray(ports)) return;
    for (let i = 0; i < ports.length; i++) {
      const port = (ports[i] ?? {}) as ContainerPort;
      const pp = `${p}.ports[${i}]`;
      const hostIP = port.hostIP ?? '';
      const hostPort = port.hostPort ?? 0;
      if (hostIP !== '' && hostPort === 0) out.push(`${pp}: hostIP set without hostPort: ${goPort(port)}`);
      const k = `${port.containerPort ?? 0}/${port.protocol ?? ''}`;
      const others = allPorts.get(k);
      if (!others) {
        allPorts.set(k, [{ path: pp, port }]);
        continue;
      }
      for (const other of others) {
        const otherIP = other.port.hostIP ?? '';
        const otherPort = other.port.hostPort ?? 0;
        if (hostIP === otherIP && hostPort === otherPort) out.push(`${pp}: duplicate port definition with ${other.path}`);
        else if (hostPort === 0 || otherPort === 0) out.push(`${pp}: overlapping port definition with ${other.path}`);
        else if (hostPort === otherPort && (hostIP === '') !== (otherIP === '')) out.push(`${pp}: dangerously ambiguous port definition with ${other.path}`);
      }
      others.push({ path: pp, port });
    }
  });

  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    out.push(`${sp}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  }

  affinityTermWarnings(out, spec.affinity?.podAffinity, `${sp}.affinity.podAffinity`);
  affinityTermWarnings(out, spec.affinity?.podAntiAffinity, `${sp}.affinity.podAntiAffinity`);
  return out;
}

/** A path and where it came from ("ConfigMap \"x\""), printed `"path" (source)`. */
export interface PathAndSource {
  path: string;
  source: string;
}

const psString = (ps: PathAndSource): string => (ps.source !== '' ? `${goQuote(ps.path)} (${ps.source})` : goQuote(ps.path));

/** strings.TrimRight(path, "/"). */
const trimSlashes = (p: string): string => p.replace(/\/+$/, '');

/** checkForOverlap: the earlier paths that equal `needle`, lie under it or hold it. */
export function overlapsWith(haystack: readonly PathAndSource[], needle: PathAndSource): PathAndSource[] {
  if (needle.path === '') return [];
  const result: PathAndSource[] = [];
  const n = `${needle.path}/`;
  for (const item of haystack) {
    if (item.path === '') continue;
    const h = `${item.path}/`;
    if ((item.path === needle.path && item.source === needle.source) || h.startsWith(n) || n.startsWith(h)) result.push(item);
  }
  return result;
}

/** checkVolumeMappingForOverlap: each path against the ones before it. */
function mappingOverlaps(paths: readonly PathAndSource[]): string[] {
  const out: string[] = [];
  const all: PathAndSource[] = [];
  for (const p of paths) {
    const ps = { path: trimSlashes(p.path), source: p.source };
    for (const c of overlapsWith(all, ps)) out.push(`${psString(ps)} with ${psString(c)}`);
    all.push(ps);
  }
  return out;
}

type Items = { path?: string }[] | undefined | null;

const pathsOf = (items: Items, source: string): PathAndSource[] => (items ?? []).map((it) => ({ path: it?.path ?? '', source }));

const projectionKeys = ['secret', 'downwardAPI', 'configMap', 'serviceAccountToken', 'clusterTrustBundle'] as const;

/**
 * warningsForOverlappingVirtualPaths: two items of a configMap, secret, downwardAPI or projected
 * volume written to the same file, or one under the other (the kubelet fails to set it up).
 */
function overlappingPathWarnings(out: string[], volumes: readonly Volume[]): void {
  for (const vol of volumes) {
    const v = (vol ?? {}) as Volume & Record<string, { items?: Items; name?: string; secretName?: string; sources?: Record<string, unknown>[] } | undefined>;
    const warn = (desc: string, body: string) => out.push(`volume ${goQuote(v.name ?? '')} (${desc}): overlapping paths: ${body}`);
    const cm = v.configMap;
    if (set(cm) && set(cm!.items)) for (const o of mappingOverlaps(pathsOf(cm!.items, ''))) warn(`ConfigMap ${goQuote(cm!.name ?? '')}`, o);
    const secret = v.secret;
    if (set(secret) && set(secret!.items)) for (const o of mappingOverlaps(pathsOf(secret!.items, ''))) warn(`Secret ${goQuote(secret!.secretName ?? '')}`, o);
    const dapi = v.downwardAPI;
    if (set(dapi) && set(dapi!.items)) for (const o of mappingOverlaps(pathsOf(dapi!.items, ''))) warn('DownwardAPI', o);
    const projected = v.projected;
    if (!set(projected)) continue;
    // Declared once for the volume, as upstream does: a source that matches no case keeps the last one's paths.
    let sourcePaths: PathAndSource[] = [];
    const all: PathAndSource[] = [];
    for (const src of projected!.sources ?? []) {
      const s = (src ?? {}) as Record<string, { items?: Items; name?: string; path?: string; signerName?: string } | undefined>;
      if (!projectionKeys.some((k) => set(s[k]))) {
        out.push(`volume ${goQuote(v.name ?? '')} (Projected) has no sources provided`);
        continue;
      }
      if (set(s.configMap) && set(s.configMap!.items)) sourcePaths = pathsOf(s.configMap!.items, `ConfigMap ${goQuote(s.configMap!.name ?? '')}`);
      else if (set(s.secret) && set(s.secret!.items)) sourcePaths = pathsOf(s.secret!.items, `Secret ${goQuote(s.secret!.name ?? '')}`);
      else if (set(s.downwardAPI) && set(s.downwardAPI!.items)) sourcePaths = pathsOf(s.downwardAPI!.items, 'DownwardAPI');
      else if (set(s.serviceAccountToken)) sourcePaths = [{ path: s.serviceAccountToken!.path ?? '', source: 'ServiceAccountToken' }];
      else if (set(s.clusterTrustBundle)) {
        const ctb = s.clusterTrustBundle!;
        sourcePaths = [{ path: ctb.path ?? '', source: `ClusterTrustBundle ${goQuote((set(ctb.name) ? ctb.name : ctb.signerName) ?? '')}` }];
      }
      if (sourcePaths.length === 0) continue;
      for (const p of sourcePaths) {
        const ps = { path: trimSlashes(p.path), source: p.source };
        for (const c of overlapsWith(all, ps)) warn('Projected', `${psString(ps)} with ${psString(c)}`);
        all.push(ps);
      }
    }
  }
}
