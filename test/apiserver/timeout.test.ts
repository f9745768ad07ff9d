// The request deadline of timeout.ts, apart from any store: which requests are long-running
// (kube-apiserver's BasicLongRunningRequestCheck), and what a client gets when a handler outlives
// its deadline (server/filters/timeout.go's 504, the handler's later writes dropped). One row per
// rule; a 100 ms deadline for the rows that time out, and nothing asserts a duration.

import assert from 'node:assert/strict';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { isLongRunning, requestTimeoutBody, runWithRequestTimeout } from '../../src/apiserver/timeout.js';
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
