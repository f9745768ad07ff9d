// Server-side Tables (meta.k8s.io/v1) with the columns kube-apiserver's printers send, so
// that `kubectl get` prints what it prints against Kubernetes. Cells are final strings: the
// server computes ages and placeholders. Each kind family's printers are in ./tables/; this file
// maps resources to them and builds the Table (k8s.io/apiserver registry/rest TableConvertor).

import type { KubeObject } from '../api/types.js';
import { csrPrinter, eventPrinter, leasePrinter, namespacePrinter, nodePrinter, priorityClassPrinter, runtimeClassPrinter } from './tables/cluster.js';
import type { Printer, Table, TableColumn, TableRowCondition } from './tables/common.js';
import { configMapPrinter, createdAtPrinter, defaultPrinter, quotaPrinter, secretPrinter, serviceAccountPrinter } from './tables/config.js';
import { endpointSlicePrinter, endpointsPrinter, servicePrinter } from './tables/network.js';
import { podPrinter } from './tables/pods.js';
import { clusterRoleBindingPrinter, horizontalPodAutoscalerPrinter, podDisruptionBudgetPrinter, roleBindingPrinter, scalePrinter } from './tables/policy.js';
import { controllerRevisionPrinter, cronJobPrinter, daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter, statefulSetPrinter } from './tables/workloads.js';

export { age, formatLabelSelector, humanDuration } from './tables/common.js';
export type { Table, TableColumn, TableRow, TableRowCondition } from './tables/common.js';

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
  /** autoscaling/v1 Scale, the scale subresource of deployments, replica sets and stateful sets. */
  scale: scalePrinter,
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
    rows: objects.map((o) => {
      const conditions = p.conditions?.(o);
      return { cells: p.cells(o, opts.now), ...(conditions ? { conditions } : {}), object: rowObject(o, opts.include, apiVersion) };
    }),
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

/** One object's row conditions, as toTable sets them (none for most kinds). */
export function tableRowConditions(resource: string, obj: KubeObject): TableRowCondition[] | undefined {
  return ((printers[resource] ?? defaultPrinter) as Printer<KubeObject>).conditions?.(obj);
}
