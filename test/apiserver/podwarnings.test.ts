// Pod warnings over HTTPS, as kube-apiserver 1.32 sends them: `Warning: 299 - "<text>"` headers
// from the strategies (api/workloadwarnings.ts) on a pod create (none on a pod update: the pod
// strategy's WarningsOnUpdate is nil), on a workload's create and on an update that moves its
// generation, ahead of Pod Security's; job.WarningsForJobSpec's own warning on Jobs and CronJobs;
// and the real kubectl printing them on apply.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Response } from './client.js';
import { kubectlFound, kubectlSkip, useTestServer } from './kubectlserver.js';

/** The Warning headers' texts in order (node joins repeated headers with ", "). */
function warnings(r: Response): string[] {
  const raw = r.headers['warning'];
  const joined = Array.isArray(raw) ? raw.join(', ') : (raw ?? '');
  return [...joined.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

const arch = 'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead';
const limit = 'spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer';
const request = 'spec.containers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer';
const env = 'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply';
const podSpec = {
  nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' },
  containers: [{ name: 'c', image: 'busybox', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], resources: { limits: { memory: '100m' } } }],
};
const pod = (name: string, spec: Record<string, unknown> = podSpec) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
const labels = { app: 'web' };
const deployment = (name: string, template: Record<string, unknown> = { metadata: { labels }, spec: podSpec }) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: { replicas: 1, selector: { matchLabels: labels }, template },
});

describe('pod warnings in Warning headers', () => {
  const t = useTestServer('bulkhead-podwarn-');

  it('a pod create: 299 warnings in upstream order (spec, then containers), the defaulted request included', async () => {
    const r = await t.admin().request('POST', '/api/v1/namespaces/default/pods', pod('warned'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [arch, limit, request, env]);
    assert.match(String(r.headers['warning']), /^299 - "spec\.nodeSelector\[beta\.kubernetes\.io\/arch\]: deprecated since v1\.14; use \\"kubernetes\.io\/arch\\" instead"/);
  });

  it("a pod name that is not a DNS label: the Pod's hostname warning first", async () => {
    const r = await t.admin().request('POST', '/api/v1/namespaces/default/pods', pod('web.v1'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), ["metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]", arch, limit, request, env]);
  });

  it('a pod refused by validation: no strategy warning', async () => {
    const r = await t.admin().request('POST', '/api/v1/namespaces/default/pods', pod('bad', { ...podSpec, containers: [{ ...podSpec.containers[0], name: 'C' }] }));
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(warnings(r), []);
  });

  it("the strategy's warnings come before Pod Security's", async () => {
    const ns = await t.admin().request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'strict', labels: { 'pod-security.kubernetes.io/warn': 'restricted' } } });
    assert.equal(ns.status, 201, ns.text);
    const r = await t.admin().request('POST', '/api/v1/namespaces/strict/pods', pod('warned'));
    assert.equal(r.status, 201, r.text);
    const w = warnings(r);
    assert.deepEqual(w.slice(0, 4), [arch, limit, request, env]);
    assert.equal(w.length, 5);
    assert.match(w[4]!, /^would violate PodSecurity "restricted:latest": /);
  });

  it('a pod update draws none (WarningsOnUpdate is nil for pods), though the spec still has all of them', async () => {
    const got = await t.admin().request('GET', '/api/v1/namespaces/default/pods/warned');
    const p = got.json();
    p.spec.activeDeadlineSeconds = 600;
    p.spec.containers[0].image = 'busybox:1.36';
    const r = await t.admin().request('PUT', '/api/v1/namespaces/default/pods/warned', p);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().spec.activeDeadlineSeconds, 600);
    assert.deepEqual(warnings(r), []);
  });

  const deployments = '/apis/apps/v1/namespaces/default/deployments';
  const template = (path: string) => `spec.template.${path}`;

  it("a Deployment create: the name warning, then its template's under spec.template", async () => {
    const r = await t.admin().request('POST', deployments, deployment('web.v1'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
      template(arch),
      template(limit),
      template(env),
    ]);
  });

  it('a Deployment update: the template warnings again when the generation moves, none when it does not', async () => {
    const d = (await t.admin().request('GET', `${deployments}/web.v1`)).json();
    d.metadata.labels = { tier: 'front' };
    const same = await t.admin().request('PUT', `${deployments}/web.v1`, d);
    assert.equal(same.status, 200, same.text);
    assert.equal(same.json().metadata.generation, d.metadata.generation);
    assert.deepEqual(warnings(same), []);
    const moved = same.json();
    moved.spec.template.spec.terminationGracePeriodSeconds = 5;
    const r = await t.admin().request('PUT', `${deployments}/web.v1`, moved);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().metadata.generation, d.metadata.generation + 1);
    assert.deepEqual(warnings(r), [template(arch), template(limit), template(env)]);
  });

  it('a Job create: its template under spec.template', async () => {
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' }, spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } };
    const r = await t.admin().request('POST', '/apis/batch/v1/namespaces/default/jobs', job);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [template(arch), template(limit), template(env)]);
  });

  // job.WarningsForJobSpec ahead of the template's; suspended, so no pod is made.
  it('a wide Indexed Job: the completions warning at spec on create and on an update that moves its generation, none on one that does not', async () => {
    const wide = 'spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail';
    const spec = { suspend: true, completionMode: 'Indexed', completions: 100_001, parallelism: 10_001, template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } };
    const jobs = '/apis/batch/v1/namespaces/default/jobs';
    const r = await t.admin().request('POST', jobs, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'wide' }, spec });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [wide]);
    const job = r.json();
    job.metadata.labels = { ...job.metadata.labels, tier: 'batch' };
    const same = await t.admin().request('PUT', `${jobs}/wide`, job);
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(warnings(same), []);
    const moved = same.json();
    moved.spec.parallelism = 10_002;
    const u = await t.admin().request('PUT', `${jobs}/wide`, moved);
    assert.equal(u.status, 200, u.text);
    assert.equal(u.json().metadata.generation, 2);
    assert.deepEqual(warnings(u), [wide]);
  });

  it('a CronJob create: the name, then its job template under spec.jobTemplate.spec', async () => {
    const cj = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly.1' }, spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } } } };
    const r = await t.admin().request('POST', '/apis/batch/v1/namespaces/default/cronjobs', cj);
    assert.equal(r.status, 201, r.text);
    const under = (w: string) => `spec.jobTemplate.spec.template.${w}`;
    assert.deepEqual(warnings(r), ['metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]', under(arch), under(limit), under(env)]);
  });

  it('kubectl apply prints them', { skip: !kubectlFound && kubectlSkip }, async () => {
    const file = join(t.dir(), 'warned.yaml');
    writeFileSync(file, JSON.stringify(pod('applied')));
    const r = await t.kubectl('apply', '-f', file);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /pod\/applied created/);
    for (const w of [arch, limit, request, env]) assert.ok(r.stderr.includes(`Warning: ${w}\n`), `${w} in:\n${r.stderr}`);
  });
});
