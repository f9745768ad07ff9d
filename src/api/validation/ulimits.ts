// securityContext.ulimits (ulimits design, "Validation Logic"; feature gate ContainerUlimits).
//
// The design fixes the rules but not the messages; the wordings below follow Kubernetes
// conventions and are Bulkhead's own:
//   name missing          …ulimits[j].name: Required value
//   soft or hard missing  …ulimits[j].soft: Required value   (the schema marks all three required;
//                         absent and null are both missing, never read as 0)
//   name not allowed      …ulimits[j].name: Unsupported value: "nproc": supported values: "core", "memlock", "nice", "nofile", "rtprio", "stack"
//   name repeated         …ulimits[j].name: Duplicate value: "nofile"
//   not an integer        …ulimits[j].soft: Invalid value: 1.5: must be an integer
//   negative but not -1   …ulimits[j].soft: Invalid value: -2: must be -1 (unlimited) or a non-negative integer
//   nofile too large      …ulimits[j].hard: Invalid value: 2000000: must be less than or equal to 1048576
//   soft above hard       …ulimits[j].soft: Invalid value: 2048: must be less than or equal to hard limit 1024
//   Windows pod           …securityContext.ulimits: Forbidden: ulimits are not supported for Windows pods
//                         (for a non-empty list, as upstream treats list fields such as sysctls)
// -1 means unlimited for both limits: a hard limit of -1 admits any soft limit; a soft limit of
// -1 under a finite hard limit is refused (unlimited exceeds every finite hard limit). nofile's
// cap does not apply to -1 because the runtime clamps unlimited to the kernel's nr_open.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { Ulimit } from '../types.js';

/** The ulimit names the design allows, sorted (also the order of the Unsupported-value list). */
export const ulimitsAllowlist = ['core', 'memlock', 'nice', 'nofile', 'rtprio', 'stack'] as const;
export type UlimitName = (typeof ulimitsAllowlist)[number];

/** Ceiling for nofile soft and hard limits (the usual kernel nr_open). */
export const nofileMax = 1048576;

/** The value meaning "unlimited" (RLIM_INFINITY at the runtime). */
export const ulimitUnlimited = -1;

export const ulimitNegativeMsg = 'must be -1 (unlimited) or a non-negative integer';
export const ulimitWindowsMsg = 'ulimits are not supported for Windows pods';

export function isAllowedUlimitName(name: string): name is UlimitName {
  return (ulimitsAllowlist as readonly string[]).includes(name);
}

/** Problems with the limit `field` (soft or hard) of the item at `item`; undefined when it is not usable for the soft ≤ hard comparison. */
function checkLimit(v: unknown, name: string, item: FieldPath, field: 'soft' | 'hard', errs: FieldError[]): number | undefined {
  if (v === undefined || v === null) {
    errs.push(fieldError.required(item.child(field)));
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    errs.push(fieldError.invalid(item.child(field), v, 'must be an integer'));
    return undefined;
  }
  if (v < ulimitUnlimited) {
    errs.push(fieldError.invalid(item.child(field), v, ulimitNegativeMsg));
    return undefined;
  }
  if (name === 'nofile' && v > nofileMax) errs.push(fieldError.invalid(item.child(field), v, `must be less than or equal to ${nofileMax}`));
  return v;
}

/** Validates `ulimits` at `path` (`…securityContext.ulimits`), appending to `errs`. */
export function validateUlimits(ulimits: Ulimit[] | undefined, path: FieldPath, windows: boolean, errs: FieldError[] = []): FieldError[] {
  if (ulimits === undefined || ulimits === null || !Array.isArray(ulimits)) return errs;
  if (windows && ulimits.length > 0) errs.push(fieldError.forbidden(path, ulimitWindowsMsg));
  const seen = new Set<string>();
  for (let j = 0; j < ulimits.length; j++) {
    const u = ulimits[j];
    const item = path.index(j);
    const name = typeof u?.name === 'string' ? u.name : '';
    if (name === '') errs.push(fieldError.required(item.child('name')));
    else if (!isAllowedUlimitName(name)) errs.push(fieldError.notSupported(item.child('name'), name, ulimitsAllowlist));
    else if (seen.has(name)) errs.push(fieldError.duplicate(item.child('name'), name));
    if (name !== '') seen.add(name);

    const soft = checkLimit(u?.soft, name, item, 'soft', errs);
    const hard = checkLimit(u?.hard, name, item, 'hard', errs);
    if (soft !== undefined && hard !== undefined && hard !== ulimitUnlimited && (soft === ulimitUnlimited || soft > hard)) {
      errs.push(fieldError.invalid(item.child('soft'), soft, `must be less than or equal to hard limit ${hard}`));
    }
  }
  return errs;
}
