// Windows security options (src/api/validation/windowsoptions.ts): upstream's
// TestValidateWindowsSecurityContextOptions and TestValidateWindowsHostProcessPod rows
// (validation_test.go), with the full error texts, and the options checked on the pod's and
// the containers' security contexts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorString, FieldPath } from '../../../src/api/fielderrors.js';
import type { Container, Pod, PodSpec, WindowsSecurityContextOptions } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { validateWindowsHostProcessPod, validateWindowsSecurityContextOptions } from '../../../src/api/validation/windowsoptions.js';
import { allGates, assertErrors, podWith, type Want } from './helpers.js';
import { dnsSubdomainMsg } from './messages.js';

const field = FieldPath.root('field');
const R = 'field.runAsUserName';
const check = (o: WindowsSecurityContextOptions | undefined) => validateWindowsSecurityContextOptions(o, field).map(errorString);
const q = (s: string) => JSON.stringify(s);

describe('validateWindowsSecurityContextOptions (TestValidateWindowsSecurityContextOptions)', () => {
  const longDNSDomain = `${`${'a'.repeat(63)}.`.repeat(4).slice(0, 253)}.com`;
  const rows: { name: string; o: WindowsSecurityContextOptions | undefined; want: string[] }[] = [
    { name: 'a nil pointer', o: undefined, want: [] },
    { name: 'an empty struct', o: {}, want: [] },
    { name: 'a valid input', o: { gmsaCredentialSpecName: 'dummy-gmsa-crep-spec-name', gmsaCredentialSpec: 'dummy-gmsa-crep-spec-contents' }, want: [] },
    {
      name: 'a GMSA cred spec name that is not a valid resource name',
      o: { gmsaCredentialSpecName: 'not_a-valid-gmsa-crep-spec-name' },
      want: [`field.gmsaCredentialSpecName: Invalid value: "not_a-valid-gmsa-crep-spec-name": ${dnsSubdomainMsg}`],
    },
    { name: 'empty GMSA cred spec contents', o: { gmsaCredentialSpec: '' }, want: ['field.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string'] },
    {
      name: 'GMSA cred spec contents that are too long',
      o: { gmsaCredentialSpec: 'a'.repeat(64 * 1024 + 1) },
      want: [`field.gmsaCredentialSpec: Invalid value: ${q('a'.repeat(64 * 1024 + 1))}: gmsaCredentialSpec size must be under 64 KiB`],
    },
    { name: 'RunAsUserName is nil', o: { runAsUserName: undefined }, want: [] },
    { name: 'a valid RunAsUserName', o: { runAsUserName: 'Container. User' }, want: [] },
    { name: 'a valid RunAsUserName with NetBios Domain', o: { runAsUserName: 'Network Service\\Container. User' }, want: [] },
    { name: 'a valid RunAsUserName with DNS Domain', o: { runAsUserName: `${'fOo'.repeat(20)}.liSH\\Container. User` }, want: [] },
    { name: 'a valid RunAsUserName with DNS Domain with a single character segment', o: { runAsUserName: `${'fOo'.repeat(20)}.l\\Container. User` }, want: [] },
    { name: 'a valid RunAsUserName with a long single segment DNS Domain', o: { runAsUserName: `${'a'.repeat(42)}\\Container. User` }, want: [] },
    { name: 'an empty RunAsUserName', o: { runAsUserName: '' }, want: [`${R}: Invalid value: "": runAsUserName cannot be an empty string`] },
    { name: 'RunAsUserName containing a control character', o: { runAsUserName: 'Container\tUser' }, want: [`${R}: Invalid value: "Container\\tUser": runAsUserName cannot contain control characters`] },
    {
      name: 'RunAsUserName containing too many backslashes',
      o: { runAsUserName: 'Container\\Foo\\Lish' },
      want: [`${R}: Invalid value: "Container\\\\Foo\\\\Lish": runAsUserName cannot contain more than one backslash`],
    },
    {
      name: 'RunAsUserName containing backslash but empty Domain',
      o: { runAsUserName: '\\User' },
      want: [`${R}: Invalid value: "\\\\User": runAsUserName's Domain doesn't match the NetBios nor the DNS format`],
    },
    { name: 'RunAsUserName containing backslash but empty User', o: { runAsUserName: 'Container\\' }, want: [`${R}: Invalid value: "Container\\\\": runAsUserName's User cannot be empty`] },
    {
      name: "RunAsUserName's NetBios Domain is too long",
      o: { runAsUserName: `NetBios ${'a'.repeat(8)}\\user` },
      want: [`${R}: Invalid value: "NetBios aaaaaaaa\\\\user": runAsUserName's Domain doesn't match the NetBios nor the DNS format`],
    },
    {
      name: "RunAsUserName's DNS Domain is too long",
      o: { runAsUserName: `${longDNSDomain}\\user` },
      want: [`${R}: Invalid value: ${q(`${longDNSDomain}\\user`)}: runAsUserName's Domain length must be under 256 characters`],
    },
    {
      name: "RunAsUserName's User is too long",
      o: { runAsUserName: 'a'.repeat(105) },
      want: [`${R}: Invalid value: ${q('a'.repeat(105))}: runAsUserName's User length must not be longer than 104 characters`],
    },
    { name: "RunAsUserName's User cannot contain only spaces or periods", o: { runAsUserName: '... ...' }, want: [`${R}: Invalid value: "... ...": runAsUserName's User cannot contain only periods or spaces`] },
    {
      name: "RunAsUserName's NetBios Domain cannot start with a dot",
      o: { runAsUserName: '.FooLish\\User' },
      want: [`${R}: Invalid value: ".FooLish\\\\User": runAsUserName's Domain doesn't match the NetBios nor the DNS format`],
    },
    {
      name: "RunAsUserName's NetBios Domain cannot contain invalid characters",
      o: { runAsUserName: 'Foo? Lish?\\User' },
      want: [`${R}: Invalid value: "Foo? Lish?\\\\User": runAsUserName's Domain doesn't match the NetBios nor the DNS format`],
    },
    {
      name: "RunAsUserName's DNS Domain cannot contain invalid characters",
      o: { runAsUserName: `${'a'.repeat(32)}.com-\\user` },
      want: [`${R}: Invalid value: ${q(`${'a'.repeat(32)}.com-\\user`)}: runAsUserName's Domain doesn't match the NetBios nor the DNS format`],
    },
    {
      name: "RunAsUserName's User cannot contain invalid characters",
      o: { runAsUserName: 'Container/User' },
      want: [`${R}: Invalid value: "Container/User": runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`],
    },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(check(r.o), r.want));
});

