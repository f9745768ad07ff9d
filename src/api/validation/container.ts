// Containers, init containers and ephemeral containers (validateContainers,
// validateInitContainers, validateEphemeralContainers, validateContainerCommon and the
// container-level pieces they call), plus the two design fields: oomKillMode and
// securityContext.ulimits.
//
// Fields that API defaulting always fills (terminationMessagePolicy, imagePullPolicy, a port's
// protocol) are checked only when present, so that an object validated before defaulting is
// not refused for leaving them out; an explicit empty string is still "Required value".

import { fieldError, goQuote, type FieldError, type FieldPath } from '../fielderrors.js';
import type { FeatureGates } from '../featuregates.js';
import { goTrimSpace } from '../quantity.js';
import type { Container, ContainerPort, ContainerResizePolicy, EphemeralContainer, SecurityContext } from '../types.js';
import { validateAppArmorProfileField } from './apparmor.js';
import { isConfigMapKey } from './config.js';
import { goPointer, goValue } from './gosyntax.js';
import { isDNS1123Label, isValidPortName, isValidPortNum, isValidUnixID, nameIsDNSSubdomain } from './names.js';
import { validateOOMKillMode } from './oomkillmode.js';
import { validateLifecycleAndProbes } from './probes.js';
import { validateContainerResources } from './resources.js';
import { envFieldPaths, validateObjectFieldSelector, validateResourceFieldSelector } from './downwardapi.js';
import { validateSeccompProfileField } from './seccomp.js';
import { validateUlimits } from './ulimits.js';
import { validateVolumeDevices, validateVolumeMounts, type VolumeMap } from './volumes.js';
import { validateWindowsSecurityContextOptions } from './windowsoptions.js';

export type ContainerGates = Pick<FeatureGates, 'ContainerOOMKillMode' | 'ContainerUlimits'> & Partial<Pick<FeatureGates, 'InPlacePodVerticalScaling'>>;

/** What container validation needs to know about the pod around it. */
export interface ContainerContext {
  gates: ContainerGates;
  /** spec.os.name is windows. */
  windows: boolean;
  /** spec.hostUsers (default true). */
  hostUsers: boolean;
  /** spec.terminationGracePeriodSeconds, the bound of a lifecycle sleep (unset: not checked). */
  terminationGracePeriodSeconds?: number;
  /** The pod's volumes that validated cleanly (validateVolumes): what mounts and devices may name. */
  volumes: VolumeMap;
  /** spec.restartPolicy (a resize policy must be NotRequired under Never). */
  podRestartPolicy?: string;
}

const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const procMountTypes = ['Default', 'Unmasked'];
/** supportedResizeResources and supportedResizePolicies, sorted as sets.List returns them. */
const resizeResources = ['cpu', 'memory'];
const resizeRestartPolicies = ['NotRequired', 'RestartContainer'];
const sidecarOnlyMsg = 'may not be set for init containers without restartPolicy=Always';
const ephemeralForbiddenMsg = 'cannot be set for an Ephemeral Container';

const envNameMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const initOnlyFields = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const;
const ephemeralForbiddenFields = ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'] as const;

// The validators below append to the list they are given (a new one when none is) and return
// it, as upstream's `allErrs = append(allErrs, …)` does, without a list per call.

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** ValidateDNS1123Label. */
export function validateDNS1123Label(value: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  for (const m of isDNS1123Label(value)) errs.push(fieldError.invalid(path, value, m));
  return errs;
}

