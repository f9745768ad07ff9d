// Object-count quota (src/quota/objectcount.ts): which names an object is charged under, the
// decision with upstream's messages, and the controller's recount.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceQuota } from '../../src/api/types.js';
import { countsObjects, decideObjectCount, objectCountResourceNames, objectCountUsage, tracksObjectCounts } from '../../src/quota/objectcount.js';

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
    const counts = new Map([['apps/deployments', 1], ['apps/replicasets', 2], ['apps/statefulsets', 3], ['apps/daemonsets', 0]]);
    assert.deepEqual(objectCountUsage(quota('q', hard), counts), { 'count/deployments.apps': '1', 'count/replicasets.apps': '2', 'count/statefulsets.apps': '3', 'count/daemonsets.apps': '0' });
  });
  it('the recount fills every tracked name from the counts', () => {
    const q = quota('q', { configmaps: '5', 'count/serviceaccounts': '3', pods: '1' });
    assert.deepEqual(objectCountUsage(q, new Map([['/configmaps', 2], ['/serviceaccounts', 1]])), { configmaps: '2', 'count/serviceaccounts': '1' });
  });
  it('resourcequotas count under count/resourcequotas and the legacy name', () => {
    assert.deepEqual(objectCountResourceNames('', 'resourcequotas'), ['count/resourcequotas', 'resourcequotas']);
    assert.deepEqual(objectCountUsage(quota('q', { resourcequotas: '3', 'count/resourcequotas': '3' }), new Map([['/resourcequotas', 2]])), { resourcequotas: '2', 'count/resourcequotas': '2' });
  });
  it('policy/v1 budgets count under count/poddisruptionbudgets.policy, and a quota naming it tracks object counts', () => {
    assert.deepEqual(objectCountResourceNames('policy', 'poddisruptionbudgets'), ['count/poddisruptionbudgets.policy']);
    const q = quota('q', { 'count/poddisruptionbudgets.policy': '1' });
    assert.equal(tracksObjectCounts(q, [{ group: 'policy', resource: 'poddisruptionbudgets' }]), true);
    assert.equal(tracksObjectCounts(q, [{ group: '', resource: 'configmaps' }]), false);
  });
});

describe('countsObjects: which served kinds quota counts (GetQuotableResources less pods and the ignored resources)', () => {
  const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  const rows: [string, { group: string; resource: string; namespaced: boolean; verbs?: string[] }, boolean][] = [
    ['policy/v1 poddisruptionbudgets', { group: 'policy', resource: 'poddisruptionbudgets', namespaced: true, verbs: all }, true],
    ['coordination leases', { group: 'coordination.k8s.io', resource: 'leases', namespaced: true, verbs: all }, true],
    ['apps controllerrevisions', { group: 'apps', resource: 'controllerrevisions', namespaced: true, verbs: all }, true],
    ['limitranges', { group: '', resource: 'limitranges', namespaced: true, verbs: all }, true],
    ['resourcequotas', { group: '', resource: 'resourcequotas', namespaced: true, verbs: all }, true],
    ['configmaps', { group: '', resource: 'configmaps', namespaced: true, verbs: all }, true],
    ['pods: the pod evaluator counts them', { group: '', resource: 'pods', namespaced: true, verbs: all }, false],
    ['core events: ignored', { group: '', resource: 'events', namespaced: true, verbs: all }, false],
    ['events.k8s.io events: ignored', { group: 'events.k8s.io', resource: 'events', namespaced: true, verbs: all }, false],
    ['a cluster-scoped kind', { group: 'scheduling.k8s.io', resource: 'priorityclasses', namespaced: false, verbs: all }, false],
    ['metrics.k8s.io pods: get and list only', { group: 'metrics.k8s.io', resource: 'pods', namespaced: true, verbs: ['get', 'list'] }, false],
    ['no verbs known', { group: 'apps', resource: 'deployments', namespaced: true }, false],
  ];
  for (const [rule, r, want] of rows) it(`${rule}: ${want ? 'counted' : 'not counted'}`, () => assert.equal(countsObjects(r), want));
});
