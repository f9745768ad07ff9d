// The pods Table (pkg/printers/internalversion printers.go printPod at v1.32): NAME READY STATUS
// RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES; Bulkhead adds QoS and OOM Kill Mode
// after upstream's wide columns, so that `-o wide` shows what the designs make visible.

import { PodReasonSchedulingGated } from '../../api/schedulinggated.js';
import type { Pod } from '../../api/types.js';
import { reportedOOMKillModes } from '../../policy/oomkillmodestatus.js';
import { age, col, humanDuration, nameCol, ageCol, type Printer } from './common.js';

function podStatusReason(pod: Pod): { reason: string; ready: number; total: number; restarts: number; lastRestart?: string } {
  const spec = pod.spec ?? { containers: [] };
  const st = pod.status ?? {};
  let reason = st.reason || st.phase || 'Pending';
  // A pod the API server marked gated shows that, whatever its phase (printPod).
  if ((st.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === PodReasonSchedulingGated)) reason = PodReasonSchedulingGated;
  const total = (spec.containers?.length ?? 0) + (spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').length;
  let ready = 0;
  let restarts = 0;
  let lastRestart: string | undefined;
  const noteRestart = (cs: { restartCount?: number; lastState?: { terminated?: { finishedAt?: string } } }) => {
    restarts += cs.restartCount ?? 0;
    const t = cs.lastState?.terminated?.finishedAt;
    if (t && (!lastRestart || t > lastRestart)) lastRestart = t;
  };
  let initializing = false;
  const inits = spec.initContainers ?? [];
  (st.initContainerStatuses ?? []).forEach((cs, i) => {
    noteRestart(cs);
    if (initializing) return;
    const isSidecar = inits.find((c) => c.name === cs.name)?.restartPolicy === 'Always';
    if (isSidecar) {
      if (cs.ready) ready++;
      if (cs.started) return;
    }
    const term = cs.state?.terminated;
    if (term && term.exitCode === 0) return;
    if (term) {
      reason = term.reason ? `Init:${term.reason}` : term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`;
    } else if (cs.state?.waiting?.reason && cs.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${cs.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${inits.length}`;
    }
    initializing = true;
  });
  if (!initializing) {
    let hasRunning = false;
    const statuses = st.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      noteRestart(cs);
      if (cs.state?.waiting?.reason) reason = cs.state.waiting.reason;
      else if (cs.state?.terminated?.reason) reason = cs.state.terminated.reason;
      else if (cs.state?.terminated) reason = cs.state.terminated.signal ? `Signal:${cs.state.terminated.signal}` : `ExitCode:${cs.state.terminated.exitCode}`;
      else if (cs.ready && cs.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const isReady = (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = isReady ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata?.deletionTimestamp) reason = st.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return { reason, ready, total, restarts, lastRestart };
}

/** What the node applies (its agent reports it in a pod condition), else the spec's field until it has. */
function effectiveOOMKillModes(pod: Pod): string {
  const reported = reportedOOMKillModes(pod.status?.conditions);
  if (reported) return [...new Set(reported.values())].join(',') || '<none>';
  const modes = new Set<string>();
  for (const c of pod.spec?.containers ?? []) modes.add(c.oomKillMode ?? '<default>');
  return [...modes].join(',') || '<none>';
}

interface PodRowParts {
  status: ReturnType<typeof podStatusReason>;
  oomKillModes: string;
}

/**
 * The parts of a pod's row that do not depend on the time, kept for frozen pods: the watch
 * cache's objects are deep-frozen and shared, and every LIST as a Table (each `kubectl get`)
 * prints the same ones again; these two were half of such a LIST's time. An unfrozen pod may
 * still change, so its parts are computed each time.
 */
const podRowParts = new WeakMap<Pod, PodRowParts>();

function rowParts(pod: Pod): PodRowParts {
  let parts = podRowParts.get(pod);
  if (parts) return parts;
  parts = { status: podStatusReason(pod), oomKillModes: effectiveOOMKillModes(pod) };
  if (Object.isFrozen(pod)) podRowParts.set(pod, parts);
  return parts;
}

export const podPrinter: Printer<Pod> = {
  columns: [
    nameCol,
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'string', 'The aggregate status of the containers in this pod.'),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageCol,
    col('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    col('Node', 'string', 'NodeName is a request to schedule this pod onto a specific node.', 1),
    col('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node.', 1),
    col('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness.', 1),
    col('QoS', 'string', 'The Quality of Service class of the pod: Guaranteed, Burstable or BestEffort.', 1),
    col('OOM Kill Mode', 'string', "The OOM kill mode the node applies to the containers (Single or Group) and where it comes from (container, node or default); until the node reports it, the containers' oomKillMode, <default> where the node decides.", 1),
  ],
  cells(pod, now) {
    const { status: s, oomKillModes } = rowParts(pod);
    const restarts = s.lastRestart && s.restarts > 0 ? `${s.restarts} (${humanDuration(now - Date.parse(s.lastRestart))} ago)` : String(s.restarts);
    return [
      pod.metadata?.name ?? '',
      `${s.ready}/${s.total}`,
      s.reason,
      restarts,
      age(pod.metadata?.creationTimestamp, now),
      pod.status?.podIP || '<none>',
      pod.spec?.nodeName || '<none>',
      '<none>',
      '<none>',
      pod.status?.qosClass ?? '<none>',
      oomKillModes,
    ];
  },
};
