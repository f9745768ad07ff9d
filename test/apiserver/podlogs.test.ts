// pods/log: the options and locations as kube-apiserver computes them, and the proxy to the
// node's agent. The agent's endpoint is played by a small HTTP server in this test (a fake
// kubelet): it records what the API server asked for and answers as the agent's /containerLogs
// does (src/agent/endpoint.ts: text bodies, kubelet-worded Status errors), which is all the API
// server's side depends on.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Node, Pod } from '../../src/api/types.js';
import { containerLogsURL, logContainer, parsePodLogOptions, upstreamError } from '../../src/apiserver/podlogs.js';
import { agentLocation, goRequestError, nodeAddress } from '../../src/apiserver/nodeconnection.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { StatusError } from '../../src/apiserver/status.js';
import { ensurePKI } from '../../src/apiserver/pki.js';
import { Client } from './client.js';

const pod = (containers: string[], extra: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: containers.map((name) => ({ name, image: 'busybox' })), ...extra },
});

const node = (addresses: { type: string; address: string }[], port?: number, labels: Record<string, string> = {}): Node =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', labels }, status: { addresses, ...(port !== undefined ? { daemonEndpoints: { kubeletEndpoint: { Port: port } } } : {}) } }) as Node;

function thrown(f: () => unknown): { code: number; reason?: string; message?: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, reason: e.status.reason, message: e.status.message };
    throw e;
  }
  assert.fail('expected a StatusError');
}

describe('PodLogOptions (ValidatePodLogOptions and query conversion)', () => {
  const rows: { name: string; query: string; want?: Partial<ReturnType<typeof parsePodLogOptions>>; error?: { code: number; message: string } }[] = [
    { name: 'no options', query: '', want: { follow: false, previous: false, timestamps: false } },
    { name: 'booleans: anything but 0 or false is true', query: 'follow=1&previous=yes&timestamps=FALSE', want: { follow: true, previous: true, timestamps: false } },
    { name: 'integers', query: 'tailLines=10&limitBytes=5&sinceSeconds=60', want: { tailLines: 10, limitBytes: 5, sinceSeconds: 60 } },
    { name: 'sinceTime normalised to RFC 3339 seconds', query: 'sinceTime=2024-01-02T03:04:05.678Z', want: { sinceTime: '2024-01-02T03:04:05Z' } },
    { name: 'negative tailLines is invalid', query: 'tailLines=-1', error: { code: 422, message: 'PodLogOptions "p" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0' } },
    { name: 'limitBytes below 1 is invalid', query: 'limitBytes=0', error: { code: 422, message: 'PodLogOptions "p" is invalid: limitBytes: Invalid value: 0: must be greater than 0' } },
    { name: 'sinceSeconds below 1 is invalid', query: 'sinceSeconds=0', error: { code: 422, message: 'PodLogOptions "p" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0' } },
    { name: 'sinceSeconds and sinceTime together are forbidden', query: 'sinceSeconds=5&sinceTime=2024-01-02T03:04:05Z', error: { code: 422, message: 'PodLogOptions "p" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified' } },
    { name: 'a non-integer is a conversion error', query: 'tailLines=ten', error: { code: 400, message: 'strconv.ParseInt: parsing "ten": invalid syntax' } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const q = new URLSearchParams(r.query);
      if (r.error) {
        const e = thrown(() => parsePodLogOptions(q, 'p'));
        assert.deepEqual([e.code, e.message], [r.error.code, r.error.message]);
        return;
      }
      const got = parsePodLogOptions(q, 'p');
      for (const [k, v] of Object.entries(r.want!)) assert.equal(got[k as keyof typeof got], v, k);
    });
  }
});

/** A row of validateContainer: the container a log request reads, or its 400. */
interface LogContainerRow {
  name: string;
  pod: Pod;
  requested?: string;
  want?: string;
  error?: string;
}

function checkLogContainer(r: LogContainerRow): void {
  if (r.error) {
    const e = thrown(() => logContainer(r.pod, r.requested));
    assert.deepEqual([e.code, e.reason, e.message], [400, 'BadRequest', r.error]);
  } else assert.equal(logContainer(r.pod, r.requested), r.want);
}

