// The API server on etcd when etcd's answer to a write is lost (the connection drops after etcd
// committed it; test/storage/etcdproxy.ts): the client gets kube-apiserver's answer for an etcd
// client error, a 500 with the error's text and no reason, never 409 for its own write, and the
// write is there once. One row per verb.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.js';
import { Client } from './client.js';
import { etcdMissing, sharedEtcd } from '../storage/etcdserver.js';
import { startEtcdProxy, type EtcdProxy } from '../storage/etcdproxy.js';

const prefix = `/lost-${process.pid}`;
const cm = (name: string, data: Record<string, string>, resourceVersion?: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) }, data });
const path = (name = '') => `/api/v1/namespaces/default/configmaps${name ? `/${name}` : ''}`;

/** responsewriters.ErrorToAPIStatus of the etcd client's error for a connection that broke. */
const lostAnswer = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'rpc error: code = Unavailable desc = Connection dropped', code: 500 };

interface Row {
  rule: string;
  name: string;
  /** Made before the row, with its answer. */
  setup?(client: Client): Promise<{ resourceVersion: string }>;
  request(client: Client, rv: string): Promise<{ status: number; text: string; json(): unknown }>;
  /** The object afterwards, read again (undefined: gone). */
  after(obj: { data?: Record<string, string> } | undefined): void;
}

const rows: Row[] = [
  {
    rule: 'POST: 500, not 409 AlreadyExists, and the object exists once',
    name: 'created',
    request: (c) => c.request('POST', path(), cm('created', { a: '1' })),
    after: (obj) => assert.deepEqual(obj?.data, { a: '1' }),
  },
  {
    rule: 'PUT with a resourceVersion: 500, not 409 Conflict, and the update is there',
    name: 'updated',
    setup: async (c) => (await c.request('POST', path(), cm('updated', { a: '1' }))).json().metadata,
    request: (c, rv) => c.request('PUT', path('updated'), cm('updated', { a: '2' }, rv)),
    after: (obj) => assert.deepEqual(obj?.data, { a: '2' }),
  },
  {
    rule: 'DELETE: 500, not 404 NotFound, and the object is gone',
    name: 'deleted',
    setup: async (c) => (await c.request('POST', path(), cm('deleted', { a: '1' }))).json().metadata,
    request: (c) => c.request('DELETE', path('deleted')),
    after: (obj) => assert.equal(obj, undefined),
  },
];

describe('API server on etcd: a write whose answer etcd sent but the server never got', { skip: etcdMissing() }, () => {
  let proxy: EtcdProxy;
  let s: RunningApiServer;
  let dir: string;
  let client: Client;
  before(async () => {
    proxy = await startEtcdProxy((await sharedEtcd()).endpoint);
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-lost-'));
    s = await startApiServer({ dataDir: join(dir, 'data'), store: `etcd://${proxy.endpoint}`, storeOptions: { etcdPrefix: prefix }, port: 0 });
    client = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    client?.close();
    await s?.close();
    await proxy?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const row of rows) {
    it(row.rule, async () => {
      const rv = (await row.setup?.(client))?.resourceVersion ?? '';
      let lost = false;
      void proxy.dropAnswer({ method: '/etcdserverpb.KV/Txn', bodyContains: Buffer.from(`${prefix}/registry/configmaps/default/${row.name}`) }).then(() => (lost = true));
      const r = await row.request(client, rv);
      proxy.disarm();
      assert.ok(lost, `the write's answer was lost (${r.status} ${r.text})`);
      assert.equal(r.status, 500, r.text);
      assert.deepEqual(r.json(), lostAnswer);
      const got = await client.request('GET', path(row.name));
      row.after(got.status === 404 ? undefined : got.json());
      const named = (await client.request('GET', path())).json().items.filter((o: { metadata: { name: string } }) => o.metadata.name === row.name);
      assert.equal(named.length, got.status === 404 ? 0 : 1);
    });
  }
});
