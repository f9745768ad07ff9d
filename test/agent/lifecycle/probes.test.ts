// The kubelet's probe rules (src/agent/lifecycle/probes.ts after pkg/kubelet/prober worker.go
// doProbe, prober_manager.go UpdatePodStatus, prober.go probe): one row per rule, on a fake clock.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerStatus, Pod } from '../../../src/api/types.js';
import { computePodActions } from '../../../src/agent/lifecycle/actions.js';
import {
  applyProbes,
  newProbeWorkerState,
  probeDecision,
  probeKillGrace,
  probeRecord,
  ProbeResults,
  proberResult,
  probeTiming,
  type ProbeContext,
  type ProbeResult,
  type ProbeSubject,
  type ProbeType,
  type ProbeView,
  type ProbeWorkerState,
  type ResultChange,
} from '../../../src/agent/lifecycle/probes.js';
import type { PodRuntime } from '../../../src/agent/lifecycle/runtime.js';

const t0 = Date.UTC(2026, 0, 1);
const timing = probeTiming({ periodSeconds: 10, failureThreshold: 3, successThreshold: 1 });
const running = (id: string, since = t0, started = true): ProbeSubject => ({ id, runningSince: since, terminated: false, started });

function ctx(type: ProbeType, subject: ProbeSubject | undefined, o: Partial<ProbeContext> = {}): ProbeContext {
  return { type, timing, phase: 'Running', deleting: false, restartPolicy: 'Always', ...(subject ? { subject } : {}), now: t0 + 60_000, ...o };
}

/** A worker that has already seen container `id`. */
function seen(id: string, o: Partial<ProbeWorkerState> = {}): ProbeWorkerState {
  return { ...newProbeWorkerState(), containerID: id, ...o };
}

describe('probe worker: doProbe before the probe', () => {
  const rows: { rule: string; state: ProbeWorkerState; ctx: ProbeContext; next: 'probe' | 'wait' | 'stop'; changes: ResultChange[]; onHold?: boolean }[] = [
    { rule: 'no status for the pod yet: wait', state: newProbeWorkerState(), ctx: ctx('liveness', running('a'), { phase: undefined }), next: 'wait', changes: [] },
    { rule: 'a terminated pod (Succeeded) ends the worker', state: seen('a'), ctx: ctx('readiness', running('a'), { phase: 'Succeeded' }), next: 'stop', changes: [] },
    { rule: 'a terminated pod (Failed) ends the worker', state: seen('a'), ctx: ctx('readiness', running('a'), { phase: 'Failed' }), next: 'stop', changes: [] },
    { rule: 'the container has no ID yet: wait', state: newProbeWorkerState(), ctx: ctx('liveness', undefined), next: 'wait', changes: [] },
    { rule: 'a new container: readiness starts at Failure', state: newProbeWorkerState(), ctx: ctx('readiness', running('a')), next: 'probe', changes: [{ op: 'set', id: 'a', result: 'Failure' }] },
    { rule: 'a new container: liveness starts at Success', state: newProbeWorkerState(), ctx: ctx('liveness', running('a')), next: 'probe', changes: [{ op: 'set', id: 'a', result: 'Success' }] },
    { rule: 'a new container: startup starts at Unknown', state: newProbeWorkerState(), ctx: ctx('startup', running('a', t0, false)), next: 'probe', changes: [{ op: 'set', id: 'a', result: 'Unknown' }] },
    {
      rule: 'a restarted container (new ID): the old result goes, the new one starts at the initial value, the hold ends',
      state: seen('a', { onHold: true }),
      ctx: ctx('liveness', running('b')),
      next: 'probe',
      changes: [
        { op: 'remove', id: 'a' },
        { op: 'set', id: 'b', result: 'Success' },
      ],
      onHold: false,
    },
    { rule: 'on hold (after a liveness failure) the same container is not probed', state: seen('a', { onHold: true }), ctx: ctx('liveness', running('a')), next: 'wait', changes: [], onHold: true },
    { rule: 'a container not running: Failure, and the worker waits for a restart', state: seen('a'), ctx: ctx('readiness', { id: 'a', terminated: true, started: false }), next: 'wait', changes: [{ op: 'set', id: 'a', result: 'Failure' }] },
    {
      rule: 'a terminated container of a Never pod: Failure, and the worker ends',
      state: seen('a'),
      ctx: ctx('readiness', { id: 'a', terminated: true, started: false }, { restartPolicy: 'Never' }),
      next: 'stop',
      changes: [{ op: 'set', id: 'a', result: 'Failure' }],
    },
    { rule: 'a waiting (not terminated) container of a Never pod: the worker goes on', state: seen('a'), ctx: ctx('liveness', { id: 'a', terminated: false, started: false }, { restartPolicy: 'Never' }), next: 'wait', changes: [{ op: 'set', id: 'a', result: 'Failure' }] },
    { rule: 'a deleting pod: liveness sets a last Success and ends', state: seen('a'), ctx: ctx('liveness', running('a'), { deleting: true }), next: 'stop', changes: [{ op: 'set', id: 'a', result: 'Success' }] },
    { rule: 'a deleting pod: startup sets a last Success and ends', state: seen('a'), ctx: ctx('startup', running('a', t0, false), { deleting: true }), next: 'stop', changes: [{ op: 'set', id: 'a', result: 'Success' }] },
    { rule: 'a deleting pod: readiness goes on probing', state: seen('a'), ctx: ctx('readiness', running('a'), { deleting: true }), next: 'probe', changes: [] },
    {
      rule: 'initialDelaySeconds: 9.9 s after the start of a 10 s delay (whole seconds, truncated) is too early',
      state: seen('a'),
      ctx: ctx('liveness', running('a'), { timing: probeTiming({ initialDelaySeconds: 10 }), now: t0 + 9_900 }),
      next: 'wait',
      changes: [],
    },
    { rule: 'initialDelaySeconds: at 10 s it probes', state: seen('a'), ctx: ctx('liveness', running('a'), { timing: probeTiming({ initialDelaySeconds: 10 }), now: t0 + 10_000 }), next: 'probe', changes: [] },
    { rule: 'liveness waits for startup to succeed', state: seen('a'), ctx: ctx('liveness', running('a', t0, false)), next: 'wait', changes: [] },
    { rule: 'readiness waits for startup to succeed', state: seen('a'), ctx: ctx('readiness', running('a', t0, false)), next: 'wait', changes: [] },
    { rule: 'startup stops probing once the container has started (the worker stays for a restart)', state: seen('a'), ctx: ctx('startup', running('a')), next: 'wait', changes: [] },
    { rule: 'startup probes a running container not started yet', state: seen('a'), ctx: ctx('startup', running('a', t0, false)), next: 'probe', changes: [] },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      const d = probeDecision(r.state, r.ctx);
      assert.equal(d.next, r.next);
      assert.deepEqual(d.changes, r.changes);
      if (r.onHold !== undefined) assert.equal(d.state.onHold, r.onHold);
    });
  }
});

