// The request deadline of timeout.ts, apart from any store: which requests are long-running
// (kube-apiserver's BasicLongRunningRequestCheck), the deadline a `timeout` query parameter
// asks for (request_deadline.go: bounded by --request-timeout, a 400 in its words when it does
// not parse), and what a client gets when a handler outlives its deadline (server/filters/
// timeout.go's 504, the handler's later writes dropped). Then the whole server: a bad `timeout`
// is a 400, and a short one ends a request the store never answers (a store call held until
// the client has its answer) with the 504 long before --request-timeout (an hour there). One
// row per rule; a 100 ms deadline for the rows that time out, and nothing asserts a duration.

import assert from 'node:assert/strict';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { isLongRunning, requestTimeoutBody, requestTimeoutMs, runWithRequestTimeout } from '../../src/apiserver/timeout.js';
import { StatusError } from '../../src/apiserver/status.js';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from './client.js';
import { parseResourcePath } from '../../src/apiserver/request.js';
import { carryDeadlines, currentDeadline } from '../../src/storage/deadline.js';

// As a store that bounds its calls (etcd.ts) turns it on.
carryDeadlines();
import { StoreUnavailableError } from '../../src/storage/store.js';

describe('isLongRunning: the requests with no deadline', () => {
  const rows: [string, string, boolean][] = [
    ['a watch', '/api/v1/namespaces/default/pods?watch=true', true],
    ['a watch spelled 1', '/api/v1/pods?watch=1', true],
    ['a pod\'s log', '/api/v1/namespaces/default/pods/p/log?follow=true', true],
    ['exec', '/api/v1/namespaces/default/pods/p/exec?command=ls', true],
    ['attach', '/api/v1/namespaces/default/pods/p/attach', true],
    ['port-forward', '/api/v1/namespaces/default/pods/p/portforward', true],
    ['a node proxy', '/api/v1/nodes/n/proxy/metrics', true],
    ['a get', '/api/v1/namespaces/default/pods/p', false],
    ['a list', '/api/v1/namespaces/default/pods?watch=false', false],
    ['a status write', '/api/v1/namespaces/default/pods/p/status', false],
    ['an eviction', '/api/v1/namespaces/default/pods/p/eviction', false],
    ['discovery', '/apis', false],
  ];
  for (const [rule, url, long] of rows) {
    it(`${rule}: ${long ? 'long-running' : 'bounded'}`, () => {
      const u = new URL(url, 'https://x');
      assert.equal(isLongRunning(parseResourcePath(u.pathname), u.searchParams), long);
    });
  }
});

interface Row {
  rule: string;
  /** The handler; `late` resolves once the client has its answer. */
  handle(res: ServerResponse, late: Promise<void>): Promise<void>;
  /** The deadline: short for the rows that time out, far off for those that must not. */
  timeoutMs: number;
  status: number;
  body: string;
}

const timeoutRows: Row[] = [
  {
    rule: 'a handler that never answers: 504 with timeout.go\'s body, as text/plain',
    handle: () => new Promise<void>(() => {}),
    timeoutMs: 100,
    status: 504,
    body: requestTimeoutBody,
  },
  {
    rule: 'a handler that answers after the deadline: its answer (and its headers) dropped, the 504 stands',
    async handle(res, late) {
      res.setHeader('Warning', '299 - "set before the deadline"');
      await late;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"late":true}');
    },
    timeoutMs: 100,
    status: 504,
    body: requestTimeoutBody,
  },
  {
    rule: 'a store call that ran out of time (its deadline error reaching the top) answers the 504, not its 500',
    handle: () => Promise.reject(new StoreUnavailableError('context deadline exceeded', true)),
    timeoutMs: 60_000,
    status: 504,
    body: requestTimeoutBody,
  },
  {
    rule: 'a handler that answers in time is untouched, and ran under the deadline',
    async handle(res) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ deadline: currentDeadline() !== undefined }));
    },
    timeoutMs: 60_000,
    status: 200,
    body: '{"deadline":true}',
  },
];

