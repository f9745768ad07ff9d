// Request decoding and transport hardening against a real server in this process: bounded YAML
// and JSON bodies, paths read as sent (no dot-segment resolution), unparsable query numbers,
// malformed HTTP, plain HTTP on the TLS port, connection timeouts, and query booleans as
// apimachinery converts them. Raw requests (paths sent verbatim, sockets for malformed ones).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/start.js';

interface Reply {
  status: number;
  text: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One request with the path exactly as given (Node sends it verbatim). */
function send(s: RunningServer, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
  const u = new URL(s.url);
  const opts: RequestOptions = {
    host: u.hostname,
    port: u.port,
    method,
    path,
    ca: s.caCert,
    agent: false,
    headers: { Authorization: `Bearer ${s.adminToken}`, Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
  };
  return new Promise((resolve, reject) => {
    const req = request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function tlsSocket(s: RunningServer): Promise<TLSSocket> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const sock = tlsConnect({ host: u.hostname, port: Number(u.port), ca: s.caCert, servername: 'localhost' }, () => resolve(sock));
    sock.on('error', reject);
  });
}

/** Everything the server writes until it closes the connection. */
function readUntilClose(sock: Socket): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    sock.on('data', (d: Buffer) => (out += d.toString('utf8')));
    sock.on('error', () => {});
    sock.on('close', () => resolve(out));
  });
}

function statusOf(response: string): { code: number; body: any } { // eslint-disable-line @typescript-eslint/no-explicit-any
  const [head, ...rest] = response.split('\r\n\r\n');
  return { code: Number(/^HTTP\/1\.[01] (\d+)/.exec(head ?? '')?.[1]), body: JSON.parse(rest.join('\r\n\r\n')) };
}

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });

/** The classic billion laughs: ten levels of nine aliases, about 500 bytes. */
function laughs(levels: number, fanout: number, indent = ''): string {
  let s = `${indent}a0: &a0 "lol"\n`;
  for (let l = 1; l <= levels; l++) s += `${indent}a${l}: &a${l} [${Array(fanout).fill(`*a${l - 1}`).join(', ')}]\n`;
  return s;
}

