// The pod's selectable fields and field-label conversion (pkg/registry/core/pod/strategy.go
// ToSelectableFields, MatchPod; pkg/apis/core/v1/conversion.go): the rows of upstream's
// TestMatchPod and TestSelectableFieldLabelConversions (kubernetes/kubernetes
// pkg/registry/core/pod/strategy_test.go, index file 148060311), read, not copied.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import { convertFieldLabel, findResource } from '../../src/apiserver/resources.js';
import { selection, selects } from '../../src/apiserver/selection.js';

const pods = findResource('', 'v1', 'pods')!;
const pod = (spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], ...spec }, status }) as unknown as KubeObject;

describe('upstream TestMatchPod', () => {
  const ips = (ip: string) => ({ podIPs: [{ ip }] });
  const rows: { pod: KubeObject; selector: string; match: boolean }[] = [
    { pod: pod({ nodeName: 'nodeA' }), selector: 'spec.nodeName=nodeA', match: true },
    { pod: pod({ nodeName: 'nodeB' }), selector: 'spec.nodeName=nodeA', match: false },
    { pod: pod({ restartPolicy: 'Always' }), selector: 'spec.restartPolicy=Always', match: true },
    { pod: pod({ restartPolicy: 'Always' }), selector: 'spec.restartPolicy=Never', match: false },
    { pod: pod({ schedulerName: 'scheduler1' }), selector: 'spec.schedulerName=scheduler1', match: true },
    { pod: pod({ schedulerName: 'scheduler1' }), selector: 'spec.schedulerName=scheduler2', match: false },
    { pod: pod({ serviceAccountName: 'serviceAccount1' }), selector: 'spec.serviceAccountName=serviceAccount1', match: true },
    // Upstream's own row sets SchedulerName here, so the account is empty either way.
    { pod: pod({ schedulerName: 'serviceAccount1' }), selector: 'spec.serviceAccountName=serviceAccount2', match: false },
    { pod: pod({}, { phase: 'Running' }), selector: 'status.phase=Running', match: true },
    { pod: pod({}, { phase: 'Running' }), selector: 'status.phase=Pending', match: false },
    { pod: pod({}, ips('1.2.3.4')), selector: 'status.podIP=1.2.3.4', match: true },
    { pod: pod({}, ips('1.2.3.4')), selector: 'status.podIP=4.3.2.1', match: false },
    { pod: pod({}, { nominatedNodeName: 'node1' }), selector: 'status.nominatedNodeName=node1', match: true },
    { pod: pod({}, { nominatedNodeName: 'node1' }), selector: 'status.nominatedNodeName=node2', match: false },
    { pod: pod({}, ips('2001:db8::')), selector: 'status.podIP=2001:db8::', match: true },
    { pod: pod({}, ips('2001:db8::')), selector: 'status.podIP=2001:db7::', match: false },
    { pod: pod({ hostNetwork: true }), selector: 'spec.hostNetwork=true', match: true },
    { pod: pod({ hostNetwork: true }), selector: 'spec.hostNetwork=false', match: false },
    { pod: pod({ hostNetwork: false }), selector: 'spec.hostNetwork=false', match: true },
    { pod: pod(), selector: 'spec.hostNetwork=false', match: true },
    { pod: pod(), selector: 'spec.hostNetwork=true', match: false },
  ];
  rows.forEach((r, i) => it(`[${i}] ${r.selector} ${r.match ? 'matches' : 'does not match'}`, () => assert.equal(selects(pods, selection(pods, { fieldSelector: r.selector }), r.pod), r.match)));
  it('a v1 pod with podIP and no podIPs (an old client) is selected by it', () => {
    assert.equal(selects(pods, selection(pods, { fieldSelector: 'status.podIP=10.0.0.1' }), pod({}, { podIP: '10.0.0.1' })), true);
  });
});

describe('upstream TestSelectableFieldLabelConversions', () => {
  for (const label of Object.keys(pods.fields(pod()))) {
    it(`${label} converts to itself`, () => assert.deepEqual(convertFieldLabel(pods, label), { field: label }));
  }
  it('the v1 alias spec.host converts to spec.nodeName', () => assert.deepEqual(convertFieldLabel(pods, 'spec.host'), { field: 'spec.nodeName' }));
  it('a field that is not selectable is refused', () => assert.ok('error' in convertFieldLabel(pods, 'spec.containers')));
});
