// metrics.k8s.io/v1beta1 (k8s.io/metrics/pkg/apis/metrics/v1beta1): NodeMetrics and PodMetrics,
// the read-only kinds the API server answers from the agents' readings (src/apiserver/metricsapi.ts).

import { gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const pkg = 'io.k8s.metrics.pkg.apis.metrics.v1beta1';
const kindOf = (kind: string) => ({ gvk: [gvk('metrics.k8s.io', 'v1beta1', kind)] });

export const metricsSchemas: readonly SchemaDef[] = [
  struct(
    pkg,
    'NodeMetrics',
    'The resource usage metrics of a node.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      timestamp: 'Time! | The time the metrics were collected: the end of the window.',
      window: 's! | The interval [Timestamp-Window, Timestamp] from which the usage was calculated, e.g. 15.004s.',
      usage: 'rl! | The memory working set and the CPU usage rate over the window.',
    },
    kindOf('NodeMetrics'),
  ),
  struct(pkg, 'NodeMetricsList', 'A list of NodeMetrics.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]NodeMetrics! | The node metrics.' }, kindOf('NodeMetricsList')),
  struct(
    pkg,
    'PodMetrics',
    'The resource usage metrics of a pod, per container.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      timestamp: 'Time! | The time the metrics were collected: the end of the window.',
      window: 's! | The interval [Timestamp-Window, Timestamp] from which the usage was calculated, e.g. 15.004s.',
      containers: '[]ContainerMetrics! | Metrics of each container of the pod.',
    },
    kindOf('PodMetrics'),
  ),
  struct(pkg, 'PodMetricsList', 'A list of PodMetrics.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]PodMetrics! | The pod metrics.' }, kindOf('PodMetricsList')),
  struct(pkg, 'ContainerMetrics', 'The resource usage metrics of a container.', {
    name: 's! | Container name, as in the pod spec.',
    usage: 'rl! | The memory working set and the CPU usage rate over the window.',
  }),
];
