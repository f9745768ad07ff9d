// spec.os and the fields it rules out (pkg/apis/core/validation, v1.32): validateOS, then,
// when the name is valid, validateLinux (no windowsOptions) or validateWindows (none of the
// Linux-only security fields), as the end of ValidatePodSpec runs them.
//
// Left out of validateWindows: spec.securityContext.supplementalGroupsPolicy and
// seLinuxChangePolicy, whose gates (SupplementalGroupsPolicy, SELinuxChangePolicy) are alpha and
// off in v1.32, so upstream drops both fields before validation (wordings.md).

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { PodSpec } from '../types.js';
import { visitContainersWithPath } from './visitcontainers.js';

/** validOS, sorted. */
export const validOSNames = ['linux', 'windows'];

const windowsMsg = 'cannot be set for a windows pod';
const linuxMsg = 'windows options cannot be set for a linux pod';

/** The Linux-only fields of a container's security context, in validateWindows' order. */
const linuxOnlyContainerFields = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
] as const;

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** validateOS: `spec.os.name: Required value: cannot be empty`, or `spec.os: Unsupported value: "…"`. */
export function validateOS(spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const os = spec.os;
  if (os === undefined || os === null) return errs;
  const name = typeof os.name === 'string' ? os.name : '';
  if (name.length === 0) errs.push(fieldError.required(path.child('name'), 'cannot be empty'));
  else if (!validOSNames.includes(name)) errs.push(fieldError.notSupported(path, name, validOSNames));
  return errs;
}

/** validateLinux: windowsOptions on the pod or a container. */
export function validateLinux(spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (isSet(spec.securityContext?.windowsOptions)) errs.push(fieldError.forbidden(path.child('securityContext', 'windowsOptions'), linuxMsg));
  visitContainersWithPath(spec, path, (c, cPath) => {
    if (isSet(c.securityContext?.windowsOptions)) errs.push(fieldError.forbidden(cPath.child('securityContext', 'windowsOptions'), linuxMsg));
  });
  return errs;
}

/**
 * validateWindows. Upstream keeps hostUsers, hostPID, hostIPC and shareProcessNamespace in the
 * internal PodSecurityContext but reports them at the spec (spec.hostPID, …), as here.
 */
export function validateWindows(spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const sc = spec.securityContext && typeof spec.securityContext === 'object' ? spec.securityContext : {};
  const scPath = path.child('securityContext');
  if (isSet(sc.appArmorProfile)) errs.push(fieldError.forbidden(scPath.child('appArmorProfile'), windowsMsg));
  if (isSet(sc.seLinuxOptions)) errs.push(fieldError.forbidden(scPath.child('seLinuxOptions'), windowsMsg));
  if (isSet(spec.hostUsers)) errs.push(fieldError.forbidden(path.child('hostUsers'), windowsMsg));
  if (spec.hostPID === true) errs.push(fieldError.forbidden(path.child('hostPID'), windowsMsg));
  if (spec.hostIPC === true) errs.push(fieldError.forbidden(path.child('hostIPC'), windowsMsg));
  if (isSet(sc.seccompProfile)) errs.push(fieldError.forbidden(scPath.child('seccompProfile'), windowsMsg));
  if (isSet(sc.fsGroup)) errs.push(fieldError.forbidden(scPath.child('fsGroup'), windowsMsg));
  if (isSet(sc.fsGroupChangePolicy)) errs.push(fieldError.forbidden(scPath.child('fsGroupChangePolicy'), windowsMsg));
  if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) errs.push(fieldError.forbidden(scPath.child('sysctls'), windowsMsg));
  if (isSet(spec.shareProcessNamespace)) errs.push(fieldError.forbidden(path.child('shareProcessNamespace'), windowsMsg));
  if (isSet(sc.runAsUser)) errs.push(fieldError.forbidden(scPath.child('runAsUser'), windowsMsg));
  if (isSet(sc.runAsGroup)) errs.push(fieldError.forbidden(scPath.child('runAsGroup'), windowsMsg));
  // A non-nil list, an empty one included, as Go's `!= nil`.
  if (isSet(sc.supplementalGroups)) errs.push(fieldError.forbidden(scPath.child('supplementalGroups'), windowsMsg));
  visitContainersWithPath(spec, path, (c, cPath) => {
    const csc = c.securityContext;
    if (!csc || typeof csc !== 'object') return;
    const p = cPath.child('securityContext');
    for (const f of linuxOnlyContainerFields) if (isSet(csc[f])) errs.push(fieldError.forbidden(p.child(f), windowsMsg));
  });
  return errs;
}

/** The end of ValidatePodSpec: validateOS, then the OS's own rules when the OS is valid. */
export function validateOSFields(spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!isSet(spec.os)) return errs;
  const before = errs.length;
  validateOS(spec, path.child('os'), errs);
  if (errs.length > before) return errs;
  if (spec.os!.name === 'linux') validateLinux(spec, path, errs);
  else if (spec.os!.name === 'windows') validateWindows(spec, path, errs);
  return errs;
}
