// Server-side Tables (meta.k8s.io/v1) with the columns kube-apiserver's printers send, so
// that `kubectl get` prints what it prints against Kubernetes. Cells are final strings: the
// server computes ages and placeholders. Bulkhead adds QoS and OOM kill mode to pods' wide view.

import { PodReasonSchedulingGated } from '../api/schedulinggated.js';
import type { CertificateSigningRequest, ConfigMap, Container, ControllerRevision, CronJob, DaemonSet, Deployment, Event, Job, LabelSelector, KubeObject, Lease, Namespace, Node, Pod, PodDisruptionBudget, PriorityClass, ReplicaSet, ResourceQuota, RoleBinding, RuntimeClass, Secret, Service, ServiceAccount, StatefulSet } from '../api/types.js';
import { reportedOOMKillModes } from '../policy/oomkillmodestatus.js';
import { hpaV1ToV2 } from '../api/autoscalingdefaults.js';
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerV1 } from '../api/types.js';
import { formatHPAMetrics } from './hpatable.js';
import { formatEndpoints, formatSliceEndpoints, formatSlicePorts } from './endpointstable.js';
import type { Endpoints, EndpointSlice } from '../api/types.js';

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: (string | number | boolean)[];
  object: unknown;
}

export interface Table {
  kind: 'Table';
  /** meta.k8s.io/v1, or v1beta1 when the client asked for that. */
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string };
  columnDefinitions: TableColumn[];
  rows: TableRow[];
}

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

export function age(ts: string | undefined | null, now: number): string {
  if (!ts) return '<unknown>';
  const t = Date.parse(ts);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

const col = (name: string, type: string, description: string, priority = 0, format = ''): TableColumn => ({ name, type, format, description, priority });
const nameCol = col('Name', 'string', 'Name must be unique within a namespace.', 0, 'name');
const ageCol = col('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.');

interface Printer<T> {
  columns: TableColumn[];
  cells(obj: T, now: number): (string | number | boolean)[];
}

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

const podPrinter: Printer<Pod> = {
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

const namespacePrinter: Printer<Namespace> = {
  columns: [nameCol, col('Status', 'string', 'The status of the namespace'), ageCol],
  cells: (ns, now) => [ns.metadata?.name ?? '', ns.status?.phase ?? '', age(ns.metadata?.creationTimestamp, now)],
};

function nodeRoles(node: Node): string {
  const roles: string[] = [];
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) roles.push(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v) roles.push(v);
  }
  return roles.length ? roles.sort().join(',') : '<none>';
}

