// pods/exec, pods/attach and pods/portforward through the API server: the options and the
// agent location as kube-apiserver computes them (streamLocation, ExecLocation), the upgrade
// relayed to the agent, and the errors before it. The agent is played by an HTTPS server with
// the node's serving certificate whose upgrades go to the agent's real streaming code
// (src/agent/streaming/server.ts) over a fake host that runs commands on this machine, so the
// WebSocket (v5/v4.channel.k8s.io) and SPDY/3.1 (v4.channel.k8s.io) sessions are the real ones,
// driven by a ws client and by a small SPDY client written with the same framing module.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer, request, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { constants, createDeflate } from 'node:zlib';
import { WebSocket } from 'ws';
import type { Pod } from '../../src/api/types.js';
import type { ExecProcess } from '../../src/agent/runtime/runtime.js';
import { handleStreamingUpgrade, type StreamingHost } from '../../src/agent/streaming/server.js';
import { controlFrame, dataFrame, encodeHeaderBlock, flagFin, frameType, parseFrames } from '../../src/agent/streaming/spdy.js';
import { spdyHeaderDictionary } from '../../src/agent/streaming/spdydictionary.js';
import { agentStreamPath, streamContainer } from '../../src/apiserver/streaming/proxy.js';
import { StatusError } from '../../src/apiserver/status.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const pod = (containers: string[], init: string[] = []): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: containers.map((name) => ({ name, image: 'busybox' })), ...(init.length ? { initContainers: init.map((name) => ({ name, image: 'busybox' })) } : {}) },
});

describe('streamLocation: the container of an exec or attach', () => {
  const rows: { name: string; pod: Pod; requested?: string; want?: string; error?: string }[] = [
    { name: 'the only container when none is named', pod: pod(['app']), want: 'app' },
    { name: 'several need a name; init containers are listed apart', pod: pod(['a', 'b'], ['i']), error: 'a container name must be specified for pod p, choose one of: [a b] or one of the init containers: [i]' },
    { name: 'none at all', pod: pod([]), error: 'a container name must be specified for pod p' },
    { name: 'an init container may be named', pod: pod(['a'], ['i']), requested: 'i', want: 'i' },
    { name: 'an unknown name is a 400', pod: pod(['a']), requested: 'nope', error: 'container nope is not valid for pod p' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (!r.error) return assert.equal(streamContainer(r.pod, r.requested), r.want);
      try {
        streamContainer(r.pod, r.requested);
        assert.fail('expected a StatusError');
      } catch (e) {
        assert.ok(e instanceof StatusError);
        assert.deepEqual([e.code, e.status.message], [400, r.error]);
      }
    });
  }

  it('the kubelet query: "1" flags (stdout and stderr default to true), command repeated', () => {
    assert.equal(agentStreamPath('exec', pod(['a']), 'a', new URLSearchParams('command=sh&command=-c&command=echo%20hi&stdin=true&tty=true&stderr=false')), '/exec/ns/p/a?input=1&output=1&tty=1&command=sh&command=-c&command=echo+hi');
    assert.equal(agentStreamPath('attach', pod(['a']), 'a', new URLSearchParams('stdout=true&stderr=true&command=ignored')), '/attach/ns/p/a?output=1&error=1');
    assert.equal(agentStreamPath('portforward', pod(['a']), undefined, new URLSearchParams('ports=80&ports=443')), '/portForward/ns/p?port=80&port=443');
  });
});

