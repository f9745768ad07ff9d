// The schema registry: names, kinds, completeness of the design fields, and Go's time.Parse
// messages used for Time/MicroTime.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kindSchemaName, kindSchemaNames, mustSchema, reachableSchemas, schemaFor, schemaNames } from '../../../src/api/schema/index.js';
import { goTimeParseError, goTimeQuote, RFC3339, RFC3339Micro } from '../../../src/api/schema/gotime.js';

describe('schema registry', () => {
  it('uses upstream names and finds kinds by GVK', () => {
    assert.equal(kindSchemaName({ group: '', version: 'v1', kind: 'Pod' }), 'io.k8s.api.core.v1.Pod');
    assert.equal(kindSchemaName({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }), 'io.k8s.api.coordination.v1.Lease');
    assert.equal(kindSchemaName({ group: 'policy', version: 'v1', kind: 'Eviction' }), 'io.k8s.api.policy.v1.Eviction');
    assert.equal(kindSchemaName({ group: '', version: 'v1', kind: 'DeleteOptions' }), 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    assert.equal(kindSchemaName({ group: 'apps', version: 'v1', kind: 'Deployment' }), 'io.k8s.api.apps.v1.Deployment');
    assert.equal(kindSchemaName({ group: 'autoscaling', version: 'v1', kind: 'Scale' }), 'io.k8s.api.autoscaling.v1.Scale');
    assert.equal(kindSchemaName({ group: 'apps', version: 'v1beta1', kind: 'Deployment' }), undefined);
    assert.equal(schemaFor('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')?.short, 'ObjectMeta');
    assert.equal(schemaFor('io.k8s.apimachinery.pkg.api.resource.Quantity')?.special?.type, 'string');
    assert.equal(schemaFor('io.k8s.apimachinery.pkg.util.intstr.IntOrString')?.special?.format, 'int-or-string');
    assert.equal(schemaFor('PodSpec'), undefined);
    assert.throws(() => mustSchema('nope'));
  });

  it('resolves a schema once: every lookup answers the same object', () => {
    for (const name of ['io.k8s.api.core.v1.Pod', 'io.k8s.api.core.v1.ServicePort', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']) {
      const first = mustSchema(name);
      assert.equal(schemaFor(name), first, name);
      assert.equal(mustSchema(name), first, name);
    }
    const pod = kindSchemaName({ group: '', version: 'v1', kind: 'Pod' })!;
    assert.equal(schemaFor(pod), mustSchema('io.k8s.api.core.v1.Pod'));
  });

  it('defines every kind Bulkhead serves', () => {
    const kinds = kindSchemaNames().map((n) => n.slice(n.lastIndexOf('.') + 1));
    for (const k of ['Pod', 'PodList', 'Namespace', 'NamespaceList', 'Node', 'NodeList', 'ResourceQuota', 'ResourceQuotaList', 'LimitRange', 'LimitRangeList', 'Event', 'EventList', 'Binding', 'Eviction', 'Lease', 'LeaseList', 'Status', 'DeleteOptions']) {
      assert.ok(kinds.includes(k), k);
    }
  });

  it('every field type resolves and every schema is reachable from some kind', () => {
    const names = schemaNames();
    assert.ok(names.length >= 175, `${names.length} schemas`);
    const reach = new Set(reachableSchemas([...kindSchemaNames(), 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch']));
    for (const n of names) assert.ok(reach.has(n), `${n} unreachable`);
  });

  it('carries the design fields, marked as Bulkhead\'s', () => {
    for (const s of ['io.k8s.api.core.v1.Container', 'io.k8s.api.core.v1.EphemeralContainer']) {
      const f = mustSchema(s).fieldMap.get('oomKillMode')!;
      assert.deepEqual(f.enum, ['Single', 'Group']);
      assert.equal(f.featureGate, 'ContainerOOMKillMode');
      assert.equal(f.bulkhead, true);
      assert.equal(f.type.go, 'v1.OOMKillMode');
    }
    const u = mustSchema('io.k8s.api.core.v1.SecurityContext').fieldMap.get('ulimits')!;
    assert.equal(u.listType, 'map');
    assert.deepEqual(u.listMapKeys, ['name']);
    assert.equal(u.featureGate, 'ContainerUlimits');
    assert.equal(u.bulkhead, true);
    assert.equal(u.type.go, '[]v1.Ulimit');
    assert.deepEqual(mustSchema('io.k8s.api.core.v1.Ulimit').required, ['name', 'hard', 'soft']);
    assert.equal(mustSchema('io.k8s.api.core.v1.PodSecurityContext').fieldMap.get('ulimits'), undefined);
    const df = mustSchema('io.k8s.api.core.v1.NodeStatus').fieldMap.get('declaredFeatures')!;
    assert.equal(df.listType, 'atomic');
    assert.equal(df.type.go, '[]string');
  });

  it('has the upstream fields of the big structs', () => {
    const count = (n: string) => mustSchema(`io.k8s.api.core.v1.${n}`).fields.length;
    assert.equal(count('PodSpec'), 40);
    assert.equal(count('Container'), 24 + 1); // + oomKillMode
    assert.equal(count('EphemeralContainer'), 25 + 1);
    assert.equal(count('Volume'), 31);
    assert.equal(count('PodStatus'), 17);
    assert.equal(count('NodeStatus'), 14);
    assert.equal(count('SecurityContext'), 12 + 1); // + ulimits
    assert.equal(mustSchema('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta').fields.length, 15);
  });
});

describe("Go's time.Parse messages", () => {
  const rows: [string, string, string | undefined][] = [
    [RFC3339, '2024-05-01T12:00:00Z', undefined],
    [RFC3339, '2024-05-01T12:00:00.123+02:00', undefined],
    [RFC3339, '2024-05-01T1:00:00Z', undefined], // Go accepts a one-digit hour here
    [RFC3339, '2024-5-01T12:00:00Z', 'parsing time "2024-5-01T12:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "5-01T12:00:00Z" as "01"'],
    [RFC3339, '2024-05-01T24:00:00Z', 'parsing time "2024-05-01T24:00:00Z": hour out of range'],
    [RFC3339, '2024-05-01T12:60:00Z', 'parsing time "2024-05-01T12:60:00Z": minute out of range'],
    [RFC3339, '2024-05-01T12:00:00+0200', 'parsing time "2024-05-01T12:00:00+0200" as "2006-01-02T15:04:05Z07:00": cannot parse "+0200" as "Z07:00"'],
    [RFC3339, '2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    [RFC3339, '', 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'],
    [RFC3339Micro, '2024-05-01T12:00:00.000001Z', undefined],
    [RFC3339Micro, '2024-05-01T12:00:00.0001Z', 'parsing time "2024-05-01T12:00:00.0001Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".0001Z" as ".000000"'],
  ];
  for (const [layout, value, want] of rows) {
    it(`${layout} ${JSON.stringify(value)}`, () => assert.equal(goTimeParseError(layout as typeof RFC3339, value), want));
  }
  it('quotes like Go', () => {
    assert.equal(goTimeQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goTimeQuote('é\n'), '"\\xc3\\xa9\\x0a"');
  });
});
