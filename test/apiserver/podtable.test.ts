// The pods table's OOM Kill Mode column (`kubectl get pods -o wide`): what the node applies and
// where it comes from, as its agent reports it in the bulkhead.dev/OOMKillMode condition
// (src/policy/oomkillmodestatus.ts); the spec's field until the agent has reported.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container, Pod, PodCondition } from '../../src/api/types.js';
import { toTable } from '../../src/apiserver/tables.js';
import { oomKillModeCondition, type ResolvedOOMKillMode } from '../../src/policy/oomkillmodestatus.js';

const container = (name: string, oomKillMode?: string): Container => ({ name, image: 'busybox', ...(oomKillMode ? { oomKillMode } : {}) }) as Container;
const resolved = (name: string, r: ResolvedOOMKillMode) => ({ name, ...r });

function pod(containers: Container[], conditions?: PodCondition[]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { containers },
    status: { phase: 'Pending', ...(conditions ? { conditions } : {}) },
  } as Pod;
}

/** A deep-frozen copy, as the watch cache holds pods: its row's time-independent parts are kept (tables.ts). */
function frozen(p: Pod): Pod {
  const freeze = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) return;
    for (const c of Object.values(v)) freeze(c);
    Object.freeze(v);
  };
  const copy = structuredClone(p);
  freeze(copy);
  return copy;
}

/** The cell as printed from the pod, from a frozen copy, and from that copy again (the kept parts). */
function sameFrozen(cell: (p: Pod) => string, p: Pod): string {
  const want = cell(p);
  const f = frozen(p);
  assert.equal(cell(f), want, 'a frozen copy');
  assert.equal(cell(f), want, 'a frozen copy, printed again');
  return want;
}

function column(p: Pod): string {
  const t = toTable('pods', [p], { include: 'None', now: Date.parse('2026-01-01T00:01:00Z') });
  const i = t.columnDefinitions.findIndex((c) => c.name === 'OOM Kill Mode');
  return String(t.rows[0]!.cells[i]);
}

describe('pods table: the OOM Kill Mode column', () => {
  const rows: { name: string; pod: Pod; want: string }[] = [
    { name: 'not reported yet, no field: <default> (the node decides)', pod: pod([container('c')]), want: '<default>' },
    { name: 'not reported yet, the field set: the field', pod: pod([container('c', 'Single')]), want: 'Single' },
    {
      name: 'reported, no field: the mode the node applies and its source',
      pod: pod([container('c')], [oomKillModeCondition([resolved('c', { oomKillMode: 'Single', oomKillModeSource: 'default' })])]),
      want: 'Single (default)',
    },
    {
      name: 'reported: the report wins over the spec',
      pod: pod([container('c', 'Single')], [oomKillModeCondition([resolved('c', { oomKillMode: 'Single', oomKillModeSource: 'container' })])]),
      want: 'Single (container)',
    },
    {
      name: 'containers in different modes: each distinct mode once, in container order',
      pod: pod(
        [container('web', 'Single'), container('db'), container('cache')],
        [
          oomKillModeCondition([
            resolved('web', { oomKillMode: 'Single', oomKillModeSource: 'container' }),
            resolved('db', { oomKillMode: 'Group', oomKillModeSource: 'node' }),
            resolved('cache', { oomKillMode: 'Group', oomKillModeSource: 'node' }),
          ]),
        ],
      ),
      want: 'Single (container),Group (node)',
    },
    {
      name: 'group kill emulated on cgroup v1',
      pod: pod([container('db', 'Group')], [oomKillModeCondition([resolved('db', { oomKillMode: 'Group', oomKillModeSource: 'container', oomKillModeEmulated: true })])]),
      want: 'Group (container, emulated)',
    },
    {
      name: 'Group refused on cgroup v1: flagged as plan flags it',
      pod: pod([container('db', 'Group')], [oomKillModeCondition([resolved('db', { oomKillMode: 'Group', oomKillModeSource: 'container', oomKillModeError: 'oomKillMode=Group requires cgroup v2 support on the node' })])]),
      want: 'Group (container) ERROR',
    },
    {
      name: 'other conditions only: not reported yet',
      pod: pod([container('c')], [{ type: 'PodScheduled', status: 'True' }]),
      want: '<default>',
    },
  ];
  for (const r of rows) it(r.name, () => assert.equal(sameFrozen(column, r.pod), r.want));

  it('the condition message names each container: name=Mode (source)', () => {
    const cond = oomKillModeCondition([
      resolved('web', { oomKillMode: 'Single', oomKillModeSource: 'container' }),
      resolved('db', { oomKillMode: 'Group', oomKillModeSource: 'container', oomKillModeEmulated: true }),
    ]);
    assert.deepEqual(cond, { type: 'bulkhead.dev/OOMKillMode', status: 'True', message: 'web=Single (container); db=Group (container, emulated)' });
  });
});

describe('pods table: the STATUS of a gated pod (printPod)', () => {
  const gatedCond = { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' } as PodCondition;
  const status = (p: Pod) => {
    const t = toTable('pods', [p], { include: 'None', now: Date.parse('2026-01-01T00:01:00Z') });
    return String(t.rows[0]!.cells[t.columnDefinitions.findIndex((c) => c.name === 'Status')]);
  };
  const rows: { name: string; pod: Pod; want: string }[] = [
    { name: 'PodScheduled=False/SchedulingGated: SchedulingGated', pod: pod([container('c')], [gatedCond]), want: 'SchedulingGated' },
    { name: 'PodScheduled=False/Unschedulable: the phase', pod: pod([container('c')], [{ ...gatedCond, reason: 'Unschedulable' }]), want: 'Pending' },
    { name: 'no condition: the phase', pod: pod([container('c')]), want: 'Pending' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(sameFrozen(status, r.pod), r.want));
});