describe('the container a log request is for (validateContainer)', () => {
  const rows: LogContainerRow[] = [
    { name: 'the only container when none is named', pod: pod(['app']), want: 'app' },
    { name: 'several containers need a name; all kinds are listed', pod: pod(['a', 'b'], { initContainers: [{ name: 'init', image: 'x' }] }), error: 'a container name must be specified for pod p, choose one of: [init a b]' },
    { name: 'an init container may be named', pod: pod(['a'], { initContainers: [{ name: 'init', image: 'x' }] }), requested: 'init', want: 'init' },
    { name: 'an unknown name is a 400', pod: pod(['a']), requested: 'nope', error: 'container nope is not valid for pod p' },
  ];
  for (const r of rows) it(r.name, () => checkLogContainer(r));
});

// Upstream strategy_test.go TestCheckLogLocation (kubernetes/kubernetes pkg/registry/core/pod/
// strategy_test.go, index file 148060311), pod "test": the container half of each row. The
// transport half ("insecure": InsecureSkipTLSVerifyBackend picks the insecure transport) has no
// counterpart: Bulkhead always verifies the agent's certificate and does not read that option.
describe('upstream TestCheckLogLocation rows (validateContainer)', () => {
  const named = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, name: 'test' } });
  const two = ['container1', 'container2'];
  const init = [{ name: 'initcontainer1', image: 'x' }];
  const rows: LogContainerRow[] = [
    { name: 'simple', pod: named(pod(['mycontainer'], { nodeName: 'foo' })), want: 'mycontainer' },
    { name: 'insecure (container half)', pod: named(pod(['mycontainer'], { nodeName: 'foo' })), want: 'mycontainer' },
    { name: 'missing container', pod: named(pod([])), error: 'a container name must be specified for pod test' },
    { name: 'choice of two containers', pod: named(pod(two)), error: 'a container name must be specified for pod test, choose one of: [container1 container2]' },
    { name: 'initcontainers', pod: named(pod(two, { initContainers: init })), error: 'a container name must be specified for pod test, choose one of: [initcontainer1 container1 container2]' },
    {
      name: '(unnamed row) init, regular and ephemeral containers are all listed',
      pod: named(pod(two, { initContainers: init, ephemeralContainers: [{ name: 'debugger', image: 'x' }] })),
      error: 'a container name must be specified for pod test, choose one of: [initcontainer1 container1 container2 debugger]',
    },
    { name: 'bad container', pod: named(pod(two)), requested: 'unknown', error: 'container unknown is not valid for pod test' },
    { name: 'good with two containers', pod: named(pod(two, { nodeName: 'foo' })), requested: 'container2', want: 'container2' },
  ];
  for (const r of rows) it(r.name, () => checkLogContainer(r));
});

describe('the agent endpoint of a node (NodeConnectionInfoGetter, LogLocation)', () => {
  const addrRows: { name: string; node: Node; want?: string; error?: string }[] = [
    { name: 'InternalIP first', node: node([{ type: 'Hostname', address: 'h' }, { type: 'InternalIP', address: '10.0.0.5' }]), want: '10.0.0.5' },
    { name: 'then Hostname', node: node([{ type: 'ExternalIP', address: '1.2.3.4' }, { type: 'Hostname', address: 'h' }]), want: 'h' },
    { name: 'the hostname label stands in for a missing Hostname address', node: node([{ type: 'ExternalIP', address: '1.2.3.4' }], undefined, { 'kubernetes.io/hostname': 'lbl' }), want: 'lbl' },
    { name: 'no address at all is NoMatchError, a 500 without a reason', node: node([]), error: 'no preferred addresses found; known addresses: []' },
    { name: 'the known addresses are listed as Go prints them', node: node([{ type: 'Weird', address: 'x' }]), error: 'no preferred addresses found; known addresses: [{Weird x}]' },
  ];
  for (const r of addrRows) {
    it(r.name, () => {
      if (r.error) {
        const e = thrown(() => nodeAddress(r.node));
        assert.deepEqual([e.code, e.reason, e.message], [500, undefined, r.error]);
      } else assert.equal(nodeAddress(r.node), r.want);
    });
  }

  const urlRows: { name: string; node: Node; query: string; want: string }[] = [
    { name: 'the reported port and no options', node: node([{ type: 'InternalIP', address: '10.0.0.5' }], 10255), query: '', want: 'http://10.0.0.5:10255/containerLogs/ns/p/app' },
    { name: 'no reported port: the kubelet default 10250', node: node([{ type: 'InternalIP', address: '10.0.0.5' }]), query: '', want: 'http://10.0.0.5:10250/containerLogs/ns/p/app' },
    { name: 'IPv6 in brackets', node: node([{ type: 'InternalIP', address: 'fd00::1' }], 9), query: '', want: 'http://[fd00::1]:9/containerLogs/ns/p/app' },
    { name: 'options in url.Values order (sorted keys)', node: node([{ type: 'InternalIP', address: '10.0.0.5' }], 1), query: 'timestamps=true&tailLines=3&follow=true&previous=true&limitBytes=9&sinceSeconds=7', want: 'http://10.0.0.5:1/containerLogs/ns/p/app?follow=true&limitBytes=9&previous=true&sinceSeconds=7&tailLines=3&timestamps=true' },
  ];
  for (const r of urlRows) {
    it(r.name, () => assert.equal(containerLogsURL(agentLocation(r.node, 'http'), pod(['app']), 'app', parsePodLogOptions(new URLSearchParams(r.query), 'p')).toString(), r.want));
  }
});