describe('windowsOptions on pod and container security contexts', () => {
  const rows: { name: string; pod: Pod; want: Want }[] = [
    {
      name: "the pod's options are checked at spec.securityContext.windowsOptions",
      pod: podWith((p) => {
        p.spec.os = { name: 'windows' };
        p.spec.securityContext = { windowsOptions: { runAsUserName: '' } };
      }),
      want: [['FieldValueInvalid', 'spec.securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string']],
    },
    {
      name: "a container's options are checked after allowPrivilegeEscalation, before appArmorProfile",
      pod: podWith((p) => {
        p.spec.containers[0]!.securityContext = { windowsOptions: { gmsaCredentialSpec: '' }, appArmorProfile: { type: 'x' } };
      }),
      want: [
        ['FieldValueInvalid', 'spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string'],
        ['FieldValueNotSupported', 'spec.containers[0].securityContext.appArmorProfile.type: Unsupported value: "x": supported values: "Localhost", "RuntimeDefault", "Unconfined"'],
      ],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

describe('validateWindowsHostProcessPod (TestValidateWindowsHostProcessPod)', () => {
  const hp = (hostProcess?: boolean): Container => ({ name: 'container', ...(hostProcess === undefined ? {} : { securityContext: { windowsOptions: { hostProcess } } }) }) as Container;
  const spec = (o: { pod?: boolean; hostNetwork?: boolean; containers: Container[]; inits?: Container[]; ephemeral?: Container[] }): PodSpec => ({
    ...(o.hostNetwork ? { hostNetwork: true } : {}),
    ...(o.pod === undefined ? {} : { securityContext: { windowsOptions: { hostProcess: o.pod } } }),
    containers: o.containers,
    ...(o.inits ? { initContainers: o.inits } : {}),
    ...(o.ephemeral ? { ephemeralContainers: o.ephemeral as PodSpec['ephemeralContainers'] } : {}),
  });
  const all = 'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers';
  const net = 'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers';
  const rows: { name: string; spec: PodSpec; want: string[] }[] = [
    { name: 'pod-wide HostProcess=true without hostNetwork does not validate', spec: spec({ pod: true, containers: [hp()] }), want: [net] },
    { name: 'pod-wide HostProcess=true with hostNetwork validates', spec: spec({ pod: true, hostNetwork: true, containers: [hp()] }), want: [] },
    { name: 'pod-wide true, hostNetwork, containers true validates', spec: spec({ pod: true, hostNetwork: true, containers: [hp(true)], inits: [hp(true)] }), want: [] },
    { name: 'pod-wide unset, hostNetwork, all containers true validates', spec: spec({ hostNetwork: true, containers: [hp(true)], inits: [hp(true)] }), want: [] },
    { name: 'some containers true, others false does not validate', spec: spec({ hostNetwork: true, containers: [hp(true)], inits: [hp(false)] }), want: [all] },
    { name: 'some containers true, others unset does not validate', spec: spec({ hostNetwork: true, containers: [hp(true)], inits: [hp()] }), want: [all] },
    {
      name: 'pod-wide true, an init container false does not validate',
      spec: spec({ pod: true, hostNetwork: true, containers: [hp(true)], inits: [hp(false)] }),
      want: ['spec.initContainers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true', all],
    },
    {
      name: 'pod-wide true, a container false does not validate',
      spec: spec({ pod: true, hostNetwork: true, containers: [hp(true), hp(false)] }),
      want: ['spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true', all],
    },
    { name: 'pod-wide true, others unset inherit it and validate', spec: spec({ pod: true, hostNetwork: true, containers: [hp(true)], inits: [hp()] }), want: [] },
    {
      name: 'pod-wide false, a container true does not validate',
      spec: spec({ pod: false, hostNetwork: true, containers: [hp(true)], inits: [hp()] }),
      want: ['spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: true: pod hostProcess value must be identical if both are specified, was false', all],
    },
    {
      name: "pod's HostProcess true but every container overrides it to false does not validate",
      spec: spec({ pod: true, hostNetwork: true, containers: [hp(false)] }),
      want: ['spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true'],
    },
    {
      name: 'a non-HostProcess ephemeral container in a HostProcess pod does not validate',
      spec: spec({ pod: true, hostNetwork: true, containers: [hp()], ephemeral: [hp(false)] }),
      want: ['spec.ephemeralContainers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true', all],
    },
    { name: 'a HostProcess ephemeral container in a HostProcess pod validates', spec: spec({ pod: true, hostNetwork: true, containers: [hp()], ephemeral: [{} as Container] }), want: [] },
    { name: 'a non-HostProcess ephemeral container in a non-HostProcess pod validates', spec: spec({ containers: [hp()], ephemeral: [hp(false)] }), want: [] },
    { name: 'a HostProcess ephemeral container in a non-HostProcess pod does not validate', spec: spec({ containers: [hp()], ephemeral: [hp(true)] }), want: [all, net] },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(validateWindowsHostProcessPod(r.spec, FieldPath.root('spec')).map(errorString), r.want));
});
