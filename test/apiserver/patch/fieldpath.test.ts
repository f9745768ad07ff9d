// FieldSet and the FieldsV1 encoding (src/apiserver/patch/fieldpath.ts), and fieldSetOf
// (src/apiserver/patch/managedfields.ts) on Pod-like objects: which fields an object sets, in
// structured-merge-diff's encoding (f:, k:, v:, "."), keys in upstream's order.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet, deserializePE, fieldPE, keyPE, path, pathString, serializePE } from '../../../src/apiserver/patch/fieldpath.js';
import { fieldSetOf } from '../../../src/apiserver/patch/managedfields.js';
import { podSchema } from './podschema.js';

describe('path elements', () => {
  const rows: [string, ReturnType<typeof fieldPE>, string][] = [
    ['a field', fieldPE('image'), 'f:image'],
    ['a key (fields sorted by name)', keyPE([['protocol', 'TCP'], ['containerPort', 80]]), 'k:{"containerPort":80,"protocol":"TCP"}'],
    ['a set member', { value: 'example.com/foo' }, 'v:"example.com/foo"'],
    ['a numeric set member', { value: 3 }, 'v:3'],
    ['an index', { index: 2 }, 'i:2'],
    ['a key with HTML characters escaped as Go does', keyPE([['name', 'a<b>&c']]), 'k:{"name":"a\\u003cb\\u003e\\u0026c"}'],
  ];
  for (const [name, pe, text] of rows) {
    it(`${name}: ${text}`, () => {
      assert.equal(serializePE(pe), text);
      assert.equal(serializePE(deserializePE(text)), text);
    });
  }
  it('an unknown element type is refused', () => {
    assert.throws(() => deserializePE('z:1'), /unknown path element type/);
  });
});

describe('path strings (conflict fields)', () => {
  const rows: [string, ReturnType<typeof path>, string][] = [
    ['a field path', path('metadata', 'labels', 'app'), '.metadata.labels.app'],
    ['a keyed list item', path('spec', 'containers', keyPE([['name', 'nginx']]), 'image'), '.spec.containers[name="nginx"].image'],
    ['a multi-key item', path('spec', 'containers', keyPE([['name', 'c']]), 'ports', keyPE([['containerPort', 80], ['protocol', 'TCP']])), '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]'],
    ['a set member', path('metadata', 'finalizers', { value: 'example.com/x' }), '.metadata.finalizers[="example.com/x"]'],
    ['an index', path('a', { index: 3 }), '.a[3]'],
  ];
  for (const [name, p, text] of rows) it(`${name}: ${text}`, () => assert.equal(pathString(p), text));
});

describe('FieldSet operations', () => {
  const a = FieldSet.of(path('a'), path('b', 'c'), path('b', 'd'));
  const b = FieldSet.of(path('b', 'c'), path('e'));
  const toStrings = (s: FieldSet): string[] => s.paths().map(pathString);

  it('union', () => assert.deepEqual(toStrings(a.union(b)), ['.a', '.e', '.b.c', '.b.d']));
  it('intersection', () => assert.deepEqual(toStrings(a.intersection(b)), ['.b.c']));
  it('difference', () => assert.deepEqual(toStrings(a.difference(b)), ['.a', '.b.d']));
  it('difference of a parent member leaves its children (upstream: parent - child = parent)', () => {
    assert.deepEqual(toStrings(FieldSet.of(path('b', 'c')).difference(FieldSet.of(path('b')))), ['.b.c']);
  });
  it('recursive difference removes a member and everything below it', () => {
    assert.deepEqual(toStrings(a.recursiveDifference(FieldSet.of(path('b')))), ['.a']);
  });
  it('has / empty / withPrefix', () => {
    assert.equal(a.has(path('b', 'c')), true);
    assert.equal(a.has(path('b')), false);
    assert.equal(new FieldSet().empty(), true);
    assert.deepEqual(toStrings(a.withPrefix(fieldPE('b'))), ['.c', '.d']);
  });
  it('iterates members before children, each sorted (fields < keys < values < indices)', () => {
    const s = FieldSet.of(path('z'), path('l', { index: 0 }), path('l', { value: 'v' }), path('l', keyPE([['name', 'k']])), path('l', 'f'), path('a', 'x'));
    assert.deepEqual(toStrings(s), ['.z', '.a.x', '.l.f', '.l[name="k"]', '.l[="v"]', '.l[0]']);
  });
  it('FieldsV1 round-trip, with "." for a node that is also a member', () => {
    const s = FieldSet.of(path('spec', 'containers', keyPE([['name', 'a']])), path('spec', 'containers', keyPE([['name', 'a']]), 'image'));
    const v1 = s.toFieldsV1();
    assert.equal(JSON.stringify(v1), '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{}}}}}');
    assert.ok(FieldSet.fromFieldsV1(v1).equals(s));
    assert.ok(FieldSet.fromFieldsV1(JSON.stringify(v1)).equals(s));
  });
  it('FieldsV1 decoding skips unknown element types, as upstream does', () => {
    assert.deepEqual(toStrings(FieldSet.fromFieldsV1({ 'f:a': {}, 'x:b': {} })), ['.a']);
  });
  it('an operation that changes nothing returns its operand (its FieldsV1 is not rebuilt)', () => {
    const empty = new FieldSet();
    assert.equal(a.union(empty), a);
    assert.equal(empty.union(a), a);
    assert.equal(a.difference(FieldSet.of(path('x'), path('b', 'z'))), a);
    assert.equal(a.recursiveDifference(FieldSet.of(path('x', 'y'))), a);
    assert.notEqual(a.difference(FieldSet.of(path('b', 'c'))), a);
  });
  it('inserting into a set drops the FieldsV1 it had built', () => {
    const s = FieldSet.of(path('a', 'b'));
    assert.equal(JSON.stringify(s.toFieldsV1()), '{"f:a":{"f:b":{}}}');
    s.insert(path('a', 'c'));
    assert.equal(JSON.stringify(s.toFieldsV1()), '{"f:a":{"f:b":{},"f:c":{}}}');
  });
});

