// The real kubectl against a real Bulkhead API server (HTTPS, bearer token, SQLite store).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectlAvailable, startCluster, type TestCluster } from './cluster.js';
import { pollUntil } from './poll.js';

const missing = kubectlAvailable();
if (missing) console.error(`\n*** SKIPPING kubectl end-to-end tests: ${missing} ***\n`);

const pod = (name: string, extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: {app: ${name}}
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "3600"]
${extra}`;

describe('kubectl against bulkhead server', { skip: missing }, () => {
  let c: TestCluster;
  before(async () => {
    c = await startCluster();
  });
  after(async () => {
    await c?.stop();
  });

  const ok = async (args: string[], input?: string) => {
    const r = await c.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
    return r;
  };

  it('version and api-resources come from the server', async () => {
    assert.match((await ok(['version'])).stdout, /Server Version: v1\.32\./);
    const r = (await ok(['api-resources']));
    for (const line of [/^pods\s+po\s+v1\s+true\s+Pod$/m, /^services\s+svc\s+v1\s+true\s+Service$/m, /^resourcequotas\s+quota\s+v1\s+true\s+ResourceQuota$/m, /^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease$/m]) {
      assert.match(r.stdout, line);
    }
  });

  it('create -f, get, -o wide with QoS and OOM kill mode, jsonpath qosClass', async () => {
    const f = c.file('web.yaml', pod('web', '    oomKillMode: Single\n    resources: {limits: {cpu: 500m, memory: 128Mi}}\n'));
    assert.equal((await ok(['create', '-f', f])).stdout.trim(), 'pod/web created');
    assert.match((await ok(['get', 'pods'])).stdout, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nweb\s+0\/1\s+Pending\s+0\s+\d+s\n$/);
    const wide = (await ok(['get', 'pod', 'web', '-o', 'wide'])).stdout;
    assert.match(wide, /QOS\s+OOM KILL MODE/);
    assert.match(wide, /Guaranteed\s+Single/);
    assert.equal((await ok(['get', 'pod', 'web', '-o', "jsonpath={.status.qosClass}"])).stdout, 'Guaranteed');
    const y = (await ok(['get', 'pod', 'web', '-o', 'yaml'])).stdout;
    assert.match(y, /requests:\n\s+cpu: 500m\n\s+memory: 128Mi/);
    assert.match(y, /oomKillMode: Single/);
    assert.match(y, /uid: [0-9a-f-]{36}/);
  });

  it('create of an existing pod is AlreadyExists', async () => {
    const r = await c.kubectl(['create', '-f', c.file('web2.yaml', pod('web'))]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Error from server \(AlreadyExists\): error when creating ".*web2.yaml": pods "web" already exists/);
  });

  it('get -A shows the namespace column', async () => {
    assert.match((await ok(['get', 'pods', '-A'])).stdout, /^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\ndefault\s+web\s+/);
  });

  it('apply -f twice with a change, then unchanged', async () => {
    const v1 = c.file('app-v1.yaml', pod('applied').replace('labels: {app: applied}', 'labels: {app: applied, tier: v1}'));
    assert.equal((await ok(['apply', '-f', v1])).stdout.trim(), 'pod/applied created');
    const v2 = c.file('app-v2.yaml', pod('applied').replace('labels: {app: applied}', 'labels: {app: applied, tier: v2}').replace('busybox:1.36', 'busybox:1.37'));
    assert.equal((await ok(['apply', '-f', v2])).stdout.trim(), 'pod/applied configured');
    assert.equal((await ok(['get', 'pod', 'applied', '-o', 'jsonpath={.metadata.labels.tier} {.spec.containers[0].image}'])).stdout, 'v2 busybox:1.37');
    assert.equal((await ok(['apply', '-f', v2])).stdout.trim(), 'pod/applied unchanged');
  });

  it('apply --server-side creates and re-applies', async () => {
    const f = c.file('ssa.yaml', pod('ssa'));
    assert.equal((await ok(['apply', '--server-side', '-f', f])).stdout.trim(), 'pod/ssa serverside-applied');
    const f2 = c.file('ssa2.yaml', pod('ssa').replace('labels: {app: ssa}', 'labels: {app: ssa, extra: yes-please}'));
    assert.equal((await ok(['apply', '--server-side', '-f', f2])).stdout.trim(), 'pod/ssa serverside-applied');
    assert.equal((await ok(['get', 'pod', 'ssa', '-o', 'jsonpath={.metadata.labels.extra}'])).stdout, 'yes-please');
    const again = (await ok(['apply', '--server-side', '-f', f]));
    assert.equal(again.stdout.trim(), 'pod/ssa serverside-applied');
    assert.equal((await ok(['get', 'pod', 'ssa', '-o', 'jsonpath={.metadata.labels.extra}'])).stdout, '', 'a label the manager stopped applying is removed');
  });

  it('describe pod shows QoS class and the container resources', async () => {
    const d = (await ok(['describe', 'pod', 'web'])).stdout;
    assert.match(d, /^Name:\s+web$/m);
    assert.match(d, /^QoS Class:\s+Guaranteed$/m);
    assert.match(d, /Limits:\n\s+cpu:\s+500m\n\s+memory:\s+128Mi/);
  });

  it('explain knows the design fields', async () => {
    const e = (await ok(['explain', 'pod.spec.containers.oomKillMode'])).stdout;
    assert.match(e, /FIELD: oomKillMode <string>/);
    const u = (await ok(['explain', 'pod.spec.containers.securityContext.ulimits'])).stdout;
    assert.match(u, /FIELD: ulimits <\[\]Ulimit>/);
  });

  it('strict field validation refuses unknown fields with 400', async () => {
    const r = await c.kubectl(['create', '-f', c.file('bogus.yaml', pod('bogus', '    bogus: 1\n'))]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Error from server \(BadRequest\): error when creating ".*bogus.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers\[0\].bogus"/);
  });

  it('validation errors come back as 422 with field paths', async () => {
    const r = await c.kubectl(['create', '-f', c.file('bad.yaml', pod('bad', '    resources: {requests: {cpu: "2"}, limits: {cpu: "1"}}\n'))]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /The Pod "bad" is invalid: spec\.containers\[0\]\.resources\.requests: Invalid value: "2": must be less than or equal to cpu limit of 1/);
  });

  it('the quota design scenario 1: four quotas, pods admitted and refused, describe shows scopes and usage', async () => {
    const scenario = (await ok(['create', '-f', 'examples/quota-scopes.yaml']));
    assert.match(scenario.stdout, /pod\/web-1 created/);
    const overflow = await c.kubectl(['create', '-f', 'examples/refused/quota-scopes-overflow.yaml']);
    assert.equal(overflow.code, 1);
    assert.match(overflow.stdout, /pod\/scratch-2 created/);
    assert.match(overflow.stderr, /Error from server \(Forbidden\): error when creating "examples\/refused\/quota-scopes-overflow.yaml": pods "scratch-3" is forbidden: exceeded quota: quota-best-effort, requested: pods=1, used: pods=2, limited: pods=2/);
    assert.match(overflow.stderr, /pods "build-2" is forbidden: exceeded quota: quota-terminating, requested: limits.memory=768Mi, used: limits.memory=512Mi, limited: limits.memory=1Gi/);
    assert.match(overflow.stderr, /pods "web-2" is forbidden: failed quota: quota-longrunning: must specify limits.cpu for: web; limits.memory for: web/);
    const d = (await ok(['describe', 'quota', 'quota-terminating', '-n', 'quota-demo'])).stdout;
    assert.match(d, /^Scopes:\s+NotBestEffort, Terminating$/m);
    assert.match(d, /^limits\.memory\s+512Mi\s+1Gi$/m);
    assert.match(d, /^pods\s+1\s+2$/m);
    const ns = (await ok(['describe', 'namespace', 'quota-demo'])).stdout;
    assert.match(ns, /^Status:\s+Active$/m);
    assert.match(ns, /Name:\s+quota-best-effort/);
  });

  it('Pod Security baseline refuses ulimits with the Kubernetes message', async () => {
    const r = await c.kubectl(['create', '-f', 'examples/refused/ulimits-baseline.yaml']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Error from server \(Forbidden\): error when creating "examples\/refused\/ulimits-baseline.yaml": pods "elasticsearch" is forbidden: violates PodSecurity "baseline:latest": ulimits \(container "elasticsearch" must not set securityContext\.ulimits\)/);
  });

  it('kubectl label --overwrite ns … enforce=restricted warns about the pods already there (upstream ValidateNamespace)', async () => {
    (await ok(['create', 'namespace', 'psa-demo']));
    (await ok(['create', 'deployment', 'nginx', '--image=nginx', '--replicas=3', '-n', 'psa-demo']));
    (await ok(['create', '-n', 'psa-demo', '-f', c.file('psa-debug.yaml', pod('debug', '    securityContext: {privileged: true}\n'))]));
    const names = await pollUntil('the Deployment\'s 3 pods', async () => {
      const got = (await ok(['get', 'pods', '-n', 'psa-demo', '-l', 'app=nginx', '-o', 'name'])).stdout.trim().split('\n').filter(Boolean);
      return got.length === 3 ? got.map((n) => n.replace(/^pod\//, '')).sort() : undefined;
    }, { timeoutMs: 30_000, intervalMs: 200, context: () => '' });
    const r = await ok(['label', '--overwrite', 'ns', 'psa-demo', 'pod-security.kubernetes.io/enforce=restricted']);
    assert.equal(r.stdout.trim(), 'namespace/psa-demo labeled');
    assert.equal(r.stderr, [
      'Warning: existing pods in namespace "psa-demo" violate the new PodSecurity enforce level "restricted:latest"',
      'Warning: debug: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      `Warning: ${names[0]} (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile`,
      '',
    ].join('\n'));
    // The same labels again: the enforce policy is unchanged, so no dry run and no warnings.
    const again = await ok(['label', '--overwrite', 'ns', 'psa-demo', 'pod-security.kubernetes.io/enforce=restricted']);
    assert.equal(again.stderr, '');
  });

  it('apply of a Deployment whose template violates the warn level prints the PodSecurity warning and creates it', async () => {
    const f = c.file('psa-deploy.yaml', `apiVersion: v1
kind: Namespace
metadata:
  name: psa-warn
  labels: {pod-security.kubernetes.io/warn: restricted}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: psa-warn}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: busybox:1.36
        command: ["sleep", "3600"]
