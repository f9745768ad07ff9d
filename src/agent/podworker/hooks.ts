// Running a container's lifecycle hook, the kubelet's handlerRunner.Run
// (pkg/kubelet/lifecycle/handlers.go) over the probes' handlers (prober.ts): exec through the
// runtime with no timeout (the kubelet passes 0), httpGet in the pod's network namespace with the
// kube-lifecycle User-Agent, where any response passes (only the client's error fails: the kubelet
// discards the body and never reads the status code), sleep for its seconds; anything else (the
// deprecated tcpSocket) fails with "invalid handler". The rules and words are lifecycle/hooks.ts;
// start.ts runs postStart, stop.ts preStop.
//
// Unlike the kubelet's http.Client, a redirect is followed on the same host only (the probes'
// client); the HTTPS-to-HTTP fallback (LifecycleHTTPFallback) is not made.

import type { Container, LifecycleHandler, Pod } from '../../api/types.js';
import { execCanceled, execExitError, hookAction, hookFailureMessage, invalidHandlerError, sleepCanceled } from '../lifecycle/hooks.js';
import { httpProbeRequest, maxProbeOutput } from '../lifecycle/probehandlers.js';
import type { ContainerRuntime } from '../runtime/runtime.js';
import { contextCanceled, execInContainer, httpGet, type ProbeTarget } from './prober.js';

/** What a hook came to: nothing to say when it passed, else Run's message (the container's waiting message after a postStart). */
export type HookResult = { ok: true } | { ok: false; message: string };

/** A bound longer than any hook runs: setTimeout's largest (about 24 days). */
const noTimeoutMs = 2 ** 31 - 1;

/**
 * Runs `h` for container `c` of `pod`, whose running instance is `t` (`t.netns` undefined: the pod
 * has no network namespace to dial). `signal` cuts it short, as the kubelet's cancelled sync
 * context does (the pod is being stopped): exec and httpGet fail with `context canceled`, sleep
 * with upstream's "container terminated before sleep hook finished".
 */
export async function runHook(runtime: ContainerRuntime, pod: Pod, c: Container, h: LifecycleHandler, t: Omit<ProbeTarget, 'netns'> & { netns: string | undefined }, signal?: AbortSignal): Promise<HookResult> {
  const action = hookAction(h);
  const fail = (err: string, output?: string): HookResult => ({ ok: false, message: hookFailureMessage(action, c.name, pod, err, output) });
  if ('exec' in action) {
    const command = action.exec.command ?? [];
    const r = await execInContainer(runtime, { ...t, netns: t.netns ?? 'host' }, command, undefined, signal);
    // The CRI's ExecSync cut short by a cancelled context answers with gRPC's status.
    if ('error' in r) return fail(r.error === contextCanceled ? execCanceled : r.error);
    if ('timedOut' in r) return fail(`command ${JSON.stringify(command.join(' '))} timed out`);
    if (r.exitCode === 0) return { ok: true };
    return fail(execExitError(command, r.exitCode, r.stderr), (r.stdout + r.stderr).slice(0, maxProbeOutput));
  }
  if ('httpGet' in action) {
    if (t.netns === undefined) return fail('failed to find networking container');
    const req = httpProbeRequest(action.httpGet, c, undefined, 'lifecycle');
    if ('error' in req) return fail(req.error);
    const r = await httpGet(req, t.netns, noTimeoutMs, t.dialer, signal);
    return 'error' in r ? fail(r.error) : { ok: true };
  }
  if ('sleep' in action) {
    const slept = await new Promise<boolean>((resolve) => {
      if (signal?.aborted) return resolve(false);
      const cancel = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', cancel);
        resolve(true);
      }, action.sleep.seconds * 1000);
      timer.unref();
      signal?.addEventListener('abort', cancel, { once: true });
    });
    return slept ? { ok: true } : fail(sleepCanceled);
  }
  return { ok: false, message: hookFailureMessage(action, c.name, pod, invalidHandlerError(h)) };
}
