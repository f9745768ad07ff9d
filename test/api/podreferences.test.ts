// The ConfigMaps and Secrets a pod refers to (the node authorizer's graph edges,
// plugin/pkg/auth/authorizer/node/graph.go AddPod), and the node authorizer's decisions on
// them (node_authorizer.go authorizeReadNamespacedObject): one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podReferences } from '../../src/api/podreferences.js';
import type { Pod } from '../../src/api/types.js';
import { authorizeNode, type AuthorizationAttributes } from '../../src/apiserver/authorizer.js';

const pod = (spec: Record<string, unknown>, ns = 'default'): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: ns }, spec: { containers: [], ...spec } }) as Pod;
const c = (extra: Record<string, unknown>) => ({ name: 'c', image: 'busybox', ...extra });

describe('podReferences: what a pod refers to', () => {
  const rows: { rule: string; pod: Pod; configMaps?: string[]; secrets?: string[] }[] = [
    { rule: 'a configMap volume', pod: pod({ volumes: [{ name: 'v', configMap: { name: 'a' } }] }), configMaps: ['a'] },
    { rule: 'a secret volume (secretName)', pod: pod({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }), secrets: ['s'] },
    { rule: 'projected configMap and secret sources', pod: pod({ volumes: [{ name: 'v', projected: { sources: [{ configMap: { name: 'a' } }, { secret: { name: 's' } }, { downwardAPI: {} }] } }] }), configMaps: ['a'], secrets: ['s'] },
    { rule: 'a CSI volume nodePublishSecretRef', pod: pod({ volumes: [{ name: 'v', csi: { driver: 'd', nodePublishSecretRef: { name: 's' } } }] }), secrets: ['s'] },
    { rule: 'env configMapKeyRef and secretKeyRef', pod: pod({ containers: [c({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'a', key: 'k' } } }, { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] })] }), configMaps: ['a'], secrets: ['s'] },
    { rule: 'envFrom configMapRef and secretRef', pod: pod({ containers: [c({ envFrom: [{ configMapRef: { name: 'a' } }, { prefix: 'X_', secretRef: { name: 's' } }] })] }), configMaps: ['a'], secrets: ['s'] },
    { rule: 'init and ephemeral containers count', pod: pod({ initContainers: [c({ envFrom: [{ configMapRef: { name: 'i' } }] })], ephemeralContainers: [c({ envFrom: [{ secretRef: { name: 'e' } }] })] }), configMaps: ['i'], secrets: ['e'] },
    { rule: 'imagePullSecrets', pod: pod({ imagePullSecrets: [{ name: 'pull' }] }), secrets: ['pull'] },
    { rule: 'fieldRef env and emptyDir refer to nothing', pod: pod({ containers: [c({ env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] })], volumes: [{ name: 'v', emptyDir: {} }] }) },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      const refs = podReferences(r.pod);
      assert.deepEqual([...refs.configMaps].sort(), r.configMaps ?? []);
      assert.deepEqual([...refs.secrets].sort(), r.secrets ?? []);
    });
  }
});

describe('authorizeNode: ConfigMaps and Secrets', () => {
  const bound = [pod({ nodeName: 'n1', volumes: [{ name: 'v', configMap: { name: 'a' } }], containers: [c({ envFrom: [{ secretRef: { name: 's' } }] })] })];
  const attrs = (verb: string, resource: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({ user: { name: 'system:node:n1', groups: ['system:nodes'] }, verb, resourceRequest: true, apiGroup: '', resource, namespace: 'default', ...extra });
  const rows: { rule: string; a: AuthorizationAttributes; decision: string; reason?: string }[] = [
    { rule: 'get of a referenced ConfigMap', a: attrs('get', 'configmaps', { name: 'a' }), decision: 'Allow' },
    { rule: 'get of a referenced Secret', a: attrs('get', 'secrets', { name: 's' }), decision: 'Allow' },
    { rule: 'list/watch naming a referenced object', a: attrs('watch', 'configmaps', { name: 'a' }), decision: 'Allow' },
    { rule: 'an unreferenced name', a: attrs('get', 'configmaps', { name: 'b' }), decision: 'NoOpinion', reason: "no relationship found between node 'n1' and this object" },
    { rule: 'a ConfigMap name is not a Secret name', a: attrs('get', 'secrets', { name: 'a' }), decision: 'NoOpinion', reason: "no relationship found between node 'n1' and this object" },
    { rule: 'the same name in another namespace', a: attrs('get', 'configmaps', { name: 'a', namespace: 'other' }), decision: 'NoOpinion', reason: "no relationship found between node 'n1' and this object" },
    { rule: 'a list without a name', a: attrs('list', 'secrets'), decision: 'NoOpinion', reason: 'No Object name found' },
    { rule: 'a cluster-wide list', a: attrs('list', 'secrets', { namespace: undefined }), decision: 'NoOpinion', reason: 'can only read namespaced object of this type' },
    { rule: 'writes are refused', a: attrs('update', 'configmaps', { name: 'a' }), decision: 'NoOpinion', reason: 'can only read resources of this type' },
    { rule: 'subresources are refused', a: attrs('get', 'configmaps', { name: 'a', subresource: 'status' }), decision: 'NoOpinion', reason: 'cannot read subresource' },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      const d = authorizeNode('n1', r.a, (node) => (node === 'n1' ? bound : []));
      assert.equal(d.decision, r.decision);
      if (r.reason !== undefined) assert.equal(d.reason, r.reason);
    });
  }
  it("another node's pods give no path", () => {
    assert.equal(authorizeNode('n2', attrs('get', 'configmaps', { name: 'a' }), (node) => (node === 'n1' ? bound : [])).decision, 'NoOpinion');
  });
});

