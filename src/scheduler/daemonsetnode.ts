// Whether a node should run a DaemonSet's pod (pkg/controller/daemon/daemon_controller.go
// NodeShouldRunDaemonPod and predicates): the DaemonSet controller asks the scheduler's own
// predicates, as upstream's imports component-helpers' nodeaffinity and the toleration helpers.
// It lives beside the scheduler's filters so that the controller and the scheduler can never
// disagree about nodeSelector, required node affinity and taints. The taints judged are the
// node's effective ones (spec.taints plus the condition taints, see filters.ts effectiveTaints),
// the same the scheduler filters on.

import type { DaemonSet, Node, Taint } from '../api/types.js';
import { daemonPodForNode, type NodeEligibility } from '../policy/daemonset.js';
import { effectiveTaints, podMatchesNodeSelectorAndAffinity, tolerationsTolerateTaint } from './filters.js';

/** NodeShouldRunDaemonPod: [shouldRun, shouldContinueRunning] of one node. */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): NodeEligibility {
  const name = node.metadata.name ?? '';
  const no = { name, shouldRun: false, shouldContinueRunning: false };
  const wanted = ds.spec?.template?.spec?.nodeName;
  if (wanted && wanted !== name) return no;
  const pod = daemonPodForNode(ds, name);
  if (!podMatchesNodeSelectorAndAffinity(pod, node)) return no;
  const taints = effectiveTaints(node);
  const untolerated = (effects: string[]) => taints.some((t: Taint) => effects.includes(t.effect) && !tolerationsTolerateTaint(pod.spec.tolerations, t));
  if (untolerated(['NoSchedule', 'NoExecute'])) return { name, shouldRun: false, shouldContinueRunning: !untolerated(['NoExecute']) };
  return { name, shouldRun: true, shouldContinueRunning: true };
}
