// Exact reason/detail texts of every check on hand-built pods (expectations follow upstream's
// policy/check_*_test.go and the reference), version boundaries of the versioned variants, the
// registry's order and overrides, the Bulkhead ulimits check, and robustness on malformed input.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectMeta, PodSpec } from '../../src/api/types.js';
import {
  aggregateReasons, CheckRegistry, DEFAULT_CHECKS, defaultPodForPodSecurity, defaultPodSpecForPodSecurity, enforceDenialMessage,
  evaluatePod, forbidden, getDefaultRegistry, levelVersion, MAX_KNOWN_MINOR, reasonsOnly, UPSTREAM_CHECKS, v1, validateChecks,
  warnMessage, auditViolationsAnnotation, type Check, type CheckPodFn, type CheckResult, type Level,
} from '../../src/podsecurity/index.js';
import { allowPrivilegeEscalation_1_8, allowPrivilegeEscalation_1_25 } from '../../src/podsecurity/checks/allowPrivilegeEscalation.js';
import { appArmorProfile_1_0 } from '../../src/podsecurity/checks/appArmorProfile.js';
import { capabilitiesBaseline_1_0 } from '../../src/podsecurity/checks/capabilitiesBaseline.js';
import { capabilitiesRestricted_1_22, capabilitiesRestricted_1_25 } from '../../src/podsecurity/checks/capabilitiesRestricted.js';
import { hostNamespaces_1_0 } from '../../src/podsecurity/checks/hostNamespaces.js';
import { hostPathVolumes_1_0 } from '../../src/podsecurity/checks/hostPathVolumes.js';
import { hostPorts_1_0 } from '../../src/podsecurity/checks/hostPorts.js';
import { hostProbesAndHostLifecycle_1_34 } from '../../src/podsecurity/checks/hostProbesAndHostLifecycle.js';
import { privileged_1_0 } from '../../src/podsecurity/checks/privileged.js';
import { procMount_1_0, procMount_1_35_baseline } from '../../src/podsecurity/checks/procMountBaseline.js';
import { restrictedVolumes_1_0 } from '../../src/podsecurity/checks/restrictedVolumes.js';
import { runAsNonRoot_1_0, runAsNonRoot_1_35 } from '../../src/podsecurity/checks/runAsNonRoot.js';
import { runAsUser_1_23, runAsUser_1_35 } from '../../src/podsecurity/checks/runAsUser.js';
import { seccompProfileBaseline_1_0, seccompProfileBaseline_1_19 } from '../../src/podsecurity/checks/seccompProfileBaseline.js';
import { seccompProfileRestricted_1_19, seccompProfileRestricted_1_25 } from '../../src/podsecurity/checks/seccompProfileRestricted.js';
import { seLinuxOptions_1_0, seLinuxOptions_1_31 } from '../../src/podsecurity/checks/seLinuxOptions.js';
import { sysctls_1_0, sysctls_1_27, sysctls_1_29, sysctls_1_32, sysctls_1_37 } from '../../src/podsecurity/checks/sysctls.js';
import { ulimits_1_0 } from '../../src/podsecurity/checks/ulimits.js';
import { windowsHostProcess_1_0 } from '../../src/podsecurity/checks/windowsHostProcess.js';

// Test pods are written loosely (as user YAML would be) and cast at the boundary.
type Loose = Record<string, unknown>;
const spec = (s: unknown) => s as PodSpec;
const meta = (m: unknown) => m as ObjectMeta;
const c = (name: string, securityContext?: Loose, extra: Loose = {}): Loose =>
  securityContext === undefined ? { name, ...extra } : { name, securityContext, ...extra };
/** A container that satisfies every restricted check on its own. */
const rc = (name: string, sc: Loose = {}, extra: Loose = {}): Loose => c(name, {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  runAsNonRoot: true,
  seccompProfile: { type: 'RuntimeDefault' },
  ...sc,
}, extra);

// ---------------------------------------------------------------------------------------------
// 1. Each check function on its own: exact reason and detail (null = allowed).

interface CheckRow {
  name: string;
  fn: CheckPodFn;
  spec?: Loose;
  meta?: Loose;
  expect: [reason: string, detail: string] | null;
}

const aa = 'container.apparmor.security.beta.kubernetes.io/';
const sa = 'container.seccomp.security.alpha.kubernetes.io/';

