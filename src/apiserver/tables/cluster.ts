// Tables of the cluster-level kinds (pkg/printers/internalversion printers.go at v1.32):
// printNamespace, printNode, printEvent, printLease, printPriorityClass, printRuntimeClass and
// printCertificateSigningRequest.

import type { CertificateSigningRequest, Event, Lease, Namespace, Node, PriorityClass, RuntimeClass } from '../../api/types.js';
import { age, ageCol, col, humanDuration, nameCol, type Printer } from './common.js';

export const namespacePrinter: Printer<Namespace> = {
  columns: [nameCol, col('Status', 'string', 'The status of the namespace'), ageCol],
  cells: (ns, now) => [ns.metadata?.name ?? '', ns.status?.phase ?? '', age(ns.metadata?.creationTimestamp, now)],
};

/** findNodeRoles: node-role.kubernetes.io/<role> labels and a non-empty kubernetes.io/role, each role once, sorted. */
function nodeRoles(node: Node): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

export const nodePrinter: Printer<Node> = {
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
    // printNode keeps the last condition of each type.
    const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').at(-1);
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

/** formatEventSource: the source's component (else reportingComponent), then ", " and its host (else reportingInstance) when there is one. */
function eventSource(e: Event): string {
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

// printEvent: LAST SEEN falls back on the first seen, FIRST SEEN on eventTime (events.k8s.io
// events), a series' last observation and count win; COUNT is an integer cell.
export const eventPrinter: Printer<Event> = {
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
    const first = e.firstTimestamp ? age(e.firstTimestamp, now) : age(e.eventTime, now);
    let last = e.lastTimestamp ? age(e.lastTimestamp, now) : first;
    let count = e.count ?? 0;
    if (e.series) {
      last = age(e.series.lastObservedTime, now);
      count = e.series.count ?? 0;
    } else if (count === 0) {
      count = 1; // a singleton event of the events.k8s.io API has no count
    }
    const kind = (e.involvedObject?.kind ?? '').toLowerCase();
    return [
      last,
      e.type ?? '',
      e.reason ?? '',
      e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind,
      e.involvedObject?.fieldPath ?? '',
      eventSource(e),
      (e.message ?? '').trim(),
      first,
      count,
      e.metadata?.name ?? '',
    ];
  },
};

export const leasePrinter: Printer<Lease> = {
  columns: [nameCol, col('Holder', 'string', 'The holder of the lease.'), ageCol],
  cells: (l, now) => [l.metadata?.name ?? '', l.spec?.holderIdentity ?? '', age(l.metadata?.creationTimestamp, now)],
};

// printPriorityClass: every column at priority 0 (PreemptionPolicy too, since upstream added it).
export const priorityClassPrinter: Printer<PriorityClass> = {
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
export const runtimeClassPrinter: Printer<RuntimeClass> = {
  columns: [nameCol, col('Handler', 'string', 'Handler is the name of the underlying runtime and configuration that the CRI implementation will use to handle pods of this class'), ageCol],
  cells: (rc, now) => [rc.metadata?.name ?? '', rc.handler ?? '', age(rc.metadata?.creationTimestamp, now)],
};

// printCertificateSigningRequest and extractCSRStatus.
function csrCondition(csr: CertificateSigningRequest): string {
  // The condition types, whatever their status (extractCSRStatus).
  const has = (t: string) => (csr.status?.conditions ?? []).some((c) => c.type === t);
  let status = has('Denied') ? 'Denied' : has('Approved') ? 'Approved' : 'Pending';
  if (has('Failed')) status += ',Failed';
  if (csr.status?.certificate) status += ',Issued';
  return status;
}

export const csrPrinter: Printer<CertificateSigningRequest> = {
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
    csr.spec?.signerName || '<none>',
    csr.spec?.username ?? '',
    typeof csr.spec?.expirationSeconds === 'number' ? humanDuration(csr.spec.expirationSeconds * 1000) : '<none>',
    csrCondition(csr),
  ],
};
