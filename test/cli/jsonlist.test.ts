// The JSON manifest reader of `bulkhead plan`: a List's items one at a time, and everything it
// does not read as plain JSON handed back to the YAML decoder (`yaml`), which words the errors.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringSource, walkJSONManifest, type JSONShape, type TextSource } from '../../src/cli/jsonlist.js';

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
const list = (...items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
const manyKeys = { kind: 'Pod', ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, { k0: i }])) };

/** The text cut into chunks of about n characters (a surrogate pair kept whole, as a file's UTF-8 decoder keeps it): an item may straddle any number of them. */
function chunked(text: string, n: number): TextSource {
  const parts: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(i + n, text.length);
    if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end++;
    parts.push(text.slice(i, end));
    i = end;
  }
  return { chunks: () => parts[Symbol.iterator]() };
}

function walk(source: TextSource, check = true): { shape: JSONShape; items: unknown[] } {
  const items: unknown[] = [];
  const shape = walkJSONManifest(source, check, (item, j) => {
    assert.equal(j, items.length);
    items.push(item);
  });
  return { shape, items };
}

describe('walkJSONManifest', () => {
  const rows: { name: string; text: string; shape: JSONShape; items?: unknown[] }[] = [
    { name: 'a List: its items in order', text: list(pod('a'), pod('b')), shape: 'list', items: [pod('a'), pod('b')] },
    { name: 'an empty List', text: list(), shape: 'list', items: [] },
    { name: 'kind after items: still a List', text: `{"items":[${JSON.stringify(pod('a'))}],"kind":"List","apiVersion":"v1"}`, shape: 'list', items: [pod('a')] },
    { name: 'a kind ending in List with items (PodList)', text: JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [pod('a')] }), shape: 'list', items: [pod('a')] },
    { name: 'white space anywhere JSON allows it', text: ` \n{ "kind" : "List" ,\r\n\t"items" : [ ${JSON.stringify(pod('a'))} , 5 , "s" , null ] }\n\n`, shape: 'list', items: [pod('a'), 5, 's', null] },
    { name: 'strings with escaped quotes, backslashes and brackets', text: list({ kind: 'Pod', x: 'a\\"]}[{,b\\\\', y: '\\\\' }), shape: 'list', items: [{ kind: 'Pod', x: 'a\\"]}[{,b\\\\', y: '\\\\' }] },
    { name: 'non-ASCII text', text: list({ kind: 'Pod', metadata: { labels: { é: 'ü🙂' } } }), shape: 'list', items: [{ kind: 'Pod', metadata: { labels: { é: 'ü🙂' } } }] },
    { name: 'one object that is not a List', text: JSON.stringify(pod('a')), shape: 'object' },
    { name: 'an object with items that is not a List', text: JSON.stringify({ ...pod('a'), items: [1] }), shape: 'object' },
    { name: 'a List whose items is not an array: the YAML decoder words the error', text: '{"kind":"List","items":null}', shape: 'yaml' },
    { name: 'a duplicate key in an item (YAML refuses it, JSON.parse would not)', text: '{"kind":"List","items":[{"kind":"Pod","kind":"Pod"}]}', shape: 'yaml' },
    { name: 'a duplicate key spelled with an escape', text: '{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a","n\\u0061me":"b"}}]}', shape: 'yaml' },
    { name: 'a duplicate key at the top', text: `{"kind":"List","items":[],"kind":"List"}`, shape: 'yaml' },
    { name: 'a duplicate among many keys (past the short list)', text: `{"kind":"List","items":[{"kind":"Pod",${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')},"k3":0}]}`, shape: 'yaml' },
    { name: 'many keys, none twice', text: list(manyKeys), shape: 'list', items: [manyKeys] },
    { name: 'a duplicate key in an object inside an array', text: '{"kind":"List","items":[{"kind":"Pod","c":[{"n":1},{"n":1,"n":2}]}]}', shape: 'yaml' },
    { name: 'a duplicate key whose first value was an object (its keys gone too)', text: '{"kind":"List","items":[{"kind":"Pod","a":{"x":1},"a":{"x":1}}]}', shape: 'yaml' },
    { name: 'a duplicate key in the List beside its items', text: '{"kind":"List","metadata":{"a":1,"a":2},"items":[]}', shape: 'yaml' },
    { name: '__proto__ is a key like any other', text: '{"kind":"List","items":[{"kind":"Pod","__proto__":{"a":1}}]}', shape: 'list', items: [JSON.parse('{"kind":"Pod","__proto__":{"a":1}}')] },
    { name: '__proto__ twice', text: '{"kind":"List","items":[{"kind":"Pod","__proto__":1,"__proto__":2}]}', shape: 'yaml' },
    { name: 'a key of an inner object repeated in the outer one after it closes', text: list({ kind: 'Pod', a: { kind: 1, b: { a: 2 } }, b: 3 }), shape: 'list', items: [{ kind: 'Pod', a: { kind: 1, b: { a: 2 } }, b: 3 }] },
    { name: 'the same key in sibling objects is no duplicate', text: list({ kind: 'Pod', a: { n: 1 }, b: { n: 2 }, c: [{ n: 1 }, { n: 2 }] }), shape: 'list', items: [{ kind: 'Pod', a: { n: 1 }, b: { n: 2 }, c: [{ n: 1 }, { n: 2 }] }] },
    { name: 'a truncated List', text: list(pod('a')).slice(0, -3), shape: 'yaml' },
    { name: 'a trailing comma (YAML takes it)', text: `{"kind":"List","items":[${JSON.stringify(pod('a'))},]}`, shape: 'yaml' },
    { name: 'a missing comma', text: `{"kind":"List","items":[{"kind":"Pod"} {"kind":"Pod"}]}`, shape: 'yaml' },
    { name: 'a bad literal in an item', text: `{"kind":"List","items":[{"kind":"Pod","x":tru}]}`, shape: 'yaml' },
    { name: 'text after the object (a second YAML document)', text: `${list(pod('a'))}\n---\n${list(pod('b'))}`, shape: 'yaml' },
    { name: 'a raw tab in a string (YAML takes it, JSON does not)', text: '{"kind":"List","items":[{"kind":"Pod","x":"a\tb"}]}', shape: 'yaml' },
    { name: 'a character YAML refuses (DEL)', text: '{"kind":"List","items":[{"kind":"Pod","x":"a\u007fb"}]}', shape: 'yaml' },
    { name: 'nesting past the bound: the YAML decoder words the depth error', text: `{"kind":"List","items":[{"kind":"Pod","x":${'['.repeat(999)}${']'.repeat(999)}}]}`, shape: 'yaml' },
    { name: 'nesting at the bound', text: `{"kind":"List","items":[{"kind":"Pod","x":${'['.repeat(996)}${']'.repeat(996)}}]}`, shape: 'list' },
    { name: 'a YAML flow mapping', text: '{kind: List, items: []}', shape: 'yaml' },
    { name: 'a top-level array', text: '[1]', shape: 'yaml' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const whole = walk(stringSource(r.text));
      assert.equal(whole.shape, r.shape);
      if (r.items) assert.deepEqual(whole.items, r.items);
      // The same text in small chunks reads the same.
      for (const n of [1, 7, 64]) {
        const parts = walk(chunked(r.text, n));
        assert.equal(parts.shape, r.shape, `in chunks of ${n}`);
        if (r.items) assert.deepEqual(parts.items, r.items, `in chunks of ${n}`);
      }
    });
  }

  it('the second pass (no checks) reads a checked List the same', () => {
    const text = list(pod('a'), { kind: 'Pod', x: 'q\\"' }, pod('c'));
    assert.deepEqual(walk(chunked(text, 5), false), walk(stringSource(text), true));
  });
});
