// The real kubectl's --dry-run=server against a real Bulkhead API server: create, apply and
// delete (one pod, and --all) report what they would do and leave the cluster as it was,
// quota usage included.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectlAvailable, startCluster, type TestCluster } from './cluster.js';

const missing = kubectlAvailable();
if (missing) console.error(`\n*** SKIPPING kubectl dry-run tests: ${missing} ***\n`);

const ns = 'dry';
const pod = (name: string, label = name) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${ns}
  labels: {app: ${label}}
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "3600"]
`;

describe('kubectl --dry-run=server', { skip: missing }, () => {
  let c: TestCluster;
  const run = async (args: string[]) => {
    const r = await c.kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };
  /** What a dry run must not change: the pods (with their resourceVersions) and the quota usage. */
  const state = async () => ({
    pods: await run(['get', 'pods', '-n', ns, '-o', 'jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion}:{.metadata.labels.app}:{.metadata.deletionTimestamp} {end}']),
    quota: await run(['get', 'quota', 'q', '-n', ns, '-o', 'jsonpath={.status.used.pods}']),
  });

  before(async () => {
    // No scheduler: pods stay unbound, so a real delete would remove them at once.
    c = await startCluster({ scheduler: false, quotaResyncSeconds: 3600 });
    await run(['create', 'namespace', ns]);
    await run(['create', 'quota', 'q', '-n', ns, '--hard=pods=5']);
    for (const name of ['one', 'two']) await run(['create', '-f', c.file(`${name}.yaml`, pod(name))]);
    // Bounded wait for the quota controller to count the two pods, so nothing else writes later.
    for (let i = 0; i < 200 && (await state()).quota !== '2'; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal((await state()).quota, '2');
  });
  after(async () => {
    await c?.stop();
  });

  const rows: { name: string; args: () => string[]; stdout: RegExp }[] = [
    { name: 'create -f of a new pod', args: () => ['create', '--dry-run=server', '-f', c.file('three.yaml', pod('three'))], stdout: /^pod\/three created \(server dry run\)\n$/ },
    { name: 'apply -f of a new pod', args: () => ['apply', '--dry-run=server', '-f', c.file('four.yaml', pod('four'))], stdout: /^pod\/four created \(server dry run\)\n$/ },
    { name: 'apply -f of a change to an existing pod', args: () => ['apply', '--dry-run=server', '-f', c.file('one-changed.yaml', pod('one', 'changed'))], stdout: /^pod\/one (configured|serverside-applied) \(server dry run\)\n$/ },
    { name: 'apply --server-side of a new pod', args: () => ['apply', '--server-side', '--dry-run=server', '-f', c.file('five.yaml', pod('five'))], stdout: /^pod\/five serverside-applied \(server dry run\)\n$/ },
    { name: 'delete pod', args: () => ['delete', 'pod', 'one', '-n', ns, '--dry-run=server'], stdout: /^pod "one" deleted \(server dry run\)\n$/ },
    { name: 'delete pod --grace-period=0 --force', args: () => ['delete', 'pod', 'two', '-n', ns, '--dry-run=server', '--grace-period=0', '--force'], stdout: /^pod "two" force deleted \(server dry run\)\n$/ },
    { name: 'delete pods --all', args: () => ['delete', 'pods', '--all', '-n', ns, '--dry-run=server'], stdout: /^pod "one" deleted \(server dry run\)\npod "two" deleted \(server dry run\)\n$/ },
  ];
  for (const row of rows) {
    it(`${row.name} changes nothing, quota usage included`, async () => {
      const before = await state();
      assert.match(await run(row.args()), row.stdout);
      assert.deepEqual(await state(), before);
    });
  }
});
