// `kubectl top` on a pure cgroup v2 kernel: `bulkhead up` inside scripts/vm.sh's guest, a
// busybox pod holding a 32 MiB shell variable, and the working set `kubectl top pod
// --containers` shows compared (±5%) with the container cgroup's memory.current − inactive_file
// (memory.stat), as the kubelet computes it on v2; the node's figures come from the node cgroup
// (kubepods: cpu.stat, memory.current, memory.stat). Waits poll;
// their deadlines only bound a hang (TCG is slow).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlAvailable } from '../e2e/cluster.js';
import { startUp, type UpCluster } from '../e2e/upcluster.js';
import { containerCgroupDir, readCg, skipUnlessV2 } from './guest.js';

const skip = skipUnlessV2('test/v2/top.test');
if (!skip.skip) {
  const k = kubectlAvailable();
  if (k) Object.assign(skip, { skip: k });
}

const WAIT = 300_000;
const Mi = 1024 * 1024;

describe('kubectl top on cgroup v2', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp(['--node-memory', '2Gi', '--node-cpu', '2', '--metric-resolution', '5s', '--housekeeping-interval', '2s'], { startTimeoutMs: WAIT });
    await c.ok(['apply', '-f', c.file('hog.yaml', `apiVersion: v1
kind: Pod
metadata: {name: hog}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: hog
    image: busybox
    command: ["sh", "-c", "x=$(head -c 33554432 /dev/zero | tr '\\\\0' a); echo held \${#x}; while true; do sleep 3600; done"]
    resources: {limits: {memory: 128Mi}}
`)]);
    await c.until('the hog holding its memory', async () => ((await c.kubectl(['logs', 'hog'])).stdout.includes('held 33554432') ? true : undefined), WAIT);
  });

  after(async () => {
    await c?.stop();
  });

  it('kubectl top node answers from the node cgroup', async () => {
    const out = await c.until('kubectl top node', async () => {
      const r = await c.kubectl(['top', 'node']);
      return r.code === 0 ? r.stdout : undefined;
    }, WAIT);
    assert.match(out, new RegExp(`^${c.nodeName}\\s+\\d+m\\s+\\d+%\\s+\\d+Mi\\s+\\d+%`, 'm'));
  });

  it('kubectl top pod --containers: the working set is memory.current − inactive_file (±5%)', async () => {
    const dir = containerCgroupDir(c, await c.pod('hog'), 'hog');
    const workingSet = () => Number(readCg(dir, 'memory.current')) - Number(/^inactive_file (\d+)$/m.exec(readCg(dir, 'memory.stat'))?.[1] ?? 0);
    // The metrics are scraped every 15 s: a reading taken while the hog was still filling its
    // variable lags the cgroup, so wait for one taken once it holds it.
    await c.until('the hog holds its variable', async () => (workingSet() >= 32 * Mi ? true : undefined), WAIT);
    let last = '';
    // The check is the wait itself: it fails (after WAIT) unless top comes to agree within ±5%.
    await c.until('kubectl top pod --containers agreeing with the cgroup', async () => {
      const r = await c.kubectl(['top', 'pod', 'hog', '--containers']);
      const m = /^hog\s+hog\s+\d+m\s+(\d+)Mi/m.exec(r.stdout);
      if (!m) return undefined;
      const got = { memMi: Number(m[1]), ws: workingSet() };
      last = `top ${got.memMi}Mi, cgroup ${(got.ws / Mi).toFixed(1)}Mi`;
      return Math.abs(got.memMi * Mi - got.ws) <= 0.05 * got.ws + Mi ? got : undefined;
    }, WAIT).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}; last: ${last}`);
    });

  });
});
