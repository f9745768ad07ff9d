// `bulkhead plan` and the kinds besides pods (src/plan/workloads.ts): a Job or a CronJob is
// defaulted and validated as the API server stores it and expanded into the pods its controller
// creates first, which then go through pod admission in document order; ConfigMaps, Secrets,
// ServiceAccounts, Services, Jobs, CronJobs, Roles and RoleBindings are charged against their namespace's object-count quotas
// as the server's strategies charge them, and refused with the server's 403 or 422 wording.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { plan, type PlanObject } from '../../src/plan/engine.js';
import { derivedObjectUID } from '../../src/plan/node.js';
import { renderPlanTable } from '../../src/plan/table.js';
import { parseEvictionThresholds } from '../../src/policy/eviction.js';

const node = { memoryBytes: 16n << 30n, milliCPU: 4000n, cgroupVersion: 2 as const, cgroupDriver: 'cgroupfs' as const };
const objects = (...os: KubeObject[]): PlanObject[] => os.map((object, i) => ({ object, source: { file: 'in.yaml', document: i + 1 } }));
// 2026-11-26T12:00:00Z, a Thursday.
const now = new Date(Date.UTC(2026, 10, 26, 12, 0, 0));
const run = (...os: KubeObject[]) => plan(objects(...os), { node, gates: defaultFeatureGates, podSecurity: {}, evictionHard: parseEvictionThresholds('memory.available<100Mi'), now });

const template = (restartPolicy = 'Never') => ({ spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox', resources: { requests: { memory: '64Mi' } } }] } });
const job = (name: string, spec: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: template(), ...spec } }) as KubeObject;
const cronJob = (name: string, schedule: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule, jobTemplate: { spec: { template: template('OnFailure') } }, ...spec } }) as KubeObject;
const quota = (hard: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard } }) as KubeObject;
const configMap = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }) as KubeObject;
const labels = { app: 'a' };
const G = 'rbac.authorization.k8s.io';
const appsTemplate = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { memory: '32Mi' } } }] } };
const apps = (kind: string, name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'apps/v1', kind, metadata: { name }, spec: { selector: { matchLabels: labels }, template: appsTemplate, ...spec } }) as KubeObject;
const pod = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }) as KubeObject;

// The Deployment controller's ReplicaSet name for appsTemplate: `<deployment>-<pod-template-hash>`.
const webRS = (() => {
  const d = run(apps('Deployment', 'web')).pods[0]!;
  return d.owner!.split('ReplicaSet ')[1]!;
})();

