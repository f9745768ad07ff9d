// ServiceAccount admission for pod creates (src/admission/serviceaccount.ts), one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, ServiceAccount } from '../../src/api/types.js';
import { admitPodServiceAccount, podServiceAccountName } from '../../src/admission/serviceaccount.js';

const pod = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): Pod =>
  ({ metadata: { name: 'p', namespace: 'n', ...(annotations ? { annotations } : {}) }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } }) as Pod;
const sa = (extra: Partial<ServiceAccount> = {}): ServiceAccount => ({ metadata: { name: 'default', namespace: 'n' }, ...extra });

describe('ServiceAccount admission', () => {
  it('no account named: default', () => assert.equal(podServiceAccountName(pod()), 'default'));
  it('the deprecated serviceAccount field is read when serviceAccountName is empty', () => assert.equal(podServiceAccountName(pod({ serviceAccount: 'b' })), 'b'));
  it('serviceAccountName wins', () => assert.equal(podServiceAccountName(pod({ serviceAccountName: 'a', serviceAccount: 'b' })), 'a'));
  it('the pod gets both fields set', () => {
    const r = admitPodServiceAccount(pod(), 'n', sa());
    assert.equal(r.pod?.spec.serviceAccountName, 'default');
    assert.equal(r.pod?.spec.serviceAccount, 'default');
  });
  it('a missing account is refused with upstream\'s wording', () =>
    assert.equal(admitPodServiceAccount(pod({ serviceAccountName: 'x' }), 'n', undefined).message, 'error looking up service account n/x: serviceaccount "x" not found'));
  it('the account\'s imagePullSecrets are copied into a pod that has none', () =>
    assert.deepEqual((admitPodServiceAccount(pod(), 'n', sa({ imagePullSecrets: [{ name: 'reg' }] })).pod?.spec as { imagePullSecrets?: unknown }).imagePullSecrets, [{ name: 'reg' }]));
  it('a pod\'s own imagePullSecrets are kept', () =>
    assert.deepEqual((admitPodServiceAccount(pod({ imagePullSecrets: [{ name: 'mine' }] }), 'n', sa({ imagePullSecrets: [{ name: 'reg' }] })).pod?.spec as { imagePullSecrets?: unknown }).imagePullSecrets, [{ name: 'mine' }]));
  const mirror = { 'kubernetes.io/config.mirror': 'x' };
  it('a mirror pod is not defaulted', () => assert.equal(admitPodServiceAccount(pod({}, mirror), 'n', undefined).pod?.spec.serviceAccountName, undefined));
  it('a mirror pod may not reference service accounts', () =>
    assert.equal(admitPodServiceAccount(pod({ serviceAccountName: 'a' }, mirror), 'n', undefined).message, 'a mirror pod may not reference service accounts'));
  it('a mirror pod may not reference secrets', () =>
    assert.equal(admitPodServiceAccount(pod({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }, mirror), 'n', undefined).message, 'a mirror pod may not reference secrets'));
});

// plugin/pkg/admission/serviceaccount/admission_test.go: TestAutomountsAPIToken,
// TestRespectsExistingMount, the automount choices, TestRejectsMirrorPodWithServiceAccountTokenVolumeProjections.
describe('ServiceAccount admission: the API token', () => {
  const generated = 'kube-api-access-abc12';
  const name = (prefix: string) => `${prefix}abc12`;
  const tokenVolume = {
    name: generated,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
  const tokenMount = { name: generated, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
  const custom = { name: 'my-custom-mount', readOnly: false, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
  type Spec = Record<string, unknown>;
  const rows: { name: string; spec: Spec; account?: Partial<ServiceAccount>; volumes: unknown[]; mounts: Record<string, unknown[][]> }[] = [
    { name: 'a container gets the projected volume and the read-only mount', spec: {}, volumes: [tokenVolume], mounts: { containers: [[tokenMount]] } },
    {
      name: 'init containers get the mount too',
      spec: { initContainers: [{ name: 'i', image: 'i' }] },
      volumes: [tokenVolume],
      mounts: { initContainers: [[tokenMount]], containers: [[tokenMount]] },
    },
    {
      name: 'a container with its own mount at the path keeps it, and no volume is added when nobody needs it',
      spec: { containers: [{ name: 'c', image: 'i', volumeMounts: [custom] }] },
      volumes: [],
      mounts: { containers: [[custom]] },
    },
    {
      name: 'the mount goes after the container\'s own mounts',
      spec: { containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'data', mountPath: '/data' }] }], volumes: [{ name: 'data', emptyDir: {} }] },
      volumes: [{ name: 'data', emptyDir: {} }, tokenVolume],
      mounts: { containers: [[{ name: 'data', mountPath: '/data' }, tokenMount]] },
    },
    {
      name: 'a kube-api-access- volume the pod has already is the one mounted',
      spec: { volumes: [{ name: 'kube-api-access-zzzzz', emptyDir: {} }] },
      volumes: [{ name: 'kube-api-access-zzzzz', emptyDir: {} }],
      mounts: { containers: [[{ ...tokenMount, name: 'kube-api-access-zzzzz' }]] },
    },
    { name: 'the pod turning automount off wins', spec: { automountServiceAccountToken: false }, account: { automountServiceAccountToken: true }, volumes: [], mounts: { containers: [[]] } },
    { name: 'the account turning automount off', spec: {}, account: { automountServiceAccountToken: false }, volumes: [], mounts: { containers: [[]] } },
    { name: 'the pod turning automount on over the account', spec: { automountServiceAccountToken: true }, account: { automountServiceAccountToken: false }, volumes: [tokenVolume], mounts: { containers: [[tokenMount]] } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = admitPodServiceAccount(pod(r.spec), 'n', sa(r.account ?? {}), name).pod!;
      assert.deepEqual(out.spec.volumes ?? [], r.volumes);
      for (const [kind, want] of Object.entries(r.mounts)) {
        const containers = (out.spec as unknown as Record<string, { volumeMounts?: unknown[] }[]>)[kind]!;
        assert.deepEqual(containers.map((c) => c.volumeMounts ?? []), want, kind);
      }
    });
  }
  it('without a name generator (plan) nothing is mounted', () => assert.equal(admitPodServiceAccount(pod(), 'n', sa()).pod?.spec.volumes, undefined));
  it('ephemeral containers are left alone', () => {
    const out = admitPodServiceAccount(pod({ ephemeralContainers: [{ name: 'e', image: 'i' }] }), 'n', sa(), name).pod!;
    assert.equal((out.spec as unknown as { ephemeralContainers: { volumeMounts?: unknown }[] }).ephemeralContainers[0]!.volumeMounts, undefined);
  });
  it('a mirror pod may not use ServiceAccountToken volume projections', () =>
    assert.equal(
      admitPodServiceAccount(pod({ volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, { 'kubernetes.io/config.mirror': 'x' }), 'n', undefined).message,
      'a mirror pod may not use ServiceAccountToken volume projections',
    ));
});
