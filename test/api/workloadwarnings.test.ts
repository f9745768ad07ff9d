// The strategies' warnings around pkg/api/pod/warnings.go (api/workloadwarnings.ts): which kind
// warns of what on create and update, under which path, and the pod strategy's AppArmor annotation
// warning (applyAppArmorVersionSkew in PrepareForCreate).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyAppArmorVersionSkew } from '../../src/api/apparmorskew.js';
import {
  cronJobCreateWarnings,
  cronJobUpdateWarnings,
  daemonSetUpdateWarnings,
  deploymentCreateWarnings,
  deploymentUpdateWarnings,
  jobCreateWarnings,
  jobUpdateWarnings,
  podCreateWarnings,
  replicaSetCreateWarnings,
  statefulSetCreateWarnings,
  statefulSetUpdateWarnings,
} from '../../src/api/workloadwarnings.js';
import type { CronJob, DaemonSet, Deployment, Job, Pod, ReplicaSet, StatefulSet } from '../../src/api/types.js';

const archSelector = { nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } };
const template = { spec: { ...archSelector, containers: [{ name: 'c' }] } };
const archMsg = 'deprecated since v1.14; use "kubernetes.io/arch" instead';
const podNameMsg = "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: ";
const workloadNameMsg = 'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: ';
const dots = '[must not contain dots]';

const pod = (name: string, extra: Partial<Pod['metadata']> = {}): Pod => ({ metadata: { name, ...extra }, spec: { containers: [{ name: 'c' }] } }) as Pod;
const gen = <T extends { metadata: { generation?: number } }>(o: T, generation: number): T => ({ ...o, metadata: { ...o.metadata, generation } });