describe('FieldsV1 decoded and encoded again (a manager entry a write leaves alone)', () => {
  // Re-encoding gives upstream's canonical form whatever the input was; a canonical input is
  // given back as the very object decoded, anything else is rebuilt.
  const rows: [string, string, string, boolean][] = [
    ['canonical: kept', '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{}}', '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{}}', true],
    ['keys out of order: sorted', '{"f:spec":{},"f:metadata":{"f:labels":{"f:b":{},"f:a":{}}}}', '{"f:metadata":{"f:labels":{"f:a":{},"f:b":{}}},"f:spec":{}}', false],
    ['"." after a child: moved first', '{"f:a":{"f:b":{},".":{}}}', '{"f:a":{".":{},"f:b":{}}}', false],
    ['"." without children: a plain member', '{"f:a":{".":{}}}', '{"f:a":{}}', false],
    ['a key spelled with spaces: Go\'s spelling', '{"f:c":{"k:{\\"name\\": \\"x\\"}":{}}}', '{"f:c":{"k:{\\"name\\":\\"x\\"}":{}}}', false],
    ['an unknown element type: dropped', '{"f:a":{},"x:b":{}}', '{"f:a":{}}', false],
    ['fields before keys before values', '{"f:l":{"f:f":{},"k:{\\"name\\":\\"k\\"}":{},"v:\\"v\\"":{},"i:0":{}}}', '{"f:l":{"f:f":{},"k:{\\"name\\":\\"k\\"}":{},"v:\\"v\\"":{},"i:0":{}}}', true],
  ];
  for (const [name, input, output, kept] of rows) {
    it(name, () => {
      const raw = JSON.parse(input) as Record<string, unknown>;
      const encoded = FieldSet.fromFieldsV1(raw).toFieldsV1();
      assert.equal(JSON.stringify(encoded), output);
      assert.equal(encoded === raw, kept);
    });
  }
});

describe('fieldSetOf (structured-merge-diff ToFieldSet) on pods', () => {
  const rows: { name: string; obj: unknown; want: unknown; stripMeta?: boolean }[] = [
    {
      name: 'labels are a granular map: each key, not the map itself',
      obj: { metadata: { labels: { app: 'web' } } },
      want: { 'f:metadata': { 'f:labels': { 'f:app': {} } } },
    },
    {
      name: 'containers are keyed by name; an item is a member (".") with its fields',
      obj: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
      want: { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
    },
    {
      name: 'ports are keyed by containerPort and protocol, protocol defaulting to TCP',
      obj: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }] }] } },
      want: {
        'f:spec': {
          'f:containers': {
            'k:{"name":"c"}': {
              '.': {},
              'f:name': {},
              'f:ports': { 'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} }, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
            },
          },
        },
      },
    },
    {
      name: 'metadata.finalizers is a set: members are v:, sorted (the list itself is not a member)',
      obj: { metadata: { finalizers: ['example.com/b', 'example.com/a'] } },
      want: { 'f:metadata': { 'f:finalizers': { 'v:"example.com/a"': {}, 'v:"example.com/b"': {} } } },
    },
    {
      name: 'securityContext.ulimits is a list map keyed by name',
      obj: { spec: { containers: [{ name: 'c', securityContext: { ulimits: [{ name: 'nofile', soft: 1024, hard: 4096 }] } }] } },
      want: { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:securityContext': { 'f:ulimits': { 'k:{"name":"nofile"}': { '.': {}, 'f:hard': {}, 'f:name': {}, 'f:soft': {} } } } } } } },
    },
    {
      name: 'tolerations are atomic: the list is one leaf, no i: elements',
      obj: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }] } },
      want: { 'f:spec': { 'f:tolerations': {} } },
    },
    {
      name: 'an atomic map (nodeSelector) is one leaf',
      obj: { spec: { nodeSelector: { disk: 'ssd' } } },
      want: { 'f:spec': { 'f:nodeSelector': {} } },
    },
    {
      name: 'an empty map is owned as a leaf; an empty granular list owns nothing',
      obj: { spec: { securityContext: {}, containers: [] } },
      want: { 'f:spec': { 'f:securityContext': {} } },
    },
    {
      name: 'fields the schema does not know: maps granular, keys owned, lists atomic',
      obj: { spec: { widget: { a: 1, list: [1, 2] } } },
      want: { 'f:spec': { 'f:widget': { '.': {}, 'f:a': {}, 'f:list': {} } } },
    },
    {
      name: 'stripMeta leaves out apiVersion, kind, metadata.name/namespace/uid/resourceVersion',
      obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'd', uid: 'u', resourceVersion: '1', labels: { a: 'b' } } },
      want: { 'f:metadata': { 'f:labels': { 'f:a': {} } } },
      stripMeta: true,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = fieldSetOf(r.obj as never, podSchema, { stripMeta: r.stripMeta });
      assert.deepEqual(got, r.want);
      assert.equal(JSON.stringify(got), JSON.stringify(r.want), 'key order');
    });
  }
});
