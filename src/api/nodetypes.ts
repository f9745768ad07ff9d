// node.k8s.io/v1 RuntimeClass as Bulkhead reads and writes it (k8s.io/api/node/v1 types.go;
// split from types.ts, which re-exports it). Cluster-scoped: a name pods give in
// spec.runtimeClassName, mapped to the node runtime's handler, the pod overhead it adds and
// the nodes and taints its pods need.

import type { KubeObject, ResourceList, Toleration } from './types.js';

/** Overhead: the resources a pod of the class uses beyond its containers'. */
export interface Overhead {
  podFixed?: ResourceList;
}

/** Scheduling: merged into a pod's nodeSelector and tolerations by the RuntimeClass admission plugin. */
export interface RuntimeClassScheduling {
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
}

export interface RuntimeClass extends KubeObject {
  /** The CRI handler (here: the OCI runtime) that runs the class's pods; a DNS label, immutable. */
  handler: string;
  overhead?: Overhead;
  scheduling?: RuntimeClassScheduling;
}
