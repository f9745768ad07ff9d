// Container lifecycle hooks, the kubelet's rules and words without the I/O
// (pkg/kubelet/lifecycle/handlers.go handlerRunner.Run; kuberuntime_container.go startContainer's
// step 4, executePreStopHook and killContainer; the CRI ExecSync error of remote_runtime.go).
// The pod worker runs them (podworker/hooks.ts) with the probes' handlers (podworker/prober.ts).
//
// PodLifecycleSleepAction is beta and on in 1.32 and has no gate here: a sleep hook always sleeps.

import type { ExecAction, HTTPGetAction, LifecycleHandler, Pod, TCPSocketAction } from '../../api/types.js';
import { formatPod } from './wording.js';

/** Which action handlerRunner.Run takes: the first of exec, httpGet, sleep; else none (a tcpSocket hook is deprecated and fails). */
export type HookAction = { exec: ExecAction } | { httpGet: HTTPGetAction } | { sleep: { seconds: number } } | { invalid: LifecycleHandler };

export function hookAction(h: LifecycleHandler): HookAction {
  if (h.exec) return { exec: h.exec };
  if (h.httpGet) return { httpGet: h.httpGet };
  if (h.sleep) return { sleep: h.sleep };
  return { invalid: h };
}

export const hookReasons = {
  /** events.FailedPostStartHook (Warning). */
  failedPostStartHook: 'FailedPostStartHook',
  /** events.FailedPreStopHook (Warning). */
  failedPreStopHook: 'FailedPreStopHook',
  /** ErrPostStartHook: the waiting reason of a container whose postStart hook failed (the reason cache). */
  postStartHookError: 'PostStartHookError',
} as const;

export const hookMessages = {
  /** The events do not carry the handler's message, "so that secrets won't leak from the server". */
  postStartFailed: 'PostStartHook failed',
  preStopFailed: 'PreStopHook failed',
  /** killContainer's message (the Killing event) after a failed postStart hook. */
  postStartKill: 'FailedPostStartHook',
};

/** Go's %v of a []string: `[sh -c exit 3]`. */
function goStrings(a: readonly string[]): string {
  return `[${a.join(' ')}]`;
}

/** ExecSync's error for a command that exited non-zero (utilexec.CodeExitError). */
export function execExitError(command: readonly string[], exitCode: number, stderr: string): string {
  return `command '${command.join(' ')}' exited with ${exitCode}: ${stderr}`;
}

/** Go's %v of an IntOrString value: {Type IntVal StrVal}. */
function goIntOrString(p: number | string): string {
  return typeof p === 'number' ? `{0 ${p} }` : `{1 0 ${p}}`;
}

function goTCPSocket(t: TCPSocketAction | undefined): string {
  return t ? `&TCPSocketAction{Port:${goIntOrString(t.port)},Host:${t.host ?? ''},}` : 'nil';
}

/** The generated String() of a LifecycleHandler that has none of the actions Run takes (a tcpSocket one, in practice). */
export function goLifecycleHandler(h: LifecycleHandler): string {
  return `&LifecycleHandler{Exec:nil,HTTPGet:nil,TCPSocket:${goTCPSocket(h.tcpSocket)},Sleep:nil,}`;
}

/**
 * The message handlerRunner.Run returns with a failure (the container's waiting message after a
 * failed postStart hook): `err` is the action's error, `output` an exec's stdout and stderr.
 */
export function hookFailureMessage(action: HookAction, container: string, pod: Pod, err: string, output = ''): string {
  if ('exec' in action) return `Exec lifecycle hook (${goStrings(action.exec.command ?? [])}) for Container ${JSON.stringify(container)} in Pod ${JSON.stringify(formatPod(pod))} failed - error: ${err}, message: ${JSON.stringify(output)}`;
  if ('httpGet' in action) return `HTTP lifecycle hook (${action.httpGet.path ?? ''}) for Container ${JSON.stringify(container)} in Pod ${JSON.stringify(formatPod(pod))} failed - error: ${err}`;
  if ('sleep' in action) return `Sleep lifecycle hook (${action.sleep.seconds}) for Container ${JSON.stringify(container)} in Pod ${JSON.stringify(formatPod(pod))} failed - error: ${err}`;
  return `Cannot run handler: ${invalidHandlerError(action.invalid)}`;
}

/** ExecSync's error when the sync's context was cancelled (the gRPC status of the CRI call). */
export const execCanceled = 'rpc error: code = Canceled desc = context canceled';

/** runSleepHandler's error when the sync was cancelled before the sleep ended. */
export const sleepCanceled = 'container terminated before sleep hook finished';

/** Run's error for a handler without an action it takes. */
export function invalidHandlerError(h: LifecycleHandler): string {
  return `invalid handler: ${goLifecycleHandler(h)}`;
}

/** killContainer runs a preStop hook only with some grace left (gracePeriod > 0, in whole seconds). */
export function preStopRuns(h: LifecycleHandler | undefined, graceMs: number): h is LifecycleHandler {
  return h !== undefined && Math.floor(graceMs / 1000) > 0;
}

/**
 * The grace left for StopContainer once a preStop hook has run (or been given up on) `elapsedMs`
 * after it started: the grace less the hook's time in whole seconds (executePreStopHook truncates
 * it), and never less than minimumGracePeriodInSeconds. In milliseconds.
 */
export function graceAfterPreStop(graceMs: number, elapsedMs: number, minimumGraceSeconds: number): number {
  return Math.max(graceMs - Math.floor(Math.max(0, elapsedMs) / 1000) * 1000, minimumGraceSeconds * 1000);
}
