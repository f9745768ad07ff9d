// The gRPC prober (src/agent/podworker/prober.ts over lifecycle/probehandlers.ts, after
// pkg/probe/grpc/grpc.go) against an HTTP/2 server of this process on loopback that answers
// grpc.health.v1.Health/Check as a pod's server would (test/agent/probes.test.ts proves the same
// through a pod's network namespace). One row per rule.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createServer as netServer } from 'node:net';
import { grpcHealthRequest } from '../../../src/agent/lifecycle/probehandlers.js';
import { runProbe } from '../../../src/agent/podworker/prober.js';
import type { ContainerRuntime } from '../../../src/agent/runtime/runtime.js';

/** What the server answers per service name: a ServingStatus, a gRPC error, or nothing (the call hangs). */
const answers: Record<string, { status: number } | { code: number; message: string } | 'hang'> = {
  '': { status: 1 },
  down: { status: 2 },
  gone: { code: 12, message: 'unknown service grpc.health.v1.Health' },
  broken: { code: 14, message: 'backend unavailable' },
  slow: 'hang',
};

describe('gRPC health probes', () => {
  let server: Http2Server;
  let port = 0;
  let closedPort = 0;
  const seen: { path: string; ua: string }[] = [];
  before(async () => {
    server = createServer();
    server.on('stream', (stream: ServerHttp2Stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (b: Buffer) => chunks.push(b));
      stream.on('end', () => {
        const body = Buffer.concat(chunks);
        const service = body.subarray(7).toString('utf8');
        seen.push({ path: String(headers[':path']), ua: String(headers['user-agent']) });
        const a = answers[service] ?? { status: 3 };
        if (a === 'hang') return;
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers('code' in a ? { 'grpc-status': String(a.code), 'grpc-message': encodeURIComponent(a.message) } : { 'grpc-status': '0' }));
        if ('status' in a) stream.end(Buffer.from([0, 0, 0, 0, 2, 0x08, a.status]));
        else stream.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    // A port nobody listens on: bound, then closed.
    const s = netServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    closedPort = (s.address() as AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const probe = (service: string | undefined, p = port) =>
    runProbe({} as ContainerRuntime, { grpc: { port: p, ...(service !== undefined ? { service } : {}) }, timeoutSeconds: 1 }, { container: { name: 'c' }, id: 'x', bundle: '/nonexistent', netns: 'host' });

  const rows: { rule: string; service?: string; port?: () => number; want: Awaited<ReturnType<typeof probe>> }[] = [
    { rule: 'SERVING passes: "service healthy"', service: '', want: { result: 'Success', output: 'service healthy' } },
    { rule: 'NOT_SERVING fails, named', service: 'down', want: { result: 'Failure', output: 'service unhealthy (responded with "NOT_SERVING")' } },
    { rule: 'SERVICE_UNKNOWN fails, named', service: 'other', want: { result: 'Failure', output: 'service unhealthy (responded with "SERVICE_UNKNOWN")' } },
    { rule: 'Unimplemented: the server has no health service', service: 'gone', want: { result: 'Failure', output: 'error: this server does not implement the grpc health protocol (grpc.health.v1.Health): unknown service grpc.health.v1.Health' } },
    { rule: 'another gRPC error: grpc-go\'s rpc error', service: 'broken', want: { result: 'Failure', output: 'error: health rpc probe failed: rpc error: code = Unavailable desc = backend unavailable' } },
    { rule: 'no answer within timeoutSeconds', service: 'slow', want: { result: 'Failure', output: 'timeout: health rpc did not complete within 1s' } },
    { rule: 'nothing listening: the blocking dial gives up at the timeout', service: '', port: () => closedPort, want: { result: 'Failure', output: `timeout: failed to connect service "127.0.0.1:${closedPort || 'PORT'}" within 1s: context deadline exceeded` } },
  ];
  for (const r of rows) {
    it(r.rule, async () => {
      const got = await probe(r.service, r.port?.() ?? port);
      assert.deepEqual(got, r.port ? { ...r.want, output: r.want && 'output' in r.want ? r.want.output.replace('PORT', String(closedPort)) : '' } : r.want);
    });
  }

  it('the call: POST /grpc.health.v1.Health/Check with User-Agent kube-probe/1.32, the service in the request', async () => {
    seen.length = 0;
    await probe('down');
    assert.equal(seen[0]?.path, '/grpc.health.v1.Health/Check');
    assert.equal(seen[0]?.ua, 'kube-probe/1.32');
    assert.deepEqual(grpcHealthRequest('down'), Buffer.from([0, 0, 0, 0, 6, 0x0a, 4, ...Buffer.from('down')]));
    assert.deepEqual(grpcHealthRequest(''), Buffer.from([0, 0, 0, 0, 0]));
  });
});