describe('probe worker: thresholds after the probe', () => {
  /** Feeds results in order; returns the cache value after each (undefined: unchanged). */
  function feed(type: ProbeType, t: ReturnType<typeof probeTiming>, results: ('Success' | 'Failure' | undefined)[], state = seen('a')): { after: (ProbeResult | undefined)[]; state: ProbeWorkerState } {
    const after: (ProbeResult | undefined)[] = [];
    for (const r of results) {
      const rec = probeRecord(state, type, t, r);
      state = rec.state;
      const set = rec.changes.find((c) => c.op === 'set');
      after.push(set && set.op === 'set' ? set.result : undefined);
    }
    return { after, state };
  }
  const t3 = probeTiming({ failureThreshold: 3, successThreshold: 1 });
  const rows: { rule: string; type: ProbeType; timing: ReturnType<typeof probeTiming>; results: ('Success' | 'Failure' | undefined)[]; after: (ProbeResult | undefined)[]; onHold?: boolean }[] = [
    { rule: 'failureThreshold 3: the third failure in a row sets Failure', type: 'readiness', timing: t3, results: ['Failure', 'Failure', 'Failure'], after: [undefined, undefined, 'Failure'] },
    { rule: 'a success between failures starts the run again', type: 'readiness', timing: t3, results: ['Failure', 'Failure', 'Success', 'Failure', 'Failure'], after: [undefined, undefined, 'Success', undefined, undefined] },
    { rule: 'successThreshold 2: the second success in a row sets Success', type: 'readiness', timing: probeTiming({ successThreshold: 2 }), results: ['Success', 'Success'], after: [undefined, 'Success'] },
    { rule: 'past the threshold every further result is set again', type: 'readiness', timing: t3, results: ['Success', 'Success'], after: ['Success', 'Success'] },
    { rule: 'an errored probe (no result) changes nothing and does not break the run', type: 'readiness', timing: t3, results: ['Failure', undefined, 'Failure', 'Failure'], after: [undefined, undefined, undefined, 'Failure'] },
    { rule: 'a liveness failure at the threshold puts the worker on hold and resets the run', type: 'liveness', timing: t3, results: ['Failure', 'Failure', 'Failure'], after: [undefined, undefined, 'Failure'], onHold: true },
    { rule: 'a startup failure at the threshold puts the worker on hold', type: 'startup', timing: probeTiming({ failureThreshold: 1 }), results: ['Failure'], after: ['Failure'], onHold: true },
    { rule: 'a readiness failure does not hold the worker', type: 'readiness', timing: probeTiming({ failureThreshold: 1 }), results: ['Failure'], after: ['Failure'], onHold: false },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      const out = feed(r.type, r.timing, r.results);
      assert.deepEqual(out.after, r.after);
      if (r.onHold !== undefined) assert.equal(out.state.onHold, r.onHold);
      if (r.onHold) assert.equal(out.state.resultRun, 0);
    });
  }

  it('a whole liveness life on a fake clock: probed every period, restarted container probed again from Success', () => {
    const t = probeTiming({ periodSeconds: 5, failureThreshold: 2, initialDelaySeconds: 3 });
    const cache = new ProbeResults();
    let state = newProbeWorkerState();
    const apply = (cs: ResultChange[]) => cs.forEach((c) => (c.op === 'set' ? cache.set('liveness', c.id, c.result) : cache.remove('liveness', c.id)));
    const tick = (now: number, sub: ProbeSubject, probe: 'Success' | 'Failure') => {
      const d = probeDecision(state, { type: 'liveness', timing: t, phase: 'Running', deleting: false, restartPolicy: 'Always', subject: sub, now });
      state = d.state;
      apply(d.changes);
      if (d.next !== 'probe') return d.next;
      const rec = probeRecord(state, 'liveness', t, probe);
      state = rec.state;
      apply(rec.changes);
      return 'probed';
    };
    assert.equal(tick(t0, running('a'), 'Failure'), 'wait'); // within the initial delay
    assert.equal(cache.get('liveness', 'a'), 'Success');
    assert.equal(tick(t0 + 5_000, running('a'), 'Failure'), 'probed');
    assert.equal(cache.get('liveness', 'a'), 'Success');
    assert.equal(tick(t0 + 10_000, running('a'), 'Failure'), 'probed');
    assert.equal(cache.get('liveness', 'a'), 'Failure');
    assert.equal(tick(t0 + 15_000, running('a'), 'Failure'), 'wait'); // on hold
    assert.equal(tick(t0 + 20_000, running('b', t0 + 18_000), 'Success'), 'wait'); // new container, within its delay
    assert.equal(cache.get('liveness', 'a'), undefined);
    assert.equal(cache.get('liveness', 'b'), 'Success');
    assert.equal(tick(t0 + 25_000, running('b', t0 + 18_000), 'Failure'), 'probed');
    assert.equal(cache.get('liveness', 'b'), 'Success');
  });
});

