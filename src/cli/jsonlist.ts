// Reads a JSON manifest without the YAML parser and without holding it whole: the items of a
// top-level List (`{"kind": "List", "items": [...]}`, as `kubectl get -o json` writes it) are
// cut out of the text one at a time and each is given to JSON.parse, so a List of 100,000 pods
// costs the memory of one. Whatever this reader does not take as a plain List or object —
// a syntax error, a duplicate key, a character YAML refuses, too deep a nesting, more than one
// document — it hands back as `yaml`: the caller then decodes the text as before, through the
// bounded YAML decoder, which gives the same objects or the same error as it always did.

import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { maxNestingDepth } from '../api/boundedyaml.js';

/** Text read in chunks, from the start, as often as a reader asks. */
export interface TextSource {
  chunks(): Iterator<string>;
}

export function stringSource(text: string): TextSource {
  return { chunks: () => [text][Symbol.iterator]() };
}

/**
 * 64 KiB: each chunk, and the text it is appended to, stays a string of V8's young generation
 * (under 128 KiB). Chunks of 1 MiB were each decoded into a string outside the heap and then
 * copied into a large-object string per chunk: reading a 100,000-pod List (27 MB) took 488 ms
 * against 259 in 64 KiB chunks, with the first pass's checks 667 against 357 (in process, best
 * of five runs each).
 */
const chunkBytes = 1 << 16;

/** A file read in 64 KiB chunks: two passes over it cost two reads, not its size in memory. */
export function fileSource(path: string): TextSource {
  return {
    *chunks() {
      const fd = openSync(path, 'r');
      try {
        const buf = Buffer.allocUnsafe(chunkBytes);
        const decoder = new StringDecoder('utf8');
        for (;;) {
          const n = readSync(fd, buf, 0, chunkBytes, null);
          if (n === 0) break;
          yield decoder.write(n === chunkBytes ? buf : buf.subarray(0, n));
        }
        const rest = decoder.end();
        if (rest) yield rest;
      } finally {
        closeSync(fd);
      }
    },
  };
}

/**
 * `list`: a List, its items visited in order; `object`: one syntactically plain JSON object
 * that is not a List (decode the whole text with JSON.parse); `yaml`: anything else.
 */
export type JSONShape = 'list' | 'object' | 'yaml';

const INCOMPLETE = -1;
const BAD = -2;

// What js-yaml accepts in a stream (its PATTERN_NON_PRINTABLE); JSON.parse would take the rest.
// eslint-disable-next-line no-control-regex
const nonPrintable = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The index past the closing quote of the string whose body starts at i; INCOMPLETE at the end of s. */
function stringEnd(s: string, i: number): number {
  for (;;) {
    const q = s.indexOf('"', i);
    if (q < 0) return INCOMPLETE;
    let b = q - 1;
    while (s.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** Per open container of the value valueEnd scans (by depth): 1 for an object, whose keys it counts. */
const isObjectAt = new Uint8Array(maxNestingDepth + 2);

/** With `keys`: how many keys the objects of the value valueEnd last ended hold, at every level. */
let keysCounted = 0;

/**
 * The end of the JSON value starting at s[i] (no leading space), INCOMPLETE when s ends first,
 * BAD for nesting past `depthLeft`. With `keys`, the keys of its objects are counted
 * (keysCounted), for duplicateKeys. Everything else that is wrong with the value is
 * JSON.parse's to find.
 */
function valueEnd(s: string, i: number, keys: boolean, depthLeft: number, atEOF: boolean): number {
  const n = s.length;
  let depth = 0;
  keysCounted = 0;
  // With `keys`: whether a key comes next, and the keys so far.
  let expectKey = false;
  let counted = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(s, i + 1);
      if (end < 0) return INCOMPLETE;
      if (depth === 0) return end;
      if (expectKey) {
        counted++;
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (++depth > depthLeft) return BAD;
      if (keys) {
        isObjectAt[depth] = c === 0x7b ? 1 : 0;
        expectKey = c === 0x7b;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth <= 0) {
        keysCounted = counted;
        return depth < 0 ? BAD : i + 1;
      }
    } else if (c === 0x2c) {
      if (depth === 0) return i;
      if (keys) expectKey = isObjectAt[depth] === 1;
    } else if (depth === 0 && !isSpace(c) && c !== 0x3a) {
      // A number or literal: it ends at the next delimiter.
      let j = i + 1;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (d === 0x2c || d === 0x5d || d === 0x7d || isSpace(d)) return j;
        j++;
      }
      return atEOF ? j : INCOMPLETE;
    }
    i++;
  }
  return INCOMPLETE;
}

/** The keys of every object in a parsed value, at every level. */
function keysIn(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) n += keysIn(v[i]);
    return n;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) n += 1 + keysIn(o[k]);
  return n;
}

/**
 * Whether a value's text holds a key twice in one object, which YAML refuses and JSON.parse
 * takes (the last wins): its objects then hold fewer keys, at every level, than the text names
 * (`textKeys`). Keys are compared as JSON.parse decodes them, escapes included. Counting spares
 * the set of keys per object of the text, and a string per key, that comparing names cost.
 */