describe('errors of the agent call as kube-apiserver reports them', () => {
  const url = new URL('http://10.0.0.5:10250/containerLogs/ns/p/app?follow=true');
  const dialRows: { code: string; message?: string; want: string }[] = [
    { code: 'ECONNREFUSED', want: 'Get "http://10.0.0.5:10250/containerLogs/ns/p/app?follow=true": dial tcp 10.0.0.5:10250: connect: connection refused' },
    { code: 'EHOSTUNREACH', want: 'Get "http://10.0.0.5:10250/containerLogs/ns/p/app?follow=true": dial tcp 10.0.0.5:10250: connect: no route to host' },
    { code: 'ETIMEDOUT', want: 'Get "http://10.0.0.5:10250/containerLogs/ns/p/app?follow=true": dial tcp 10.0.0.5:10250: i/o timeout' },
    { code: 'ECONNRESET', message: 'socket hang up', want: 'Get "http://10.0.0.5:10250/containerLogs/ns/p/app?follow=true": EOF' },
  ];
  for (const r of dialRows) {
    it(`${r.code} in Go's words`, () => assert.equal(goRequestError(url, Object.assign(new Error(r.message ?? r.code), { code: r.code })), r.want));
  }

  const statusRows: { name: string; code: number; body: string; type?: string; want: { code: number; reason?: string; message: string } }[] = [
    {
      name: "the agent's Status is passed through",
      code: 400,
      type: 'application/json',
      body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'previous terminated container "app" in pod "p" not found', reason: 'BadRequest', code: 400 }),
      want: { code: 400, reason: 'BadRequest', message: 'previous terminated container "app" in pod "p" not found' },
    },
    { name: 'a text 400 becomes BadRequest with the text', code: 400, body: 'bad thing', want: { code: 400, reason: 'BadRequest', message: 'bad thing' } },
    { name: 'a text 500 becomes InternalError', code: 500, body: 'boom', want: { code: 500, reason: 'InternalError', message: 'Internal error occurred: boom' } },
    { name: 'a text 404 is the generic NotFound for pods/log', code: 404, body: 'nope', want: { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource ( pods/log p)' } },
    { name: 'a text 401 is the generic Unauthorized', code: 401, body: 'who', want: { code: 401, reason: 'Unauthorized', message: 'the server has asked for the client to provide credentials ( pods/log p)' } },
    { name: 'another 5xx quotes the body', code: 503, body: 'later', want: { code: 503, reason: 'InternalError', message: 'an error on the server ("later") has prevented the request from succeeding ( pods/log p)' } },
  ];
  for (const r of statusRows) {
    it(r.name, () => {
      const got = upstreamError(r.code, r.body, r.type, 'p');
      const s = got.body as { code: number; reason?: string; message: string };
      assert.deepEqual([got.code, s.code, s.reason, s.message], [r.want.code, r.want.code, r.want.reason, r.want.message]);
    });
  }
});