describe('prober.probe: results and events in the kubelet\'s words', () => {
  const rows: { rule: string; type: ProbeType; outcome: Parameters<typeof proberResult>[1]; result?: 'Success' | 'Failure'; event?: { reason: string; message: string } }[] = [
    { rule: 'success: no event', type: 'readiness', outcome: { result: 'Success', output: 'ok' }, result: 'Success' },
    { rule: 'failure: Unhealthy "Liveness probe failed: <output>"', type: 'liveness', outcome: { result: 'Failure', output: 'HTTP probe failed with statuscode: 500' }, result: 'Failure', event: { reason: 'Unhealthy', message: 'Liveness probe failed: HTTP probe failed with statuscode: 500' } },
    { rule: 'failure with no output: the message ends after the colon and space', type: 'readiness', outcome: { result: 'Failure', output: '' }, result: 'Failure', event: { reason: 'Unhealthy', message: 'Readiness probe failed: ' } },
    { rule: 'startup failure: "Startup probe failed: …"', type: 'startup', outcome: { result: 'Failure', output: 'x' }, result: 'Failure', event: { reason: 'Unhealthy', message: 'Startup probe failed: x' } },
    { rule: 'a warning (redirect not followed) counts as success, with a ProbeWarning event', type: 'readiness', outcome: { result: 'Warning', output: 'Probe terminated redirects, Response body: ' }, result: 'Success', event: { reason: 'ProbeWarning', message: 'Readiness probe warning: Probe terminated redirects, Response body: ' } },
    { rule: 'Unknown without an error counts as failure', type: 'liveness', outcome: { result: 'Unknown', output: '' }, result: 'Failure', event: { reason: 'Unhealthy', message: 'Liveness probe failed: ' } },
    { rule: 'an error: "… probe errored: …", and no result (thrown away)', type: 'liveness', outcome: { error: 'boom' }, event: { reason: 'Unhealthy', message: 'Liveness probe errored: boom' } },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      const got = proberResult(r.type, r.outcome);
      assert.equal(got.result, r.result);
      assert.deepEqual(got.event, r.event);
    });
  }
});

