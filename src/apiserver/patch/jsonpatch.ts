// RFC 6902 JSON patch (`application/json-patch+json`) with the behaviour and error texts of
// gopkg.in/evanphx/json-patch.v4 (v4.13), which kube-apiserver uses. Where v4 differs from the
// RFC, it is followed, because clients see kube-apiserver's behaviour:
//   - `replace` of a missing object member succeeds and adds it (only a missing parent or an
//     array index out of range fails with "doc is missing path/key");
//   - `add`, `remove`, `move`, `copy` on the whole document ("" path) are not supported;
//     `replace` and `test` of "" are;
//   - negative array indices count from the end;
//   - `test` of a missing member (or one holding null) passes when the value is null or absent;
//   - a path without a leading "/" addresses a member of the root ("a/b" acts like "/b").
// kube-apiserver answers failing operations with 422 (JSONPatchApplyError), undecodable patches
// with 400 (JSONPatchDecodeError) and more than 10000 operations with 413.

import { JSONPatchApplyError, JSONPatchDecodeError, JSONPatchTestError, JSONPatchTooLargeError, type JSONPatchFailure } from './errors.js';
import { assertPatchDepth } from './depth.js';
import { clone, deepEqual, isObject, setKey, type JSONObject, type JSONValue } from './json.js';

/** kube-apiserver's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** kube-apiserver's default JSONPatchMaxCopyBytes (evanphx AccumulatedCopySizeLimit). */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

export interface JSONPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test' | string;
  path?: string;
  from?: string;
  value?: unknown;
}

type Container = JSONObject | JSONValue[];

/** RFC 6901 reference-token unescaping: "~1" → "/", then "~0" → "~" (in one left-to-right pass). */
export function decodePointerToken(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** RFC 6901 reference-token escaping. */
export function encodePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON pointer for a list of unescaped tokens. */
export function jsonPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => '/' + encodePointerToken(String(t))).join('');
}

class Fail extends Error {
  constructor(
    message: string,
    readonly failure: JSONPatchFailure,
  ) {
    super(message);
  }
}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

