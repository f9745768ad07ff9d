// node.k8s.io/v1 RuntimeClass: a name pods give in spec.runtimeClassName, mapped to the node
// runtime's handler, with the overhead and scheduling constraints its pods get
// (k8s.io/api/node/v1 types.go; the descriptions are our own).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const kindOf = (kind: string) => ({ gvk: [gvk('node.k8s.io', 'v1', kind)] });

export const nodeSchemas: readonly SchemaDef[] = [
  struct(
    PKG.node,
    'RuntimeClass',
    'A container runtime configuration pods select by name in spec.runtimeClassName: the handler the node runs them with, the overhead they add and the nodes they need.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      handler: 's! | The runtime handler (on a Bulkhead node: runc or crun) that runs pods of this class; a DNS label, immutable.',
      overhead: 'Overhead | Resources a pod of this class uses on top of its containers\' requests; copied into the pod\'s spec.overhead at admission.',
      scheduling: 'Scheduling | Nodes that support this class: a nodeSelector and tolerations merged into its pods at admission. Unset: every node supports it.',
    },
    kindOf('RuntimeClass'),
  ),
  struct(
    PKG.node,
    'RuntimeClassList',
    'A list of runtime classes.',
    { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]RuntimeClass! | The runtime classes.' },
    kindOf('RuntimeClassList'),
  ),
  struct(PKG.node, 'Overhead', 'Resources the pod sandbox and runtime use beyond the containers.', {
    podFixed: 'rl | The fixed overhead of a pod of this class.',
  }),
  struct(PKG.node, 'Scheduling', 'The nodes a runtime class is supported on.', {
    nodeSelector: '{}s mt=atomic | Labels a node must have to run pods of this class; merged into each pod\'s nodeSelector (a conflicting pod is refused).',
    tolerations: '[]Toleration lt=atomic | Tolerations appended to those of each pod of this class, duplicates removed.',
  }),
];
