// The kubelet's lifecycle hook rules and words (src/agent/lifecycle/hooks.ts, after
// pkg/kubelet/lifecycle/handlers.go handlerRunner.Run, kuberuntime_container.go startContainer,
// executePreStopHook and killContainer, and remote_runtime.go ExecSync): one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LifecycleHandler, Pod } from '../../../src/api/types.js';
import { execExitError, graceAfterPreStop, hookAction, hookFailureMessage, hookMessages, hookReasons, preStopRuns } from '../../../src/agent/lifecycle/hooks.js';
import { httpProbeRequest } from '../../../src/agent/lifecycle/probehandlers.js';

const pod = { metadata: { name: 'web', namespace: 'prod', uid: 'u-1' }, spec: { containers: [] } } as unknown as Pod;

describe('hookAction: the first of exec, httpGet, sleep that is set; anything else is no action', () => {
  const rows: { rule: string; h: LifecycleHandler; want: string }[] = [
    { rule: 'exec', h: { exec: { command: ['true'] } }, want: 'exec' },
    { rule: 'httpGet', h: { httpGet: { port: 80 } }, want: 'httpGet' },
    { rule: 'sleep', h: { sleep: { seconds: 1 } }, want: 'sleep' },
    { rule: 'tcpSocket (deprecated, no action)', h: { tcpSocket: { port: 80 } }, want: 'invalid' },
    { rule: 'nothing set', h: {}, want: 'invalid' },
  ];
  for (const r of rows) it(r.rule, () => assert.equal(Object.keys(hookAction(r.h))[0], r.want));
});

describe("hookFailureMessage: handlerRunner.Run's message for each action", () => {
  const rows: { rule: string; h: LifecycleHandler; err: string; output?: string; want: string }[] = [
    {
      rule: 'exec: the command as Go prints a []string, format.Pod, the error, the output %q-quoted',
      h: { exec: { command: ['sh', '-c', 'echo out; exit 3'] } },
      err: "command 'sh -c echo out; exit 3' exited with 3: ",
      output: 'out\n',
      want: 'Exec lifecycle hook ([sh -c echo out; exit 3]) for Container "app" in Pod "web_prod(u-1)" failed - error: command \'sh -c echo out; exit 3\' exited with 3: , message: "out\\n"',
    },
    {
      rule: 'httpGet: the path as written, the client error',
      h: { httpGet: { path: '/hook', port: 8080 } },
      err: 'Get "http://127.0.0.1:8080/hook": dial tcp 127.0.0.1:8080: connect: connection refused',
      want: 'HTTP lifecycle hook (/hook) for Container "app" in Pod "web_prod(u-1)" failed - error: Get "http://127.0.0.1:8080/hook": dial tcp 127.0.0.1:8080: connect: connection refused',
    },
    {
      rule: 'sleep: the seconds',
      h: { sleep: { seconds: 5 } },
      err: 'container terminated before sleep hook finished',
      want: 'Sleep lifecycle hook (5) for Container "app" in Pod "web_prod(u-1)" failed - error: container terminated before sleep hook finished',
    },
    {
      rule: 'tcpSocket: "Cannot run handler" with the handler as its generated String() prints it (an int port)',
      h: { tcpSocket: { port: 8080 } },
      err: '',
      want: 'Cannot run handler: invalid handler: &LifecycleHandler{Exec:nil,HTTPGet:nil,TCPSocket:&TCPSocketAction{Port:{0 8080 },Host:,},Sleep:nil,}',
    },
    {
      rule: 'tcpSocket with a named port and a host',
      h: { tcpSocket: { port: 'http', host: 'db' } },
      err: '',
      want: 'Cannot run handler: invalid handler: &LifecycleHandler{Exec:nil,HTTPGet:nil,TCPSocket:&TCPSocketAction{Port:{1 0 http},Host:db,},Sleep:nil,}',
    },
  ];
  for (const r of rows) it(r.rule, () => assert.equal(hookFailureMessage(hookAction(r.h), 'app', pod, r.err, r.output), r.want));
});

