// The Tables of deployments, replica sets, stateful sets, daemon sets, controller revisions, jobs
// and cron jobs against upstream's rows: pkg/printers/internalversion printers_test.go
// (kubernetes/kubernetes, stored file id 100530230) TestPrintDeployment, TestPrintReplicaSet,
// TestPrintReplicaSetList, TestPrintStatefulSet, TestPrintDaemonSet, TestPrintDaemonSetList,
// TestPrintControllerRevision, TestPrintJob, TestPrintJobList, TestPrintCronJob and
// TestPrintCronJobList, one row per upstream case (upstream's comment as the name).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ago, cells, MINUTE, SECOND, SOON, wideCells } from './helpers.js';

interface Row {
  name: string;
  obj: Record<string, unknown>;
  want: unknown[];
  wide?: boolean;
}

const check = (resource: string, rows: Row[]) => rows.forEach((r) => test(r.name, () => assert.deepEqual(r.wide ? wideCells(resource, r.obj) : cells(resource, r.obj), r.want)));
const template = (prefix = 'fake') => ({ spec: { containers: [{ name: `${prefix}-container1`, image: `${prefix}-image1` }, { name: `${prefix}-container2`, image: `${prefix}-image2` }] } });
const fooBar = { matchLabels: { foo: 'bar' } };
const TEN_YEARS = 10 * 365 * 24 * 60 * MINUTE;

describe('TestPrintDeployment', () => {
  const d = { metadata: { name: 'test1', creationTimestamp: SOON }, spec: { replicas: 5, template: template(), selector: fooBar }, status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4 } };
  check('deployments', [
    { name: 'Test Deployment with no generate options.', obj: d, want: ['test1', '0/5', 2, 1, '0s'] },
    { name: 'Test generate options: Wide.', obj: d, want: ['test1', '0/5', 2, 1, '0s', 'fake-container1,fake-container2', 'fake-image1,fake-image2', 'foo=bar'], wide: true },
  ]);
});

describe('TestPrintReplicaSet', () => {
  const rs = { metadata: { name: 'test1', creationTimestamp: SOON }, spec: { replicas: 5, template: template(), selector: fooBar }, status: { replicas: 5, readyReplicas: 2 } };
  check('replicasets', [
    { name: 'Generate options empty', obj: rs, want: ['test1', 5, 5, 2, '0s'] },
    { name: 'Generate options "Wide"', obj: rs, want: ['test1', 5, 5, 2, '0s', 'fake-container1,fake-container2', 'fake-image1,fake-image2', 'foo=bar'], wide: true },
  ]);
});

describe('TestPrintReplicaSetList', () => {
  check('replicasets', [
    { name: 'replicaset1', obj: { metadata: { name: 'replicaset1', creationTimestamp: SOON }, spec: { replicas: 5, template: template() }, status: { replicas: 5, readyReplicas: 2 } }, want: ['replicaset1', 5, 5, 2, '0s'] },
    { name: 'replicaset2', obj: { metadata: { name: 'replicaset2', creationTimestamp: SOON }, spec: { replicas: 4, template: {}, selector: fooBar }, status: { replicas: 3, readyReplicas: 1 } }, want: ['replicaset2', 4, 3, 1, '0s'] },
  ]);
});

describe('TestPrintStatefulSet', () => {
  const ss = { metadata: { name: 'test1', creationTimestamp: SOON }, spec: { replicas: 5, template: template() }, status: { replicas: 5, readyReplicas: 2 } };
  check('statefulsets', [
    { name: 'Basic stateful set; no generate options.', obj: ss, want: ['test1', '2/5', '0s'] },
    { name: 'Generate options "Wide"; includes containers and images.', obj: ss, want: ['test1', '2/5', '0s', 'fake-container1,fake-container2', 'fake-image1,fake-image2'], wide: true },
  ]);
});

describe('TestPrintDaemonSet', () => {
  const ds = { metadata: { name: 'test1', creationTimestamp: SOON }, spec: { template: template(), selector: fooBar }, status: { currentNumberScheduled: 2, desiredNumberScheduled: 3, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 0 } };
  check('daemonsets', [
    { name: 'Test generate daemon set with no generate options.', obj: ds, want: ['test1', 3, 2, 1, 2, 0, '<none>', '0s'] },
    { name: 'Test generate daemon set with "Wide" generate options.', obj: ds, want: ['test1', 3, 2, 1, 2, 0, '<none>', '0s', 'fake-container1,fake-container2', 'fake-image1,fake-image2', 'foo=bar'], wide: true },
  ]);
});