describe('workload strategies: WarningsOnCreate and WarningsOnUpdate', () => {
  const rows: { name: string; got: () => string[]; want: string[] }[] = [
    { name: 'a pod named as a DNS label: no warning', got: () => podCreateWarnings(pod('web-1')), want: [] },
    { name: "a pod name with dots: the Pod's hostname warning", got: () => podCreateWarnings(pod('web.v1')), want: [podNameMsg + dots] },
    { name: 'a pod name longer than a DNS label: the length message', got: () => podCreateWarnings(pod('a'.repeat(64))), want: [`${podNameMsg}[must be no more than 63 characters]`] },
    { name: 'a pod with only a generateName (a plan): no name warning', got: () => podCreateWarnings(pod('', { generateName: 'web.' })), want: [] },
    { name: 'the name warning comes before the spec warnings', got: () => podCreateWarnings({ ...pod('a.b'), spec: { ...archSelector, containers: [] } } as Pod), want: [podNameMsg + dots, `spec.nodeSelector[beta.kubernetes.io/arch]: ${archMsg}`] },
    {
      name: 'Deployment create: the name, then the template under spec.template',
      got: () => deploymentCreateWarnings({ metadata: { name: 'web.v1' }, spec: { template } } as Deployment),
      want: [workloadNameMsg + dots, `spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${archMsg}`],
    },
    {
      name: 'Deployment update that keeps the generation: no warning',
      got: () => deploymentUpdateWarnings(gen({ metadata: { name: 'web.v1' }, spec: { template } } as Deployment, 2), gen({ metadata: { name: 'web.v1' } } as Deployment, 2)),
      want: [],
    },
    {
      name: 'Deployment update that moves the generation: the template again, no name warning',
      got: () => deploymentUpdateWarnings(gen({ metadata: { name: 'web.v1' }, spec: { template } } as Deployment, 3), gen({ metadata: { name: 'web.v1' } } as Deployment, 2)),
      want: [`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${archMsg}`],
    },
    { name: 'ReplicaSet create: the name warning', got: () => replicaSetCreateWarnings({ metadata: { name: 'rs.1' }, spec: {} } as ReplicaSet), want: [workloadNameMsg + dots] },
    {
      name: 'StatefulSet create: no name warning; claim templates at spec.volumeClaimTemplates[i]',
      got: () => statefulSetCreateWarnings({ metadata: { name: 'db.1' }, spec: { volumeClaimTemplates: [{ spec: { resources: { requests: { storage: '1500m' } } } }] } } as unknown as StatefulSet),
      want: ['spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer'],
    },
    {
      name: 'StatefulSet update: claim templates at spec.volumeClaimTemplates[i].Spec, generation or not; the value as String() prints it',
      got: () => {
        const ss = gen({ metadata: { name: 'db' }, spec: { template, volumeClaimTemplates: [{ spec: { resources: { limits: { storage: '0.5' } } } }] } } as unknown as StatefulSet, 1);
        return statefulSetUpdateWarnings(ss, ss);
      },
      want: ['spec.volumeClaimTemplates[0].Spec.resources.limits[storage]: fractional byte value "500m" is invalid, must be an integer'],
    },
    {
      name: 'DaemonSet update: the template only when its template generation moves',
      got: () => {
        const tg = (ds: DaemonSet) => Number(ds.metadata.annotations?.tg ?? 0);
        const ds = (n: number) => ({ metadata: { name: 'agent', annotations: { tg: String(n) } }, spec: { template } }) as unknown as DaemonSet;
        return [...daemonSetUpdateWarnings(ds(1), ds(1), tg), ...daemonSetUpdateWarnings(ds(2), ds(1), tg)];
      },
      want: [`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${archMsg}`],
    },
    {
      name: 'Job create: a very wide Indexed Job at spec, the template at spec.template',
      got: () => jobCreateWarnings({ metadata: { name: 'batch' }, spec: { completionMode: 'Indexed', completions: 100_001, parallelism: 10_001, template } } as Job),
      want: [
        'spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail',
        `spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${archMsg}`,
      ],
    },
    { name: 'Job create at the soft limits themselves: no warning', got: () => jobCreateWarnings({ metadata: { name: 'batch' }, spec: { completionMode: 'Indexed', completions: 100_000, parallelism: 10_000 } } as Job), want: [] },
    {
      name: 'CronJob create: the name, then the template under spec.jobTemplate.spec.template',
      got: () => cronJobCreateWarnings({ metadata: { name: 'nightly.1' }, spec: { schedule: '@daily', jobTemplate: { spec: { template } } } } as CronJob),
      want: [workloadNameMsg + dots, `spec.jobTemplate.spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${archMsg}`],
    },
    {
      name: 'CronJob update with TZ in the schedule: the spec.spec.schedule warning',
      got: () => {
        const cj = gen({ metadata: { name: 'nightly' }, spec: { schedule: 'TZ=UTC 0 0 * * *', jobTemplate: { spec: {} } } } as CronJob, 1);
        return cronJobUpdateWarnings(cj, cj);
      },
      want: ['cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details'],
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(r.got(), r.want));
});

// pkg/api/job/warnings_test.go TestWarningsForJobSpec, its case names and counts, through the Job
// strategy's WarningsOnCreate (a DNS-label name adds nothing) and the CronJob's under spec.jobTemplate.spec.
describe("job.WarningsForJobSpec: upstream's TestWarningsForJobSpec", () => {
  const validPodTemplate = { metadata: { labels: { a: 'b' } }, spec: { restartPolicy: 'OnFailure', dnsPolicy: 'ClusterFirst', containers: [{ name: 'abc', image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] } };
  const wide = 'In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail';
  const cases: { name: string; spec: Job['spec']; want: string[] }[] = [
    { name: 'valid NonIndexed', spec: { completionMode: 'NonIndexed', template: validPodTemplate }, want: [] },
    { name: 'NondIndexed with high completions and parallelism', spec: { completionMode: 'NonIndexed', template: validPodTemplate, parallelism: 1_000_000_000, completions: 1_000_000_000 }, want: [] },
    { name: 'invalid PodTemplate', spec: { completionMode: 'NonIndexed', template: { spec: { imagePullSecrets: [{ name: '' }] } } } as Job['spec'], want: ['spec.template.spec.imagePullSecrets[0].name: invalid empty name ""'] },
    { name: 'valid Indexed low completions low parallelism', spec: { completionMode: 'Indexed', completions: 10_000, parallelism: 10_000, template: validPodTemplate }, want: [] },
    { name: 'valid Indexed high completions low parallelism', spec: { completionMode: 'Indexed', completions: 1000_000_000, parallelism: 10_000, template: validPodTemplate }, want: [] },
    { name: 'valid Indexed medium completions medium parallelism', spec: { completionMode: 'Indexed', completions: 100_000, parallelism: 100_000, template: validPodTemplate }, want: [] },
    { name: 'invalid Indexed high completions high parallelism', spec: { completionMode: 'Indexed', completions: 100_001, parallelism: 10_001, template: validPodTemplate }, want: [`spec: ${wide}`] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(jobCreateWarnings({ metadata: { name: 'job' }, spec: c.spec } as Job), c.want);
      const under = (w: string) => w.replace(/^spec/, 'spec.jobTemplate.spec');
      assert.deepEqual(cronJobCreateWarnings({ metadata: { name: 'cron' }, spec: { schedule: '@daily', jobTemplate: { spec: c.spec } } } as CronJob), c.want.map(under), 'in a CronJob');
    });
  }
  it('a Job update warns only when its generation moves (WarningsOnUpdate)', () => {
    const job = (generation: number) => gen({ metadata: { name: 'job' }, spec: { completionMode: 'Indexed', completions: 100_001, parallelism: 10_001, template: validPodTemplate } } as Job, generation);
    assert.deepEqual(jobUpdateWarnings(job(1), job(1)), []);
    assert.deepEqual(jobUpdateWarnings(job(2), job(1)), [`spec: ${wide}`]);
  });
  it('a CronJob update: the job template only when the generation moves, the TZ warning whatever it does', () => {
    const cj = (generation: number, schedule: string) => gen({ metadata: { name: 'cron' }, spec: { schedule, jobTemplate: { spec: { completionMode: 'Indexed', completions: 100_001, parallelism: 10_001, template: validPodTemplate } } } } as CronJob, generation);
    const tz = 'cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details';
    assert.deepEqual(cronJobUpdateWarnings(cj(1, '@daily'), cj(1, '@daily')), []);
    assert.deepEqual(cronJobUpdateWarnings(cj(2, 'CRON_TZ=UTC @daily'), cj(1, 'CRON_TZ=UTC @daily')), [`spec.jobTemplate.spec: ${wide}`, tz]);
  });
});

describe('the pod strategy AppArmor annotation warning (applyAppArmorVersionSkew)', () => {
  const key = 'container.apparmor.security.beta.kubernetes.io/c';
  const msg = `metadata.annotations[${key}]: deprecated since v1.30; use the "appArmorProfile" field instead`;
  const annotated = (value: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}): Pod =>
    ({ metadata: { name: 'p', annotations: { [key]: value } }, spec: { containers: [{ name: 'c', ...container }], ...spec } }) as Pod;
  const rows: { name: string; pod: Pod; want: string[] }[] = [
    { name: 'an annotation with no field: warned', pod: annotated('unconfined'), want: [msg] },
    { name: 'the same profile as the pod-level field: not warned', pod: annotated('unconfined', { securityContext: { appArmorProfile: { type: 'Unconfined' } } }), want: [] },
    { name: 'another profile than the pod-level field: warned', pod: annotated('runtime/default', { securityContext: { appArmorProfile: { type: 'Unconfined' } } }), want: [msg] },
    { name: 'a localhost profile equal to the pod-level one: not warned', pod: annotated('localhost/p1', { securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'p1' } } }), want: [] },
    { name: 'the container has its own field: not warned', pod: annotated('unconfined', {}, { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }), want: [] },
    { name: 'a value that stands for no profile: warned', pod: annotated('localhost/'), want: [msg] },
    { name: 'a Windows pod: not looked at', pod: annotated('unconfined', { os: { name: 'windows' } }), want: [] },
    { name: 'an annotation for no container of the pod: not warned', pod: { metadata: { name: 'p', annotations: { [key]: 'unconfined' } }, spec: { containers: [{ name: 'other' }] } } as Pod, want: [] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(applyAppArmorVersionSkew(structuredClone(r.pod)), r.want));
});
