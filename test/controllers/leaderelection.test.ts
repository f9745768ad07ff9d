// Leader election of the controllers and the scheduler (src/client/leaderelection.ts, wired in
// src/server/start.ts) against the in-process server: a lone server leads at once and says so in
// its Leases; a clean shutdown releases them, so a restart under a new identity leads at once
// too; of two candidates one leads, and when it can no longer reach the server it stops leading
// and the other takes over. Every wait polls for a condition.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { LoopbackClient } from '../../src/client/loopback.js';
import { LeaderElector } from '../../src/client/leaderelection.js';
import type { KubeClient } from '../../src/client/interface.js';
import { leasesRef } from '../../src/client/resources.js';
import type { Lease } from '../../src/api/types.js';

async function until(cond: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await cond())) await sleep(50);
}

describe('leader election on a lone server', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-leader-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('leads at once, releases on close, and a restart under a new identity leads at once', async () => {
    const opts = { dataDir: join(dir, 'data'), port: 0 };
    const a = await startServer({ ...opts, leaderIdentity: 'host_a' });
    const c = new LoopbackClient(a.api, { user: 'test-admin', groups: ['system:masters'] });
    try {
      assert.deepEqual(a.leading(), { controllers: true, scheduler: true });
      assert.ok(a.quota && a.scheduler && a.nodeLifecycle && a.taintEviction);
      for (const name of ['kube-controller-manager', 'kube-scheduler']) {
        const l = await c.get<Lease>(leasesRef, 'kube-system', name);
        assert.equal(l.spec?.holderIdentity, 'host_a');
        assert.equal(l.spec?.leaseDurationSeconds, 15);
        assert.equal(l.spec?.leaseTransitions, 0);
      }
    } finally {
      await a.close();
    }
    const b = await startServer({ ...opts, leaderIdentity: 'host_b' });
    try {
      assert.deepEqual(b.leading(), { controllers: true, scheduler: true });
      const l = await new LoopbackClient(b.api, { user: 'test-admin', groups: ['system:masters'] }).get<Lease>(leasesRef, 'kube-system', 'kube-controller-manager');
      assert.equal(l.spec?.holderIdentity, 'host_b');
      assert.equal(l.spec?.leaseTransitions, 1);
    } finally {
      await b.close();
    }
  });
});

/** A client that can be cut off from the server, as a leader whose network fails. */
function cuttable(inner: KubeClient): { client: KubeClient; cut(): void } {
  let cut = false;
  const client = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => (cut && prop !== 'now' ? Promise.reject(new Error('connection refused')) : (v as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
  return { client, cut: () => void (cut = true) };
}

describe('two candidates for one Lease', () => {
  let dir: string;
  let s: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-leader2-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, leaderElection: false, scheduler: false });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('one leads; when it cannot renew it stops leading and the other takes over', async () => {
    const timings = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 1000 };
    const log: string[] = [];
    const loopback = () => new LoopbackClient(s.api, { user: 'system:serviceaccount:kube-system:leader-election', groups: ['system:masters'] });
    const first = cuttable(loopback());
    const one = new LeaderElector({ client: first.client, name: 'test-lock', identity: 'one', timings, onStartedLeading: () => void log.push('one started'), onStoppedLeading: () => void log.push('one stopped') });
    const two = new LeaderElector({ client: loopback(), name: 'test-lock', identity: 'two', timings, onStartedLeading: () => void log.push('two started'), onStoppedLeading: () => void log.push('two stopped') });
    try {
      await one.run();
      await two.run();
      assert.deepEqual([one.isLeader(), two.isLeader()], [true, false]);
      assert.deepEqual(log, ['one started']);
      first.cut();
      await until(() => log.includes('one stopped') && log.includes('two started'));
      assert.deepEqual([one.isLeader(), two.isLeader()], [false, true]);
      const l = await loopback().get<Lease>(leasesRef, 'kube-system', 'test-lock');
      assert.equal(l.spec?.holderIdentity, 'two');
      assert.equal(l.spec?.leaseTransitions, 1);
    } finally {
      await one.stop();
      await two.stop();
    }
    // Stopping the leader released the Lease.
    const l = await loopback().get<Lease>(leasesRef, 'kube-system', 'test-lock');
    assert.equal(l.spec?.holderIdentity, undefined);
  });
});
