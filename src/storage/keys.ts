// Key order, prefix ranges and argument checks shared by every backend.
//
// Keys are ordered by Unicode code point, which is the byte order of their UTF-8 encoding: the
// order SQLite's BINARY collation and etcd use. JavaScript's `<` compares UTF-16 code units and
// disagrees for characters above U+FFFF against U+E000..U+FFFF, so the in-memory backend sorts
// with `compareKeys` instead.

/** Code point order of two strings (negative, 0, positive). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        // Surrogates (code points above U+FFFF) sort after U+E000..U+FFFF.
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/**
 * The smallest string greater than every string that starts with `prefix`, so that
 * `prefix <= key < bound` selects exactly the keys with that prefix; undefined when no such
 * string exists (the empty prefix, or one made only of U+10FFFF): then there is no upper bound.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last === 0x10ffff) continue;
    const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
    points.push(next);
    return String.fromCodePoint(...points);
  }
  return undefined;
}

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** No lone surrogates: the string survives a UTF-8 round trip unchanged. */
export function isWellFormed(s: string): boolean {
  return !loneSurrogate.test(s);
}

export function checkKey(key: unknown, what = 'key'): asserts key is string {
  if (typeof key !== 'string' || key === '') throw new TypeError(`${what} must be a non-empty string`);
  if (!isWellFormed(key)) throw new TypeError(`${what} must be well-formed Unicode (no lone surrogates)`);
}

export function checkPrefix(prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
  if (!isWellFormed(prefix)) throw new TypeError('prefix must be well-formed Unicode (no lone surrogates)');
}

export function checkValue(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new TypeError('value must be a string');
  if (!isWellFormed(value)) throw new TypeError('value must be well-formed Unicode (no lone surrogates)');
}

export function checkRevision(revision: unknown, what = 'revision'): asserts revision is number {
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) {
    throw new RangeError(`${what} must be a non-negative integer, got ${String(revision)}`);
  }
}
