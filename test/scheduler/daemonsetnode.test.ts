// Which nodes run a DaemonSet's pod (src/scheduler/daemonsetnode.ts, upstream's
// NodeShouldRunDaemonPod): nodeSelector, required node affinity, taints with the default daemon
// tolerations, NoExecute taints that evict, and spec.nodeName in the template.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DaemonSet, Node, PodSpec } from '../../src/api/types.js';
import { nodeShouldRunDaemonPod } from '../../src/scheduler/daemonsetnode.js';
import { node } from './helpers.js';

const ds = (spec: Partial<PodSpec> = {}): DaemonSet => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x', namespace: 'default' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } } });
const tainted = (key: string, effect: string, extra: Partial<Node['spec']> = {}) => node('n1', undefined, { spec: { taints: [{ key, effect }], ...extra } });

describe('nodeShouldRunDaemonPod', () => {
  const rows: { name: string; d: DaemonSet; n: Node; want: [boolean, boolean] }[] = [
    { name: 'a plain ready node runs it', d: ds(), n: node('n1'), want: [true, true] },
    { name: 'nodeSelector that does not match: neither', d: ds({ nodeSelector: { disk: 'ssd' } }), n: node('n1'), want: [false, false] },
    { name: 'nodeSelector that matches', d: ds({ nodeSelector: { disk: 'ssd' } }), n: node('n1', undefined, { labels: { disk: 'ssd' } }), want: [true, true] },
    { name: 'required node affinity on metadata.name of another node: neither', d: ds({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }] } } } }), n: node('n1'), want: [false, false] },
    { name: 'template spec.nodeName of another node: neither', d: ds({ nodeName: 'n2' }), n: node('n1'), want: [false, false] },
    { name: 'an untolerated NoSchedule taint: not new, but the running one stays', d: ds(), n: tainted('dedicated', 'NoSchedule'), want: [false, true] },
    { name: 'an untolerated NoExecute taint: neither', d: ds(), n: tainted('dedicated', 'NoExecute'), want: [false, false] },
    { name: 'a tolerated taint runs it', d: ds({ tolerations: [{ key: 'dedicated', operator: 'Exists' }] }), n: tainted('dedicated', 'NoSchedule'), want: [true, true] },
    { name: 'the default tolerations cover an unschedulable (cordoned) node', d: ds(), n: node('n1', undefined, { spec: { unschedulable: true } }), want: [true, true] },
    { name: 'the default tolerations cover memory pressure', d: ds(), n: node('n1', undefined, { conditions: [{ type: 'Ready', status: 'True' }, { type: 'MemoryPressure', status: 'True' }] }), want: [true, true] },
    { name: 'a not-ready node (condition taint NoSchedule) gets no new pod; existing ones stay', d: ds(), n: node('n1', undefined, { conditions: [{ type: 'Ready', status: 'False' }] }), want: [false, true] },
    { name: 'network-unavailable is tolerated only with hostNetwork', d: ds({ hostNetwork: true }), n: tainted('node.kubernetes.io/network-unavailable', 'NoSchedule'), want: [true, true] },
    { name: 'network-unavailable without hostNetwork blocks new pods', d: ds(), n: tainted('node.kubernetes.io/network-unavailable', 'NoSchedule'), want: [false, true] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const e = nodeShouldRunDaemonPod(r.n, r.d);
      assert.deepEqual([e.shouldRun, e.shouldContinueRunning], r.want);
    });
  }
});
