// Jobs and CronJobs end to end on the real kernel: `bulkhead up` (server with the Job and
// CronJob controllers, scheduler, node agent running pods with runc under conmon) driven by the
// real kubectl. A Job whose container completes; a Job whose container the kernel OOM-kills under
// its memory limit, failed at once by its podFailurePolicy (FailJob on exit code 137) with no
// second pod despite backoffLimit 6; and a CronJob on `* * * * *`, whose first Job runs (this one
// waits for the next minute boundary, up to a minute); and a bare pod past its
// activeDeadlineSeconds, which the node agent stops. Needs root, runc, conmon, busybox-static,
// kubectl and a cgroup memory hierarchy; anywhere else the suite skips and prints why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/jobs.test: SKIPPING end-to-end Job tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

interface JobJSON {
  metadata: { name: string; uid: string };
  status?: { active?: number; succeeded?: number; failed?: number; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}
interface PodListJSON {
  items: { metadata: { name: string; finalizers?: string[] }; status: { phase?: string; containerStatuses?: { state: { terminated?: { exitCode: number; reason?: string } } }[] } }[];
}

const oomJob = `apiVersion: batch/v1
kind: Job
metadata: {name: oom}
spec:
  backoffLimit: 6
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {containerName: main, operator: In, values: [137]}
  template:
    spec:
      restartPolicy: Never
      terminationGracePeriodSeconds: 1
      containers:
      - name: main
        image: busybox
        command: ["sh", "-c", "exec tail /dev/zero"]
        resources: {requests: {cpu: 100m, memory: 16Mi}, limits: {memory: 16Mi}}
`;

const indexedJob = `apiVersion: batch/v1
kind: Job
metadata: {name: shards}
spec:
  completionMode: Indexed
  completions: 3
  parallelism: 3
  template:
    spec:
      restartPolicy: Never
      terminationGracePeriodSeconds: 1
      containers:
      - name: main
        image: busybox
        command: ["sh", "-c", "echo shard $JOB_COMPLETION_INDEX of $(hostname)"]
`;

const deadlinePod = `apiVersion: v1
kind: Pod
metadata: {name: deadline}
spec:
  activeDeadlineSeconds: 3
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: busybox
    command: ["sleep", "1000"]
`;

describe('end to end on the real kernel: Jobs and CronJobs', skip, () => {
  let c: UpCluster;
  before(async () => {
    c = await startUp(['--node-memory', '4Gi', '--node-cpu', '2']);
  });
  after(async () => {
    await c?.stop();
  });

  const job = async (name: string) => JSON.parse(await c.ok(['get', 'job', name, '-o', 'json'])) as JobJSON;
  const cond = (j: JobJSON, type: string) => j.status?.conditions?.find((x) => x.type === type && x.status === 'True');
  const podsOf = async (name: string) => (JSON.parse(await c.ok(['get', 'pods', '-l', `batch.kubernetes.io/job-name=${name}`, '-o', 'json'])) as PodListJSON).items;

  it('kubectl create job ok -- true: the container runs and exits 0, the Job is Complete', async () => {
    await c.ok(['create', 'job', 'ok', '--image=busybox', '--', 'true']);
    const done = await c.until('Job ok Complete', async () => {
      const j = await job('ok');
      return cond(j, 'Complete') ? j : undefined;
    }, 90_000);
    assert.equal(done.status?.succeeded, 1);
    const [p] = await podsOf('ok');
    assert.equal(p?.status.phase, 'Succeeded');
    assert.equal(p?.status.containerStatuses?.[0]?.state.terminated?.exitCode, 0);
    assert.deepEqual(p?.metadata.finalizers ?? [], [], 'the tracking finalizer is removed once counted');
    assert.match(await c.ok(['get', 'job', 'ok']), /\nok\s+Complete\s+1\/1\s/);
  });

  it('an Indexed Job: each pod sees its JOB_COMPLETION_INDEX and hostname <job>-<index>; completedIndexes 0-2, Complete 3/3', async () => {
    await c.ok(['apply', '-f', '-'], indexedJob);
    const done = await c.until('Job shards Complete', async () => {
      const j = (await job('shards')) as JobJSON & { status?: { completedIndexes?: string } };
      return cond(j, 'Complete') ? j : undefined;
    }, 90_000);
    assert.equal(done.status?.completedIndexes, '0-2');
    assert.equal(done.status?.succeeded, 3);
    const logs = await Promise.all((await podsOf('shards')).map((p) => c.ok(['logs', p.metadata.name])));
    assert.deepEqual(logs.map((l) => l.trim()).sort(), ['shard 0 of shards-0', 'shard 1 of shards-1', 'shard 2 of shards-2']);
    assert.match(await c.ok(['get', 'job', 'shards']), /\nshards\s+Complete\s+3\/3\s/);
  });

  it('an OOM-killed container (exit 137) with podFailurePolicy FailJob: the Job fails at once, no second pod', async () => {
    await c.ok(['apply', '-f', '-'], oomJob);
    const failed = await c.until('Job oom Failed', async () => {
      const j = await job('oom');
      return cond(j, 'Failed') ? j : undefined;
    }, 90_000);
    const pods = await podsOf('oom');
    assert.equal(pods.length, 1, `one pod only: ${pods.map((p) => p.metadata.name).join(', ')}`);
    const term = pods[0]!.status.containerStatuses?.[0]?.state.terminated;
    assert.deepEqual([term?.exitCode, term?.reason], [137, 'OOMKilled']);
    assert.equal(cond(failed, 'Failed')?.reason, 'PodFailurePolicy');
    assert.equal(cond(failed, 'Failed')?.message, `Container main for pod default/${pods[0]!.metadata.name} failed with exit code 137 matching FailJob rule at index 0`);
    assert.equal(failed.status?.failed, 1);
    assert.match(await c.ok(['get', 'job', 'oom']), /\noom\s+Failed\s+0\/1\s/);
  });

  it('a pod past its spec.activeDeadlineSeconds is stopped by the node agent: Failed, DeadlineExceeded, the container terminated', async () => {
    await c.ok(['apply', '-f', '-'], deadlinePod);
    const failed = await c.until('pod deadline Failed', async () => {
      const p = JSON.parse(await c.ok(['get', 'pod', 'deadline', '-o', 'json'])) as PodListJSON['items'][number] & { status: { reason?: string; message?: string; startTime?: string } };
      return p.status.phase === 'Failed' ? p : undefined;
    }, 60_000);
    assert.deepEqual([failed.status.reason, failed.status.message], ['DeadlineExceeded', 'Pod was active on the node longer than the specified deadline']);
    // sleep as PID 1 ignores SIGTERM: the grace (1 s) runs out and SIGKILL ends it.
    assert.equal(failed.status.containerStatuses?.[0]?.state.terminated?.exitCode, 137);
    assert.match(await c.ok(['get', 'events', '--field-selector', 'involvedObject.name=deadline,reason=DeadlineExceeded']), /Normal\s+DeadlineExceeded\s+pod\/deadline\s+Pod was active on the node longer than the specified deadline/);
  });

  it('kubectl create cronjob "* * * * *": at the next minute a Job is created and runs to completion', async () => {
    await c.ok(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'true']);
    const name = await c.until('the CronJob\'s first Job', async () => {
      const jobs = JSON.parse(await c.ok(['get', 'jobs', '-o', 'json'])) as { items: JobJSON[] };
      return jobs.items.find((j) => /^tick-\d+$/.test(j.metadata.name))?.metadata.name;
    }, 120_000);
    await c.until(`Job ${name} Complete`, async () => (cond(await job(name), 'Complete') ? true : undefined), 90_000);
    const cj = await c.until('lastSuccessfulTime', async () => {
      const x = JSON.parse(await c.ok(['get', 'cronjob', 'tick', '-o', 'json'])) as { status?: { lastScheduleTime?: string; lastSuccessfulTime?: string } };
      return x.status?.lastSuccessfulTime ? x : undefined;
    }, 30_000);
    assert.ok(cj.status?.lastScheduleTime);
    await c.ok(['patch', 'cronjob', 'tick', '--type=merge', '-p', '{"spec":{"suspend":true}}']);
  });
});
