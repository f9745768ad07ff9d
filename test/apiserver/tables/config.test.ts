// The Tables of config maps, secrets, service accounts and resource quotas against upstream's
// rows: pkg/printers/internalversion printers_test.go (kubernetes/kubernetes, stored file id
// 100530230) TestPrintConfigMap, TestPrintSecret, TestPrintServiceAccount and
// TestPrintResourceQuota, one row per upstream case (upstream's comment as the name).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tableColumns } from '../../../src/apiserver/tables.js';
import { ago, cells, MINUTE, SOON } from './helpers.js';

interface Row {
  name: string;
  obj: Record<string, unknown>;
  want: unknown[];
}

const check = (resource: string, rows: Row[]) => rows.forEach((r) => test(r.name, () => assert.deepEqual(cells(resource, r.obj), r.want)));

describe('TestPrintConfigMap', () => {
  check('configmaps', [
    { name: 'Basic config map with no data.', obj: { metadata: { name: 'configmap1', creationTimestamp: SOON } }, want: ['configmap1', 0, '0s'] },
    { name: 'Basic config map with one data entry', obj: { metadata: { name: 'configmap2', creationTimestamp: SOON }, data: { foo: 'bar' } }, want: ['configmap2', 1, '0s'] },
    { name: 'Basic config map with one data and one binary data entry.', obj: { metadata: { name: 'configmap3', creationTimestamp: SOON }, data: { foo: 'bar' }, binaryData: { bin: 'YmluYXJ5IGRhdGE=' } }, want: ['configmap3', 2, '0s'] },
  ]);
});

describe('TestPrintSecret', () => {
  check('secrets', [
    { name: 'Basic namespace with type, data, and age.', obj: { metadata: { name: 'secret1', creationTimestamp: SOON }, type: 'kubernetes.io/service-account-token', data: { token: 'c2VjcmV0IGRhdGE=' } }, want: ['secret1', 'kubernetes.io/service-account-token', 1, '0s'] },
    { name: 'Basic namespace with type and age; no data.', obj: { metadata: { name: 'secret1', creationTimestamp: SOON }, type: 'kubernetes.io/service-account-token' }, want: ['secret1', 'kubernetes.io/service-account-token', 0, '0s'] },
  ]);
});

describe('TestPrintServiceAccount', () => {
  check('serviceaccounts', [
    { name: 'Basic service account without secrets', obj: { metadata: { name: 'sa1', creationTimestamp: SOON }, secrets: [] }, want: ['sa1', 0, '0s'] },
    { name: 'Basic service account with two secrets.', obj: { metadata: { name: 'sa1', creationTimestamp: SOON }, secrets: [{ name: 'Secret1' }, { name: 'Secret2' }] }, want: ['sa1', 2, '0s'] },
  ]);
});

// Upstream's only row came with the change that moved AGE after LIMIT (kubernetes PR #129419,
// after 1.32); at 1.32 the columns are NAME AGE REQUEST LIMIT, so the cells are in that order.
describe('TestPrintResourceQuota', () => {
  check('resourcequotas', [
    {
      name: 'requests and limits, each resource sorted by name, used/hard',
      obj: {
        metadata: { name: 'test-resourcequota', creationTimestamp: ago(5 * MINUTE) },
        spec: {},
        status: {
          used: { cpu: '1', memory: '1Gi', pods: '1', services: '1', replicationcontrollers: '1', resourcequotas: '1', 'limits.cpu': '2', 'limits.memory': '2Gi' },
          hard: { cpu: '100', memory: '4Gi', pods: '10', services: '10', replicationcontrollers: '10', resourcequotas: '1', 'limits.cpu': '200', 'limits.memory': '8Gi' },
        },
      },
      want: ['test-resourcequota', '5m', 'cpu: 1/100, memory: 1Gi/4Gi, pods: 1/10, replicationcontrollers: 1/10, resourcequotas: 1/1, services: 1/10', 'limits.cpu: 2/200, limits.memory: 2Gi/8Gi'],
    },
  ]);
  test("1.32's resourceQuotaColumnDefinitions: NAME AGE REQUEST LIMIT", () => assert.deepEqual(tableColumns('resourcequotas').map((c) => c.name), ['Name', 'Age', 'Request', 'Limit']));
});
