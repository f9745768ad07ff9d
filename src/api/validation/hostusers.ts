// validateHostUsers (pkg/apis/core/validation, v1.32): a pod in its own user namespace
// (spec.hostUsers: false) may not share the host's network, PID or IPC namespace. Upstream
// names the last two fields `HostPID` and `HostIPC` (capitalised), as kept here.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { PodSpec } from '../types.js';

const msg = 'when `pod.Spec.HostUsers` is false';

export function validateHostUsers(spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (spec.hostUsers !== false) return errs;
  if (spec.hostNetwork === true) errs.push(fieldError.forbidden(path.child('hostNetwork'), msg));
  if (spec.hostPID === true) errs.push(fieldError.forbidden(path.child('HostPID'), msg));
  if (spec.hostIPC === true) errs.push(fieldError.forbidden(path.child('HostIPC'), msg));
  return errs;
}