/** Go's strconv.Atoi, with its error text. */
function atoi(s: string): number | Fail {
  if (/^[+-]?\d+$/.test(s)) {
    const n = Number(s);
    if (Number.isSafeInteger(n)) return n;
    return new Fail(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`, 'invalid');
  }
  return new Fail(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`, 'invalid');
}

function invalidIndex(idx: number): Fail {
  return new Fail(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`, 'invalid index referenced');
}

/** The container holding the last token of `path`, and that token; undefined when absent. */
function findObject(root: Container, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc: Container = root;
  for (const part of split.slice(1, -1)) {
    const next = get(doc, decodePointerToken(part));
    if (next instanceof Fail || next === undefined || next === null) return undefined;
    if (Array.isArray(next) || isObject(next)) doc = next;
    else return undefined;
  }
  return { con: doc, key: decodePointerToken(split[split.length - 1]) };
}

/** Member or element `key`; undefined when an object lacks it; Fail for bad array indices. */
function get(con: Container, key: string): JSONValue | undefined | Fail {
  if (!Array.isArray(con)) return Object.prototype.hasOwnProperty.call(con, key) ? con[key] : undefined;
  let idx = atoi(key);
  if (idx instanceof Fail) return idx;
  if (idx < 0) {
    if (idx < -con.length) return invalidIndex(idx);
    idx += con.length;
  }
  if (idx >= con.length) return invalidIndex(idx);
  return con[idx];
}

function set(con: Container, key: string, val: JSONValue): Fail | undefined {
  if (!Array.isArray(con)) {
    setKey(con, key, val);
    return undefined;
  }
  let idx = atoi(key);
  if (idx instanceof Fail) return idx;
  if (idx < 0) {
    if (idx < -con.length) return invalidIndex(idx);
    idx += con.length;
  }
  con[idx] = val;
  return undefined;
}

function add(con: Container, key: string, val: JSONValue): Fail | undefined {
  if (!Array.isArray(con)) {
    setKey(con, key, val);
    return undefined;
  }
  if (key === '-') {
    con.push(val);
    return undefined;
  }
  let idx = atoi(key);
  if (idx instanceof Fail) return new Fail(`value was not a proper array index: '${key}': ${idx.message}`, 'invalid');
  const size = con.length + 1;
  if (idx >= size) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) return invalidIndex(idx);
    idx += size;
  }
  con.splice(idx, 0, val);
  return undefined;
}

function remove(con: Container, key: string): Fail | undefined {
  if (!Array.isArray(con)) {
    if (!Object.prototype.hasOwnProperty.call(con, key)) return new Fail(`Unable to remove nonexistent key: ${key}: ${MISSING}`, 'missing value');
    delete con[key];
    return undefined;
  }
  let idx = atoi(key);
  if (idx instanceof Fail) return idx;
  if (idx >= con.length) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -con.length) return invalidIndex(idx);
    idx += con.length;
  }
  con.splice(idx, 1);
  return undefined;
}

function wrap(prefix: string, f: Fail): Fail {
  return new Fail(`${prefix}: ${f.message}`, f.failure);
}

function missing(message: string): Fail {
  return new Fail(`${message}: ${MISSING}`, 'missing value');
}

/** A member of an operation that must be a string: absent/null → undefined, else string or Fail. */
function stringField(op: JSONObject, name: 'path' | 'from'): string | undefined | Fail {
  const v = op[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return new Fail(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`, 'invalid');
  return v;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (isObject(v)) return 'object';
  return typeof v;
}

/** The operation's value: undefined when the member is absent. */
function valueOf(op: JSONObject): JSONValue | undefined {
  return Object.prototype.hasOwnProperty.call(op, 'value') ? clone(op.value) : undefined;
}

function applyOne(state: { doc: Container; copied: number }, op: JSONObject): Fail | undefined {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const path = stringField(op, 'path');
  switch (kind) {
    case 'add': {
      if (path === undefined || path instanceof Fail) return missing('add operation failed to decode path');
      const found = findObject(state.doc, path);
      if (!found) return missing(`add operation does not apply: doc is missing path: "${path}"`);
      const f = add(found.con, found.key, valueOf(op) ?? null);
      return f && wrap(`error in add for path: '${path}'`, f);
    }
    case 'remove': {
      if (path === undefined || path instanceof Fail) return missing('remove operation failed to decode path');
      const found = findObject(state.doc, path);
      if (!found) return missing(`remove operation does not apply: doc is missing path: "${path}"`);
      const f = remove(found.con, found.key);
      return f && wrap(`error in remove for path: '${path}'`, f);
    }
    case 'replace': {
      if (path === undefined) return wrap('replace operation failed to decode path', missing('operation missing path field'));
      if (path instanceof Fail) return wrap('replace operation failed to decode path', path);
      if (path === '') {
        const val = valueOf(op);
        if (!Array.isArray(val) && !isObject(val)) return new Fail('replace operation value must be object or array: %!w(<nil>)', 'invalid');
        state.doc = val;
        return undefined;
      }
      const found = findObject(state.doc, path);
      if (!found) return missing(`replace operation does not apply: doc is missing path: ${path}`);
      if (get(found.con, found.key) instanceof Fail) return missing(`replace operation does not apply: doc is missing key: ${path}`);
      const f = set(found.con, found.key, valueOf(op) ?? null);
      return f && wrap(`error in remove for path: '${path}'`, f);
    }
    case 'move': {
      const from = stringField(op, 'from');
      if (from === undefined) return wrap('move operation failed to decode from', missing('operation, missing from field'));
      if (from instanceof Fail) return wrap('move operation failed to decode from', from);
      const src = findObject(state.doc, from);
      if (!src) return missing(`move operation does not apply: doc is missing from path: ${from}`);
      const val = get(src.con, src.key);
      if (val instanceof Fail) return wrap(`error in move for path: '${src.key}'`, val);
      const r = remove(src.con, src.key);
      if (r) return wrap(`error in move for path: '${src.key}'`, r);
      if (path === undefined) return wrap('move operation failed to decode path', missing('operation missing path field'));
      if (path instanceof Fail) return wrap('move operation failed to decode path', path);
      const dst = findObject(state.doc, path);
      if (!dst) return missing(`move operation does not apply: doc is missing destination path: ${path}`);
      const f = add(dst.con, dst.key, val ?? null);
      return f && wrap(`error in move for path: '${path}'`, f);
    }
    case 'test': {
      if (path === undefined) return wrap('test operation failed to decode path', missing('operation missing path field'));
      if (path instanceof Fail) return wrap('test operation failed to decode path', path);
      const expected = valueOf(op);
      const failed = new Fail(`testing value ${path} failed: test failed`, 'test failed');
      if (path === '') return deepEqual(state.doc, expected) ? undefined : failed;
      const found = findObject(state.doc, path);
      if (!found) return missing(`test operation does not apply: is missing path: ${path}`);
      const val = get(found.con, found.key);
      if (val instanceof Fail) return wrap(`error in test for path: '${path}'`, val);
      if (val === undefined || val === null) return expected === undefined || expected === null ? undefined : failed;
      if (expected === undefined) return failed;
      return deepEqual(val, expected) ? undefined : failed;
    }
    case 'copy': {
      const from = stringField(op, 'from');
      if (from === undefined) return wrap('copy operation failed to decode from', missing('operation, missing from field'));
      if (from instanceof Fail) return wrap('copy operation failed to decode from', from);
      const src = findObject(state.doc, from);
      if (!src) return missing(`copy operation does not apply: doc is missing from path: ${from}`);
      const val = get(src.con, src.key);
      if (val instanceof Fail) return wrap(`error in copy for from: '${from}'`, val);
      if (path === undefined || path instanceof Fail) return missing('copy operation failed to decode path');
      const dst = findObject(state.doc, path);
      if (!dst) return missing(`copy operation does not apply: doc is missing destination path: ${path}`);
      const copy = val === undefined ? null : clone(val);
      state.copied += Buffer.byteLength(JSON.stringify(copy));
      if (state.copied > MAX_JSON_PATCH_COPY_BYTES) {
        return new Fail(`Unable to complete the copy, the accumulated size increase of copy is ${state.copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`, 'invalid');
      }
      const f = add(dst.con, dst.key, copy);
      return f && wrap('error while adding value during copy', f);
    }
    default:
      return new Fail(`Unexpected kind: ${kind}`, 'unknown op');
  }
}

/**
 * Checks that `ops` decodes as a JSON patch (a list of objects) and is not too long.
 * @throws JSONPatchDecodeError (400) or JSONPatchTooLargeError (413).
 */
export function decodeJSONPatch(ops: unknown): JSONObject[] {
  if (!Array.isArray(ops)) {
    throw new JSONPatchDecodeError(`json: cannot unmarshal ${jsonKind(ops)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of ops) {
    if (!isObject(op) && op !== null) {
      throw new JSONPatchDecodeError(`json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new JSONPatchTooLargeError(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  return ops.map((op) => (op === null ? {} : op)) as JSONObject[];
}

/**
 * Applies an RFC 6902 patch to `target` (an object or array) and returns the result; `target`
 * is not modified. Operations apply in order and the first failure aborts the whole patch.
 * @throws JSONPatchDecodeError / JSONPatchTooLargeError for a malformed patch,
 *         JSONPatchTestError for a failing `test`, JSONPatchApplyError for any other operation
 *         that does not apply.
 */
export function applyJSONPatch(target: unknown, ops: unknown): JSONValue {
  assertPatchDepth(target, ops);
  const list = decodeJSONPatch(ops);
  if (!Array.isArray(target) && !isObject(target)) {
    throw new JSONPatchDecodeError('json: cannot unmarshal document: not a JSON object or array');
  }
  const state = { doc: clone(target) as Container, copied: 0 };
  list.forEach((op, index) => {
    const f = applyOne(state, op);
    if (!f) return;
    const kind = typeof op.op === 'string' ? op.op : 'unknown';
    if (f.failure === 'test failed') throw new JSONPatchTestError(f.message, index, kind, f.failure);
    throw new JSONPatchApplyError(f.message, index, kind, f.failure);
  });
  return state.doc;
}

/**
 * kubectl's CSA→SSA migration sends `replace /metadata/resourceVersion` instead of `test` so
 * that a stale patch fails like an update with a stale resourceVersion (409 "the object has been
 * modified"). True when the patched object's resourceVersion is set and differs from the live one.
 */
export function resourceVersionConflicts(live: unknown, patched: unknown): boolean {
  const rv = (o: unknown): unknown => (isObject(o) && isObject(o.metadata) ? o.metadata.resourceVersion : undefined);
  const want = rv(patched);
  return typeof want === 'string' && want !== '' && want !== rv(live);
}
