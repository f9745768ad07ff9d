// Container oomKillMode (OOM kill mode design, "Validation Rules"; feature gate
// ContainerOOMKillMode). The design's code reports an unknown mode with field.Invalid and Go's
// %v of the sorted valid modes, and forbids the field on Windows pods:
//   spec.containers[0].oomKillMode: Invalid value: "Foo": must be one of [Group Single]
//   spec.containers[0].oomKillMode: Forbidden: oomKillMode is not supported for Windows pods

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { OOMKillMode } from '../types.js';

/** The valid modes, sorted as sets.NewString(...).List() sorts them. */
export const oomKillModes: readonly OOMKillMode[] = ['Group', 'Single'];

export const oomKillModeInvalidMsg = `must be one of [${oomKillModes.join(' ')}]`;
export const oomKillModeWindowsMsg = 'oomKillMode is not supported for Windows pods';

/** Validates a container's `oomKillMode` at `path` (`…[i].oomKillMode`); absent means "not set". Appends to `errs`. */
export function validateOOMKillMode(mode: unknown, path: FieldPath, windows: boolean, errs: FieldError[] = []): FieldError[] {
  if (mode === undefined || mode === null) return errs;
  if (typeof mode !== 'string' || !(oomKillModes as readonly string[]).includes(mode)) {
    errs.push(fieldError.invalid(path, mode, oomKillModeInvalidMsg));
  }
  if (windows) errs.push(fieldError.forbidden(path, oomKillModeWindowsMsg));
  return errs;
}