describe('plan: a workload becomes the pods its controllers keep running', () => {
  const rows: { name: string; input: KubeObject[]; pods: string[]; owners?: string[] }[] = [
    { name: 'a Job with no counts: one pod', input: [job('once')], pods: ['once-#1'], owners: ['Job once'] },
    { name: 'a Job runs parallelism pods at once', input: [job('wide', { parallelism: 3, completions: 10 })], pods: ['wide-#1', 'wide-#2', 'wide-#3'] },
    { name: 'never more pods than completions', input: [job('few', { parallelism: 5, completions: 2 })], pods: ['few-#1', 'few-#2'] },
    { name: 'parallelism 0 pauses the job', input: [job('paused', { parallelism: 0 })], pods: [] },
    { name: 'an Indexed Job: a pod per index from 0, named <job>-<index>-', input: [job('shards', { completionMode: 'Indexed', completions: 3, parallelism: 2 })], pods: ['shards-0-#1', 'shards-1-#2'] },
    { name: 'a suspended Job creates none', input: [job('later', { suspend: true })], pods: [] },
    {
      name: "a CronJob's next run: the Job named for the scheduled minute since the epoch",
      input: [cronJob('nightly', '0 3 * * *')],
      // The next 03:00 UTC after 2026-11-26T12:00Z is 2026-11-27T03:00Z.
      pods: [`nightly-${Date.UTC(2026, 10, 27, 3) / 60000}-#1`],
      owners: [`CronJob nightly → Job nightly-${Date.UTC(2026, 10, 27, 3) / 60000}`],
    },
    { name: 'a suspended CronJob runs nothing', input: [cronJob('off', '* * * * *', { suspend: true })], pods: [] },
    { name: 'a Deployment: its ReplicaSet\'s replicas pods', input: [apps('Deployment', 'web', { replicas: 3 })], pods: [1, 2, 3].map((n) => `${webRS}-#${n}`), owners: [1, 2, 3].map(() => `Deployment web → ReplicaSet ${webRS}`) },
    { name: 'a Deployment of 0 replicas runs none', input: [apps('Deployment', 'idle', { replicas: 0 })], pods: [] },
    { name: 'a ReplicaSet: its replicas pods', input: [apps('ReplicaSet', 'rs', { replicas: 2 })], pods: ['rs-#1', 'rs-#2'], owners: ['ReplicaSet rs', 'ReplicaSet rs'] },
    { name: 'a StatefulSet: stable names from ordinal 0', input: [apps('StatefulSet', 'db', { replicas: 2 })], pods: ['db-0', 'db-1'], owners: ['StatefulSet db', 'StatefulSet db'] },
    { name: 'a StatefulSet starts at ordinals.start', input: [apps('StatefulSet', 'db', { replicas: 2, ordinals: { start: 5 } })], pods: ['db-5', 'db-6'] },
    { name: 'a DaemonSet: one pod for the node', input: [apps('DaemonSet', 'agent')], pods: ['agent-#1'], owners: ['DaemonSet agent'] },
    { name: 'a bare pod keeps its own name and has no owner', input: [pod('bare')], pods: ['bare'], owners: [undefined as unknown as string] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = run(...r.input);
      assert.deepEqual(got.rejectedObjects, []);
      assert.deepEqual(got.pods.map((p) => p.name), r.pods);
      assert.ok(got.pods.every((p) => p.admitted), JSON.stringify(got.pods.map((p) => p.rejections)));
      if (r.owners) assert.deepEqual(got.pods.map((p) => p.owner), r.owners);
    });
  }

  it("a Job's pods carry what the controller gives them: owner, selector labels, tracking finalizer", () => {
    const p = run(job('report')).pods[0]!.object!;
    const uid = derivedObjectUID('Job', 'default', 'report');
    assert.equal(p.metadata.generateName, 'report-');
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'report', uid, controller: true, blockOwnerDeletion: true }]);
    assert.equal(p.metadata.labels?.['batch.kubernetes.io/controller-uid'], uid);
    assert.equal(p.metadata.labels?.['job-name'], 'report');
    assert.deepEqual(p.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
  });

  it("a Deployment's pods carry the pod-template-hash of their ReplicaSet, which the Deployment owns", () => {
    const p = run(apps('Deployment', 'web')).pods[0]!.object!;
    const hash = webRS.slice('web-'.length);
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/, 'rand.SafeEncodeString alphabet');
    assert.equal(p.metadata.labels?.['pod-template-hash'], hash);
    assert.equal(p.metadata.generateName, `${webRS}-`);
    assert.deepEqual(p.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['ReplicaSet', webRS, true]]);
  });

  it("a StatefulSet's pods carry their identity: hostname, the pod-name and pod-index labels", () => {
    const p = run(apps('StatefulSet', 'db', { replicas: 2, serviceName: 'db' })).pods[1]!.object!;
    assert.equal(p.spec.hostname, 'db-1');
    assert.equal(p.spec.subdomain, 'db');
    assert.equal(p.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'db-1');
    assert.equal(p.metadata.labels?.['apps.kubernetes.io/pod-index'], '1');
  });

  it("a DaemonSet's pod tolerates what upstream's daemon pods tolerate", () => {
    const p = run(apps('DaemonSet', 'agent')).pods[0]!.object!;
    const keys = (p.spec.tolerations ?? []).map((t) => t.key);
    for (const k of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'node.kubernetes.io/memory-pressure', 'node.kubernetes.io/disk-pressure', 'node.kubernetes.io/pid-pressure', 'node.kubernetes.io/unschedulable']) assert.ok(keys.includes(k), k);
  });

  it('a StatefulSet with volumeClaimTemplates creates no pod, and the plan says why', () => {
    const got = run(apps('StatefulSet', 'db', { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] }));
    assert.deepEqual(got.pods, []);
    assert.deepEqual(got.objectWarnings?.map((w) => [w.kind, w.name, w.message]), [['StatefulSet', 'db', 'its pods would not be created: volumeClaimTemplates need PersistentVolumeClaims, which Bulkhead does not serve']]);
  });

  it('--usage names a controller\'s pods as the plan numbers them, and the ranking uses their priority', () => {
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 } as KubeObject;
    const highWeb = apps('Deployment', 'web', { template: { ...appsTemplate, spec: { ...appsTemplate.spec, priorityClassName: 'high' } } });
    const web = `default/${run(pc, highWeb).pods[0]!.name}`;
    // Both exceed their requests; the web pod by more, but its priority is higher.
    const usage = new Map([[web, 300n << 20n], ['default/batch-#1', 100n << 20n]]);
    const got = plan(objects(pc, highWeb, job('batch')), { node, gates: defaultFeatureGates, podSecurity: {}, evictionHard: parseEvictionThresholds('memory.available<100Mi'), now, usage });
    assert.deepEqual(got.evictionOrder, ['default/batch-#1', web]);
    assert.equal(got.memory?.workingSetBytes, String(400 << 20));
  });

  it('the table names the owner after the source', () => {
    assert.match(renderPlanTable(run(job('report'))), /^default\/report-#1 .* in\.yaml#1 \(Job report\)$/m);
  });
});

