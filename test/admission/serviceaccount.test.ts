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