describe('UpdatePodStatus: started and ready', () => {
  const st = (o: Partial<ContainerStatus> = {}): ContainerStatus => ({ name: 'app', ready: false, restartCount: 0, image: 'busybox', imageID: '', containerID: 'runc://a', state: { running: { startedAt: '2026-01-01T00:00:00Z' } }, started: false, ...o });
  function view(results: Partial<Record<ProbeType, ProbeResult>>, workers: ProbeType[]): ProbeView {
    return { result: (t, id) => (id === 'a' ? results[t] : undefined), hasWorker: (n, t) => n === 'app' && workers.includes(t) };
  }
  const rows: { rule: string; status: ContainerStatus; view: ProbeView; started: boolean; ready: boolean; trigger: boolean }[] = [
    { rule: 'no probes: a running container is started and ready', status: st(), view: view({}, []), started: true, ready: true, trigger: false },
    { rule: 'not running: neither', status: st({ state: { waiting: { reason: 'CrashLoopBackOff' } } }), view: view({ readiness: 'Success' }, ['readiness']), started: false, ready: false, trigger: false },
    { rule: 'a startup probe that has not run: not started, not ready', status: st(), view: view({}, ['startup']), started: false, ready: false, trigger: false },
    { rule: 'startup Unknown: not started', status: st(), view: view({ startup: 'Unknown' }, ['startup']), started: false, ready: false, trigger: false },
    { rule: 'startup Success: started (ready with no readiness probe)', status: st(), view: view({ startup: 'Success' }, ['startup']), started: true, ready: true, trigger: false },
    { rule: 'startup Failure: not started', status: st(), view: view({ startup: 'Failure' }, ['startup']), started: false, ready: false, trigger: false },
    { rule: 'a startup result outlives its worker (ended on deletion): Success counts', status: st(), view: view({ startup: 'Success' }, []), started: true, ready: true, trigger: false },
    { rule: 'a readiness probe with no result yet: not ready, and it is asked to probe at once', status: st(), view: view({}, ['readiness']), started: true, ready: false, trigger: true },
    { rule: 'readiness Failure (the initial value): not ready, asked to probe at once', status: st(), view: view({ readiness: 'Failure' }, ['readiness']), started: true, ready: false, trigger: true },
    { rule: 'readiness Success: ready', status: st(), view: view({ readiness: 'Success' }, ['readiness']), started: true, ready: true, trigger: false },
    { rule: 'readiness Success but startup not yet: not ready', status: st(), view: view({ readiness: 'Success', startup: 'Unknown' }, ['readiness', 'startup']), started: false, ready: false, trigger: false },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      const got = applyProbes(r.status, r.view);
      assert.equal(got.status.started, r.started);
      assert.equal(got.status.ready, r.ready);
      assert.equal(got.triggerReadiness, r.trigger);
    });
  }
});

