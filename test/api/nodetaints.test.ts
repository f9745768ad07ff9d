// The condition taints the server keeps on a Node (src/api/nodetaints.ts, after the node
// lifecycle controller's doNoScheduleTaintingPass).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reconcileConditionTaints } from '../../src/api/nodetaints.js';
import type { Node, Taint } from '../../src/api/types.js';

const node = (conditions: [string, string][], taints?: Taint[], unschedulable = false): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n' },
  spec: { ...(taints ? { taints } : {}), ...(unschedulable ? { unschedulable } : {}) },
  status: { conditions: conditions.map(([type, status]) => ({ type, status })) },
});
const ns = (key: string): Taint => ({ key: `node.kubernetes.io/${key}`, effect: 'NoSchedule' });

describe('condition taints', () => {
  const rows: [string, Node, Taint[]][] = [
    ['a healthy node has none', node([['Ready', 'True'], ['MemoryPressure', 'False']]), []],
    ['Ready=False is not-ready', node([['Ready', 'False']]), [ns('not-ready')]],
    ['Ready=Unknown is unreachable', node([['Ready', 'Unknown']]), [ns('unreachable')]],
    ['each pressure condition has its taint', node([['MemoryPressure', 'True'], ['DiskPressure', 'True'], ['PIDPressure', 'True'], ['NetworkUnavailable', 'True']]), [ns('memory-pressure'), ns('disk-pressure'), ns('pid-pressure'), ns('network-unavailable')]],
    ['unschedulable has its taint', node([], undefined, true), [ns('unschedulable')]],
    ['a relieved condition loses its taint; other taints stay', node([['MemoryPressure', 'False']], [{ key: 'dedicated', effect: 'NoSchedule' }, ns('memory-pressure')]), [{ key: 'dedicated', effect: 'NoSchedule' }]],
    ['a kept taint keeps its timeAdded', node([['Ready', 'False']], [{ ...ns('not-ready'), timeAdded: '2026-01-01T00:00:00Z' }]), [{ ...ns('not-ready'), timeAdded: '2026-01-01T00:00:00Z' }]],
    ['a NoExecute taint with a managed key is not this pass\'s', node([], [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]), [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]],
    // A client's mistake, before validation names it: left in place, never read (it was a 500).
    ['a null taint stays for validation to refuse', node([['Ready', 'False']], [null as unknown as Taint]), [null as unknown as Taint, ns('not-ready')]],
    ['a null condition is skipped', { ...node([]), status: { conditions: [null as never, { type: 'Ready', status: 'False' }] } }, [ns('not-ready')]],
  ];
  for (const [name, n, want] of rows) it(name, () => assert.deepEqual(reconcileConditionTaints(n), want));
});
