// mergeTyped / compareTyped (src/apiserver/patch/typed.ts): structured-merge-diff's TypedValue
// Merge and Compare. The merge triplets are ported from sigs.k8s.io/structured-merge-diff
// typed/merge_test.go (Copyright The Kubernetes Authors, Apache-2.0), with each schema written
// as the SchemaView kube-openapi's conversion would describe it.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SchemaView } from '../../../src/api/schema/view.js';
import { compareTyped, mergeTyped } from '../../../src/apiserver/patch/typed.js';
import { pathString } from '../../../src/apiserver/patch/fieldpath.js';
import type { JSONValue } from '../../../src/apiserver/patch/json.js';
import { any, arr, bool, map, obj, scalar, str } from './podschema.js';

const num = scalar('number');

const schemas: Record<string, SchemaView> = {
  stringPair: obj({ key: str, value: any }),
  nestedMap: obj({ inner: map(any) }),
  nestedStruct: obj({ inner: obj({ value: any }) }),
  nestedList: obj({ inner: arr(any, { listType: 'atomic' }) }),
  myStruct: obj({ numeric: num, string: str, bool, setStr: arr(str, { listType: 'set' }), setBool: arr(bool, { listType: 'set' }), setNumeric: arr(num, { listType: 'set' }) }),
  myRoot: obj({
    list: arr(obj({ key: str, id: num, value: map(str), bv: bool, nv: num }), { listType: 'map', listMapKeys: ['key', 'id'] }),
    atomicList: arr(str, { listType: 'atomic' }),
  }),
};

