// The pods Table against upstream's own rows: pkg/printers/internalversion printers_test.go
// (kubernetes/kubernetes, stored file id 100530230) TestPrintPod, TestPrintPodWithRestartableInitContainer,
// TestPrintPodwide, TestPrintPodConditions, TestPrintPodList and TestPrintNonTerminatedPod, one
// row per upstream case, with upstream's case comments as names. Bulkhead adds two wide columns,
// QoS and OOM Kill Mode, after upstream's four (the designs' visibility of the QoS class and of
// the OOM kill mode): upstream's wide cells are compared with the first nine, and the last test
// pins where the two extra columns sit.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tableColumns, tableRowConditions } from '../../../src/apiserver/tables.js';
import { ago, cells, DAY, MINUTE, SECOND, wideCells } from './helpers.js';

const containers = (n: number) => Array.from({ length: n }, () => ({ name: '', image: '' }));
const running = { running: {} };
const lastTerminated = (msAgo: number) => ({ terminated: { exitCode: 0, finishedAt: ago(msAgo) } });
const always = (name: string) => ({ name, image: '', restartPolicy: 'Always' });
const deleted = ago(10 * SECOND);

const podSuccessConditions = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const podFailedConditions = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

interface Row {
  name: string;
  pod: Record<string, unknown>;
  want: unknown[];
  conditions?: unknown[];
}

function pod(name: string, spec: Record<string, unknown>, status: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...meta }, spec, status };
}

function check(rows: Row[], wide = false) {
  for (const r of rows) {
    test(r.name, () => {
      const got = wide ? wideCells('pods', r.pod).slice(0, 9) : cells('pods', r.pod).slice(0, 5);
      assert.deepEqual(got, r.want);
      assert.deepEqual(tableRowConditions('pods', r.pod), r.conditions);
    });
  }
}