/** validateContainerPorts. */
export function validateContainerPorts(ports: ContainerPort[] | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!Array.isArray(ports) || ports.length === 0) return errs;
  const names = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i];
    const p = path.index(i);
    const name = str(port?.name);
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const m of msgs) errs.push(fieldError.invalid(p.child('name'), name, m));
      else if (names.has(name)) errs.push(fieldError.duplicate(p.child('name'), name));
      else names.add(name);
    }
    const containerPort = port?.containerPort ?? 0;
    if (containerPort === 0) errs.push(fieldError.required(p.child('containerPort')));
    else for (const m of isValidPortNum(containerPort)) errs.push(fieldError.invalid(p.child('containerPort'), containerPort, m));
    const hostPort = port?.hostPort ?? 0;
    if (hostPort !== 0) for (const m of isValidPortNum(hostPort)) errs.push(fieldError.invalid(p.child('hostPort'), hostPort, m));
    if (port?.protocol !== undefined) {
      const protocol = str(port.protocol);
      if (protocol.length === 0) errs.push(fieldError.required(p.child('protocol')));
      else if (!supportedPortProtocols.includes(protocol)) errs.push(fieldError.notSupported(p.child('protocol'), protocol, supportedPortProtocols));
    }
  }
  return errs;
}

/**
 * checkHostPortConflicts for one container at `path`: `<protocol>/<hostIP>/<hostPort>` must be
 * unique across the containers checked with the same `seen` set.
 */
function checkContainerHostPorts(c: Container, path: FieldPath, seen: Set<string>, errs: FieldError[]): FieldError[] {
  const ports = c?.ports;
  if (!Array.isArray(ports)) return errs;
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i];
    const hostPort = port?.hostPort ?? 0;
    if (hostPort === 0) continue;
    const key = `${str(port!.protocol)}/${str(port!.hostIP)}/${hostPort}`;
    if (seen.has(key)) errs.push(fieldError.duplicate(path.child('ports').index(i).child('hostPort'), key));
    else seen.add(key);
  }
  return errs;
}

/** checkHostPortConflicts: `<protocol>/<hostIP>/<hostPort>` must be unique across the given containers. */
export function checkHostPortConflicts(containers: { c: Container; path: FieldPath }[], seen = new Set<string>(), errs: FieldError[] = []): FieldError[] {
  for (const { c, path } of containers) checkContainerHostPorts(c, path, seen, errs);
  return errs;
}

/** IsRelaxedEnvVarName (the RelaxedEnvironmentVariableValidation rule, on by default upstream). */
function isRelaxedEnvVarName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const cu = name.charCodeAt(i);
    // A UTF-16 unit outside 0x20..0x7e is a code point outside it too.
    if (cu > 0x7e || cu < 0x20 || cu === 0x3d) return false;
  }
  return true;
}

type Obj = Record<string, unknown>;

function asObj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** validateConfigMapKeySelector / validateSecretKeySelector (both check the name as a Secret name). */
function validateKeySelector(ks: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  const name = str(ks.name);
  for (const m of nameIsDNSSubdomain(name, false)) errs.push(fieldError.invalid(path.child('name'), name, m));
  const key = str(ks.key);
  if (key.length === 0) errs.push(fieldError.required(path.child('key')));
  else for (const m of isConfigMapKey(key)) errs.push(fieldError.invalid(path.child('key'), key, m));
  return errs;
}

/** validateEnvVarValueFrom: exactly one source, and none beside a non-empty value. */
function validateEnvVarValueFrom(ev: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  const from = asObj(ev.valueFrom);
  if (!from) return errs;
  let sources = 0;
  const fieldRef = asObj(from.fieldRef);
  if (fieldRef) {
    sources++;
    validateObjectFieldSelector(fieldRef, envFieldPaths, path.child('fieldRef'), errs);
  }
  const resourceFieldRef = asObj(from.resourceFieldRef);
  if (resourceFieldRef) {
    sources++;
    validateResourceFieldSelector(resourceFieldRef, false, path.child('resourceFieldRef'), errs);
  }
  const configMapKeyRef = asObj(from.configMapKeyRef);
  if (configMapKeyRef) {
    sources++;
    validateKeySelector(configMapKeyRef, path.child('configMapKeyRef'), errs);
  }
  const secretKeyRef = asObj(from.secretKeyRef);
  if (secretKeyRef) {
    sources++;
    validateKeySelector(secretKeyRef, path.child('secretKeyRef'), errs);
  }
  if (sources === 0) errs.push(fieldError.invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value).length !== 0) errs.push(fieldError.invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** ValidateEnv (relaxed names). */
function validateEnv(env: Container['env'], path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!Array.isArray(env)) return errs;
  for (let i = 0; i < env.length; i++) {
    const name = str(env[i]?.name);
    if (name.length === 0) errs.push(fieldError.required(path.index(i).child('name')));
    else if (!isRelaxedEnvVarName(name)) errs.push(fieldError.invalid(path.index(i).child('name'), name, envNameMsg));
    const ev = asObj(env[i]);
    if (ev && isSet(ev.valueFrom)) validateEnvVarValueFrom(ev, path.index(i).child('valueFrom'), errs);
  }
  return errs;
}

