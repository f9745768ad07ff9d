// The HTTP and TCP probers (src/agent/podworker/prober.ts over lifecycle/probehandlers.ts, after
// pkg/probe/http and pkg/probe/tcp) against servers of this process on loopback, dialled as a
// hostNetwork pod's probes are (the pod-namespace relay is proven in test/agent/probes.test.ts):
// redirects, TLS without verification, the body cap, the timeout. One row per rule.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTLSServer, type Server as TLSServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as netServer } from 'node:net';
import type { Probe } from '../../../src/api/types.js';
import { runProbe } from '../../../src/agent/podworker/prober.js';
import type { ContainerRuntime } from '../../../src/agent/runtime/runtime.js';
import { testCerts, type TestCerts } from '../endpointcerts.js';

describe('HTTP and TCP probes (loopback)', () => {
  let server: Server;
  let tls: TLSServer;
  let certs: TestCerts;
  let port = 0;
  let tlsPort = 0;
  let closedPort = 0;
  let last: IncomingHttpHeaders = {};
  before(async () => {
    server = createServer((req, res) => {
      last = req.headers;
      const path = req.url ?? '/';
      if (path === '/ok') return res.end('fine');
      if (path === '/down') return res.writeHead(503).end('no');
      if (path === '/hop') return res.writeHead(302, { Location: '/ok' }).end();
      if (path === '/away') return res.writeHead(301, { Location: `http://localhost:${port}/ok` }).end('moved');
      if (path === '/loop') return res.writeHead(302, { Location: '/loop' }).end();
      if (path === '/big') return res.end('x'.repeat(20_000));
      if (path === '/slow') return void setTimeout(() => res.end('late'), 3000);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    certs = await testCerts();
    tls = createTLSServer({ cert: certs.serving.cert, key: certs.serving.key }, (_req, res) => res.end('secure'));
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    tlsPort = (tls.address() as AddressInfo).port;
    const s = netServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    closedPort = (s.address() as AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await new Promise<void>((r) => tls.close(() => r()));
    certs.cleanup();
  });

  const run = (p: Probe) => runProbe({} as ContainerRuntime, { timeoutSeconds: 1, ...p }, { container: { name: 'c', image: 'busybox' }, id: 'x', bundle: '/nonexistent', netns: 'host' });
  const get = (path: string, extra: Partial<NonNullable<Probe['httpGet']>> = {}) => run({ httpGet: { port, path, ...extra } });

  it('200: success with the body; the request carries kube-probe/1.32 and Accept */*', async () => {
    assert.deepEqual(await get('/ok'), { result: 'Success', output: 'fine' });
    assert.equal(last['user-agent'], 'kube-probe/1.32');
    assert.equal(last.accept, '*/*');
  });
  it('503: failure with the status code', async () => assert.deepEqual(await get('/down'), { result: 'Failure', output: 'HTTP probe failed with statuscode: 503' }));
  it('a redirect on the same host is followed', async () => assert.deepEqual(await get('/hop'), { result: 'Success', output: 'fine' }));
  it('a redirect to another host is not: a warning with the body', async () => assert.deepEqual(await get('/away'), { result: 'Warning', output: 'Probe terminated redirects, Response body: moved' }));
  it('the eleventh redirect fails the probe', async () => assert.deepEqual(await get('/loop'), { result: 'Failure', output: `Get "http://127.0.0.1:${port}/loop": stopped after 10 redirects` }));
  it('no answer within timeoutSeconds: the client\'s timeout', async () => assert.deepEqual(await get('/slow'), { result: 'Failure', output: `Get "http://127.0.0.1:${port}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` }));
  it('the body is read up to 10 KiB', async () => {
    const r = await get('/big');
    assert.ok('result' in r && r.result === 'Success' && r.output.length === 10 * 1024, JSON.stringify(r).slice(0, 200));
  });
  it('a Host header in httpHeaders is the request\'s Host', async () => {
    await get('/ok', { httpHeaders: [{ name: 'Host', value: 'example.test' }] });
    assert.equal(last.host, 'example.test');
  });
  it('HTTPS: the certificate is not verified (a CA the prober does not know)', async () => assert.deepEqual(await run({ httpGet: { port: tlsPort, path: '/', scheme: 'HTTPS' } }), { result: 'Success', output: 'secure' }));
  it('nothing listening: dial tcp …: connect: connection refused', async () =>
    assert.deepEqual(await get('/'.concat(''), { port: closedPort }), { result: 'Failure', output: `Get "http://127.0.0.1:${closedPort}/": dial tcp 127.0.0.1:${closedPort}: connect: connection refused` }));
  it('tcpSocket: an open port succeeds, a closed one is refused', async () => {
    assert.deepEqual(await run({ tcpSocket: { port } }), { result: 'Success', output: '' });
    assert.deepEqual(await run({ tcpSocket: { port: closedPort } }), { result: 'Failure', output: `dial tcp 127.0.0.1:${closedPort}: connect: connection refused` });
  });
});