/** The fake kubelet: answers /containerLogs as the agent does and remembers the requests. */
interface FakeKubelet {
  server: Server;
  port: number;
  requests: { url: string; auth?: string; client?: string }[];
  /** Requests of a followed log that were closed by the other side. */
  closed: number;
}

async function fakeKubelet(tls: { cert: string; key: string; ca: string }): Promise<FakeKubelet> {
  const k: FakeKubelet = { server: undefined as unknown as Server, port: 0, requests: [], closed: 0 };
  k.server = createHttpsServer({ cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: true, rejectUnauthorized: false }, (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as TLSSocket;
    const client = socket.authorized ? String(socket.getPeerCertificate().subject.CN) : undefined;
    k.requests.push({ url: req.url ?? '', auth: req.headers.authorization, client });
    const url = new URL(req.url ?? '/', 'http://kubelet');
    if (url.pathname === '/refuse') {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Forbidden (user=x, verb=get, resource=nodes, subresource(s)=[proxy])');
      return;
    }
    if (!url.pathname.startsWith('/containerLogs/')) {
      // Anything else: what arrived, as JSON.
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Agent': 'yes' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString(), auth: req.headers.authorization ?? null, client: client ?? null, contentType: req.headers['content-type'] ?? null }));
      });
      return;
    }
    const [, , ns, name, container] = url.pathname.split('/');
    if (url.searchParams.get('previous') === 'true') {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `previous terminated container "${container}" in pod "${name}" not found`, reason: 'BadRequest', code: 400 }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write(`hello from ${ns}/${name}/${container}\n`);
    if (url.searchParams.get('follow') !== 'true') {
      res.end('second line\n');
      return;
    }
    // Followed: a line now and then until the reader goes away.
    const t = setInterval(() => res.write('tick\n'), 20);
    res.on('close', () => {
      clearInterval(t);
      k.closed++;
    });
  });
  await new Promise<void>((r) => k.server.listen(0, '127.0.0.1', () => r()));
  k.port = (k.server.address() as AddressInfo).port;
  return k;
}

