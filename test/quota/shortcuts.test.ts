// Admission's shortcuts must answer what the rules they stand for answer: quota scopes matched
// without building the selector list (podMatchesQuotaScopes), Constraints' key test without
// parsing the container (containerUsageHas), one ResourceList entry read without parsing the
// rest (resourceQuantity).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, ResourceQuota } from '../../src/api/types.js';
import { parseResourceList, resourceQuantity } from '../../src/api/resourcelist.js';
import { podMatchesAllScopes, podMatchesQuotaScopes, quotaSelectors } from '../../src/quota/scopes.js';
import { containerUsage, containerUsageHas } from '../../src/quota/usage.js';
import { cm, ctr, gatesOff, gatesOn, mkPod, mkQuota } from './fixtures.js';

describe('podMatchesQuotaScopes is podMatchesAllScopes over quotaSelectors', () => {
  const pods: { name: string; pod: Pod }[] = [
    { name: 'best effort', pod: mkPod('p', { containers: [ctr('c')] }) },
    { name: 'burstable with a class', pod: mkPod('p', { priorityClassName: 'high', containers: [ctr('c', cm('100m'))] }) },
    { name: 'terminating', pod: mkPod('p', { activeDeadlineSeconds: 30, containers: [ctr('c', cm('1', '1Gi'), cm('1', '1Gi'))] }) },
  ];
  const quotas: { name: string; quota: ResourceQuota }[] = [
    { name: 'no scopes', quota: mkQuota('q', {}) },
    { name: 'BestEffort', quota: mkQuota('q', { scopes: ['BestEffort'] }) },
    { name: 'NotBestEffort and NotTerminating', quota: mkQuota('q', { scopes: ['NotBestEffort', 'NotTerminating'] }) },
    { name: 'PriorityClass scope (Exists)', quota: mkQuota('q', { scopes: ['PriorityClass'] }) },
    { name: 'an unknown scope', quota: mkQuota('q', { scopes: ['Bogus'] }) },
    { name: 'selector In', quota: mkQuota('q', { selector: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] }) },
    { name: 'scopes and selector', quota: mkQuota('q', { scopes: ['Terminating'], selector: [{ scopeName: 'PriorityClass', operator: 'DoesNotExist' }] }) },
  ];
  for (const q of quotas) {
    for (const p of pods) {
      for (const gates of [gatesOn, gatesOff]) {
        it(`${q.name}, ${p.name}, PodLevelResources=${gates.PodLevelResources}`, () => {
          assert.equal(podMatchesQuotaScopes(p.pod, q.quota, gates), podMatchesAllScopes(p.pod, quotaSelectors(q.quota), gates));
        });
      }
    }
  }
});

describe('containerUsageHas is containerUsage(c).has for the compute keys', () => {
  const keys = ['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage'];
  const containers: { name: string; c: Container }[] = [
    { name: 'no resources', c: ctr('c') },
    { name: 'requests only', c: ctr('c', cm('100m', '1Gi')) },
    { name: 'limits only', c: ctr('c', undefined, cm('1')) },
    { name: 'both, different names', c: ctr('c', { memory: '1Gi', 'ephemeral-storage': '1Gi' }, { cpu: '2' }) },
    { name: 'a zero request still counts as stated', c: ctr('c', { cpu: '0' }) },
  ];
  for (const { name, c } of containers) {
    it(name, () => {
      const usage = containerUsage(c);
      for (const k of keys) assert.equal(containerUsageHas(c, k), usage.has(k), k);
    });
  }
  it('refuses a key that is not a compute key', () => assert.throws(() => containerUsageHas(ctr('c'), 'pods'), RangeError));
});

describe('resourceQuantity is parseResourceList(rl).get(name)', () => {
  const rows: { name: string; rl?: Record<string, string>; key: string }[] = [
    { name: 'absent list', key: 'cpu' },
    { name: 'absent key', rl: { memory: '1Gi' }, key: 'cpu' },
    { name: 'present key', rl: { cpu: '500m', memory: '1Gi' }, key: 'memory' },
    { name: 'an inherited name is not an entry', rl: {}, key: 'toString' },
  ];
  for (const r of rows) {
    it(r.name, () => assert.equal(resourceQuantity(r.rl, r.key)?.toString(), parseResourceList(r.rl).get(r.key)?.toString()));
  }
});
