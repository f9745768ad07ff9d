// The kubelet's events about its own Node: which condition moves record which reason
// (pkg/kubelet/nodestatus/setters.go MemoryPressureCondition, DiskPressureCondition,
// PIDPressureCondition, ReadyCondition; kubelet_node_status.go recordNodeSchedulableEvent).
// One row per rule.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NodeCondition } from '../../src/api/types.js';
import { conditionEvents, nodeRef, nodeStatusMessage, schedulableEvent } from '../../src/agent/nodeevents.js';

const conds = (memory: string, disk: string, pid: string, ready?: string): NodeCondition[] => [
  { type: 'MemoryPressure', status: memory },
  { type: 'DiskPressure', status: disk },
  { type: 'PIDPressure', status: pid },
  ...(ready ? [{ type: 'Ready', status: ready }] : []),
];

const rows: { rule: string; previous: NodeCondition[] | undefined; next: NodeCondition[]; want: string[] }[] = [
  { rule: 'a node registering records each pressure condition it sets (Unknown before), not Ready', previous: undefined, next: conds('False', 'False', 'False', 'True'), want: ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID'] },
  { rule: 'nothing moved, nothing recorded', previous: conds('False', 'False', 'False', 'True'), next: conds('False', 'False', 'False', 'True'), want: [] },
  { rule: 'memory pressure coming records NodeHasInsufficientMemory', previous: conds('False', 'False', 'False', 'True'), next: conds('True', 'False', 'False', 'True'), want: ['NodeHasInsufficientMemory'] },
  { rule: 'memory pressure going records NodeHasSufficientMemory', previous: conds('True', 'False', 'False', 'True'), next: conds('False', 'False', 'False', 'True'), want: ['NodeHasSufficientMemory'] },
  { rule: 'disk and PID pressure coming record theirs, in the setters\' order', previous: conds('False', 'False', 'False', 'True'), next: conds('False', 'True', 'True', 'True'), want: ['NodeHasDiskPressure', 'NodeHasInsufficientPID'] },
  { rule: 'conditions the node controller set Unknown record again when the agent reports (a restart after a silence)', previous: conds('Unknown', 'Unknown', 'Unknown', 'Unknown'), next: conds('False', 'False', 'False', 'True'), want: ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady'] },
  { rule: 'Ready going False records NodeNotReady', previous: conds('False', 'False', 'False', 'True'), next: conds('False', 'False', 'False', 'False'), want: ['NodeNotReady'] },
  { rule: 'a Ready condition appearing for the first time records nothing', previous: conds('False', 'False', 'False'), next: conds('False', 'False', 'False', 'True'), want: [] },
];

describe('the kubelet\'s node condition events', () => {
  for (const row of rows) test(row.rule, () => assert.deepEqual(conditionEvents(row.previous, row.next), row.want));
});

describe('the kubelet\'s schedulable events and the event object', () => {
  const cases: { rule: string; last: boolean; now: boolean; want: string | undefined }[] = [
    { rule: 'a cordon records NodeNotSchedulable', last: false, now: true, want: 'NodeNotSchedulable' },
    { rule: 'an uncordon records NodeSchedulable', last: true, now: false, want: 'NodeSchedulable' },
    { rule: 'no change records nothing', last: true, now: true, want: undefined },
    { rule: 'a schedulable node at start records nothing', last: false, now: false, want: undefined },
  ];
  for (const c of cases) test(c.rule, () => assert.equal(schedulableEvent(c.last, c.now), c.want));

  test('the involved object is the kubelet\'s nodeRef: kind Node, the name as uid, no namespace', () => {
    assert.deepEqual(nodeRef('vm'), { kind: 'Node', metadata: { name: 'vm', uid: 'vm' } });
    assert.equal(nodeStatusMessage('vm', 'NodeReady'), 'Node vm status is now: NodeReady');
  });
});
