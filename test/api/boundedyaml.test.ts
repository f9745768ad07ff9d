// Bounded YAML and JSON decoding (src/api/boundedyaml.ts): go-yaml v2's alias ratio and
// self-containing anchors, go-yaml's and encoding/json's depth refusals, and aliases decoded
// into copies. The "maps" rows are go-yaml's own limit_test.go fixtures.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedDecodeError, loadYAML, loadYAMLDocuments, maxNestingDepth, parseJSONBounded } from '../../src/api/boundedyaml.js';

function laughs(levels: number, fanout: number): string {
  let s = 'a0: &a0 "lol"\n';
  for (let l = 1; l <= levels; l++) s += `a${l}: &a${l} [${Array(fanout).fill(`*a${l - 1}`).join(', ')}]\n`;
  return s;
}

const maps = (kb: number) => `a: &a [{a}${',{a}'.repeat((kb * 1024) / 4 - 1)}]`;

describe('bounded YAML', () => {
  const rows: { name: string; text: string; error?: string }[] = [
    { name: 'the billion laughs (ten levels of nine) is excessive aliasing', text: laughs(9, 9), error: 'yaml: document contains excessive aliasing' },
    { name: 'four levels of ten aliases is excessive aliasing', text: laughs(4, 10), error: 'yaml: document contains excessive aliasing' },
    { name: 'three levels of ten aliases is within the ratio', text: laughs(3, 10) },
    { name: 'go-yaml limit_test: 1000kb of maps with 100 aliases', text: `{a: &a [{a}${',{a}'.repeat((1000 * 1024) / 4 - 100)}], b: &b [*a${',*a'.repeat(99)}]}`, error: 'yaml: document contains excessive aliasing' },
    { name: 'go-yaml limit_test: 1kb of maps', text: maps(1) },
    { name: 'go-yaml limit_test: 100kb of maps', text: maps(100) },
    { name: 'an anchor that contains itself', text: 'a: &x {b: *x}\n', error: `yaml: anchor 'x' value contains itself` },
    { name: 'an anchor that contains itself through a sequence', text: 'a: &x [1, [*x]]\n', error: `yaml: anchor 'x' value contains itself` },
    { name: 'flow nesting one deeper than the bound, on the first line', text: '['.repeat(maxNestingDepth + 1) + ']'.repeat(maxNestingDepth + 1), error: `yaml: exceeded max depth of ${maxNestingDepth}` },
    { name: 'flow nesting at the bound is accepted', text: '['.repeat(maxNestingDepth) + ']'.repeat(maxNestingDepth) },
    { name: 'nesting past the bound on a later line names the line', text: `a: 1\nb: ${'['.repeat(maxNestingDepth + 1)}${']'.repeat(maxNestingDepth + 1)}`, error: `yaml: line 2: exceeded max depth of ${maxNestingDepth}` },
    { name: 'block nesting past the bound', text: Array.from({ length: maxNestingDepth + 1 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1', error: `yaml: line ${maxNestingDepth + 1}: exceeded max depth of ${maxNestingDepth}` },
    { name: 'depth built by an alias counts', text: `x: &x ${'['.repeat(600)}${']'.repeat(600)}\ny: ${'['.repeat(600)}*x${']'.repeat(600)}`, error: `yaml: exceeded max depth of ${maxNestingDepth}` },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error === undefined) {
        assert.doesNotThrow(() => loadYAML(r.text));
        return;
      }
      assert.throws(() => loadYAML(r.text), (e: unknown) => e instanceof BoundedDecodeError && e.message === r.error);
    });
  }

  it('each alias decodes into its own copy, as Go decodes it', () => {
    const v = loadYAML('a: &x {b: [1]}\nc: *x\n') as { a: { b: number[] }; c: { b: number[] } };
    assert.deepEqual(v.c, { b: [1] });
    v.c.b.push(2);
    assert.deepEqual(v.a, { b: [1] });
  });

  it('a refusal names its document in a stream (0-based)', () => {
    assert.throws(() => loadYAMLDocuments(`a: 1\n---\nb: 2\n---\n${laughs(9, 9)}`), (e: unknown) => e instanceof BoundedDecodeError && e.document === 2);
    assert.throws(() => loadYAMLDocuments(`a: 1\n---\nb: ${'['.repeat(maxNestingDepth + 1)}${']'.repeat(maxNestingDepth + 1)}`), (e: unknown) => e instanceof BoundedDecodeError && e.document === 1);
  });

  it('an empty body is null; two documents in one body are refused', () => {
    assert.equal(loadYAML(''), null);
    assert.throws(() => loadYAML('a: 1\n---\nb: 2\n'), /expected a single document/);
  });
});

describe('bounded JSON', () => {
  const rows: { name: string; text: string; error?: string }[] = [
    { name: 'objects one deeper than the bound', text: '{"a":'.repeat(maxNestingDepth + 1) + '1' + '}'.repeat(maxNestingDepth + 1), error: `invalid character '{' exceeded max depth` },
    { name: 'arrays one deeper than the bound', text: '['.repeat(maxNestingDepth + 1) + ']'.repeat(maxNestingDepth + 1), error: `invalid character '[' exceeded max depth` },
    { name: 'nesting at the bound', text: '['.repeat(maxNestingDepth) + ']'.repeat(maxNestingDepth) },
    { name: 'brackets inside strings do not count', text: JSON.stringify({ a: '['.repeat(3 * maxNestingDepth), b: '\\"[' }) },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error === undefined) assert.doesNotThrow(() => parseJSONBounded(r.text));
      else assert.throws(() => parseJSONBounded(r.text), (e: unknown) => e instanceof SyntaxError && e.message === r.error);
    });
  }
});
