// metadata.generation through the real HTTP API, as kube-apiserver 1.32 keeps it: the generic
// registry's BeforeCreate leaves it as the request sent it (none when none), and only the
// strategies of the kinds whose spec writes move it set 1 on create (PrepareForCreate: the
// workloads, Jobs, CronJobs, PodDisruptionBudgets, EndpointSlices); BeforeUpdate puts back the
// stored generation whatever an update sends, before the strategy moves it. "The spec changed" is
// apiequality.Semantic.DeepEqual, whose resource.Quantity function compares by value: a quantity
// sent back in another spelling (1Gi as 1073741824) is no change, for the generation as for the
// immutable fields. One row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from './kubectlserver.js';

const labels = { app: 'g' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
type Obj = Record<string, any>;
const sized = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '1000m' }, limits: { memory: '1Gi' } } }] } };
/** The first container's resources of a workload's (or a Job's) template. */
const resources = (o: Obj) => o.spec.template.spec.containers[0].resources;

interface Row {
  rule: string;
  path: string;
  body: Record<string, unknown>;
  /** metadata.generation of the created object. */
  created: number | undefined;
  /** The same object sent back with this generation (and, when given, the spec change); 200 unless `status` says. */
  update?: { generation: number; change?: (o: Obj) => void; want: number | undefined; status?: number; message?: string };
}

const rows: Row[] = [
  {
    rule: 'a ConfigMap sent without a generation has none',
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' }, data: { a: '1' } },
    created: undefined,
    update: { generation: 9, change: (o) => (o.data = { a: '2' }), want: undefined },
  },
  {
    rule: 'a ConfigMap keeps the generation its create sent; an update cannot change it (not even down, so no 422)',
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sent', generation: 5 }, data: { a: '1' } },
    created: 5,
    update: { generation: 2, want: 5 },
  },
  {
    rule: 'a ConfigMap sent with generation null has none (int64, omitempty)',
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'null-gen', generation: null } },
    created: undefined,
  },
  {
    rule: 'a ConfigMap sent with generation 0 has none',
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'zero-gen', generation: 0 } },
    created: undefined,
  },
  {
    rule: 'a Pod has no generation (1.32)',
    path: '/api/v1/namespaces/default/pods',
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    created: undefined,
  },
  {
    rule: 'a Deployment starts at 1 whatever its create sent, and a spec change moves it by one',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', generation: 7 }, spec: { replicas: 1, selector: { matchLabels: labels }, template } },
    created: 1,
    update: { generation: 40, change: (o) => ((o.spec as Record<string, unknown>).replicas = 2), want: 2 },
  },
  {
    rule: 'a Deployment update without a spec change keeps it',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd2' }, spec: { replicas: 1, selector: { matchLabels: labels }, template } },
    created: 1,
    update: { generation: 40, change: (o) => ((o.metadata as Record<string, unknown>).labels = { x: 'y' }), want: 1 },
  },
  {
    rule: 'a Deployment update sending its spec with the keys in another order keeps it (Semantic.DeepEqual has no member order)',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd3' }, spec: { replicas: 1, selector: { matchLabels: labels }, template } },
    created: 1,
    update: { generation: 1, change: (o) => (o.spec = Object.fromEntries(Object.entries(o.spec as Record<string, unknown>).reverse())), want: 1 },
  },
  {
    rule: 'a Deployment sent back with its quantities in another spelling keeps it (Semantic compares a Quantity by value)',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd-quantity' }, spec: { replicas: 1, selector: { matchLabels: labels }, template: sized } },
    created: 1,
    update: { generation: 1, change: (o) => Object.assign(resources(o), { requests: { cpu: '1' }, limits: { memory: '1073741824' } }), want: 1 },
  },
  {
    rule: 'a Deployment whose quantity takes another value moves it',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd-quantity2' }, spec: { replicas: 1, selector: { matchLabels: labels }, template: sized } },
    created: 1,
    update: { generation: 1, change: (o) => (resources(o).limits = { memory: '1G' }), want: 2 },
  },
  {
    rule: "a StatefulSet's claim template sent back as 1073741824 for 1Gi is no forbidden change and keeps it",
    path: '/apis/apps/v1/namespaces/default/statefulsets',
    body: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'ss-quantity' },
      spec: { serviceName: 'ss', selector: { matchLabels: labels }, template, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] },
    },
    created: 1,
    update: { generation: 1, change: (o) => (o.spec.volumeClaimTemplates[0].spec.resources.requests.storage = '1073741824'), want: 1 },
  },
  {
    rule: "a Job's immutable template sent back with a quantity in another spelling is no change",
    path: '/apis/batch/v1/namespaces/default/jobs',
    body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j-quantity' }, spec: { template: { spec: { ...sized.spec, restartPolicy: 'Never' } } } },
    created: 1,
    update: { generation: 1, change: (o) => (resources(o).limits = { memory: '1073741824' }), want: 1 },
  },
  {
    rule: "a Job's immutable template with a quantity of another value is refused (422)",
    path: '/apis/batch/v1/namespaces/default/jobs',
    body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j-quantity2' }, spec: { template: { spec: { ...sized.spec, restartPolicy: 'Never' } } } },
    created: 1,
    update: { generation: 1, change: (o) => (resources(o).limits = { memory: '1G' }), want: undefined, status: 422, message: 'field is immutable' },
  },
  {
    rule: "a Pod's emptyDir sizeLimit sent back as 1073741824 for 1Gi is no change of its immutable spec (the pod strategy's Semantic.DeepEqual)",
    path: '/api/v1/namespaces/default/pods',
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p-quantity' }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'v', emptyDir: { sizeLimit: '1Gi' } }] } },
    created: undefined,
    update: { generation: 1, change: (o) => (o.spec.volumes[0].emptyDir.sizeLimit = '1073741824'), want: undefined },
  },
  {
    rule: 'a ControllerRevision has none, and its update keeps none',
    path: '/apis/apps/v1/namespaces/default/controllerrevisions',
    body: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'cr' }, revision: 1, data: {} },
    created: undefined,
    update: { generation: 3, want: undefined },
  },
  {
    rule: 'a Job starts at 1',
    path: '/apis/batch/v1/namespaces/default/jobs',
    body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { ...template.spec, restartPolicy: 'Never' } } } },
    created: 1,
  },
  {
    rule: 'a PodDisruptionBudget starts at 1',
    path: '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb' }, spec: { minAvailable: 1, selector: { matchLabels: labels } } },
    created: 1,
  },
  {
    rule: 'a ClusterRole has none',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'gen-test' }, rules: [] },
    created: undefined,
  },
];

describe('metadata.generation as the generic registry and the strategies keep it', () => {
  const t = useTestServer('bulkhead-generation-');

  for (const row of rows) {
    it(row.rule, async () => {
      const c = await t.admin().request('POST', row.path, row.body);
      assert.equal(c.status, 201, c.text);
      const created = c.json();
      assert.equal(created.metadata.generation, row.created, 'on create');
      const name = created.metadata.name as string;
      assert.equal((await t.admin().request('GET', `${row.path}/${name}`)).json().metadata.generation, row.created, 'as stored');
      if (!row.update) return;
      const sent = structuredClone(created);
      sent.metadata.generation = row.update.generation;
      row.update.change?.(sent);
      const u = await t.admin().request('PUT', `${row.path}/${name}`, sent);
      assert.equal(u.status, row.update.status ?? 200, u.text);
      if (row.update.message) return assert.ok(u.json().message.endsWith(row.update.message), u.json().message);
      assert.equal(u.json().metadata.generation, row.update.want, 'on update');
    });
  }
});
