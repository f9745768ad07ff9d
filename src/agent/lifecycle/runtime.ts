// What the node's runtime holds for one pod, as the pure lifecycle rules see it: the pod's
// sandbox and, per container name, its latest instances (the kubelet's kubecontainer.PodStatus).

import type { Container, Pod } from '../../api/types.js';
import { isSidecar } from '../../api/types.js';

export type InstanceState = 'created' | 'running' | 'exited' | 'unknown';

export interface ContainerInstance {
  name: string;
  /** The restart count this instance was created with (0 for the first). */
  attempt: number;
  /** The runtime's container id. */
  id: string;
  state: InstanceState;
  exitCode?: number;
  /** For exited instances: Completed, Error, OOMKilled, StartError, ContainerStatusUnknown. */
  reason?: string;
  message?: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** The image as the spec wrote it, and the store's image id. */
  image: string;
  imageID: string;
  /** Hash of the container spec the instance was created from (a changed spec restarts it). */
  specHash?: string;
  /** Created in the pod's current sandbox (instances of an earlier sandbox do not count for init progress). */
  inCurrentSandbox: boolean;
}

export interface PodRuntime {
  /** The newest sandbox, if one was ever created. */
  sandbox?: { ready: boolean; attempt: number; id: string };
  /** Per container name: newest instance first (the kubelet keeps two: current and last terminated). */
  containers: Record<string, ContainerInstance[]>;
}

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

export function podRestartPolicy(pod: Pod): RestartPolicy {
  const p = pod.spec.restartPolicy;
  return p === 'OnFailure' || p === 'Never' ? p : 'Always';
}

/** A sidecar's own restartPolicy (Always) wins over the pod's. */
export function containerRestartPolicy(pod: Pod, c: Container, init: boolean): RestartPolicy {
  return init && isSidecar(c) ? 'Always' : podRestartPolicy(pod);
}

export function latestInstance(rt: PodRuntime, name: string): ContainerInstance | undefined {
  return rt.containers[name]?.[0];
}
