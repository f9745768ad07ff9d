// batch/v1 Job and CronJob through the real HTTP API (pkg/registry/batch/job and cronjob): the
// defaults and generated selector a create stores, 422s with upstream's wording, the status
// subresource, immutability on update, generation, the object-count quota; then the real
// kubectl: create job and create cronjob (protobuf bodies), get jobs,cj columns, api-resources
// and an invalid Job refused with the exact message (skipped when no kubectl is installed).

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Client } from './client.js';
import { kubectlFound, kubectlSkip, tableRows, useTestServer, waitForQuotaStatus } from './kubectlserver.js';

const jobs = '/apis/batch/v1/namespaces/default/jobs';
const cronjobs = '/apis/batch/v1/namespaces/default/cronjobs';
const podSpec = (restartPolicy = 'Never') => ({ containers: [{ name: 'main', image: 'busybox', command: ['echo', 'hi'] }], restartPolicy });
const job = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: podSpec() }, ...spec } });
const cronJob = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: podSpec('OnFailure') } } }, ...spec } });
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };

describe('Job and CronJob over HTTP', () => {
  const t = useTestServer('bulkhead-batch-');
  let admin: Client;
  before(() => {
    admin = t.admin();
  });

  it('a created Job is stored defaulted, with the generated selector and template labels and an empty status', async () => {
    const r = await admin.request('POST', jobs, job('pi'));
    assert.equal(r.status, 201, r.text);
    const j = r.json();
    const uid = j.metadata.uid;
    assert.deepEqual(
      [j.spec.completions, j.spec.parallelism, j.spec.backoffLimit, j.spec.completionMode, j.spec.suspend, j.spec.manualSelector, j.spec.podReplacementPolicy],
      [1, 1, 6, 'NonIndexed', false, false, 'TerminatingOrFailed'],
    );
    assert.deepEqual(j.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    assert.deepEqual(j.spec.template.metadata.labels, { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' });
    assert.deepEqual(j.status, {});
    assert.equal(j.metadata.generation, 1);
  });

  const refusals: { name: string; body: unknown; path?: string; message: string }[] = [
    { name: 'restartPolicy Always', body: job('a', { template: { spec: podSpec('Always') } }), message: 'Job.batch "a" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"' },
    { name: 'negative parallelism', body: job('b', { parallelism: -1 }), message: 'Job.batch "b" is invalid: spec.parallelism: Invalid value: -1: must be greater than or equal to 0' },
    {
      name: 'podFailurePolicy with OnFailure',
      body: job('c', { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [137] } }] }, template: { spec: podSpec('OnFailure') } }),
      message: 'Job.batch "c" is invalid: spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    },
    { name: 'a cron schedule with four fields', path: cronjobs, body: cronJob('d', { schedule: '* * * *' }), message: 'CronJob.batch "d" is invalid: spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]' },
    { name: 'a cronjob name over 52 characters', path: cronjobs, body: cronJob('e'.repeat(53)), message: `CronJob.batch "${'e'.repeat(53)}" is invalid: metadata.name: Invalid value: "${'e'.repeat(53)}": must be no more than 52 characters` },
  ];
  for (const r of refusals) {
    it(`422: ${r.name}`, async () => {
      const res = await admin.request('POST', r.path ?? jobs, r.body);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.json().message, r.message);
      assert.equal(res.json().details.group, 'batch');
    });
  }

  it('the OOM exit-137 FailJob rule is accepted with restartPolicy Never and defaults podReplacementPolicy to Failed', async () => {
    const r = await admin.request('POST', jobs, job('oom', { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [137] } }] } }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().spec.podReplacementPolicy, 'Failed');
  });

  it('update: the template is immutable, parallelism is not and bumps generation; spec writes keep status', async () => {
    const bad = await admin.request('PATCH', `${jobs}/pi`, { spec: { template: { spec: { containers: [{ name: 'main', image: 'other' }] } } } }, mergePatch);
    assert.equal(bad.status, 422);
    assert.match(bad.json().message, /^Job\.batch "pi" is invalid: spec\.template: Invalid value: .*: field is immutable$/);
    const ok = await admin.request('PATCH', `${jobs}/pi`, { spec: { parallelism: 0 }, status: { active: 5 } }, mergePatch);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json().spec.parallelism, 0);
    assert.equal(ok.json().metadata.generation, 2);
    assert.deepEqual(ok.json().status, {}, 'a spec write keeps the stored status (no controller runs here)');
  });

  it('the status subresource writes status only, and refuses more ready than active', async () => {
    const ok = await admin.request('PATCH', `${jobs}/pi/status`, { status: { active: 1, ready: 1, startTime: '2026-01-01T00:00:00Z' }, spec: { parallelism: 7 } }, mergePatch);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual([ok.json().status.active, ok.json().spec.parallelism], [1, 0]);
    const bad = await admin.request('PATCH', `${jobs}/pi/status`, { status: { ready: 2 } }, mergePatch);
    assert.equal(bad.status, 422);
    assert.equal(bad.json().message, 'Job.batch "pi" is invalid: status.ready: Invalid value: 2: cannot set more ready pods than active');
  });

  it('a created CronJob is stored defaulted', async () => {
    const r = await admin.request('POST', cronjobs, cronJob('hello'));
    assert.equal(r.status, 201, r.text);
    const s = r.json().spec;
    assert.deepEqual([s.concurrencyPolicy, s.suspend, s.successfulJobsHistoryLimit, s.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
  });

  it('count/jobs.batch: the create over the quota is 403 with the quota\'s message', async () => {
    await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'q' } });
    const q = await admin.request('POST', '/api/v1/namespaces/q/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { 'count/jobs.batch': '1' } } });
    assert.equal(q.status, 201, q.text);
    await waitForQuotaStatus(admin, 'q', 'q');
    assert.equal((await admin.request('POST', '/apis/batch/v1/namespaces/q/jobs', job('one'))).status, 201);
    const over = await admin.request('POST', '/apis/batch/v1/namespaces/q/jobs', job('two'));
    assert.equal(over.status, 403, over.text);
    assert.equal(over.json().message, 'jobs.batch "two" is forbidden: exceeded quota: q, requested: count/jobs.batch=1, used: count/jobs.batch=1, limited: count/jobs.batch=1');
  });

  // Upstream pod-security-admission ValidatePodController: a Job's spec.template and a CronJob's
  // spec.jobTemplate.spec.template against the namespace's warn level, as a Warning header.
  describe('Pod Security on pod templates', () => {
    const ns = 'psa-batch';
    const baselineText = (container: string) => `would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "${container}" must not set securityContext.privileged=true)`;
    const header = (container: string) => `299 - ${JSON.stringify(baselineText(container))}`;
    const privilegedSpec = (restartPolicy: string) => ({ ...podSpec(restartPolicy), hostNetwork: true, containers: [{ name: 'main', image: 'busybox', securityContext: { privileged: true } }] });
    before(async () => {
      const labels = { 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/audit': 'restricted' };
      const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } });
      assert.equal(r.status, 201, r.text);
    });
    const rows: { name: string; path: string; body: unknown; warning?: string }[] = [
      { name: 'a Job: its template', path: `/apis/batch/v1/namespaces/${ns}/jobs`, body: job('priv', { template: { spec: privilegedSpec('Never') } }), warning: header('main') },
      {
        name: 'a CronJob: its job template\'s template',
        path: `/apis/batch/v1/namespaces/${ns}/cronjobs`,
        body: cronJob('priv', { jobTemplate: { spec: { template: { spec: privilegedSpec('OnFailure') } } } }),
        warning: header('main'),
      },
      // Only warn is seen: the restricted audit level has no sink here (no audit log).
      { name: 'a Job that meets baseline: no warning', path: `/apis/batch/v1/namespaces/${ns}/jobs`, body: job('plain') },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        const r = await admin.request('POST', row.path, row.body);
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers['warning'], row.warning);
      });
    }
  });
});