const podYAML = (name: string, extra = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  annotations:\n${extra}spec:\n  containers:\n  - name: c\n    image: busybox\n`;

async function startTest(extra: Partial<ServerOptions> = {}): Promise<{ s: RunningServer; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-hardening-'));
  const s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false, ...extra });
  return {
    s,
    async stop() {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('request decoding and transport hardening', () => {
  let s: RunningServer;
  let stop: () => Promise<void>;
  before(async () => {
    ({ s, stop } = await startTest());
  });
  after(async () => stop?.());

  describe('1. YAML and JSON bodies are decoded within bounds', () => {
    const deepJSON = (d: number) => '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"deep","annotations":' + '{"a":'.repeat(d) + '"x"' + '}'.repeat(d) + '}}';
    const rows: { name: string; method: string; path: string; type: string; body: string; code: number; message: string | RegExp }[] = [
      {
        name: 'an alias bomb sent as server-side apply is refused by go-yaml’s alias ratio',
        method: 'PATCH', path: '/api/v1/namespaces/default/pods/bomb?fieldManager=m', type: 'application/apply-patch+yaml',
        body: podYAML('bomb') + laughs(9, 9), code: 400, message: 'error encoding patch: yaml: document contains excessive aliasing',
      },
      {
        name: 'an alias bomb sent as a YAML create is refused',
        method: 'POST', path: '/api/v1/namespaces/default/pods', type: 'application/yaml',
        body: podYAML('bomb') + laughs(9, 9), code: 400, message: 'Pod in version "v1" cannot be handled as a Pod: yaml: document contains excessive aliasing',
      },
      {
        name: 'an alias bomb sent as a YAML update is refused',
        method: 'PUT', path: '/api/v1/namespaces/default/pods/bomb', type: 'application/yaml',
        body: podYAML('bomb') + laughs(9, 9), code: 400, message: 'Pod in version "v1" cannot be handled as a Pod: yaml: document contains excessive aliasing',
      },
      {
        name: 'an anchor that contains itself is refused, not a cycle',
        method: 'POST', path: '/api/v1/namespaces/default/pods', type: 'application/yaml',
        body: podYAML('cycle') + 'self: &x {b: *x}\n', code: 400, message: `Pod in version "v1" cannot be handled as a Pod: yaml: anchor 'x' value contains itself`,
      },
      {
        name: 'YAML nested deeper than the bound is refused with go-yaml’s wording',
        method: 'POST', path: '/api/v1/namespaces/default/pods', type: 'application/yaml',
        body: podYAML('deep', `    a: ${'['.repeat(1001)}${']'.repeat(1001)}\n`), code: 400, message: /^Pod in version "v1" cannot be handled as a Pod: yaml: line 6: exceeded max depth of 1000$/,
      },
      {
        name: 'depth built by aliases is bounded too',
        method: 'PATCH', path: '/api/v1/namespaces/default/pods/deep?fieldManager=m', type: 'application/apply-patch+yaml',
        body: podYAML('deep') + `x: &x ${'['.repeat(600)}${']'.repeat(600)}\ny: ${'['.repeat(600)}*x${']'.repeat(600)}\n`, code: 400, message: 'error encoding patch: yaml: line 10: exceeded max depth of 1000',
      },
      {
        name: 'JSON nested deeper than the bound is refused with encoding/json’s wording',
        method: 'POST', path: '/api/v1/namespaces/default/pods', type: 'application/json',
        body: deepJSON(1001), code: 400, message: `Pod in version "v1" cannot be handled as a Pod: couldn't get version/kind; json parse error: invalid character '{' exceeded max depth`,
      },
      {
        name: 'a too deep JSON body for update is refused',
        method: 'PUT', path: '/api/v1/namespaces/default/pods/deep', type: 'application/json',
        body: deepJSON(1001), code: 400, message: `Pod in version "v1" cannot be handled as a Pod: couldn't get version/kind; json parse error: invalid character '{' exceeded max depth`,
      },
      {
        name: 'a too deep JSON merge patch is not valid JSON to the transcoder',
        method: 'PATCH', path: '/api/v1/namespaces/default/pods/deep', type: 'application/merge-patch+json',
        body: deepJSON(1001), code: 400, message: 'invalid JSON patch',
      },
      {
        name: 'a too deep JSON body sent as apply is refused by the apply patcher’s YAML decoder',
        method: 'PATCH', path: '/api/v1/namespaces/default/pods/deep?fieldManager=m', type: 'application/apply-patch+yaml',
        body: deepJSON(1001), code: 400, message: 'error decoding patch: error converting YAML to JSON: yaml: exceeded max depth of 1000',
      },
    ];
    for (const r of rows) {
      it(r.name, async () => {
        const res = await send(s, r.method, r.path, r.body, { 'Content-Type': r.type });
        assert.equal(res.status, r.code, res.text);
        const st = res.json();
        assert.equal(st.kind, 'Status');
        assert.equal(st.reason, 'BadRequest');
        if (typeof r.message === 'string') assert.equal(st.message, r.message);
        else assert.match(st.message, r.message);
      });
    }

    it('aliases within the ratio still work, each alias its own copy', async () => {
      const body = podYAML('anchors').replace(/spec:[\s\S]*$/, '') + [
        'spec:',
        '  containers:',
        '  - name: a',
        '    image: busybox',
        '    resources: &r {limits: {cpu: 10m, memory: 8Mi}}',
        '  - name: b',
        '    image: busybox',
        '    resources: *r',
        '',
      ].join('\n');
      const res = await send(s, 'PATCH', '/api/v1/namespaces/default/pods/anchors?fieldManager=m', body, { 'Content-Type': 'application/apply-patch+yaml' });
      assert.equal(res.status, 201, res.text);
      const containers = res.json().spec.containers;
      assert.deepEqual(containers.map((c: { resources: unknown }) => c.resources), [
        { limits: { cpu: '10m', memory: '8Mi' }, requests: { cpu: '10m', memory: '8Mi' } },
        { limits: { cpu: '10m', memory: '8Mi' }, requests: { cpu: '10m', memory: '8Mi' } },
      ]);
    });

    it('the server is still up after every row above', async () => {
      assert.equal((await send(s, 'GET', '/healthz')).status, 200);
    });
  });

  describe('3. paths are read as sent; dot segments are refused before routing', () => {
    before(async () => {
      for (const ns of ['a', 'b']) assert.equal((await send(s, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }))).status, 201);
    });
    const rows: { name: string; method: string; path: string; body?: unknown; message: string }[] = [
      { name: 'DELETE of pod ".." does not delete the namespace', method: 'DELETE', path: '/api/v1/namespaces/a/pods/..', message: `Name parameter invalid: "..": may not be '..'` },
      { name: 'an encoded %2e%2e is a dot segment too', method: 'DELETE', path: '/api/v1/namespaces/a/pods/%2e%2e', message: `Name parameter invalid: "..": may not be '..'` },
      { name: 'upper-case %2E%2E as well', method: 'DELETE', path: '/api/v1/namespaces/a/pods/%2E%2E', message: `Name parameter invalid: "..": may not be '..'` },
      { name: 'a single dot segment', method: 'GET', path: '/api/v1/namespaces/a/pods/.', message: `Name parameter invalid: ".": may not be '.'` },
      { name: 'a mixed .%2e segment', method: 'DELETE', path: '/api/v1/namespaces/a/pods/.%2e', message: `Name parameter invalid: "..": may not be '..'` },
      { name: 'a write through kube-system/.. does not land in b', method: 'POST', path: '/api/v1/namespaces/kube-system/../b/pods', body: pod('escaped'), message: `Name parameter invalid: "..": may not be '..'` },
      { name: 'a namespace delete as /namespaces/b/pods/../..', method: 'DELETE', path: '/api/v1/namespaces/b/pods/../..', message: `Name parameter invalid: "..": may not be '..'` },
    ];
    for (const r of rows) {
      it(r.name, async () => {
        const res = await send(s, r.method, r.path, r.body === undefined ? undefined : JSON.stringify(r.body));
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json().reason, 'BadRequest');
        assert.equal(res.json().message, r.message);
      });
    }
    it('the namespaces and their contents are untouched', async () => {
      for (const ns of ['a', 'b']) {
        const got = await send(s, 'GET', `/api/v1/namespaces/${ns}`);
        assert.equal(got.status, 200, got.text);
        assert.equal(got.json().metadata.deletionTimestamp, undefined);
      }
      assert.equal((await send(s, 'GET', '/api/v1/namespaces/b/pods/escaped')).status, 404);
    });
  });

  describe('8. malformed paths and query numbers are 400 Status, never 500', () => {
    const rows: { name: string; method?: string; path: string; message: string }[] = [
      { name: 'a lone % in the path is url.Parse’s invalid escape', path: '/api/v1/namespaces/default/pods/%', message: 'parse "/api/v1/namespaces/default/pods/%": invalid URL escape "%"' },
      { name: 'a % with non-hex digits', path: '/api/v1/namespaces/default/pods/a%zzb', message: 'parse "/api/v1/namespaces/default/pods/a%zzb": invalid URL escape "%zz"' },
      { name: 'limit=1e400 is not an int64', path: '/api/v1/namespaces/default/pods?limit=1e400', message: 'strconv.ParseInt: parsing "1e400": invalid syntax' },
      { name: 'limit beyond int64 is out of range', path: '/api/v1/pods?limit=99999999999999999999', message: 'strconv.ParseInt: parsing "99999999999999999999": value out of range' },
      { name: 'an empty limit is invalid syntax', path: '/api/v1/pods?limit=', message: 'strconv.ParseInt: parsing "": invalid syntax' },
      { name: 'timeoutSeconds=abc on a watch', path: '/api/v1/pods?watch=true&timeoutSeconds=abc', message: 'strconv.ParseInt: parsing "abc": invalid syntax' },
      { name: 'gracePeriodSeconds=1.5 on a delete', method: 'DELETE', path: '/api/v1/namespaces/default/pods/x?gracePeriodSeconds=1.5', message: 'strconv.ParseInt: parsing "1.5": invalid syntax' },
      { name: 'limit on deletecollection', method: 'DELETE', path: '/api/v1/namespaces/default/pods?limit=x', message: 'strconv.ParseInt: parsing "x": invalid syntax' },
      { name: 'a resourceVersion that is not a number', path: '/api/v1/pods?resourceVersion=abc', message: 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax' },
      { name: 'a resourceVersion beyond uint64', path: '/api/v1/pods?resourceVersion=99999999999999999999', message: 'invalid resource version: resourceVersion: Invalid value: "99999999999999999999": strconv.ParseUint: parsing "99999999999999999999": value out of range' },
    ];
    for (const r of rows) {
      it(r.name, async () => {
        const res = await send(s, r.method ?? 'GET', r.path);
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json().kind, 'Status');
        assert.equal(res.json().reason, 'BadRequest');
        assert.equal(res.json().message, r.message);
      });
    }

    const wire: { name: string; plain?: boolean; request: string; code: number; reason?: string; message: string | RegExp }[] = [
      { name: 'plain HTTP on the TLS port gets net/http’s words as a Status', plain: true, request: 'GET /version HTTP/1.1\r\nHost: x\r\n\r\n', code: 400, reason: 'BadRequest', message: 'Client sent an HTTP request to an HTTPS server.' },
      { name: 'request headers over 1 MiB are 431', request: `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1100 * 1024)}\r\n\r\n`, code: 431, message: 'Request Header Fields Too Large' },
      { name: 'a malformed request is 400', request: 'GET /version HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n', code: 400, reason: 'BadRequest', message: /^malformed HTTP request/ },
    ];
    for (const r of wire) {
      it(r.name, async () => {
        const u = new URL(s.url);
        const sock: Socket = r.plain ? netConnect(Number(u.port), u.hostname) : await tlsSocket(s);
        const closed = readUntilClose(sock);
        sock.write(r.request);
        const { code, body } = statusOf(await closed);
        assert.equal(code, r.code);
        assert.equal(body.kind, 'Status');
        assert.equal(body.code, r.code);
        assert.equal(body.reason, r.reason);
        if (typeof r.message === 'string') assert.equal(body.message, r.message);
        else assert.match(body.message, r.message);
      });
    }
    it('a raw non-ASCII byte in the path is a 400 Status', async () => {
      const sock = await tlsSocket(s);
      const closed = readUntilClose(sock);
      sock.write(Buffer.concat([Buffer.from('GET /api/v1/namespaces/'), Buffer.from('é'), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
      const { code, body } = statusOf(await closed);
      assert.equal(code, 400);
      assert.equal(body.kind, 'Status');
      assert.equal(body.reason, 'BadRequest');
    });
    it('a malformed HEAD request gets the 400 headers and no body (a client reads none)', async () => {
      const sock = await tlsSocket(s);
      const closed = readUntilClose(sock);
      sock.write(Buffer.concat([Buffer.from('HEAD /api/v1/namespaces/'), Buffer.from('é'), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
      const response = await closed;
      assert.match(response, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.ok(response.endsWith('\r\n\r\n'), `bytes after the headers: ${JSON.stringify(response)}`);
    });
    it('a malformed request right after a keep-alive response still gets its 400 Status', async () => {
      const sock = await tlsSocket(s);
      const closed = readUntilClose(sock);
      // Both at once: the second arrives while the first response may not have finished.
      sock.write(Buffer.concat([Buffer.from('GET /version HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/namespaces/'), Buffer.from('é'), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
      const response = await closed;
      assert.match(response, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(response, /HTTP\/1\.1 400 Bad Request\r\n[\s\S]*"reason":"BadRequest"/);
    });
    it('request headers under 1 MiB are served, as kube-apiserver’s MaxHeaderBytes allows', async () => {
      const res = await send(s, 'GET', '/version', undefined, { 'X-Big': 'a'.repeat(64 * 1024) });
      assert.equal(res.status, 200, res.text);
    });
  });

  // Rows at once: each waits out its one-second watch.
  describe('10. watch= as apimachinery converts query booleans', { concurrency: true }, () => {
    const watchRows: { value: string; watch: boolean }[] = [
      { value: 'true', watch: true },
      { value: 'True', watch: true },
      { value: 'TRUE', watch: true },
      { value: '1', watch: true },
      { value: 't', watch: true },
      { value: 'yes', watch: true },
      { value: '', watch: true },
      { value: 'false', watch: false },
      { value: 'False', watch: false },
      { value: 'FALSE', watch: false },
      { value: '0', watch: false },
    ];
    for (const r of watchRows) {
      it(`watch=${r.value} ${r.watch ? 'watches' : 'lists'}`, async () => {
        const res = await send(s, 'GET', `/api/v1/namespaces/kube-system/pods?watch=${encodeURIComponent(r.value)}&timeoutSeconds=1`);
        assert.equal(res.status, 200, res.text);
        // A watch is a stream of events (none here: kube-system has no pods); a list is a PodList.
        if (r.watch) assert.equal(res.text, '');
        else assert.equal(res.json().kind, 'PodList');
      });
    }
  });

  describe('10. force= as apimachinery converts query booleans', () => {
    const apply = (value: string, manager: string) =>
      send(s, 'PATCH', `/api/v1/namespaces/default/pods/owned?fieldManager=${manager}${value === '-' ? '' : `&force=${value}`}`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'owned', labels: { tier: manager } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }), { 'Content-Type': 'application/apply-patch+yaml' });
    const forceRows: { value: string; force: boolean }[] = [
      { value: 'True', force: true },
      { value: 'true', force: true },
      { value: '1', force: true },
      { value: 'false', force: false },
      { value: 'False', force: false },
      { value: '0', force: false },
      { value: '-', force: false },
    ];
    for (const r of forceRows) {
      it(`force=${r.value === '-' ? '(absent)' : r.value} ${r.force ? 'takes the field over' : 'conflicts'}`, async () => {
        const first = await apply('false', 'owner');
        assert.ok(first.status === 200 || first.status === 201, first.text);
        const res = await apply(r.value, 'taker');
        if (r.force) {
          assert.equal(res.status, 200, res.text);
          assert.equal(res.json().metadata.labels.tier, 'taker');
        } else {
          assert.equal(res.status, 409, res.text);
          assert.equal(res.json().reason, 'Conflict');
        }
        assert.equal((await send(s, 'DELETE', '/api/v1/namespaces/default/pods/owned')).status, 200);
      });
    }
  });
});

describe('8. connection timeouts end idle and slow connections, not streams', () => {
  let s: RunningServer;
  let stop: () => Promise<void>;
  const limits = { headersTimeoutMs: 1000, keepAliveTimeoutMs: 300, handshakeTimeoutMs: 2000, checkIntervalMs: 100 };
  before(async () => {
    ({ s, stop } = await startTest({ transport: limits }));
  });
  after(async () => stop?.());

  // Each row waits for the server to close the connection; the bound only fails a server that never does.
  const rows: { name: string; open(): Promise<Socket>; answered: boolean }[] = [
    {
      name: 'a connection that never starts the TLS handshake',
      answered: false,
      open: async () => {
        const u = new URL(s.url);
        const sock = netConnect(Number(u.port), u.hostname);
        await new Promise((r) => sock.once('connect', r));
        return sock;
      },
    },
    {
      name: 'a request whose headers never finish',
      answered: false,
      open: async () => {
        const sock = await tlsSocket(s);
        sock.write('GET /version HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        return sock;
      },
    },
    {
      name: 'a kept-alive connection left idle after a request',
      answered: true,
      open: async () => {
        const sock = await tlsSocket(s);
        sock.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n');
        return sock;
      },
    },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const sock = await r.open();
      const closed = readUntilClose(sock);
      const bound = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 20_000).unref());
      const outcome = await Promise.race([closed, bound]);
      sock.destroy();
      assert.notEqual(outcome, 'still open');
      assert.equal(outcome.startsWith('HTTP/1.1 200'), r.answered, outcome.slice(0, 200));
    });
  }

  it('a watch outlives every timeout and still delivers events', async () => {
    const u = new URL(s.url);
    const events: string[] = [];
    const req = request({ host: u.hostname, port: u.port, path: '/api/v1/namespaces/default/pods?watch=1', ca: s.caCert, agent: false, headers: { Authorization: `Bearer ${s.adminToken}` } });
    const got = new Promise<void>((resolve, reject) => {
      req.on('response', (res) => {
        res.on('data', (d: Buffer) => {
          events.push(...d.toString('utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type));
          if (events.includes('ADDED')) resolve();
        });
        res.on('end', () => reject(new Error(`the watch ended; events ${events.join(',')}`)));
      });
      req.on('error', reject);
    });
    req.end();
    // Longer than every limit above together: a server that cut streams would have by now.
    await new Promise((r) => setTimeout(r, limits.headersTimeoutMs + limits.keepAliveTimeoutMs + limits.handshakeTimeoutMs));
    assert.equal((await send(s, 'POST', '/api/v1/namespaces/default/pods', JSON.stringify(pod('late')))).status, 201);
    await got;
    req.destroy();
    assert.deepEqual(events, ['ADDED']);
  });
});
