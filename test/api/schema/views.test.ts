// SchemaView: the merge keys, patch strategies and list/map types that strategic merge patch and
// server-side apply read.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { schemaView, type SchemaView } from '../../../src/api/schema/index.js';

const pod = schemaView('io.k8s.api.core.v1.Pod');

function at(root: SchemaView, path: string): SchemaView {
  let cur: SchemaView | undefined = root;
  for (const part of path.split('.')) {
    if (part === '[]') cur = cur.elements();
    else cur = cur.property(part);
    assert.ok(cur, `no ${part} in ${path}`);
  }
  return cur;
}

describe('SchemaView', () => {
  it('lists merged by name: containers, initContainers, ephemeralContainers, volumes, env, imagePullSecrets', () => {
    for (const p of ['spec.containers', 'spec.initContainers', 'spec.ephemeralContainers', 'spec.containers.[].env', 'spec.initContainers.[].env', 'spec.imagePullSecrets', 'spec.schedulingGates']) {
      const v = at(pod, p);
      assert.equal(v.type, 'array', p);
      assert.equal(v.patchMergeKey, 'name', p);
      assert.equal(v.patchStrategy, 'merge', p);
      assert.equal(v.listType, 'map', p);
      assert.deepEqual(v.listMapKeys, ['name'], p);
    }
    const volumes = at(pod, 'spec.volumes');
    assert.equal(volumes.patchMergeKey, 'name');
    assert.equal(volumes.patchStrategy, 'merge,retainKeys');
  });

  it('ports by containerPort (listMapKeys containerPort+protocol), volumeMounts by mountPath, volumeDevices by devicePath', () => {
    const ports = at(pod, 'spec.containers.[].ports');
    assert.equal(ports.patchMergeKey, 'containerPort');
    assert.equal(ports.patchStrategy, 'merge');
    assert.deepEqual(ports.listMapKeys, ['containerPort', 'protocol']);
    const mounts = at(pod, 'spec.containers.[].volumeMounts');
    assert.equal(mounts.patchMergeKey, 'mountPath');
    assert.deepEqual(mounts.listMapKeys, ['mountPath']);
    assert.equal(at(pod, 'spec.ephemeralContainers.[].volumeMounts').patchMergeKey, 'mountPath');
    assert.equal(at(pod, 'spec.containers.[].volumeDevices').patchMergeKey, 'devicePath');
  });

  it('tolerations, command, args, readinessGates: atomic, no merge key', () => {
    for (const p of ['spec.tolerations', 'spec.containers.[].command', 'spec.containers.[].args', 'spec.readinessGates', 'spec.containers.[].envFrom']) {
      const v = at(pod, p);
      assert.equal(v.type, 'array');
      assert.equal(v.listType, 'atomic', p);
      assert.equal(v.patchMergeKey, undefined, p);
      assert.equal(v.patchStrategy, undefined, p);
    }
  });

  it('design fields: ulimits is a map list keyed by name without a patch strategy; oomKillMode a string', () => {
    const u = at(pod, 'spec.containers.[].securityContext.ulimits');
    assert.equal(u.type, 'array');
    assert.equal(u.listType, 'map');
    assert.deepEqual(u.listMapKeys, ['name']);
    assert.equal(u.patchMergeKey, undefined);
    assert.equal(at(pod, 'spec.containers.[].securityContext.ulimits.[].soft').type, 'integer');
    assert.equal(at(pod, 'spec.initContainers.[].oomKillMode').type, 'string');
  });

  it('other keyed lists: topologySpreadConstraints, hostAliases, podIPs, conditions, ownerReferences, finalizers', () => {
    const tsc = at(pod, 'spec.topologySpreadConstraints');
    assert.equal(tsc.patchMergeKey, 'topologyKey');
    assert.deepEqual(tsc.listMapKeys, ['topologyKey', 'whenUnsatisfiable']);
    assert.equal(at(pod, 'spec.hostAliases').patchMergeKey, 'ip');
    assert.equal(at(pod, 'status.podIPs').patchMergeKey, 'ip');
    assert.equal(at(pod, 'status.hostIPs').listType, 'atomic');
    assert.equal(at(pod, 'status.conditions').patchMergeKey, 'type');
    assert.equal(at(pod, 'status.containerStatuses').listType, 'atomic');
    assert.equal(at(pod, 'metadata.ownerReferences').patchMergeKey, 'uid');
    const fin = at(pod, 'metadata.finalizers');
    assert.equal(fin.patchStrategy, 'merge');
    assert.equal(fin.listType, 'set');
    const node = schemaView('io.k8s.api.core.v1.Node');
    assert.equal(at(node, 'status.addresses').patchMergeKey, 'type');
    assert.equal(at(node, 'spec.podCIDRs').listType, 'set');
    assert.equal(at(node, 'spec.taints').listType, 'atomic');
  });

  it('maps and atomic structs', () => {
    const labels = at(pod, 'metadata.labels');
    assert.equal(labels.type, 'map');
    assert.equal(labels.elements()!.type, 'string');
    assert.equal(labels.mapType, undefined);
    assert.equal(at(pod, 'spec.nodeSelector').mapType, 'atomic');
    const limits = at(pod, 'spec.containers.[].resources.limits');
    assert.equal(limits.type, 'map');
    assert.equal(limits.elements()!.type, 'string');
    assert.equal(at(pod, 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution').mapType, 'atomic');
    assert.equal(at(pod, 'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution.[].labelSelector').mapType, 'atomic');
    assert.equal(at(pod, 'spec.containers.[].env.[].valueFrom.secretKeyRef').mapType, 'atomic');
    assert.equal(at(pod, 'spec.containers.[].resources').mapType, undefined);
  });

  it('primitive types, special types and unknown properties', () => {
    assert.equal(pod.type, 'object');
    assert.equal(at(pod, 'spec.containers.[].name').type, 'string');
    assert.equal(at(pod, 'spec.containers.[].ports.[].containerPort').type, 'integer');
    assert.equal(at(pod, 'spec.hostNetwork').type, 'boolean');
    assert.equal(at(pod, 'spec.containers.[].livenessProbe.httpGet.port').type, 'string');
    assert.equal(at(pod, 'metadata.creationTimestamp').type, 'string');
    assert.equal(at(pod, 'metadata.managedFields.[].fieldsV1').type, 'any');
    assert.equal(pod.property('bogus'), undefined);
    assert.equal(at(pod, 'spec').property('foo'), undefined);
    assert.equal(at(pod, 'spec.containers').property('name'), undefined);
    assert.equal(at(pod, 'metadata.name').elements(), undefined);
    assert.equal(pod.elements(), undefined);
  });

  it('is cached: the same position gives the same view', () => {
    assert.equal(at(pod, 'spec.containers'), at(schemaView('io.k8s.api.core.v1.Pod'), 'spec.containers'));
    assert.equal(at(pod, 'spec.containers.[]'), at(pod, 'spec.initContainers.[]'));
  });

  it('covers Lease and Eviction too', () => {
    const lease = schemaView('io.k8s.api.coordination.v1.Lease');
    assert.equal(at(lease, 'spec.holderIdentity').type, 'string');
    assert.equal(at(schemaView('io.k8s.api.policy.v1.Eviction'), 'deleteOptions.dryRun').listType, 'atomic');
  });
});
