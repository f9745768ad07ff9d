// The controllers' event recorder: client-go's naming and folding of repeats, and its bounded
// queue (1,000 waiting events; more are dropped).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Event, KubeObject } from '../../src/api/types.js';
import type { RequestInfo } from '../../src/apiserver/rest.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { ApiEventRecorder, maxQueuedEvents } from '../../src/controllers/events.js';
import { TokenBucket } from '../../src/client/ratelimit.js';

const user: RequestInfo = { user: { name: 'system:kube-scheduler', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };
const pod = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7' } });

describe('ApiEventRecorder', () => {
  let s: RunningServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-events-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const events = async (name: string) => ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).filter((e) => e.involvedObject.name === name);

  it('writes an event about the object, then folds a repeat into it', async () => {
    const r = new ApiEventRecorder(s.api, { component: 'default-scheduler' }, user);
    r.record(pod('a'), 'Warning', 'FailedScheduling', 'Scheduling', 'no nodes available to schedule pods');
    r.record(pod('a'), 'Warning', 'FailedScheduling', 'Scheduling', 'no nodes available to schedule pods');
    r.record(pod('a'), 'Warning', 'FailedScheduling', 'Scheduling', 'something else');
    await r.flush();
    const evs = (await events('a')).sort((x, y) => (x.message! < y.message! ? -1 : 1));
    assert.deepEqual(
      evs.map((e) => [e.message, e.count, e.type, e.reason, e.action, e.source?.component, e.reportingComponent, e.involvedObject.uid, e.involvedObject.resourceVersion]),
      [
        ['no nodes available to schedule pods', 2, 'Warning', 'FailedScheduling', 'Scheduling', 'default-scheduler', 'default-scheduler', 'uid-a', '7'],
        ['something else', 1, 'Warning', 'FailedScheduling', 'Scheduling', 'default-scheduler', 'default-scheduler', 'uid-a', '7'],
      ],
    );
  });

  it(`keeps at most ${maxQueuedEvents} events waiting and drops the rest`, async () => {
    // A limiter that grants nothing for a long while holds the first write back.
    const r = new ApiEventRecorder(s.api, { component: 'default-scheduler' }, user, new TokenBucket(0.001, 0));
    for (let i = 0; i <= maxQueuedEvents + 5; i++) r.record(pod('flood'), 'Warning', 'FailedScheduling', 'Scheduling', `m${i}`);
    // One is being written, a thousand wait, five are dropped.
    assert.equal(r.dropped, 5);
    await r.stop();
    assert.equal((await events('flood')).length, 0);
  });
});