const checkRows: CheckRow[] = [
  // appArmorProfile
  { name: 'appArmorProfile: RuntimeDefault pod and Localhost container allowed', fn: appArmorProfile_1_0,
    spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('a', { appArmorProfile: { type: 'Localhost' } })] },
    meta: { annotations: { [aa + 'a']: 'runtime/default', [aa + 'b']: 'localhost/x', [aa + 'c']: '', env: 'prod' } }, expect: null },
  { name: 'appArmorProfile: pod Unconfined, singular reason', fn: appArmorProfile_1_0,
    spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } } },
    expect: ['forbidden AppArmor profile', 'pod must not set AppArmor profile type to "Unconfined"'] },
  { name: 'appArmorProfile: init container named in visit order', fn: appArmorProfile_1_0,
    spec: { containers: [c('foo')], initContainers: [c('bar', { appArmorProfile: { type: 'Unconfined' } })] },
    expect: ['forbidden AppArmor profile', 'container "bar" must not set AppArmor profile type to "Unconfined"'] },
  { name: 'appArmorProfile: annotations sorted, wrapped in unescaped quotes, plural reason', fn: appArmorProfile_1_0,
    meta: { annotations: { [aa]: 'bogus', [aa + 'a']: '', [aa + 'b']: 'runtime/default', [aa + 'c']: 'localhost/',
      [aa + 'd']: 'localhost/foo', [aa + 'f']: 'unknown', [aa + 'e']: 'unconfined' } },
    expect: ['forbidden AppArmor profiles', `annotations must not set AppArmor profile type to "${aa}="bogus"", "${aa}e="unconfined"", "${aa}f="unknown""`] },
  { name: 'appArmorProfile: pod and containers and annotation joined with " and ", values deduplicated, field values before annotations', fn: appArmorProfile_1_0,
    spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } },
      containers: [c('a', { appArmorProfile: { type: 'Unconfined' } }), c('b', { appArmorProfile: { type: 'Bogus' } })] },
    meta: { annotations: { [aa + 'a']: 'unconfined' } },
    expect: ['forbidden AppArmor profiles', `pod and containers "a", "b" and annotation must not set AppArmor profile type to "Bogus", "Unconfined", "${aa}a="unconfined""`] },
  { name: 'appArmorProfile: annotation value rendered with Go %q escaping', fn: appArmorProfile_1_0,
    meta: { annotations: { [aa + 'x']: 'a"b\n\u0007' } },
    expect: ['forbidden AppArmor profile', `annotation must not set AppArmor profile type to "${aa}x="a\\"b\\n\\a""`] },
  { name: 'appArmorProfile: profile without a type reports ""', fn: appArmorProfile_1_0,
    spec: { containers: [c('a', { appArmorProfile: {} })] },
    expect: ['forbidden AppArmor profile', 'container "a" must not set AppArmor profile type to ""'] },

  // capabilities_baseline
  { name: 'capabilities_baseline: default set allowed', fn: capabilitiesBaseline_1_0,
    spec: { containers: [c('a', { capabilities: { add: ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
      'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT'], drop: ['ALL'] } })] }, expect: null },
  { name: 'capabilities_baseline: capabilities sorted and deduplicated, containers in order', fn: capabilitiesBaseline_1_0,
    spec: { containers: [c('a', { capabilities: { add: ['FOO', 'BAR'] } }), c('b', { capabilities: { add: ['BAR', 'BAZ'] } })] },
    expect: ['non-default capabilities', 'containers "a", "b" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add'] },
  { name: 'capabilities_baseline: lowercase and CAP_-prefixed names are not the default set', fn: capabilitiesBaseline_1_0,
    spec: { containers: [c('a', { capabilities: { add: ['chown', 'CAP_CHOWN'] } })] },
    expect: ['non-default capabilities', 'container "a" must not include "CAP_CHOWN", "chown" in securityContext.capabilities.add'] },

  // capabilities_restricted
  { name: 'capabilities_restricted: missing drop ALL and forbidden adds as two "; "-joined parts', fn: capabilitiesRestricted_1_22,
    spec: { containers: [c('a', { capabilities: { add: ['FOO', 'BAR'] } }), c('b', { capabilities: { add: ['BAR', 'BAZ'] } }),
      c('c', { capabilities: { add: ['NET_BIND_SERVICE', 'CHOWN'], drop: ['ALL', 'FOO'] } })] },
    expect: ['unrestricted capabilities', 'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add'] },
  { name: 'capabilities_restricted: container without securityContext must drop ALL', fn: capabilitiesRestricted_1_22,
    spec: { containers: [c('a')] }, expect: ['unrestricted capabilities', 'container "a" must set securityContext.capabilities.drop=["ALL"]'] },
  { name: 'capabilities_restricted: drop ALL plus NET_BIND_SERVICE allowed', fn: capabilitiesRestricted_1_22,
    spec: { containers: [c('a', { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })] }, expect: null },
  { name: 'capabilities_restricted: lowercase "all" is not ALL', fn: capabilitiesRestricted_1_22,
    spec: { containers: [c('a', { capabilities: { drop: ['all'] } })] },
    expect: ['unrestricted capabilities', 'container "a" must set securityContext.capabilities.drop=["ALL"]'] },
  { name: 'capabilities_restricted v1.25: windows pod passes', fn: capabilitiesRestricted_1_25,
    spec: { os: { name: 'windows' }, containers: [c('a')] }, expect: null },
  { name: 'capabilities_restricted v1.25: linux pod still checked', fn: capabilitiesRestricted_1_25,
    spec: { os: { name: 'linux' }, containers: [c('a')] },
    expect: ['unrestricted capabilities', 'container "a" must set securityContext.capabilities.drop=["ALL"]'] },

  // hostNamespaces
  { name: 'hostNamespaces: fixed order hostNetwork, hostPID, hostIPC', fn: hostNamespaces_1_0,
    spec: { hostIPC: true, hostPID: true, hostNetwork: true }, expect: ['host namespaces', 'hostNetwork=true, hostPID=true, hostIPC=true'] },
  { name: 'hostNamespaces: only the true ones', fn: hostNamespaces_1_0,
    spec: { hostNetwork: false, hostIPC: true }, expect: ['host namespaces', 'hostIPC=true'] },
  { name: 'hostNamespaces: false everywhere allowed', fn: hostNamespaces_1_0,
    spec: { hostNetwork: false, hostPID: false, hostIPC: false }, expect: null },

  // hostPathVolumes
  { name: 'hostPathVolumes: plural volumes in spec order', fn: hostPathVolumes_1_0,
    spec: { volumes: [{ name: 'a', hostPath: {} }, { name: 'b', hostPath: { path: '/' } }, { name: 'c', emptyDir: {} }] },
    expect: ['hostPath volumes', 'volumes "a", "b"'] },
  { name: 'hostPathVolumes: singular volume', fn: hostPathVolumes_1_0,
    spec: { volumes: [{ name: 'x', hostPath: { path: '/etc' } }] }, expect: ['hostPath volumes', 'volume "x"'] },

  // hostPorts
  { name: 'hostPorts: one container uses one hostPort; hostPort 0 ignored', fn: hostPorts_1_0,
    spec: { containers: [{ name: 'a', ports: [{ hostPort: 0 }] }, { name: 'b', ports: [{ hostPort: 0 }, { hostPort: 20 }] }] },
    expect: ['hostPort', 'container "b" uses hostPort 20'] },
  { name: 'hostPorts: containers use hostPorts, ports a sorted set', fn: hostPorts_1_0,
    spec: { containers: [{ name: 'a', ports: [{ hostPort: 0 }] }, { name: 'b', ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 20 }] },
      { name: 'c', ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 30 }] }] },
    expect: ['hostPort', 'containers "b", "c" use hostPorts 10, 20, 30'] },
  { name: 'hostPorts: ports sorted as strings, not numbers', fn: hostPorts_1_0,
    spec: { containers: [{ name: 'a', ports: [{ hostPort: 8080 }, { hostPort: 80 }, { hostPort: 443 }] }] },
    expect: ['hostPort', 'container "a" uses hostPorts 443, 80, 8080'] },
  { name: 'hostPorts: one container, several ports (verb follows containers, noun follows ports)', fn: hostPorts_1_0,
    spec: { containers: [{ name: 'a', ports: [{ hostPort: 1 }, { hostPort: 2 }] }] }, expect: ['hostPort', 'container "a" uses hostPorts 1, 2'] },
  { name: 'hostPorts: two containers, one port', fn: hostPorts_1_0,
    spec: { containers: [{ name: 'a', ports: [{ hostPort: 5 }] }, { name: 'b', ports: [{ hostPort: 5 }] }] },
    expect: ['hostPort', 'containers "a", "b" use hostPort 5'] },

  // hostProbesAndHostLifecycle
  { name: 'hostProbesAndHostLifecycle: unset hosts allowed', fn: hostProbesAndHostLifecycle_1_34,
    spec: { containers: [c('a', undefined, { livenessProbe: { httpGet: { port: 80 } }, readinessProbe: { tcpSocket: { port: 80, host: '' } },
      lifecycle: { postStart: { httpGet: { port: 80 } } } })] }, expect: null },
  { name: 'hostProbesAndHostLifecycle: one container, hosts sorted', fn: hostProbesAndHostLifecycle_1_34,
    spec: { containers: [c('a', undefined, { livenessProbe: { httpGet: { host: '127.0.0.1' } }, readinessProbe: { tcpSocket: { host: '::1' } },
      startupProbe: { httpGet: { host: 'localhost' } } })] },
    expect: ['probe or lifecycle host', 'container "a" uses probe or lifecycle hosts "127.0.0.1", "::1", "localhost"'] },
  { name: 'hostProbesAndHostLifecycle: singular host in a preStop handler', fn: hostProbesAndHostLifecycle_1_34,
    spec: { containers: [c('e', undefined, { lifecycle: { preStop: { httpGet: { host: 'another.invalid.host' } } } })] },
    expect: ['probe or lifecycle host', 'container "e" uses probe or lifecycle host "another.invalid.host"'] },
  { name: 'hostProbesAndHostLifecycle: container names sorted and deduplicated, hosts deduplicated', fn: hostProbesAndHostLifecycle_1_34,
    spec: { containers: [c('valid'), c('invalid2', undefined, { lifecycle: { preStop: { tcpSocket: { host: 'b.com' } } },
      startupProbe: { httpGet: { host: 'a.com' } } }), c('invalid1', undefined, { livenessProbe: { httpGet: { host: 'a.com' } } })] },
    expect: ['probe or lifecycle host', 'containers "invalid1", "invalid2" use probe or lifecycle hosts "a.com", "b.com"'] },
  { name: 'hostProbesAndHostLifecycle: init container checked', fn: hostProbesAndHostLifecycle_1_34,
    spec: { initContainers: [c('init', undefined, { livenessProbe: { httpGet: { host: 'invalid.init.host' } } })] },
    expect: ['probe or lifecycle host', 'container "init" uses probe or lifecycle host "invalid.init.host"'] },

  // privileged
  { name: 'privileged: only privileged=true containers', fn: privileged_1_0,
    spec: { containers: [c('a'), c('b', {}), c('c', { privileged: false }), c('d', { privileged: true }), c('e', { privileged: true })] },
    expect: ['privileged', 'containers "d", "e" must not set securityContext.privileged=true'] },
  { name: 'privileged: ephemeral container counted after init and regular', fn: privileged_1_0,
    spec: { ephemeralContainers: [c('eph', { privileged: true })], containers: [c('app', { privileged: true })], initContainers: [c('init', { privileged: true })] },
    expect: ['privileged', 'containers "init", "app", "eph" must not set securityContext.privileged=true'] },

  // procMount
  { name: 'procMount v1.0: non-Default values sorted', fn: procMount_1_0,
    spec: { hostUsers: true, containers: [c('a'), c('b', {}), c('c', { procMount: 'Default' }), c('d', { procMount: 'Unmasked' }), c('e', { procMount: 'other' })] },
    expect: ['procMount', 'containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"'] },
  { name: 'procMount v1.0: hostUsers false does not relax', fn: procMount_1_0,
    spec: { hostUsers: false, containers: [c('d', { procMount: 'Unmasked' })] },
    expect: ['procMount', 'container "d" must not set securityContext.procMount to "Unmasked"'] },
  { name: 'procMount v1.35 baseline: hostUsers false relaxes', fn: procMount_1_35_baseline,
    spec: { hostUsers: false, containers: [c('d', { procMount: 'Unmasked' }), c('e', { procMount: 'other' })] }, expect: null },
  { name: 'procMount v1.35 baseline: hostUsers true does not relax', fn: procMount_1_35_baseline,
    spec: { hostUsers: true, containers: [c('d', { procMount: 'Unmasked' })] },
    expect: ['procMount', 'container "d" must not set securityContext.procMount to "Unmasked"'] },

  // restrictedVolumes
  { name: 'restrictedVolumes: every allowed source passes', fn: restrictedVolumes_1_0,
    spec: { volumes: ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret']
      .map((k, i) => ({ name: `a${i}`, [k]: {} })) }, expect: null },
  { name: 'restrictedVolumes: every named restricted type, plus a source-less volume as "unknown"', fn: restrictedVolumes_1_0,
    spec: { volumes: [...['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume',
      'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume',
      'scaleIO', 'storageos'].map((k, i) => ({ name: `b${i + 1}`, [k]: {} })), { name: 'c1' }] },
    expect: ['restricted volume types', 'volumes "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1" use restricted volume types "awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume"'] },
  { name: 'restrictedVolumes: singular volume uses singular type', fn: restrictedVolumes_1_0,
    spec: { volumes: [{ name: 'h', hostPath: { path: '/' } }] }, expect: ['restricted volume types', 'volume "h" uses restricted volume type "hostPath"'] },
  { name: 'restrictedVolumes: two volumes of one type', fn: restrictedVolumes_1_0,
    spec: { volumes: [{ name: 'x', nfs: {} }, { name: 'y', nfs: {} }] }, expect: ['restricted volume types', 'volumes "x", "y" use restricted volume type "nfs"'] },
  { name: 'restrictedVolumes: a null source is no source (Go nil pointer)', fn: restrictedVolumes_1_0,
    spec: { volumes: [{ name: 'n', hostPath: null }] }, expect: ['restricted volume types', 'volume "n" uses restricted volume type "unknown"'] },

  // runAsNonRoot
  { name: 'runAsNonRoot: nothing set → pod or container must set', fn: runAsNonRoot_1_0,
    spec: { containers: [c('a')] }, expect: ['runAsNonRoot != true', 'pod or container "a" must set securityContext.runAsNonRoot=true'] },
  { name: 'runAsNonRoot: pod false', fn: runAsNonRoot_1_0,
    spec: { securityContext: { runAsNonRoot: false }, containers: [c('a')] }, expect: ['runAsNonRoot != true', 'pod must not set securityContext.runAsNonRoot=false'] },
  { name: 'runAsNonRoot: containers false despite pod true', fn: runAsNonRoot_1_0,
    spec: { securityContext: { runAsNonRoot: true }, containers: [c('a'), c('b', {}), c('c', { runAsNonRoot: false }), c('d', { runAsNonRoot: false }),
      c('e', { runAsNonRoot: true })] },
    expect: ['runAsNonRoot != true', 'containers "c", "d" must not set securityContext.runAsNonRoot=false'] },
  { name: 'runAsNonRoot: pod and container false joined with " and "; explicit beats implicit', fn: runAsNonRoot_1_0,
    spec: { securityContext: { runAsNonRoot: false }, containers: [c('a'), c('b', { runAsNonRoot: false })] },
    expect: ['runAsNonRoot != true', 'pod and container "b" must not set securityContext.runAsNonRoot=false'] },
  { name: 'runAsNonRoot: pod unset, containers fall through', fn: runAsNonRoot_1_0,
    spec: { containers: [c('a'), c('b', {}), c('d', { runAsNonRoot: true })] },
    expect: ['runAsNonRoot != true', 'pod or containers "a", "b" must set securityContext.runAsNonRoot=true'] },
  { name: 'runAsNonRoot: runAsUser non-zero is not enough', fn: runAsNonRoot_1_0,
    spec: { securityContext: { runAsUser: 1000 }, containers: [c('a')] },
    expect: ['runAsNonRoot != true', 'pod or container "a" must set securityContext.runAsNonRoot=true'] },
  { name: 'runAsNonRoot v1.0: hostUsers false does not relax', fn: runAsNonRoot_1_0,
    spec: { hostUsers: false, containers: [c('a')] }, expect: ['runAsNonRoot != true', 'pod or container "a" must set securityContext.runAsNonRoot=true'] },
  { name: 'runAsNonRoot v1.35: hostUsers false passes', fn: runAsNonRoot_1_35,
    spec: { hostUsers: false, containers: [c('a', { runAsNonRoot: false })] }, expect: null },

  // runAsUser
  { name: 'runAsUser: pod 0', fn: runAsUser_1_23,
    spec: { securityContext: { runAsUser: 0 }, containers: [c('a')] }, expect: ['runAsUser=0', 'pod must not set runAsUser=0'] },
  { name: 'runAsUser: non-zero and unset allowed', fn: runAsUser_1_23,
    spec: { securityContext: { runAsUser: 1000 }, containers: [c('a'), c('b', { runAsUser: 1 })] }, expect: null },
  { name: 'runAsUser: containers 0', fn: runAsUser_1_23,
    spec: { securityContext: { runAsUser: 1000 }, containers: [c('a'), c('b', {}), c('c', { runAsUser: 0 }), c('d', { runAsUser: 0 }), c('e', { runAsUser: 1 })] },
    expect: ['runAsUser=0', 'containers "c", "d" must not set runAsUser=0'] },
  { name: 'runAsUser: pod and container joined with " and "', fn: runAsUser_1_23,
    spec: { securityContext: { runAsUser: 0 }, containers: [c('c', { runAsUser: 0 })] }, expect: ['runAsUser=0', 'pod and container "c" must not set runAsUser=0'] },
  { name: 'runAsUser v1.35: hostUsers false passes', fn: runAsUser_1_35,
    spec: { hostUsers: false, securityContext: { runAsUser: 0 }, containers: [c('c', { runAsUser: 0 })] }, expect: null },

  // seLinuxOptions
  { name: 'seLinuxOptions: pod and containers, types sorted, user and role problems', fn: seLinuxOptions_1_31,
    spec: { securityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } }, containers: [
      c('a', { seLinuxOptions: { type: 'container_t' } }), c('b', { seLinuxOptions: { type: 'container_init_t' } }),
      c('c', { seLinuxOptions: { type: 'container_kvm_t' } }), c('d', { seLinuxOptions: { type: 'container_engine_t' } }),
      c('e', { seLinuxOptions: { type: 'bar' } }), c('f', { seLinuxOptions: { user: 'bar' } }), c('g', { seLinuxOptions: { role: 'baz' } })] },
    expect: ['seLinuxOptions', 'pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set'] },
  { name: 'seLinuxOptions: only the problems that apply', fn: seLinuxOptions_1_31,
    spec: { securityContext: { seLinuxOptions: { role: 'bad' } } }, expect: ['seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: role may not be set'] },
  { name: 'seLinuxOptions: level is not checked', fn: seLinuxOptions_1_0,
    spec: { securityContext: { seLinuxOptions: { level: 's0:c1,c2' } } }, expect: null },
  { name: 'seLinuxOptions v1.0: container_engine_t forbidden', fn: seLinuxOptions_1_0,
    spec: { containers: [c('d', { seLinuxOptions: { type: 'container_engine_t' } })] },
    expect: ['seLinuxOptions', 'container "d" set forbidden securityContext.seLinuxOptions: type "container_engine_t"'] },
  { name: 'seLinuxOptions v1.31: container_engine_t allowed', fn: seLinuxOptions_1_31,
    spec: { containers: [c('d', { seLinuxOptions: { type: 'container_engine_t' } })] }, expect: null },

  // seccompProfile_baseline
  { name: 'seccompProfile_baseline v1.0: pod annotation', fn: seccompProfileBaseline_1_0,
    meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } },
    expect: ['seccompProfile', 'forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined"'] },
  { name: 'seccompProfile_baseline v1.0: annotations sorted; only existing containers\' annotations', fn: seccompProfileBaseline_1_0,
    meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', [sa + 'b']: 'unknown', [sa + 'a']: 'unconfined', [sa + 'zz']: 'unconfined' } },
    spec: { containers: [c('a'), c('b'), c('c')] },
    expect: ['seccompProfile', `forbidden annotations ${sa}a="unconfined", ${sa}b="unknown", seccomp.security.alpha.kubernetes.io/pod="unconfined"`] },
  { name: 'seccompProfile_baseline v1.0: allowed annotation values; empty value forbidden', fn: seccompProfileBaseline_1_0,
    meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default', [sa + 'a']: 'docker/default', [sa + 'b']: 'localhost/p', [sa + 'c']: '' } },
    spec: { containers: [c('a'), c('b'), c('c')] },
    expect: ['seccompProfile', `forbidden annotation ${sa}c=""`] },
  { name: 'seccompProfile_baseline v1.0: fields ignored', fn: seccompProfileBaseline_1_0,
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } } }, expect: null },
  { name: 'seccompProfile_baseline v1.19: pod and containers', fn: seccompProfileBaseline_1_19,
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a'), c('b', {}), c('c', { seccompProfile: { type: 'Unconfined' } }),
      c('d', { seccompProfile: { type: 'Unconfined' } }), c('e', { seccompProfile: { type: 'RuntimeDefault' } })] },
    expect: ['seccompProfile', 'pod and containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'] },
  { name: 'seccompProfile_baseline v1.19: annotations ignored, unset allowed', fn: seccompProfileBaseline_1_19,
    meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }, spec: { containers: [c('a')] }, expect: null },

  // seccompProfile_restricted
  { name: 'seccompProfile_restricted: nothing set', fn: seccompProfileRestricted_1_19,
    spec: { containers: [c('a')] }, expect: ['seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] },
  { name: 'seccompProfile_restricted: explicit bad containers', fn: seccompProfileRestricted_1_19,
    spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a'), c('c', { seccompProfile: { type: 'Unconfined' } }),
      c('d', { seccompProfile: { type: 'Unconfined' } }), c('e', { seccompProfile: { type: 'Localhost' } })] },
    expect: ['seccompProfile', 'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'] },
  { name: 'seccompProfile_restricted: pod unset, containers fall through', fn: seccompProfileRestricted_1_19,
    spec: { containers: [c('a'), c('b', {}), c('d', { seccompProfile: { type: 'RuntimeDefault' } })] },
    expect: ['seccompProfile', 'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] },
  { name: 'seccompProfile_restricted: bad pod value does not cover containers, explicit message wins', fn: seccompProfileRestricted_1_19,
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a')] },
    expect: ['seccompProfile', 'pod must not set securityContext.seccompProfile.type to "Unconfined"'] },
  { name: 'seccompProfile_restricted v1.19: windows pod still checked', fn: seccompProfileRestricted_1_19,
    spec: { os: { name: 'windows' }, containers: [c('a')] },
    expect: ['seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] },
  { name: 'seccompProfile_restricted v1.25: windows pod passes', fn: seccompProfileRestricted_1_25,
    spec: { os: { name: 'windows' }, containers: [c('a')] }, expect: null },

  // sysctls
  { name: 'sysctls: names in spec order, not deduplicated, unquoted; reason always plural', fn: sysctls_1_0,
    spec: { securityContext: { sysctls: [{ name: 'b' }, { name: 'kernel.shm_rmid_forced' }, { name: 'a' }, { name: 'b' }] } },
    expect: ['forbidden sysctls', 'b, a, b'] },
  { name: 'sysctls: single forbidden name', fn: sysctls_1_0,
    spec: { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }] } }, expect: ['forbidden sysctls', 'kernel.msgmax'] },
  { name: 'sysctls v1.0: original safe set allowed', fn: sysctls_1_0,
    spec: { securityContext: { sysctls: ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies',
      'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'].map((name) => ({ name, value: '1' })) } }, expect: null },
  { name: 'sysctls v1.0: ip_local_reserved_ports forbidden', fn: sysctls_1_0,
    spec: { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }] } }, expect: ['forbidden sysctls', 'net.ipv4.ip_local_reserved_ports'] },
  { name: 'sysctls v1.27: ip_local_reserved_ports allowed, tcp_keepalive_time not yet', fn: sysctls_1_27,
    spec: { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }, { name: 'net.ipv4.tcp_keepalive_time' }] } },
    expect: ['forbidden sysctls', 'net.ipv4.tcp_keepalive_time'] },
  { name: 'sysctls v1.29: keepalive/fin_timeout allowed, tcp_rmem not yet', fn: sysctls_1_29,
    spec: { securityContext: { sysctls: ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl',
      'net.ipv4.tcp_keepalive_probes', 'net.ipv4.tcp_rmem'].map((name) => ({ name })) } }, expect: ['forbidden sysctls', 'net.ipv4.tcp_rmem'] },
  { name: 'sysctls v1.32: tcp_rmem/tcp_wmem allowed, tcp_slow_start_after_idle not yet', fn: sysctls_1_32,
    spec: { securityContext: { sysctls: ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem', 'net.ipv4.tcp_slow_start_after_idle'].map((name) => ({ name })) } },
    expect: ['forbidden sysctls', 'net.ipv4.tcp_slow_start_after_idle'] },
  { name: 'sysctls v1.37: tcp_slow_start_after_idle and tcp_notsent_lowat allowed', fn: sysctls_1_37,
    spec: { securityContext: { sysctls: ['net.ipv4.tcp_slow_start_after_idle', 'net.ipv4.tcp_notsent_lowat'].map((name) => ({ name })) } }, expect: null },

  // windowsHostProcess
  { name: 'windowsHostProcess: pod and containers joined with " and "', fn: windowsHostProcess_1_0,
    spec: { securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('a'), c('b', {}), c('c', { windowsOptions: {} }),
      c('d', { windowsOptions: { hostProcess: false } }), c('e', { windowsOptions: { hostProcess: true } }), c('f', { windowsOptions: { hostProcess: true } })] },
    expect: ['hostProcess', 'pod and containers "e", "f" must not set securityContext.windowsOptions.hostProcess=true'] },
  { name: 'windowsHostProcess: single container', fn: windowsHostProcess_1_0,
    spec: { containers: [c('w', { windowsOptions: { hostProcess: true } })] },
    expect: ['hostProcess', 'container "w" must not set securityContext.windowsOptions.hostProcess=true'] },

  // allowPrivilegeEscalation
  { name: 'allowPrivilegeEscalation: unset, nil and true all fail', fn: allowPrivilegeEscalation_1_8,
    spec: { containers: [c('a'), c('b', {}), c('c', { allowPrivilegeEscalation: true }), c('d', { allowPrivilegeEscalation: false })] },
    expect: ['allowPrivilegeEscalation != false', 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false'] },
  { name: 'allowPrivilegeEscalation v1.8: windows pod still checked', fn: allowPrivilegeEscalation_1_8,
    spec: { os: { name: 'windows' }, containers: [c('a')] },
    expect: ['allowPrivilegeEscalation != false', 'container "a" must set securityContext.allowPrivilegeEscalation=false'] },
  { name: 'allowPrivilegeEscalation v1.25: windows pod passes', fn: allowPrivilegeEscalation_1_25,
    spec: { os: { name: 'windows' }, containers: [c('a')] }, expect: null },

  // ulimits (Bulkhead)
  { name: 'ulimits: one container', fn: ulimits_1_0,
    spec: { containers: [c('main', { ulimits: [{ name: 'nofile', soft: 1024, hard: 2048 }] })] },
    expect: ['ulimits', 'container "main" must not set securityContext.ulimits'] },
  { name: 'ulimits: names in visit order init, regular, ephemeral', fn: ulimits_1_0,
    spec: { ephemeralContainers: [c('e', { ulimits: [{ name: 'core', soft: 0, hard: 0 }] })], containers: [c('b', { ulimits: [{ name: 'nofile', soft: 1, hard: 1 }] }), c('ok')],
      initContainers: [c('a', { ulimits: [{ name: 'stack', soft: -1, hard: -1 }] })] },
    expect: ['ulimits', 'containers "a", "b", "e" must not set securityContext.ulimits'] },
  { name: 'ulimits: empty list and null allowed', fn: ulimits_1_0,
    spec: { containers: [c('a', { ulimits: [] }), c('b', { ulimits: null })] }, expect: null },
];

// ---------------------------------------------------------------------------------------------
// 1b. Upstream's per-check unit tables (pod-security-admission policy/check_*_test.go, master
// 8f84a87c7f61): the cases not already pinned by a row above, each named
// `<test file> <Go test function>/<case name>`, with upstream's pod and expected reason/detail.

const up = (file: string, fn: string, name: string) => `upstream check_${file}_test.go ${fn}/"${name}"`;
const pmValues = [c('a'), c('b', {}), c('c', { procMount: 'Default' }), c('d', { procMount: 'Unmasked' }), c('e', { procMount: 'other' })];
const pmDetail: [string, string] = ['procMount', 'containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"'];
const seLinuxContainers = [c('a', { seLinuxOptions: { type: 'container_t' } }), c('b', { seLinuxOptions: { type: 'container_init_t' } }),
  c('c', { seLinuxOptions: { type: 'container_kvm_t' } }), c('d', { seLinuxOptions: { type: 'container_engine_t' } })];
const seLinuxBad = [c('e', { seLinuxOptions: { type: 'bar' } }), c('f', { seLinuxOptions: { user: 'bar' } }), c('g', { seLinuxOptions: { role: 'baz' } })];
const seccompContainers = [c('a'), c('b', {}), c('c', { seccompProfile: { type: 'Unconfined' } }), c('d', { seccompProfile: { type: 'Unconfined' } }),
  c('e', { seccompProfile: { type: 'RuntimeDefault' } }), c('f', { seccompProfile: { type: 'RuntimeDefault' } })];
const seccompFallthrough = [c('a'), c('b', {}), c('d', { seccompProfile: { type: 'RuntimeDefault' } }), c('e', { seccompProfile: { type: 'RuntimeDefault' } })];
const sysctl = (name: string, value?: string) => ({ securityContext: { sysctls: [value === undefined ? { name } : { name, value }] } });
const sysctlsAB = { securityContext: { sysctls: [{ name: 'a' }, { name: 'b' }] } };
const apeContainers = [c('a'), c('b', {}), c('c', { allowPrivilegeEscalation: true }), c('d', { allowPrivilegeEscalation: false })];
const capsContainers = [c('a', { capabilities: { add: ['FOO', 'BAR'] } }), c('b', { capabilities: { add: ['BAR', 'BAZ'] } }),
  c('c', { capabilities: { add: ['NET_BIND_SERVICE', 'CHOWN'], drop: ['ALL', 'FOO'] } })];
const probe = (name: string, extra: Loose) => ({ containers: [c(name, undefined, extra)] });
const probeHost = (name: string, host: string): [string, string] => ['probe or lifecycle host', `container "${name}" uses probe or lifecycle host "${host}"`];

const upstreamCheckRows: CheckRow[] = [
  // check_allowPrivilegeEscalation_test.go
  { name: up('allowPrivilegeEscalation', 'TestAllowPrivilegeEscalation_1_25', 'multiple containers'), fn: allowPrivilegeEscalation_1_25,
    spec: { containers: apeContainers },
    expect: ['allowPrivilegeEscalation != false', 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false'] },
  { name: up('allowPrivilegeEscalation', 'TestAllowPrivilegeEscalation_1_25', 'linux pod, reject if security context is not set'), fn: allowPrivilegeEscalation_1_25,
    spec: { os: { name: 'linux' }, containers: [c('a')] },
    expect: ['allowPrivilegeEscalation != false', 'container "a" must set securityContext.allowPrivilegeEscalation=false'] },

  // check_appArmorProfile_test.go
  { name: up('appArmorProfile', 'TestCheckAppArmor_Allowed', 'container with default AppArmor + extra annotations'), fn: appArmorProfile_1_0,
    meta: { annotations: { [aa + 'test']: 'runtime/default', env: 'prod' } }, spec: {}, expect: null },
  { name: up('appArmorProfile', 'TestCheckAppArmor_Allowed', 'container with local AppArmor + extra annotations'), fn: appArmorProfile_1_0,
    meta: { annotations: { [aa + 'test']: 'localhost/sec-profile01', env: 'dev' } }, spec: {}, expect: null },
  { name: up('appArmorProfile', 'TestCheckAppArmor_Allowed', 'container with no AppArmor annotations'), fn: appArmorProfile_1_0,
    meta: { annotations: { env: 'dev' } }, spec: {}, expect: null },
  { name: up('appArmorProfile', 'TestCheckAppArmor_Allowed', 'container with no annotations'), fn: appArmorProfile_1_0,
    meta: {}, spec: {}, expect: null },
  { name: up('appArmorProfile', 'TestCheckAppArmor_Allowed', 'pod with runtime default'), fn: appArmorProfile_1_0,
    spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }, expect: null },
  { name: up('appArmorProfile', 'TestCheckAppArmor_Allowed', 'container with localhost profile'), fn: appArmorProfile_1_0,
    spec: { containers: [c('foo', { appArmorProfile: { type: 'RuntimeDefault' } })] }, expect: null },
  { name: up('appArmorProfile', 'TestCheckAppArmor_Forbidden', 'unconfined container'), fn: appArmorProfile_1_0,
    spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('foo', { appArmorProfile: { type: 'Unconfined' } })] },
    expect: ['forbidden AppArmor profile', 'container "foo" must not set AppArmor profile type to "Unconfined"'] },
  { name: up('appArmorProfile', 'TestCheckAppArmor_Forbidden', 'unconfined init container'), fn: appArmorProfile_1_0,
    spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('foo')],
      initContainers: [c('bar', { appArmorProfile: { type: 'Unconfined' } })] },
    expect: ['forbidden AppArmor profile', 'container "bar" must not set AppArmor profile type to "Unconfined"'] },

  // check_capabilities_restricted_test.go
  { name: up('capabilities_restricted', 'TestCapabilitiesRestricted_1_25', 'multiple containers'), fn: capabilitiesRestricted_1_25,
    spec: { containers: capsContainers },
    expect: ['unrestricted capabilities', 'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add'] },

  // check_hostProbesAndhostLifecycle_test.go (TestHostProbesAndHostLifecycle)
  { name: up('hostProbesAndhostLifecycle', 'TestHostProbesAndHostLifecycle', 'valid pod with unset hosts'), fn: hostProbesAndHostLifecycle_1_34,
    spec: probe('a', { livenessProbe: { httpGet: {} }, readinessProbe: { tcpSocket: {} }, lifecycle: { postStart: { httpGet: {} } } }), expect: null },
  { name: up('hostProbesAndhostLifecycle', 'TestHostProbesAndHostLifecycle', 'invalid httpget host in liveness probe'), fn: hostProbesAndHostLifecycle_1_34,
    spec: probe('a', { livenessProbe: { httpGet: { host: 'invalid.host' } } }), expect: probeHost('a', 'invalid.host') },
  { name: up('hostProbesAndhostLifecycle', 'TestHostProbesAndHostLifecycle', 'invalid tcpsocket host in readiness probe'), fn: hostProbesAndHostLifecycle_1_34,
    spec: probe('b', { readinessProbe: { tcpSocket: { host: 'invalid.host' } } }), expect: probeHost('b', 'invalid.host') },
  { name: up('hostProbesAndhostLifecycle', 'TestHostProbesAndHostLifecycle', 'invalid httpget host in startup probe'), fn: hostProbesAndHostLifecycle_1_34,
    spec: probe('c', { startupProbe: { httpGet: { host: 'invalid.host' } } }), expect: probeHost('c', 'invalid.host') },
  { name: up('hostProbesAndhostLifecycle', 'TestHostProbesAndHostLifecycle', 'invalid poststart tcpsocket host'), fn: hostProbesAndHostLifecycle_1_34,
    spec: probe('d', { lifecycle: { postStart: { tcpSocket: { host: 'invalid.host' } } } }), expect: probeHost('d', 'invalid.host') },
  { name: up('hostProbesAndhostLifecycle', 'TestHostProbesAndHostLifecycle', 'invalid ipv4 host in probe'), fn: hostProbesAndHostLifecycle_1_34,
    spec: probe('a', { livenessProbe: { httpGet: { host: '8.8.8.8' } } }), expect: probeHost('a', '8.8.8.8') },
  { name: up('hostProbesAndhostLifecycle', 'TestHostProbesAndHostLifecycle', 'invalid ipv6 host in probe'), fn: hostProbesAndHostLifecycle_1_34,
    spec: probe('a', { livenessProbe: { tcpSocket: { host: '2001:4860:4860::8888' } } }), expect: probeHost('a', '2001:4860:4860::8888') },

  // check_procMount_baseline_test.go (procMount1_35baseline) and check_procMount_restricted_test.go (procMount_1_0 for both hostUsers values)
  { name: up('procMount_baseline', 'TestProcMountBaseline', 'procMount'), fn: procMount_1_35_baseline,
    spec: { containers: pmValues, hostUsers: true }, expect: pmDetail },
  { name: up('procMount_baseline', 'TestProcMountBaseline', 'procMount with userns'), fn: procMount_1_35_baseline,
    spec: { containers: pmValues, hostUsers: false }, expect: null },
  { name: `${up('procMount_restricted', 'TestProcMountRestricted', 'procMount')} hostUsers=true`, fn: procMount_1_0,
    spec: { containers: pmValues, hostUsers: true }, expect: pmDetail },
  { name: `${up('procMount_restricted', 'TestProcMountRestricted', 'procMount')} hostUsers=false`, fn: procMount_1_0,
    spec: { containers: pmValues, hostUsers: false }, expect: pmDetail },

  // check_restrictedVolumes_test.go: allowed sources mixed in with the restricted ones are not named
  { name: up('restrictedVolumes', 'TestRestrictedVolumes', 'host path volumes'), fn: restrictedVolumes_1_0,
    spec: { volumes: [
      ...['emptyDir', 'secret', 'persistentVolumeClaim', 'downwardAPI', 'configMap', 'projected', 'csi', 'ephemeral', 'image'].map((k, i) => ({ name: `a${i + 1}`, [k]: {} })),
      ...['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc',
        'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos'].map((k, i) => ({ name: `b${i + 1}`, [k]: {} })),
      { name: 'c1' }] },
    expect: ['restricted volume types', 'volumes "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1" use restricted volume types "awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume"'] },

  // check_runAsNonRoot_test.go (runAsNonRoot1_35)
  { name: up('runAsNonRoot', 'TestRunAsNonRoot', 'no explicit runAsNonRoot'), fn: runAsNonRoot_1_35,
    spec: { containers: [c('a')] }, expect: ['runAsNonRoot != true', 'pod or container "a" must set securityContext.runAsNonRoot=true'] },
  { name: up('runAsNonRoot', 'TestRunAsNonRoot', 'pod runAsNonRoot=false'), fn: runAsNonRoot_1_35,
    spec: { securityContext: { runAsNonRoot: false }, containers: [c('a')] }, expect: ['runAsNonRoot != true', 'pod must not set securityContext.runAsNonRoot=false'] },
  { name: up('runAsNonRoot', 'TestRunAsNonRoot', 'containers runAsNonRoot=false'), fn: runAsNonRoot_1_35,
    spec: { securityContext: { runAsNonRoot: true }, containers: [c('a'), c('b', {}), c('c', { runAsNonRoot: false }), c('d', { runAsNonRoot: false }),
      c('e', { runAsNonRoot: true }), c('f', { runAsNonRoot: true })] },
    expect: ['runAsNonRoot != true', 'containers "c", "d" must not set securityContext.runAsNonRoot=false'] },
  { name: up('runAsNonRoot', 'TestRunAsNonRoot', 'pod nil, container fallthrough'), fn: runAsNonRoot_1_35,
    spec: { containers: [c('a'), c('b', {}), c('d', { runAsNonRoot: true }), c('e', { runAsNonRoot: true })] },
    expect: ['runAsNonRoot != true', 'pod or containers "a", "b" must set securityContext.runAsNonRoot=true'] },
  { name: up('runAsNonRoot', 'TestRunAsNonRoot', 'host users false allowed'), fn: runAsNonRoot_1_35, spec: { hostUsers: false }, expect: null },

  // check_runAsUser_test.go (runAsUser1_35)
  { name: up('runAsUser', 'TestRunAsUser', 'pod runAsUser=0'), fn: runAsUser_1_35,
    spec: { securityContext: { runAsUser: 0 }, containers: [c('a')] }, expect: ['runAsUser=0', 'pod must not set runAsUser=0'] },
  { name: up('runAsUser', 'TestRunAsUser', 'pod runAsUser=non-zero'), fn: runAsUser_1_35,
    spec: { securityContext: { runAsUser: 1000 }, containers: [c('a')] }, expect: null },
  { name: up('runAsUser', 'TestRunAsUser', 'pod runAsUser=nil'), fn: runAsUser_1_35,
    spec: { securityContext: {}, containers: [c('a')] }, expect: null },
  { name: up('runAsUser', 'TestRunAsUser', 'containers runAsUser=0'), fn: runAsUser_1_35,
    spec: { securityContext: { runAsUser: 1000 }, containers: [c('a'), c('b', {}), c('c', { runAsUser: 0 }), c('d', { runAsUser: 0 }),
      c('e', { runAsUser: 1 }), c('f', { runAsUser: 1 })] },
    expect: ['runAsUser=0', 'containers "c", "d" must not set runAsUser=0'] },
  { name: up('runAsUser', 'TestRunAsUser', 'containers runAsUser=non-zero'), fn: runAsUser_1_35,
    spec: { containers: [c('c', { runAsUser: 1 }), c('d', { runAsUser: 2 }), c('e', { runAsUser: 3 }), c('f', { runAsUser: 4 })] }, expect: null },
  { name: up('runAsUser', 'TestRunAsUser', 'host users false allowed'), fn: runAsUser_1_35, spec: { hostUsers: false }, expect: null },

  // check_seLinuxOptions_test.go (seLinuxOptions1_31)
  { name: up('seLinuxOptions', 'TestSELinuxOptions', 'invalid pod'), fn: seLinuxOptions_1_31,
    spec: { securityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } }, containers: seLinuxContainers },
    expect: ['seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: type "foo"; user may not be set; role may not be set'] },
  { name: up('seLinuxOptions', 'TestSELinuxOptions', 'invalid containers'), fn: seLinuxOptions_1_31,
    spec: { securityContext: { seLinuxOptions: {} }, containers: [...seLinuxContainers, ...seLinuxBad] },
    expect: ['seLinuxOptions', 'containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: type "bar"; user may not be set; role may not be set'] },
  { name: up('seLinuxOptions', 'TestSELinuxOptions', 'bad type'), fn: seLinuxOptions_1_31,
    spec: { securityContext: { seLinuxOptions: { type: 'bad' } } }, expect: ['seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: type "bad"'] },
  { name: up('seLinuxOptions', 'TestSELinuxOptions', 'bad user'), fn: seLinuxOptions_1_31,
    spec: { securityContext: { seLinuxOptions: { user: 'bad' } } }, expect: ['seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: user may not be set'] },

  // check_seccompProfile_baseline_test.go
  { name: up('seccompProfile_baseline', 'TestSeccompProfileBaseline_1_0', 'containers seccomp invalid'), fn: seccompProfileBaseline_1_0,
    meta: { annotations: { [sa + 'a']: 'unconfined', [sa + 'b']: 'unknown' } }, spec: { containers: [c('a'), c('b'), c('c')] },
    expect: ['seccompProfile', `forbidden annotations ${sa}a="unconfined", ${sa}b="unknown"`] },
  { name: up('seccompProfile_baseline', 'TestSeccompProfileBaseline_1_0', 'pod and containers seccomp invalid'), fn: seccompProfileBaseline_1_0,
    meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', [sa + 'a']: 'unconfined', [sa + 'b']: 'unknown' } },
    spec: { containers: [c('a'), c('b'), c('c')] },
    expect: ['seccompProfile', `forbidden annotations ${sa}a="unconfined", ${sa}b="unknown", seccomp.security.alpha.kubernetes.io/pod="unconfined"`] },
  { name: up('seccompProfile_baseline', 'TestSeccompProfileBaseline_1_19', 'pod seccomp invalid'), fn: seccompProfileBaseline_1_19,
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a')] },
    expect: ['seccompProfile', 'pod must not set securityContext.seccompProfile.type to "Unconfined"'] },
  { name: up('seccompProfile_baseline', 'TestSeccompProfileBaseline_1_19', 'containers seccomp invalid'), fn: seccompProfileBaseline_1_19,
    spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: seccompContainers },
    expect: ['seccompProfile', 'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'] },
  { name: up('seccompProfile_baseline', 'TestSeccompProfileBaseline_1_19', 'pod and containers seccomp invalid'), fn: seccompProfileBaseline_1_19,
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: seccompContainers },
    expect: ['seccompProfile', 'pod and containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'] },

  // check_seccompProfile_restricted_test.go
  ...([['TestSeccompProfileRestricted_1_25', seccompProfileRestricted_1_25], ['TestSeccompProfileRestricted_1_19', seccompProfileRestricted_1_19]] as const)
    .flatMap(([fnName, fn]): CheckRow[] => [
      { name: up('seccompProfile_restricted', fnName, 'no explicit seccomp'), fn, spec: { containers: [c('a')] },
        expect: ['seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] },
      { name: up('seccompProfile_restricted', fnName, 'pod seccomp invalid'), fn,
        spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a')] },
        expect: ['seccompProfile', 'pod must not set securityContext.seccompProfile.type to "Unconfined"'] },
      { name: up('seccompProfile_restricted', fnName, 'containers seccomp invalid'), fn,
        spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: seccompContainers },
        expect: ['seccompProfile', 'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'] },
      { name: up('seccompProfile_restricted', fnName, 'pod nil, container fallthrough'), fn, spec: { containers: seccompFallthrough },
        expect: ['seccompProfile', 'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] },
    ]),
  { name: up('seccompProfile_restricted', 'TestSeccompProfileRestricted_1_25', 'no explicit seccomp, linux pod'), fn: seccompProfileRestricted_1_25,
    spec: { os: { name: 'linux' }, containers: [c('a')] },
    expect: ['seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"'] },

  // check_sysctls_test.go: the "forbidden sysctls" case of every variant, then each variant's newly allowed names
  ...([['TestSysctls', sysctls_1_0], ['TestSysctls_1_27', sysctls_1_27], ['TestSysctls_1_29', sysctls_1_29], ['TestSysctls_1_32', sysctls_1_32],
    ['TestSysctls_1_37', sysctls_1_37]] as const)
    .map(([fnName, fn]): CheckRow => ({ name: up('sysctls', fnName, 'forbidden sysctls'), fn, spec: sysctlsAB, expect: ['forbidden sysctls', 'a, b'] })),
  ...([['net.ipv4.ip_local_reserved_ports', '1024-4999'], ['net.ipv4.tcp_keepalive_time', '7200'], ['net.ipv4.tcp_fin_timeout', '60'],
    ['net.ipv4.tcp_keepalive_intvl', '75'], ['net.ipv4.tcp_keepalive_probes', '9'], ['net.ipv4.tcp_rmem', '4096 87380 16777216'],
    ['net.ipv4.tcp_wmem', '4096 87380 16777216']] as const)
    .map(([name, value]): CheckRow => ({ name: up('sysctls', 'TestSysctls', `new supported sysctls not supported: ${name}`), fn: sysctls_1_0,
      spec: sysctl(name, value), expect: ['forbidden sysctls', name] })),
  { name: up('sysctls', 'TestSysctls_1_27', 'new supported sysctls'), fn: sysctls_1_27, spec: sysctl('net.ipv4.ip_local_reserved_ports', '1024-4999'), expect: null },
  ...([['net.ipv4.tcp_keepalive_time', '7200'], ['net.ipv4.tcp_fin_timeout', '60'], ['net.ipv4.tcp_keepalive_intvl', '75'], ['net.ipv4.tcp_keepalive_probes', '9']] as const)
    .map(([name, value]): CheckRow => ({ name: up('sysctls', 'TestSysctls_1_29', `new supported sysctls: ${name}`), fn: sysctls_1_29, spec: sysctl(name, value), expect: null })),
  ...([['net.ipv4.tcp_rmem', '4096 87380 16777216'], ['net.ipv4.tcp_wmem', '4096 65536 16777216']] as const)
    .map(([name, value]): CheckRow => ({ name: up('sysctls', 'TestSysctls_1_32', `new supported sysctls: ${name}`), fn: sysctls_1_32, spec: sysctl(name, value), expect: null })),
  ...([['net.ipv4.tcp_slow_start_after_idle', '0'], ['net.ipv4.tcp_notsent_lowat', '16384']] as const)
    .map(([name, value]): CheckRow => ({ name: up('sysctls', 'TestSysctls_1_37', `new supported sysctls: ${name}`), fn: sysctls_1_37, spec: sysctl(name, value), expect: null })),
];

for (const row of [...checkRows, ...upstreamCheckRows]) {
  test(row.name, () => {
    const result = row.fn(meta(row.meta ?? {}), spec(row.spec ?? {}));
    if (row.expect === null) {
      assert.deepEqual(result, { allowed: true, forbiddenReason: '', forbiddenDetail: '' });
    } else {
      assert.deepEqual(result, { allowed: false, forbiddenReason: row.expect[0], forbiddenDetail: row.expect[1] });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// 2. Whole evaluation at a level/version: aggregate text ('' = allowed).

interface EvalRow {
  name: string;
  level: Level;
  version: string;
  spec: Loose;
  meta?: Loose;
  expect: string;
}

const nginx = { containers: [{ name: 'nginx', image: 'nginx' }] };
const hostProbePod = { containers: [c('a', undefined, { livenessProbe: { httpGet: { host: 'bad.host', port: 80 } } })] };
const userNsProcMount = { hostUsers: false, containers: [rc('a', { procMount: 'Unmasked' })] };
const sysctlPod = (name: string) => ({ securityContext: { sysctls: [{ name, value: '1' }] }, containers: [c('a')] });
const windowsBare = { os: { name: 'windows' }, containers: [c('a')] };
const ulimitsPod = { containers: [c('main', { ulimits: [{ name: 'nofile', soft: 1024, hard: 1024 }] })] };
const ulimitsRestricted = { containers: [rc('main', { ulimits: [{ name: 'nofile', soft: 1024, hard: 1024 }] })] };

const evalRows: EvalRow[] = [
  { name: 'restricted:latest bare nginx: the reference §7.1 aggregate', level: 'restricted', version: 'latest', spec: nginx,
    expect: 'allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")' },
  { name: 'baseline:latest bare nginx allowed', level: 'baseline', version: 'latest', spec: nginx, expect: '' },
  { name: 'privileged allows anything', level: 'privileged', version: 'v1.0',
    spec: { hostNetwork: true, containers: [c('a', { privileged: true, ulimits: [{ name: 'core', soft: 1, hard: 1 }] })] }, expect: '' },
  { name: 'order: baseline checks by ID (hostNamespaces, privileged, sysctls, ulimits, windowsHostProcess)', level: 'baseline', version: 'latest',
    spec: { securityContext: { sysctls: [{ name: 'kernel.msgmax' }], windowsOptions: { hostProcess: true } }, hostPID: true,
      containers: [c('a', { privileged: true, ulimits: [{ name: 'core', soft: 1, hard: 1 }] })] },
    expect: 'host namespaces (hostPID=true), privileged (container "a" must not set securityContext.privileged=true), forbidden sysctls (kernel.msgmax), ulimits (container "a" must not set securityContext.ulimits), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)' },
  { name: 'order: baseline IDs before restricted IDs at restricted', level: 'restricted', version: 'latest',
    spec: { hostIPC: true, containers: [c('a', { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, capabilities: { drop: ['ALL'] } })] },
    expect: 'host namespaces (hostIPC=true), allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)' },

  // hostProbesAndHostLifecycle: v1.34
  { name: 'v1.33 baseline: probe host allowed (hostProbesAndHostLifecycle not yet active)', level: 'baseline', version: 'v1.33', spec: hostProbePod, expect: '' },
  { name: 'v1.34 baseline: probe host denied', level: 'baseline', version: 'v1.34', spec: hostProbePod,
    expect: 'probe or lifecycle host (container "a" uses probe or lifecycle host "bad.host")' },
  { name: 'latest restricted: probe host denied too', level: 'restricted', version: 'latest', spec: { containers: [rc('a', {}, { livenessProbe: { tcpSocket: { host: 'x', port: 1 } } })] },
    expect: 'probe or lifecycle host (container "a" uses probe or lifecycle host "x")' },

  // v1.35 user-namespace relaxations
  { name: 'v1.34 baseline: Unmasked procMount denied even with hostUsers false', level: 'baseline', version: 'v1.34', spec: userNsProcMount,
    expect: 'procMount (container "a" must not set securityContext.procMount to "Unmasked")' },
  { name: 'v1.35 baseline: Unmasked procMount allowed with hostUsers false', level: 'baseline', version: 'v1.35', spec: userNsProcMount, expect: '' },
  { name: 'v1.35 baseline: Unmasked procMount denied without hostUsers false', level: 'baseline', version: 'v1.35',
    spec: { containers: [c('a', { procMount: 'Unmasked' })] }, expect: 'procMount (container "a" must not set securityContext.procMount to "Unmasked")' },
  { name: 'v1.34 restricted: Unmasked procMount denied by baseline procMount', level: 'restricted', version: 'v1.34', spec: userNsProcMount,
    expect: 'procMount (container "a" must not set securityContext.procMount to "Unmasked")' },
  { name: 'v1.35 restricted: procMount_restricted keeps the strict rule with hostUsers false', level: 'restricted', version: 'v1.35', spec: userNsProcMount,
    expect: 'procMount (container "a" must not set securityContext.procMount to "Unmasked")' },
  { name: 'v1.34 restricted: runAsNonRoot and runAsUser=0 enforced with hostUsers false', level: 'restricted', version: 'v1.34',
    spec: { hostUsers: false, securityContext: { runAsUser: 0 }, containers: [rc('a', { runAsNonRoot: undefined })] },
    expect: 'runAsNonRoot != true (pod or container "a" must set securityContext.runAsNonRoot=true), runAsUser=0 (pod must not set runAsUser=0)' },
  { name: 'v1.35 restricted: runAsNonRoot and runAsUser pass with hostUsers false', level: 'restricted', version: 'v1.35',
    spec: { hostUsers: false, securityContext: { runAsUser: 0 }, containers: [rc('a', { runAsNonRoot: undefined })] }, expect: '' },

  // runAsUser from v1.23
  { name: 'v1.22 restricted: runAsUser=0 not yet checked', level: 'restricted', version: 'v1.22',
    spec: { securityContext: { runAsUser: 0 }, containers: [rc('a')] }, expect: '' },
  { name: 'v1.23 restricted: runAsUser=0 denied', level: 'restricted', version: 'v1.23',
    spec: { securityContext: { runAsUser: 0 }, containers: [rc('a')] }, expect: 'runAsUser=0 (pod must not set runAsUser=0)' },

  // sysctls boundaries
  { name: 'v1.26 baseline: ip_local_reserved_ports denied', level: 'baseline', version: 'v1.26', spec: sysctlPod('net.ipv4.ip_local_reserved_ports'),
    expect: 'forbidden sysctls (net.ipv4.ip_local_reserved_ports)' },
  { name: 'v1.27 baseline: ip_local_reserved_ports allowed', level: 'baseline', version: 'v1.27', spec: sysctlPod('net.ipv4.ip_local_reserved_ports'), expect: '' },
  { name: 'v1.28 baseline: tcp_keepalive_time denied', level: 'baseline', version: 'v1.28', spec: sysctlPod('net.ipv4.tcp_keepalive_time'),
    expect: 'forbidden sysctls (net.ipv4.tcp_keepalive_time)' },
  { name: 'v1.29 baseline: tcp_keepalive_time allowed', level: 'baseline', version: 'v1.29', spec: sysctlPod('net.ipv4.tcp_keepalive_time'), expect: '' },
  { name: 'v1.31 baseline: tcp_wmem denied', level: 'baseline', version: 'v1.31', spec: sysctlPod('net.ipv4.tcp_wmem'), expect: 'forbidden sysctls (net.ipv4.tcp_wmem)' },
  { name: 'v1.32 baseline: tcp_wmem allowed', level: 'baseline', version: 'v1.32', spec: sysctlPod('net.ipv4.tcp_wmem'), expect: '' },
  { name: 'v1.36 baseline: tcp_notsent_lowat denied', level: 'baseline', version: 'v1.36', spec: sysctlPod('net.ipv4.tcp_notsent_lowat'),
    expect: 'forbidden sysctls (net.ipv4.tcp_notsent_lowat)' },
  { name: 'v1.37 baseline: tcp_notsent_lowat allowed', level: 'baseline', version: 'v1.37', spec: sysctlPod('net.ipv4.tcp_notsent_lowat'), expect: '' },
  { name: 'latest baseline: evaluates as v1.37', level: 'baseline', version: 'latest', spec: sysctlPod('net.ipv4.tcp_slow_start_after_idle'), expect: '' },
  { name: 'future pinned v1.99 baseline: evaluates as v1.37', level: 'baseline', version: 'v1.99', spec: sysctlPod('net.ipv4.tcp_slow_start_after_idle'), expect: '' },

  // SELinux container_engine_t at v1.31
  { name: 'v1.30 baseline: container_engine_t denied', level: 'baseline', version: 'v1.30',
    spec: { securityContext: { seLinuxOptions: { type: 'container_engine_t' } }, containers: [c('a')] },
    expect: 'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "container_engine_t")' },
  { name: 'v1.31 baseline: container_engine_t allowed', level: 'baseline', version: 'v1.31',
    spec: { securityContext: { seLinuxOptions: { type: 'container_engine_t' } }, containers: [c('a')] }, expect: '' },

  // Windows at v1.25
  { name: 'v1.24 restricted: windows pod gets no exemption', level: 'restricted', version: 'v1.24', spec: windowsBare,
    expect: 'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "a" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")' },
  { name: 'v1.25 restricted: windows pod exempt from allowPrivilegeEscalation, capabilities, seccomp (not runAsNonRoot)', level: 'restricted', version: 'v1.25', spec: windowsBare,
    expect: 'runAsNonRoot != true (pod or container "a" must set securityContext.runAsNonRoot=true)' },

  // allowPrivilegeEscalation from v1.8, capabilities_restricted from v1.22, seccomp from v1.19
  { name: 'v1.7 restricted: allowPrivilegeEscalation not yet checked', level: 'restricted', version: 'v1.7',
    spec: { securityContext: { runAsNonRoot: true }, containers: [c('a')] }, expect: '' },
  { name: 'v1.8 restricted: allowPrivilegeEscalation checked', level: 'restricted', version: 'v1.8',
    spec: { securityContext: { runAsNonRoot: true }, containers: [c('a')] },
    expect: 'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)' },
  { name: 'v1.21 restricted: baseline capabilities check still applies', level: 'restricted', version: 'v1.21',
    spec: { containers: [rc('a', { capabilities: { add: ['NET_ADMIN'] } })] },
    expect: 'non-default capabilities (container "a" must not include "NET_ADMIN" in securityContext.capabilities.add)' },
  { name: 'v1.22 restricted: capabilities_restricted overrides capabilities_baseline', level: 'restricted', version: 'v1.22',
    spec: { containers: [rc('a', { capabilities: { add: ['NET_ADMIN'] } })] },
    expect: 'unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"]; container "a" must not include "NET_ADMIN" in securityContext.capabilities.add)' },
  { name: 'v1.18 baseline: seccomp annotations checked', level: 'baseline', version: 'v1.18',
    meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }, spec: { containers: [c('a')] },
    expect: 'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")' },
  { name: 'v1.19 baseline: seccomp annotations ignored', level: 'baseline', version: 'v1.19',
    meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }, spec: { containers: [c('a')] }, expect: '' },
  { name: 'v1.18 restricted: no seccomp requirement yet', level: 'restricted', version: 'v1.18',
    spec: { securityContext: { runAsNonRoot: true }, containers: [c('a', { allowPrivilegeEscalation: false })] }, expect: '' },
  { name: 'v1.19 restricted: seccompProfile_restricted requires a profile', level: 'restricted', version: 'v1.19',
    spec: { securityContext: { runAsNonRoot: true }, containers: [c('a', { allowPrivilegeEscalation: false })] },
    expect: 'seccompProfile (pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")' },

  // hostPath at restricted comes from restrictedVolumes
  { name: 'restricted: hostPath reported by restrictedVolumes, hostPathVolumes overridden', level: 'restricted', version: 'v1.0',
    spec: { securityContext: { runAsNonRoot: true }, volumes: [{ name: 'h', hostPath: { path: '/' } }], containers: [c('a')] },
    expect: 'restricted volume types (volume "h" uses restricted volume type "hostPath")' },
  { name: 'baseline: hostPath reported by hostPathVolumes', level: 'baseline', version: 'v1.0',
    spec: { volumes: [{ name: 'h', hostPath: { path: '/' } }], containers: [c('a')] }, expect: 'hostPath volumes (volume "h")' },

  // ulimits (Bulkhead design): baseline check from v1.0, applies at restricted, privileged allows
  { name: 'ulimits: baseline:latest denies', level: 'baseline', version: 'latest', spec: ulimitsPod,
    expect: 'ulimits (container "main" must not set securityContext.ulimits)' },
  { name: 'ulimits: baseline:v1.0 denies (every policy version)', level: 'baseline', version: 'v1.0', spec: ulimitsPod,
    expect: 'ulimits (container "main" must not set securityContext.ulimits)' },
  { name: 'ulimits: restricted:latest denies', level: 'restricted', version: 'latest', spec: ulimitsRestricted,
    expect: 'ulimits (container "main" must not set securityContext.ulimits)' },
  { name: 'ulimits: restricted:v1.99 denies', level: 'restricted', version: 'v1.99', spec: ulimitsRestricted,
    expect: 'ulimits (container "main" must not set securityContext.ulimits)' },
  { name: 'ulimits: privileged allows', level: 'privileged', version: 'latest', spec: ulimitsPod, expect: '' },
  { name: 'ulimits: empty list allowed at restricted', level: 'restricted', version: 'latest', spec: { containers: [rc('main', { ulimits: [] })] }, expect: '' },
  { name: 'ulimits: plural, ordered between sysctls and windowsHostProcess', level: 'baseline', version: 'latest',
    spec: { securityContext: { sysctls: [{ name: 'x' }] }, initContainers: [c('i', { ulimits: [{ name: 'core', soft: 0, hard: 0 }] })],
      containers: [c('a', { ulimits: [{ name: 'nofile', soft: 1, hard: 1 }], windowsOptions: { hostProcess: true } })] },
    expect: 'forbidden sysctls (x), ulimits (containers "i", "a" must not set securityContext.ulimits), hostProcess (container "a" must not set securityContext.windowsOptions.hostProcess=true)' },
];

for (const row of evalRows) {
  test(row.name, () => {
    const failures = evaluatePod(levelVersion(row.level, row.version), meta(row.meta ?? {}), spec(row.spec));
    assert.equal(aggregateReasons(failures), row.expect);
    assert.equal(failures.length === 0, row.expect === '');
  });
}

// ---------------------------------------------------------------------------------------------
// 3. Messages built from an evaluation.

test('messages: enforce denial for restricted:latest nginx is the reference §7.1 text after the pods prefix', () => {
  const lv = levelVersion('restricted', 'latest');
  const msg = `pods "nginx" is forbidden: ${enforceDenialMessage(lv, evaluatePod(lv, meta({ name: 'nginx' }), spec(nginx)))}`;
  assert.equal(msg, 'pods "nginx" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
});

test('messages: warn and audit texts print the version as written (v1.99, not the resolved v1.37)', () => {
  const lv = levelVersion('baseline', 'v1.99');
  const failures = evaluatePod(lv, undefined, spec({ hostNetwork: true, containers: [c('a')] }));
  assert.equal(warnMessage(lv, failures), 'would violate PodSecurity "baseline:v1.99": host namespaces (hostNetwork=true)');
  assert.equal(auditViolationsAnnotation(lv, failures), 'would violate PodSecurity "baseline:v1.99": host namespaces (hostNetwork=true)');
});

test('aggregate: empty detail prints the reason alone; empty reason prints the upstream placeholder', () => {
  const results: CheckResult[] = [forbidden('a', ''), forbidden('', 'd'), { allowed: true, forbiddenReason: 'x', forbiddenDetail: 'y' }, forbidden('b', 'e')];
  assert.equal(aggregateReasons(results), 'a, unknown forbidden reason (d), b (e)');
  assert.equal(reasonsOnly(results), 'a, unknown forbidden reason, b');
  assert.equal(aggregateReasons([]), '');
});

test('reasonsOnly: the namespace dry-run form of the nginx result', () => {
  const lv = levelVersion('restricted', 'latest');
  assert.equal(reasonsOnly(evaluatePod(lv, undefined, spec(nginx))),
    'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile');
});

// ---------------------------------------------------------------------------------------------
// 4. Registry: active checks, order, overrides, maximum version, emulation, validation.

const ids = (level: Level, version: string, registry = getDefaultRegistry()) =>
  registry.activeChecks(levelVersion(level, version)).map((a) => a.id);

const registryRows: { name: string; level: Level; version: string; expect: string[] }[] = [
  { name: 'registry: privileged runs no checks', level: 'privileged', version: 'latest', expect: [] },
  { name: 'registry: baseline v1.0 in ID order, ulimits between sysctls and windowsHostProcess', level: 'baseline', version: 'v1.0',
    expect: ['appArmorProfile', 'capabilities_baseline', 'hostNamespaces', 'hostPathVolumes', 'hostPorts', 'privileged', 'procMount',
      'seLinuxOptions', 'seccompProfile_baseline', 'sysctls', 'ulimits', 'windowsHostProcess'] },
  { name: 'registry: baseline latest adds hostProbesAndHostLifecycle', level: 'baseline', version: 'latest',
    expect: ['appArmorProfile', 'capabilities_baseline', 'hostNamespaces', 'hostPathVolumes', 'hostPorts', 'hostProbesAndHostLifecycle', 'privileged',
      'procMount', 'seLinuxOptions', 'seccompProfile_baseline', 'sysctls', 'ulimits', 'windowsHostProcess'] },
  { name: 'registry: restricted v1.0 replaces hostPathVolumes with restrictedVolumes', level: 'restricted', version: 'v1.0',
    expect: ['appArmorProfile', 'capabilities_baseline', 'hostNamespaces', 'hostPorts', 'privileged', 'procMount', 'seLinuxOptions',
      'seccompProfile_baseline', 'sysctls', 'ulimits', 'windowsHostProcess', 'restrictedVolumes', 'runAsNonRoot'] },
  { name: 'registry: restricted v1.22 overrides capabilities and seccomp baseline checks', level: 'restricted', version: 'v1.22',
    expect: ['appArmorProfile', 'hostNamespaces', 'hostPorts', 'privileged', 'procMount', 'seLinuxOptions', 'sysctls', 'ulimits', 'windowsHostProcess',
      'allowPrivilegeEscalation', 'capabilities_restricted', 'restrictedVolumes', 'runAsNonRoot', 'seccompProfile_restricted'] },
  { name: 'registry: restricted latest (reference §"Order and aggregation" plus ulimits)', level: 'restricted', version: 'latest',
    expect: ['appArmorProfile', 'hostNamespaces', 'hostPorts', 'hostProbesAndHostLifecycle', 'privileged', 'seLinuxOptions', 'sysctls', 'ulimits',
      'windowsHostProcess', 'allowPrivilegeEscalation', 'capabilities_restricted', 'procMount_restricted', 'restrictedVolumes', 'runAsNonRoot',
      'runAsUser', 'seccompProfile_restricted'] },
];

for (const row of registryRows) {
  test(row.name, () => assert.deepEqual(ids(row.level, row.version), row.expect));
}

test('registry: maximum version is v1.37; latest, v1.37 and v1.99 resolve alike', () => {
  const reg = getDefaultRegistry();
  assert.equal(reg.maxMinor, 37);
  assert.equal(reg.maxMinor, MAX_KNOWN_MINOR);
  assert.equal(new CheckRegistry(UPSTREAM_CHECKS).maxMinor, 37);
  for (const v of ['latest', 'v1.37', 'v1.99', 'v1.9223372036854775807']) assert.equal(reg.resolveMinor(levelVersion('baseline', v).version), 37, v);
  assert.equal(reg.resolveMinor(v1(30)), 30);
  const at = (v: string) => reg.activeChecks(levelVersion('restricted', v)).map((a) => `${a.id}:v1.${a.variantMinor}`);
  assert.deepEqual(at('latest'), at('v1.37'));
  assert.deepEqual(at('v1.99'), at('v1.37'));
  assert.ok(at('latest').includes('sysctls:v1.37'));
  assert.ok(at('v1.36').includes('sysctls:v1.32'));
});

test('registry: emulation version lowers the maximum (hostProbesAndHostLifecycle off when emulating v1.33)', () => {
  const spec133 = spec({ containers: [{ name: 'x', startupProbe: { httpGet: { host: 'localhost' } } }] });
  for (const [emu, active] of [[undefined, true], [34, true], [33, false]] as const) {
    const reg = new CheckRegistry(undefined, emu === undefined ? {} : { emulationVersion: v1(emu) });
    for (const v of ['latest', 'v1.34']) {
      const denied = evaluatePod(levelVersion('baseline', v), undefined, spec133, reg).length > 0;
      assert.equal(denied, active, `emulate ${emu}, evaluate ${v}`);
    }
    assert.equal(evaluatePod(levelVersion('baseline', 'v1.33'), undefined, spec133, reg).length, 0);
  }
});

// Upstream's synthetic registry test: each check reports `<id>:<variant version>`.
function synthetic(id: string, level: Level, versions: number[], overrides: (string[] | undefined)[] = []): Check {
  return {
    id, level,
    versions: versions.map((m, i) => ({
      minimumVersion: v1(m),
      checkPod: () => forbidden(`${id}:v1.${m}`, ''),
      overrideCheckIDs: overrides[i],
    })),
  };
}

test('registry: synthetic checks reproduce upstream TestCheckRegistry (variants, overrides per variant, ordering)', () => {
  const checks = [
    synthetic('a', 'baseline', [0]), synthetic('b', 'baseline', [10]), synthetic('c', 'baseline', [0, 5, 10]), synthetic('d', 'baseline', [11, 15, 20]),
    synthetic('e', 'restricted', [0]), synthetic('f', 'restricted', [12, 16, 21]), synthetic('g', 'restricted', [10], [['a']]),
    synthetic('h', 'restricted', [0], [['b']]), synthetic('i', 'restricted', [10, 21], [['c'], ['d']]),
  ];
  const reg = new CheckRegistry(checks);
  const cases: [Level, string, string[]][] = [
    ['privileged', 'v1.0', []], ['privileged', 'latest', []],
    ['baseline', 'v1.0', ['a:v1.0', 'c:v1.0']], ['baseline', 'v1.4', ['a:v1.0', 'c:v1.0']], ['baseline', 'v1.5', ['a:v1.0', 'c:v1.5']],
    ['baseline', 'v1.10', ['a:v1.0', 'b:v1.10', 'c:v1.10']], ['baseline', 'v1.11', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.11']],
    ['baseline', 'latest', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.20']],
    ['restricted', 'v1.0', ['a:v1.0', 'c:v1.0', 'e:v1.0', 'h:v1.0']], ['restricted', 'v1.4', ['a:v1.0', 'c:v1.0', 'e:v1.0', 'h:v1.0']],
    ['restricted', 'v1.5', ['a:v1.0', 'c:v1.5', 'e:v1.0', 'h:v1.0']], ['restricted', 'v1.10', ['e:v1.0', 'g:v1.10', 'h:v1.0', 'i:v1.10']],
    ['restricted', 'v1.11', ['d:v1.11', 'e:v1.0', 'g:v1.10', 'h:v1.0', 'i:v1.10']],
    ['restricted', 'latest', ['c:v1.10', 'e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0', 'i:v1.21']],
    ['restricted', 'v1.10000', ['c:v1.10', 'e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0', 'i:v1.21']],
  ];
  for (const [level, version, expect] of cases) {
    assert.deepEqual(evaluatePod(levelVersion(level, version), undefined, undefined, reg).map((r) => r.forbiddenReason), expect, `${level}:${version}`);
  }
});

test('registry: restricted with no baseline checks, and an empty registry', () => {
  const reg = new CheckRegistry([synthetic('e', 'restricted', [0]), synthetic('g', 'restricted', [10], [['a']])]);
  assert.deepEqual(evaluatePod(levelVersion('baseline', 'latest'), undefined, undefined, reg), []);
  assert.deepEqual(evaluatePod(levelVersion('restricted', 'latest'), undefined, undefined, reg).map((r) => r.forbiddenReason), ['e:v1.0', 'g:v1.10']);
  const empty = new CheckRegistry([]);
  assert.deepEqual(evaluatePod(levelVersion('restricted', 'latest'), undefined, spec(nginx), empty), []);
});

// Upstream policy/registry_test.go TestCheckRegistry_NoBaseline, _NoRestricted and _Empty, one row per level:version case.
const baselineSynthetics = () => [synthetic('a', 'baseline', [0]), synthetic('b', 'baseline', [10]), synthetic('c', 'baseline', [0, 5, 10]),
  synthetic('d', 'baseline', [11, 15, 20])];
const restrictedSynthetics = () => [synthetic('e', 'restricted', [0]), synthetic('f', 'restricted', [12, 16, 21]),
  synthetic('g', 'restricted', [10], [['a']]), synthetic('h', 'restricted', [0], [['b']])];
const noRestrictedCases: [string, string[]][] = [
  ['v1.0', ['a:v1.0', 'c:v1.0']], ['v1.4', ['a:v1.0', 'c:v1.0']], ['v1.5', ['a:v1.0', 'c:v1.5']], ['v1.10', ['a:v1.0', 'b:v1.10', 'c:v1.10']],
  ['v1.11', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.11']], ['latest', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.20']],
];
const syntheticRegistryRows: [string, () => Check[], Level, string, string[]][] = [
  ...([['privileged', 'v1.0', []], ['privileged', 'latest', []], ['baseline', 'v1.0', []], ['baseline', 'v1.10', []], ['baseline', 'latest', []],
    ['restricted', 'v1.0', ['e:v1.0', 'h:v1.0']], ['restricted', 'v1.10', ['e:v1.0', 'g:v1.10', 'h:v1.0']],
    ['restricted', 'latest', ['e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0']], ['restricted', 'v1.10000', ['e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0']]] as const)
    .map(([l, v, e]): [string, () => Check[], Level, string, string[]] => ['TestCheckRegistry_NoBaseline', restrictedSynthetics, l, v, [...e]]),
  // "Restricted results should be identical to baseline."
  ...noRestrictedCases.flatMap(([v, e]) => (['baseline', 'restricted'] as const).map(
    (l): [string, () => Check[], Level, string, string[]] => ['TestCheckRegistry_NoRestricted', baselineSynthetics, l, v, e])),
  ...(['privileged', 'baseline', 'restricted'] as const).map((l): [string, () => Check[], Level, string, string[]] => ['TestCheckRegistry_Empty', () => [], l, 'latest', []]),
];
for (const [fn, checks, level, version, expect] of syntheticRegistryRows) {
  test(`upstream policy/registry_test.go ${fn}/${level}:${version}`, () => {
    const reg = new CheckRegistry(checks());
    assert.deepEqual(evaluatePod(levelVersion(level, version), undefined, undefined, reg).map((r) => r.forbiddenReason), expect);
  });
}

const invalidRegistries: [string, Check[], RegExp][] = [
  ['duplicate IDs', [synthetic('a', 'baseline', [0]), synthetic('a', 'restricted', [0])], /multiple checks registered for ID a/],
  ['privileged level', [synthetic('a', 'privileged', [0])], /invalid level privileged/],
  ['no variants', [{ id: 'a', level: 'baseline', versions: [] }], /check a: empty/],
  ['latest variant', [{ id: 'a', level: 'baseline', versions: [{ minimumVersion: 'latest', checkPod: () => forbidden('x', '') }] }], /cannot be 'latest'/],
  ['duplicate variant version', [synthetic('a', 'baseline', [3, 3])], /duplicate version v1.3/],
  ['decreasing variants', [synthetic('a', 'baseline', [5, 3])], /strictly increasing/],
  ['baseline override', [synthetic('a', 'baseline', [0], [['b']])], /only restricted checks may set overrides/],
  ['restricted overriding restricted', [synthetic('a', 'restricted', [0]), synthetic('b', 'restricted', [0], [['a']])], /overrides restricted check a/],
];
for (const [name, checks, err] of invalidRegistries) {
  test(`registry validation rejects ${name}`, () => assert.throws(() => validateChecks(checks), err));
}

test('registry validation accepts the default and upstream check lists; every override names a real baseline check', () => {
  validateChecks(UPSTREAM_CHECKS);
  validateChecks(DEFAULT_CHECKS);
  const baselineIDs = new Set(UPSTREAM_CHECKS.filter((ch) => ch.level === 'baseline').map((ch) => ch.id));
  for (const ch of UPSTREAM_CHECKS) for (const v of ch.versions) for (const o of v.overrideCheckIDs ?? []) assert.ok(baselineIDs.has(o), `${ch.id} overrides ${o}`);
});

// ---------------------------------------------------------------------------------------------
// 5. Defaulting and malformed input.

test('defaulting: a source-less volume becomes emptyDir, without mutating the input', () => {
  const pod = { metadata: { name: 'p' }, spec: { containers: [rc('a')], securityContext: { runAsNonRoot: true },
    volumes: [{ name: 'v0' }, { name: 'v1', emptyDir: null }, { name: 'v2', secret: { secretName: 's' } }] } };
  const snapshot = JSON.stringify(pod);
  const lv = levelVersion('restricted', 'latest');
  assert.equal(aggregateReasons(evaluatePod(lv, undefined, spec(pod.spec))),
    'restricted volume types (volumes "v0", "v1" use restricted volume type "unknown")');
  const defaulted = defaultPodForPodSecurity(pod as never) as unknown as typeof pod;
  assert.deepEqual(defaulted.spec.volumes, [{ name: 'v0', emptyDir: {} }, { name: 'v1', emptyDir: {} }, { name: 'v2', secret: { secretName: 's' } }]);
  assert.deepEqual(evaluatePod(lv, undefined, spec(defaulted.spec)), []);
  assert.equal(JSON.stringify(pod), snapshot);
  const untouched = { containers: [], volumes: [{ name: 'x', emptyDir: {} }] };
  assert.equal(defaultPodSpecForPodSecurity(spec(untouched)), untouched);
  assert.equal(defaultPodForPodSecurity(undefined), undefined);
  assert.equal(defaultPodSpecForPodSecurity(null), null);
});

const weird: unknown[] = [
  undefined, null, 0, 'pod', [], [1, 2], {}, { containers: 'nginx' }, { containers: [null, 5, 'x', [], {}] },
  { containers: {}, initContainers: 7, ephemeralContainers: [{ name: {} }] }, { containers: [{ name: 'a', securityContext: 'yes' }] },
  { containers: [{ name: 'a', securityContext: { capabilities: 'ALL', seccompProfile: 'RuntimeDefault', seLinuxOptions: [], appArmorProfile: 1,
    windowsOptions: 'x', ulimits: {}, procMount: 5, runAsUser: '0', runAsNonRoot: 'true', privileged: 'no', allowPrivilegeEscalation: 'false' } }] },
  { securityContext: 'x', volumes: 'hostPath', hostNetwork: 'true', os: 'windows', hostUsers: 'false' },
  { securityContext: { sysctls: [null, 1, { name: 5 }], seLinuxOptions: { type: 1, user: {}, role: [] }, windowsOptions: { hostProcess: 1 } },
    volumes: [null, 1, { name: 2 }, { hostPath: 'x', emptyDir: {} }] },
  { containers: [{ name: 'a', ports: [null, { hostPort: '80' }, 5], livenessProbe: 'x', readinessProbe: { httpGet: 'x', tcpSocket: { host: 5 } },
    lifecycle: { postStart: [], preStop: { httpGet: { host: null } } } }] },
  JSON.parse('{"containers":[{"name":"__proto__","securityContext":{"__proto__":{"privileged":true}}}]}'),
];
const weirdMeta: unknown[] = [undefined, null, 'm', [], { annotations: 'x' }, { annotations: [1] },
  { annotations: { [aa + 'x']: 5, [sa + 'a']: null, 'seccomp.security.alpha.kubernetes.io/pod': {} } }];

test('malformed input: evaluatePod never throws and every failure has a reason, at every level and several versions', () => {
  for (const level of ['privileged', 'baseline', 'restricted'] as const) {
    for (const version of ['v1.0', 'v1.18', 'v1.25', 'v1.35', 'latest']) {
      for (const s of weird) {
        for (const m of weirdMeta) {
          const failures = evaluatePod(levelVersion(level, version), meta(m), spec(s));
          assert.ok(Array.isArray(failures));
          for (const f of failures) {
            assert.notEqual(f.forbiddenReason, '', `${level}:${version} ${JSON.stringify(s)} ${JSON.stringify(m)}: ${f.forbiddenDetail}`);
          }
          aggregateReasons(failures);
          defaultPodSpecForPodSecurity(spec(s));
        }
      }
    }
  }
});

// Wrong-typed values never make a pod look safer than the well-typed dangerous value would.
const failClosedRows: { name: string; level: Level; spec: Loose; meta?: Loose; expect: string }[] = [
  { name: 'fail closed: privileged "true" (string) counts as set', level: 'baseline', spec: { containers: [c('a', { privileged: 'true' })] },
    expect: 'privileged (container "a" must not set securityContext.privileged=true)' },
  { name: 'fail closed: hostNetwork 1 counts as set', level: 'baseline', spec: { hostNetwork: 1, containers: [c('a')] }, expect: 'host namespaces (hostNetwork=true)' },
  { name: 'fail closed: capabilities.add as a bare string is one item', level: 'baseline', spec: { containers: [c('a', { capabilities: { add: 'SYS_ADMIN' } })] },
    expect: 'non-default capabilities (container "a" must not include "SYS_ADMIN" in securityContext.capabilities.add)' },
  { name: 'fail closed: capabilities.drop "ALL" as a string is not a list containing ALL', level: 'restricted',
    spec: { containers: [rc('a', { capabilities: { drop: 'ALL' } })] }, expect: 'unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"])' },
  { name: 'fail closed: allowPrivilegeEscalation "false" (string) is not false', level: 'restricted',
    spec: { containers: [rc('a', { allowPrivilegeEscalation: 'false' })] }, expect: 'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)' },
  { name: 'fail closed: runAsNonRoot "true" (string) is an explicit bad value', level: 'restricted',
    spec: { containers: [rc('a', { runAsNonRoot: 'true' })] }, expect: 'runAsNonRoot != true (container "a" must not set securityContext.runAsNonRoot=false)' },
  { name: 'fail closed: runAsUser "0" (string) is not a safe UID', level: 'restricted',
    spec: { containers: [rc('a', { runAsUser: '0' })] }, expect: 'runAsUser=0 (container "a" must not set runAsUser=0)' },
  { name: 'fail closed: os.name "Windows" (wrong case) is not windows', level: 'restricted', spec: { os: { name: 'Windows' }, securityContext: { runAsNonRoot: true }, containers: [c('a', { seccompProfile: { type: 'RuntimeDefault' }, capabilities: { drop: ['ALL'] } })] },
    expect: 'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)' },
  { name: 'fail closed: hostUsers "false" (string) does not relax', level: 'restricted', spec: { hostUsers: 'false', containers: [rc('a', { runAsNonRoot: undefined })] },
    expect: 'runAsNonRoot != true (pod or container "a" must set securityContext.runAsNonRoot=true)' },
  { name: 'fail closed: containers given as an object are still checked', level: 'baseline', spec: { containers: { name: 'a', securityContext: { privileged: true } } },
    expect: 'privileged (container "a" must not set securityContext.privileged=true)' },
  { name: 'fail closed: null list items are zero-value containers', level: 'restricted', spec: { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [null] },
    expect: 'allowPrivilegeEscalation != false (container "" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "" must set securityContext.capabilities.drop=["ALL"])' },
  { name: 'fail closed: an unrecognised volume key is an "unknown" source', level: 'restricted', spec: { securityContext: { runAsNonRoot: true }, containers: [rc('a')], volumes: [{ name: 'v', fooVolume: {} }] },
    expect: 'restricted volume types (volume "v" uses restricted volume type "unknown")' },
  { name: 'fail closed: a volume with an allowed and a restricted source is restricted', level: 'restricted', spec: { securityContext: { runAsNonRoot: true }, containers: [rc('a')], volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/' } }] },
    expect: 'restricted volume types (volume "v" uses restricted volume type "hostPath")' },
  { name: 'fail closed: ulimits given as an object counts as set', level: 'baseline', spec: { containers: [c('a', { ulimits: { nofile: 1 } })] },
    expect: 'ulimits (container "a" must not set securityContext.ulimits)' },
  { name: 'fail closed: a non-string AppArmor annotation value is forbidden', level: 'baseline', meta: { annotations: { [aa + 'a']: 5 } }, spec: { containers: [c('a')] },
    expect: `forbidden AppArmor profile (annotation must not set AppArmor profile type to "${aa}a="5"")` },
  { name: 'null annotation value is Go\'s "" (allowed for AppArmor)', level: 'baseline', meta: { annotations: { [aa + 'a']: null } }, spec: { containers: [c('a')] }, expect: '' },
  { name: 'null securityContext fields are unset (privileged: null allowed)', level: 'baseline', spec: { containers: [c('a', { privileged: null, procMount: null, capabilities: null })] }, expect: '' },
];
for (const row of failClosedRows) {
  test(row.name, () => {
    assert.equal(aggregateReasons(evaluatePod(levelVersion(row.level, 'latest'), meta(row.meta ?? {}), spec(row.spec))), row.expect);
  });
}

test('a throwing check fails closed with the unknown-reason placeholder', () => {
  const boom: Check = { id: 'boom', level: 'baseline', versions: [{ minimumVersion: v1(0), checkPod: () => { throw new Error('bad'); } }] };
  const failures = evaluatePod(levelVersion('baseline', 'latest'), undefined, undefined, new CheckRegistry([boom]));
  assert.equal(aggregateReasons(failures), 'unknown forbidden reason (check boom failed: Error: bad)');
});
