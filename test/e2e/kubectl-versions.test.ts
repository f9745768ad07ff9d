// The oldest and newest kubectl Bulkhead supports, run as the side binaries (the `kubectl` on
// PATH picks its client from the server's /version minor, 1.32): apply (client-side and
// --server-side), diff and explain against a real server. kubectl 1.27 reads OpenAPI v2 as
// protobuf for all of them; 1.33 reads v3 and falls back to v2 for kinds v3 does not describe,
// which is how a file that mixes served and unserved kinds must come out: the served objects
// applied, each other one reported as kube-apiserver's discovery would have it.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { kubectlAvailable, startCluster, type TestCluster } from './cluster.js';

const sideBinary = (minor: number) => `/usr/lib/google-cloud-sdk/bin/kubectl.1.${minor}`;
const clients = [27, 33].map((minor) => ({ minor, binary: sideBinary(minor) }));
const missing =
  kubectlAvailable() ??
  clients.map((c) => (existsSync(c.binary) ? undefined : `${c.binary} is missing`)).find((m) => m) ??
  (spawnSync('diff', ['--version']).status === 0 ? undefined : 'diff (diffutils), which kubectl diff runs, is not on PATH');
if (missing) console.error(`\n*** SKIPPING kubectl 1.27/1.33 end-to-end tests: ${missing} ***\n`);

const pod = (name: string, image = 'busybox:1.36', labels = `{app: ${name}}`) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: ${labels}
spec:
  containers:
  - name: app
    image: ${image}
    command: ["sleep", "3600"]
`;

// A kind the server does not serve beside one it does (apps/v1 Deployment).
const unservedKinds = (name: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: settings}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}-web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: busybox}]
---
`;

describe('kubectl 1.27 and 1.33 against bulkhead server', { skip: missing }, () => {
  let c: TestCluster;
  before(async () => {
    c = await startCluster({ scheduler: false });
  });
  after(async () => {
    await c?.stop();
  });

  for (const { minor, binary } of clients) {
    const k = (args: string[]) => c.kubectl(args, undefined, binary);
    const ok = async (args: string[]) => {
      const r = await k(args);
      assert.equal(r.code, 0, `kubectl 1.${minor} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
      // No warning either: one from patch calculation means the OpenAPI schema did not serve.
      assert.equal(r.stderr, '', `kubectl 1.${minor} ${args.join(' ')}`);
      return r;
    };
    const csa = `csa-${minor}`;
    const ssa = `ssa-${minor}`;

    it(`1.${minor}: apply -f creates, configures a changed manifest, then leaves it unchanged`, async () => {
      assert.equal((await ok(['apply', '-f', c.file(`${csa}.yaml`, pod(csa))])).stdout, `pod/${csa} created\n`);
      const changed = c.file(`${csa}-b.yaml`, pod(csa, 'busybox:1.37'));
      assert.equal((await ok(['apply', '-f', changed])).stdout, `pod/${csa} configured\n`);
      assert.equal((await ok(['get', 'pod', csa, '-o', 'jsonpath={.spec.containers[0].image}'])).stdout, 'busybox:1.37');
      assert.equal((await ok(['apply', '-f', changed])).stdout, `pod/${csa} unchanged\n`);
    });

    it(`1.${minor}: diff -f exits 1 with the change as a unified diff, 0 when there is none`, async () => {
      const d = await k(['diff', '-f', c.file(`${csa}-c.yaml`, pod(csa, 'busybox:1.38'))]);
      assert.equal(d.code, 1, d.stderr);
      assert.match(d.stdout, /^-    image: busybox:1\.37$/m);
      assert.match(d.stdout, /^\+    image: busybox:1\.38$/m);
      const same = await k(['diff', '-f', c.file(`${csa}-b.yaml`, pod(csa, 'busybox:1.37'))]);
      assert.deepEqual([same.code, same.stdout, same.stderr], [0, '', '']);
    });

    it(`1.${minor}: apply --server-side creates and re-applies, diff --server-side shows a change`, async () => {
      assert.equal((await ok(['apply', '--server-side', '-f', c.file(`${ssa}.yaml`, pod(ssa))])).stdout, `pod/${ssa} serverside-applied\n`);
      const relabeled = c.file(`${ssa}-b.yaml`, pod(ssa, 'busybox:1.36', `{app: ${ssa}, tier: v2}`));
      assert.equal((await ok(['apply', '--server-side', '-f', relabeled])).stdout, `pod/${ssa} serverside-applied\n`);
      assert.equal((await ok(['get', 'pod', ssa, '-o', 'jsonpath={.metadata.labels.tier}'])).stdout, 'v2');
      const d = await k(['diff', '--server-side', '-f', c.file(`${ssa}-c.yaml`, pod(ssa, 'busybox:1.37', `{app: ${ssa}, tier: v2}`))]);
      assert.equal(d.code, 1, d.stderr);
      assert.match(d.stdout, /^\+    image: busybox:1\.37$/m);
      assert.equal((await k(['diff', '--server-side', '-f', relabeled])).code, 0);
    });

    it(`1.${minor}: explain pods.spec.containers`, async () => {
      const e = (await ok(['explain', 'pods.spec.containers'])).stdout;
      assert.match(e, /^KIND:\s+Pod$/m);
      assert.match(e, /^FIELD:\s+containers <\[\]Container>$/m);
      assert.match(e, /^\s+resources\s+<ResourceRequirements>$/m);
    });

    it(`1.${minor}: apply -f of a file with kinds the server does not serve applies the rest and reports each of those`, async () => {
      const name = `mixed-${minor}`;
      const r = await k(['apply', '-f', c.file(`${name}.yaml`, unservedKinds(name) + pod(name))]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(r.stdout, `deployment.apps/${name}-web created\npod/${name} created\n`);
      assert.match(r.stderr, /resource mapping not found for name: "settings" namespace: "" from ".*": no matches for kind "PersistentVolumeClaim" in version "v1"/);
      assert.doesNotMatch(r.stderr, /failed to download openapi|failed to check CRD/);
    });
  }
});
