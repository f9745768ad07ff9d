// What the kubelet says when a pod's containers cannot be stopped: killPodWithSyncResult
// (pkg/kubelet/kuberuntime/kuberuntime_manager.go, kuberuntime_container.go
// killContainersWithSyncResult) collects one SyncResult per container and sandbox, and
// PodSyncResult.Error (pkg/kubelet/container/sync_result.go) joins the failed ones into one
// error (utilerrors.NewAggregate: the message alone, or `[a, b]`); SyncTerminatingPod records it
// as the FailedKillPod Warning "error killing pod: <that error>" and returns it, and the pod
// worker tries the pod again after its back-off (pod_workers.go completeWork). Pure.

/** The kubelet's --runtime-request-timeout default: how long a CRI call may take (StopContainer gets the grace on top). */
export const runtimeRequestTimeoutMs = 2 * 60_000;

/**
 * The pod worker's back-off after a sync that returned an error (kubelet.go backOffPeriod), jittered
 * by up to half again (workerBackOffPeriodJitterFactor) as wait.Jitter does.
 */
export const syncErrorBackoffMs = 10_000;
export const syncErrorBackoffJitter = 0.5;

/** The message of a CRI call that ran out of its timeout, as the kubelet shows it (a gRPC DeadlineExceeded). */
export const deadlineExceeded = 'rpc error: code = DeadlineExceeded desc = context deadline exceeded';

/** One failed kill: a container (KillContainer, by name) or the sandbox (KillPodSandbox, by pod UID). */
export interface KillFailure {
  action: 'KillContainer' | 'KillPodSandbox';
  target: string;
  message: string;
}

/** Go's %q, as far as the texts here need it (quotes, backslashes and control characters escaped). */
const goQuote = (s: string): string => JSON.stringify(s);

/** PodSyncResult.Error of these failures (one: its text; several: `[a, b]`, repeats once). */
export function killPodError(failures: readonly KillFailure[]): string {
  const msgs = [
    ...new Set(
      failures.map((f) => `failed to ${goQuote(f.action)} for ${goQuote(f.target)} with ${f.action === 'KillContainer' ? 'KillContainerError' : 'KillPodSandboxError'}: ${goQuote(f.message)}`),
    ),
  ];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}
