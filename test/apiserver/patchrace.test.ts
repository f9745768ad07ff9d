// Concurrent PATCHes of one object without a resourceVersion all apply, as upstream's
// GuaranteedUpdate retries a lost race until it wins: a 409 is only for a patch that names a
// resourceVersion (a precondition). Before the retry waited for the turn that commits the
// winner's write, losers read the store's open group, found the watch cache behind it, and ran
// out of attempts within one turn (`kubectl label` of a node its agent was writing got "the
// object has been modified"). Each row sends its patches at once, in several rounds.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const cm = '/api/v1/namespaces/default/configmaps';

const rows = [
  { rule: 'merge patches of distinct keys', type: 'application/merge-patch+json', writers: 4, body: (w: number, round: number) => ({ data: { [`w${w}`]: String(round) } }) },
  { rule: 'strategic merge patches from many writers', type: 'application/strategic-merge-patch+json', writers: 24, body: (w: number, round: number) => ({ data: { [`w${w}`]: String(round) } }) },
  { rule: 'JSON patches adding distinct keys', type: 'application/json-patch+json', writers: 8, body: (w: number, round: number) => [{ op: 'add', path: `/data/w${w}`, value: String(round) }] },
];

describe('concurrent PATCHes without a resourceVersion', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-patchrace-'));
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, workloadControllers: false });
    admin = new Client(s.url, s.caCert, s.adminToken, 64);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [i, row] of rows.entries()) {
    it(`${row.rule}: every one applies, none answers 409`, async () => {
      const name = `race-${i}`;
      assert.equal((await admin.request('POST', cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { start: 'x' } })).status, 201);
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(Array.from({ length: row.writers }, (_, w) => admin.request('PATCH', `${cm}/${name}`, row.body(w, round), { 'Content-Type': row.type })));
        for (const r of answers) assert.equal(r.status, 200, r.text);
        const data = (await admin.request('GET', `${cm}/${name}`)).json().data as Record<string, string>;
        for (let w = 0; w < row.writers; w++) assert.equal(data[`w${w}`], String(round), `writer ${w} in round ${round}`);
      }
    });
  }

  it('a patch that names a stale resourceVersion is still a 409', async () => {
    const created = (await admin.request('POST', cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stale' }, data: { a: '1' } })).json();
    assert.equal((await admin.request('PATCH', `${cm}/stale`, { data: { a: '2' } }, { 'Content-Type': 'application/merge-patch+json' })).status, 200);
    const r = await admin.request('PATCH', `${cm}/stale`, { metadata: { resourceVersion: created.metadata.resourceVersion }, data: { a: '3' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(r.status, 409, r.text);
    assert.match(r.json().message, /the object has been modified/);
  });
});
