// What a kind's PrepareForCreate does to a create before validation, through the real HTTP API:
// a LimitRange sent without a name (and without generateName) is named with a fresh UUID, as
// pkg/registry/core/limitrange/strategy.go does; other kinds answer such a create with a 422.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const rows: { rule: string; path: string; body: Record<string, unknown>; status: number; name?: RegExp; message?: string }[] = [
  {
    rule: 'a LimitRange without a name is named with a UUID',
    path: '/api/v1/namespaces/default/limitranges',
    body: { apiVersion: 'v1', kind: 'LimitRange', metadata: {}, spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] } },
    status: 201,
    name: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  },
  {
    rule: 'a LimitRange with generateName keeps the generated name',
    path: '/api/v1/namespaces/default/limitranges',
    body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { generateName: 'lr-' }, spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] } },
    status: 201,
    name: /^lr-[a-z0-9]{5}$/,
  },
  {
    rule: 'a ConfigMap without a name is a 422',
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} },
    status: 422,
    message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
  },
];

describe('PrepareForCreate', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-preparecreate-'));
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, workloadControllers: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const row of rows) {
    it(row.rule, async () => {
      const r = await admin.request('POST', row.path, row.body);
      assert.equal(r.status, row.status, r.text);
      const body = r.json();
      if (row.message) assert.equal(body.message, row.message);
      if (row.name) {
        assert.match(body.metadata.name, row.name);
        assert.equal((await admin.request('GET', `${row.path}/${body.metadata.name}`)).status, 200);
      }
    });
  }
});
