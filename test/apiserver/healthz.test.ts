// /healthz, /livez and /readyz as kube-apiserver's healthz package answers them: `ok`, the
// verbose list, a failed check's 500 (reason withheld), `exclude`, and one check alone.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { logHealthCheck, parseHealthPath, PostStartHook, rootHealth, serverHealthChecks, singleHealth, type HealthCheck, type LogCheckClock } from '../../src/apiserver/healthz.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';
import { carryDeadlines, currentDeadline, withDeadline } from '../../src/storage/deadline.js';

// As a store that bounds its calls (etcd.ts) turns it on.
carryDeadlines();

const ok = (name: string): HealthCheck => ({ name, check: async () => undefined });
const failing = (name: string, why: string): HealthCheck => ({
  name,
  check: async () => {
    throw new Error(why);
  },
});

describe('health endpoints: the answer', () => {
  const rows: { name: string; checks: HealthCheck[]; query: string; code: number; body: string }[] = [
    { name: 'all pass: ok, nothing else', checks: [ok('ping'), ok('etcd')], query: '', code: 200, body: 'ok' },
    { name: 'verbose: a line a check, then the endpoint passed', checks: [ok('ping'), ok('etcd')], query: 'verbose', code: 200, body: '[+]ping ok\n[+]etcd ok\nreadyz check passed\n' },
    {
      name: 'a failure is always verbose, its reason withheld, 500',
      checks: [ok('ping'), failing('etcd', 'connection refused')],
      query: '',
      code: 500,
      body: '[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n',
    },
    { name: 'an excluded check is not run', checks: [ok('ping'), failing('etcd', 'down')], query: 'exclude=etcd', code: 200, body: 'ok' },
    { name: 'an excluded check shows as excluded', checks: [ok('ping'), failing('etcd', 'down')], query: 'exclude=etcd&verbose', code: 200, body: '[+]ping ok\n[+]etcd excluded: ok\nreadyz check passed\n' },
    {
      name: 'excluding what is not there warns, names sorted and quoted',
      checks: [ok('ping')],
      query: 'exclude=zz&exclude=aa&verbose',
      code: 200,
      body: '[+]ping ok\nwarn: some health checks cannot be excluded: no matches for "aa","zz"\nreadyz check passed\n',
    },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      assert.deepEqual(await rootHealth('readyz', r.checks, new URLSearchParams(r.query)), { code: r.code, body: r.body });
    });
  }

  it('one check alone shows its reason', async () => {
    assert.deepEqual(await singleHealth(ok('etcd')), { code: 200, body: 'ok' });
    assert.deepEqual(await singleHealth(failing('etcd', 'store is closed')), { code: 500, body: 'internal server error: store is closed\n' });
  });

  it('a store read that does not answer fails the etcd check at its timeout', async () => {
    const checks = serverHealthChecks({ currentRevision: () => new Promise<number>(() => undefined) }, { shuttingDown: false }, 10);
    const etcd = checks.livez.find((c) => c.name === 'etcd')!;
    assert.deepEqual(await singleHealth(etcd), { code: 500, body: 'internal server error: etcd check timed out after 0.01s\n' });
  });

  it('the store read carries the check\'s timeout as its deadline (the etcd call is cancelled with it), or the request\'s when that comes first', async () => {
    const seen: (number | undefined)[] = [];
    const store = { currentRevision: async () => (seen.push(currentDeadline()?.at), 1) };
    const etcd = serverHealthChecks(store, { shuttingDown: false }, 60_000).livez.find((c) => c.name === 'etcd')!;
    const before = Date.now();
    await etcd.check();
    await withDeadline({ at: before + 5 }, () => etcd.check());
    assert.ok(seen[0] !== undefined && seen[0] >= before + 60_000, `the check's own deadline: ${seen[0]}`);
    assert.equal(seen[1], before + 5);
  });

  it('a post-start hook is "not finished" until its work is done', async () => {
    const hook = new PostStartHook('bootstrap-controller');
    assert.equal(hook.name, 'poststarthook/bootstrap-controller');
    assert.deepEqual(await singleHealth(hook), { code: 500, body: 'internal server error: not finished\n' });
    hook.finished();
    assert.deepEqual(await singleHealth(hook), { code: 200, body: 'ok' });
  });

  it('the checks in kube-apiserver\'s order: ping, log, etcd, the hooks; readyz adds etcd-readiness and informer-sync before them, shutdown last', () => {
    const hooks = [new PostStartHook('a'), new PostStartHook('b')];
    const checks = serverHealthChecks({ currentRevision: async () => 1 }, { shuttingDown: false }, 10, { postStartHooks: hooks });
    const names = (e: keyof typeof checks) => checks[e].map((c) => c.name);
    assert.deepEqual(names('livez'), ['ping', 'log', 'etcd', 'poststarthook/a', 'poststarthook/b']);
    assert.deepEqual(names('healthz'), ['ping', 'log', 'etcd', 'poststarthook/a', 'poststarthook/b']);
    assert.deepEqual(names('readyz'), ['ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', 'poststarthook/a', 'poststarthook/b', 'shutdown']);
  });

  it('paths', () => {
    assert.deepEqual(parseHealthPath('/readyz'), { endpoint: 'readyz' });
    assert.deepEqual(parseHealthPath('/livez/etcd'), { endpoint: 'livez', check: 'etcd' });
    assert.equal(parseHealthPath('/readyzz'), undefined);
    assert.equal(parseHealthPath('/version'), undefined);
  });
});

