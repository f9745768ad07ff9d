// The defaults of a pod's volume sources (src/api/volumedefaults.ts). Rows ported from upstream
// (read, not copied): kubernetes/kubernetes pkg/apis/core/v1/defaults_test.go (index commit b0d609f0)
// TestSetDefaultSecretVolumeSource, TestSetDefaultConfigMapVolumeSource,
// TestSetDefaultDownwardAPIVolumeSource, TestSetDefaultProjectedVolumeSource,
// TestSetDefaultHostPathVolumeSource, TestSetDefaultEphemeral, and the .Spec.Volumes[0] paths of
// TestPodDefaults / TestWorkloadDefaults (one row per source here).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultPod, defaultPodTemplateSpec } from '../../src/api/defaults.js';
import type { Pod, Volume } from '../../src/api/types.js';

const ON = { gates: { PodLevelResources: true } };

function defaulted(v: Volume): Volume {
  return defaultPod({ metadata: {}, spec: { containers: [], volumes: [v] } } as unknown as Pod, ON).spec.volumes![0]!;
}

describe('volume source defaults (upstream TestSetDefault*VolumeSource)', () => {
  const rows: { name: string; in: Volume; want: Volume }[] = [
    { name: 'TestSetDefaultSecretVolumeSource', in: { name: 'v', secret: {} }, want: { name: 'v', secret: { defaultMode: 420 } } },
    { name: 'TestSetDefaultConfigMapVolumeSource', in: { name: 'v', configMap: {} }, want: { name: 'v', configMap: { defaultMode: 420 } } },
    { name: 'TestSetDefaultDownwardAPIVolumeSource', in: { name: 'v', downwardAPI: {} }, want: { name: 'v', downwardAPI: { defaultMode: 420 } } },
    { name: 'TestSetDefaultProjectedVolumeSource', in: { name: 'v', projected: {} }, want: { name: 'v', projected: { defaultMode: 420 } } },
    { name: 'TestSetDefaultHostPathVolumeSource', in: { name: 'v', hostPath: { path: 'foo' } }, want: { name: 'v', hostPath: { path: 'foo', type: '' } } },
    { name: 'an explicit defaultMode 0 is a value, not unset (a Go pointer)', in: { name: 'v', secret: { defaultMode: 0 } }, want: { name: 'v', secret: { defaultMode: 0 } } },
    { name: 'an explicit hostPath type is kept', in: { name: 'v', hostPath: { path: '/x', type: 'Directory' } }, want: { name: 'v', hostPath: { path: '/x', type: 'Directory' } } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(defaulted(r.in), r.want));
});

describe('upstream TestSetDefaultEphemeral: the claim template\'s volumeMode', () => {
  for (const [name, mode, want] of [['volume mode nil', undefined, 'Filesystem'], ['volume mode filesystem', 'Filesystem', 'Filesystem'], ['volume mode block', 'Block', 'Block']] as const) {
    it(name, () => {
      const v = defaulted({ name: 'v', ephemeral: { volumeClaimTemplate: { spec: mode ? { volumeMode: mode } : {} } } });
      assert.equal((v.ephemeral as { volumeClaimTemplate: { spec: { volumeMode: string } } }).volumeClaimTemplate.spec.volumeMode, want);
    });
  }
});

// TestPodDefaults' and TestWorkloadDefaults' .Spec.Volumes[0] paths; a pod and a template alike.
describe('upstream TestPodDefaults / TestWorkloadDefaults: .spec.volumes[0] paths', () => {
  const rows: { path: string; in: Volume; want: Volume }[] = [
    { path: 'AzureDisk.CachingMode, FSType, Kind, ReadOnly', in: { name: 'v', azureDisk: {} }, want: { name: 'v', azureDisk: { cachingMode: 'ReadWrite', fsType: 'ext4', kind: 'Shared', readOnly: false } } },
    { path: 'ConfigMap.DefaultMode', in: { name: 'v', configMap: {} }, want: { name: 'v', configMap: { defaultMode: 420 } } },
    { path: 'DownwardAPI.DefaultMode, DownwardAPI.Items[0].FieldRef.APIVersion', in: { name: 'v', downwardAPI: { items: [{ fieldRef: {} }] } }, want: { name: 'v', downwardAPI: { defaultMode: 420, items: [{ fieldRef: { apiVersion: 'v1' } }] } } },
    { path: 'EmptyDir (a volume without a source)', in: { name: 'v' }, want: { name: 'v', emptyDir: {} } },
    { path: 'Ephemeral.VolumeClaimTemplate.Spec.VolumeMode', in: { name: 'v', ephemeral: { volumeClaimTemplate: { spec: {} } } }, want: { name: 'v', ephemeral: { volumeClaimTemplate: { spec: { volumeMode: 'Filesystem' } } } } },
    { path: 'HostPath.Type', in: { name: 'v', hostPath: {} }, want: { name: 'v', hostPath: { type: '' } } },
    { path: 'ISCSI.ISCSIInterface', in: { name: 'v', iscsi: {} }, want: { name: 'v', iscsi: { iscsiInterface: 'default' } } },
    {
      path: 'Projected.DefaultMode, Sources[0].DownwardAPI.Items[0].FieldRef.APIVersion, Sources[0].ServiceAccountToken.ExpirationSeconds',
      in: { name: 'v', projected: { sources: [{ downwardAPI: { items: [{ fieldRef: {} }] }, serviceAccountToken: {} }] } },
      want: { name: 'v', projected: { defaultMode: 420, sources: [{ downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1' } }] }, serviceAccountToken: { expirationSeconds: 3600 } }] } },
    },
    { path: 'RBD.Keyring, RBDPool, RadosUser', in: { name: 'v', rbd: {} }, want: { name: 'v', rbd: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } } },
    { path: 'ScaleIO.FSType, StorageMode', in: { name: 'v', scaleIO: {} }, want: { name: 'v', scaleIO: { storageMode: 'ThinProvisioned', fsType: 'xfs' } } },
    { path: 'Secret.DefaultMode', in: { name: 'v', secret: {} }, want: { name: 'v', secret: { defaultMode: 420 } } },
  ];
  for (const r of rows) {
    it(`pod: ${r.path}`, () => assert.deepEqual(defaulted(structuredClone(r.in)), r.want));
    it(`template: ${r.path}`, () => assert.deepEqual(defaultPodTemplateSpec({ containers: [], volumes: [structuredClone(r.in)] } as unknown as Pod['spec'], ON).volumes![0], r.want));
  }
});