if (!kubectlFound) it('Job and CronJob with the real kubectl', { skip: kubectlSkip }, () => {});
else {
  describe('Job and CronJob with the real kubectl', () => {
    const { kubectl, dir } = useTestServer('bulkhead-batch-kubectl-');
    const rows = tableRows;

    it('kubectl create job and create cronjob (protobuf bodies); get jobs,cj columns; wide', async () => {
      const j = await kubectl('create', 'job', 'j', '--image=busybox', '--', 'echo', 'hi');
      assert.equal(j.stdout, 'job.batch/j created\n', j.stderr);
      const c = await kubectl('create', 'cronjob', 'c', '--image=busybox', '--schedule=*/1 * * * *', '--', 'echo', 'hi');
      assert.equal(c.stdout, 'cronjob.batch/c created\n', c.stderr);
      const get = await kubectl('get', 'jobs,cj');
      assert.equal(get.code, 0, get.stderr);
      const lines = rows(get.stdout);
      assert.deepEqual(lines.find((l) => l[0] === 'NAME' && l[1] === 'STATUS'), ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
      assert.deepEqual(lines.find((l) => l[0] === 'job.batch/j')?.slice(0, 3), ['job.batch/j', 'Running', '0/1']);
      assert.deepEqual(lines.find((l) => l[0] === 'NAME' && l[1] === 'SCHEDULE'), ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE']);
      assert.deepEqual(lines.find((l) => l[0] === 'cronjob.batch/c')?.slice(0, 6), ['cronjob.batch/c', '*/1 * * * *', '<none>', 'False', '0', '<none>']);
      const wide = rows((await kubectl('get', 'job', 'j', '-o', 'wide')).stdout);
      assert.deepEqual(wide[0], ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(wide[1]?.slice(-3, -1), ['j', 'busybox']);
      assert.match(wide[1]?.at(-1) ?? '', /^batch\.kubernetes\.io\/controller-uid=[0-9a-f-]{36}$/);
      const yaml = await kubectl('get', 'job', 'j', '-o', 'jsonpath={.spec.template.spec.restartPolicy} {.spec.template.spec.containers[0].command}');
      assert.equal(yaml.stdout, 'Never ["echo","hi"]');
      const cmd = await kubectl('get', 'cj', 'c', '-o', 'jsonpath={.spec.jobTemplate.spec.template.spec.restartPolicy}');
      assert.equal(cmd.stdout, 'OnFailure');
    });

    it('kubectl create job --from=cronjob/c: the annotation and the CronJob as controller', async () => {
      const r = await kubectl('create', 'job', 'manual', '--from=cronjob/c');
      assert.equal(r.stdout, 'job.batch/manual created\n', r.stderr);
      const got = await kubectl('get', 'job', 'manual', '-o', 'jsonpath={.metadata.annotations} {.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} {.metadata.ownerReferences[0].controller}');
      assert.equal(got.stdout, '{"cronjob.kubernetes.io/instantiate":"manual"} CronJob/c true');
    });

    it('kubectl api-resources lists jobs and cronjobs (cj)', async () => {
      const ar = await kubectl('api-resources', '--api-group=batch', '--no-headers');
      const row = (n: string) => ar.stdout.split('\n').map((l) => l.trim().split(/\s+/)).find((l) => l[0] === n);
      assert.deepEqual(row('cronjobs'), ['cronjobs', 'cj', 'batch/v1', 'true', 'CronJob']);
      assert.deepEqual(row('jobs'), ['jobs', 'batch/v1', 'true', 'Job']);
    });

    it('an invalid Job is refused with the exact message', async () => {
      const file = join(dir(), 'bad.yaml');
      writeFileSync(file, JSON.stringify(job('bad', { template: { spec: podSpec('Always') } })));
      const r = await kubectl('create', '-f', file);
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr, 'The Job "bad" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"\n');
    });
  });
}
