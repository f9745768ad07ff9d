// The Tables of namespaces, nodes, events, leases, priority classes, runtime classes and CSRs
// against upstream's rows: pkg/printers/internalversion printers_test.go (kubernetes/kubernetes,
// stored file id 100530230) TestPrintNamespace, TestPrintNodeStatus, TestPrintNodeRole,
// TestPrintNodeOSImage, TestPrintNodeKernelVersion, TestPrintNodeContainerRuntimeVersion,
// TestPrintNodeName, TestPrintNodeExternalIP, TestPrintNodeInternalIP, TestPrintEvent,
// TestPrintLease, TestPrintPriorityClass, TestPrintRuntimeClass and
// TestPrintCertificateSigningRequest, one row per upstream case (upstream's comment or name).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ago, cells, DAY, MINUTE, SOON, wideCells } from './helpers.js';

interface Row {
  name: string;
  obj: Record<string, unknown>;
  want: unknown[];
  wide?: boolean;
}

function check(resource: string, rows: Row[]) {
  for (const r of rows) test(r.name, () => assert.deepEqual(r.wide ? wideCells(resource, r.obj) : cells(resource, r.obj), r.want));
}

describe('TestPrintNamespace', () => {
  check('namespaces', [
    { name: 'Basic namespace with status and age.', obj: { metadata: { name: 'namespace1', creationTimestamp: SOON }, status: { phase: 'FooStatus' } }, want: ['namespace1', 'FooStatus', '0s'] },
    { name: 'Basic namespace without status or age.', obj: { metadata: { name: 'namespace2' } }, want: ['namespace2', '', '<unknown>'] },
  ]);
});

const node = (name: string, extra: Record<string, unknown> = {}, status: Record<string, unknown> = {}) => ({ metadata: { name, ...extra }, status });
const ready = (s: string) => ({ conditions: [{ type: 'Ready', status: s }] });

