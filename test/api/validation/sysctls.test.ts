// Pod sysctls (src/api/validation/sysctls.ts): upstream's TestIsValidSysctlName and
// TestValidateSysctls rows (pkg/apis/core/validation/validation_test.go), the namespace rows of
// component-helpers' GetNamespace, and the rules as validatePodCreate reports them.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorString, FieldPath } from '../../../src/api/fielderrors.js';
import type { Pod } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { isValidSysctlName, sysctlNamespace, validateSysctls, type HostNamespaces } from '../../../src/api/validation/sysctls.js';
import { allGates, assertErrors, podWith, type Want } from './helpers.js';

const regexMsg = 'must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';

describe('IsValidSysctlName (TestIsValidSysctlName)', () => {
  const valid = ['a.b.c.d', 'a', 'a_b', 'a-b', 'abc', 'abc.def', 'a/b/c/d', 'a/b.c'];
  const invalid = ['', '*', 'ä', 'a_', '_', '__', '_a', '_a._b', '-', '.', 'a.', '.a', 'a.b.', 'a*.b', 'a*b', '*a', 'a.*', 'abc*', 'a.abc*', 'a.b.*', 'Abc', '/', '/a', 'a/abc*', 'a/b/*', 'a'.repeat(256)];
  for (const s of valid) test(`valid: ${JSON.stringify(s)}`, () => assert.equal(isValidSysctlName(s), true));
  for (const s of invalid) test(`invalid: ${JSON.stringify(s.length > 20 ? `${s.slice(0, 8)}…(${s.length})` : s)}`, () => assert.equal(isValidSysctlName(s), false));
  test('253 bytes is the longest name', () => {
    assert.equal(isValidSysctlName('a'.repeat(253)), true);
    assert.equal(isValidSysctlName('a'.repeat(254)), false);
  });
});

describe('sysctl namespaces (GetNamespace)', () => {
  const rows: [string, string][] = [
    ['kernel.shmmax', 'IPC'],
    ['kernel.shm_rmid_forced', 'IPC'],
    ['kernel.msgmax', 'IPC'],
    ['kernel.sem', 'IPC'],
    ['kernel.msg*', 'IPC'],
    ['fs.mqueue.msg_max', 'IPC'],
    ['net.ipv4.ip_local_port_range', 'Net'],
    ['net.ipv4.conf.enp3s0/200.forwarding', 'Net'],
    ['net/ipv4/conf/enp3s0.200/forwarding', 'Net'],
    ['kernel/shmmax', 'IPC'],
    ['kernel.shmmax.extra', ''],
    ['kernel.panic', ''],
    ['vm.overcommit_memory', ''],
    ['net', ''],
  ];
  for (const [name, ns] of rows) test(`${name} → ${ns || 'not namespaced'}`, () => assert.equal(sysctlNamespace(name), ns));
});

describe('validateSysctls (TestValidateSysctls)', () => {
  const path = FieldPath.root('foo');
  const check = (names: string[], host: HostNamespaces) => validateSysctls(names.map((name) => ({ name, value: '' })), host, path).map(errorString);
  const none: HostNamespaces = { hostNetwork: false, hostIPC: false };
  const rows: { name: string; names: string[]; host: HostNamespaces; want: string[] }[] = [
    { name: 'valid names, dotted and slashed', names: ['net.foo.bar', 'kernel.shmmax', 'net.ipv4.conf.enp3s0/200.forwarding', 'net/ipv4/conf/enp3s0.200/forwarding'], host: none, want: [] },
    {
      name: 'each invalid name is reported with the regex',
      names: ['i..nvalid', '_invalid'],
      host: none,
      want: [`foo[0].name: Invalid value: "i..nvalid": ${regexMsg}`, `foo[1].name: Invalid value: "_invalid": ${regexMsg}`],
    },
    { name: 'a repeated name is a Duplicate', names: ['kernel.shmmax', 'kernel.shmmax'], host: none, want: ['foo[1].name: Duplicate value: "kernel.shmmax"'] },
    { name: 'an empty name is Required', names: [''], host: none, want: ['foo[0].name: Required value'] },
    {
      name: 'net sysctls are refused with hostNetwork',
      names: ['net.ipv4.conf.enp3s0/200.forwarding', 'net/ipv4/conf/enp3s0.200/forwarding'],
      host: { hostNetwork: true, hostIPC: false },
      want: [
        "foo[0].name: Invalid value: \"net.ipv4.conf.enp3s0/200.forwarding\": may not be specified when 'hostNetwork' is true",
        "foo[1].name: Invalid value: \"net/ipv4/conf/enp3s0.200/forwarding\": may not be specified when 'hostNetwork' is true",
      ],
    },
    {
      name: 'IPC sysctls are refused with hostIPC',
      names: ['kernel.shmmax', 'kernel.msgmax'],
      host: { hostNetwork: false, hostIPC: true },
      want: ["foo[0].name: Invalid value: \"kernel.shmmax\": may not be specified when 'hostIPC' is true", "foo[1].name: Invalid value: \"kernel.msgmax\": may not be specified when 'hostIPC' is true"],
    },
    { name: 'IPC sysctls are fine with hostNetwork only', names: ['kernel.shmmax'], host: { hostNetwork: true, hostIPC: false }, want: [] },
    { name: 'net sysctls are fine with hostIPC only', names: ['net.ipv4.tcp_syncookies'], host: { hostNetwork: false, hostIPC: true }, want: [] },
    {
      name: 'a duplicate is still checked against the host namespace',
      names: ['net.a', 'net.a'],
      host: { hostNetwork: true, hostIPC: false },
      want: [
        "foo[0].name: Invalid value: \"net.a\": may not be specified when 'hostNetwork' is true",
        'foo[1].name: Duplicate value: "net.a"',
        "foo[1].name: Invalid value: \"net.a\": may not be specified when 'hostNetwork' is true",
      ],
    },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(check(r.names, r.host), r.want));
});

describe('sysctls in validatePodCreate', () => {
  const rows: { name: string; pod: Pod; want: Want }[] = [
    {
      name: 'syntactically valid sysctls (TestValidatePod)',
      pod: podWith((p) => (p.spec.securityContext = { sysctls: [{ name: 'kernel.shmmni', value: '32768' }, { name: 'kernel.shmmax', value: '1000000000' }, { name: 'knet.ipv4.route.min_pmtu', value: '1000' }] })),
      want: [],
    },
    {
      name: 'errors sit at spec.securityContext.sysctls[i].name',
      pod: podWith((p) => (p.spec.securityContext = { sysctls: [{ name: 'Kernel.shmmax', value: '1' }] })),
      want: [['FieldValueInvalid', `spec.securityContext.sysctls[0].name: Invalid value: "Kernel.shmmax": ${regexMsg}`]],
    },
    {
      name: 'hostIPC comes from the spec',
      pod: podWith((p) => {
        p.spec.hostIPC = true;
        p.spec.securityContext = { sysctls: [{ name: 'fs.mqueue.queues_max', value: '1' }] };
      }),
      want: [['FieldValueInvalid', "spec.securityContext.sysctls[0].name: Invalid value: \"fs.mqueue.queues_max\": may not be specified when 'hostIPC' is true"]],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
