// metadata.generation through the real HTTP API, as kube-apiserver 1.32 keeps it: the generic
// registry's BeforeCreate leaves it as the request sent it (none when none), and only the
// strategies of the kinds whose spec writes move it set 1 on create (PrepareForCreate: the
// workloads, Jobs, CronJobs, PodDisruptionBudgets, EndpointSlices); BeforeUpdate puts back the
// stored generation whatever an update sends, before the strategy moves it. One row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from './kubectlserver.js';

const labels = { app: 'g' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };

interface Row {
  rule: string;
  path: string;
  body: Record<string, unknown>;
  /** metadata.generation of the created object. */
  created: number | undefined;
  /** The same object sent back with this generation (and, when given, the spec change). */
  update?: { generation: number; change?: (o: Record<string, unknown>) => void; want: number | undefined };
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
      assert.equal(u.status, 200, u.text);
      assert.equal(u.json().metadata.generation, row.update.want, 'on update');
    });
  }
});