describe('TestPrintPod', () => {
  const two = { containers: containers(2) };
  check([
    {
      name: 'Test name, num of containers, restarts, container ready status',
      pod: pod('test1', two, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] }),
      want: ['test1', '1/2', 'podPhase', '6', '<unknown>'],
    },
    {
      name: 'Test container error overwrites pod phase',
      pod: pod('test2', two, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }] }),
      want: ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>'],
    },
    {
      name: 'Test the same as the above but with Terminated state and the first container overwrites the rest',
      pod: pod('test3', two, { phase: 'podPhase', containerStatuses: [{ state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }, { state: { terminated: { reason: 'ContainerTerminatedReason', exitCode: 0 } }, restartCount: 3 }] }),
      want: ['test3', '0/2', 'ContainerWaitingReason', '6', '<unknown>'],
    },
    {
      name: 'Test ready is not enough for reporting running',
      pod: pod('test4', two, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }] }),
      want: ['test4', '1/2', 'podPhase', '6', '<unknown>'],
    },
    {
      name: 'Test ready is not enough for reporting running (the pod reason wins over the phase)',
      pod: pod('test5', two, { reason: 'podReason', phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }] }),
      want: ['test5', '1/2', 'podReason', '6', '<unknown>'],
    },
    {
      name: 'Test pod has 2 containers, one is running and the other is completed, w/o ready condition',
      pod: pod('test6', two, { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } }, { ready: true, restartCount: 3, state: running }] }),
      want: ['test6', '1/2', 'NotReady', '6', '<unknown>'],
    },
    {
      name: 'Test pod has 2 containers, one is running and the other is completed, with ready condition',
      pod: pod('test6', two, {
        phase: 'Running',
        containerStatuses: [{ ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } }, { ready: true, restartCount: 3, state: running }],
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: ago(0) }],
      }),
      want: ['test6', '1/2', 'Running', '6', '<unknown>'],
    },
    {
      name: 'Test pod has 1 init container restarting and 1 container not running',
      pod: pod('test7', { initContainers: containers(1), containers: containers(1) }, {
        phase: 'podPhase',
        initContainerStatuses: [{ ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) }],
        containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
      }),
      want: ['test7', '0/1', 'Init:0/1', '3 (10s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 init containers, one restarting and the other not running, and 1 container not running',
      pod: pod('test8', { initContainers: containers(2), containers: containers(1) }, {
        phase: 'podPhase',
        initContainerStatuses: [{ ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) }, { ready: false, state: { waiting: {} } }],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      }),
      want: ['test8', '0/1', 'Init:0/2', '3 (10s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 init containers, one completed without restarts and the other restarting, and 1 container not running',
      pod: pod('test9', { initContainers: containers(2), containers: containers(1) }, {
        phase: 'podPhase',
        initContainerStatuses: [{ ready: false, state: { terminated: { exitCode: 0 } } }, { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) }],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      }),
      want: ['test9', '0/1', 'Init:1/2', '3 (10s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 init containers, one completed with restarts and the other restarting, and 1 container not running',
      pod: pod('test10', { initContainers: containers(2), containers: containers(1) }, {
        phase: 'podPhase',
        initContainerStatuses: [
          { ready: false, restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: lastTerminated(2 * MINUTE) },
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) },
        ],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      }),
      want: ['test10', '0/1', 'Init:1/2', '5 (10s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 1 init container completed with restarts and one container restarting',
      pod: pod('test11', { initContainers: containers(1), containers: containers(1) }, {
        phase: 'Running',
        initContainerStatuses: [{ ready: false, restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: lastTerminated(2 * MINUTE) }],
        containerStatuses: [{ ready: false, restartCount: 4, state: running, lastState: lastTerminated(20 * SECOND) }],
      }),
      want: ['test11', '0/1', 'Running', '4 (20s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 1 container that restarted 5d ago',
      pod: pod('test12', { containers: containers(1) }, { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 3, state: running, lastState: lastTerminated(5 * DAY) }] }),
      want: ['test12', '1/1', 'Running', '3 (5d ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 containers, one has never restarted and the other has restarted 10d ago',
      pod: pod('test13', two, { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 0, state: running }, { ready: true, restartCount: 3, state: running, lastState: lastTerminated(10 * DAY) }] }),
      want: ['test13', '2/2', 'Running', '3 (10d ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 containers, one restarted 5d ago and the other restarted 20d ago',
      pod: pod('test14', two, {
        phase: 'Running',
        containerStatuses: [{ ready: true, restartCount: 6, state: running, lastState: lastTerminated(5 * DAY) }, { ready: true, restartCount: 3, state: running, lastState: lastTerminated(20 * DAY) }],
      }),
      want: ['test14', '2/2', 'Running', '9 (5d ago)', '<unknown>'],
    },
    {
      name: 'Test PodScheduled condition with reason SchedulingGated',
      pod: pod('test15', two, { phase: 'podPhase', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }),
      want: ['test15', '0/2', 'SchedulingGated', '0', '<unknown>'],
    },
    {
      name: 'Test pod condition succeed',
      pod: pod('test16', { containers: containers(1) }, { phase: 'Succeeded', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }),
      want: ['test16', '0/1', 'Completed', '0', '<unknown>'],
      conditions: podSuccessConditions,
    },
    {
      name: 'Test pod condition failed',
      pod: pod('test17', { containers: containers(1) }, { phase: 'Failed', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Error', exitCode: 1 } } }] }),
      want: ['test17', '0/1', 'Error', '0', '<unknown>'],
      conditions: podFailedConditions,
    },
    {
      name: 'Test pod condition succeed with deletion',
      pod: pod('test18', { containers: containers(1) }, { phase: 'Succeeded', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }, { deletionTimestamp: deleted }),
      want: ['test18', '0/1', 'Completed', '0', '<unknown>'],
      conditions: podSuccessConditions,
    },
    {
      name: 'Test pod condition running with deletion',
      pod: pod('test19', { containers: containers(1) }, { phase: 'Running', containerStatuses: [{ ready: false, restartCount: 0, state: running }] }, { deletionTimestamp: deleted }),
      want: ['test19', '0/1', 'Terminating', '0', '<unknown>'],
    },
    {
      name: 'Test pod condition pending with deletion',
      pod: pod('test20', { containers: containers(1) }, { phase: 'Pending' }, { deletionTimestamp: deleted }),
      want: ['test20', '0/1', 'Terminating', '0', '<unknown>'],
    },
  ]);
});