describe('TestPrintNodeStatus', () => {
  check('nodes', [
    { name: 'foo1: Ready', obj: node('foo1', {}, ready('True')), want: ['foo1', 'Ready', '<none>', '<unknown>', ''] },
    { name: 'foo2: Ready, unschedulable', obj: { ...node('foo2', {}, ready('True')), spec: { unschedulable: true } }, want: ['foo2', 'Ready,SchedulingDisabled', '<none>', '<unknown>', ''] },
    { name: 'foo3: two Ready conditions', obj: node('foo3', {}, { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Ready', status: 'True' }] }), want: ['foo3', 'Ready', '<none>', '<unknown>', ''] },
    { name: 'foo4: NotReady', obj: node('foo4', {}, ready('False')), want: ['foo4', 'NotReady', '<none>', '<unknown>', ''] },
    { name: 'foo5: NotReady, unschedulable', obj: { ...node('foo5', {}, ready('False')), spec: { unschedulable: true } }, want: ['foo5', 'NotReady,SchedulingDisabled', '<none>', '<unknown>', ''] },
    { name: 'foo6: an invalid condition type', obj: node('foo6', {}, { conditions: [{ type: 'InvalidValue', status: 'True' }] }), want: ['foo6', 'Unknown', '<none>', '<unknown>', ''] },
    { name: 'foo7: an empty condition', obj: node('foo7', {}, { conditions: [{}] }), want: ['foo7', 'Unknown', '<none>', '<unknown>', ''] },
    { name: 'foo8: an invalid condition type, unschedulable', obj: { ...node('foo8', {}, { conditions: [{ type: 'InvalidValue', status: 'True' }] }), spec: { unschedulable: true } }, want: ['foo8', 'Unknown,SchedulingDisabled', '<none>', '<unknown>', ''] },
    { name: 'foo9: an empty condition, unschedulable', obj: { ...node('foo9', {}, { conditions: [{}] }), spec: { unschedulable: true } }, want: ['foo9', 'Unknown,SchedulingDisabled', '<none>', '<unknown>', ''] },
    { name: 'the last Ready condition wins (conditionMap)', obj: node('foo10', {}, { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Ready', status: 'False' }] }), want: ['foo10', 'NotReady', '<none>', '<unknown>', ''] },
  ]);
});

describe('TestPrintNodeRole', () => {
  check('nodes', [
    { name: 'foo9: no labels', obj: node('foo9'), want: ['foo9', 'Unknown', '<none>', '<unknown>', ''] },
    {
      name: 'foo10: role labels and kubernetes.io/role, sorted',
      obj: node('foo10', { labels: { 'node-role.kubernetes.io/master': '', 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/proxy': '', 'kubernetes.io/role': 'node' } }),
      want: ['foo10', 'Unknown', 'control-plane,master,node,proxy', '<unknown>', ''],
    },
    { name: 'foo11: kubernetes.io/role only', obj: node('foo11', { labels: { 'kubernetes.io/role': 'node' } }), want: ['foo11', 'Unknown', 'node', '<unknown>', ''] },
    {
      name: 'findNodeRoles: a role named twice once, an empty role and an empty kubernetes.io/role left out',
      obj: node('foo12', { labels: { 'node-role.kubernetes.io/node': '', 'node-role.kubernetes.io/': '', 'kubernetes.io/role': 'node' } }),
      want: ['foo12', 'Unknown', 'node', '<unknown>', ''],
    },
  ]);
});

const ext = (address: string) => ({ type: 'ExternalIP', address });
const int = (address: string) => ({ type: 'InternalIP', address });

describe('TestPrintNodeOSImage', () => {
  check('nodes', [
    { name: 'foo1: an OS image', obj: node('foo1', {}, { nodeInfo: { osImage: 'fake-os-image' }, addresses: [ext('1.1.1.1')] }), want: ['foo1', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', 'fake-os-image', '<unknown>', '<unknown>'], wide: true },
    { name: 'foo2: no OS image', obj: node('foo2', {}, { nodeInfo: { kernelVersion: 'fake-kernel-version' }, addresses: [ext('1.1.1.1')] }), want: ['foo2', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', '<unknown>', 'fake-kernel-version', '<unknown>'], wide: true },
  ]);
});

describe('TestPrintNodeKernelVersion', () => {
  check('nodes', [
    { name: 'foo1: a kernel version', obj: node('foo1', {}, { nodeInfo: { kernelVersion: 'fake-kernel-version' }, addresses: [ext('1.1.1.1')] }), want: ['foo1', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', '<unknown>', 'fake-kernel-version', '<unknown>'], wide: true },
    { name: 'foo2: no kernel version', obj: node('foo2', {}, { nodeInfo: { osImage: 'fake-os-image' }, addresses: [ext('1.1.1.1')] }), want: ['foo2', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', 'fake-os-image', '<unknown>', '<unknown>'], wide: true },
  ]);
});

describe('TestPrintNodeContainerRuntimeVersion', () => {
  check('nodes', [
    { name: 'foo1: a runtime version', obj: node('foo1', {}, { nodeInfo: { containerRuntimeVersion: 'foo://1.2.3' }, addresses: [ext('1.1.1.1')] }), want: ['foo1', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', '<unknown>', '<unknown>', 'foo://1.2.3'], wide: true },
    { name: 'foo2: no runtime version', obj: node('foo2', {}, { nodeInfo: {}, addresses: [ext('1.1.1.1')] }), want: ['foo2', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', '<unknown>', '<unknown>', '<unknown>'], wide: true },
  ]);
});

describe('TestPrintNodeName', () => {
  check('nodes', [
    { name: 'an IP as the name', obj: node('127.0.0.1'), want: ['127.0.0.1', 'Unknown', '<none>', '<unknown>', ''] },
    { name: 'an empty name', obj: node(''), want: ['', 'Unknown', '<none>', '<unknown>', ''] },
  ]);
});

describe('TestPrintNodeExternalIP', () => {
  check('nodes', [
    { name: 'foo1: an external IP', obj: node('foo1', {}, { addresses: [ext('1.1.1.1')] }), want: ['foo1', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', '<unknown>', '<unknown>', '<unknown>'], wide: true },
    { name: 'foo2: an internal IP', obj: node('foo2', {}, { addresses: [int('1.1.1.1')] }), want: ['foo2', 'Unknown', '<none>', '<unknown>', '', '1.1.1.1', '<none>', '<unknown>', '<unknown>', '<unknown>'], wide: true },
    { name: 'foo3: the first of each', obj: node('foo3', {}, { addresses: [ext('2.2.2.2'), int('3.3.3.3'), ext('4.4.4.4')] }), want: ['foo3', 'Unknown', '<none>', '<unknown>', '', '3.3.3.3', '2.2.2.2', '<unknown>', '<unknown>', '<unknown>'], wide: true },
  ]);
});

describe('TestPrintNodeInternalIP', () => {
  check('nodes', [
    { name: 'foo1: an internal IP', obj: node('foo1', {}, { addresses: [int('1.1.1.1')] }), want: ['foo1', 'Unknown', '<none>', '<unknown>', '', '1.1.1.1', '<none>', '<unknown>', '<unknown>', '<unknown>'], wide: true },
    { name: 'foo2: an external IP', obj: node('foo2', {}, { addresses: [ext('1.1.1.1')] }), want: ['foo2', 'Unknown', '<none>', '<unknown>', '', '<none>', '1.1.1.1', '<unknown>', '<unknown>', '<unknown>'], wide: true },
    { name: 'foo3: the first of each', obj: node('foo3', {}, { addresses: [int('2.2.2.2'), ext('3.3.3.3'), int('4.4.4.4')] }), want: ['foo3', 'Unknown', '<none>', '<unknown>', '', '2.2.2.2', '3.3.3.3', '<unknown>', '<unknown>', '<unknown>'], wide: true },
  ]);
});

const deploymentRef = { kind: 'Deployment', name: 'Deployment Name', fieldPath: 'spec.containers{foo}' };
const event = (name: string, e: Record<string, unknown>) => ({ metadata: { name }, reason: 'Event Reason', message: 'Message Data', involvedObject: deploymentRef, type: 'Warning', source: { component: 'kubelet', host: 'Node1' }, ...e });

describe('TestPrintEvent', () => {
  check('events', [
    {
      name: 'Basic event; no generate options',
      obj: { ...event('event1', { firstTimestamp: ago(3 * DAY), lastTimestamp: ago(2 * DAY), count: 6, type: 'Normal' }), source: { component: 'kubelet' }, involvedObject: { kind: 'Pod', name: 'Pod Name', fieldPath: 'spec.containers{foo}' } },
      want: ['2d', 'Normal', 'Event Reason', 'pod/Pod Name', 'Message Data'],
    },
    {
      name: 'Basic event; generate options=Wide',
      obj: event('event2', { firstTimestamp: ago(3 * DAY), lastTimestamp: ago(2 * DAY), count: 6 }),
      want: ['2d', 'Warning', 'Event Reason', 'deployment/Deployment Name', 'spec.containers{foo}', 'kubelet, Node1', 'Message Data', '3d', 6, 'event2'],
      wide: true,
    },
    {
      name: 'Basic event, w/o FirstTimestamp set',
      obj: event('event3', { eventTime: ago(3 * DAY), lastTimestamp: ago(3 * DAY), count: 1 }),
      want: ['3d', 'Warning', 'Event Reason', 'deployment/Deployment Name', 'spec.containers{foo}', 'kubelet, Node1', 'Message Data', '3d', 1, 'event3'],
      wide: true,
    },
    {
      name: 'Basic event, w/o LastTimestamp set',
      obj: event('event4', { eventTime: ago(3 * DAY), firstTimestamp: ago(3 * DAY), count: 1 }),
      want: ['3d', 'Warning', 'Event Reason', 'deployment/Deployment Name', 'spec.containers{foo}', 'kubelet, Node1', 'Message Data', '3d', 1, 'event4'],
      wide: true,
    },
    {
      name: 'Basic event, w/o FirstTimestamp and LastTimestamp set',
      obj: event('event5', { eventTime: ago(3 * DAY), count: 1 }),
      want: ['3d', 'Warning', 'Event Reason', 'deployment/Deployment Name', 'spec.containers{foo}', 'kubelet, Node1', 'Message Data', '3d', 1, 'event5'],
      wide: true,
    },
    {
      name: 'Basic event serie, w/o FirstTimestamp, LastTimestamp and Count set',
      obj: event('event6', { series: { count: 2, lastObservedTime: ago(2 * DAY) }, eventTime: ago(3 * DAY) }),
      want: ['2d', 'Warning', 'Event Reason', 'deployment/Deployment Name', 'spec.containers{foo}', 'kubelet, Node1', 'Message Data', '3d', 2, 'event6'],
      wide: true,
    },
    {
      name: 'Singleton event, w/o FirstTimestamp, LastTimestamp and Count set',
      obj: event('event7', { eventTime: ago(3 * DAY) }),
      want: ['3d', 'Warning', 'Event Reason', 'deployment/Deployment Name', 'spec.containers{foo}', 'kubelet, Node1', 'Message Data', '3d', 1, 'event7'],
      wide: true,
    },
    {
      name: 'Basic event, with empty Source; generate options=Wide',
      obj: { ...event('event2', { firstTimestamp: ago(3 * DAY), lastTimestamp: ago(2 * DAY), count: 6 }), source: undefined, reportingComponent: 'kubelet', reportingInstance: 'test' },
      want: ['2d', 'Warning', 'Event Reason', 'deployment/Deployment Name', 'spec.containers{foo}', 'kubelet, test', 'Message Data', '3d', 6, 'event2'],
      wide: true,
    },
    {
      name: 'no timestamp at all: <unknown>, not the creation time; an object without a name: its kind only',
      obj: { ...event('event8', { count: 1, metadata: { name: 'event8', creationTimestamp: ago(MINUTE) } }), involvedObject: { kind: 'Node' } },
      want: ['<unknown>', 'Warning', 'Event Reason', 'node', '', 'kubelet, Node1', 'Message Data', '<unknown>', 1, 'event8'],
      wide: true,
    },
  ]);
});

describe('TestPrintLease', () => {
  check('leases', [
    { name: 'lease1: a holder, created now', obj: { metadata: { name: 'lease1', creationTimestamp: SOON }, spec: { holderIdentity: 'holder1' } }, want: ['lease1', 'holder1', '0s'] },
    { name: 'lease2: a holder, created 5m ago', obj: { metadata: { name: 'lease2', creationTimestamp: ago(5 * MINUTE) }, spec: { holderIdentity: 'holder2' } }, want: ['lease2', 'holder2', '5m'] },
  ]);
});

describe('TestPrintPriorityClass', () => {
  check('priorityclasses', [
    { name: 'Test case with PreemptNever policy', obj: { metadata: { name: 'pc1', creationTimestamp: SOON }, value: 1, preemptionPolicy: 'Never' }, want: ['pc1', 1, false, '0s', 'Never'] },
    { name: 'Test case with PreemptLowerPriority policy', obj: { metadata: { name: 'pc2', creationTimestamp: ago(5 * MINUTE) }, value: 1000000000, globalDefault: true, preemptionPolicy: 'PreemptLowerPriority' }, want: ['pc2', 1000000000, true, '5m', 'PreemptLowerPriority'] },
    { name: 'Test case with PreemptLowerPriority policy and wide output', obj: { metadata: { name: 'pc2', creationTimestamp: ago(5 * MINUTE) }, value: 1000000000, globalDefault: true, preemptionPolicy: 'PreemptLowerPriority' }, want: ['pc2', 1000000000, true, '5m', 'PreemptLowerPriority'], wide: true },
    { name: 'Test case without set PreemptLowerPriority policy', obj: { metadata: { name: 'pc2', creationTimestamp: ago(5 * MINUTE) }, value: 1000000000, globalDefault: true }, want: ['pc2', 1000000000, true, '5m', ''], wide: true },
  ]);
});

describe('TestPrintRuntimeClass', () => {
  check('runtimeclasses', [
    { name: 'rc1: created now', obj: { metadata: { name: 'rc1', creationTimestamp: SOON }, handler: 'h1' }, want: ['rc1', 'h1', '0s'] },
    { name: 'rc2: created 5m ago', obj: { metadata: { name: 'rc2', creationTimestamp: ago(5 * MINUTE) }, handler: 'h2' }, want: ['rc2', 'h2', '5m'] },
  ]);
});

const csr = (name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}) => ({ metadata: { name, creationTimestamp: SOON }, spec, status });
const approved = { conditions: [{ type: 'Approved' }] };

describe('TestPrintCertificateSigningRequest', () => {
  check('certificatesigningrequests', [
    { name: 'Basic CSR with no spec or status; defaults to status: Pending.', obj: csr('csr1', {}), want: ['csr1', '0s', '<none>', '', '<none>', 'Pending'] },
    { name: 'Basic CSR with Spec and Status=Approved.', obj: csr('csr2', { username: 'CSR Requestor' }, approved), want: ['csr2', '0s', '<none>', 'CSR Requestor', '<none>', 'Approved'] },
    { name: 'Basic CSR with Spec and SignerName set', obj: csr('csr2', { username: 'CSR Requestor', signerName: 'example.com/test-signer' }, approved), want: ['csr2', '0s', 'example.com/test-signer', 'CSR Requestor', '<none>', 'Approved'] },
    {
      name: 'Basic CSR with Spec, SignerName and ExpirationSeconds set',
      obj: csr('csr2', { username: 'CSR Requestor', signerName: 'example.com/test-signer', expirationSeconds: 7 * 24 * 3600 + 3600 }, approved),
      want: ['csr2', '0s', 'example.com/test-signer', 'CSR Requestor', '7d1h', 'Approved'],
    },
    { name: 'Basic CSR with Spec and Status=Approved; certificate issued.', obj: csr('csr2', { username: 'CSR Requestor' }, { ...approved, certificate: 'Y2VydCBkYXRh' }), want: ['csr2', '0s', '<none>', 'CSR Requestor', '<none>', 'Approved,Issued'] },
    { name: 'Basic CSR with Spec and Status=Denied.', obj: csr('csr3', { username: 'CSR Requestor' }, { conditions: [{ type: 'Denied' }] }), want: ['csr3', '0s', '<none>', 'CSR Requestor', '<none>', 'Denied'] },
    { name: 'extractCSRStatus reads the condition types, whatever their status', obj: csr('csr4', { username: 'u' }, { conditions: [{ type: 'Approved', status: 'False' }, { type: 'Failed', status: 'False' }] }), want: ['csr4', '0s', '<none>', 'u', '<none>', 'Approved,Failed'] },
  ]);
});