describe('TestPrintDaemonSetList', () => {
  check('daemonsets', [
    { name: 'daemonset1', obj: { metadata: { name: 'daemonset1', creationTimestamp: SOON }, spec: { template: template() }, status: { currentNumberScheduled: 2, desiredNumberScheduled: 3, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 0 } }, want: ['daemonset1', 3, 2, 1, 2, 0, '<none>', '0s'] },
    { name: 'daemonset2', obj: { metadata: { name: 'daemonset2', creationTimestamp: SOON }, spec: { template: {}, selector: fooBar }, status: { currentNumberScheduled: 4, desiredNumberScheduled: 2, numberReady: 9, updatedNumberScheduled: 3, numberAvailable: 3 } }, want: ['daemonset2', 2, 4, 9, 3, 3, '<none>', '0s'] },
  ]);
});

describe('TestPrintControllerRevision', () => {
  const cr = (name: string, revision: number, ownerReferences?: unknown[]) => ({ metadata: { name, creationTimestamp: SOON, ...(ownerReferences ? { ownerReferences } : {}) }, revision });
  check('controllerrevisions', [
    { name: 'test1: controlled by a DaemonSet', obj: cr('test1', 1, [{ controller: true, apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'foo' }]), want: ['test1', 'daemonset.apps/foo', 1, '0s'] },
    { name: 'test2: an owner that is not the controller', obj: cr('test2', 2, [{ controller: false, kind: 'ABC', name: 'foo' }]), want: ['test2', '<none>', 2, '0s'] },
    { name: 'test3: no owner references', obj: cr('test3', 3, []), want: ['test3', '<none>', 3, '0s'] },
    { name: 'test4: owner references unset', obj: cr('test4', 4), want: ['test4', '<none>', 4, '0s'] },
  ]);
});

