// The TARGETS cell of `kubectl get hpa` (src/apiserver/hpatable.ts), one row per case of
// printers.go formatHPAMetrics at 1.32.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MetricSpec, MetricStatus } from '../../src/api/types.js';
import { formatHPAMetrics } from '../../src/apiserver/hpatable.js';

const cpu = (averageUtilization?: number): MetricSpec => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', ...(averageUtilization !== undefined ? { averageUtilization } : {}) } } });
const cpuNow = (averageUtilization: number): MetricStatus => ({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization, averageValue: '30m' } } });
const mem: MetricSpec = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '200Mi' } } };
const pods: MetricSpec = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
const ext = (t: Record<string, string>): MetricSpec => ({ type: 'External', external: { metric: { name: 'queue' }, target: { type: t.averageValue ? 'AverageValue' : 'Value', ...t } } });

describe('formatHPAMetrics', () => {
  const rows: { name: string; specs: MetricSpec[]; statuses?: MetricStatus[]; want: string }[] = [
    { name: 'no metric', specs: [], want: '<none>' },
    { name: 'a utilization not read yet', specs: [cpu(50)], want: 'cpu: <unknown>/50%' },
    { name: 'a utilization read', specs: [cpu(50)], statuses: [cpuNow(30)], want: 'cpu: 30%/50%' },
    { name: 'a utilization target unset', specs: [cpu()], want: 'cpu: <unknown>/<auto>' },
    { name: 'an average value', specs: [mem], statuses: [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '150Mi' } } }], want: 'memory: 150Mi/200Mi' },
    { name: 'a pods metric', specs: [pods], want: '<unknown>/10' },
    { name: 'an external value and an external average', specs: [ext({ value: '5' }), ext({ averageValue: '2' })], want: '<unknown>/5, <unknown>/2 (avg)' },
    { name: 'a failed metric\'s empty status entry reads as unknown', specs: [cpu(50), mem], statuses: [{ type: '' }, { type: 'Resource', resource: { name: 'memory', current: { averageValue: '1Mi' } } }], want: 'cpu: <unknown>/50%, memory: 1Mi/200Mi' },
    { name: 'two shown, then how many more', specs: [mem, pods, cpu(60)], want: 'memory: <unknown>/200Mi, <unknown>/10 + 1 more...' },
  ];
  for (const r of rows) test(r.name, () => assert.equal(formatHPAMetrics(r.specs, r.statuses), r.want));
});
