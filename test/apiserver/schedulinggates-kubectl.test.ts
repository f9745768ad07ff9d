// Scheduling gates end to end through the real kubectl and the server's own scheduler: a gated
// pod is marked PodScheduled=False/SchedulingGated on create, listed with STATUS SchedulingGated,
// never attempted; adding a gate or changing a nodeSelector entry is refused with upstream's
// wording, narrowing the nodeSelector is not; removing the last gate with
// a patch gets it scheduled. Skipped when no kubectl is installed.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RequestInfo } from '../../src/apiserver/rest.js';
import type { Event, Pod } from '../../src/api/types.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { node } from '../scheduler/helpers.js';
import { kubectlFound, kubectlSkip, tableRows } from './kubectlserver.js';

const admin: RequestInfo = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };

const podJSON = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

/** Polls the store for a bound pod (the scheduler binds in the background); the bound is generous, the test's answer does not depend on it. */
async function waitFor<T>(what: string, f: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

if (!kubectlFound) it('scheduling gates with the real kubectl', { skip: kubectlSkip }, () => {});
else {
  describe('scheduling gates with the real kubectl', () => {
    let dir: string;
    let s: RunningServer;
    const kubectl = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const create = async (body: { metadata: { name: string } }) => {
      const file = join(dir, `${body.metadata.name}.json`);
      writeFileSync(file, JSON.stringify(body));
      return kubectl('create', '-f', file);
    };
    const get = (name: string) => s.api.get<Pod>(s.api.def('pods'), 'default', name);
    const boundTo = (name: string) => waitFor(`${name} bound`, async () => (await get(name)).spec.nodeName || undefined);
    const podScheduled = async (name: string) => (await get(name)).status?.conditions?.find((c) => c.type === 'PodScheduled');

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'bulkhead-schedgates-'));
      s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, workloadControllers: false });
      await s.api.create(s.api.def('nodes'), undefined, node('n1'), { ...admin, warnings: [] });
    });
    after(async () => {
      await s?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a gated pod waits with SchedulingGated, refuses a new gate, and is scheduled once its gates are removed', async () => {
      assert.equal((await create(podJSON('gated', { schedulingGates: [{ name: 'example.com/a' }, { name: 'example.com/b' }] }))).code, 0);
      // Created after the gated pod, so the scheduler's informer has seen the gated one by the time this one is bound.
      assert.equal((await create(podJSON('free'))).code, 0);
      assert.equal(await boundTo('free'), 'n1');
      await s.scheduler!.idle();

      const gated = await get('gated');
      assert.equal(gated.spec.nodeName, undefined);
      const cond = gated.status?.conditions?.find((c) => c.type === 'PodScheduled');
      assert.match(cond?.lastTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, 'stamped at create, as v1.32 UpdatePodCondition does');
      assert.deepEqual({ ...cond, lastTransitionTime: 'set' }, { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: 'set', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' });
      const events = (await s.api.list(s.api.def('events'), 'default')).items as Event[];
      assert.deepEqual(events.filter((e) => e.involvedObject.name === 'gated').map((e) => e.reason), []);

      const table = tableRows((await kubectl('get', 'pod', 'gated', 'free')).stdout);
      assert.deepEqual(table.map((r) => [r[0], r[2]]), [['NAME', 'STATUS'], ['gated', 'SchedulingGated'], ['free', 'Pending']]);

      const added = await kubectl('patch', 'pod', 'gated', '--type=json', '-p', '[{"op":"add","path":"/spec/schedulingGates/-","value":{"name":"example.com/c"}}]');
      assert.notEqual(added.code, 0);
      assert.equal(added.stderr, `The Pod "gated" is invalid: spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/c'\n`);

      // One gate left: still not attempted.
      assert.equal((await kubectl('patch', 'pod', 'gated', '--type=json', '-p', '[{"op":"remove","path":"/spec/schedulingGates/0"}]')).code, 0);
      assert.equal((await create(podJSON('free2'))).code, 0);
      assert.equal(await boundTo('free2'), 'n1');
      await s.scheduler!.idle();
      assert.equal((await get('gated')).spec.nodeName, undefined);
      assert.equal((await podScheduled('gated'))?.reason, 'SchedulingGated');

      // While gated its placement may be narrowed, not otherwise changed.
      assert.equal((await kubectl('patch', 'pod', 'gated', '--type=merge', '-p', '{"spec":{"nodeSelector":{"kubernetes.io/hostname":"n1"}}}')).code, 0);
      const widened = await kubectl('patch', 'pod', 'gated', '--type=merge', '-p', '{"spec":{"nodeSelector":{"kubernetes.io/hostname":"n2"}}}');
      assert.equal(widened.stderr, 'The Pod "gated" is invalid: spec.nodeSelector: Invalid value: {"kubernetes.io/hostname":"n2"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)\n');
      assert.equal((await kubectl('patch', 'pod', 'gated', '--type=json', '-p', '[{"op":"remove","path":"/spec/schedulingGates"}]')).code, 0);
      assert.equal(await boundTo('gated'), 'n1');
      const after = await podScheduled('gated');
      assert.equal(after?.status, 'True');
      assert.equal(after?.reason, undefined);
      const row = tableRows((await kubectl('get', 'pod', 'gated', '--no-headers')).stdout)[0]!;
      assert.equal(row[2], 'Pending');
    });
  });
}
