// Baseline `sysctls`: spec.securityContext.sysctls[*].name must be in the safe set, which grows at
// v1.27, v1.29, v1.32 and v1.37. Upstream: policy/check_sysctls.go. Forbidden names are reported
// in spec order, not de-duplicated, unquoted.

import { ALLOWED, forbidden, type Check, type CheckPodFn, type CheckResult } from '../check.js';
import { v1 } from '../levels.js';
import { get, items, podSecurityContext, rec, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

const allowed_1_0: ReadonlySet<string> = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
]);
const allowed_1_27: ReadonlySet<string> = new Set([...allowed_1_0, 'net.ipv4.ip_local_reserved_ports']);
const allowed_1_29: ReadonlySet<string> = new Set([
  ...allowed_1_27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
const allowed_1_32: ReadonlySet<string> = new Set([...allowed_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']);
const allowed_1_37: ReadonlySet<string> = new Set([
  ...allowed_1_32,
  'net.ipv4.tcp_slow_start_after_idle',
  'net.ipv4.tcp_notsent_lowat',
]);

function sysctls(podSpec: PodSpecInput, allowed: ReadonlySet<string>): CheckResult {
  const bad: string[] = [];
  for (const s of items(get(podSecurityContext(podSpec), 'sysctls'))) {
    const name = get(rec(s), 'name');
    if (!(typeof name === 'string' && allowed.has(name))) bad.push(text(name));
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden('forbidden sysctls', bad.join(', '));
}

const variant = (allowed: ReadonlySet<string>): CheckPodFn =>
  (_m: PodMetadataInput, s: PodSpecInput) => sysctls(s, allowed);

export const sysctls_1_0 = variant(allowed_1_0);
export const sysctls_1_27 = variant(allowed_1_27);
export const sysctls_1_29 = variant(allowed_1_29);
export const sysctls_1_32 = variant(allowed_1_32);
export const sysctls_1_37 = variant(allowed_1_37);

export const sysctlsCheck: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumVersion: v1(0), checkPod: sysctls_1_0 },
    { minimumVersion: v1(27), checkPod: sysctls_1_27 },
    { minimumVersion: v1(29), checkPod: sysctls_1_29 },
    { minimumVersion: v1(32), checkPod: sysctls_1_32 },
    { minimumVersion: v1(37), checkPod: sysctls_1_37 },
  ],
};
