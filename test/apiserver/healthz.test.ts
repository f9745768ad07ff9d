// /healthz, /livez and /readyz as kube-apiserver's healthz package answers them: `ok`, the
// verbose list, a failed check's 500 (reason withheld), `exclude`, and one check alone.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseHealthPath, rootHealth, serverHealthChecks, singleHealth, type HealthCheck } from '../../src/apiserver/healthz.js';
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

  it('paths', () => {
    assert.deepEqual(parseHealthPath('/readyz'), { endpoint: 'readyz' });
    assert.deepEqual(parseHealthPath('/livez/etcd'), { endpoint: 'livez', check: 'etcd' });
    assert.equal(parseHealthPath('/readyzz'), undefined);
    assert.equal(parseHealthPath('/version'), undefined);
  });
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
      { path: '/healthz?verbose', body: '[+]ping ok\n[+]etcd ok\nhealthz check passed\n' },
      { path: '/livez?verbose', body: '[+]ping ok\n[+]etcd ok\nlivez check passed\n' },
      { path: '/readyz?verbose', body: '[+]ping ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check passed\n' },
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
    const none = await admin.request('GET', '/readyz/no-such-check');
    assert.equal(none.status, 404);
  });

  // Last: it closes the server's store under it.
  it('fails /readyz with 500 once the store cannot answer', async () => {
    await s.store.close();
    const r = await anon.request('GET', '/readyz');
    assert.equal(r.status, 500);
    assert.equal(r.text, '[+]ping ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check failed\n');
    const alone = await admin.request('GET', '/livez/etcd');
    assert.equal(alone.status, 500);
    assert.match(alone.text, /^internal server error: .+\n$/);
  });
});
