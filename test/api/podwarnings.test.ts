// pkg/api/pod/warnings_test.go (v1.32) row by row: TestWarnings (each row for a template with no
// path, `podspec_`, and for a pod, `pod_`), TestTemplateOnlyWarnings and TestCheckForOverLap,
// with upstream's case names and expected strings. The objects are the rows' internal structs
// written as v1 JSON. Left out: the duplicate port name rows (the check came in v1.33). A row's
// oldTemplate is not passed: v1.32 never compares with the old object.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldPath } from '../../src/api/fielderrors.js';
import { overlapsWith, podTemplateWarnings, podWarnings, type PathAndSource, type PodTemplate } from '../../src/api/podwarnings.js';
import type { Pod } from '../../src/api/types.js';

const resources = { cpu: '100m', memory: '4m', 'ephemeral-storage': '4m' };
const testName = 'Test';

/** A template with just a spec. */
const spec = (s: Record<string, unknown>): PodTemplate => ({ spec: s as unknown as PodTemplate['spec'] });
const vol = (v: Record<string, unknown>): PodTemplate => spec({ volumes: [v] });
const ports = (...cs: Record<string, unknown>[][]): PodTemplate => spec({ containers: cs.map((p, i) => ({ name: i === 0 ? 'foo' : 'bar', ports: p })) });
const containersWithPorts = (cs: { name: string; ports: Record<string, unknown>[] }[]): PodTemplate => spec({ containers: cs });
const fieldRef = (fieldPath: string) => ({ apiVersion: 'v1', fieldPath });
const deprecatedKeys = ['foo', 'beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'failure-domain.beta.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone', 'beta.kubernetes.io/instance-type'];

interface Row {
  name: string;
  template: PodTemplate | undefined;
  expected: string[];
}

const rows: Row[] = [
  { name: 'null', template: undefined, expected: [] },
  { name: 'photon', template: vol({ name: 'p', photonPersistentDisk: {} }), expected: ['spec.volumes[0].photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+'] },
  { name: 'gitRepo', template: vol({ name: 's', gitRepo: {} }), expected: ['spec.volumes[0].gitRepo: deprecated in v1.11'] },
  { name: 'scaleIO', template: vol({ name: 's', scaleIO: {} }), expected: ['spec.volumes[0].scaleIO: deprecated in v1.16, non-functional in v1.22+'] },
  { name: 'flocker', template: vol({ name: 's', flocker: {} }), expected: ['spec.volumes[0].flocker: deprecated in v1.22, non-functional in v1.25+'] },
  { name: 'storageOS', template: vol({ name: 's', storageos: {} }), expected: ['spec.volumes[0].storageOS: deprecated in v1.22, non-functional in v1.25+'] },
  { name: 'quobyte', template: vol({ name: 's', quobyte: {} }), expected: ['spec.volumes[0].quobyte: deprecated in v1.22, non-functional in v1.25+'] },
  { name: 'glusterfs', template: vol({ name: 's', glusterfs: {} }), expected: ['spec.volumes[0].glusterfs: deprecated in v1.25, non-functional in v1.26+'] },
  { name: 'CephFS', template: vol({ name: 's', cephfs: {} }), expected: ['spec.volumes[0].cephfs: deprecated in v1.28, non-functional in v1.31+'] },
  { name: 'rbd', template: vol({ name: 's', rbd: {} }), expected: ['spec.volumes[0].rbd: deprecated in v1.28, non-functional in v1.31+'] },
  {
    name: 'overlapping paths in a configmap volume',
    template: vol({ name: 'Test', configMap: { name: 'foo', items: [{ key: 'foo', path: 'test' }, { key: 'bar', path: 'test' }] } }),
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in a configmap volume - try to mount dir path into a file',
    template: vol({ name: 'Test', configMap: { name: 'foo', items: [{ key: 'foo', path: 'test' }, { key: 'bar', path: 'test/app' }] } }),
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test/app" with "test"'],
  },
  {
    name: 'overlapping paths in a configmap volume - try to mount file into a dir path',
    template: vol({ name: 'Test', configMap: { name: 'foo', items: [{ key: 'bar', path: 'test/app' }, { key: 'foo', path: 'test' }] } }),
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test/app"'],
  },
  {
    name: 'overlapping paths in a secret volume',
    template: vol({ name: 'Test', secret: { secretName: 'foo', items: [{ key: 'foo', path: 'test' }, { key: 'bar', path: 'test' }] } }),
    expected: ['volume "Test" (Secret "foo"): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in a downward api volume',
    template: vol({ name: 'Test', downwardAPI: { items: [{ fieldRef: fieldRef('metadata.name'), path: 'test' }, { fieldRef: fieldRef('metadata.labels'), path: 'test' }] } }),
    expected: ['volume "Test" (DownwardAPI): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in projected volume - service account and config',
    template: vol({ name: 'foo', projected: { sources: [{ configMap: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } }, { serviceAccountToken: { path: 'test' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ConfigMap "Test")'],
  },
  {
    name: 'overlapping paths in projected volume volume: service account dir and config file',
    template: vol({ name: 'foo', projected: { sources: [{ configMap: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } }, { serviceAccountToken: { path: 'test/file' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test/file" (ServiceAccountToken) with "test" (ConfigMap "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account file and config dir',
    template: vol({ name: 'foo', projected: { sources: [{ configMap: { name: 'Test', items: [{ key: 'foo', path: 'test/file' }] } }, { serviceAccountToken: { path: 'test' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/file" (ConfigMap "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account and secret',
    template: vol({ name: 'foo', projected: { sources: [{ secret: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } }, { serviceAccountToken: { path: 'test' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account and downward api',
    template: vol({ name: 'foo', projected: { sources: [{ downwardAPI: { items: [{ fieldRef: fieldRef('metadata.name'), path: 'test' }] } }, { serviceAccountToken: { path: 'test' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)'],
  },
  {
    name: 'overlapping paths in projected volume - service account and cluster trust bundle',
    template: vol({ name: 'foo', projected: { sources: [{ clusterTrustBundle: { name: testName, path: 'test' } }, { serviceAccountToken: { path: 'test' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ClusterTrustBundle "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account and cluster trust bundle with signer name',
    template: vol({ name: 'foo', projected: { sources: [{ clusterTrustBundle: { signerName: testName, path: 'test' } }, { serviceAccountToken: { path: 'test' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ClusterTrustBundle "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - secret and config map',
    template: vol({ name: 'foo', projected: { sources: [{ secret: { name: 'TestSecret', items: [{ key: 'mykey', path: 'test' }] } }, { configMap: { name: 'TestConfigMap', items: [{ key: 'mykey', path: 'test/test1' }] } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test/test1" (ConfigMap "TestConfigMap") with "test" (Secret "TestSecret")'],
  },
  {
    name: 'overlapping paths in projected volume - config map and downward api',
    template: vol({ name: 'foo', projected: { sources: [{ secret: { name: 'TestSecret', items: [{ key: 'mykey', path: 'test' }] } }, { downwardAPI: { items: [{ fieldRef: fieldRef('metadata.name'), path: 'test/test2' }] } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test/test2" (DownwardAPI) with "test" (Secret "TestSecret")'],
  },
  {
    name: 'overlapping paths in projected volume - downward api and cluster thrust bundle api',
    template: vol({ name: 'foo', projected: { sources: [{ downwardAPI: { items: [{ fieldRef: fieldRef('metadata.name'), path: 'test/test2' }] } }, { clusterTrustBundle: { name: testName, path: 'test' } }] } }),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ClusterTrustBundle "Test") with "test/test2" (DownwardAPI)'],
  },
  {
    name: 'overlapping paths in projected volume - multiple sources',
    template: vol({
      name: 'foo',
      projected: {
        sources: [
          { clusterTrustBundle: { signerName: testName, path: 'test/test' } },
          { downwardAPI: { items: [{ fieldRef: fieldRef('metadata.name'), path: 'test' }] } },
          { secret: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } },
          { serviceAccountToken: { path: 'test' } },
        ],
      },
    }),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")',
    ],
  },
  {
    name: 'overlapping paths in projected volume - ServiceAccount vs. DownwardAPI',
    template: vol({
      name: 'foo',
      projected: {
        sources: [
          { serviceAccountToken: { path: 'test/test2' } },
          { downwardAPI: { items: [{ fieldRef: fieldRef('metadata.name'), path: 'test' }, { fieldRef: fieldRef('metadata.name'), path: 'test' }] } },
        ],
      },
    }),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test" (DownwardAPI)',
    ],
  },
  { name: 'empty sources in projected volume', template: vol({ name: 'foo', projected: { sources: [{}] } }), expected: ['volume "foo" (Projected) has no sources provided'] },
  {
    name: 'duplicate hostAlias',
    template: spec({ hostAliases: [{ ip: '1.1.1.1' }, { ip: '1.1.1.1' }, { ip: '1.1.1.1' }] }),
    expected: ['spec.hostAliases[1].ip: duplicate ip "1.1.1.1"', 'spec.hostAliases[2].ip: duplicate ip "1.1.1.1"'],
  },
  {
    name: 'duplicate imagePullSecret',
    template: spec({ imagePullSecrets: [{ name: 'a' }, { name: 'a' }, { name: 'a' }] }),
    expected: ['spec.imagePullSecrets[1].name: duplicate name "a"', 'spec.imagePullSecrets[2].name: duplicate name "a"'],
  },
  { name: 'empty imagePullSecret', template: spec({ imagePullSecrets: [{ name: '' }] }), expected: ['spec.imagePullSecrets[0].name: invalid empty name ""'] },
  {
    name: 'duplicate env',
    template: spec({
      initContainers: [{ env: [{ name: 'a', value: 'a' }, { name: 'a', value: 'a' }, { name: 'a', value: 'other' }, { name: 'a', value: '' }, { name: 'a', value: '$(a)' }, { name: 'a', valueFrom: {} }, { name: 'a', value: '$(a) $(a)' }] }],
      containers: [{ env: [{ name: 'b', value: 'b' }, { name: 'b', value: 'b' }, { name: 'b', value: 'other' }, { name: 'b', value: '' }, { name: 'b', value: '$(b)' }, { name: 'b', valueFrom: {} }, { name: 'b', value: '$(b) $(b)' }] }],
    }),
    expected: [
      ...[1, 2, 3, 4, 5].map((i) => `spec.initContainers[0].env[${i}]: hides previous definition of "a", which may be dropped when using apply`),
      ...[1, 2, 3, 4, 5].map((i) => `spec.containers[0].env[${i}]: hides previous definition of "b", which may be dropped when using apply`),
    ],
  },
  {
    name: 'fractional resources',
    template: spec({ initContainers: [{ resources: { requests: resources, limits: resources } }], containers: [{ resources: { requests: resources, limits: resources } }], overhead: resources }),
    expected: [
      'spec.initContainers[0].resources.requests[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer',
      'spec.initContainers[0].resources.requests[memory]: fractional byte value "4m" is invalid, must be an integer',
      'spec.initContainers[0].resources.limits[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer',
      'spec.initContainers[0].resources.limits[memory]: fractional byte value "4m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[memory]: fractional byte value "4m" is invalid, must be an integer',
      'spec.containers[0].resources.limits[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer',
      'spec.containers[0].resources.limits[memory]: fractional byte value "4m" is invalid, must be an integer',
      'spec.overhead[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer',
      'spec.overhead[memory]: fractional byte value "4m" is invalid, must be an integer',
    ],
  },
  {
    name: 'node labels in nodeSelector',
    template: spec({ nodeSelector: { 'beta.kubernetes.io/arch': 'true', 'beta.kubernetes.io/os': 'true', 'failure-domain.beta.kubernetes.io/region': 'true', 'failure-domain.beta.kubernetes.io/zone': 'true', 'beta.kubernetes.io/instance-type': 'true' } }),
    expected: [
      'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.nodeSelector[beta.kubernetes.io/instance-type]: deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.nodeSelector[failure-domain.beta.kubernetes.io/region]: deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      'spec.nodeSelector[failure-domain.beta.kubernetes.io/zone]: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ],
  },
  {
    name: 'node labels in affinity requiredDuringSchedulingIgnoredDuringExecution',
    template: spec({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: deprecatedKeys.map((key) => ({ key })) }] } } } }),
    expected: [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].key: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[4].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[5].key: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
    ],
  },
  {
    name: 'node labels in affinity preferredDuringSchedulingIgnoredDuringExecution',
    template: spec({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ preference: { matchExpressions: deprecatedKeys.map((key) => ({ key })) } }] } } }),
    expected: [
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[1].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[2].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[3].key: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[4].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[5].key: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
    ],
  },
  {
    name: 'node labels in topologySpreadConstraints',
    template: spec({ topologySpreadConstraints: deprecatedKeys.map((topologyKey) => ({ topologyKey, labelSelector: {} })) }),
    expected: [
      'spec.topologySpreadConstraints[1].topologyKey: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.topologySpreadConstraints[2].topologyKey: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.topologySpreadConstraints[3].topologyKey: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      'spec.topologySpreadConstraints[4].topologyKey: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.topologySpreadConstraints[5].topologyKey: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
    ],
  },
  {
    name: 'annotations',
    template: {
      metadata: {
        annotations: {
          foo: 'bar',
          'scheduler.alpha.kubernetes.io/critical-pod': 'true',
          'seccomp.security.alpha.kubernetes.io/pod': 'default',
          'container.seccomp.security.alpha.kubernetes.io/foo': 'default',
          'security.alpha.kubernetes.io/sysctls': 'a,b,c',
          'security.alpha.kubernetes.io/unsafe-sysctls': 'd,e,f',
        },
      },
      spec: { containers: [{ name: 'foo' }] },
    },
    expected: [
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/foo]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/unsafe-sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
    ],
  },
  {
    name: 'seccomp fields',
    template: {
      metadata: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'default', 'container.seccomp.security.alpha.kubernetes.io/foo': 'default' } },
      spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'foo', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }] },
    },
    expected: [],
  },
  {
    name: 'pod with ephemeral volume source 200Mi',
    template: vol({ name: 'ephemeral-volume', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200Mi' } } } } } }),
    expected: [],
  },
  {
    name: 'pod with ephemeral volume source 200m',
    template: vol({ name: 'ephemeral-volume', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200m' } } } } } }),
    expected: ['spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "200m" is invalid, must be an integer'],
  },
  { name: 'terminationGracePeriodSeconds is negative', template: spec({ terminationGracePeriodSeconds: -1 }), expected: ['spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1'] },
  {
    name: 'null LabelSelector in topologySpreadConstraints',
    template: spec({ topologySpreadConstraints: [{ labelSelector: {} }, { labelSelector: null }] }),
    expected: ['spec.topologySpreadConstraints[1].labelSelector: a null labelSelector results in matching no pod'],
  },
  {
    name: 'null LabelSelector in PodAffinity',
    template: spec({
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }, { labelSelector: null }],
          preferredDuringSchedulingIgnoredDuringExecution: [{ podAffinityTerm: { labelSelector: {} } }, { podAffinityTerm: { labelSelector: null } }],
        },
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }, { labelSelector: null }],
          preferredDuringSchedulingIgnoredDuringExecution: [{ podAffinityTerm: { labelSelector: {} } }, { podAffinityTerm: { labelSelector: null } }],
        },
      },
    }),
    expected: [
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod',
      'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
    ],
  },
  { name: 'container no ports', template: ports([]), expected: [] },
  { name: 'one container, one port', template: ports([{ containerPort: 80, hostPort: 80 }]), expected: [] },
  { name: 'one container, two ports, same protocol, different ports', template: ports([{ containerPort: 80, protocol: 'UDP' }, { containerPort: 81, protocol: 'UDP' }]), expected: [] },
  { name: 'one container, two ports, different protocols, same port', template: ports([{ containerPort: 80, protocol: 'UDP' }, { containerPort: 80, protocol: 'TCP' }]), expected: [] },
  { name: 'one container, two ports, same protocol, same port, different hostport', template: ports([{ containerPort: 80, protocol: 'TCP', hostPort: 80 }, { containerPort: 80, protocol: 'TCP', hostPort: 81 }]), expected: [] },
  {
    name: 'one container, two ports, same protocol, port and hostPort, different hostIP',
    template: ports([{ containerPort: 80, protocol: 'TCP', hostPort: 80, hostIP: '10.0.0.1' }, { containerPort: 80, protocol: 'TCP', hostPort: 80, hostIP: '10.0.0.2' }]),
    expected: [],
  },
  { name: 'two containers, one port each, same protocol, different ports', template: ports([{ containerPort: 80, protocol: 'UDP' }], [{ containerPort: 81, protocol: 'UDP' }]), expected: [] },
  { name: 'two containers, one port each, different protocols, same port', template: ports([{ containerPort: 80, protocol: 'UDP' }], [{ containerPort: 80, protocol: 'TCP' }]), expected: [] },
  { name: 'two containers, one port each, same protocol, same port, different hostport', template: ports([{ containerPort: 80, protocol: 'TCP', hostPort: 80 }], [{ containerPort: 80, protocol: 'TCP', hostPort: 81 }]), expected: [] },
  {
    name: 'two containers, one port each, same protocol, port and hostPort, different hostIP',
    template: ports([{ containerPort: 80, protocol: 'TCP', hostPort: 80, hostIP: '10.0.0.1' }], [{ containerPort: 80, protocol: 'TCP', hostPort: 80, hostIP: '10.0.0.2' }]),
    expected: [],
  },
  {
    name: 'duplicate container ports with same port and protocol',
    template: ports([{ containerPort: 80, protocol: 'UDP' }, { containerPort: 80, protocol: 'UDP' }]),
    expected: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate container ports with same port, hostPort and protocol',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }]),
    expected: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate container ports with same port, host port, host IP and protocol',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }, { containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }]),
    expected: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'one container port hostIP set without host port set',
    template: ports([{ containerPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }]),
    expected: ['spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}'],
  },
  {
    name: 'duplicate container ports with one host port set and one without',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }, { containerPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }]),
    expected: [
      'spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
    ],
  },
  {
    name: 'duplicate container ports without one host IP set and two with',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.2' }]),
    expected: [
      'spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[2]: dangerously ambiguous port definition with spec.containers[0].ports[1]',
    ],
  },
  {
    name: 'duplicate container ports with one host IP set and one without',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }]),
    expected: ['spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate containers with same port and protocol',
    template: ports([{ containerPort: 80, protocol: 'UDP' }], [{ containerPort: 80, protocol: 'UDP' }]),
    expected: ['spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate containers with same port, hostPort and protocol',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP' }], [{ containerPort: 80, hostPort: 80, protocol: 'UDP' }]),
    expected: ['spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate containers with same port, host port, host IP and protocol',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }], [{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }]),
    expected: ['spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate containers with one host port set and one without',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }], [{ containerPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }]),
    expected: [
      'spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
    ],
  },
  {
    name: 'duplicate container ports without one host IP set and one with',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP' }], [{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }]),
    expected: ['spec.containers[1].ports[0]: dangerously ambiguous port definition with spec.containers[0].ports[0]'],
  },
  {
    // Upstream's table has two rows of this name; this is the second (two containers).
    name: 'duplicate container ports with one host IP set and one without',
    template: ports([{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }], [{ containerPort: 80, hostPort: 80, protocol: 'UDP' }]),
    expected: ['spec.containers[1].ports[0]: dangerously ambiguous port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'create duplicate container ports in two containers',
    template: containersWithPorts([
      { name: 'foo1', ports: [{ containerPort: 80, hostPort: 80, protocol: 'UDP' }, { containerPort: 180, hostPort: 80, protocol: 'UDP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }] },
      { name: 'foo', ports: [{ containerPort: 80, hostPort: 80, protocol: 'UDP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }] },
    ]),
    expected: [
      'spec.containers[0].ports[2]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[1].ports[0]',
    ],
  },
  {
    // Upstream passes an old template (hostPort 180 on two ports); v1.32 does not read it.
    name: 'update duplicate container ports in two containers',
    template: containersWithPorts([
      { name: 'foo1', ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 180, hostPort: 80, protocol: 'TCP' }, { containerPort: 80, hostPort: 80, protocol: 'TCP' }] },
      { name: 'foo', ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 80, hostPort: 80, protocol: 'TCP' }] },
    ]),
    expected: [
      'spec.containers[0].ports[2]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[1].ports[0]',
    ],
  },
];

/** Upstream compares counts and sets; sorted lists pin both, duplicates included. */
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

describe('TestWarnings (pkg/api/pod/warnings_test.go)', () => {
  for (const r of rows) {
    it(`podspec_${r.name}`, () => {
      assert.deepEqual(sorted(podTemplateWarnings(undefined, structuredClone(r.template))), sorted(r.expected));
    });
    it(`pod_${r.name}`, () => {
      const pod = r.template ? ({ metadata: r.template.metadata ?? {}, spec: r.template.spec } as Pod) : undefined;
      assert.deepEqual(sorted(podWarnings(structuredClone(pod))), sorted(r.expected));
    });
  }
});

const appArmorAnnotated = { annotations: { 'container.apparmor.security.beta.kubernetes.io/foo': 'unconfined' } };

const templateOnlyRows: Row[] = [
  {
    name: 'annotations',
    template: { metadata: appArmorAnnotated, spec: { containers: [{ name: 'foo' }] } },
    expected: ['template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/foo]: deprecated since v1.30; use the "appArmorProfile" field instead'],
  },
  {
    name: 'AppArmor pod field',
    template: { metadata: appArmorAnnotated, spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [{ name: 'foo' }] } },
    expected: [],
  },
  {
    name: 'AppArmor container field',
    template: { metadata: appArmorAnnotated, spec: { containers: [{ name: 'foo', securityContext: { appArmorProfile: { type: 'Unconfined' } } }] } },
    expected: [],
  },
];

describe('TestTemplateOnlyWarnings (pkg/api/pod/warnings_test.go)', () => {
  for (const r of templateOnlyRows) {
    it(`podspec_${r.name}`, () => {
      assert.deepEqual(sorted(podTemplateWarnings(FieldPath.root('template'), r.template)), sorted(r.expected));
    });
    it(`pod_${r.name}`, () => {
      assert.deepEqual(podWarnings({ metadata: r.template!.metadata ?? {}, spec: r.template!.spec! } as Pod), []);
    });
  }
});

const ps = (path: string, source: string): PathAndSource => ({ path, source });

describe('TestCheckForOverLap (pkg/api/pod/warnings_test.go)', () => {
  const cases: { name: string; checkPaths: PathAndSource[]; path: PathAndSource; found: boolean; expected?: PathAndSource[] }[] = [
    { name: 'exact match', checkPaths: [ps('path/path1', 'src1')], path: ps('path/path1', 'src2'), found: true, expected: [ps('path/path1', 'src1')] },
    { name: 'no match', checkPaths: [ps('path/path1', 'src1')], path: ps('path2/path1', 'src2'), found: false },
    { name: 'empty checkPaths', checkPaths: [], path: ps('path2/path1', 'src2'), found: false },
    { name: 'empty string in checkPaths', checkPaths: [ps('', 'src1')], path: ps('path2/path1', 'src2'), found: false },
    { name: 'empty path', checkPaths: [ps('test', 'src1')], path: ps('', ''), found: false },
    { name: 'empty strings in checkPaths and path', checkPaths: [ps('', 'src1')], path: ps('', ''), found: false },
    { name: 'between file and dir', checkPaths: [ps('path/path1', 'src1')], path: ps('path', 'src2'), found: true, expected: [ps('path/path1', 'src1')] },
    { name: 'between dir and file', checkPaths: [ps('path', 'src1')], path: ps('path/path1', 'src2'), found: true, expected: [ps('path', 'src1')] },
    { name: 'multiple paths without overlap', checkPaths: [ps('path1/path', 'src1'), ps('path2/path', 'src2'), ps('path3/path', 'src3')], path: ps('path4/path', 'src4'), found: false },
    { name: 'multiple paths with 1 overlap', checkPaths: [ps('path1/path', 'src1'), ps('path2/path', 'src2'), ps('path3/path', 'src3')], path: ps('path3/path', 'src4'), found: true, expected: [ps('path3/path', 'src3')] },
    {
      name: 'multiple paths with multiple overlap',
      checkPaths: [ps('path/path1', 'src1'), ps('path/path2', 'src2'), ps('path/path3', 'src3')],
      path: ps('path', 'src4'),
      found: true,
      expected: [ps('path/path1', 'src1'), ps('path/path2', 'src2'), ps('path/path3', 'src3')],
    },
    { name: 'partial overlap', checkPaths: [ps('path1/path', 'src1'), ps('path2/path', 'src2'), ps('path3/path', 'src3')], path: ps('path101/path3', 'src4'), found: false },
    { name: 'partial overlap in path', checkPaths: [ps('dir/path1', 'src1'), ps('dir/path2', 'src2'), ps('dir/path3', 'src3')], path: ps('dir/path345', 'src4'), found: false },
    { name: 'trailing slash in path', checkPaths: [ps('path1/path3', 'src1')], path: ps('path1/path3/', 'src2'), found: true, expected: [ps('path1/path3', 'src1')] },
    { name: 'trailing slash in checkPaths', checkPaths: [ps('path1/path3/', 'src1')], path: ps('path1/path3', 'src2'), found: true, expected: [ps('path1/path3/', 'src1')] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = overlapsWith(c.checkPaths, c.path);
      assert.equal(result.length > 0, c.found);
      if (c.found) assert.deepEqual(result, c.expected);
    });
  }
});