`);
    const r = await ok(['apply', '-f', f]);
    assert.equal(r.stdout, 'namespace/psa-warn created\ndeployment.apps/web created\n');
    assert.equal(
      r.stderr,
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
    );
    assert.equal((await ok(['get', 'deployment', 'web', '-n', 'psa-warn', '-o', 'jsonpath={.metadata.name}'])).stdout, 'web');
  });

  it('get -w prints the pod and follows changes', async () => {
    const w = c.kubectlAsync(['get', 'pods', '-w', '-l', 'app=watched']);
    const f = c.file('watched.yaml', pod('watched'));
    await new Promise((r) => setTimeout(r, 1500));
    (await ok(['create', '-f', f]));
    (await ok(['label', 'pod', 'watched', 'seen=yes']));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (w.output().match(/^watched\s/gm) ?? []).length < 2) await new Promise((r) => setTimeout(r, 100));
    w.kill();
    const out = (await w.done).stdout;
    assert.match(out, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/m);
    assert.ok((out.match(/^watched\s+0\/1\s+Pending/gm) ?? []).length >= 2, out);
  });

  it('delete removes an unscheduled pod at once', async () => {
    assert.equal((await ok(['delete', 'pod', 'web'])).stdout.trim(), 'pod "web" deleted');
    const r = await c.kubectl(['get', 'pod', 'web']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Error from server \(NotFound\): pods "web" not found/);
  });

  it('deleting a namespace deletes its contents, then the namespace', async () => {
    (await ok(['create', '-f', c.file('doomed-ns.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: doomed}\n')]));
    (await ok(['create', '-f', c.file('doomed.yaml', pod('inside')), '-n', 'doomed']));
    (await ok(['delete', 'namespace', 'doomed', '--timeout=30s']));
    assert.match((await c.kubectl(['get', 'namespace', 'doomed'])).stderr, /namespaces "doomed" not found/);
  });

  it("kubectl apply -f examples/ (the README's suggestion) applies every example", async () => {
    const r = await ok(['apply', '-f', 'examples/']);
    for (const line of ['namespace/qos', 'pod/guaranteed', 'pod/burstable', 'pod/besteffort', 'namespace/shop', 'pod/web-and-db', 'namespace/search', 'pod/elasticsearch', 'namespace/store', 'deployment.apps/web', 'job.batch/report']) {
      assert.match(r.stdout, new RegExp(`^${line} (created|configured|unchanged)$`, 'm'));
    }
    assert.equal((await ok(['get', 'pod', 'burstable', '-n', 'qos', '-o', 'jsonpath={.status.qosClass}'])).stdout, 'Burstable');
  });

  it('typed generators that send protobuf: kubectl create namespace and kubectl create quota', async () => {
    assert.equal((await ok(['create', 'namespace', 'typed', '--dry-run=none'])).stdout.trim(), 'namespace/typed created');
    const q = await ok(['create', 'quota', 'typed-q', '-n', 'typed', '--hard=pods=3,requests.cpu=2', '--scopes=NotTerminating']);
    assert.equal(q.stdout.trim(), 'resourcequota/typed-q created');
    const got = JSON.parse((await ok(['get', 'quota', 'typed-q', '-n', 'typed', '-o', 'json'])).stdout);
    assert.deepEqual(got.spec, { hard: { pods: '3', 'requests.cpu': '2' }, scopes: ['NotTerminating'] });
    assert.equal((await ok(['create', 'configmap', 'x', '--from-literal=a=b'])).stdout.trim(), 'configmap/x created');
    assert.equal((await ok(['create', 'service', 'clusterip', 'x', '--tcp=80:80'])).stdout.trim(), 'service/x created');
    assert.match((await ok(['get', 'svc', 'x', '-o', 'jsonpath={.spec.clusterIP}'])).stdout, /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
  });
});