describe('runWithRequestTimeout: the answer at the deadline', () => {
  let server: Server;
  let port: number;
  let current: Row;
  let answered!: () => void;
  before(async () => {
    server = createServer((_req, res) => {
      const late = new Promise<void>((r) => (answered = r));
      runWithRequestTimeout(res, Date.now(), current.timeoutMs, () => current.handle(res, late)).catch(() => {
        // handler.ts answers errors here; after the deadline nothing it writes gets out.
        if (!res.headersSent) {
          res.writeHead(500);
          res.end('error');
        } else res.destroy();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  for (const row of timeoutRows) {
    it(row.rule, async () => {
      current = row;
      const got = await new Promise<{ status: number; type: string | undefined; warning: unknown; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/v1/namespaces/default/pods/p', agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], warning: res.headers['warning'], body }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      answered();
      assert.equal(got.status, row.status, got.body);
      assert.equal(got.body, row.body);
      if (row.status === 504) {
        assert.equal(got.type, 'text/plain; charset=utf-8');
        assert.equal(got.warning, undefined);
      }
    });
  }
});

describe('requestTimeoutMs: the deadline a ?timeout= asks for (request_deadline.go)', () => {
  const max = 60_000;
  const rows: [string, string, number][] = [
    ['no timeout: --request-timeout', '', max],
    ['an empty timeout: --request-timeout', '?timeout=', max],
    ['a shorter one is the deadline', '?timeout=10ms', 10],
    ['in any Go spelling', '?timeout=1.5s', 1_500],
    ['kubectl --request-timeout=5s sends 5s', '?timeout=5s', 5_000],
    ['0s: no timeout on the user\'s part, --request-timeout', '?timeout=0s', max],
    ['a negative one: --request-timeout', '?timeout=-1s', max],
    ['one as long as --request-timeout: --request-timeout', '?timeout=1m', max],
    ['a longer one is bounded by --request-timeout', '?timeout=2h', max],
    ['a longer one in several units too', '?timeout=1m0.5s', max],
    ['fractions of a millisecond are kept', '?timeout=1500us', 1.5],
  ];
  for (const [rule, query, want] of rows) {
    it(`${rule}: ${want} ms`, () => assert.equal(requestTimeoutMs(new URLSearchParams(query), max), want));
  }
  const bad: [string, string][] = [
    ['abc', 'invalid timeout specified in the request URL - time: invalid duration "abc"'],
    ['5', 'invalid timeout specified in the request URL - time: missing unit in duration "5"'],
    ['1d', 'invalid timeout specified in the request URL - time: unknown unit "d" in duration "1d"'],
    ['.s', 'invalid timeout specified in the request URL - time: invalid duration ".s"'],
    ['9223372036854775808ns', 'invalid timeout specified in the request URL - time: invalid duration "9223372036854775808ns"'],
    ['3 s', 'invalid timeout specified in the request URL - time: unknown unit " s" in duration "3 s"'],
  ];
  for (const [value, message] of bad) {
    it(`timeout=${value}: 400 BadRequest, ${message}`, () => {
      assert.throws(() => requestTimeoutMs(new URLSearchParams({ timeout: value }), max), (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.deepEqual(e.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
        return true;
      });
    });
  }
});

describe('?timeout= through the whole server', () => {
  let dir: string;
  let s: RunningApiServer;
  let c: Client;
  /** The held store reads, released once the row has its answer. */
  const held: (() => void)[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-timeoutparam-'));
    // An hour: only the request's own timeout can end a held request in this test.
    s = await startApiServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, requestTimeoutSeconds: 3600 });
    c = new Client(s.url, s.caCert, s.adminToken);
    const cm = await c.request('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held' } });
    assert.equal(cm.status, 201, cm.text);
    // A store that never answers a read of this one object until told to.
    const get = s.store.get.bind(s.store);
    s.store.get = (key, ...rest) => {
      if (!key.endsWith('/configmaps/default/held')) return get(key, ...rest);
      return new Promise((resolve) => held.push(() => resolve(get(key, ...rest))));
    };
  });
  after(async () => {
    for (const release of held.splice(0)) release();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a timeout that does not parse: 400 with request_deadline.go\'s message, before anything else', { timeout: 30_000 }, async () => {
    const r = await c.request('GET', '/api/v1/namespaces/default/configmaps/held?timeout=10');
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'invalid timeout specified in the request URL - time: missing unit in duration "10"', reason: 'BadRequest', code: 400 });
    assert.equal(held.length, 0, 'the store was not asked');
    const anon = await new Client(s.url, s.caCert, '').request('GET', '/api/v1/namespaces?timeout=x');
    assert.equal(anon.status, 400, 'the deadline filter runs before authentication');
  });

  // The bound only ends a request that nothing times out (as before ?timeout= was read); it is no measure.
  it('a timeout shorter than the work: kube\'s 504 at that timeout, not at --request-timeout', { timeout: 30_000 }, async () => {
    const r = await c.request('GET', '/api/v1/namespaces/default/configmaps/held?timeout=50ms');
    for (const release of held.splice(0)) release();
    assert.equal(r.status, 504, r.text);
    assert.equal(r.text, requestTimeoutBody);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
  });

  it('a watch is long-running: its timeout is not a deadline (nor checked)', async () => {
    const r = await c.request('GET', '/api/v1/namespaces/default/configmaps?watch=true&timeout=x&timeoutSeconds=1');
    assert.equal(r.status, 200, r.text);
  });
});
