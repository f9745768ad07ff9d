// Pod sysctls (validateSysctls, IsValidSysctlName and ValidateHostSysctl in
// pkg/apis/core/validation, v1.32), with the kernel namespace of a sysctl as
// k8s.io/component-helpers/node/util/sysctl (GetNamespace, NormalizeName) decides it.
//
// AllowNamespacedSysctlsForHostNetAndHostIPC is false on create, so a namespaced sysctl beside
// the host namespace it belongs to is always refused here.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { Sysctl } from '../types.js';
import { byteLength } from './names.js';

/** SysctlMaxLength. */
export const sysctlMaxLength = 253;
const sysctlSegmentFmt = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
/** `^` + SysctlContainSlashFmt + `$`, as the Invalid message prints the compiled regexp. */
const sysctlContainSlashPattern = `^(${sysctlSegmentFmt}[\\./])*${sysctlSegmentFmt}$`;
const sysctlContainSlashRe = new RegExp(sysctlContainSlashPattern);
const invalidNameMsg = `must have at most ${sysctlMaxLength} characters and match regex ${sysctlContainSlashPattern}`;

/** IsValidSysctlName: at most 253 bytes, dot- or slash-separated segments. */
export function isValidSysctlName(name: string): boolean {
  return byteLength(name) <= sysctlMaxLength && sysctlContainSlashRe.test(name);
}

export type SysctlNamespace = 'IPC' | 'Net' | '';

const nameToNamespace: Record<string, SysctlNamespace> = {
  'kernel.sem': 'IPC',
  'kernel.shmall': 'IPC',
  'kernel.shmmax': 'IPC',
  'kernel.shmmni': 'IPC',
  'kernel.shm_rmid_forced': 'IPC',
  'kernel.shm': 'IPC',
  'kernel.msgmax': 'IPC',
  'kernel.msgmnb': 'IPC',
  'kernel.msgmni': 'IPC',
  'kernel.msg': 'IPC',
};
const prefixToNamespace: [string, SysctlNamespace][] = [
  ['net.', 'Net'],
  ['fs.mqueue.', 'IPC'],
];

/** NormalizeName: a name whose first separator is '/' has its '.' and '/' swapped. */
export function normalizeSysctlName(name: string): string {
  const first = name.search(/[./]/);
  if (first === -1 || name[first] === '.') return name;
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

/** GetNamespace's namespace: IPC, Net or '' (not namespaced, or not known to be), up to a first '*'. */
export function sysctlNamespace(name: string): SysctlNamespace {
  let s = normalizeSysctlName(name);
  const star = s.indexOf('*');
  if (star !== -1) s = s.slice(0, star);
  if (Object.prototype.hasOwnProperty.call(nameToNamespace, s)) return nameToNamespace[s]!;
  for (const [prefix, ns] of prefixToNamespace) if (s.startsWith(prefix)) return ns;
  return '';
}

export interface HostNamespaces {
  hostNetwork: boolean;
  hostIPC: boolean;
}

/** ValidateHostSysctl: a namespaced sysctl cannot be set in the host's namespace it belongs to. */
function validateHostSysctl(name: string, host: HostNamespaces, path: FieldPath, errs: FieldError[]): FieldError[] {
  const ns = sysctlNamespace(name);
  if (host.hostNetwork && ns === 'Net') errs.push(fieldError.invalid(path, name, "may not be specified when 'hostNetwork' is true"));
  else if (host.hostIPC && ns === 'IPC') errs.push(fieldError.invalid(path, name, "may not be specified when 'hostIPC' is true"));
  return errs;
}

/** validateSysctls over spec.securityContext.sysctls at `path`. */
export function validateSysctls(sysctls: Sysctl[], host: HostNamespaces, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const names = new Set<string>();
  for (let i = 0; i < sysctls.length; i++) {
    const raw = sysctls[i]?.name;
    const name = typeof raw === 'string' ? raw : '';
    const p = path.index(i).child('name');
    if (name.length === 0) errs.push(fieldError.required(p));
    else if (!isValidSysctlName(name)) errs.push(fieldError.invalid(p, name, invalidNameMsg));
    else if (names.has(name)) errs.push(fieldError.duplicate(p, name));
    validateHostSysctl(name, host, p, errs);
    names.add(name);
  }
  return errs;
}
