// The probe handlers' rules and words (src/agent/lifecycle/probehandlers.ts after pkg/probe/http
// request.go and http.go, pkg/probe/util.go, pkg/probe/tcp, the CRI ExecSync timeout): one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../src/api/types.js';
import { dialError, execProbeOutcome, followRedirect, httpProbeOutcome, httpProbeRequest, resolveContainerPort, type HTTPProbeRequest } from '../../../src/agent/lifecycle/probehandlers.js';

const c: Container = { name: 'web', image: 'busybox', ports: [{ name: 'http', containerPort: 8080 }] };

describe('ResolveContainerPort', () => {
  const rows: { rule: string; port: number | string; want: number | { error: string } }[] = [
    { rule: 'a number', port: 80, want: 80 },
    { rule: 'a container port by name', port: 'http', want: 8080 },
    { rule: 'a number written as a string', port: '9000', want: 9000 },
    { rule: 'an unknown name: strconv.Atoi\'s error', port: 'nope', want: { error: 'strconv.Atoi: parsing "nope": invalid syntax' } },
    { rule: 'out of range', port: 70000, want: { error: 'invalid port number: 70000' } },
    { rule: 'zero', port: 0, want: { error: 'invalid port number: 0' } },
  ];
  for (const r of rows) it(r.rule, () => assert.deepEqual(resolveContainerPort(r.port, c), r.want));
});

describe('NewRequestForHTTPGetAction', () => {
  const ua = ['User-Agent', 'kube-probe/1.32'];
  const rows: { rule: string; get: Parameters<typeof httpProbeRequest>[0]; want: Partial<HTTPProbeRequest> | { error: string } }[] = [
    { rule: 'defaults: http, the pod\'s loopback, kube-probe/<major.minor> and Accept */*', get: { port: 'http', path: '/healthz' }, want: { scheme: 'http', host: '127.0.0.1', port: 8080, path: '/healthz', url: 'http://127.0.0.1:8080/healthz', headers: [ua as [string, string], ['Accept', '*/*']] } },
    { rule: 'scheme is lower-cased; host and query kept', get: { port: 443, scheme: 'HTTPS', host: '10.1.2.3', path: '/x?y=1' }, want: { scheme: 'https', host: '10.1.2.3', url: 'https://10.1.2.3:443/x?y=1', path: '/x?y=1' } },
    { rule: 'no path: the URL has none, the request asks for /', get: { port: 80 }, want: { url: 'http://127.0.0.1:80', path: '/' } },
    { rule: 'the probe\'s own User-Agent and Accept replace the kubelet\'s', get: { port: 80, httpHeaders: [{ name: 'user-agent', value: 'me' }, { name: 'Accept', value: 'text/plain' }] }, want: { headers: [['user-agent', 'me'], ['Accept', 'text/plain']] } },
    { rule: 'an empty Accept removes it', get: { port: 80, httpHeaders: [{ name: 'Accept', value: '' }] }, want: { headers: [ua as [string, string]] } },
    { rule: 'a Host header is sent as given', get: { port: 80, httpHeaders: [{ name: 'Host', value: 'example.com' }] }, want: { headers: [['Host', 'example.com'], ua as [string, string], ['Accept', '*/*']] } },
    { rule: 'an IPv6 host is bracketed', get: { port: 80, host: '::1', path: '/' }, want: { url: 'http://[::1]:80/' } },
    { rule: 'a bad port is an error (the probe errors)', get: { port: 'nope' }, want: { error: 'strconv.Atoi: parsing "nope": invalid syntax' } },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      const got = httpProbeRequest(r.get, c);
      if ('error' in r.want) return assert.deepEqual(got, r.want);
      assert.ok(!('error' in got), JSON.stringify(got));
      for (const [k, v] of Object.entries(r.want)) assert.deepEqual(got[k as keyof HTTPProbeRequest], v, k);
    });
  }
});

describe('DoHTTPProbe: the verdict on a status code', () => {
  const rows: { rule: string; code: number; want: ReturnType<typeof httpProbeOutcome> }[] = [
    { rule: '200: success with the body', code: 200, want: { result: 'Success', output: 'ok' } },
    { rule: '204: any 2xx succeeds', code: 204, want: { result: 'Success', output: 'ok' } },
    { rule: '302 not followed: a warning', code: 302, want: { result: 'Warning', output: 'Probe terminated redirects, Response body: ok' } },
    { rule: '399 is still a redirect', code: 399, want: { result: 'Warning', output: 'Probe terminated redirects, Response body: ok' } },
    { rule: '400: failure, with the code and without the body', code: 400, want: { result: 'Failure', output: 'HTTP probe failed with statuscode: 400' } },
    { rule: '500: failure', code: 500, want: { result: 'Failure', output: 'HTTP probe failed with statuscode: 500' } },
    { rule: '199: failure', code: 199, want: { result: 'Failure', output: 'HTTP probe failed with statuscode: 199' } },
  ];
  for (const r of rows) it(r.rule, () => assert.deepEqual(httpProbeOutcome(r.code, 'ok'), r.want));
});

describe('redirects: followed on the same host only, at most 10', () => {
  const from = httpProbeRequest({ port: 8080, path: '/a' }, c) as HTTPProbeRequest;
  it('a relative Location on the same host is followed', () => assert.deepEqual(followRedirect(from, '/b?c=1', 0), { follow: { ...from, path: '/b?c=1', url: 'http://127.0.0.1:8080/b?c=1' } }));
  it('another port on the same host name is followed', () => assert.equal((followRedirect(from, 'http://127.0.0.1:9090/', 0) as { follow: HTTPProbeRequest }).follow.port, 9090));
  it('another host ends the probe with the redirect itself (ErrUseLastResponse)', () => assert.deepEqual(followRedirect(from, 'http://example.com/', 0), { stop: 'use-last-response' }));
  it('the eleventh redirect is an error', () => assert.deepEqual(followRedirect(from, '/b', 10), { error: 'stopped after 10 redirects' }));
});

describe('dial and exec messages', () => {
  it('refused', () => assert.equal(dialError('127.0.0.1', 80, "nc: can't connect to remote host (127.0.0.1): Connection refused"), 'dial tcp 127.0.0.1:80: connect: connection refused'));
  it('unreachable', () => assert.equal(dialError('10.0.0.9', 80, "nc: can't connect to remote host (10.0.0.9): Network is unreachable"), 'dial tcp 10.0.0.9:80: connect: network is unreachable'));
  it('timed out', () => assert.equal(dialError('127.0.0.1', 80, 'nc: timed out'), 'dial tcp 127.0.0.1:80: i/o timeout'));
  it('exec: exit 0 succeeds with the output', () => assert.deepEqual(execProbeOutcome({ exitCode: 0, output: 'fine\n' }, ['cat', '/x']), { result: 'Success', output: 'fine\n' }));
  it('exec: a non-zero exit fails with the output', () => assert.deepEqual(execProbeOutcome({ exitCode: 1, output: 'cat: /x: No such file\n' }, ['cat', '/x']), { result: 'Failure', output: 'cat: /x: No such file\n' }));
  it('exec: a timeout fails with CRI\'s words', () => assert.deepEqual(execProbeOutcome({ timedOut: true }, ['sh', '-c', 'sleep 10']), { result: 'Failure', output: 'command "sh -c sleep 10" timed out' }));
});