describe('pods/log through the node', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  let kubelet: FakeKubelet;
  let closedPort: number;

  const bind = async (podName: string, nodeName: string) => {
    const r = await admin.request('POST', `/api/v1/namespaces/default/pods/${podName}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: podName }, target: { kind: 'Node', name: nodeName } });
    assert.equal(r.status, 201, r.text);
  };
  const createPod = async (name: string) => {
    const r = await admin.request('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
    assert.equal(r.status, 201, r.text);
  };
  const createNode = async (name: string, port: number | undefined, addresses = [{ type: 'InternalIP', address: '127.0.0.1' }]) => {
    const r = await admin.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } });
    assert.equal(r.status, 201, r.text);
    const st = await admin.request('PATCH', `/api/v1/nodes/${name}/status`, { status: { addresses, ...(port ? { daemonEndpoints: { kubeletEndpoint: { Port: port } } } : {}) } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(st.status, 200, st.text);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-logs-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    kubelet = await fakeKubelet({ ...(await s.nodeServingCert('n1', ['127.0.0.1'])), ca: s.caCert });
    // A port nothing listens on: bound, then closed.
    const tmp = createServer();
    await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', () => r()));
    closedPort = (tmp.address() as AddressInfo).port;
    await new Promise<void>((r) => tmp.close(() => r()));
    await createNode('n1', kubelet.port);
    await createNode('down', closedPort);
    await createNode('nowhere', kubelet.port, []);
    for (const [p, n] of [['p1', 'n1'], ['p2', 'down'], ['p3', 'ghost'], ['p4', 'nowhere']] as const) {
      await createPod(p);
      await bind(p, n);
    }
    await createPod('pending');
  });
  after(async () => {
    admin?.close();
    await s?.close();
    await new Promise<void>((r) => (kubelet ? kubelet.server.close(() => r()) : r()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("proxies to the agent's /containerLogs as kube-apiserver-kubelet-client and returns its text", async () => {
    const before = kubelet.requests.length;
    const r = await admin.request('GET', '/api/v1/namespaces/default/pods/p1/log?tailLines=5&timestamps=true');
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    assert.equal(r.text, 'hello from default/p1/app\nsecond line\n');
    const seen = kubelet.requests.slice(before);
    assert.deepEqual(seen, [{ url: '/containerLogs/default/p1/app?tailLines=5&timestamps=true', auth: undefined, client: 'kube-apiserver-kubelet-client' }]);
  });

  it('follow streams until the client goes away, then closes the call to the agent', async () => {
    const closedBefore = kubelet.closed;
    const got = await new Promise<string>((resolve, reject) => {
      const req = request(new URL('/api/v1/namespaces/default/pods/p1/log?follow=true', s.url), { ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}` } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
          // Two ticks arrived as they were written: streamed, not buffered to the end.
          if (text.split('tick\n').length > 2) {
            req.destroy();
            resolve(text);
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.end();
      setTimeout(() => reject(new Error('no streamed lines')), 5000).unref();
    });
    assert.match(got, /^hello from default\/p1\/app\ntick\ntick\n/);
    const deadline = Date.now() + 5000;
    while (kubelet.closed === closedBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(kubelet.closed, closedBefore + 1, 'the agent call stays open after the client left');
  });

  const cases: { name: string; path: string; status: number; reason?: string; message?: string | RegExp }[] = [
    { name: "the agent's 400 Status for a missing previous instance is passed through", path: '/api/v1/namespaces/default/pods/p1/log?previous=true', status: 400, reason: 'BadRequest', message: 'previous terminated container "app" in pod "p1" not found' },
    { name: 'an unreachable agent is a 500 with no reason and the Go error text', path: '/api/v1/namespaces/default/pods/p2/log', status: 500, message: /^Get "https:\/\/127\.0\.0\.1:\d+\/containerLogs\/default\/p2\/app": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/ },
    { name: 'a pod bound to a node that does not exist is the NotFound of the node', path: '/api/v1/namespaces/default/pods/p3/log', status: 404, reason: 'NotFound', message: 'nodes "ghost" not found' },
    { name: 'a node without addresses', path: '/api/v1/namespaces/default/pods/p4/log', status: 500, message: 'no preferred addresses found; known addresses: []' },
    { name: 'invalid options are a 422 before anything else', path: '/api/v1/namespaces/default/pods/nope/log?tailLines=-1', status: 422, reason: 'Invalid', message: 'PodLogOptions "nope" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0' },
    { name: 'a missing pod', path: '/api/v1/namespaces/default/pods/nope/log', status: 404, reason: 'NotFound', message: 'pods "nope" not found' },
    { name: 'an unknown container', path: '/api/v1/namespaces/default/pods/p1/log?container=x', status: 400, reason: 'BadRequest', message: 'container x is not valid for pod p1' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await admin.request('GET', c.path);
      assert.equal(r.status, c.status, r.text);
      const body = r.json();
      assert.equal(body.kind, 'Status');
      assert.equal(body.code, c.status);
      assert.equal(body.reason, c.reason);
      if (typeof c.message === 'string') assert.equal(body.message, c.message);
      else if (c.message) assert.match(body.message, c.message);
    });
  }

  it('a pod without a node has no logs yet: 204 and no body, as kube-apiserver streams no location', async () => {
    const r = await admin.request('GET', '/api/v1/namespaces/default/pods/pending/log');
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
  });

  // nodes/proxy: the path below proxy/ to the agent, as kube-apiserver-kubelet-client, the
  // caller's own credentials left behind; the agent's answer unchanged.
  it('nodes/proxy GET reaches the path on the agent with the query, as the API server, without the caller\'s token', async () => {
    const r = await admin.request('GET', '/api/v1/nodes/n1/proxy/metrics/resource?a=1&b=2');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['x-agent'], 'yes');
    assert.deepEqual(r.json(), { method: 'GET', url: '/metrics/resource?a=1&b=2', body: '', auth: null, client: 'kube-apiserver-kubelet-client', contentType: null });
  });

  it('nodes/proxy POST carries the body and its type', async () => {
    const r = await admin.request('POST', '/api/v1/nodes/n1/proxy/run/x', { hello: 'agent' });
    assert.equal(r.status, 200, r.text);
    const got = r.json();
    assert.deepEqual([got.method, got.url, got.body, got.contentType], ['POST', '/run/x', '{"hello":"agent"}', 'application/json']);
  });

  it('nodes/proxy keeps a trailing slash, and the bare proxy path is the agent\'s root', async () => {
    assert.equal((await admin.request('GET', '/api/v1/nodes/n1/proxy/logs/')).json().url, '/logs/');
    assert.equal((await admin.request('GET', '/api/v1/nodes/n1/proxy')).json().url, '/');
  });

  it("nodes/proxy passes the agent's refusal through as it is", async () => {
    const r = await admin.request('GET', '/api/v1/nodes/n1/proxy/refuse');
    assert.deepEqual([r.status, r.text, String(r.headers['content-type'])], [403, 'Forbidden (user=x, verb=get, resource=nodes, subresource(s)=[proxy])', 'text/plain; charset=utf-8']);
  });

  const proxyCases: { name: string; who: 'none' | 'wrong' | 'jane' | 'node'; path: string; status: number; message?: string | RegExp }[] = [
    { name: 'no token: 401 before anything reaches the agent', who: 'none', path: '/api/v1/nodes/n1/proxy/metrics', status: 401, message: 'Unauthorized' },
    { name: 'a wrong token: 401', who: 'wrong', path: '/api/v1/nodes/n1/proxy/metrics', status: 401, message: 'Unauthorized' },
    { name: 'a user without nodes/proxy: 403 in kube-apiserver\'s words', who: 'jane', path: '/api/v1/nodes/n1/proxy/metrics', status: 403, message: 'nodes "n1" is forbidden: User "jane" cannot get resource "nodes/proxy" in API group "" at the cluster scope' },
    { name: 'a node may not proxy to a node (not even its own)', who: 'node', path: '/api/v1/nodes/n1/proxy/metrics', status: 403, message: /^nodes "n1" is forbidden: User "system:node:n1" cannot get resource "nodes\/proxy"/ },
    { name: 'an unreachable agent: 503 error trying to reach service', who: 'node', path: '', status: 0 },
  ];
  for (const c of proxyCases.filter((x) => x.status)) {
    it(`nodes/proxy: ${c.name}`, async () => {
      const before = kubelet.requests.length;
      const token = c.who === 'wrong' ? 'nope' : c.who === 'jane' ? s.tokens.ensure('jane', []) : c.who === 'node' ? s.nodeToken('n1') : undefined;
      const client = new Client(s.url, s.caCert, token);
      try {
        const r = await client.request('GET', c.path);
        assert.equal(r.status, c.status, r.text);
        const body = r.json();
        if (typeof c.message === 'string') assert.equal(body.message, c.message);
        else if (c.message) assert.match(body.message, c.message);
        assert.equal(kubelet.requests.length, before, 'nothing reached the agent');
      } finally {
        client.close();
      }
    });
  }

  it('nodes/proxy to an agent that does not answer: 503 "error trying to reach service" with the dial error', async () => {
    const r = await admin.request('GET', '/api/v1/nodes/down/proxy/metrics');
    assert.equal(r.status, 503, r.text);
    const body = r.json();
    assert.equal(body.reason, 'ServiceUnavailable');
    assert.match(body.message, /^error trying to reach service: dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/);
  });

  it('nodes/proxy to an agent whose certificate the cluster CA did not sign is refused by the API server', async () => {
    const other = await ensurePKI(join(dir, 'other-pki'));
    const impostor = await fakeKubelet({ cert: other.serverCert, key: other.serverKey, ca: other.caCert });
    try {
      await createNode('impostor', impostor.port);
      const r = await admin.request('GET', '/api/v1/nodes/impostor/proxy/metrics');
      assert.equal(r.status, 503, r.text);
      assert.equal(r.json().message, 'error trying to reach service: tls: failed to verify certificate: x509: certificate signed by unknown authority');
      assert.equal(impostor.requests.length, 0);
    } finally {
      await new Promise<void>((ok) => impostor.server.close(() => ok()));
    }
  });
});