const nodePrinter: Printer<Node> = {
  columns: [
    nameCol,
    col('Status', 'string', 'The status of the node'),
    col('Roles', 'string', 'The roles of the node'),
    ageCol,
    col('Version', 'string', 'Kubelet Version reported by the node.'),
    col('Internal-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
    col('External-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
    col('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
    col('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
    col('Container-Runtime', 'string', 'Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
  ],
  cells(node, now) {
    const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
    let status = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
    if (node.spec?.unschedulable) status += ',SchedulingDisabled';
    const addr = (t: string) => node.status?.addresses?.find((a) => a.type === t)?.address ?? '<none>';
    const info = node.status?.nodeInfo ?? {};
    return [
      node.metadata?.name ?? '',
      status,
      nodeRoles(node),
      age(node.metadata?.creationTimestamp, now),
      info.kubeletVersion ?? '',
      addr('InternalIP'),
      addr('ExternalIP'),
      info.osImage ?? '<unknown>',
      info.kernelVersion ?? '<unknown>',
      info.containerRuntimeVersion ?? '<unknown>',
    ];
  },
};

const quotaPrinter: Printer<ResourceQuota> = {
  columns: [
    nameCol,
    ageCol,
    col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    col('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells(q, now) {
    const hard = q.status?.hard ?? {};
    const used = q.status?.used ?? {};
    const requests: string[] = [];
    const limits: string[] = [];
    for (const k of Object.keys(hard).sort()) {
      const cell = `${k}: ${used[k] ?? '0'}/${hard[k]}`;
      (k.startsWith('limits.') ? limits : requests).push(cell);
    }
    return [q.metadata?.name ?? '', age(q.metadata?.creationTimestamp, now), requests.join(', '), limits.join(', ')];
  },
};

// rest.DefaultTableConvertor (NAME, CREATED AT): the kinds with no printer of their own, LimitRange
// and the RBAC roles among them.
const createdAtPrinter: Printer<KubeObject> = {
  columns: [nameCol, col('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.')],
  cells: (lr) => [lr.metadata?.name ?? '', lr.metadata?.creationTimestamp ?? ''],
};

const eventPrinter: Printer<Event> = {
  columns: [
    col('Last Seen', 'string', 'Time when last this event was observed.'),
    col('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future.'),
    col('Reason', 'string', "This should be a short, machine understandable string that gives the reason for this event being generated."),
    col('Object', 'string', 'The object that this event is about.'),
    col('Subobject', 'string', 'The subobject that this event is about.', 1),
    col('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
    col('Message', 'string', 'A human-readable description of the status of this operation.'),
    col('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
    col('Count', 'string', 'The number of times this event has occurred.', 1),
    { ...nameCol, priority: 1 },
  ],
  cells(e, now) {
    const last = e.lastTimestamp || e.eventTime || e.metadata?.creationTimestamp;
    const first = e.firstTimestamp || e.eventTime || e.metadata?.creationTimestamp;
    const source = [e.source?.component || e.reportingComponent, e.source?.host].filter(Boolean).join(', ');
    return [
      age(last, now),
      e.type ?? '',
      e.reason ?? '',
      `${(e.involvedObject?.kind ?? '').toLowerCase()}/${e.involvedObject?.name ?? ''}`,
      e.involvedObject?.fieldPath ?? '',
      source,
      (e.message ?? '').trim(),
      age(first, now),
      String(e.count ?? 1),
      e.metadata?.name ?? '',
    ];
  },
};

const leasePrinter: Printer<Lease> = {
  columns: [nameCol, col('Holder', 'string', 'The holder of the lease.'), ageCol],
  cells: (l, now) => [l.metadata?.name ?? '', l.spec?.holderIdentity ?? '', age(l.metadata?.creationTimestamp, now)],
};

// printPriorityClass: every column at priority 0 (PreemptionPolicy too, since upstream added it).
const priorityClassPrinter: Printer<PriorityClass> = {
  columns: [
    nameCol,
    col('Value', 'integer', 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.'),
    col('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.'),
    ageCol,
    col('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.'),
  ],
  cells: (pc, now) => [pc.metadata?.name ?? '', pc.value ?? 0, pc.globalDefault === true, age(pc.metadata?.creationTimestamp, now), pc.preemptionPolicy ?? ''],
};

// printRuntimeClass: NAME HANDLER AGE.
const runtimeClassPrinter: Printer<RuntimeClass> = {
  columns: [nameCol, col('Handler', 'string', 'Handler is the name of the underlying runtime and configuration that the CRI implementation will use to handle pods of this class'), ageCol],
  cells: (rc, now) => [rc.metadata?.name ?? '', rc.handler ?? '', age(rc.metadata?.creationTimestamp, now)],
};

// printPodDisruptionBudget: N/A for the bound not set; the allowed disruptions an integer.
const podDisruptionBudgetPrinter: Printer<PodDisruptionBudget> = {
  columns: [
    nameCol,
    col('Min Available', 'string', 'The minimum number or percentage of available pods this budget requires.'),
    col('Max Unavailable', 'string', 'The maximum number or percentage of unavailable pods this budget requires.'),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageCol,
  ],
  cells: (pdb, now) => {
    const bound = (v: number | string | undefined) => (v === undefined || v === null ? 'N/A' : String(v));
    return [pdb.metadata?.name ?? '', bound(pdb.spec?.minAvailable), bound(pdb.spec?.maxUnavailable), pdb.status?.disruptionsAllowed ?? 0, age(pdb.metadata?.creationTimestamp, now)];
  },
};

// printHorizontalPodAutoscaler: of the stored v2 form (a v1 object is converted first).
const horizontalPodAutoscalerPrinter: Printer<HorizontalPodAutoscaler> = {
  columns: [
    nameCol,
    col('Reference', 'string', 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.'),
    col('Targets', 'string', 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).'),
    col('MinPods', 'string', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.'),
    col('MaxPods', 'string', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.'),
    col('Replicas', 'string', 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.'),
    ageCol,
  ],
  cells: (o, now) => {
    const hpa = o.apiVersion === 'autoscaling/v1' ? hpaV1ToV2(o as HorizontalPodAutoscalerV1) : o;
    const ref = hpa.spec?.scaleTargetRef;
    const min = hpa.spec?.minReplicas;
    return [hpa.metadata?.name ?? '', `${ref?.kind ?? ''}/${ref?.name ?? ''}`, formatHPAMetrics(hpa.spec?.metrics, hpa.status?.currentMetrics), typeof min === 'number' ? String(min) : '<unset>', hpa.spec?.maxReplicas ?? 0, hpa.status?.currentReplicas ?? 0, age(hpa.metadata?.creationTimestamp, now)];
  },
};

const count = (m: Record<string, unknown> | undefined) => (m && typeof m === 'object' ? Object.keys(m).length : 0);

// printConfigMap, printSecret, printServiceAccount: the counts are integers in the cells.
const configMapPrinter: Printer<ConfigMap> = {
  columns: [nameCol, col('Data', 'string', "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'."), ageCol],
  cells: (c, now) => [c.metadata?.name ?? '', count(c.data) + count(c.binaryData), age(c.metadata?.creationTimestamp, now)],
};

const secretPrinter: Printer<Secret> = {
  columns: [
    nameCol,
    col('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    col('Data', 'string', "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'."),
    ageCol,
  ],
  cells: (s, now) => [s.metadata?.name ?? '', s.type ?? '', count(s.data), age(s.metadata?.creationTimestamp, now)],
};

const serviceAccountPrinter: Printer<ServiceAccount> = {
  columns: [nameCol, col('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), ageCol],
  cells: (sa, now) => [sa.metadata?.name ?? '', Array.isArray(sa.secrets) ? sa.secrets.length : 0, age(sa.metadata?.creationTimestamp, now)],
};

// printService (pkg/printers/internalversion), rendered wide as the server's table convertor does.
/** getServiceExternalIP with loadBalancerStatusStringer (wide: never shortened). */
function serviceExternalIP(svc: Service): string {
  const external = Array.isArray(svc.spec?.externalIPs) ? svc.spec.externalIPs : [];
  switch (svc.spec?.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = Array.isArray(svc.status?.loadBalancer?.ingress) ? svc.status.loadBalancer.ingress : [];
      const lb = [...new Set(ingress.map((i) => i?.ip || i?.hostname || '').filter((x) => x !== ''))].sort();
      const all = [...lb, ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
  }
  return '<unknown>';
}

const servicePrinter: Printer<Service> = {
  columns: [
    nameCol,
    col('Type', 'string', 'type determines how the Service is exposed: ClusterIP (the default), NodePort, LoadBalancer or ExternalName.'),
    col('Cluster-IP', 'string', 'clusterIP is the IP address of the service, usually assigned randomly from the service cluster IP range.'),
    col('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
    col('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    ageCol,
    col('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', 1),
  ],
  cells: (svc, now) => {
    const ips = Array.isArray(svc.spec?.clusterIPs) ? svc.spec.clusterIPs : [];
    const ports = (Array.isArray(svc.spec?.ports) ? svc.spec.ports : [])
      .map((p) => ((p?.nodePort ?? 0) > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p?.port ?? 0}/${p?.protocol ?? ''}`))
      .join(',');
    return [svc.metadata?.name ?? '', svc.spec?.type ?? '', ips.length > 0 ? ips[0]! : '<none>', serviceExternalIP(svc), ports || '<none>', age(svc.metadata?.creationTimestamp, now), formatLabels(svc.spec?.selector)];
  },
};

/** layoutContainerCells: names and images joined by commas. */
const containerCells = (cs: Container[] | undefined): [string, string] => {
  const list = Array.isArray(cs) ? cs : [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
};

/** metav1.FormatLabelSelector: the selector's string form, requirements sorted by key; `<none>` when empty. */
export function formatLabelSelector(sel: LabelSelector | undefined): string {
  if (!sel) return '<none>';
  const reqs: [string, string][] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push([k, `${k}=${v}`]);
  for (const r of sel.matchExpressions ?? []) {
    const values = [...(r.values ?? [])].sort().join(',');
    const s = r.operator === 'In' ? `${r.key} in (${values})` : r.operator === 'NotIn' ? `${r.key} notin (${values})` : r.operator === 'Exists' ? r.key : r.operator === 'DoesNotExist' ? `!${r.key}` : '';
    if (s) reqs.push([r.key, s]);
  }
  if (reqs.length === 0) return '<none>';
  return reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((r) => r[1]).join(',');
}

const jobCondition = (j: Job, type: string) => (j.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** printJob's STATUS: the finished conditions first, then Terminating, Suspended and the interim ones. */
function jobStatus(j: Job): string {
  if (jobCondition(j, 'Complete')) return 'Complete';
  if (jobCondition(j, 'Failed')) return 'Failed';
  if (j.metadata?.deletionTimestamp) return 'Terminating';
  if (jobCondition(j, 'Suspended')) return 'Suspended';
  if (jobCondition(j, 'FailureTarget')) return 'FailureTarget';
  if (jobCondition(j, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function jobCompletions(j: Job): string {
  const succeeded = j.status?.succeeded ?? 0;
  const spec = j.spec ?? {};
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  if (typeof spec.parallelism === 'number' && spec.parallelism > 1) return `${succeeded}/1 of ${spec.parallelism}`;
  return `${succeeded}/1`;
}

function jobDuration(j: Job, now: number): string {
  const start = j.status?.startTime ? Date.parse(j.status.startTime) : NaN;
  if (Number.isNaN(start)) return '';
  const end = j.status?.completionTime ? Date.parse(j.status.completionTime) : now;
  return humanDuration(end - start);
}

const wideTemplateCols = (selectorDoc: string) => [
  col('Containers', 'string', 'Names of each container in the template.', 1),
  col('Images', 'string', 'Images referenced by each container in the template.', 1),
  col('Selector', 'string', selectorDoc, 1),
];

// printJob (NAME STATUS COMPLETIONS DURATION AGE; wide: CONTAINERS IMAGES SELECTOR).
const jobPrinter: Printer<Job> = {
  columns: [
    nameCol,
    col('Status', 'string', 'Status of the job.'),
    col('Completions', 'string', 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.'),
    col('Duration', 'string', 'Time required to complete the job.'),
    ageCol,
    ...wideTemplateCols('A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (j, now) => [j.metadata?.name ?? '', jobStatus(j), jobCompletions(j), jobDuration(j, now), age(j.metadata?.creationTimestamp, now), ...containerCells(j.spec?.template?.spec?.containers), formatLabelSelector(j.spec?.selector)],
};

// printCronJob (NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE; wide as for jobs).
const cronJobPrinter: Printer<CronJob> = {
  columns: [
    nameCol,
    col('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    col('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones'),
    col('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    col('Active', 'integer', 'A list of pointers to currently running jobs.'),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    ageCol,
    ...wideTemplateCols('A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (cj, now) => {
    const spec = cj.spec ?? {};
    const suspend = typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>';
    const last = cj.status?.lastScheduleTime ? age(cj.status.lastScheduleTime, now) : '<none>';
    return [
      cj.metadata?.name ?? '',
      spec.schedule ?? '',
      spec.timeZone ?? '<none>',
      suspend,
      Array.isArray(cj.status?.active) ? cj.status!.active!.length : 0,
      last,
      age(cj.metadata?.creationTimestamp, now),
      ...containerCells(spec.jobTemplate?.spec?.template?.spec?.containers),
      formatLabelSelector(spec.jobTemplate?.spec?.selector),
    ];
  },
};

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` when empty. */
function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${m![k]}`).join(',');
}

/** labels.Selector.String() of LabelSelectorAsSelector: as FormatLabelSelector, but empty when it selects everything or nothing. */
const selectorString = (sel: LabelSelector | undefined) => {
  const s = formatLabelSelector(sel);
  return s === '<none>' ? '' : s;
};

const readyCol = col('Ready', 'string', 'Number of the pod with ready state');

// printDeployment (NAME READY UP-TO-DATE AVAILABLE AGE; wide: CONTAINERS IMAGES SELECTOR).
const deploymentPrinter: Printer<Deployment> = {
  columns: [
    nameCol,
    readyCol,
    col('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    col('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageCol,
    ...wideTemplateCols('Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.'),
  ],
  cells: (d, now) => [
    d.metadata?.name ?? '',
    `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
    d.status?.updatedReplicas ?? 0,
    d.status?.availableReplicas ?? 0,
    age(d.metadata?.creationTimestamp, now),
    ...containerCells(d.spec?.template?.spec?.containers),
    selectorString(d.spec?.selector),
  ],
};

// printReplicaSet (NAME DESIRED CURRENT READY AGE; wide: CONTAINERS IMAGES SELECTOR).
const replicaSetPrinter: Printer<ReplicaSet> = {
  columns: [
    nameCol,
    col('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    col('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    col('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageCol,
    ...wideTemplateCols('Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (rs, now) => [
    rs.metadata?.name ?? '',
    rs.spec?.replicas ?? 0,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    age(rs.metadata?.creationTimestamp, now),
    ...containerCells(rs.spec?.template?.spec?.containers),
    formatLabelSelector(rs.spec?.selector),
  ],
};

// printStatefulSet (NAME READY AGE; wide: CONTAINERS IMAGES).
const statefulSetPrinter: Printer<StatefulSet> = {
  columns: [nameCol, readyCol, ageCol, col('Containers', 'string', 'Names of each container in the template.', 1), col('Images', 'string', 'Images referenced by each container in the template.', 1)],
  cells: (ss, now) => [
    ss.metadata?.name ?? '',
    `${ss.status?.readyReplicas ?? 0}/${ss.spec?.replicas ?? 0}`,
    age(ss.metadata?.creationTimestamp, now),
    ...containerCells(ss.spec?.template?.spec?.containers),
  ],
};

// printDaemonSet (NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE; wide: CONTAINERS IMAGES SELECTOR).
const daemonSetPrinter: Printer<DaemonSet> = {
  columns: [
    nameCol,
    col('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    col('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    col('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    col('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    col('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
    ageCol,
    ...wideTemplateCols('A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (ds, now) => {
    const st = ds.status ?? {};
    return [
      ds.metadata?.name ?? '',
      st.desiredNumberScheduled ?? 0,
      st.currentNumberScheduled ?? 0,
      st.numberReady ?? 0,
      st.updatedNumberScheduled ?? 0,
      st.numberAvailable ?? 0,
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      age(ds.metadata?.creationTimestamp, now),
      ...containerCells(ds.spec?.template?.spec?.containers),
      formatLabelSelector(ds.spec?.selector),
    ];
  },
};

/** formatResourceName of the controller reference: `<kind>.<group>/<name>` lower-cased, the group left out for core kinds. */
function controllerName(cr: ControllerRevision): string {
  const ref = (cr.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = group ? `${ref.kind}.${group}` : (ref.kind ?? '');
  return kind ? `${kind.toLowerCase()}/${ref.name}` : (ref.name ?? '');
}

// printControllerRevision (NAME CONTROLLER REVISION AGE).
const controllerRevisionPrinter: Printer<ControllerRevision> = {
  columns: [nameCol, col('Controller', 'string', 'Controller of the object'), col('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'), ageCol],
  cells: (cr, now) => [cr.metadata?.name ?? '', controllerName(cr), cr.revision ?? 0, age(cr.metadata?.creationTimestamp, now)],
};

// printCertificateSigningRequest and extractCSRStatus.
function csrCondition(csr: CertificateSigningRequest): string {
  const on = (t: string) => csr.status?.conditions?.some((c) => c.type === t && c.status !== 'False');
  const parts = [on('Denied') ? 'Denied' : on('Approved') ? 'Approved' : 'Pending'];
  if (on('Failed')) parts.push('Failed');
  if (csr.status?.certificate) parts.push('Issued');
  return parts.join(',');
}

const csrPrinter: Printer<CertificateSigningRequest> = {
  columns: [
    nameCol,
    ageCol,
    col('SignerName', 'string', 'Only one signer may sign a certificate request.'),
    col('Requestor', 'string', 'Name of the user who created the request.'),
    col('RequestedDuration', 'string', 'The requested duration of validity of the issued certificate.'),
    col('Condition', 'string', 'The approval and issuance of the request.'),
  ],
  cells: (csr, now) => [
    csr.metadata?.name ?? '',
    age(csr.metadata?.creationTimestamp, now),
    csr.spec?.signerName ?? '',
    csr.spec?.username ?? '',
    csr.spec?.expirationSeconds ? age(new Date(now - csr.spec.expirationSeconds * 1000).toISOString(), now) : '<none>',
    csrCondition(csr),
  ],
};

const defaultPrinter: Printer<KubeObject> = {
  columns: [nameCol, ageCol],
  cells: (o, now) => [o.metadata?.name ?? '', age(o.metadata?.creationTimestamp, now)],
};

// printEndpoints (NAME ENDPOINTS AGE) and printEndpointSlice (NAME ADDRESSTYPE PORTS ENDPOINTS AGE).
const endpointsPrinter: Printer<Endpoints> = {
  columns: [nameCol, col('Endpoints', 'string', 'The set of all endpoints is the union of all subsets.'), ageCol],
  cells: (e, now) => [e.metadata?.name ?? '', formatEndpoints(e), age(e.metadata?.creationTimestamp, now)],
};

const endpointSlicePrinter: Printer<EndpointSlice> = {
  columns: [
    nameCol,
    col('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type.'),
    col('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    col('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice.'),
    ageCol,
  ],
  cells: (s, now) => [s.metadata?.name ?? '', s.addressType ?? '', formatSlicePorts(s), formatSliceEndpoints(s), age(s.metadata?.creationTimestamp, now)],
};

// printRoleBinding / printClusterRoleBinding: ROLE is Kind/name; the wide columns from
// rbac.SubjectsStrings (a service account as namespace/name), each joined with ", ".
function bindingPrinter(what: string, roleRefDoc: string): Printer<RoleBinding> {
  return {
    columns: [
      nameCol,
      col('Role', 'string', roleRefDoc),
      ageCol,
      col('Users', 'string', `Users in the ${what}`, 1),
      col('Groups', 'string', `Groups in the ${what}`, 1),
      col('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, 1),
    ],
    cells: (b, now) => {
      const users: string[] = [];
      const groups: string[] = [];
      const sas: string[] = [];
      for (const s of b.subjects ?? []) {
        if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
        else if (s.kind === 'User') users.push(s.name);
        else if (s.kind === 'Group') groups.push(s.name);
      }
      return [b.metadata?.name ?? '', `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`, age(b.metadata?.creationTimestamp, now), users.join(', '), groups.join(', '), sas.join(', ')];
    },
  };
}

const roleBindingPrinter = bindingPrinter('roleBinding', 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.');
const clusterRoleBindingPrinter = bindingPrinter('clusterRoleBinding', 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.');

const printers: Record<string, Printer<never>> = {
  pods: podPrinter,
  namespaces: namespacePrinter,
  nodes: nodePrinter,
  resourcequotas: quotaPrinter,
  limitranges: createdAtPrinter,
  roles: createdAtPrinter,
  clusterroles: createdAtPrinter,
  events: eventPrinter,
  leases: leasePrinter,
  certificatesigningrequests: csrPrinter,
  priorityclasses: priorityClassPrinter,
  poddisruptionbudgets: podDisruptionBudgetPrinter,
  runtimeclasses: runtimeClassPrinter,
  rolebindings: roleBindingPrinter,
  clusterrolebindings: clusterRoleBindingPrinter,
  horizontalpodautoscalers: horizontalPodAutoscalerPrinter,
  configmaps: configMapPrinter,
  secrets: secretPrinter,
  serviceaccounts: serviceAccountPrinter,
  services: servicePrinter,
  endpoints: endpointsPrinter,
  endpointslices: endpointSlicePrinter,
  jobs: jobPrinter,
  cronjobs: cronJobPrinter,
  deployments: deploymentPrinter,
  replicasets: replicaSetPrinter,
  statefulsets: statefulSetPrinter,
  daemonsets: daemonSetPrinter,
  controllerrevisions: controllerRevisionPrinter,
};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A row's object: none, the object, or its PartialObjectMetadata in the Table's own group version (asTable). */
function rowObject(o: KubeObject, include: IncludeObject, apiVersion: string): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return o;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata ?? {} };
}

export function toTable(resource: string, objects: readonly KubeObject[], opts: { resourceVersion?: string; include: IncludeObject; now: number; withColumns?: boolean; apiVersion?: string }): Table {
  const p = (printers[resource] ?? defaultPrinter) as Printer<KubeObject>;
  const apiVersion = opts.apiVersion ?? 'meta.k8s.io/v1';
  return {
    kind: 'Table',
    apiVersion,
    metadata: opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {},
    columnDefinitions: opts.withColumns === false ? [] : p.columns,
    rows: objects.map((o) => ({ cells: p.cells(o, opts.now), object: rowObject(o, opts.include, apiVersion) })),
  };
}

/** The columns of a resource's Table (what toTable sends with its first rows). */
export function tableColumns(resource: string): TableColumn[] {
  return ((printers[resource] ?? defaultPrinter) as Printer<KubeObject>).columns;
}

/** One object's cells, as toTable computes them. */
export function tableCells(resource: string, obj: KubeObject, now: number): (string | number | boolean)[] {
  return ((printers[resource] ?? defaultPrinter) as Printer<KubeObject>).cells(obj, now);
}