describe('TestPrintJob', () => {
  const job = (name: string, created: string, spec: Record<string, unknown>, status: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({ metadata: { name, creationTimestamp: created, ...meta }, spec, status });
  const withTemplate = (label: string) => ({ completions: 2, template: template('fake-job'), selector: { matchLabels: { 'job-label': label } } });
  const condition = (type: string) => ({ conditions: [{ type, status: 'True' }] });
  check('jobs', [
    { name: 'Generate table rows for Job with no generate options.', obj: job('job1', SOON, withTemplate('job-lable-value'), { succeeded: 1 }), want: ['job1', 'Running', '1/2', '', '0s'] },
    {
      name: 'Generate table rows for Job with generate options "Wide".',
      obj: job('job1', SOON, withTemplate('job-label-value'), { succeeded: 1 }),
      want: ['job1', 'Running', '1/2', '', '0s', 'fake-job-container1,fake-job-container2', 'fake-job-image1,fake-job-image2', 'job-label=job-label-value'],
      wide: true,
    },
    { name: 'Job with ten-year age.', obj: job('job2', ago(TEN_YEARS), {}, { succeeded: 0 }), want: ['job2', 'Running', '0/1', '', '10y'] },
    { name: 'Job with duration.', obj: job('job3', ago(TEN_YEARS), {}, { succeeded: 0, startTime: ago(-MINUTE), completionTime: ago(-31 * MINUTE) }), want: ['job3', 'Running', '0/1', '30m', '10y'] },
    { name: 'job4: running for 20m', obj: job('job4', ago(TEN_YEARS), {}, { succeeded: 0, startTime: ago(20 * MINUTE) }), want: ['job4', 'Running', '0/1', '20m', '10y'] },
    { name: 'job5: Complete', obj: job('job5', SOON, {}, { succeeded: 0, ...condition('Complete') }), want: ['job5', 'Complete', '0/1', '', '0s'] },
    { name: 'job6: Failed', obj: job('job6', SOON, {}, { succeeded: 0, ...condition('Failed') }), want: ['job6', 'Failed', '0/1', '', '0s'] },
    { name: 'job7: Suspended', obj: job('job7', SOON, {}, { succeeded: 0, ...condition('Suspended') }), want: ['job7', 'Suspended', '0/1', '', '0s'] },
    { name: 'job8: FailureTarget', obj: job('job8', SOON, {}, { succeeded: 0, ...condition('FailureTarget') }), want: ['job8', 'FailureTarget', '0/1', '', '0s'] },
    { name: 'job9: Terminating', obj: job('job9', SOON, {}, {}, { deletionTimestamp: SOON }), want: ['job9', 'Terminating', '0/1', '', '0s'] },
    { name: 'printJob has no SuccessCriteriaMet status: such a job is Running until Complete', obj: job('job10', SOON, {}, { succeeded: 0, ...condition('SuccessCriteriaMet') }), want: ['job10', 'Running', '0/1', '', '0s'] },
    { name: 'hasJobCondition reads the first condition of the type', obj: job('job11', SOON, {}, { conditions: [{ type: 'Failed', status: 'False' }, { type: 'Failed', status: 'True' }] }), want: ['job11', 'Running', '0/1', '', '0s'] },
  ]);
});

describe('TestPrintJobList', () => {
  const spec = { completions: 2, template: template('fake-job'), selector: { matchLabels: { 'job-label': 'job-lable-value' } } };
  check('jobs', [
    { name: 'job1', obj: { metadata: { name: 'job1', creationTimestamp: SOON }, spec, status: { succeeded: 1 } }, want: ['job1', 'Running', '1/2', '', '0s'] },
    { name: 'job2', obj: { metadata: { name: 'job2', creationTimestamp: SOON }, spec, status: { succeeded: 2, startTime: ago(20 * MINUTE) } }, want: ['job2', 'Running', '2/2', '20m', '0s'] },
  ]);
});

describe('TestPrintCronJob', () => {
  const jobTemplate = { spec: { completions: 2, template: template('fake-job'), selector: { matchLabels: { a: 'b' } } } };
  const cj = (name: string, created: string, spec: Record<string, unknown>, status: Record<string, unknown>) => ({ metadata: { name, creationTimestamp: created }, spec: { schedule: '0/5 * * * ?', suspend: false, ...spec }, status });
  check('cronjobs', [
    { name: 'Basic cron job; does not print containers, images, or labels.', obj: cj('cronjob1', SOON, { jobTemplate }, { lastScheduleTime: SOON }), want: ['cronjob1', '0/5 * * * ?', '<none>', 'False', 0, '0s', '0s'] },
    { name: 'Basic cron job with a time zone', obj: cj('cronjob1', SOON, { timeZone: 'LOCAL', jobTemplate }, { lastScheduleTime: SOON }), want: ['cronjob1', '0/5 * * * ?', 'LOCAL', 'False', 0, '0s', '0s'] },
    {
      name: 'Generate options: Wide; prints containers, images, and labels.',
      obj: cj('cronjob1', SOON, { jobTemplate }, { lastScheduleTime: SOON }),
      want: ['cronjob1', '0/5 * * * ?', '<none>', 'False', 0, '0s', '0s', 'fake-job-container1,fake-job-container2', 'fake-job-image1,fake-job-image2', 'a=b'],
      wide: true,
    },
    { name: 'CronJob with Last Schedule and Age', obj: cj('cronjob2', ago(5 * MINUTE), {}, { lastScheduleTime: ago(30 * SECOND) }), want: ['cronjob2', '0/5 * * * ?', '<none>', 'False', 0, '30s', '5m'] },
    { name: 'CronJob without Last Schedule', obj: cj('cronjob3', ago(5 * MINUTE), {}, {}), want: ['cronjob3', '0/5 * * * ?', '<none>', 'False', 0, '<none>', '5m'] },
  ]);
});

describe('TestPrintCronJobList', () => {
  const spec = { completions: 2, selector: { matchLabels: { a: 'b' } } };
  check('cronjobs', [
    { name: 'cronjob1', obj: { metadata: { name: 'cronjob1', creationTimestamp: SOON }, spec: { schedule: '0/5 * * * ?', timeZone: 'LOCAL', suspend: false, jobTemplate: { spec } }, status: { lastScheduleTime: SOON } }, want: ['cronjob1', '0/5 * * * ?', 'LOCAL', 'False', 0, '0s', '0s'] },
    { name: 'cronjob2', obj: { metadata: { name: 'cronjob2', creationTimestamp: SOON }, spec: { schedule: '4/5 1 1 1 ?', suspend: false, jobTemplate: { spec } }, status: { lastScheduleTime: ago(20 * MINUTE) } }, want: ['cronjob2', '4/5 1 1 1 ?', '<none>', 'False', 0, '20m', '0s'] },
  ]);
});