function duplicateKeys(parsedValue: unknown, textKeys: number): boolean {
  return keysIn(parsedValue) !== textKeys;
}

class Reader {
  private readonly it: Iterator<string>;
  s = '';
  i = 0;
  eof = false;
  printable = true;
  constructor(source: TextSource, private readonly check: boolean) {
    this.it = source.chunks();
  }

  /** Reads another chunk, dropping what has been consumed; false at the end of the text. */
  more(): boolean {
    if (this.eof) return false;
    const r = this.it.next();
    if (r.done) {
      this.eof = true;
      return false;
    }
    if (this.check && this.printable && nonPrintable.test(r.value)) this.printable = false;
    this.s = this.s.slice(this.i) + r.value;
    this.i = 0;
    return true;
  }

  /**
   * Reads on until the text not yet consumed is twice `pending` long (or the text ends): a value
   * longer than a chunk is scanned again after each read, so it is scanned a few times over in
   * all, not once per chunk. False when nothing more was read.
   */
  private moreOf(pending: number): boolean {
    if (!this.more()) return false;
    while (this.s.length - this.i < 2 * pending && this.more());
    return true;
  }

  /** The next character that is not white space (consumed up to it), or -1 at the end. */
  peek(): number {
    for (;;) {
      while (this.i < this.s.length) {
        const c = this.s.charCodeAt(this.i);
        if (!isSpace(c)) return c;
        this.i++;
      }
      if (!this.more()) return -1;
    }
  }

  /** With `keys`: the keys the objects of the last value's text hold (valueEnd's count). */
  keys = 0;

  /** The text of the next value, BAD for one refused, undefined at the end of the text. */
  value(keys: boolean, depthLeft: number): string | typeof BAD | undefined {
    const text = this.valueText(keys, depthLeft);
    this.keys = keysCounted;
    return text;
  }

  private valueText(keys: boolean, depthLeft: number): string | typeof BAD | undefined {
    if (this.peek() < 0) return undefined;
    for (;;) {
      const end = valueEnd(this.s, this.i, keys, depthLeft, this.eof);
      if (end === BAD) return BAD;
      if (end !== INCOMPLETE) {
        const text = this.s.slice(this.i, end);
        this.i = end;
        return text;
      }
      if (!this.moreOf(this.s.length - this.i)) {
        const last = valueEnd(this.s, this.i, keys, depthLeft, true);
        if (last < 0) return undefined;
        const text = this.s.slice(this.i, last);
        this.i = last;
        return text;
      }
    }
  }
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Walks a JSON manifest whose first character is `{`. With `check` (the first pass), it also
 * refuses, as `yaml`, what JSON.parse takes but the YAML decoder would not (duplicate keys,
 * non-printable characters, depth). `visit` sees each item of the `items` array (and the
 * length of its text) as soon as it is read, before the walk knows whether the object is a
 * List: a caller must not act on items until the walk says `list`.
 */
export function walkJSONManifest(source: TextSource, check: boolean, visit: (item: unknown, index: number, textLength: number) => void): JSONShape {
  const r = new Reader(source, check);
  if (r.peek() !== 0x7b) return 'yaml';
  r.i++;
  const topKeys = new Set<string>();
  let kind: unknown;
  let itemsIsArray = false;
  let c = r.peek();
  if (c === 0x7d) r.i++;
  else {
    for (;;) {
      if (c !== 0x22) return 'yaml';
      const keyText = r.value(false, 0);
      if (keyText === undefined || keyText === BAD) return 'yaml';
      const key = parsed(keyText);
      if (!key.ok || typeof key.value !== 'string') return 'yaml';
      if (check) {
        if (topKeys.has(key.value)) return 'yaml';
        topKeys.add(key.value);
      }
      if (r.peek() !== 0x3a) return 'yaml';
      r.i++;
      if (key.value === 'items' && r.peek() === 0x5b) {
        r.i++;
        itemsIsArray = true;
        let index = 0;
        if (r.peek() === 0x5d) r.i++;
        else {
          for (;;) {
            // The List and its items array are two levels of the document's nesting.
            const text = r.value(check, maxNestingDepth - 2);
            if (text === undefined || text === BAD) return 'yaml';
            const item = parsed(text);
            if (!item.ok || (check && duplicateKeys(item.value, r.keys))) return 'yaml';
            visit(item.value, index++, text.length);
            const d = r.peek();
            r.i++;
            if (d === 0x5d) break;
            if (d !== 0x2c) return 'yaml';
          }
        }
      } else {
        const text = r.value(check, maxNestingDepth - 1);
        if (text === undefined || text === BAD) return 'yaml';
        const v = parsed(text);
        if (!v.ok || (check && duplicateKeys(v.value, r.keys))) return 'yaml';
        if (key.value === 'kind') kind = v.value;
      }
      const d = r.peek();
      r.i++;
      if (d === 0x7d) break;
      if (d !== 0x2c) return 'yaml';
      c = r.peek();
    }
  }
  if (r.peek() >= 0) return 'yaml';
  if (check && !r.printable) return 'yaml';
  if (typeof kind === 'string' && kind.endsWith('List')) {
    // A List without an items array is the YAML path's error to word.
    return itemsIsArray ? 'list' : 'yaml';
  }
  return 'object';
}