// Upstream util_test.go TestPodSecrets and TestPodConfigmaps (kubernetes/kubernetes
// pkg/api/pod/util_test.go, index file 17746144): a pod with every reference, each named for its
// path; every name, and nothing else, is found; an empty name is never reported.
describe('upstream TestPodSecrets and TestPodConfigmaps', () => {
  const sref = (name: string) => ({ secretRef: { name } });
  const envS = (p: string) => ({ envFrom: [{ secretRef: { name: `${p}.EnvFrom[*].SecretRef` } }], env: [{ name: 'E', valueFrom: { secretKeyRef: { name: `${p}.Env[*].ValueFrom.SecretKeyRef`, key: 'k' } } }] });
  const envC = (p: string) => ({ envFrom: [{ configMapRef: { name: `${p}.EnvFrom[*].ConfigMapRef` } }], env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: `${p}.Env[*].ValueFrom.ConfigMapKeyRef`, key: 'k' } } }] });
  const vol = 'Spec.Volumes[*].VolumeSource';
  it('TestPodSecrets', () => {
    const p = pod({
      containers: [c(envS('Spec.Containers[*]'))],
      initContainers: [c(envS('Spec.InitContainers[*]'))],
      ephemeralContainers: [c(envS('Spec.EphemeralContainers[*].EphemeralContainerCommon'))],
      imagePullSecrets: [{ name: 'Spec.ImagePullSecrets' }],
      volumes: [
        { name: 'a', azureFile: { secretName: `${vol}.AzureFile.SecretName` } },
        { name: 'b', cephfs: sref(`${vol}.CephFS.SecretRef`) },
        { name: 'c', cinder: sref(`${vol}.Cinder.SecretRef`) },
        { name: 'd', flexVolume: sref(`${vol}.FlexVolume.SecretRef`) },
        { name: 'e', projected: { sources: [{ secret: { name: `${vol}.Projected.Sources[*].Secret` } }] } },
        { name: 'f', rbd: sref(`${vol}.RBD.SecretRef`) },
        { name: 'g', secret: { secretName: `${vol}.Secret.SecretName` } },
        { name: 'h', secret: { secretName: `${vol}.Secret` } },
        { name: 'i', scaleIO: sref(`${vol}.ScaleIO.SecretRef`) },
        { name: 'j', iscsi: sref(`${vol}.ISCSI.SecretRef`) },
        { name: 'k', storageos: sref(`${vol}.StorageOS.SecretRef`) },
        { name: 'l', csi: { nodePublishSecretRef: { name: `${vol}.CSI.NodePublishSecretRef` } } },
      ],
    });
    assert.deepEqual([...podReferences(p).secrets].sort(), [
      'Spec.Containers[*].EnvFrom[*].SecretRef', 'Spec.Containers[*].Env[*].ValueFrom.SecretKeyRef',
      'Spec.EphemeralContainers[*].EphemeralContainerCommon.EnvFrom[*].SecretRef', 'Spec.EphemeralContainers[*].EphemeralContainerCommon.Env[*].ValueFrom.SecretKeyRef',
      'Spec.ImagePullSecrets', 'Spec.InitContainers[*].EnvFrom[*].SecretRef', 'Spec.InitContainers[*].Env[*].ValueFrom.SecretKeyRef',
      `${vol}.AzureFile.SecretName`, `${vol}.CephFS.SecretRef`, `${vol}.Cinder.SecretRef`, `${vol}.FlexVolume.SecretRef`, `${vol}.Projected.Sources[*].Secret`,
      `${vol}.RBD.SecretRef`, `${vol}.Secret`, `${vol}.Secret.SecretName`, `${vol}.ScaleIO.SecretRef`, `${vol}.ISCSI.SecretRef`, `${vol}.StorageOS.SecretRef`, `${vol}.CSI.NodePublishSecretRef`,
    ].sort());
    assert.deepEqual([...podReferences(p).configMaps], []);
    assert.deepEqual([...podReferences(pod({ containers: [c({ envFrom: [{ secretRef: { name: '' } }] })] })).secrets], [], 'no empty name');
  });
  it('TestPodConfigmaps', () => {
    const p = pod({
      containers: [c(envC('Spec.Containers[*]'))],
      ephemeralContainers: [c(envC('Spec.EphemeralContainers[*].EphemeralContainerCommon'))],
      initContainers: [c(envC('Spec.InitContainers[*]'))],
      volumes: [{ name: 'a', projected: { sources: [{ configMap: { name: `${vol}.Projected.Sources[*].ConfigMap` } }] } }, { name: 'b', configMap: { name: `${vol}.ConfigMap` } }],
    });
    assert.deepEqual([...podReferences(p).configMaps].sort(), [
      'Spec.Containers[*].EnvFrom[*].ConfigMapRef', 'Spec.Containers[*].Env[*].ValueFrom.ConfigMapKeyRef',
      'Spec.EphemeralContainers[*].EphemeralContainerCommon.EnvFrom[*].ConfigMapRef', 'Spec.EphemeralContainers[*].EphemeralContainerCommon.Env[*].ValueFrom.ConfigMapKeyRef',
      'Spec.InitContainers[*].EnvFrom[*].ConfigMapRef', 'Spec.InitContainers[*].Env[*].ValueFrom.ConfigMapKeyRef',
      `${vol}.Projected.Sources[*].ConfigMap`, `${vol}.ConfigMap`,
    ].sort());
    assert.deepEqual([...podReferences(p).secrets], []);
    assert.deepEqual([...podReferences(pod({ containers: [c({ envFrom: [{ configMapRef: { name: '' } }] })] })).configMaps], [], 'no empty name');
  });
});