// [schema, lhs, rhs, out]
const triplets: [string, string, string, string][] = [
  ['stringPair', '{"key":"foo","value":{}}', '{"key":"foo","value":1}', '{"key":"foo","value":1}'],
  ['stringPair', '{"key":"foo","value":1}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
  ['stringPair', '{"key":"foo","value":null}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
  ['stringPair', '{"key":"foo"}', '{"value":true}', '{"key":"foo","value":true}'],
  ['nestedMap', '{}', '{"inner":{}}', '{"inner":{}}'],
  ['nestedMap', '{}', '{"inner":null}', '{"inner":null}'],
  ['nestedMap', '{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
  ['nestedMap', '{"inner":{}}', '{"inner":null}', '{"inner":null}'],
  ['nestedMap', '{"inner":{}}', '{"inner":{}}', '{"inner":{}}'],
  ['nestedStruct', '{}', '{"inner":{}}', '{"inner":{}}'],
  ['nestedStruct', '{}', '{"inner":null}', '{"inner":null}'],
  ['nestedStruct', '{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
  ['nestedStruct', '{"inner":{}}', '{"inner":null}', '{"inner":null}'],
  ['nestedStruct', '{"inner":{}}', '{"inner":{}}', '{"inner":{}}'],
  ['nestedList', '{}', '{"inner":[]}', '{"inner":[]}'],
  ['nestedList', '{}', '{"inner":null}', '{"inner":null}'],
  ['nestedList', '{"inner":null}', '{"inner":[]}', '{"inner":[]}'],
  ['nestedList', '{"inner":[]}', '{"inner":null}', '{"inner":null}'],
  ['nestedList', '{"inner":[]}', '{"inner":[]}', '{"inner":[]}'],
  ['myStruct', '{"numeric":1}', '{"numeric":3.14159}', '{"numeric":3.14159}'],
  ['myStruct', '{"numeric":3.14159}', '{"numeric":1}', '{"numeric":1}'],
  ['myStruct', '{"string":"aoeu"}', '{"bool":true}', '{"string":"aoeu","bool":true}'],
  ['myStruct', '{"setStr":["a","b","c"]}', '{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}'],
  ['myStruct', '{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
  ['myStruct', '{"setStr":["a","b","c"]}', '{"setStr":[]}', '{"setStr":["a","b","c"]}'],
  ['myStruct', '{"setStr":[]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
  ['myStruct', '{"setStr":["a","b"]}', '{"setStr":["b","a"]}', '{"setStr":["b","a"]}'],
  ['myStruct', '{"setStr":["a","b","c"]}', '{"setStr":["d","e","f"]}', '{"setStr":["a","b","c","d","e","f"]}'],
  ['myStruct', '{"setStr":["a","b","c"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","d","e","f"]}'],
  ['myStruct', '{"setStr":["a","b","c","g","f"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","g","d","e","f"]}'],
  ['myStruct', '{"setStr":["a","b","c"]}', '{"setStr":["d","e","f","x","y","z"]}', '{"setStr":["a","b","c","d","e","f","x","y","z"]}'],
  ['myStruct', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","c","e"]}', '{"setStr":["a","c","d","e","f"]}'],
  ['myStruct', '{"setStr":["a","b","c","x","y","z"]}', '{"setStr":["d","e","f"]}', '{"setStr":["a","b","c","x","y","z","d","e","f"]}'],
  ['myStruct', '{"setStr":["a","b","c","x","y","z"]}', '{"setStr":["d","e","f","x","y","z"]}', '{"setStr":["a","b","c","d","e","f","x","y","z"]}'],
  ['myStruct', '{"setStr":["c","a","g","f"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
  ['myStruct', '{"setStr":["a","b","c","d"]}', '{"setStr":["d","e","f","a"]}', '{"setStr":["b","c","d","e","f","a"]}'],
  ['myStruct', '{"setStr":["c","d","e","f","g","h","i","j"]}', '{"setStr":["2","h","3","e","4","k","l"]}', '{"setStr":["c","d","f","g","2","h","i","j","3","e","4","k","l"]}'],
  ['myStruct', '{"setStr":["a","b","c","d","e","f","g","h","i","j"]}', '{"setStr":["1","b","2","h","3","e","4","k","l"]}', '{"setStr":["a","1","b","c","d","f","g","2","h","i","j","3","e","4","k","l"]}'],
  ['myStruct', '{"setStr":["a","b","b"]}', '{"setStr":["c"]}', '{"setStr":["a","b","b","c"]}'],
  ['myStruct', '{"setStr":["a","b","b"]}', '{"setStr":["b"]}', '{"setStr":["a","b"]}'],
  ['myStruct', '{"setStr":["a","b","b"]}', '{"setStr":["a"]}', '{"setStr":["a","b","b"]}'],
  ['myStruct', '{"setStr":["a","b","c","d","e","c"]}', '{"setStr":["1","b","2","e","d"]}', '{"setStr":["a","1","b","c","2","e","c","d"]}'],
  ['myStruct', '{"setStr":["a","b","c","d","e","c"]}', '{"setStr":["1","b","2","c","e","d"]}', '{"setStr":["a","1","b","2","c","e","d"]}'],
  ['myStruct', '{"setStr":["a","a","b","b"]}', '{"setStr":["b","c","d"]}', '{"setStr":["a","a","b","c","d"]}'],
  ['myStruct', '{"setStr":["a","a","b","b"]}', '{"setStr":[]}', '{"setStr":["a","a","b","b"]}'],
  ['myStruct', '{"setBool":[true]}', '{"setBool":[false]}', '{"setBool":[true, false]}'],
  ['myStruct', '{"setNumeric":[1,2,3.14159]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
  ['myStruct', '{"setStr":["c","a","g","f","c","a"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
  ['myStruct', '{"setNumeric":[1,2,3.14159,1,2]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
  ['myStruct', '{"setBool":[true,false,true]}', '{"setBool":[false]}', '{"setBool":[true,false,true]}'],
  ['myStruct', '{"setBool":[true,false,true]}', '{"setBool":[true]}', '{"setBool":[true, false]}'],
  ['myRoot', '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}', '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}', '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}'],
  ['myRoot', '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}', '{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}', '{"list":[{"key":"a","id":1,"value":{"a":"a"}},{"key":"a","id":2,"value":{"a":"a"}}]}'],
  ['myRoot', '{"list":[{"key":"a","id":1},{"key":"b","id":1}]}', '{"list":[{"key":"a","id":1},{"key":"a","id":2}]}', '{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":2}]}'],
  ['myRoot', '{"list":[{"key":"b","id":2}]}', '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}', '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}'],
  ['myRoot', '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}', '{"list":[{"key":"c","id":3},{"key":"b","id":2}]}', '{"list":[{"key":"a","id":1},{"key":"c","id":3},{"key":"b","id":2}]}'],
  ['myRoot', '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}', '{"list":[{"key":"c","id":3},{"key":"a","id":1}]}', '{"list":[{"key":"b","id":2},{"key":"c","id":3},{"key":"a","id":1}]}'],
  ['myRoot', '{"atomicList":["a","a","a"]}', '{"atomicList":null}', '{"atomicList":null}'],
  ['myRoot', '{"atomicList":["a","b","c"]}', '{"atomicList":[]}', '{"atomicList":[]}'],
  ['myRoot', '{"atomicList":["a","a","a"]}', '{"atomicList":["a","a"]}', '{"atomicList":["a","a"]}'],
  [
    'myRoot',
    '{"list":[{"key":"a","id":1,"bv":true},{"key":"b","id":2},{"key":"a","id":1,"bv":false,"nv":2}]}',
    '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
    '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
  ],
  ['myRoot', '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}', '{"list":[]}', '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}'],
  ['myRoot', '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}', '{}', '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}'],
];

describe('structured-merge-diff typed/merge_test.go triplets', () => {
  triplets.forEach(([schema, lhs, rhs, out], i) => {
    it(`${schema} #${i}: ${lhs} + ${rhs}`, () => {
      assert.deepEqual(mergeTyped(JSON.parse(lhs) as JSONValue, JSON.parse(rhs) as JSONValue, schemas[schema]), JSON.parse(out));
    });
  });
});

describe('compareTyped', () => {
  const paths = (s: { paths(): unknown[] }): string[] => (s.paths() as never[]).map(pathString);
  it('leaves: added, modified, removed', () => {
    const c = compareTyped({ string: 'a', numeric: 1 }, { string: 'b', bool: true }, schemas.myStruct);
    assert.deepEqual([paths(c.added), paths(c.modified), paths(c.removed)], [['.bool'], ['.string'], ['.numeric']]);
  });
  it('a new map or list item is itself added, with its fields', () => {
    const c = compareTyped({}, { list: [{ key: 'a', id: 1, nv: 2 }] }, schemas.myRoot);
    assert.deepEqual(paths(c.added), ['.list', '.list[id=1,key="a"]', '.list[id=1,key="a"].id', '.list[id=1,key="a"].key', '.list[id=1,key="a"].nv']);
  });
  it('null counts as a present empty map or list', () => {
    const c = compareTyped({ inner: null }, { inner: { a: 1 } }, schemas.nestedMap);
    assert.deepEqual([paths(c.added), paths(c.modified), paths(c.removed)], [['.inner.a'], [], []]);
  });
  it('a set member removed', () => {
    const c = compareTyped({ setStr: ['a', 'b'] }, { setStr: ['b'] }, schemas.myStruct);
    assert.deepEqual(paths(c.removed), ['.setStr[="a"]']);
  });
  it('an atomic list changes as a whole', () => {
    const c = compareTyped({ atomicList: ['a'] }, { atomicList: ['a', 'b'] }, schemas.myRoot);
    assert.deepEqual(paths(c.modified), ['.atomicList']);
  });
});