describe("execExitError: ExecSync's CodeExitError", () => {
  it('the command joined by spaces, the exit code, stderr', () => assert.equal(execExitError(['sh', '-c', 'exit 3'], 3, 'boom\n'), "command 'sh -c exit 3' exited with 3: boom\n"));
});

describe('events and reasons: the kubelet withholds the handler message from the events', () => {
  const rows: { rule: string; got: string; want: string }[] = [
    { rule: 'postStart event reason', got: hookReasons.failedPostStartHook, want: 'FailedPostStartHook' },
    { rule: 'postStart event message', got: hookMessages.postStartFailed, want: 'PostStartHook failed' },
    { rule: "postStart kill's Killing message", got: hookMessages.postStartKill, want: 'FailedPostStartHook' },
    { rule: 'postStart waiting reason (ErrPostStartHook)', got: hookReasons.postStartHookError, want: 'PostStartHookError' },
    { rule: 'preStop event reason', got: hookReasons.failedPreStopHook, want: 'FailedPreStopHook' },
    { rule: 'preStop event message', got: hookMessages.preStopFailed, want: 'PreStopHook failed' },
  ];
  for (const r of rows) it(r.rule, () => assert.equal(r.got, r.want));
});

describe('preStopRuns: a preStop hook runs only with a whole second of grace or more', () => {
  const h: LifecycleHandler = { exec: { command: ['true'] } };
  const rows: { rule: string; h: LifecycleHandler | undefined; graceMs: number; want: boolean }[] = [
    { rule: 'a hook and 30 s', h, graceMs: 30_000, want: true },
    { rule: 'a hook and 1 s', h, graceMs: 1000, want: true },
    { rule: 'a hook and 0 s (a forced delete)', h, graceMs: 0, want: false },
    { rule: 'a hook and less than a second (gracePeriod is whole seconds)', h, graceMs: 999, want: false },
    { rule: 'no hook', h: undefined, graceMs: 30_000, want: false },
  ];
  for (const r of rows) it(r.rule, () => assert.equal(preStopRuns(r.h, r.graceMs), r.want));
});

describe("graceAfterPreStop: the grace less the hook's whole seconds, at least minimumGracePeriodInSeconds", () => {
  const rows: { rule: string; graceMs: number; elapsedMs: number; want: number }[] = [
    { rule: 'a quick hook takes nothing', graceMs: 30_000, elapsedMs: 400, want: 30_000 },
    { rule: 'whole seconds are taken, the rest truncated', graceMs: 30_000, elapsedMs: 3_900, want: 27_000 },
    { rule: 'a hook that used the whole grace leaves the 2 s minimum', graceMs: 30_000, elapsedMs: 30_000, want: 2_000 },
    { rule: 'the minimum also when less than 2 s would be left', graceMs: 10_000, elapsedMs: 9_000, want: 2_000 },
  ];
  for (const r of rows) it(r.rule, () => assert.equal(graceAfterPreStop(r.graceMs, r.elapsedMs, 2), r.want));
});

describe('the User-Agent of a lifecycle hook request', () => {
  const rows: { rule: string; fragment: 'probe' | 'lifecycle' | undefined; want: RegExp }[] = [
    { rule: 'probes: kube-probe/<major>.<minor>', fragment: undefined, want: /^kube-probe\/1\.\d+$/ },
    { rule: 'hooks: kube-lifecycle/<major>.<minor> (NewRequestForHTTPGetAction with "lifecycle")', fragment: 'lifecycle', want: /^kube-lifecycle\/1\.\d+$/ },
  ];
  for (const r of rows)
    it(r.rule, () => {
      const req = httpProbeRequest({ port: 80 }, { name: 'app' }, undefined, r.fragment);
      assert.ok(!('error' in req));
      assert.match(req.headers.find(([n]) => n === 'User-Agent')![1], r.want);
    });
});