/** A fake host: pods "p1" (container app running) and "stopped" (no running container). */
function fakeHost(): StreamingHost {
  return {
    podKnown: (ns, name) => ns === 'default' && (name === 'p1' || name === 'stopped'),
    runningInstance: (_ns, name, c) => (name === 'p1' && c === 'app' ? { id: 'p1-app', logPath: '/nonexistent' } : undefined),
    podNetns: () => 'host',
    exec: (_id, argv, opts): ExecProcess => {
      const child = spawn(argv[0]!, argv.slice(1), { stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
      const exited = new Promise<number>((r) => child.once('close', (code) => r(code ?? 137)));
      return { ...(child.stdin ? { stdin: child.stdin } : {}), stdout: child.stdout!, stderr: child.stderr!, resize: () => undefined, kill: () => child.kill(), exited };
    },
  };
}

interface Session {
  channels: Record<number, string>;
  status?: { status: string; message?: string; reason?: string; details?: unknown };
  protocol: string;
}

// Upstream strategy_test.go TestPortForwardLocation (kubernetes/kubernetes pkg/registry/core/pod/
// strategy_test.go, index file 148060311): the kubelet path of rows 2 and 3 (row 1, a pod without
// a node, is 'a pod without a node: BadRequest' below, through the server).
describe('upstream TestPortForwardLocation: the agent path', () => {
  const pod1 = { ...pod([]), metadata: { namespace: 'ns', name: 'pod1' }, spec: { containers: [], nodeName: 'node1' } } as Pod;
  const rows: { name: string; query: string; want: string }[] = [
    { name: 'no ports', query: '', want: '/portForward/ns/pod1' },
    { name: 'port 80', query: 'ports=80', want: '/portForward/ns/pod1?port=80' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(agentStreamPath('portforward', pod1, undefined, new URLSearchParams(r.query)), r.want));
});

describe('pods/exec through the API server to the agent', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  let agent: Server;
  let closedPort: number;

  const wsURL = (path: string) => `${s.url.replace(/^https/, 'wss')}${path}`;
  const wsOpts = () => ({ ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}` } });

  /** A WebSocket exec session: the channels' text and the error channel's Status. */
  function wsExec(path: string, protocol: string, input?: string): Promise<Session> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsURL(path), [protocol], wsOpts());
      const out: Session = { channels: {}, protocol: '' };
      ws.on('open', () => {
        out.protocol = ws.protocol;
        if (input !== undefined) {
          ws.send(Buffer.concat([Buffer.from([0]), Buffer.from(input)]));
          ws.send(Buffer.from([255, 0]));
        }
      });
      ws.on('message', (d: Buffer) => {
        if (d[0] === 3) out.status = JSON.parse(d.subarray(1).toString());
        else out.channels[d[0]!] = (out.channels[d[0]!] ?? '') + d.subarray(1).toString();
      });
      ws.on('close', () => resolve(out));
      ws.on('unexpected-response', (_req, res: IncomingMessage) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => reject(Object.assign(new Error(body), { status: res.statusCode })));
      });
      ws.on('error', reject);
    });
  }

  /** The refusal of an upgrade: its status and body. */
  async function refused(path: string, protocol = 'v5.channel.k8s.io'): Promise<{ status: number; body: string }> {
    try {
      await wsExec(path, protocol);
    } catch (e) {
      const err = e as Error & { status?: number };
      if (err.status) return { status: err.status, body: err.message };
      throw e;
    }
    assert.fail('the upgrade was not refused');
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-streaming-'));
    s = await startServer({
      dataDir: join(dir, 'data'),
      store: 'memory:',
      port: 0,
      scheduler: false,
      // A user "getonly" (bearer token "getonly") who may get anything and nothing else, to see
      // that a WebSocket exec (a GET) also needs create.
      extend: (h) => {
        const authenticate = h.authenticate.bind(h);
        h.authenticate = (req) => (req.headers.authorization === 'Bearer getonly' ? { name: 'getonly', groups: ['system:authenticated'] } : authenticate(req));
        const real = h.authorizer;
        h.authorizer = Object.assign(Object.create(real) as typeof real, {
          authorize: (user: { name: string; groups: string[] }, verb: Parameters<typeof real.authorize>[1], ...rest: [Parameters<typeof real.authorize>[2], Parameters<typeof real.authorize>[3], Parameters<typeof real.authorize>[4]]) =>
            user.name === 'getonly' && verb === 'get' ? undefined : real.authorize(user, verb, ...rest),
        });
      },
    });
    admin = new Client(s.url, s.caCert, s.adminToken);
    const tls = await s.nodeServingCert('n1', ['127.0.0.1']);
    const host = fakeHost();
    agent = createHttpsServer({ ...tls, ca: s.caCert, requestCert: true, rejectUnauthorized: false }, (_req, res) => res.writeHead(404).end());
    agent.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!handleStreamingUpgrade(host, req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', () => r()));
    const tmp = createServer();
    await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', () => r()));
    closedPort = (tmp.address() as AddressInfo).port;
    await new Promise<void>((r) => tmp.close(() => r()));
    for (const [name, port] of [['n1', (agent.address() as AddressInfo).port], ['down', closedPort]] as const) {
      assert.equal((await admin.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } })).status, 201);
      const st = await admin.request('PATCH', `/api/v1/nodes/${name}/status`, { status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(st.status, 200, st.text);
    }
    for (const [p, n] of [['p1', 'n1'], ['stopped', 'n1'], ['elsewhere', 'down'], ['pending', '']] as const) {
      assert.equal((await admin.request('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: p }, spec: { containers: [{ name: 'app', image: 'busybox' }] } })).status, 201);
      if (n) assert.equal((await admin.request('POST', `/api/v1/namespaces/default/pods/${p}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: p }, target: { kind: 'Node', name: n } })).status, 201);
    }
  });
  after(async () => {
    admin?.close();
    await s?.close();
    await new Promise<void>((r) => (agent ? (agent.closeAllConnections(), agent.close(() => r())) : r()));
    rmSync(dir, { recursive: true, force: true });
  });

  const exec = (pod: string, cmd: string[], extra = 'stdout=true&stderr=true') => `/api/v1/namespaces/default/pods/${pod}/exec?${cmd.map((c) => `command=${encodeURIComponent(c)}`).join('&')}&${extra}`;

  it('v5: stdout and stderr on their channels, the exit code in the error channel\'s Status', async () => {
    const r = await wsExec(exec('p1', ['sh', '-c', 'echo out; echo err >&2; exit 3']), 'v5.channel.k8s.io');
    assert.equal(r.protocol, 'v5.channel.k8s.io');
    assert.deepEqual(r.channels, { 1: 'out\n', 2: 'err\n' });
    assert.deepEqual(r.status, { metadata: {}, status: 'Failure', message: 'command terminated with non-zero exit code: error executing command [sh -c echo out; echo err >&2; exit 3], exit code 3', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '3' }] } });
  });

  it("v5: stdin reaches the command and the close signal [255, 0] is its EOF", async () => {
    const r = await wsExec(exec('p1', ['sh', '-c', 'cat; echo end'], 'stdin=true&stdout=true&stderr=true'), 'v5.channel.k8s.io', 'piped\n');
    assert.deepEqual(r.channels, { 1: 'piped\nend\n' });
    assert.deepEqual(r.status, { metadata: {}, status: 'Success' });
  });

  it('v4 is served for clients that ask for it', async () => {
    const r = await wsExec(exec('p1', ['true']), 'v4.channel.k8s.io');
    assert.equal(r.protocol, 'v4.channel.k8s.io');
    assert.deepEqual(r.status, { metadata: {}, status: 'Success' });
  });

  const errors: { name: string; path: string; protocol?: string; status: number; body: RegExp }[] = [
    { name: 'no such pod: its NotFound', path: exec('nosuch', ['true']), status: 404, body: /"message":"pods \\"nosuch\\" not found","reason":"NotFound"/ },
    { name: 'no such container: BadRequest', path: `${exec('p1', ['true'])}&container=nope`, status: 400, body: /container nope is not valid for pod p1/ },
    { name: 'a pod without a node: BadRequest', path: exec('pending', ['true']), status: 400, body: /pod pending does not have a host assigned/ },
    { name: "an agent that cannot be reached: error dialing backend, Go's words", path: exec('elsewhere', ['true']), status: 500, body: /error dialing backend: dial tcp 127\.0\.0\.1:\d+: connect: connection refused/ },
    { name: 'a container that is not running: the kubelet\'s text, passed through', path: exec('stopped', ['true']), status: 500, body: /^container not found \("app"\)$/ },
    { name: 'no stream asked for', path: exec('p1', ['true'], 'stdout=false&stderr=false'), status: 400, body: /you must specify at least 1 of stdin, stdout, stderr/ },
    { name: 'a subprotocol not served', path: exec('p1', ['true']), protocol: 'base64.channel.k8s.io', status: 403, body: /requested protocol\(s\) are not supported: \[base64\.channel\.k8s\.io\]; supports \[v5\.channel\.k8s\.io v4\.channel\.k8s\.io\]/ },
  ];
  for (const e of errors) {
    it(`refused before the upgrade: ${e.name}`, async () => {
      const r = await refused(e.path, e.protocol);
      assert.equal(r.status, e.status, r.body);
      assert.match(r.body, e.body);
    });
  }

  it('a WebSocket exec is a GET that also needs create on pods/exec', async () => {
    const err = await new Promise<{ status?: number; body: string }>((resolve) => {
      const ws = new WebSocket(wsURL(exec('p1', ['true'])), ['v5.channel.k8s.io'], { ca: s.caCert, headers: { Authorization: 'Bearer getonly' } });
      ws.on('unexpected-response', (_req, res: IncomingMessage) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      ws.on('open', () => resolve({ body: 'upgraded' }));
      ws.on('error', () => undefined);
    });
    assert.equal(err.status, 403, err.body);
    assert.match(err.body, /pods \\"p1\\" is forbidden: User \\"getonly\\" cannot create resource \\"pods\/exec\\" in API group \\"\\" in the namespace \\"default\\"/);
  });

  it('a request without an upgrade is a BadRequest', async () => {
    const r = await admin.request('POST', exec('p1', ['true']));
    assert.equal(r.status, 400, r.text);
    assert.match(r.text, /Upgrade request required/);
  });

  it('pods/exec, attach and portforward are in discovery with create and get', async () => {
    const r = await admin.request('GET', '/api/v1');
    const list = JSON.parse(r.text) as { resources: { name: string; verbs: string[]; kind: string }[] };
    for (const [name, kind] of [['pods/exec', 'PodExecOptions'], ['pods/attach', 'PodAttachOptions'], ['pods/portforward', 'PodPortForwardOptions']]) {
      const res = list.resources.find((x) => x.name === name);
      assert.deepEqual([res?.kind, res?.verbs], [kind, ['create', 'get']], name);
    }
  });

  /** A SPDY/3.1 exec session as kubectl 1.29 opens it: POST, Upgrade, one stream per channel. */
  async function spdyExec(path: string, protocols: string[]): Promise<{ status: number; protocol?: string; body?: string; streams: Record<string, string> }> {
    const url = new URL(path, s.url);
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}`, Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': protocols } });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, streams: {} }));
      });
      req.on('error', reject);
      req.on('upgrade', (res, socket: Socket, head: Buffer) => {
        const deflate = createDeflate({ dictionary: spdyHeaderDictionary });
        const names: Record<number, string> = { 1: 'error', 3: 'stdout', 5: 'stderr' };
        const streams: Record<string, string> = {};
        let pending = head;
        socket.on('data', (d: Buffer) => {
          const r = parseFrames(Buffer.concat([pending, d]));
          pending = Buffer.from(r.rest);
          for (const f of r.frames) {
            if (f.control) continue;
            const n = names[f.streamId]!;
            streams[n] = (streams[n] ?? '') + f.payload.toString();
          }
        });
        socket.on('close', () => resolve({ status: 101, protocol: String(res.headers['x-stream-protocol-version']), streams }));
        void (async () => {
          for (const id of [1, 3, 5]) {
            const block = await new Promise<Buffer>((ok) => {
              const chunks: Buffer[] = [];
              const on = (c: Buffer) => chunks.push(c);
              deflate.on('data', on);
              deflate.write(encodeHeaderBlock({ streamtype: [names[id]!] }));
              deflate.flush(constants.Z_SYNC_FLUSH, () => {
                deflate.off('data', on);
                ok(Buffer.concat(chunks));
              });
            });
            const head = Buffer.alloc(10);
            head.writeUInt32BE(id, 0);
            socket.write(controlFrame(frameType.synStream, 0, Buffer.concat([head, block])));
            // stdin is not asked for: each stream is half-closed from the client's side at once.
            socket.write(dataFrame(id, flagFin, Buffer.alloc(0)));
          }
        })();
      });
      req.end();
    });
  }

  it('SPDY/3.1 (kubectl 1.29): v4 negotiated, one stream per channel, the Status on the error stream', async () => {
    const r = await spdyExec(exec('p1', ['sh', '-c', 'echo out; echo err >&2; exit 2']), ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v3.channel.k8s.io']);
    assert.equal(r.status, 101);
    assert.equal(r.protocol, 'v4.channel.k8s.io');
    assert.equal(r.streams.stdout, 'out\n');
    assert.equal(r.streams.stderr, 'err\n');
    assert.equal((JSON.parse(r.streams.error!) as { details: { causes: { message: string }[] } }).details.causes[0]!.message, '2');
  });

  it('SPDY/3.1 with no protocol in common: 403 naming what is accepted', async () => {
    const r = await spdyExec(exec('p1', ['true']), ['v3.channel.k8s.io']);
    assert.equal(r.status, 403);
    assert.equal(r.body, 'unable to upgrade: unable to negotiate protocol: client supports [v3.channel.k8s.io], server accepts [v4.channel.k8s.io]\n');
  });
});
