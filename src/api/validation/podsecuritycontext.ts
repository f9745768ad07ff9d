// validatePodSpecSecurityContext (pkg/apis/core/validation, v1.32), in its order: fsGroup,
// runAsUser, runAsGroup and supplementalGroups as IDs; shareProcessNamespace beside hostPID;
// sysctls; fsGroupChangePolicy; seccompProfile; windowsOptions; appArmorProfile.
//
// hostNetwork, hostPID and hostIPC live in the spec (the v1 API); upstream keeps them in the
// internal PodSecurityContext, hence `spec.securityContext.shareProcessNamespace` as the path of
// the hostPID conflict. supplementalGroupsPolicy and seLinuxChangePolicy are not validated: their
// gates are alpha and off in v1.32, which drops both fields before validation (wordings.md).

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { PodSpec } from '../types.js';
import { validateAppArmorProfileField } from './apparmor.js';
import { isValidUnixID } from './names.js';
import { validateSeccompProfileField } from './seccomp.js';
import { validateSysctls } from './sysctls.js';
import { validateWindowsSecurityContextOptions } from './windowsoptions.js';

const podUnixIDFields = ['fsGroup', 'runAsUser', 'runAsGroup'] as const;
/** validFSGroupChangePolicies, sorted as sets.List returns them. */
const fsGroupChangePolicies = ['Always', 'OnRootMismatch'];

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

export function validatePodSpecSecurityContext(spec: PodSpec, specPath: FieldPath, errs: FieldError[] = []): FieldError[] {
  const path = specPath.child('securityContext');
  const sc = spec.securityContext !== null && typeof spec.securityContext === 'object' ? spec.securityContext : undefined;
  if (sc) {
    for (const f of podUnixIDFields) {
      const v = sc[f];
      if (typeof v === 'number') for (const m of isValidUnixID(v)) errs.push(fieldError.invalid(path.child(f), v, m));
    }
    const groups = sc.supplementalGroups;
    if (Array.isArray(groups)) {
      for (let i = 0; i < groups.length; i++) {
        const g = groups[i];
        if (typeof g === 'number') for (const m of isValidUnixID(g)) errs.push(fieldError.invalid(path.child('supplementalGroups').index(i), g, m));
      }
    }
  }
  if (spec.hostPID === true && spec.shareProcessNamespace === true) {
    errs.push(fieldError.invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (!sc) return errs;
  if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) {
    validateSysctls(sc.sysctls, { hostNetwork: spec.hostNetwork === true, hostIPC: spec.hostIPC === true }, path.child('sysctls'), errs);
  }
  if (isSet(sc.fsGroupChangePolicy)) {
    const v = typeof sc.fsGroupChangePolicy === 'string' ? sc.fsGroupChangePolicy : '';
    if (!fsGroupChangePolicies.includes(v)) errs.push(fieldError.notSupported(path.child('fsGroupChangePolicy'), v, fsGroupChangePolicies));
  }
  if (isSet(sc.seccompProfile)) validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile'), errs);
  if (isSet(sc.windowsOptions)) validateWindowsSecurityContextOptions(sc.windowsOptions, path.child('windowsOptions'), errs);
  if (isSet(sc.appArmorProfile)) validateAppArmorProfileField(sc.appArmorProfile, path.child('appArmorProfile'), errs);
  return errs;
}
