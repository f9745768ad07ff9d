// The pod worker's probes on the fake node (harness.ts): the ProbeManager's workers read the
// pod's status from its syncs, a scripted handler stands in for exec/TCP/HTTP, and the status,
// the kills and the events follow the results. One row per rule; the clock the rules read is
// the harness's, and every wait is for a result to change, with a generous bound.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Probe } from '../../../src/api/types.js';
import type { HandlerOutcome, ProbeType } from '../../../src/agent/lifecycle/probes.js';
import { PodWorker } from '../../../src/agent/podworker.js';
import type { ProbeTarget } from '../../../src/agent/podworker/prober.js';
import { cs, ctr, harness, mkpod, running } from './harness.js';

/** A PodWorker over the harness's fakes whose probes answer from `answer`, with a way to wait for a result change. */
function probing(answer: (type: ProbeType, target: ProbeTarget, probe: Probe) => HandlerOutcome) {
  const h = harness();
  const events: string[] = [];
  let changed = 0;
  const waiters: (() => void)[] = [];
  const typeOf = (pod: Pod, t: ProbeTarget, p: Probe): ProbeType => {
    const c = pod.spec.containers.find((x) => x.name === t.container.name)!;
    return c.livenessProbe === p ? 'liveness' : c.startupProbe === p ? 'startup' : 'readiness';
  };
  let current: Pod | undefined;
  const worker = new PodWorker({
    ...h.opts,
    probeRunner: async (p, t) => answer(typeOf(current!, t, p), t, p),
    probeEvents: (_pod, type, reason, message) => events.push(`${type} ${reason} ${message}`),
    probeChanged: () => {
      changed++;
      for (const w of waiters.splice(0)) w();
    },
  });
  const sync = (pod: Pod) => {
    current = pod;
    return worker.sync(pod, (_p, type, reason, message) => events.push(`${type} ${reason} ${message}`));
  };
  /** Resolves at the next result change, or after `ms` (a poll: an unchanged result asks for no sync). */
  const nextChange = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  /** Syncs, as the agent does when a result changes, until `check` holds (bounded at 30 s). */
  async function until(pod: Pod, check: (s: Awaited<ReturnType<typeof sync>>['status']) => boolean, what: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const s = (await sync(pod)).status;
      if (check(s)) return s;
      if (Date.now() > deadline) throw new Error(`${what}: not reached; events ${JSON.stringify(events)}`);
      await nextChange(50);
    }
  }
  return { h, worker, events, sync, until, changes: () => changed };
}

const exec: Probe = { exec: { command: ['check'] }, periodSeconds: 1, failureThreshold: 1 };

describe('pod worker probes (fake runtime, scripted handlers)', () => {
  it('readiness: running but not ready until the probe passes, asked to probe at once when the container starts; then ready, ContainersReady and Ready True', async () => {
    let healthy = false;
    const t = probing(() => (healthy ? { result: 'Success', output: '' } : { result: 'Failure', output: 'not yet' }));
    const pod = mkpod({ containers: [ctr('c', { readinessProbe: { ...exec } })] });
    const first = await t.until(pod, running('c'), 'running');
    assert.equal(cs(first, 'c').ready, false);
    assert.equal(first.conditions?.find((c) => c.type === 'ContainersReady')?.status, 'False');
    await t.until(pod, () => t.events.includes('Warning Unhealthy Readiness probe failed: not yet'), 'a failed readiness probe');
    healthy = true;
    const ready = await t.until(pod, (s) => cs(s, 'c').ready, 'ready');
    assert.equal(ready.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
    await t.worker.terminate(pod, 0, () => undefined);
    await t.worker.remove(pod.metadata.uid!);
  });

  it('liveness failure: Killing "Container c failed liveness probe, will be restarted", a new container whose results start over', async () => {
    const failFor = new Set<string>();
    const t = probing((type, target) => (type === 'liveness' && failFor.has(target.id) ? { result: 'Failure', output: 'sick' } : { result: 'Success', output: '' }));
    const pod = mkpod({ containers: [ctr('c', { livenessProbe: { ...exec, terminationGracePeriodSeconds: 3 } })] });
    const first = await t.until(pod, running('c'), 'running');
    const firstID = cs(first, 'c').containerID!.replace('runc://', '');
    failFor.add(firstID);
    const after = await t.until(pod, (s) => cs(s, 'c').restartCount === 1 && cs(s, 'c').state?.running !== undefined, 'restarted');
    assert.ok(t.events.includes('Warning Unhealthy Liveness probe failed: sick'), t.events.join('\n'));
    assert.ok(t.events.includes('Normal Killing Container c failed liveness probe, will be restarted'), t.events.join('\n'));
    const secondID = cs(after, 'c').containerID!.replace('runc://', '');
    assert.notEqual(secondID, firstID);
    // Once the worker has seen the new container (its next tick), that one starts at Success and the old result is gone.
    await t.until(pod, () => t.worker.probes.results.get('liveness', secondID) === 'Success', 'the new container seen');
    assert.equal(t.worker.probes.results.get('liveness', firstID), undefined);
    await t.worker.terminate(pod, 0, () => undefined);
    await t.worker.remove(pod.metadata.uid!);
  });

  it('no timer outlives its pod: remove() ends every worker and drops the results', async () => {
    const t = probing(() => ({ result: 'Success', output: '' }));
    const pod = mkpod({ containers: [ctr('c', { readinessProbe: { ...exec }, livenessProbe: { ...exec }, startupProbe: { ...exec } })] });
    await t.until(pod, (s) => cs(s, 'c').ready, 'ready');
    assert.equal(t.worker.probes.workerCount(pod.metadata.uid), 3);
    const id = cs((await t.sync(pod)).status, 'c').containerID!.replace('runc://', '');
    await t.worker.terminate(pod, 0, () => undefined);
    await t.worker.remove(pod.metadata.uid!);
    assert.equal(t.worker.probes.workerCount(), 0);
    for (const type of ['readiness', 'liveness', 'startup'] as const) assert.equal(t.worker.probes.results.get(type, id), undefined, type);
  });

  it('stopProbes (the agent stops) ends every worker; the next sync starts them again', async () => {
    const t = probing(() => ({ result: 'Success', output: '' }));
    const pod = mkpod({ containers: [ctr('c', { readinessProbe: { ...exec }, livenessProbe: { ...exec } })] });
    await t.until(pod, (s) => cs(s, 'c').ready, 'ready');
    t.worker.stopProbes();
    assert.equal(t.worker.probes.workerCount(), 0);
    await t.sync(pod);
    assert.equal(t.worker.probes.workerCount(pod.metadata.uid), 2);
    await t.worker.terminate(pod, 0, () => undefined);
    await t.worker.remove(pod.metadata.uid!);
  });

  it('terminate stops liveness and startup at once (a deleting pod is not killed over them); readiness goes until the pod is removed', async () => {
    const t = probing(() => ({ result: 'Success', output: '' }));
    const pod = mkpod({ containers: [ctr('c', { readinessProbe: { ...exec }, livenessProbe: { ...exec } })] });
    await t.until(pod, (s) => cs(s, 'c').ready, 'ready');
    t.worker.probes.stopLivenessAndStartup(pod.metadata.uid!, pod);
    assert.equal(t.worker.probes.workerCount(pod.metadata.uid), 1);
    await t.worker.terminate(pod, 0, () => undefined);
    assert.equal(t.worker.probes.workerCount(pod.metadata.uid), 0);
    await t.worker.remove(pod.metadata.uid!);
  });
});