describe('computePodActions with probe results', () => {
  const pod = (o: { restartPolicy?: string; grace?: number; probeGrace?: number; startup?: boolean } = {}): Pod =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', uid: 'u' },
      spec: {
        restartPolicy: o.restartPolicy ?? 'Always',
        ...(o.grace !== undefined ? { terminationGracePeriodSeconds: o.grace } : {}),
        containers: [
          { name: 'app', image: 'busybox', livenessProbe: { exec: { command: ['true'] }, ...(o.probeGrace !== undefined ? { terminationGracePeriodSeconds: o.probeGrace } : {}) }, ...(o.startup ? { startupProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 7 } } : {}) },
          { name: 'other', image: 'busybox' },
        ],
      },
    }) as Pod;
  const rt: PodRuntime = {
    sandbox: { ready: true, attempt: 0, id: 's' },
    containers: {
      app: [{ name: 'app', attempt: 0, id: 'a', state: 'running', createdAt: '', image: 'busybox', imageID: '', inCurrentSandbox: true }],
      other: [{ name: 'other', attempt: 0, id: 'o', state: 'running', createdAt: '', image: 'busybox', imageID: '', inCurrentSandbox: true }],
    },
  };
  const results = (r: Partial<Record<ProbeType, ProbeResult>>) => ({ result: (t: ProbeType, id: string) => (id === 'a' ? r[t] : undefined) });
  it('liveness Failure: killed with "Container app failed liveness probe, will be restarted" and started again', () => {
    const a = computePodActions(pod({ grace: 30 }), rt, () => '', results({ liveness: 'Failure' }));
    assert.deepEqual(a.containersToKill, [{ id: 'a', name: 'app', message: 'Container app failed liveness probe, will be restarted', graceSeconds: 30 }]);
    assert.deepEqual(a.containersToStart, [0]);
    assert.equal(a.killPod, false);
  });
  it('the probe\'s terminationGracePeriodSeconds is the kill\'s grace', () => {
    const a = computePodActions(pod({ grace: 30, probeGrace: 1 }), rt, () => '', results({ liveness: 'Failure' }));
    assert.equal(a.containersToKill[0]?.graceSeconds, 1);
  });
  it('startup Failure: "Container app failed startup probe, will be restarted", with the startup probe\'s grace', () => {
    const a = computePodActions(pod({ grace: 30, startup: true }), rt, () => '', results({ startup: 'Failure' }));
    assert.deepEqual(a.containersToKill, [{ id: 'a', name: 'app', message: 'Container app failed startup probe, will be restarted', graceSeconds: 7 }]);
  });
  it('restartPolicy Never: killed without a restart ("failed liveness probe", no ", will be restarted")', () => {
    const a = computePodActions(pod({ restartPolicy: 'Never', grace: 30 }), rt, () => '', results({ liveness: 'Failure' }));
    assert.equal(a.containersToKill[0]?.message, 'Container app failed liveness probe');
    assert.deepEqual(a.containersToStart, []);
  });
  it('liveness Success, Unknown startup or no result: kept', () => {
    for (const r of [{ liveness: 'Success' as const }, { startup: 'Unknown' as const }, {}]) {
      const a = computePodActions(pod(), rt, () => '', results(r));
      assert.deepEqual(a.containersToKill, []);
      assert.deepEqual(a.containersToStart, []);
    }
  });
  it('probeKillGrace: a deleting pod\'s own grace wins; no pod grace, none', () => {
    const p = pod({ grace: 30, probeGrace: 1 });
    assert.equal(probeKillGrace({ ...p, metadata: { ...p.metadata, deletionGracePeriodSeconds: 5 } }, p.spec.containers[0]!.livenessProbe), 5);
    assert.equal(probeKillGrace(pod(), pod().spec.containers[0]!.livenessProbe), undefined);
  });
  it('a sidecar with a startup probe: the next init container waits for its success; a startup failure restarts it', () => {
    const sidecarPod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', uid: 'u' },
      spec: { terminationGracePeriodSeconds: 30, initContainers: [{ name: 'side', image: 'busybox', restartPolicy: 'Always', startupProbe: { exec: { command: ['true'] } } }, { name: 'init2', image: 'busybox' }], containers: [{ name: 'app', image: 'busybox' }] },
    } as Pod;
    const srt: PodRuntime = { sandbox: { ready: true, attempt: 0, id: 's' }, containers: { side: [{ name: 'side', attempt: 0, id: 'sc', state: 'running', createdAt: '', image: 'busybox', imageID: '', inCurrentSandbox: true }] } };
    const r = (v: ProbeResult | undefined) => ({ result: (t: ProbeType, id: string) => (t === 'startup' && id === 'sc' ? v : undefined) });
    assert.deepEqual(computePodActions(sidecarPod, srt, () => '', r(undefined)).initContainersToStart, []);
    assert.deepEqual(computePodActions(sidecarPod, srt, () => '', r('Unknown')).initContainersToStart, []);
    assert.deepEqual(computePodActions(sidecarPod, srt, () => '', r('Success')).initContainersToStart, [1]);
    const failed = computePodActions(sidecarPod, srt, () => '', r('Failure'));
    assert.deepEqual(failed.containersToKill, [{ id: 'sc', name: 'side', message: 'Init container side failed startup probe', graceSeconds: 30 }]);
    assert.deepEqual(failed.initContainersToStart, [0]);
  });
});
