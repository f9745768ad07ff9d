// The real kubectl through the patch paths that once failed it: the client-side → server-side
// apply migration (a 500, then a 422 on the next apply), a server-side apply of a label after the
// scheduler's status write (a conflict with the scheduler over an empty metadata.labels), and
// JSON/strategic patches whose failure reason kubectl must be able to print.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectlAvailable, startCluster, type TestCluster } from './cluster.js';

const missing = kubectlAvailable();
if (missing) console.error(`\n*** SKIPPING kubectl patch end-to-end tests: ${missing} ***\n`);

const pod = (name: string, metadata = '', spec = true) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
${metadata}${spec ? 'spec:\n  containers:\n  - name: app\n    image: busybox:1.36\n    command: ["sleep", "3600"]\n' : ''}`;

const job = (name: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: app
        image: busybox:1.36
        command: ["true"]
`;

interface Step {
  args: (c: TestCluster) => string[];
  code: number;
  stdout?: string | RegExp;
  /** stderr must match; when absent it must be empty. */
  stderr?: RegExp;
}

describe('kubectl patch and server-side apply paths', { skip: missing }, () => {
  let c: TestCluster;
  before(async () => {
    c = await startCluster();
  });
  after(async () => {
    await c?.stop();
  });

  const scenarios: { name: string; steps: Step[] }[] = [
    {
      name: 'apply, then apply --server-side (kubectl migrates managedFields by json-patch), then again: no error, no warning',
      steps: [
        { args: (c) => ['apply', '-f', c.file('mig.yaml', pod('mig', '  labels: {app: mig}\n'))], code: 0, stdout: 'pod/mig created\n' },
        { args: (c) => ['apply', '--server-side', '-f', c.file('mig.yaml', pod('mig', '  labels: {app: mig}\n'))], code: 0, stdout: 'pod/mig serverside-applied\n' },
        { args: (c) => ['apply', '--server-side', '-f', c.file('mig.yaml', pod('mig', '  labels: {app: mig}\n'))], code: 0, stdout: 'pod/mig serverside-applied\n' },
      ],
    },
    {
      // The migration hands the creator's fields to kubectl's apply manager and re-applies the
      // manifest: a generated selector the creator owned was dropped, and the Job update refused.
      name: 'a Job: apply, then apply --server-side keeps the generated selector: no warning',
      steps: [
        { args: (c) => ['apply', '-f', c.file('job.yaml', job('mj'))], code: 0, stdout: 'job.batch/mj created\n' },
        { args: (c) => ['apply', '--server-side', '-f', c.file('job.yaml', job('mj'))], code: 0, stdout: 'job.batch/mj serverside-applied\n' },
        { args: () => ['get', 'job', 'mj', '-o', 'jsonpath={.spec.selector.matchLabels}'], code: 0, stdout: /^\{"batch.kubernetes.io\/controller-uid":"[0-9a-f-]{36}"\}$/ },
      ],
    },
    {
      name: 'every namespace is labelled with its name (a selector on kubernetes.io/metadata.name finds it)',
      steps: [
        { args: () => ['create', 'namespace', 'labelled'], code: 0, stdout: 'namespace/labelled created\n' },
        { args: () => ['get', 'namespaces', '-l', 'kubernetes.io/metadata.name in (labelled,kube-system)', '-o', 'name'], code: 0, stdout: 'namespace/kube-system\nnamespace/labelled\n' },
      ],
    },
    {
      name: 'apply --server-side of a label after the scheduler wrote PodScheduled does not conflict with kube-scheduler',
      steps: [
        { args: (c) => ['apply', '--server-side', '-f', c.file('lab.yaml', pod('lab'))], code: 0, stdout: 'pod/lab serverside-applied\n' },
        // No node: the scheduler marks it Unschedulable (its status write), which kubectl waits for.
        { args: () => ['wait', '--for=condition=PodScheduled=False', 'pod/lab', '--timeout=60s'], code: 0, stdout: 'pod/lab condition met\n' },
        { args: () => ['get', 'pod', 'lab', '-o', 'jsonpath={.metadata.managedFields[*].manager}'], code: 0, stdout: 'kubectl kube-scheduler' },
        { args: (c) => ['apply', '--server-side', '-f', c.file('lab2.yaml', pod('lab', '  labels: {tier: web}\n'))], code: 0, stdout: 'pod/lab serverside-applied\n' },
      ],
    },
    {
      name: 'a server-side apply that drops the whole spec is the pod-update 422, not a 500',
      steps: [
        { args: (c) => ['apply', '--server-side', '-f', c.file('nospec.yaml', pod('nospec'))], code: 0, stdout: 'pod/nospec serverside-applied\n' },
        { args: (c) => ['apply', '--server-side', '-f', c.file('nospec2.yaml', pod('nospec', '', false))], code: 1, stdout: '', stderr: /^The Pod "nospec" is invalid: spec: Forbidden: pod updates may not change fields other than/ },
      ],
    },
    {
      name: 'json-patch failures reach kubectl with their reason (422, the evanphx text as the cause)',
      steps: [
        { args: (c) => ['apply', '--server-side', '-f', c.file('jp.yaml', pod('jp'))], code: 0, stdout: 'pod/jp serverside-applied\n' },
        { args: () => ['patch', 'pod', 'jp', '--type=json', '-p', '[{"op":"replace","path":"/spec/nope/x","value":1}]'], code: 1, stdout: '', stderr: /^The request is invalid: : replace operation does not apply: doc is missing path: \/spec\/nope\/x: missing value\n$/ },
        { args: () => ['patch', 'pod', 'jp', '--type=json', '-p', '[{"op":"remove","path":"/metadata/nope"}]'], code: 1, stdout: '', stderr: /^The request is invalid: : error in remove for path: '\/metadata\/nope': Unable to remove nonexistent key: nope: missing value\n$/ },
        { args: () => ['patch', 'pod', 'jp', '--type=json', '-p', '[{"op":"test","path":"/metadata/name","value":"q"}]'], code: 1, stdout: '', stderr: /^The request is invalid: : testing value \/metadata\/name failed: test failed\n$/ },
      ],
    },
    {
      name: 'malformed strategic merge patches are 4xx kubectl prints',
      steps: [
        { args: (c) => ['apply', '--server-side', '-f', c.file('smp.yaml', pod('smp'))], code: 0, stdout: 'pod/smp serverside-applied\n' },
        { args: () => ['patch', 'pod', 'smp', '--type=strategic', '-p', '{"spec":{"containers":5}}'], code: 1, stdout: '', stderr: /^The request is invalid: patch: Invalid value: "map\[spec:map\[containers:5\]\]": cannot convert int64 to slice\n$/ },
        { args: () => ['patch', 'pod', 'smp', '--type=strategic', '-p', '{"$patch":"replace"}'], code: 1, stdout: '', stderr: /^Error from server \(BadRequest\): the name of the object \(\) does not match the name on the URL \(smp\)\n$/ },
        { args: () => ['patch', 'pod', 'smp', '--type=strategic', '-p', '{"spec":{"$patch":"frob"}}'], code: 1, stdout: '', stderr: /^Error from server \(BadRequest\): unknown patch type: frob in map: map\[\$patch:frob\]\n$/ },
      ],
    },
  ];

  for (const sc of scenarios) {
    it(sc.name, async () => {
      for (const step of sc.steps) {
        const args = step.args(c);
        const r = await c.kubectl(args);
        const what = `kubectl ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`;
        assert.equal(r.code, step.code, what);
        if (typeof step.stdout === 'string') assert.equal(r.stdout, step.stdout, what);
        else if (step.stdout) assert.match(r.stdout, step.stdout, what);
        if (step.stderr) assert.match(r.stderr, step.stderr, what);
        else assert.equal(r.stderr, '', what);
      }
    });
  }
});
