// SetDefaults_ResourceList over ResourceQuota and LimitRange (pkg/apis/core/v1
// zz_generated.defaults.go SetObjectDefaults_ResourceQuota / _LimitRange): quantities rounded up
// to milli scale and written as after the API server's round trip. One row per rule.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LimitRange, ResourceQuota } from '../../src/api/types.js';
import { defaultLimitRangeLists, defaultResourceQuotaLists } from '../../src/quota/objectdefaults.js';

describe('ResourceQuota resource lists', () => {
  const rows: { rule: string; hard: Record<string, string>; want: Record<string, string> }[] = [
    { rule: 'whole cores in millicores are written as cores', hard: { cpu: '1000m' }, want: { cpu: '1' } },
    { rule: 'a binary multiple is written in its largest unit', hard: { memory: '1024Mi' }, want: { memory: '1Gi' } },
    { rule: 'a value below a millicore is rounded up to one', hard: { 'requests.cpu': '0.1m' }, want: { 'requests.cpu': '1m' } },
    { rule: 'counts stay as they are', hard: { pods: '10', 'count/pods': '5' }, want: { 'count/pods': '5', pods: '10' } },
    { rule: 'a value that does not parse is left for validation', hard: { cpu: 'lots' }, want: { cpu: 'lots' } },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const q = defaultResourceQuotaLists({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: row.hard } } as ResourceQuota);
      assert.deepEqual(q.spec?.hard, row.want);
    });
  }
  test('status.hard and status.used too', () => {
    const q = defaultResourceQuotaLists({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, status: { hard: { cpu: '2000m' }, used: { memory: '2048Mi' } } } as ResourceQuota);
    assert.deepEqual(q.status, { hard: { cpu: '2' }, used: { memory: '2Gi' } });
  });
});

describe('LimitRange resource lists', () => {
  test('every list of every item: max, min, default, defaultRequest, maxLimitRequestRatio', () => {
    const lr = defaultLimitRangeLists({
      apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', max: { cpu: '2000m' }, min: { memory: '1024Ki' }, default: { memory: '1024Mi' }, defaultRequest: { cpu: '500m' }, maxLimitRequestRatio: { cpu: '2000m' } }] },
    } as LimitRange);
    assert.deepEqual(lr.spec?.limits?.[0], { type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' }, default: { memory: '1Gi' }, defaultRequest: { cpu: '500m' }, maxLimitRequestRatio: { cpu: '2' } });
  });
});
