// Response compression as kube-apiserver 1.32 does it (responsewriters/writers.go, the
// APIResponseCompression feature on by default): which Accept-Encoding values ask for gzip (its
// own TestSerializeObject rows first), then through the whole server: a body over 128 KiB is
// gzipped with Content-Encoding and Vary, one at or under it is not, the decompressed body is the
// uncompressed response byte for byte (JSON lists, Tables, single objects, Status errors), a watch
// never is compressed, and the real kubectl gets gzipped pages of `kubectl get pods` (its
// transport asks for gzip itself) and prints them whole.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type OutgoingHttpHeaders, type Server } from 'node:http';
import { Agent, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { gzipThresholdBytes, negotiateContentEncoding, sendText } from '../../src/apiserver/responsewriter.js';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.js';
import { Client, type Response } from './client.js';
import { kubectlFound, kubectlSkip } from './kubectlserver.js';

describe('negotiateContentEncoding: a token of the first Accept-Encoding that is exactly gzip', () => {
  // Latin-1 text of UTF-8 bytes, as Node hands a header over: U+00A0 and U+3000 are spaces to Go.
  const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
  const rows: [string, string | undefined, 'gzip' | undefined][] = [
    ['upstream: compress on gzip', 'gzip', 'gzip'],
    ['upstream: compress when multiple encodings are requested', 'deflate, , gzip,', 'gzip'],
    ['upstream: ignore compression on deflate', 'deflate', undefined],
    ['upstream: ignore compression on unrecognized types', ', ,  other, nothing, what, ', undefined],
    ['no header', undefined, undefined],
    ['an empty header', '', undefined],
    ['spaces and tabs around the token are trimmed', ' \tgzip\t ', 'gzip'],
    ['gzip among others, as browsers send it', 'gzip, deflate, br', 'gzip'],
    ['a q-value is not parsed: gzip;q=0 is not the token gzip', 'gzip;q=0', undefined],
    ['nor is gzip;q=1.0', 'gzip;q=1.0', undefined],
    ['a space before the parameter does not make it gzip', 'gzip ;q=1', undefined],
    ['the wildcard is not gzip', '*', undefined],
    ['tokens are case-sensitive', 'GZIP', undefined],
    ['x-gzip is another token', 'x-gzip', undefined],
    ['identity', 'identity', undefined],
    ['Unicode spaces are trimmed (strings.TrimSpace)', utf8('\u00a0gzip\u3000'), 'gzip'],
    ['U+FEFF is not a Go space', utf8('\ufeffgzip'), undefined],
  ];
  for (const [name, header, want] of rows) it(name, () => assert.equal(negotiateContentEncoding(header), want));
});

describe('the headers of a gzipped answer (header.Set Content-Encoding, header.Add Vary)', () => {
  let server: Server;
  let url: string;
  const big = JSON.stringify({ v: 'x'.repeat(gzipThresholdBytes) });
  /** Each row's handler headers, by path. */
  const rows: { name: string; headers: OutgoingHttpHeaders; want: [string, string][] }[] = [
    { name: 'Vary: Accept-Encoding is added as a line of its own after an existing Vary', headers: { 'Content-Type': 'application/json', Vary: 'Accept' }, want: [['Vary', 'Accept'], ['Vary', 'Accept-Encoding'], ['Content-Encoding', 'gzip'], ['Content-Type', 'application/json']] },
    { name: 'the handler\'s other headers (Warning) are kept', headers: { 'Content-Type': 'application/json', Warning: ['299 - "a"', '299 - "b"'] }, want: [['Vary', 'Accept-Encoding'], ['Content-Encoding', 'gzip'], ['Warning', '299 - "a"'], ['Warning', '299 - "b"']] },
  ];
  before(async () => {
    server = createServer((req, res) => sendText(res, 200, rows[Number(req.url!.slice(1))]!.headers, big));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  rows.forEach((row, i) => {
    it(row.name, async () => {
      const got = await new Promise<{ raw: string[]; body: Buffer }>((resolve, reject) => {
        httpRequest(`${url}/${i}`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ raw: res.rawHeaders, body: Buffer.concat(chunks) }));
        }).on('error', reject).end();
      });
      const lines: [string, string][] = [];
      for (let j = 0; j < got.raw.length; j += 2) lines.push([got.raw[j]!, got.raw[j + 1]!]);
      for (const w of row.want) assert.ok(lines.some(([n, v]) => n === w[0] && v === w[1]), `${w.join(': ')} in ${JSON.stringify(lines)}`);
      assert.equal(lines.filter(([n]) => n === 'Vary').length, row.want.filter(([n]) => n === 'Vary').length);
      assert.ok(!lines.some(([n]) => n.toLowerCase() === 'content-length'));
      assert.equal(gunzipSync(got.body).toString(), big);
    });
  });
});