describe('TestPrintPodWithRestartableInitContainer', () => {
  const sidecars = { initContainers: [always('restartable-init-1'), always('restartable-init-2')], containers: containers(1) };
  check([
    {
      name: 'Test pod has 2 restartable init containers, the first one running but not started.',
      pod: pod('test1', sidecars, {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: running, started: false, lastState: lastTerminated(10 * SECOND) },
          { name: 'restartable-init-2', ready: false, state: { waiting: {} }, started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
        conditions: [{ type: 'Initialized', status: 'False' }],
      }),
      want: ['test1', '0/3', 'Init:0/2', '3 (10s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 restartable init containers, the first one started and the second one running but not started.',
      pod: pod('test1', sidecars, {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: running, started: true, lastState: lastTerminated(10 * SECOND) },
          { name: 'restartable-init-2', ready: false, state: running, started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
        conditions: [{ type: 'Initialized', status: 'False' }],
      }),
      want: ['test1', '0/3', 'Init:1/2', '3 (10s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 restartable init containers started and 1 container running',
      pod: pod('test2', sidecars, {
        phase: 'Running',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: running, started: true, lastState: lastTerminated(10 * SECOND) },
          { name: 'restartable-init-2', ready: false, state: running, started: true },
        ],
        containerStatuses: [{ ready: true, restartCount: 4, state: running, lastState: lastTerminated(20 * SECOND) }],
        conditions: [{ type: 'Initialized', status: 'True' }],
      }),
      want: ['test2', '1/3', 'Running', '7 (10s ago)', '<unknown>'],
    },
    {
      name: 'Test pod has 2 restartable init containers completed with non-zero and 1 container completed',
      pod: pod('test3', sidecars, {
        phase: 'Succeeded',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: { terminated: { reason: 'Error', exitCode: 137 } }, started: false, lastState: lastTerminated(10 * SECOND) },
          { name: 'restartable-init-2', ready: false, state: { terminated: { reason: 'Error', exitCode: 137 } }, started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 4, state: { terminated: { reason: 'Completed', exitCode: 0 } }, lastState: lastTerminated(20 * SECOND) }],
        conditions: [{ type: 'Initialized', status: 'True' }],
      }),
      want: ['test3', '0/3', 'Completed', '7 (10s ago)', '<unknown>'],
      conditions: podSuccessConditions,
    },
    {
      name: 'Test pod has container statuses for non-existent initContainers and containers',
      pod: pod('test4', { initContainers: [{ name: 'init1', image: 'initimage' }, { ...always('sidecar1'), image: 'sidecarimage' }], containers: [{ name: 'container1', image: 'containerimage' }] }, {
        phase: 'Running',
        initContainerStatuses: [{ name: 'initinvalid' }, { name: 'init1' }, { name: 'sidecar1' }],
        containerStatuses: [{ name: 'containerinvalid' }, { name: 'container1' }],
      }),
      want: ['test4', '0/2', 'Init:0/2', '0', '<unknown>'],
    },
  ]);
});

describe('TestPrintPodwide', () => {
  const gated = (name: string, podIPs: { ip: string }[]) =>
    pod(name, { containers: containers(2), nodeName: 'test1', readinessGates: [{ conditionType: 'condition1' }, { conditionType: 'condition2' }, { conditionType: 'condition3' }] }, {
      conditions: [
        { type: 'condition1', status: 'False' },
        { type: 'condition2', status: 'True' },
      ],
      phase: 'podPhase',
      podIPs,
      containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }],
      nominatedNodeName: 'node1',
    });
  check(
    [
      { name: 'Test when the NodeName and PodIP are not none', pod: gated('test1', [{ ip: '1.1.1.1' }]), want: ['test1', '1/2', 'podPhase', '6', '<unknown>', '1.1.1.1', 'test1', 'node1', '1/3'] },
      { name: 'Test when the NodeName and PodIP are not none (dual stack: the first IP)', pod: gated('test1', [{ ip: '1.1.1.1' }, { ip: '2001:db8::' }]), want: ['test1', '1/2', 'podPhase', '6', '<unknown>', '1.1.1.1', 'test1', 'node1', '1/3'] },
      {
        name: 'Test when the NodeName and PodIP are none',
        pod: pod('test2', { containers: containers(2), nodeName: '' }, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }] }),
        want: ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>', '<none>', '<none>', '<none>', '<none>'],
      },
    ],
    true,
  );
});

