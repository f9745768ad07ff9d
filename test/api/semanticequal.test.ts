// semanticEqual: apiequality.Semantic.DeepEqual as far as decoded JSON can tell it, and with the
// shape named, its resource.Quantity function (a.Cmp(b) == 0) wherever the schema has a quantity.
// One row per rule.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fieldShape, semanticEqual, type Shape } from '../../src/api/semanticequal.js';

const container = (resources: Record<string, unknown>) => ({ name: 'c', image: 'busybox', resources });
const podSpec = (resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ containers: [container(resources)], ...extra });
const template = (resources: Record<string, unknown>) => ({ metadata: { labels: { a: 'b' } }, spec: podSpec(resources) });
const deploymentSpec = (resources: Record<string, unknown>) => ({ replicas: 1, selector: { matchLabels: { a: 'b' } }, template: template(resources) });

const rows: { rule: string; a: unknown; b: unknown; shape?: Shape; equal: boolean }[] = [
  { rule: 'members compare by name, not by order (Go structs and maps have none)', a: { x: 1, y: { p: 'a', q: 'b' } }, b: { y: { q: 'b', p: 'a' }, x: 1 }, equal: true },
  { rule: 'lists compare in order', a: [1, 2], b: [2, 1], equal: false },
  { rule: 'an empty list is an absent one (nil and empty slices are equal)', a: { tolerations: [] }, b: {}, equal: true },
  { rule: 'null is an absent member', a: { x: null }, b: {}, equal: true },
  { rule: 'an empty list is null', a: [], b: null, equal: true },
  { rule: 'an empty object is not an absent one (a pointer to an empty struct is not nil)', a: { securityContext: {} }, b: {}, equal: false },
  { rule: 'a zero scalar is not an absent one (the type would have to say)', a: { replicas: 0 }, b: {}, equal: false },
  { rule: 'an extra member with a value differs', a: { x: 1 }, b: { x: 1, y: 'z' }, equal: false },
  { rule: 'lists of different lengths differ', a: [1], b: [1, 1], equal: false },
  { rule: 'a list is not an object', a: [], b: {}, equal: false },
  { rule: 'without a shape, scalars compare strictly (quantities as written)', a: { cpu: '1' }, b: { cpu: '1000m' }, equal: false },
  { rule: 'nested lists of objects compare member by member', a: [{ name: 'a', env: [] }], b: [{ env: null, name: 'a' }], equal: true },
  // The Quantity function, reached through the schema the decoder reads.
  { rule: 'a Deployment spec with cpu 1 and 1000m is one spec', a: deploymentSpec({ requests: { cpu: '1000m' } }), b: deploymentSpec({ requests: { cpu: '1' } }), shape: 'io.k8s.api.apps.v1.DeploymentSpec', equal: true },
  { rule: 'a limit of 1Gi and of 1073741824 is one value', a: deploymentSpec({ limits: { memory: '1Gi' } }), b: deploymentSpec({ limits: { memory: '1073741824' } }), shape: 'io.k8s.api.apps.v1.DeploymentSpec', equal: true },
  { rule: 'a JSON number and its text are one quantity', a: deploymentSpec({ requests: { cpu: 2 } }), b: deploymentSpec({ requests: { cpu: '2000m' } }), shape: 'io.k8s.api.apps.v1.DeploymentSpec', equal: true },
  { rule: 'another value is a change', a: deploymentSpec({ requests: { cpu: '1' } }), b: deploymentSpec({ requests: { cpu: '1001m' } }), shape: 'io.k8s.api.apps.v1.DeploymentSpec', equal: false },
  { rule: 'a resource more is a change (a map of quantities still compares its keys)', a: deploymentSpec({ requests: { cpu: '1' } }), b: deploymentSpec({ requests: { cpu: '1', memory: '1Gi' } }), shape: 'io.k8s.api.apps.v1.DeploymentSpec', equal: false },
  { rule: 'a quantity that does not parse compares as written', a: deploymentSpec({ requests: { cpu: 'lots' } }), b: deploymentSpec({ requests: { cpu: 'lots' } }), shape: 'io.k8s.api.apps.v1.DeploymentSpec', equal: true },
  { rule: 'a quantity that does not parse is not a parsed one', a: deploymentSpec({ requests: { cpu: 'lots' } }), b: deploymentSpec({ requests: { cpu: '1' } }), shape: 'io.k8s.api.apps.v1.DeploymentSpec', equal: false },
  {
    rule: 'a string that is not a quantity field still compares as written',
    a: { ...deploymentSpec({}), template: { ...template({}), metadata: { labels: { a: '1' } } } },
    b: { ...deploymentSpec({}), template: { ...template({}), metadata: { labels: { a: '1000m' } } } },
    shape: 'io.k8s.api.apps.v1.DeploymentSpec',
    equal: false,
  },
  {
    rule: "an emptyDir's sizeLimit (a pointer to a Quantity) by value",
    a: podSpec({}, { volumes: [{ name: 'v', emptyDir: { sizeLimit: '1Gi' } }] }),
    b: podSpec({}, { volumes: [{ name: 'v', emptyDir: { sizeLimit: '1024Mi' } }] }),
    shape: 'io.k8s.api.core.v1.PodSpec',
    equal: true,
  },
  {
    rule: "a StatefulSet's claim templates by value",
    a: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1G' } } } }] },
    b: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1000M' } } } }] },
    shape: 'io.k8s.api.apps.v1.StatefulSetSpec',
    equal: true,
  },
  { rule: "a Job spec's template by value", a: { template: template({ limits: { memory: '512Mi' } }) }, b: { template: template({ limits: { memory: '0.5Gi' } }) }, shape: 'io.k8s.api.batch.v1.JobSpec', equal: true },
  { rule: 'a field of a schema as the shape (fieldShape)', a: template({ requests: { cpu: '0.5' } }), b: template({ requests: { cpu: '500m' } }), shape: fieldShape('io.k8s.api.batch.v1.JobSpec', 'template'), equal: true },
  { rule: 'a shape with no quantity under it compares as written', a: { matchLabels: { a: '1' } }, b: { matchLabels: { a: '1.0' } }, shape: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', equal: false },
];

describe('semanticEqual', () => {
  for (const row of rows) {
    test(row.rule, () => {
      assert.equal(semanticEqual(row.a, row.b, row.shape), row.equal);
      assert.equal(semanticEqual(row.b, row.a, row.shape), row.equal, 'symmetric');
    });
  }
});
