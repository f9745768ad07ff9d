// Stored objects defaulted on every read (objects.ts defaultedOnRead), as kube-apiserver's decoder
// defaults them: a pod stored before its volume sources and field selectors were defaulted reads
// with those defaults, so an update of it compares equal where it changes nothing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import { decodeStored } from '../../src/apiserver/objects.js';

describe('defaultedOnRead', () => {
  const storedPod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' },
    spec: {
      containers: [{ name: 'c', image: 'i', env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }],
      volumes: [{ name: 's', secret: { secretName: 's' } }, { name: 'h', hostPath: { path: '/x' } }, { name: 'kube-api-access', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
    },
  };
  it('a pod stored without the volume and fieldRef defaults reads with them', () => {
    const got = decodeStored<KubeObject & { spec: typeof storedPod.spec }>({ key: 'k', value: JSON.stringify(storedPod), modRevision: 7 } as never);
    assert.equal(got.metadata?.resourceVersion, '7');
    assert.deepEqual(got.spec.containers[0]!.env[0]!.valueFrom.fieldRef, { fieldPath: 'metadata.name', apiVersion: 'v1' });
    assert.deepEqual(got.spec.volumes, [
      { name: 's', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'h', hostPath: { path: '/x', type: '' } },
      { name: 'kube-api-access', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }], defaultMode: 420 } },
    ]);
  });
  it('other kinds are read as stored', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { volumes: 'x' } };
    assert.deepEqual(decodeStored({ key: 'k', value: JSON.stringify(cm), modRevision: 2 } as never), { ...cm, metadata: { name: 'c', resourceVersion: '2' } });
  });
});