describe('TestPrintPodConditions', () => {
  const statuses = [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }];
  check([
    { name: 'Should not have TableRowCondition', pod: pod('test1', { containers: containers(2) }, { phase: 'Running', containerStatuses: statuses }, { labels: { a: '1', b: '2' } }), want: ['test1', '1/2', 'Running', '6', '<unknown>'] },
    {
      name: 'Should have TableRowCondition: podSuccessConditions',
      pod: pod('test1', { containers: containers(2) }, { phase: 'Succeeded', containerStatuses: statuses }, { labels: { a: '1', b: '2' } }),
      want: ['test1', '1/2', 'Succeeded', '6', '<unknown>'],
      conditions: podSuccessConditions,
    },
    {
      name: 'Should have TableRowCondition: podFailedCondition',
      pod: pod('test2', { containers: containers(2) }, { phase: 'Failed', containerStatuses: statuses }, { labels: { b: '2' } }),
      want: ['test2', '1/2', 'Failed', '6', '<unknown>'],
      conditions: podFailedConditions,
    },
  ]);
});

describe('TestPrintPodList', () => {
  check([
    {
      name: "Test podList's pod: name, num of containers, restarts, container ready status (first pod)",
      pod: pod('test1', { containers: containers(2) }, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3, state: running }] }),
      want: ['test1', '2/2', 'podPhase', '6', '<unknown>'],
    },
    {
      name: "Test podList's pod: name, num of containers, restarts, container ready status (second pod)",
      pod: pod('test2', { containers: containers(1) }, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 1, state: running }] }),
      want: ['test2', '1/1', 'podPhase', '1', '<unknown>'],
    },
  ]);
});

describe('TestPrintNonTerminatedPod', () => {
  const statuses = [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }];
  const p = (name: string, phase: string, s: unknown[] = statuses) => pod(name, { containers: containers(2) }, { phase, containerStatuses: s });
  check([
    { name: 'Test pod phase Running should be printed', pod: p('test1', 'Running'), want: ['test1', '1/2', 'Running', '6', '<unknown>'] },
    { name: 'Test pod phase Pending should be printed', pod: p('test2', 'Pending'), want: ['test2', '1/2', 'Pending', '6', '<unknown>'] },
    { name: 'Test pod phase Unknown should be printed', pod: p('test3', 'Unknown'), want: ['test3', '1/2', 'Unknown', '6', '<unknown>'] },
    { name: 'Test pod phase Succeeded should be printed', pod: p('test4', 'Succeeded'), want: ['test4', '1/2', 'Succeeded', '6', '<unknown>'], conditions: podSuccessConditions },
    {
      name: "Test pod phase Failed shouldn't be printed",
      pod: p('test5', 'Failed', [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }]),
      want: ['test5', '1/2', 'Failed', '6', '<unknown>'],
      conditions: podFailedConditions,
    },
  ]);
});

test("the pods Table's columns: upstream's podColumnDefinitions, then Bulkhead's QoS and OOM Kill Mode at priority 1", () => {
  const columns = tableColumns('pods').map((c) => [c.name, c.type, c.format, c.priority]);
  assert.deepEqual(columns, [
    ['Name', 'string', 'name', 0],
    ['Ready', 'string', '', 0],
    ['Status', 'string', '', 0],
    ['Restarts', 'string', '', 0],
    ['Age', 'string', '', 0],
    ['IP', 'string', '', 1],
    ['Node', 'string', '', 1],
    ['Nominated Node', 'string', '', 1],
    ['Readiness Gates', 'string', '', 1],
    ['QoS', 'string', '', 1],
    ['OOM Kill Mode', 'string', '', 1],
  ]);
});
