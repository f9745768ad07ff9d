// Object-count quota (src/quota/objectcount.ts): which names an object is charged under, the
// decision with upstream's messages, and the controller's recount.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceQuota } from '../../src/api/types.js';
import { decideObjectCount, objectCountResourceNames, objectCountUsage } from '../../src/quota/objectcount.js';

const quota = (name: string, hard: Record<string, string>, used?: Record<string, string>, scopes?: string[]): ResourceQuota =>
  ({ metadata: { name, namespace: 'n' }, spec: { hard, ...(scopes ? { scopes } : {}) }, status: { hard, ...(used ? { used } : {}) } }) as ResourceQuota;

describe('object-count quota', () => {
  it('configmaps and secrets count under count/<r> and the legacy name; serviceaccounts under count/ only', () => {
    assert.deepEqual(objectCountResourceNames('', 'configmaps'), ['count/configmaps', 'configmaps']);
    assert.deepEqual(objectCountResourceNames('', 'secrets'), ['count/secrets', 'secrets']);
    assert.deepEqual(objectCountResourceNames('', 'serviceaccounts'), ['count/serviceaccounts']);
    assert.deepEqual(objectCountResourceNames('apps', 'deployments'), ['count/deployments.apps']);
  });
  const rows: { name: string; quotas: ResourceQuota[]; want: ReturnType<typeof decideObjectCount> }[] = [
    { name: 'no quotas: allowed', quotas: [], want: { allowed: true, charges: [] } },
    { name: 'a quota on other names does not match', quotas: [quota('q', { pods: '1' }, { pods: '1' })], want: { allowed: true, charges: [] } },
    {
      name: 'under the limit: both names charged',
      quotas: [quota('q', { secrets: '2', 'count/secrets': '2' }, { secrets: '1', 'count/secrets': '1' })],
      want: { allowed: true, charges: [{ name: 'q', used: { secrets: '2', 'count/secrets': '2' } }] },
    },
    {
      name: 'at the limit: exceeded quota',
      quotas: [quota('q', { secrets: '1' }, { secrets: '1' })],
      want: { allowed: false, quota: 'q', message: 'exceeded quota: q, requested: secrets=1, used: secrets=1, limited: secrets=1' },
    },
    {
      name: 'status not yet computed: status unknown',
      quotas: [quota('q', { 'count/secrets': '1' })],
      want: { allowed: false, quota: 'q', message: 'status unknown for quota: q, resources: count/secrets' },
    },
    { name: 'a scoped quota never matches', quotas: [quota('q', { 'count/secrets': '0' }, { 'count/secrets': '0' }, ['BestEffort'])], want: { allowed: true, charges: [] } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(decideObjectCount('', 'secrets', r.quotas), r.want));
  it('jobs and cronjobs count under count/<r>.batch: charged and refused with the group in the name', () => {
    assert.deepEqual(objectCountResourceNames('batch', 'jobs'), ['count/jobs.batch']);
    assert.deepEqual(objectCountResourceNames('batch', 'cronjobs'), ['count/cronjobs.batch']);
    assert.deepEqual(decideObjectCount('batch', 'jobs', [quota('q', { 'count/jobs.batch': '2' }, { 'count/jobs.batch': '1' })]), { allowed: true, charges: [{ name: 'q', used: { 'count/jobs.batch': '2' } }] });
    assert.deepEqual(decideObjectCount('batch', 'cronjobs', [quota('q', { 'count/cronjobs.batch': '1' }, { 'count/cronjobs.batch': '1' })]), {
      allowed: false, quota: 'q', message: 'exceeded quota: q, requested: count/cronjobs.batch=1, used: count/cronjobs.batch=1, limited: count/cronjobs.batch=1',
    });
    assert.deepEqual(objectCountUsage(quota('q', { 'count/jobs.batch': '5' }), new Map([['batch/jobs', 3]])), { 'count/jobs.batch': '3' });
  });
  it('the apps/v1 workloads are recounted under count/<r>.apps', () => {
    const hard = { 'count/deployments.apps': '5', 'count/replicasets.apps': '5', 'count/statefulsets.apps': '5', 'count/daemonsets.apps': '5' };
    const counts = new Map([['apps/deployments', 1], ['apps/replicasets', 2], ['apps/statefulsets', 3]]);
    assert.deepEqual(objectCountUsage(quota('q', hard), counts), { 'count/deployments.apps': '1', 'count/replicasets.apps': '2', 'count/statefulsets.apps': '3', 'count/daemonsets.apps': '0' });
  });
  it('the recount fills every tracked name from the counts', () => {
    const q = quota('q', { configmaps: '5', 'count/serviceaccounts': '3', pods: '1' });
    assert.deepEqual(objectCountUsage(q, new Map([['/configmaps', 2], ['/serviceaccounts', 1]])), { configmaps: '2', 'count/serviceaccounts': '1' });
  });
});