/** kubectl get's Accept. */
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const bigPods = 400;

describe('response compression through the server', () => {
  let dir: string;
  let s: RunningApiServer;
  let c: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-gzip-'));
    s = await startApiServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
    // A still clock: a Table's AGE cells are the same in every response compared here.
    const still = new Date('2026-01-01T00:00:00Z');
    (s.api as { now: () => Date }).now = () => still;
    c = new Client(s.url, s.caCert, s.adminToken);
    for (const ns of ['big', 'small', 'edge', 'errors']) {
      assert.equal((await c.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
      // No service account controller runs here: pods need their namespace's default account.
      assert.equal((await c.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } })).status, 201);
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < bigPods) {
          const r = await c.request('POST', '/api/v1/namespaces/big/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${next++}`, labels: { app: 'big' } }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } });
          assert.equal(r.status, 201, r.text);
        }
      }),
    );
    assert.equal((await c.request('POST', '/api/v1/namespaces/small/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'one' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } })).status, 201);
    assert.equal((await c.request('POST', '/api/v1/namespaces/edge/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sized' }, data: { v: '' } })).status, 201);
  });
  after(async () => {
    c?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const gzipped = (r: Response) => r.headers['content-encoding'] === 'gzip';

  /**
   * The response to `headers` and the same request without Accept-Encoding, from one state of
   * the store: asked until the uncompressed answers before and after it are the same bytes.
   */
  async function withPlain(path: string, headers: Record<string, string | string[]>): Promise<{ r: Response; plain: Response }> {
    const { ['Accept-Encoding']: _ae, ...rest } = headers;
    for (let i = 0; ; i++) {
      const before = await c.request('GET', path, undefined, rest);
      const r = await c.request('GET', path, undefined, headers);
      const plain = await c.request('GET', path, undefined, rest);
      if (before.raw.equals(plain.raw) || i === 4) return { r, plain };
    }
  }

  interface Row {
    name: string;
    path: string;
    headers: Record<string, string | string[]>;
    /** The status of the answer (200 unless said). */
    status?: number;
    compressed: boolean;
  }
  const longName = 'x'.repeat(gzipThresholdBytes + 10);
  const rows: Row[] = [
    { name: 'a JSON LIST over 128 KiB with Accept-Encoding: gzip is gzipped', path: '/api/v1/namespaces/big/pods', headers: { 'Accept-Encoding': 'gzip' }, compressed: true },
    { name: 'a Table LIST over 128 KiB (kubectl get) is gzipped', path: '/api/v1/namespaces/big/pods', headers: { Accept: tableAccept, 'Accept-Encoding': 'gzip' }, compressed: true },
    { name: 'a Table LIST with includeObject=Object is gzipped', path: '/api/v1/namespaces/big/pods?includeObject=Object', headers: { Accept: tableAccept, 'Accept-Encoding': 'gzip' }, compressed: true },
    { name: 'a LIST page over 128 KiB (limit, with a continue token) is gzipped', path: '/api/v1/namespaces/big/pods?limit=390', headers: { 'Accept-Encoding': 'gzip' }, compressed: true },
    { name: 'several encodings with empty tokens, gzip among them', path: '/api/v1/namespaces/big/pods', headers: { 'Accept-Encoding': 'deflate, , gzip,' }, compressed: true },
    { name: 'the same LIST without Accept-Encoding is not', path: '/api/v1/namespaces/big/pods', headers: {}, compressed: false },
    { name: 'gzip;q=0 is not the token gzip: not compressed', path: '/api/v1/namespaces/big/pods', headers: { 'Accept-Encoding': 'gzip;q=0' }, compressed: false },
    { name: 'the wildcard does not ask for gzip', path: '/api/v1/namespaces/big/pods', headers: { 'Accept-Encoding': '*' }, compressed: false },
    { name: 'deflate only: not compressed', path: '/api/v1/namespaces/big/pods', headers: { 'Accept-Encoding': 'deflate' }, compressed: false },
    { name: 'two Accept-Encoding lines: only the first is read (Header.Get), deflate', path: '/api/v1/namespaces/big/pods', headers: { 'Accept-Encoding': ['deflate', 'gzip'] }, compressed: false },
    { name: 'two Accept-Encoding lines: only the first is read (Header.Get), gzip', path: '/api/v1/namespaces/big/pods', headers: { 'Accept-Encoding': ['gzip', 'deflate'] }, compressed: true },
    { name: 'a LIST under 128 KiB is not compressed', path: '/api/v1/namespaces/small/pods', headers: { 'Accept-Encoding': 'gzip' }, compressed: false },
    { name: 'a GET of one object under 128 KiB is not compressed', path: '/api/v1/namespaces/small/pods/one', headers: { 'Accept-Encoding': 'gzip' }, compressed: false },
    { name: 'a Status error over 128 KiB is gzipped too (errors go through SerializeObject)', path: `/api/v1/namespaces/errors/configmaps/${longName}`, headers: { 'Accept-Encoding': 'gzip' }, status: 404, compressed: true },
    { name: 'discovery under 128 KiB is not compressed and keeps Vary: Accept', path: '/apis', headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', 'Accept-Encoding': 'gzip' }, compressed: false },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const { r, plain } = await withPlain(row.path, row.headers);
      assert.equal(r.status, row.status ?? 200, r.text.slice(0, 300));
      assert.equal(plain.status, row.status ?? 200);
      if (row.compressed) {
        assert.ok(plain.raw.length > gzipThresholdBytes, `the uncompressed body is over the threshold (${plain.raw.length} bytes)`);
        assert.equal(r.headers['content-encoding'], 'gzip');
        assert.equal(r.headers['vary'], 'Accept-Encoding');
        assert.equal(r.headers['content-length'], undefined);
        assert.equal(r.headers['content-type'], plain.headers['content-type']);
        assert.ok(r.raw.length < plain.raw.length, 'the body on the wire is smaller');
        assert.ok(gunzipSync(r.raw).equals(plain.raw), 'the decompressed body is the uncompressed response');
      } else {
        assert.ok(!gzipped(r), `not compressed (${r.raw.length} bytes)`);
        assert.ok(!String(r.headers['vary'] ?? '').includes('Accept-Encoding'));
        assert.ok(r.raw.equals(plain.raw));
      }
      if (row.path === '/apis') assert.equal(r.headers['vary'], 'Accept');
    });
  }

  /** Resizes the `edge` ConfigMap until `path`'s uncompressed body is `bytes` long. */
  async function sizeBody(path: string, bytes: number): Promise<void> {
    let value = (await c.request('GET', '/api/v1/namespaces/edge/configmaps/sized')).json().data.v as string;
    for (let i = 0; i < 10; i++) {
      const have = (await c.request('GET', path)).raw.length;
      if (have === bytes) return;
      value = 'v'.repeat(value.length + bytes - have);
      const r = await c.request('PUT', '/api/v1/namespaces/edge/configmaps/sized', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sized' }, data: { v: value } });
      assert.equal(r.status, 200, r.text);
    }
    assert.fail(`could not size ${path} to ${bytes} bytes`);
  }

  const edges: { name: string; path: string; bytes: number; compressed: boolean }[] = [
    { name: 'an object of exactly 128 KiB is not compressed (the body must be longer)', path: '/api/v1/namespaces/edge/configmaps/sized', bytes: gzipThresholdBytes, compressed: false },
    { name: 'an object of 128 KiB and one byte is gzipped', path: '/api/v1/namespaces/edge/configmaps/sized', bytes: gzipThresholdBytes + 1, compressed: true },
    { name: 'a LIST of exactly 128 KiB is not compressed', path: '/api/v1/namespaces/edge/configmaps', bytes: gzipThresholdBytes, compressed: false },
    { name: 'a LIST of 128 KiB and one byte is gzipped', path: '/api/v1/namespaces/edge/configmaps', bytes: gzipThresholdBytes + 1, compressed: true },
  ];
  for (const e of edges) {
    it(e.name, async () => {
      for (let i = 0; ; i++) {
        await sizeBody(e.path, e.bytes);
        const { r, plain } = await withPlain(e.path, { 'Accept-Encoding': 'gzip' });
        // Another write between the sizing and the requests moved the size: size it again.
        if (plain.raw.length !== e.bytes && i < 4) continue;
        assert.equal(plain.raw.length, e.bytes);
        assert.equal(gzipped(r), e.compressed);
        assert.ok((e.compressed ? gunzipSync(r.raw) : r.raw).equals(plain.raw));
        return;
      }
    });
  }

  it('concurrent gzipped and plain LISTs share the body pieces\' pool and each gets its own body whole', async () => {
    const path = '/api/v1/namespaces/big/pods';
    for (let attempt = 0; ; attempt++) {
      const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => c.request('GET', path, undefined, i % 2 ? { 'Accept-Encoding': 'gzip' } : {})));
      const bodies = rs.map((r) => (gzipped(r) ? gunzipSync(r.raw) : r.raw));
      assert.equal(rs.filter(gzipped).length, 4);
      // A write between the LISTs changes the list's resourceVersion: ask again.
      if (bodies.some((b) => !b.equals(bodies[0]!)) && attempt < 4) continue;
      for (const b of bodies) assert.ok(b.equals(bodies[0]!));
      return;
    }
  });

  it('a client that goes away in the middle of a gzipped LIST: the server carries on, later LISTs are whole', async () => {
    const agent = new Agent({ ca: s.caCert });
    await new Promise<void>((resolve, reject) => {
      const req = request(new URL('/api/v1/namespaces/big/pods', s.url), { agent, headers: { Authorization: `Bearer ${s.adminToken}`, 'Accept-Encoding': 'gzip' } }, (res) => {
        assert.equal(res.headers['content-encoding'], 'gzip');
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
      req.end();
    });
    agent.destroy();
    const { r, plain } = await withPlain('/api/v1/namespaces/big/pods', { 'Accept-Encoding': 'gzip' });
    assert.ok(gunzipSync(r.raw).equals(plain.raw));
  });

  it('a watch is never compressed, even with initial events over 128 KiB', async () => {
    const agent = new Agent({ ca: s.caCert });
    const got = await new Promise<{ headers: Record<string, unknown>; text: string }>((resolve, reject) => {
      const req = request(new URL('/api/v1/namespaces/big/pods?watch=1&resourceVersion=0', s.url), { agent, headers: { Authorization: `Bearer ${s.adminToken}`, 'Accept-Encoding': 'gzip' } }, (res) => {
        let text = '';
        res.setEncoding('latin1');
        res.on('data', (d: string) => {
          text += d;
          if (text.split('\n').length > bigPods) {
            req.destroy();
            resolve({ headers: res.headers, text });
          }
        });
      });
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
      req.end();
    });
    agent.destroy();
    assert.equal(got.headers['content-encoding'], undefined);
    assert.ok(got.text.length > gzipThresholdBytes, `${got.text.length} bytes of events`);
    const lines = got.text.split('\n').slice(0, bigPods);
    assert.ok(lines.every((l) => (JSON.parse(l) as { type: string }).type === 'ADDED'));
  });

  if (!kubectlFound) it('kubectl get pods over gzip', { skip: kubectlSkip }, () => {});
  else {
    const kubectl = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
      });
    /**
     * The response headers -v=8 logged for the request to `url`. Go's transport asks for gzip
     * itself, decompresses, and drops Content-Encoding from what it hands back (so the log has
     * none); the Vary: Accept-Encoding the server adds only to a gzipped answer stays.
     */
    const responseHeaders = (stderr: string, url: RegExp) => {
      const blocks = stderr.split(/(?=^I\S+ \S+ +\d+ round_trippers\.go:\d+\] (?:GET|POST|PUT|PATCH|DELETE) )/m);
      const block = blocks.find((b) => url.test(b.split('\n')[0]!));
      assert.ok(block, `no request to ${url} in kubectl's log`);
      return [...block.matchAll(/round_trippers\.go:\d+\]\s{5}([A-Za-z-]+): (.*)$/gm)].map((m) => `${m[1]}: ${m[2]}`);
    };
    const kubectlRows: { name: string; args: string[]; compressed: boolean; check(stdout: string): void }[] = [
      {
        name: 'kubectl get pods: a Table page over 128 KiB comes gzipped and prints every pod',
        args: ['get', 'pods', '-n', 'big'],
        compressed: true,
        check: (out) => assert.equal(out.trim().split('\n').length, bigPods + 1),
      },
      {
        name: 'kubectl get pods -o json: the JSON list page comes gzipped and holds every pod',
        args: ['get', 'pods', '-n', 'big', '-o', 'json'],
        compressed: true,
        check: (out) => assert.equal((JSON.parse(out) as { items: unknown[] }).items.length, bigPods),
      },
      {
        name: 'kubectl --disable-compression sends no Accept-Encoding: the same page comes plain',
        args: ['get', 'pods', '-n', 'big', '--disable-compression=true'],
        compressed: false,
        check: (out) => assert.equal(out.trim().split('\n').length, bigPods + 1),
      },
    ];
    for (const k of kubectlRows) {
      it(k.name, async () => {
        // kubectl asks for pages of 500: the first is the whole namespace, over the threshold.
        const page = await c.request('GET', '/api/v1/namespaces/big/pods?limit=500', undefined, k.args.includes('json') ? {} : { Accept: tableAccept });
        assert.ok(page.raw.length > gzipThresholdBytes, `the page is ${page.raw.length} bytes`);
        const r = await kubectl(...k.args, '-v=8');
        assert.equal(r.code, 0, r.stderr.slice(-2000));
        k.check(r.stdout);
        const headers = responseHeaders(r.stderr, /\/api\/v1\/namespaces\/big\/pods\?limit=500$/);
        assert.ok(headers.includes('Content-Type: application/json'), headers.join('\n'));
        assert.equal(headers.includes('Vary: Accept-Encoding'), k.compressed, headers.join('\n'));
      });
    }
  }
});
