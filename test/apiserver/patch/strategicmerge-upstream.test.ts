// Upstream's strategic merge patch tables (kubernetes/apimachinery pkg/util/strategicpatch
// patch_test.go), ported as data in upstream-smp-cases.ts, run against applyStrategicMergePatch
// with a SchemaView of upstream's MergeItem test type. As upstream does, the YAML-described rows
// are compared after sortMergeListsByName (merging lists sorted by merge key, merging scalar lists
// deduplicated and sorted) of every input; raw rows are compared as they are.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SchemaView } from '../../../src/api/schema/view.js';
import { applyStrategicMergePatch } from '../../../src/apiserver/patch/strategicmerge.js';
import { goValue, isObject, type JSONObject, type JSONValue } from '../../../src/apiserver/patch/json.js';
import { any, arr, int, map, obj, str } from './podschema.js';
import {
  createStrategicMergePatchTestCaseData,
  customStrategicMergePatchRawTestCases,
  customStrategicMergePatchTestCaseData,
  replaceRawExtensionPatchTestCases,
  strategicMergePatchRawTestCases,
  unknownField,
  type SMPCase,
} from './upstream-smp-cases.js';

// type MergeItem struct (patch_test.go), field by field with its patchStrategy/patchMergeKey tags.
const mergeItem: SchemaView = obj({
  name: str,
  value: str,
  other: str,
  mergingList: () => arr(mergeItem, { patchStrategy: 'merge', patchMergeKey: 'name' }),
  nonMergingList: () => arr(mergeItem),
  mergingIntList: arr(int, { patchStrategy: 'merge' }),
  nonMergingIntList: arr(int),
  mergeItemPtr: () => ({ ...mergeItem, patchStrategy: 'merge', patchMergeKey: 'name' }),
  simpleMap: map(str),
  replacingItem: { ...any, patchStrategy: 'replace' },
  jsonItem: obj({ Raw: any }),
  retainKeysMap: () => retainKeysMergeItem,
  retainKeysMergingList: () => arr(mergeItem, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' }),
});

// type RetainKeysMergeItem struct, as the retainKeysMap field (patchStrategy:"retainKeys").
const retainKeysMergeItem: SchemaView = obj(
  {
    name: str,
    value: str,
    other: str,
    simpleMap: map(str),
    mergingIntList: arr(int, { patchStrategy: 'merge' }),
    mergingList: () => arr(mergeItem, { patchStrategy: 'merge', patchMergeKey: 'name' }),
    nonMergingList: () => arr(mergeItem),
  },
  { patchStrategy: 'retainKeys' },
);

// ---- upstream sortMergeListsByName, used on test inputs and expectations ----

function child(schema: SchemaView | undefined, k: string): SchemaView | undefined {
  if (!schema) return undefined;
  return schema.type === 'object' ? schema.property(k) : schema.type === 'map' ? schema.elements() : undefined;
}

const str3 = (v: unknown): string => goValue(v);
const lessEq = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function dedupSortScalars(s: JSONValue[]): JSONValue[] {
  const out: JSONValue[] = [];
  for (const v of s) if (!out.some((o) => o === v)) out.push(v);
  return out.sort((a, b) => lessEq(str3(a), str3(b)));
}

function sortMap(m: JSONObject, schema: SchemaView | undefined): JSONObject {
  const out: JSONObject = {};
  for (const [k, v] of Object.entries(m)) {
    if (k === '$retainKeys' || k.startsWith('$deleteFromPrimitiveList')) out[k] = [...(v as JSONValue[])].sort((a, b) => lessEq(str3(a), str3(b)));
    else if (k.startsWith('$setElementOrder') || k === '$patch') out[k] = v;
    else if (isObject(v)) out[k] = sortMap(v, child(schema, k));
    else if (Array.isArray(v)) {
      const c = child(schema, k);
      const strategies = (c?.patchStrategy ?? '').split(',').filter((s) => s !== 'retainKeys');
      out[k] = strategies[0] === 'merge' ? sortArray(v, c?.elements(), c?.patchMergeKey ?? '') : v;
    } else out[k] = v;
  }
  return out;
}

function sortArray(s: JSONValue[], elem: SchemaView | undefined, mergeKey: string): JSONValue[] {
  if (s.length === 0) return s;
  if (!isObject(s[0])) return dedupSortScalars(s);
  return s.map((e) => sortMap(e as JSONObject, elem)).sort((a, b) => lessEq(str3((a as JSONObject)[mergeKey]), str3((b as JSONObject)[mergeKey])));
}

const sorted = (v: JSONValue | undefined): JSONValue | undefined => (isObject(v) ? sortMap(v, mergeItem) : v);

function apply(original: JSONValue | undefined, patch: JSONValue | undefined): JSONObject {
  return applyStrategicMergePatch(original ?? null, patch ?? {}, mergeItem);
}

function expectApplied(original: JSONValue | undefined, patch: JSONValue | undefined, expected: JSONValue | undefined, expectedError?: string): void {
  if (expectedError) {
    assert.throws(() => apply(original, patch), (e: Error) => e.message.includes(expectedError));
    return;
  }
  assert.deepEqual(apply(original, patch), expected ?? {});
}

function runSorted(cases: SMPCase[], threeWay: boolean): void {
  for (const c of cases) {
    it(`${c.description} / TwoWay`, () => {
      expectApplied(sorted(c.original), sorted(c.twoWay), sorted(c.twoWayResult ?? c.modified));
    });
    if (threeWay && c.result !== undefined) {
      it(`${c.description} / ThreeWay`, () => {
        expectApplied(sorted(c.current), sorted(c.threeWay), sorted(c.result));
      });
    }
  }
}

function runRaw(cases: SMPCase[], threeWay: boolean): void {
  for (const c of cases) {
    it(`${c.description} / TwoWay`, () => {
      expectApplied(c.original, c.twoWay, c.twoWayResult ?? c.modified, c.expectedError);
    });
    if (threeWay && c.result !== undefined) {
      it(`${c.description} / ThreeWay`, () => {
        expectApplied(c.current, c.threeWay, c.result, c.expectedError);
      });
    }
  }
}

describe('upstream createStrategicMergePatchTestCaseData (YAML rows, sorted)', () => runSorted(createStrategicMergePatchTestCaseData, true));
describe('upstream strategicMergePatchRawTestCases', () => runRaw(strategicMergePatchRawTestCases, true));
describe('upstream customStrategicMergePatchTestCaseData (two-way application only)', () => runSorted(customStrategicMergePatchTestCaseData, false));
describe('upstream customStrategicMergePatchRawTestCases (two-way application only)', () => runRaw(customStrategicMergePatchRawTestCases, false));
describe('upstream replaceRawExtensionPatchTestCases', () => runRaw(replaceRawExtensionPatchTestCases, true));

describe('upstream TestUnknownField (fields the schema lacks)', () => {
  for (const c of unknownField) {
    if (c.expectedTwoWayErr || c.expectedTwoWay === undefined) continue; // errors there come from patch creation
    it(`${c.description} / TwoWay`, () => {
      assert.deepEqual(apply(JSON.parse(c.original), JSON.parse(c.expectedTwoWay!)), JSON.parse(c.expectedTwoWayResult!));
    });
    it(`${c.description} / ThreeWay`, () => {
      assert.deepEqual(apply(JSON.parse(c.current), JSON.parse(c.expectedThreeWay!)), JSON.parse(c.expectedThreeWayResult!));
    });
  }
});