/** ValidateEnvFrom (relaxed prefix): one of configMapRef or secretRef, each naming a ConfigMap or Secret. */
function validateEnvFrom(envFrom: unknown[], path: FieldPath, errs: FieldError[]): FieldError[] {
  for (let i = 0; i < envFrom.length; i++) {
    const ev = asObj(envFrom[i]) ?? {};
    const p = path.index(i);
    const prefix = str(ev.prefix);
    if (prefix.length > 0 && !isRelaxedEnvVarName(prefix)) errs.push(fieldError.invalid(p.child('prefix'), prefix, envNameMsg));
    let sources = 0;
    for (const ref of ['configMapRef', 'secretRef'] as const) {
      const src = asObj(ev[ref]);
      if (!src) continue;
      sources++;
      const name = str(src.name);
      if (name.length === 0) errs.push(fieldError.required(p.child(ref).child('name')));
      else for (const m of nameIsDNSSubdomain(name, true)) errs.push(fieldError.invalid(p.child(ref).child('name'), name, m));
    }
    if (sources === 0) errs.push(fieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

function validateEnumIfSet(value: unknown, allowed: string[], path: FieldPath, errs: FieldError[]): FieldError[] {
  if (value === undefined) return errs;
  const v = str(value);
  if (v === '') errs.push(fieldError.required(path));
  else if (!allowed.includes(v)) errs.push(fieldError.notSupported(path, v, allowed));
  return errs;
}

/**
 * The *core.SecurityContext that ValidateSecurityContext reports as the bad value, as field.Error
 * prints it: the pointer dereferenced, then %#v of v1.32's struct (its twelve fields in order; the
 * ulimits design field is not part of it). A set pointer field prints as an address, which Go
 * varies from run to run; Bulkhead prints a fixed one (goPointer).
 */
function goSecurityContext(sc: SecurityContext): string {
  const fields: [string, string, unknown][] = [
    ['Capabilities', 'core.Capabilities', sc.capabilities],
    ['Privileged', 'bool', sc.privileged],
    ['SELinuxOptions', 'core.SELinuxOptions', sc.seLinuxOptions],
    ['WindowsOptions', 'core.WindowsSecurityContextOptions', sc.windowsOptions],
    ['RunAsUser', 'int64', sc.runAsUser],
    ['RunAsGroup', 'int64', sc.runAsGroup],
    ['RunAsNonRoot', 'bool', sc.runAsNonRoot],
    ['ReadOnlyRootFilesystem', 'bool', sc.readOnlyRootFilesystem],
    ['AllowPrivilegeEscalation', 'bool', sc.allowPrivilegeEscalation],
    ['ProcMount', 'core.ProcMountType', sc.procMount],
    ['SeccompProfile', 'core.SeccompProfile', sc.seccompProfile],
    ['AppArmorProfile', 'core.AppArmorProfile', sc.appArmorProfile],
  ];
  return `core.SecurityContext{${fields.map(([name, type, v]) => `${name}:${goPointer(type, v)}`).join(', ')}}`;
}

/**
 * ValidateSecurityContext in its order (runAsUser, runAsGroup, procMount, seccompProfile,
 * allowPrivilegeEscalation, windowsOptions, appArmorProfile; `privileged` against the cluster's
 * allow-privileged policy is not enforced), then the ulimits design.
 */
function validateSecurityContext(sc: SecurityContext | undefined, path: FieldPath, ctx: ContainerContext, errs: FieldError[]): FieldError[] {
  if (!sc || typeof sc !== 'object') return errs;
  if (typeof sc.runAsUser === 'number') for (const m of isValidUnixID(sc.runAsUser)) errs.push(fieldError.invalid(path.child('runAsUser'), sc.runAsUser, m));
  if (typeof sc.runAsGroup === 'number') for (const m of isValidUnixID(sc.runAsGroup)) errs.push(fieldError.invalid(path.child('runAsGroup'), sc.runAsGroup, m));
  if (sc.procMount !== undefined && sc.procMount !== null) {
    const pm = str(sc.procMount);
    if (!procMountTypes.includes(pm)) errs.push(fieldError.notSupported(path.child('procMount'), pm, procMountTypes));
    if (ctx.hostUsers && pm === 'Unmasked') errs.push(fieldError.invalid(path.child('procMount'), pm, '`hostUsers` must be false to use `Unmasked`'));
  }
  if (isSet(sc.seccompProfile)) validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile'), errs);
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) {
      errs.push(fieldError.invalid(path, goValue(goSecurityContext(sc)), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    }
    const add = sc.capabilities?.add;
    if (Array.isArray(add)) {
      for (const cap of add) {
        if (cap === 'CAP_SYS_ADMIN') errs.push(fieldError.invalid(path, goValue(goSecurityContext(sc)), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
      }
    }
  }
  if (isSet(sc.windowsOptions)) validateWindowsSecurityContextOptions(sc.windowsOptions, path.child('windowsOptions'), errs);
  if (isSet(sc.appArmorProfile)) validateAppArmorProfileField(sc.appArmorProfile, path.child('appArmorProfile'), errs);
  if (ctx.gates.ContainerUlimits && sc.ulimits !== undefined && sc.ulimits !== null) validateUlimits(sc.ulimits, path.child('ulimits'), ctx.windows, errs);
  return errs;
}

/**
 * validateResizePolicy. Upstream's quirks are kept: the Required and Unsupported errors sit at
 * `resizePolicy` itself, not at the entry; a resource name prints unquoted (core.ResourceName is
 * a fmt.Stringer), a restart policy quoted (%#v of a plain string type).
 */
function validateResizePolicy(policies: ContainerResizePolicy[], path: FieldPath, podRestartPolicy: string | undefined, errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  for (let i = 0; i < policies.length; i++) {
    const name = str(policies[i]?.resourceName);
    const policy = str(policies[i]?.restartPolicy);
    if (seen.has(name)) errs.push(fieldError.duplicate(path.index(i), goValue(name)));
    seen.add(name);
    if (name === '') errs.push(fieldError.required(path));
    else if (!resizeResources.includes(name)) errs.push(fieldError.notSupported(path, goValue(name), resizeResources));
    if (policy === '') errs.push(fieldError.required(path));
    else if (!resizeRestartPolicies.includes(policy)) errs.push(fieldError.notSupported(path, policy, resizeRestartPolicies));
    if (podRestartPolicy === 'Never' && policy !== 'NotRequired') {
      errs.push(fieldError.invalid(path, policy, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  }
  return errs;
}

/** %#v of a []core.ContainerResizePolicy. */
function goResizePolicies(policies: ContainerResizePolicy[]): string {
  const items = policies.map((p) => `core.ContainerResizePolicy{ResourceName:${goQuote(str(p?.resourceName))}, RestartPolicy:${goQuote(str(p?.restartPolicy))}}`);
  return `[]core.ContainerResizePolicy{${items.join(', ')}}`;
}

/** validateContainerCommon: what every kind of container must satisfy. */
function validateContainerCommon(c: Container, path: FieldPath, ctx: ContainerContext, errs: FieldError[]): FieldError[] {
  const name = str(c?.name);
  if (name.length === 0) errs.push(fieldError.required(path.child('name')));
  else validateDNS1123Label(name, path.child('name'), errs);
  if (str(c?.image).length === 0) errs.push(fieldError.required(path.child('image')));
  validateEnumIfSet(c?.terminationMessagePolicy, terminationMessagePolicies, path.child('terminationMessagePolicy'), errs);
  if (Array.isArray(c?.ports)) validateContainerPorts(c.ports, path.child('ports'), errs);
  if (Array.isArray(c?.env)) validateEnv(c.env, path.child('env'), errs);
  const envFrom = (c as { envFrom?: unknown } | undefined)?.envFrom;
  if (Array.isArray(envFrom)) validateEnvFrom(envFrom, path.child('envFrom'), errs);
  if (Array.isArray(c?.volumeMounts)) validateVolumeMounts(c, ctx.volumes, path.child('volumeMounts'), errs);
  if (Array.isArray(c?.volumeDevices)) validateVolumeDevices(c, ctx.volumes, path.child('volumeDevices'), errs);
  validateEnumIfSet(c?.imagePullPolicy, pullPolicies, path.child('imagePullPolicy'), errs);
  validateContainerResources(c?.resources, path.child('resources'), errs);
  // With InPlacePodVerticalScaling off (v1.32's default) upstream drops resizePolicy before validation.
  if (ctx.gates.InPlacePodVerticalScaling === true && Array.isArray(c?.resizePolicy)) validateResizePolicy(c.resizePolicy, path.child('resizePolicy'), ctx.podRestartPolicy, errs);
  if (isSet(c?.securityContext)) validateSecurityContext(c.securityContext, path.child('securityContext'), ctx, errs);
  if (ctx.gates.ContainerOOMKillMode && isSet(c?.oomKillMode)) validateOOMKillMode(c.oomKillMode, path.child('oomKillMode'), ctx.windows, errs);
  return errs;
}

/** validateContainers: at least one; names unique among regular containers; no restartPolicy. */
export function validateContainers(containers: Container[] | undefined, path: FieldPath, ctx: ContainerContext, errs: FieldError[] = []): FieldError[] {
  if (!Array.isArray(containers) || containers.length === 0) {
    errs.push(fieldError.required(path));
    return errs;
  }
  const names = new Set<string>();
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i]!;
    const p = path.index(i);
    validateContainerCommon(c, p, ctx, errs);
    const name = str(c?.name);
    if (names.has(name)) errs.push(fieldError.duplicate(p.child('name'), name));
    else names.add(name);
    validateLifecycleAndProbes(c, ctx.terminationGracePeriodSeconds, p, errs);
    if (c?.restartPolicy !== undefined && c?.restartPolicy !== null) {
      errs.push(fieldError.forbidden(p.child('restartPolicy'), 'may not be set for non-init containers'));
    }
  }
  const seen = new Set<string>();
  for (let i = 0; i < containers.length; i++) {
    if (Array.isArray(containers[i]?.ports)) checkContainerHostPorts(containers[i]!, path.index(i), seen, errs);
  }
  return errs;
}

/** validateInitContainers: restartPolicy only Always; names unique with regular containers; sidecar-only fields. */
export function validateInitContainers(inits: Container[] | undefined, regular: Container[] | undefined, path: FieldPath, ctx: ContainerContext, errs: FieldError[] = []): FieldError[] {
  if (!Array.isArray(inits) || inits.length === 0) return errs;
  const names = new Set<string>();
  if (Array.isArray(regular)) for (const c of regular) names.add(str(c?.name));
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i]!;
    const p = path.index(i);
    validateContainerCommon(c, p, ctx, errs);
    let sidecar = false;
    if (c?.restartPolicy !== undefined && c?.restartPolicy !== null) {
      const rp = str(c.restartPolicy);
      if (rp !== 'Always') errs.push(fieldError.notSupported(p.child('restartPolicy'), rp, ['Always']));
      sidecar = rp === 'Always';
    }
    const name = str(c?.name);
    if (names.has(name)) errs.push(fieldError.duplicate(p.child('name'), name));
    else if (name.length > 0) names.add(name);
    if (Array.isArray(c?.ports)) checkContainerHostPorts(c, p, new Set<string>(), errs);
    if (sidecar) {
      validateLifecycleAndProbes(c, ctx.terminationGracePeriodSeconds, p, errs);
    } else {
      for (const f of initOnlyFields) {
        if (isSet(c?.[f])) errs.push(fieldError.forbidden(p.child(f), sidecarOnlyMsg));
      }
    }
    if (ctx.gates.InPlacePodVerticalScaling === true && Array.isArray(c?.resizePolicy) && c.resizePolicy.length > 0) {
      errs.push(fieldError.invalid(p.child('resizePolicy'), goValue(goResizePolicies(c.resizePolicy)), 'must not be set for init containers'));
    }
  }
  return errs;
}

function resourcesSet(r: Container['resources']): boolean {
  return !!r && typeof r === 'object' && (isSet(r.limits) || isSet(r.requests) || isSet(r.claims));
}

/**
 * validateEphemeralContainers: names unique across all containers, targetContainerName must
 * name a regular or init container, and the fields outside upstream's allow-list are Forbidden.
 */
export function validateEphemeralContainers(
  ephemeral: EphemeralContainer[] | undefined,
  regular: Container[] | undefined,
  inits: Container[] | undefined,
  path: FieldPath,
  ctx: ContainerContext,
  errs: FieldError[] = [],
): FieldError[] {
  if (!Array.isArray(ephemeral) || ephemeral.length === 0) return errs;
  const others = new Set<string>();
  for (const c of [...(Array.isArray(regular) ? regular : []), ...(Array.isArray(inits) ? inits : [])]) others.add(str(c?.name));
  const all = new Set(others);
  for (let i = 0; i < ephemeral.length; i++) {
    const ec = ephemeral[i]!;
    const p = path.index(i);
    validateContainerCommon(ec, p, ctx, errs);
    validateImageWhitespace(ec, p, errs);
    const name = str(ec?.name);
    if (all.has(name)) errs.push(fieldError.duplicate(p.child('name'), name));
    else all.add(name);
    const target = str(ec?.targetContainerName);
    if (target !== '' && !others.has(target)) errs.push(fieldError.notFound(p.child('targetContainerName'), target));
    if (isSet(ec?.ports)) errs.push(fieldError.forbidden(p.child('ports'), ephemeralForbiddenMsg));
    if (resourcesSet(ec?.resources)) errs.push(fieldError.forbidden(p.child('resources'), ephemeralForbiddenMsg));
    // Not on the allow-list: any non-nil list is Forbidden, an empty one too (reflect.DeepEqual with nil).
    if (ctx.gates.InPlacePodVerticalScaling === true && isSet(ec?.resizePolicy)) {
      errs.push(fieldError.forbidden(p.child('resizePolicy'), ephemeralForbiddenMsg));
    }
    if (isSet(ec?.restartPolicy)) errs.push(fieldError.forbidden(p.child('restartPolicy'), ephemeralForbiddenMsg));
    for (const f of ephemeralForbiddenFields) {
      if (isSet(ec?.[f])) errs.push(fieldError.forbidden(p.child(f), ephemeralForbiddenMsg));
    }
    const mounts = ec?.volumeMounts;
    if (Array.isArray(mounts)) {
      for (let j = 0; j < mounts.length; j++) {
        if (str(mounts[j]?.subPath) !== '') errs.push(fieldError.forbidden(p.child('volumeMounts').index(j).child('subPath'), ephemeralForbiddenMsg));
        if (str(mounts[j]?.subPathExpr) !== '') errs.push(fieldError.forbidden(p.child('volumeMounts').index(j).child('subPathExpr'), ephemeralForbiddenMsg));
      }
    }
  }
  return errs;
}

/** validateContainerOnlyForPod: no leading or trailing whitespace in the image. */
export function validateImageWhitespace(c: Container, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const image = str(c?.image);
  if (image.length !== goTrimSpace(image).length) errs.push(fieldError.invalid(path.child('image'), image, 'must not have leading or trailing whitespace'));
  return errs;
}
