// The order of pod validation errors where several rules fire at once, as upstream's
// ValidatePodSpec, validatePodSpecSecurityContext, ValidateSecurityContext and ValidatePodCreate
// (pkg/apis/core/validation, v1.32) append them: a client sees the list in that order.

import { describe, test } from 'node:test';
import type { Pod } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

const range = 'must be between 0 and 2147483647, inclusive';
const rows: { name: string; pod: Pod; want: Want }[] = [
  {
    name: 'validatePodSpecSecurityContext: IDs, shareProcessNamespace, sysctls, fsGroupChangePolicy, seccompProfile, windowsOptions, appArmorProfile',
    pod: podWith((p) => {
      p.spec.hostPID = true;
      p.spec.shareProcessNamespace = true;
      p.spec.securityContext = {
        appArmorProfile: { type: 'Bogus' },
        windowsOptions: { runAsUserName: '' },
        seccompProfile: { type: 'Bogus' },
        fsGroupChangePolicy: 'Sometimes',
        sysctls: [{ name: '', value: '' }],
        runAsUser: -1,
      };
    }),
    want: [
      ['FieldValueInvalid', `spec.securityContext.runAsUser: Invalid value: -1: ${range}`],
      ['FieldValueInvalid', 'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled'],
      ['FieldValueRequired', 'spec.securityContext.sysctls[0].name: Required value'],
      ['FieldValueNotSupported', 'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"'],
      ['FieldValueNotSupported', 'spec.securityContext.seccompProfile.type: Unsupported value: "Bogus": supported values: "Localhost", "RuntimeDefault", "Unconfined"'],
      ['FieldValueInvalid', 'spec.securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string'],
      ['FieldValueNotSupported', 'spec.securityContext.appArmorProfile.type: Unsupported value: "Bogus": supported values: "Localhost", "RuntimeDefault", "Unconfined"'],
    ],
  },
  {
    name: 'ValidateSecurityContext: runAsUser, procMount, seccompProfile, allowPrivilegeEscalation, windowsOptions, appArmorProfile, then ulimits',
    pod: podWith((p) => {
      p.spec.containers[0]!.securityContext = {
        ulimits: [{ name: 'nproc', soft: 1, hard: 1 }],
        appArmorProfile: { type: '' },
        windowsOptions: { gmsaCredentialSpec: '' },
        allowPrivilegeEscalation: false,
        privileged: true,
        seccompProfile: { type: '' },
        procMount: 'Bogus',
        runAsUser: -1,
      };
    }),
    want: [
      ['FieldValueInvalid', `spec.containers[0].securityContext.runAsUser: Invalid value: -1: ${range}`],
      ['FieldValueNotSupported', 'spec.containers[0].securityContext.procMount: Unsupported value: "Bogus": supported values: "Default", "Unmasked"'],
      ['FieldValueRequired', 'spec.containers[0].securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set'],
      [
        'FieldValueInvalid',
        'spec.containers[0].securityContext: Invalid value: core.SecurityContext{Capabilities:(*core.Capabilities)(nil), Privileged:(*bool)(0xc000000000), SELinuxOptions:(*core.SELinuxOptions)(nil), WindowsOptions:(*core.WindowsSecurityContextOptions)(0xc000000000), RunAsUser:(*int64)(0xc000000000), RunAsGroup:(*int64)(nil), RunAsNonRoot:(*bool)(nil), ReadOnlyRootFilesystem:(*bool)(nil), AllowPrivilegeEscalation:(*bool)(0xc000000000), ProcMount:(*core.ProcMountType)(0xc000000000), SeccompProfile:(*core.SeccompProfile)(0xc000000000), AppArmorProfile:(*core.AppArmorProfile)(0xc000000000)}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      ],
      ['FieldValueInvalid', 'spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string'],
      ['FieldValueRequired', 'spec.containers[0].securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set'],
      ['FieldValueNotSupported', 'spec.containers[0].securityContext.ulimits[0].name: Unsupported value: "nproc": supported values: "core", "memlock", "nice", "nofile", "rtprio", "stack"'],
    ],
  },
  {
    name: 'ValidatePodSpec: securityContext, imagePullSecrets, dnsConfig, readinessGates, schedulingGates, hostProcess, hostUsers, serviceAccountName … os',
    pod: podWith((p) => {
      p.spec.os = { name: 'linux' };
      p.spec.serviceAccountName = 'Bad_Name';
      p.spec.hostUsers = false;
      p.spec.hostIPC = true;
      p.spec.securityContext = { windowsOptions: { hostProcess: true }, runAsGroup: -1 };
      p.spec.schedulingGates = [{ name: 'g' }, { name: 'g' }];
      p.spec.readinessGates = [{ conditionType: '-x' }];
      p.spec.dnsConfig = { options: [{}] };
      p.spec.imagePullSecrets = [{ name: 'r', extra: true } as never];
    }),
    want: [
      ['FieldValueInvalid', `spec.securityContext.runAsGroup: Invalid value: -1: ${range}`],
      ['FieldValueInvalid', 'spec.imagePullSecrets[0]: Invalid value: core.LocalObjectReference{Name:"r"}: only name may be set'],
      ['FieldValueRequired', 'spec.dnsConfig.options[0]: Required value: must not be empty'],
      [
        'FieldValueInvalid',
        "spec.readinessGates[0].conditionType: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
      ['FieldValueDuplicate', 'spec.schedulingGates[1]: Duplicate value: "g"'],
      ['FieldValueInvalid', 'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers'],
      ['FieldValueForbidden', 'spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false'],
      [
        'FieldValueInvalid',
        "spec.serviceAccountName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      ['FieldValueForbidden', 'spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
    ],
  },
  {
    name: 'ValidatePodCreate: the spec, then ephemeral containers, the gated nodeName, seccomp, AppArmor',
    pod: podWith((p) => {
      p.metadata.annotations = {
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
        'container.apparmor.security.beta.kubernetes.io/c': 'unconfined',
        'container.apparmor.security.beta.kubernetes.io/debug': 'unconfined',
      };
      p.spec.nodeName = 'node-1';
      p.spec.schedulingGates = [{ name: 'wait' }];
      p.spec.ephemeralContainers = [{ ...container('debug') }];
      p.spec.securityContext = { seccompProfile: { type: 'RuntimeDefault' }, appArmorProfile: { type: 'RuntimeDefault' } };
    }),
    want: [
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
      ['FieldValueForbidden', 'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
      ['FieldValueForbidden', 'spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match'],
      ['FieldValueForbidden', 'spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match'],
      ['FieldValueForbidden', 'spec.ephemeralContainers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match'],
    ],
  },
];

describe('pod validation order', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
