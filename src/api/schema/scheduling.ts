// scheduling.k8s.io/v1 PriorityClass: a name mapped to the integer priority pods of that class
// get (k8s.io/api/scheduling/v1 types.go; the descriptions are our own).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const kindOf = (kind: string) => ({ gvk: [gvk('scheduling.k8s.io', 'v1', kind)] });

export const schedulingSchemas: readonly SchemaDef[] = [
  struct(
    PKG.scheduling,
    'PriorityClass',
    'Maps a priority class name to the integer priority that pods naming it in priorityClassName receive.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      value: 'i32! | The priority pods of this class get. Higher is more important; user classes go up to 1000000000.',
      globalDefault: 'b | Whether pods without a priorityClassName get this class. At most one class may be the default.',
      description: 's | Free text saying when this class should be used.',
      preemptionPolicy: 's enum=Never,PreemptLowerPriority go=v1.PreemptionPolicy | Whether pods of this class may preempt lower-priority pods: PreemptLowerPriority (default) or Never.',
    },
    kindOf('PriorityClass'),
  ),
  struct(
    PKG.scheduling,
    'PriorityClassList',
    'A list of priority classes.',
    { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]PriorityClass! | The priority classes.' },
    kindOf('PriorityClassList'),
  ),
];
