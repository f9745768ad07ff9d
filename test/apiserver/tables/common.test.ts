// What every Table shares, against upstream's rows: pkg/printers/internalversion printers_test.go
// (kubernetes/kubernetes, stored file id 100530230) TestTranslateTimestampSince (the AGE cell),
// TestPrintEventsResultSorted (a list's rows in the list's order) and
// TestTableRowDeepCopyShouldNotPanic (an empty object of each served kind still prints a row).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../src/api/types.js';
import { age, tableColumns, toTable } from '../../../src/apiserver/tables.js';
import { ago, DAY, MINUTE, NOW, SECOND } from './helpers.js';

describe('TestTranslateTimestampSince', () => {
  const rows: [name: string, ts: string | undefined, want: string][] = [
    ['a while from now', ago(-2.1 * SECOND), '<invalid>'],
    ['almost now', ago(-1.9 * SECOND), '0s'],
    ['now', ago(0), '0s'],
    ['unknown', undefined, '<unknown>'],
    ['30 seconds ago', ago(30 * SECOND), '30s'],
    ['5 minutes ago', ago(5 * MINUTE), '5m'],
    ['an hour ago', ago(100 * MINUTE), '100m'],
    ['2 days ago', ago(2 * DAY), '2d'],
    ['months ago', ago(90 * DAY), '90d'],
    ['10 years ago', ago(10 * 365 * DAY), '10y'],
  ];
  for (const [name, ts, want] of rows) test(name, () => assert.equal(age(ts, NOW), want));
});

test('TestPrintEventsResultSorted: the rows keep the list order', () => {
  const event = (message: string, at: string) => ({ metadata: { name: message }, involvedObject: {}, source: { component: 'kubelet' }, message, firstTimestamp: at, lastTimestamp: at, count: 1, type: 'Normal' }) as unknown as KubeObject;
  const list = [event('Item 1', '2014-01-15T00:00:00Z'), event('Item 2', '1987-06-17T00:00:00Z'), event('Item 3', '2002-12-25T00:00:00Z')];
  const message = tableColumns('events').findIndex((c) => c.name === 'Message');
  assert.deepEqual(
    toTable('events', list, { include: 'None', now: NOW }).rows.map((r) => r.cells[message]),
    ['Item 1', 'Item 2', 'Item 3'],
  );
});

describe('TestTableRowDeepCopyShouldNotPanic: an empty object of each served kind prints a full row', () => {
  const served = ['pods', 'poddisruptionbudgets', 'replicasets', 'jobs', 'cronjobs', 'services', 'statefulsets', 'daemonsets', 'endpoints', 'endpointslices', 'namespaces', 'secrets', 'serviceaccounts', 'nodes', 'events', 'rolebindings', 'clusterrolebindings', 'certificatesigningrequests', 'deployments', 'horizontalpodautoscalers', 'configmaps', 'leases', 'controllerrevisions', 'resourcequotas', 'priorityclasses', 'runtimeclasses'];
  for (const resource of served) {
    test(resource, () => {
      const row = toTable(resource, [{} as KubeObject], { include: 'None', now: NOW }).rows[0]!;
      assert.equal(row.cells.length, tableColumns(resource).length);
      assert.deepEqual(JSON.parse(JSON.stringify(row)), { cells: row.cells, ...(row.conditions ? { conditions: row.conditions } : {}) });
    });
  }
});
