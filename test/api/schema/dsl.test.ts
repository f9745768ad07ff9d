// The schema notation's struct(): fields parsed when first read (a server start that decodes
// nothing before it is ready declares every schema without parsing one), once, to exactly what
// parseField makes of each spec; a bad spec is still an error, at the first read.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseField, PKG, struct } from '../../../src/api/schema/dsl.js';

describe('schema dsl struct', () => {
  const rows: { name: string; fields: Record<string, string>; error?: RegExp }[] = [
    { name: 'primitives, required and attributes', fields: { name: 's! | The name.', port: 'i32 | A port.', ports: '[]ContainerPort lt=map lk=containerPort,protocol ps=merge mk=containerPort | Ports.' } },
    { name: 'maps, resource lists and enums', fields: { labels: '{}s | Labels.', limits: 'rl | Limits.', policy: 's enum=Always,Never go=RestartPolicy | The policy.' } },
    { name: 'no fields', fields: {} },
    { name: 'a bad type is refused when the fields are first read', fields: { bad: 'not-a-type | Bad.' }, error: /^Error: schema dsl: bad type "not-a-type"$/ },
    { name: 'a spec without a description is refused when the fields are first read', fields: { bare: 's' }, error: /^Error: schema dsl: field bare has no description$/ },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const def = struct(PKG.core, 'Example', 'An example.', r.fields);
      assert.equal(def.short, 'Example');
      if (r.error) {
        assert.throws(() => def.fields, (e: Error) => (assert.match(String(e), r.error!), true));
        return;
      }
      const fields = def.fields;
      assert.deepEqual(fields, Object.entries(r.fields).map(([n, s]) => parseField(n, s)));
      assert.equal(def.fields, fields, 'parsed once: the same array on every read');
    });
  }
});
