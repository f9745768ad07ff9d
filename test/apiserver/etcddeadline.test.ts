// The API server on etcd when a member stops answering without closing the connection
// (test/storage/etcdproxy.ts's holdAnswers): a request's etcd call carries the request's deadline
// (--request-timeout, 1 s here) and is cancelled when it passes, and the client gets what
// kube-apiserver's timeout filter answers (server/filters/timeout.go): 504, the Status of
// NewTimeoutError("request did not complete within the allotted timeout") with no kind, sniffed
// as text/plain. A write whose Txn was sent and never answered answers the same (its outcome is
// unknown: "may still be processing the request"), never 409, and is there at most once. Once the
// member answers again, so does the server. One row per verb; nothing asserts a duration.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.js';
import { Client } from './client.js';
import { etcdMissing, sharedEtcd } from '../storage/etcdserver.js';
import { startEtcdProxy, type DropRule, type EtcdProxy } from '../storage/etcdproxy.js';

const prefix = `/deadline-${process.pid}`;
const cm = (name: string, data: Record<string, string>, resourceVersion?: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) }, data });
const path = (name = '') => `/api/v1/namespaces/default/configmaps${name ? `/${name}` : ''}`;
const etcdKey = (name: string) => Buffer.from(`${prefix}/registry/configmaps/default/${name}`);
const Txn = '/etcdserverpb.KV/Txn';

/** timeout.go's answer, byte for byte: json.Encoder's line for the StatusError's ErrStatus. */
const timeoutBody = '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

interface Row {
  rule: string;
  name: string;
  /** Which calls the member leaves unanswered: every KV call, or the row's write (its Txn). */
  hold: 'all' | 'write';
  setup?(client: Client): Promise<{ resourceVersion: string }>;
  request(client: Client, rv: string): Promise<{ status: number; text: string; headers: Record<string, unknown> }>;
  /** The object read again once the member answers (undefined: absent). */
  after?(obj: { data?: Record<string, string> } | undefined): void;
}

const rows: Row[] = [
  {
    rule: 'GET: 504 Timeout at the deadline',
    name: 'got',
    hold: 'all',
    setup: async (c) => (await c.request('POST', path(), cm('got', { a: '1' }))).json().metadata,
    request: (c) => c.request('GET', path('got')),
  },
  { rule: 'LIST: 504 Timeout at the deadline', name: 'listed', hold: 'all', request: (c) => c.request('GET', path()) },
  {
    rule: 'POST whose Txn got no answer: 504 Timeout, not 409, and the object exists at most once',
    name: 'created',
    hold: 'write',
    request: (c) => c.request('POST', path(), cm('created', { a: '1' })),
    after: (obj) => assert.ok(obj === undefined || obj.data?.a === '1'),
  },
  {
    rule: 'PUT whose Txn got no answer: 504 Timeout, not 409 Conflict, and the update applied at most once',
    name: 'updated',
    hold: 'write',
    setup: async (c) => (await c.request('POST', path(), cm('updated', { a: '1' }))).json().metadata,
    request: (c, rv) => c.request('PUT', path('updated'), cm('updated', { a: '2' }, rv)),
    after: (obj) => assert.ok(obj?.data?.a === '1' || obj?.data?.a === '2'),
  },
  {
    rule: 'DELETE whose Txn got no answer: 504 Timeout, not 404',
    name: 'deleted',
    hold: 'write',
    setup: async (c) => (await c.request('POST', path(), cm('deleted', { a: '1' }))).json().metadata,
    request: (c) => c.request('DELETE', path('deleted')),
    after: (obj) => assert.ok(obj === undefined || obj.data?.a === '1'),
  },
];

async function eventually(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(cond(), what);
}

describe('API server on etcd: a silent member and --request-timeout', { skip: etcdMissing() }, () => {
  let proxy: EtcdProxy;
  let s: RunningApiServer;
  let dir: string;
  let client: Client;
  before(async () => {
    proxy = await startEtcdProxy((await sharedEtcd()).endpoint);
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-deadline-'));
    s = await startApiServer({ dataDir: join(dir, 'data'), store: `etcd://${proxy.endpoint}`, storeOptions: { etcdPrefix: prefix }, port: 0, requestTimeoutSeconds: 1 });
    client = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    proxy?.answerAgain();
    client?.close();
    await s?.close();
    await proxy?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const row of rows) {
    // A generous bound: without a deadline the call would wait for ever.
    it(row.rule, { timeout: 20_000 }, async () => {
      const rv = (await row.setup?.(client))?.resourceVersion ?? '';
      const cancelled = proxy.held.cancelledByClient;
      const rule: DropRule | undefined = row.hold === 'write' ? { method: Txn, bodyContains: etcdKey(row.name) } : undefined;
      proxy.holdAnswers(rule);
      let r;
      try {
        r = await row.request(client, rv);
        await eventually('the etcd call made for the request was cancelled', () => proxy.held.cancelledByClient > cancelled);
      } finally {
        proxy.answerAgain();
      }
      assert.equal(r.status, 504, r.text);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(r.text, timeoutBody);
      // The member answers again: so does the server, and the object is as the write left it or as before.
      if (row.after) {
        const got = await client.request('GET', path(row.name));
        assert.ok(got.status === 200 || got.status === 404, got.text);
        row.after(got.status === 404 ? undefined : got.json());
        const named = (await client.request('GET', path())).json().items.filter((o: { metadata: { name: string } }) => o.metadata.name === row.name);
        assert.equal(named.length, got.status === 404 ? 0 : 1);
      }
      const listed = await client.request('GET', path());
      assert.equal(listed.status, 200, listed.text);
      const created = await client.request('POST', path(), cm(`${row.name}-after`, { b: '1' }));
      assert.equal(created.status, 201, created.text);
    });
  }

  it('/readyz/etcd against a silent member: the request deadline (1 s, before the check\'s 2 s) answers 504 and cancels the check\'s etcd call; ok once it answers', { timeout: 20_000 }, async () => {
    const cancelled = proxy.held.cancelledByClient;
    proxy.holdAnswers();
    let r;
    try {
      r = await client.request('GET', '/readyz/etcd');
      await eventually('the check\'s etcd call was cancelled', () => proxy.held.cancelledByClient > cancelled);
    } finally {
      proxy.answerAgain();
    }
    assert.equal(r.status, 504, r.text);
    assert.equal(r.text, timeoutBody);
    const again = await client.request('GET', '/readyz/etcd');
    assert.equal(again.status, 200, again.text);
  });
});
