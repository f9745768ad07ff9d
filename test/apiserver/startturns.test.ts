// The order of a server's start once it listens (src/apiserver/startturns.ts): a step of the start
// waits for a connection accepted before it until its first request is answered, and does not
// wait for one that stalled or failed its handshake; /readyz answers 200 only once what it reports
// is done (the system namespaces and PriorityClasses, the kubernetes Service), and the kubernetes
// Endpoints and the controllers are there once the start returns.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensurePKI } from '../../src/apiserver/pki.js';
import { StartTurns } from '../../src/apiserver/startturns.js';
import { TokenFile, adminUser } from '../../src/apiserver/auth.js';
import { mastersGroup } from '../../src/apiserver/authorizer.js';
import { systemNamespaces } from '../../src/apiserver/server.js';
import { startServer } from '../../src/server/start.js';
import { freePort } from '../freeport.js';
import { Client } from './client.js';

const loopTurns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** Whether `p` settled within `n` turns of the event loop (no timer can fire in between unless one is due). */
async function settlesWithin<T>(p: Promise<T>, n: number): Promise<boolean> {
  let settled = false;
  void p.then(() => (settled = true));
  await loopTurns(n);
  return settled;
}

describe('StartTurns: a start step after each connection\'s first answer', () => {
  let dir: string;
  let server: Server;
  let turns: StartTurns;
  let port: number;
  const held: (() => void)[] = [];
  const events: string[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-startturns-'));
    const pki = await ensurePKI(dir, ['127.0.0.1']);
    server = createServer({ cert: pki.serverCert, key: pki.serverKey }, (req, res) => {
      // Each request is answered when the test says so.
      held.push(() => res.end('ok'));
      res.on('close', () => events.push(`answered ${req.url}`));
    });
    // No stall bound within a test: a turn that goes on did not wait for its connections.
    turns = new StartTurns(server, 600_000);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('with no connection in progress, a turn is one turn of the event loop', async () => {
    assert.equal(await settlesWithin(turns.turn(), 3), true);
  });

  it('a turn waits for the first request of a connection accepted before it, until it is answered', async () => {
    const requested = new Promise<void>((r) => server.once('request', () => r()));
    const got = new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/first', rejectUnauthorized: false, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      });
      req.on('error', reject);
      req.end();
    });
    await requested;
    assert.equal(turns.inProgress, 1);
    const turn = turns.turn().then(() => events.push('turn'));
    assert.equal(await settlesWithin(turn, 20), false, 'the turn went on with the request unanswered');
    held.shift()!();
    await turn;
    assert.deepEqual(events.splice(0), ['answered /first', 'turn']);
    assert.equal(await got, '200');
    // A second request on the same connection is not waited for: only a connection's first.
    assert.equal(await settlesWithin(turns.turn(), 3), true);
  });

  it('a handshake that failed is not waited for', async () => {
    // An HTTP request where the ClientHello should be: OpenSSL refuses it (tlsClientError).
    const failed = new Promise<void>((r) => server.once('tlsClientError', () => r()));
    const raw: Socket = tcpConnect(port, '127.0.0.1', () => raw.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    raw.on('error', () => undefined);
    await failed;
    assert.equal(turns.inProgress, 0);
    assert.equal(await settlesWithin(turns.turn(), 3), true);
    raw.destroy();
  });

  it('a connection that stalls in its handshake holds a turn back for the stall bound once, then is not waited for again', async () => {
    const stalling = new StartTurns(server, 50);
    const accepted = new Promise<void>((r) => server.once('connection', () => r()));
    const raw: Socket = tcpConnect(port, '127.0.0.1');
    raw.on('error', () => undefined);
    await accepted;
    assert.equal(stalling.inProgress, 1);
    await stalling.turn();
    assert.equal(stalling.inProgress, 0);
    assert.equal(await settlesWithin(stalling.turn(), 3), true);
    // Closed before its handshake: a failed handshake to the server (tlsClientError), not waited for.
    assert.equal(turns.inProgress, 1);
    const gone = new Promise<void>((r) => server.once('tlsClientError', () => r()));
    raw.destroy();
    await gone;
    assert.equal(turns.inProgress, 0);
  });

  it('a connection whose handshake completes is waited for until its first request is answered, not its handshake alone', async () => {
    const secured = new Promise<void>((r) => server.once('secureConnection', () => r()));
    const tls = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    tls.on('error', () => undefined);
    await secured;
    assert.equal(turns.inProgress, 1);
    const turn = turns.turn().then(() => events.push('turn'));
    assert.equal(await settlesWithin(turn, 20), false);
    const requested = new Promise<void>((r) => server.once('request', () => r()));
    tls.write('GET /late HTTP/1.1\r\nHost: x\r\n\r\n');
    await requested;
    held.shift()!();
    await turn;
    assert.deepEqual(events.splice(0), ['answered /late', 'turn']);
    tls.destroy();
  });
});

describe('a start: /readyz and what it waits for', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-startorder-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const run of ['fresh data dir', 'restart']) {
    it(`${run}: the first 200 on /readyz comes with the system namespaces, PriorityClasses and the kubernetes Service there; the Endpoints and the controllers once the start returns`, async () => {
      const dataDir = join(dir, 'data');
      const port = await freePort();
      const starting = startServer({ dataDir, port });
      let failed: unknown;
      starting.catch((e: unknown) => (failed = e ?? 'failed'));
      const anon = (path: string) =>
        new Promise<{ status: number; text: string }>((resolve) => {
          const req = request({ host: '127.0.0.1', port, path, rejectUnauthorized: false, agent: false }, (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          });
          req.on('error', () => resolve({ status: 0, text: '' }));
          req.end();
        });
      let ready: { status: number; text: string };
      for (;;) {
        ready = await anon('/readyz?verbose');
        if (failed) throw failed;
        if (ready.status === 200) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      assert.equal(ready.status, 200, ready.text);
      // At the first 200, read through the API as the admin (the token is on disk before the server listens).
      const admin = new Client(`https://127.0.0.1:${port}`, readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8'), new TokenFile(join(dataDir, 'tokens.json')).ensure(adminUser, [mastersGroup]));
      try {
        const namespaces = (await admin.request('GET', '/api/v1/namespaces')).json().items.map((n: { metadata: { name: string } }) => n.metadata.name);
        for (const ns of systemNamespaces) assert.ok(namespaces.includes(ns), `namespace ${ns}`);
        const classes = (await admin.request('GET', '/apis/scheduling.k8s.io/v1/priorityclasses')).json().items.map((c: { metadata: { name: string } }) => c.metadata.name);
        assert.deepEqual(classes.sort(), ['system-cluster-critical', 'system-node-critical']);
        const svc = await admin.request('GET', '/api/v1/namespaces/default/services/kubernetes');
        assert.equal(svc.status, 200, svc.text);
        assert.deepEqual(svc.json().spec.ports, [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }]);
        const s = await starting;
        try {
          assert.deepEqual(s.leading(), { controllers: true, scheduler: true });
          assert.ok(s.quota && s.scheduler, 'the controllers and the scheduler run');
          assert.equal((await admin.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).status, 200);
          assert.equal((await admin.request('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')).status, 200);
        } finally {
          await s.close();
        }
      } finally {
        admin.close();
      }
    });
  }
});