/** A clock the test moves: timers run when their time comes, flushes finish until `stuckAfter` of them have. */
function manualLog(stuckAfter: number): LogCheckClock & { advanceTo(t: number): Promise<void> } {
  let t = 0;
  let flushes = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    flush: () => (flushes++ < stuckAfter ? Promise.resolve() : new Promise<void>(() => undefined)),
    now: () => t,
    after: (fn, ms) => void timers.push({ at: t + ms, fn }),
    async advanceTo(to: number) {
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > to) break;
        timers.shift();
        t = next.at;
        next.fn();
        await settle();
      }
      t = to;
    },
  };
}

describe('log check (healthz.LogHealthz)', () => {
  const never = Number.MAX_SAFE_INTEGER;
  const rows: { name: string; stuckAfter: number; checks: [number, string][] }[] = [
    { name: 'the first check passes (and starts the flushing)', stuckAfter: never, checks: [[0, 'ok']] },
    { name: 'flushes that finish keep it passing', stuckAfter: never, checks: [[0, 'ok'], [60_000, 'ok'], [120_000, 'ok'], [600_000, 'ok']] },
    { name: 'a flush that never finishes: blocked two minutes after the last one that did', stuckAfter: 2, checks: [[0, 'ok'], [179_999, 'ok'], [180_000, 'logging blocked']] },
    { name: 'the first flush never finishes: blocked two minutes after the first check', stuckAfter: 0, checks: [[0, 'ok'], [119_999, 'ok'], [120_000, 'logging blocked'], [600_000, 'logging blocked']] },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const clock = manualLog(r.stuckAfter);
      const log = logHealthCheck(clock);
      assert.equal(log.name, 'log');
      for (const [at, want] of r.checks) {
        await clock.advanceTo(at);
        const got = await log.check().then(() => 'ok', (e: Error) => e.message);
        assert.equal(got, want, `at ${at} ms`);
        await new Promise((res) => setImmediate(res));
      }
    });
  }
});

describe('health endpoints of a running server', () => {
  let dir: string;
  let s: RunningServer;
  let admin: Client;
  let anon: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-healthz-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
    admin = new Client(s.url, s.caCert, s.adminToken);
    anon = new Client(s.url, s.caCert);
  });
  after(async () => {
    admin.close();
    anon.close();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists its checks to anyone', async () => {
    const rows: { path: string; body: string }[] = [
      { path: '/healthz?verbose', body: '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/start-system-namespaces-controller ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]poststarthook/scheduling/bootstrap-system-priority-classes ok\n[+]poststarthook/bootstrap-controller ok\nhealthz check passed\n' },
      { path: '/livez?verbose', body: '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/start-system-namespaces-controller ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]poststarthook/scheduling/bootstrap-system-priority-classes ok\n[+]poststarthook/bootstrap-controller ok\nlivez check passed\n' },
      { path: '/readyz?verbose', body: '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]informer-sync ok\n[+]poststarthook/start-system-namespaces-controller ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]poststarthook/scheduling/bootstrap-system-priority-classes ok\n[+]poststarthook/bootstrap-controller ok\n[+]shutdown ok\nreadyz check passed\n' },
      { path: '/livez?verbose&exclude=log', body: '[+]ping ok\n[+]log excluded: ok\n[+]etcd ok\n[+]poststarthook/start-system-namespaces-controller ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]poststarthook/scheduling/bootstrap-system-priority-classes ok\n[+]poststarthook/bootstrap-controller ok\nlivez check passed\n' },
      { path: '/readyz', body: 'ok' },
    ];
    for (const r of rows) {
      const got = await anon.request('GET', r.path);
      assert.equal(got.status, 200, r.path);
      assert.equal(got.text, r.body, r.path);
      assert.equal(got.headers['content-type'], 'text/plain; charset=utf-8', r.path);
    }
  });

  it('serves one check alone to an authorized caller only', async () => {
    assert.equal((await admin.request('GET', '/readyz/etcd')).text, 'ok');
    assert.equal((await anon.request('GET', '/readyz/etcd')).status, 401);
    for (const path of ['/livez/log', '/healthz/log', '/readyz/log', '/livez/poststarthook/bootstrap-controller']) {
      const r = await admin.request('GET', path);
      assert.equal(r.status, 200, path);
      assert.equal(r.text, 'ok', path);
    }
    assert.equal((await anon.request('GET', '/livez/log')).status, 401);
    const none = await admin.request('GET', '/readyz/no-such-check');
    assert.equal(none.status, 404);
  });

  // Last: it closes the server's store under it.
  it('fails /readyz with 500 once the store cannot answer', async () => {
    await s.store.close();
    const r = await anon.request('GET', '/readyz');
    assert.equal(r.status, 500);
    assert.equal(r.text, '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n[+]informer-sync ok\n[+]poststarthook/start-system-namespaces-controller ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]poststarthook/scheduling/bootstrap-system-priority-classes ok\n[+]poststarthook/bootstrap-controller ok\n[+]shutdown ok\nreadyz check failed\n');
    const alone = await admin.request('GET', '/livez/etcd');
    assert.equal(alone.status, 500);
    assert.match(alone.text, /^internal server error: .+\n$/);
  });
});
