// `bulkhead down` against the real kernel: what a stopped `bulkhead up` left running (its pod's
// containers, mounts, cgroups) is stopped and removed, refused while the server runs, and the
// next `up` starts the pod again from the objects the data directory kept.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hierarchyRoots, realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';
import { agentLockPath } from '../../src/cli/agent.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/down.test: SKIPPING bulkhead down tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

describe('bulkhead down (bulkhead up, real kubectl, runc)', skip, () => {
  let c: UpCluster;
  before(async () => {
    c = await startUp(['--node-memory', '2Gi', '--node-cpu', '1']);
  });
  after(async () => {
    await c?.stop();
  });

  /** The containers this cluster's runtime has (its own state directory only). */
  const containers = () => {
    const root = join(c.dataDir, 'agent', 'state', 'runc');
    return existsSync(root) ? execFileSync('runc', ['--root', root, 'list', '-q'], { encoding: 'utf8' }).split('\n').filter(Boolean) : [];
  };

  it('stops what a stopped `up` left running, is refused while it runs, and the next `up` starts the pod again', async () => {
    await c.ok(['apply', '-f', c.file('sleeper.yaml', `apiVersion: v1
kind: Pod
metadata: {name: sleeper}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: c
    image: busybox
    command: ["sleep", "3600"]
    resources: {limits: {memory: 32Mi}}
`)]);
    await c.until('sleeper running', async () => ((await c.pod('sleeper')).status.phase === 'Running' ? true : undefined), 60_000);
    const uid = (await c.pod('sleeper')).metadata.uid;
    const flags = ['--data-dir', c.dataDir, '--cgroup-root', c.cgroupRoot, '--grace-period', '1'];

    const refused = await c.bulkhead(['down', ...flags]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^error: a server is running with .* \(.*bulkhead\.db-lock is held\): stop `bulkhead up` or the agent first/m);
    assert.ok(containers().some((id) => id.startsWith(uid)), 'nothing stopped while the server runs');

    assert.equal(await c.halt(), 0);
    assert.ok(containers().some((id) => id.startsWith(uid)), 'Ctrl-C on up leaves the containers running');

    // An agent alone (no server on the directory) holds its own lock while it runs: here a
    // process holding it, as a running `bulkhead agent` would.
    const holder = spawn(process.execPath, ['--input-type=module', '-e', `import { takeOwnerLockNow } from ${JSON.stringify(new URL('../../src/storage/sqlite.js', import.meta.url).href)}; takeOwnerLockNow(${JSON.stringify(agentLockPath(c.dataDir))}); console.log('held'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => String(d).includes('held') && resolve());
        holder.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
      });
      const busy = await c.bulkhead(['down', ...flags]);
      assert.equal(busy.code, 2, busy.stderr);
      assert.match(busy.stderr, /^error: a node agent is running with .* \(.*agent-lock is held\)/m);
    } finally {
      const exited = new Promise((r) => holder.once('exit', r));
      holder.kill('SIGTERM');
      await exited;
    }
    assert.ok(containers().some((id) => id.startsWith(uid)), 'nothing stopped while an agent runs');
    // Without --grace-period each pod gets its own, as the agent recorded it when the pod started.
    const record = JSON.parse(readFileSync(join(c.dataDir, 'agent', 'run', 'pods', uid, 'pod.json'), 'utf8')) as { terminationGracePeriodSeconds?: number };
    assert.equal(record.terminationGracePeriodSeconds, 2);
    const down = await c.bulkhead(['down', '--data-dir', c.dataDir, '--cgroup-root', c.cgroupRoot]);
    assert.equal(down.code, 0, down.stderr);
    assert.match(down.stdout, /^1 pod\(s\) stopped; the cluster's objects are kept in /);
    assert.deepEqual(containers(), []);
    assert.deepEqual(readdirSync(join(c.dataDir, 'agent', 'run', 'pods')), [], 'no pod record left');
    const cgroupsLeft = hierarchyRoots().map((h) => join(h, c.cgroupRoot)).filter((d) => existsSync(d));
    assert.deepEqual(cgroupsLeft, [], 'the pod and node cgroups are gone');
    const mounts = execFileSync('cat', ['/proc/mounts'], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(c.dataDir));
    assert.deepEqual(mounts, [], 'no overlay or namespace pin left mounted');

    const again = await c.bulkhead(['down', ...flags]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^0 pod\(s\) stopped/);

    await c.restart();
    await c.until('sleeper running again', async () => {
      const p = await c.pod('sleeper');
      return p.status.phase === 'Running' && p.status.containerStatuses?.[0]?.ready ? true : undefined;
    }, 60_000);
    assert.equal((await c.pod('sleeper')).metadata.uid, uid, 'the same pod, from the kept objects');
    assert.ok(containers().some((id) => id.startsWith(uid)), 'its containers run again');
  });
});
