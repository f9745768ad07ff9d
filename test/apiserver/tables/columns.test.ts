// Each served kind's columnDefinitions against printers.go AddHandlers at 1.32 (kubernetes/kubernetes
// pkg/printers/internalversion/printers.go, stored file id 59882936, ResourceQuota's order taken
// from before PR #129419): name, type, format and priority (1: shown by -o wide), and the
// descriptions printers.go writes out (the rest are the API types' field docs). Kinds without a
// printer (LimitRange, Role, ClusterRole) get rest.DefaultTableConvertor's NAME and CREATED AT.
// Pods are pinned in pods.test.ts (Bulkhead's two extra wide columns).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tableColumns } from '../../../src/apiserver/tables.js';

type Col = [name: string, type: string, priority?: number];
const S = (name: string, priority = 0): Col => [name, 'string', priority];
const I = (name: string): Col => [name, 'integer'];
const wideTemplate = [S('Containers', 1), S('Images', 1), S('Selector', 1)];

const upstream: Record<string, Col[]> = {
  namespaces: [S('Name'), S('Status'), S('Age')],
  nodes: [S('Name'), S('Status'), S('Roles'), S('Age'), S('Version'), S('Internal-IP', 1), S('External-IP', 1), S('OS-Image', 1), S('Kernel-Version', 1), S('Container-Runtime', 1)],
  events: [S('Last Seen'), S('Type'), S('Reason'), S('Object'), S('Subobject', 1), S('Source', 1), S('Message'), S('First Seen', 1), S('Count', 1), S('Name', 1)],
  configmaps: [S('Name'), S('Data'), S('Age')],
  secrets: [S('Name'), S('Type'), S('Data'), S('Age')],
  serviceaccounts: [S('Name'), S('Secrets'), S('Age')],
  resourcequotas: [S('Name'), S('Age'), S('Request'), S('Limit')],
  services: [S('Name'), S('Type'), S('Cluster-IP'), S('External-IP'), S('Port(s)'), S('Age'), S('Selector', 1)],
  endpoints: [S('Name'), S('Endpoints'), S('Age')],
  endpointslices: [S('Name'), S('AddressType'), S('Ports'), S('Endpoints'), S('Age')],
  deployments: [S('Name'), S('Ready'), S('Up-to-date'), S('Available'), S('Age'), ...wideTemplate],
  replicasets: [S('Name'), I('Desired'), I('Current'), I('Ready'), S('Age'), ...wideTemplate],
  statefulsets: [S('Name'), S('Ready'), S('Age'), S('Containers', 1), S('Images', 1)],
  daemonsets: [S('Name'), I('Desired'), I('Current'), I('Ready'), I('Up-to-date'), I('Available'), S('Node Selector'), S('Age'), ...wideTemplate],
  controllerrevisions: [S('Name'), S('Controller'), S('Revision'), S('Age')],
  jobs: [S('Name'), S('Status'), S('Completions'), S('Duration'), S('Age'), ...wideTemplate],
  cronjobs: [S('Name'), S('Schedule'), S('Timezone'), ['Suspend', 'boolean'], I('Active'), S('Last Schedule'), S('Age'), ...wideTemplate],
  horizontalpodautoscalers: [S('Name'), S('Reference'), S('Targets'), S('MinPods'), S('MaxPods'), S('Replicas'), S('Age')],
  poddisruptionbudgets: [S('Name'), S('Min Available'), S('Max Unavailable'), I('Allowed Disruptions'), S('Age')],
  priorityclasses: [S('Name'), I('Value'), ['Global-Default', 'boolean'], S('Age'), S('PreemptionPolicy')],
  runtimeclasses: [S('Name'), S('Handler'), S('Age')],
  leases: [S('Name'), S('Holder'), S('Age')],
  certificatesigningrequests: [S('Name'), S('Age'), S('SignerName'), S('Requestor'), S('RequestedDuration'), S('Condition')],
  rolebindings: [S('Name'), S('Role'), S('Age'), S('Users', 1), S('Groups', 1), S('ServiceAccounts', 1)],
  clusterrolebindings: [S('Name'), S('Role'), S('Age'), S('Users', 1), S('Groups', 1), S('ServiceAccounts', 1)],
  limitranges: [S('Name'), ['Created At', 'date']],
  roles: [S('Name'), ['Created At', 'date']],
  clusterroles: [S('Name'), ['Created At', 'date']],
};

describe("columnDefinitions: printers.go's names, types, formats and priorities", () => {
  for (const [resource, columns] of Object.entries(upstream)) {
    test(resource, () => {
      const got = tableColumns(resource).map((c) => [c.name, c.type, c.format, c.priority]);
      assert.deepEqual(
        got,
        columns.map(([name, type, priority = 0]) => [name, type, name === 'Name' ? 'name' : '', priority]),
      );
    });
  }
  test("scale (the scale subresource): NAME without the name format, DESIRED and AVAILABLE integers", () => {
    assert.deepEqual(tableColumns('scale').map((c) => [c.name, c.type, c.format, c.priority]), [['Name', 'string', '', 0], ['Desired', 'integer', '', 0], ['Available', 'integer', '', 0], ['Age', 'string', '', 0]]);
  });
});

// The descriptions printers.go spells out (not an API field's doc).
const written: [resource: string, column: string, description: string][] = [
  ['poddisruptionbudgets', 'Min Available', 'The minimum number of pods that must be available.'],
  ['poddisruptionbudgets', 'Max Unavailable', 'The maximum number of pods that may be unavailable.'],
  ['poddisruptionbudgets', 'Allowed Disruptions', 'Calculated number of pods that may be disrupted at this time.'],
  ['deployments', 'Ready', 'Number of the pod with ready state'],
  ['statefulsets', 'Ready', 'Number of the pod with ready state'],
  ['deployments', 'Containers', 'Names of each container in the template.'],
  ['deployments', 'Images', 'Images referenced by each container in the template.'],
  ['jobs', 'Status', 'Status of the job.'],
  ['jobs', 'Duration', 'Time required to complete the job.'],
  ['nodes', 'Status', 'The status of the node'],
  ['nodes', 'Roles', 'The roles of the node'],
  ['namespaces', 'Status', 'The status of the namespace'],
  ['controllerrevisions', 'Controller', 'Controller of the object'],
  ['resourcequotas', 'Request', 'Request represents a minimum amount of cpu/memory that a container may consume.'],
  ['resourcequotas', 'Limit', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'],
  ['rolebindings', 'Users', 'Users in the roleBinding'],
  ['rolebindings', 'ServiceAccounts', 'ServiceAccounts in the roleBinding'],
  ['clusterrolebindings', 'Groups', 'Groups in the clusterRoleBinding'],
];

describe('column descriptions printers.go writes out', () => {
  for (const [resource, column, description] of written) {
    test(`${resource} ${column}`, () => assert.equal(tableColumns(resource).find((c) => c.name === column)?.description, description));
  }
  test("NAME and AGE: ObjectMeta's field docs, the same for every kind", () => {
    const name = tableColumns('configmaps')[0]!.description;
    const age = tableColumns('configmaps')[2]!.description;
    assert.match(name, /^Name must be unique within a namespace\. Is required when creating resources/);
    assert.match(age, /^CreationTimestamp is a timestamp representing the server time when this object was created\. It is not guaranteed/);
    for (const resource of Object.keys(upstream)) {
      for (const c of tableColumns(resource)) {
        if (c.name === 'Name') assert.equal(c.description, name, resource);
        if (c.name === 'Age' || c.name === 'Created At') assert.equal(c.description, age, resource);
      }
    }
  });
});
