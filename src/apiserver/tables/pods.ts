// The pods Table (pkg/printers/internalversion printers.go printPod at v1.32): NAME READY STATUS
// RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES; Bulkhead adds QoS and OOM Kill Mode
// after upstream's wide columns, so that `-o wide` shows what the designs make visible.

import { PodReasonSchedulingGated } from '../../api/schedulinggated.js';
import type { Pod } from '../../api/types.js';
import { reportedOOMKillModes } from '../../policy/oomkillmodestatus.js';
import { age, ageCol, col, humanDuration, nameCol, type Printer, type TableRowCondition } from './common.js';

/** Whether `a` is a later time than `b` (metav1.Time.Before on the parsed instants). */
const later = (a: string, b: string | undefined) => b === undefined || Date.parse(a) > Date.parse(b);

/**
 * printPod's READY, STATUS and RESTARTS. Init containers are read in order up to the first one
 * still initializing (restarts counted up to it); once the pod is initialized (or its
 * Initialized condition is True, sidecars still starting) RESTARTS counts only the sidecars' and
 * the containers' restarts. A deleted pod shows Terminating unless its phase is terminal.
 */
function podStatusReason(pod: Pod): { reason: string; ready: number; total: number; restarts: number; lastRestart?: string } {
  const spec = pod.spec ?? { containers: [] };
  const st = pod.status ?? {};
  let reason = st.reason || st.phase || '';
  // A pod the API server marked gated shows that, whatever its phase (printPod).
  if ((st.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === PodReasonSchedulingGated)) reason = PodReasonSchedulingGated;
  const inits = spec.initContainers ?? [];
  const isSidecar = (name: string | undefined) => inits.find((c) => c.name === name)?.restartPolicy === 'Always';
  const total = (spec.containers?.length ?? 0) + inits.filter((c) => c.restartPolicy === 'Always').length;
  let ready = 0;
  let restarts = 0;
  let lastRestart: string | undefined;
  let sidecarRestarts = 0;
  let lastSidecarRestart: string | undefined;
  let initializing = false;
  const initStatuses = st.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i]!;
    const finished = cs.lastState?.terminated?.finishedAt;
    restarts += cs.restartCount ?? 0;
    if (finished && later(finished, lastRestart)) lastRestart = finished;
    const sidecar = isSidecar(cs.name);
    if (sidecar) {
      sidecarRestarts += cs.restartCount ?? 0;
      if (finished && later(finished, lastSidecarRestart)) lastSidecarRestart = finished;
    }
    const term = cs.state?.terminated;
    if (term && term.exitCode === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready) ready++;
      continue;
    }
    if (term) {
      reason = term.reason ? `Init:${term.reason}` : term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`;
    } else if (cs.state?.waiting?.reason && cs.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${cs.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${inits.length}`;
    }
    initializing = true;
    break;
  }
  const initialized = (st.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = st.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      restarts += cs.restartCount ?? 0;
      const finished = cs.lastState?.terminated?.finishedAt;
      if (finished && later(finished, lastRestart)) lastRestart = finished;
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
  if (pod.metadata?.deletionTimestamp) {
    if (st.reason === 'NodeLost') reason = 'Unknown';
    else if (st.phase !== 'Succeeded' && st.phase !== 'Failed') reason = 'Terminating';
  }
  return { reason, ready, total, restarts, lastRestart };
}

/** printPod's wide READINESS GATES: how many of the gates' conditions are True, of how many gates. */
function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const met = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${met}/${gates.length}`;
}

/** The row conditions printPod sets: a Succeeded or Failed pod's row is Completed. */
export function podRowConditions(pod: Pod): TableRowCondition[] | undefined {
  switch (pod.status?.phase) {
    case 'Succeeded':
      return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
    case 'Failed':
      return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
  }
  return undefined;
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
    const restarts = s.lastRestart && s.restarts !== 0 ? `${s.restarts} (${humanDuration(now - Date.parse(s.lastRestart))} ago)` : String(s.restarts);
    return [
      pod.metadata?.name ?? '',
      `${s.ready}/${s.total}`,
      s.reason,
      restarts,
      age(pod.metadata?.creationTimestamp, now),
      // The first of podIPs (podIP is its copy in v1; the internal type only has PodIPs).
      pod.status?.podIPs?.[0]?.ip || pod.status?.podIP || '<none>',
      pod.spec?.nodeName || '<none>',
      pod.status?.nominatedNodeName || '<none>',
      readinessGates(pod),
      pod.status?.qosClass ?? '<none>',
      oomKillModes,
    ];
  },
  conditions: podRowConditions,
};
