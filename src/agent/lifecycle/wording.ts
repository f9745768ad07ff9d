// The kubelet's event reasons and messages and its container waiting reasons (1.32:
// pkg/kubelet/events/event.go, kuberuntime_container.go, kuberuntime_manager.go doBackOff,
// images/image_manager.go), in one place so the worker and the tests agree on every word.

import type { Pod } from '../../api/types.js';
import { goDuration } from './backoff.js';

/** format.Pod: `name_namespace(uid)`. */
export function formatPod(pod: Pod): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? 'default'}(${pod.metadata.uid ?? ''})`;
}

export const reasons = {
  // events
  pulled: 'Pulled',
  created: 'Created',
  started: 'Started',
  failed: 'Failed',
  killing: 'Killing',
  backOff: 'BackOff',
  errImageNeverPull: 'ErrImageNeverPull',
  inspectFailed: 'InspectFailed',
  hostAdjusted: 'HostAdjusted',
  /** events.FailedToKillPod: a termination that did not end every container (SyncTerminatingPod). */
  failedKillPod: 'FailedKillPod',
  // waiting reasons
  containerCreating: 'ContainerCreating',
  podInitializing: 'PodInitializing',
  crashLoopBackOff: 'CrashLoopBackOff',
  errImagePull: 'ErrImagePull',
  imagePullBackOff: 'ImagePullBackOff',
  invalidImageName: 'InvalidImageName',
  createContainerConfigError: 'CreateContainerConfigError',
  createContainerError: 'CreateContainerError',
  // terminated reasons
  completed: 'Completed',
  error: 'Error',
  oomKilled: 'OOMKilled',
  startError: 'StartError',
  containerStatusUnknown: 'ContainerStatusUnknown',
} as const;

export const messages = {
  imagePresent: (image: string) => `Container image "${image}" already present on machine`,
  imageNeverPull: (image: string) => `Container image "${image}" is not present with pull policy of Never`,
  failedToPull: (image: string, err: string) => `Failed to pull image "${image}": ${err}`,
  backOffPulling: (image: string) => `Back-off pulling image "${image}"`,
  /** Waiting message during the image back-off (1.32 wraps the previous pull error). */
  backOffPullingWaiting: (image: string, prevErr: string) => `Back-off pulling image "${image}": ${reasons.errImagePull}: ${prevErr}`,
  /** Bulkhead's pull error: there is no registry, only the local store. */
  imageNotInStore: (image: string) =>
    `image "${image}" is not in this node's image store and Bulkhead does not pull from registries; load it with \`bulkhead image import <archive>\` (an OCI layout or a \`docker save\` tarball)`,
  invalidImageName: (image: string, err: string) => `Failed to apply default image tag "${image}": couldn't parse image reference "${image}": ${err}`,
  created: (name: string) => `Created container: ${name}`,
  started: (name: string) => `Started container ${name}`,
  error: (msg: string) => `Error: ${msg}`,
  stopping: (name: string) => `Stopping container ${name}`,
  definitionChanged: (name: string, init: boolean) => `${init ? 'Init container' : 'Container'} ${name} definition changed, will be restarted`,
  /** Event message of BackOffStartContainer. */
  backOffRestarting: (name: string, pod: Pod) => `Back-off restarting failed container ${name} in pod ${formatPod(pod)}`,
  /** Waiting message of CrashLoopBackOff. */
  crashLoopWaiting: (backoffMs: number, name: string, pod: Pod) => `back-off ${goDuration(backoffMs)} restarting failed container=${name} pod=${formatPod(pod)}`,
  hostAdjusted: (adjustments: string[]) => `the host could not apply the planned values: ${adjustments.join('; ')}`,
  /** HostAdjusted for the pod sandbox (no container of the pod's own, so the event says which). */
  sandboxHostAdjusted: (adjustments: string[]) => `the host could not apply the planned values to the pod sandbox: ${adjustments.join('; ')}`,
  statusUnknown: 'The container exited but no monitor recorded its exit code',
  /** FailedCreatePodSandBox's message: the kubelet's "Failed to create pod sandbox: %v" of the error. */
  failedCreatePodSandbox: (err: string) => `Failed to create pod sandbox: ${err}`,
  /**
   * RunPodSandbox's error for a RuntimeClass handler the runtime has no runtime for, as the
   * kubelet passes on containerd's (pkg/cri's sandbox_run.go) through the CRI.
   */
  noRuntimeForHandler: (handler: string) => `rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for ${JSON.stringify(handler)} is configured`,
  /** LookupRuntimeHandler's error when the pod's RuntimeClass is gone (the lister's NotFound). */
  runtimeClassNotFound: (name: string) => `runtimeclasses.node.k8s.io ${JSON.stringify(name)} not found`,
  /** LookupRuntimeHandler's error for any other failed lookup. */
  runtimeClassLookupFailed: (name: string, err: string) => `failed to lookup RuntimeClass ${name}: ${err}`,
  /** FailedKillPod's message: the PodSyncResult error of the kill (lifecycle/killresult.ts killPodError). */
  errorKillingPod: (err: string) => `error killing pod: ${err}`,
};