describe('plan: quotas and validation of the other kinds, as the server admits them', () => {
  const rows: { name: string; input: KubeObject[]; refused: { kind: string; name: string; message: string; errors?: string[] }[]; pods?: [string, boolean][]; used?: Record<string, string> }[] = [
    {
      name: 'count/jobs.batch: the Job over the limit is refused and creates no pods',
      input: [quota({ 'count/jobs.batch': '1' }), job('a'), job('b')],
      refused: [{ kind: 'Job', name: 'b', message: 'jobs.batch "b" is forbidden: exceeded quota: q, requested: count/jobs.batch=1, used: count/jobs.batch=1, limited: count/jobs.batch=1' }],
      pods: [['a-#1', true]],
      used: { 'count/jobs.batch': '1' },
    },
    {
      name: 'the legacy configmaps name and count/configmaps are both charged',
      input: [quota({ configmaps: '1', 'count/configmaps': '5' }), configMap('one'), configMap('two')],
      refused: [{ kind: 'ConfigMap', name: 'two', message: 'configmaps "two" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=1, limited: configmaps=1' }],
      used: { configmaps: '1', 'count/configmaps': '1' },
    },
    {
      name: "a Job's pods are charged against the pods quota in document order",
      input: [quota({ pods: '2' }), job('wide', { parallelism: 3 }), pod('late')],
      refused: [],
      pods: [['wide-#1', true], ['wide-#2', true], ['wide-#3', false], ['late', false]],
      used: { pods: '2' },
    },
    {
      name: "a CronJob's run charges its Job too",
      input: [quota({ 'count/cronjobs.batch': '1', 'count/jobs.batch': '1' }), cronJob('c', '@hourly')],
      refused: [],
      used: { 'count/cronjobs.batch': '1', 'count/jobs.batch': '1' },
    },
    {
      name: 'a Deployment is charged count/deployments.apps and its ReplicaSet count/replicasets.apps',
      input: [quota({ 'count/deployments.apps': '5', 'count/replicasets.apps': '1' }), apps('Deployment', 'a'), apps('Deployment', 'b', { template: { ...appsTemplate, metadata: { labels, annotations: { v: '2' } } } })],
      refused: [],
      used: { 'count/deployments.apps': '2', 'count/replicasets.apps': '1' },
    },
    {
      name: 'a Deployment whose selector does not match its template is the 422',
      input: [apps('Deployment', 'bad', { selector: { matchLabels: { app: 'other' } } })],
      refused: [{ kind: 'Deployment', name: 'bad', message: 'Deployment.apps "bad" is invalid', errors: ['spec.template.metadata.labels'] }],
    },
    {
      name: 'an invalid Job is the 422 with its field paths',
      input: [job('bad', { template: template('Always') })],
      refused: [{ kind: 'Job', name: 'bad', message: 'Job.batch "bad" is invalid', errors: ['spec.template.spec.restartPolicy'] }],
    },
    {
      name: 'an invalid CronJob schedule is the 422',
      input: [cronJob('bad', 'every day')],
      refused: [{ kind: 'CronJob', name: 'bad', message: 'CronJob.batch "bad" is invalid', errors: ['spec.schedule'] }],
    },
    {
      name: "a Secret's stringData is validated as data",
      input: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { 'bad key': 'x' } } as KubeObject],
      refused: [{ kind: 'Secret', name: 's', message: 'Secret "s" is invalid', errors: ['data[bad key]'] }],
    },
    {
      name: 'Services: defaulted, validated and charged to services and services.nodeports (no allocation)',
      input: [
        quota({ services: '5', 'services.nodeports': '1' }),
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: labels, ports: [{ port: 80 }] } } as KubeObject,
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] } } as KubeObject,
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'Bad' }, spec: { ports: [{ port: 80 }] } } as KubeObject,
      ],
      refused: [
        { kind: 'Service', name: 'np', message: 'services "np" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1' },
        { kind: 'Service', name: 'Bad', message: 'Service "Bad" is invalid', errors: ['metadata.name'] },
      ],
      used: { services: '1' },
    },
    {
      name: 'RBAC kinds beside pods are taken, validated as the RBAC strategies do (rbac validation.go), Roles and RoleBindings charged to their count/ quotas',
      input: [
        quota({ 'count/roles.rbac.authorization.k8s.io': '1', 'count/rolebindings.rbac.authorization.k8s.io': '5' }),
        pod('web'),
        { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } as KubeObject,
        { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'second' }, rules: [] } as KubeObject,
        { apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'reader' }, subjects: [{ kind: 'User', name: 'bob' }], roleRef: { kind: 'Role', name: 'reader' } } as KubeObject,
        { apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: 'urls', namespace: 'ignored' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] } as KubeObject,
        { apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'bad' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }], roleRef: { kind: 'Role', name: 'reader' } } as KubeObject,
        { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'urls' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] } as KubeObject,
      ],
      refused: [
        { kind: 'Role', name: 'second', message: 'roles.rbac.authorization.k8s.io "second" is forbidden: exceeded quota: q, requested: count/roles.rbac.authorization.k8s.io=1, used: count/roles.rbac.authorization.k8s.io=1, limited: count/roles.rbac.authorization.k8s.io=1' },
        { kind: 'ClusterRoleBinding', name: 'bad', message: 'ClusterRoleBinding.rbac.authorization.k8s.io "bad" is invalid', errors: ['roleRef.kind', 'subjects[0].namespace'] },
        { kind: 'Role', name: 'urls', message: 'Role.rbac.authorization.k8s.io "urls" is invalid', errors: ['rules[0].nonResourceURLs'] },
      ],
      pods: [['web', true]],
      used: { 'count/roles.rbac.authorization.k8s.io': '1', 'count/rolebindings.rbac.authorization.k8s.io': '1' },
    },
    {
      name: 'a valid Secret, ConfigMap and ServiceAccount are taken',
      input: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { password: 'x' } } as KubeObject, configMap('c'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } } as KubeObject],
      refused: [],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = run(...r.input);
      assert.deepEqual(
        got.rejectedObjects.map((o) => ({ kind: o.kind, name: o.name, message: o.message, ...(o.errors.length ? { errors: o.errors.map((e) => e.field) } : {}) })),
        r.refused,
      );
      if (r.pods) assert.deepEqual(got.pods.map((p) => [p.name, p.admitted]), r.pods);
      if (r.used) assert.deepEqual(got.quotas[0]!.used, Object.fromEntries(Object.entries({ ...Object.fromEntries(Object.keys(got.quotas[0]!.hard).map((k) => [k, '0'])), ...r.used }).sort()));
    });
  }
});
