// Field paths and sets of them, as sigs.k8s.io/structured-merge-diff's fieldpath package
// defines them, with the FieldsV1 JSON encoding managedFields use:
//   f:<name>            a field of a map or struct
//   k:{"name":"x"}      a list item by its key fields (sorted by name)
//   v:<json>            a member of a set-like list
//   i:<n>               a list item by index (decoded; upstream never produces it for kube types)
// A set is a tree: `members` are the paths ending at a node, `children` the nodes below it. In
// FieldsV1 a member is `{}` and a node that is both a member and has children carries `".": {}`.

import { compareStrings, goJSON, goNumber, goQuote, isObject, type JSONObject, type JSONValue } from './json.js';

export type PathElement =
  | { readonly field: string }
  | { readonly key: readonly (readonly [string, JSONValue])[] }
  | { readonly value: JSONValue }
  | { readonly index: number };

export type Path = readonly PathElement[];

export function fieldPE(name: string): PathElement {
  return { field: name };
}

/** A key element; fields are sorted by name as upstream's FieldList.Sort does. */
export function keyPE(fields: Iterable<readonly [string, JSONValue]>): PathElement {
  return { key: [...fields].sort((a, b) => compareStrings(a[0], b[0])) };
}

/** The element's FieldsV1 spelling, which also serves as its identity. */
export function serializePE(pe: PathElement): string {
  if ('field' in pe) return 'f:' + pe.field;
  if ('key' in pe) return 'k:{' + pe.key.map(([n, v]) => goJSON(n) + ':' + goJSON(v)).join(',') + '}';
  if ('value' in pe) return 'v:' + goJSON(pe.value);
  return 'i:' + pe.index;
}

export function deserializePE(s: string): PathElement {
  if (s.length < 2 || s[1] !== ':') throw new Error(s.length < 2 ? 'key must be 2 characters long:' : `missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: rest };
    case 'v':
      return { value: JSON.parse(rest) as JSONValue };
    case 'k': {
      const obj = JSON.parse(rest) as unknown;
      if (!isObject(obj)) throw new Error(`key element is not an object: ${s}`);
      return keyPE(Object.entries(obj));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      return { index: Number(rest) };
    }
    default:
      throw new UnknownPathElementType();
  }
}

export class UnknownPathElementType extends Error {
  constructor() {
    super('unknown path element type');
  }
}

function typeRank(v: JSONValue): number {
  if (typeof v === 'number') return Number.isInteger(v) ? 1 : 0;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 3;
  if (Array.isArray(v)) return 4;
  if (isObject(v)) return 5;
  return 6; // null
}

/** structured-merge-diff value.Compare: floats < ints (numbers compare numerically) < strings < bools < lists < maps < null. */
export function compareValues(a: JSONValue, b: JSONValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const bl = b as JSONValue[];
    for (let i = 0; i < Math.min(a.length, bl.length); i++) {
      const c = compareValues(a[i], bl[i]);
      if (c !== 0) return c;
    }
    return a.length - bl.length < 0 ? -1 : a.length > bl.length ? 1 : 0;
  }
  if (isObject(a)) {
    const bo = b as JSONObject;
    const ka = Object.keys(a).sort(compareStrings);
    const kb = Object.keys(bo).sort(compareStrings);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const c = compareStrings(ka[i], kb[i]) || compareValues(a[ka[i]], bo[kb[i]]);
      if (c !== 0) return c;
    }
    return ka.length < kb.length ? -1 : ka.length > kb.length ? 1 : 0;
  }
  return 0;
}

function peRank(pe: PathElement): number {
  return 'field' in pe ? 0 : 'key' in pe ? 1 : 'value' in pe ? 2 : 3;
}

/** PathElement.Compare: fields < keys < values < indices. */
export function comparePE(a: PathElement, b: PathElement): number {
  const ra = peRank(a);
  const rb = peRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if ('field' in a) return compareStrings(a.field, (b as { field: string }).field);
  if ('key' in a) {
    const bk = (b as { key: readonly (readonly [string, JSONValue])[] }).key;
    for (let i = 0; i < Math.min(a.key.length, bk.length); i++) {
      const c = compareStrings(a.key[i][0], bk[i][0]) || compareValues(a.key[i][1], bk[i][1]);
      if (c !== 0) return c;
    }
    return a.key.length < bk.length ? -1 : a.key.length > bk.length ? 1 : 0;
  }
  if ('value' in a) return compareValues(a.value, (b as { value: JSONValue }).value);
  const bi = (b as { index: number }).index;
  return a.index < bi ? -1 : a.index > bi ? 1 : 0;
}

/** value.ToString, used in path strings. */
function valueString(v: JSONValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(valueString).join(',') + ']';
  return Object.keys(v)
    .sort(compareStrings)
    .map((k) => `${k}=${valueString(v[k])}`)
    .join('');
}

/** Path.String(): `.spec.containers[name="nginx"].image`, `[=value]`, `[3]`. */
export function pathString(p: Path): string {
  return p
    .map((pe) => {
      if ('field' in pe) return '.' + pe.field;
      if ('key' in pe) return '[' + pe.key.map(([n, v]) => `${n}=${valueString(v)}`).join(',') + ']';
      if ('value' in pe) return `[=${valueString(pe.value)}]`;
      return `[${pe.index}]`;
    })
    .join('');
}

interface FieldNode {
  pe: PathElement;
  set: FieldSet;
}

/** The maps of a node with no members or no children: never written (FieldSet.putMember/putChild replace them). */
const NO_MEMBERS = new Map<string, PathElement>();
const NO_CHILDREN = new Map<string, FieldNode>();

/**
 * A set of field paths (structured-merge-diff fieldpath.Set). Immutable once built by its owner:
 * the set operations return an operand itself when the result equals it, so a manager whose
 * fields a write does not touch keeps its set, and that set's FieldsV1 encoding is not rebuilt.
 */
export class FieldSet {
  // Most nodes have members only, and many sets are made and dropped on every write: a node's
  // maps are the shared empty ones until something is put in them (putMember, putChild).
  private members: Map<string, PathElement> = NO_MEMBERS;
  private children: Map<string, FieldNode> = NO_CHILDREN;
  /** The FieldsV1 encoding, once built or when decoded from a canonical one. */
  private fieldsV1?: JSONObject;

  private putMember(key: string, pe: PathElement): void {
    if (this.members === NO_MEMBERS) this.members = new Map();
    this.members.set(key, pe);
  }

  private putChild(key: string, node: FieldNode): void {
    if (this.children === NO_CHILDREN) this.children = new Map();
    this.children.set(key, node);
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (parents are not added). The empty path is ignored, as upstream ignores it. */
  insert(p: Path): void {
    if (p.length === 0) return;
    let s: FieldSet = this;
    this.fieldsV1 = undefined;
    for (let i = 0; i < p.length - 1; i++) {
      s = s.descend(p[i]);
      s.fieldsV1 = undefined;
    }
    s.putMember(serializePE(p[p.length - 1]), p[p.length - 1]);
  }

  private descend(pe: PathElement): FieldSet {
    return this.childFor(serializePE(pe), pe);
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1 && s; i++) s = s.children.get(serializePE(p[i]))?.set;
    return !!s && s.members.has(serializePE(p[p.length - 1]));
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(serializePE(pe));
  }

  /** Whether the member serialized as `key` (serializePE) is in the set. */
  hasMemberKey(key: string): boolean {
    return this.members.has(key);
  }

  /** The subtree below the element serialized as `key`, undefined when there is none. */
  childAt(key: string): FieldSet | undefined {
    return this.children.get(key)?.set;
  }

  /**
   * For building a new set top-down (compareForUpdate): adds the member `pe`, serialized as
   * `key`. A set is immutable once its builder hands it out.
   */
  addMember(key: string, pe: PathElement): void {
    this.fieldsV1 = undefined;
    this.putMember(key, pe);
  }

  /** For building a new set top-down: the node below `pe` (serialized as `key`), made when absent. */
  childFor(key: string, pe: PathElement): FieldSet {
    let node = this.children.get(key);
    if (!node) {
      node = { pe, set: new FieldSet() };
      this.putChild(key, node);
    }
    return node.set;
  }

  empty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  size(): number {
    let n = this.members.size;
    for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  /** The subset below `pe` (without the prefix); empty when there is none. */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(serializePE(pe))?.set ?? new FieldSet();
  }

  union(o: FieldSet): FieldSet {
    if (o.empty()) return this;
    if (this.empty()) return o;
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.putMember(k, pe);
    for (const [k, pe] of o.members) out.putMember(k, pe);
    for (const [k, c] of this.children) {
      const oc = o.children.get(k);
      out.putChild(k, { pe: c.pe, set: oc ? c.set.union(oc.set) : c.set });
    }
    for (const [k, c] of o.children) if (!this.children.has(k)) out.putChild(k, c);
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    if (this.empty()) return this;
    if (o.empty()) return o;
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (o.members.has(k)) out.putMember(k, pe);
    for (const [k, c] of this.children) {
      const oc = o.children.get(k);
      if (!oc) continue;
      const i = c.set.intersection(oc.set);
      if (!i.empty()) out.putChild(k, { pe: c.pe, set: i });
    }
    return out;
  }

  /** Members of this set not in `o`; a child subtree is reduced only by `o`'s subtree there. */
  difference(o: FieldSet): FieldSet {
    if (this.empty() || o.empty()) return this;
    const out = new FieldSet();
    let changed = false;
    for (const [k, pe] of this.members) {
      if (!o.members.has(k)) out.putMember(k, pe);
      else changed = true;
    }
    for (const [k, c] of this.children) {
      const oc = o.children.get(k);
      if (!oc) {
        out.putChild(k, c);
        continue;
      }
      const d = c.set.difference(oc.set);
      if (d !== c.set) changed = true;
      if (!d.empty()) out.putChild(k, d === c.set ? c : { pe: c.pe, set: d });
    }
    return changed ? out : this;
  }

  /** Like difference, but a member of `o` also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    if (this.empty() || o.empty()) return this;
    const out = new FieldSet();
    let changed = false;
    for (const [k, pe] of this.members) {
      if (!o.members.has(k)) out.putMember(k, pe);
      else changed = true;
    }
    for (const [k, c] of this.children) {
      if (o.members.has(k)) {
        changed = true;
        continue;
      }
      const oc = o.children.get(k);
      if (!oc) {
        out.putChild(k, c);
        continue;
      }
      const d = c.set.recursiveDifference(oc.set);
      if (d !== c.set) changed = true;
      if (!d.empty()) out.putChild(k, d === c.set ? c : { pe: c.pe, set: d });
    }
    return changed ? out : this;
  }

  equals(o: FieldSet): boolean {
    if (this.members.size !== o.members.size || this.children.size !== o.children.size) return false;
    for (const k of this.members.keys()) if (!o.members.has(k)) return false;
    for (const [k, c] of this.children) {
      const oc = o.children.get(k);
      if (!oc || !c.set.equals(oc.set)) return false;
    }
    return true;
  }

  private sortedMembers(): PathElement[] {
    return [...this.members.values()].sort(comparePE);
  }

  private sortedChildren(): { pe: PathElement; set: FieldSet }[] {
    return [...this.children.values()].sort((a, b) => comparePE(a.pe, b.pe));
  }

  /** Every member path, in upstream's Iterate order (a node's members, then its children's). */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = this.sortedMembers().map((pe) => [...prefix, pe]);
    for (const c of this.sortedChildren()) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  /** Direct children (path element and subtree), sorted. */
  childNodes(): { pe: PathElement; set: FieldSet }[] {
    return this.sortedChildren();
  }

  /** Direct members, sorted. */
  memberElements(): PathElement[] {
    return this.sortedMembers();
  }

  /** Rebuilds a set from direct members and (already built) child subtrees. */
  static fromParts(members: Iterable<PathElement>, children: Iterable<{ pe: PathElement; set: FieldSet }>): FieldSet {
    const out = new FieldSet();
    for (const pe of members) out.putMember(serializePE(pe), pe);
    for (const c of children) if (!c.set.empty()) out.putChild(serializePE(c.pe), c);
    return out;
  }

  /** The FieldsV1 JSON object (keys in upstream's order). Shared: callers must not modify it. */
  toFieldsV1(): JSONObject {
    return (this.fieldsV1 ??= this.emit(false));
  }

  /** Whether toFieldsV1 has its answer without emitting (built, or decoded from a canonical encoding). */
  get encoded(): boolean {
    return this.fieldsV1 !== undefined;
  }

  /** Takes the encoding of `o`, a set equal to this one (the same members: the same FieldsV1). */
  shareEncoding(o: FieldSet): JSONObject {
    return (this.fieldsV1 = o.toFieldsV1());
  }

  private emit(includeSelf: boolean): JSONObject {
    const out: JSONObject = {};
    if (includeSelf && !this.empty()) out['.'] = {};
    // The maps' keys are the elements' serializations: no element is serialized again here, and
    // only the keys are sorted (arrays of their exact size: every write emits its sets).
    const mKeys = this.sortedKeys(false);
    if (this.children.size === 0) {
      for (let i = 0; i < mKeys.length; i++) out[mKeys[i]] = {};
      return out;
    }
    const cKeys = this.sortedKeys(true);
    let mi = 0;
    let ci = 0;
    while (mi < mKeys.length || ci < cKeys.length) {
      const c = mi < mKeys.length && ci < cKeys.length ? this.compareKeys(mKeys[mi], false, cKeys[ci], true) : mi < mKeys.length ? -1 : 1;
      if (c < 0) out[mKeys[mi++]] = {};
      else {
        const key = cKeys[ci++];
        out[key] = this.children.get(key)!.set.emit(c === 0);
        if (c === 0) mi++;
      }
    }
    return out;
  }

  /** The keys of the members (or children), in comparePE order of their elements. */
  private sortedKeys(children: boolean): string[] {
    const map: Map<string, unknown> = children ? this.children : this.members;
    const keys = new Array<string>(map.size);
    let n = 0;
    for (const k of map.keys()) keys[n++] = k;
    if (n > 16) return keys.sort((a, b) => this.compareKeys(a, children, b, children));
    // A node holds a handful of elements: an insertion sort with the comparison inlined costs
    // half of sort() with a comparator callback. Stable, as sort() is.
    for (let i = 1; i < n; i++) {
      const k = keys[i];
      let j = i - 1;
      while (j >= 0 && this.compareKeys(keys[j], children, k, children) > 0) {
        keys[j + 1] = keys[j];
        j--;
      }
      keys[j + 1] = k;
    }
    return keys;
  }

  /**
   * comparePE of the elements serialized as `a` and `b` (each a member's or a child's): two
   * fields compare by their names, as their serializations do.
   */
  private compareKeys(a: string, aChild: boolean, b: string, bChild: boolean): number {
    if (a.charCodeAt(0) === 102 && b.charCodeAt(0) === 102) return compareStrings(a, b);
    return comparePE(aChild ? this.children.get(a)!.pe : this.members.get(a)!, bChild ? this.children.get(b)!.pe : this.members.get(b)!);
  }

  /** Parses FieldsV1 (an object, or its JSON text). Unknown element types are skipped, as upstream skips them. */
  static fromFieldsV1(fields: unknown): FieldSet {
    const obj = typeof fields === 'string' ? (JSON.parse(fields) as unknown) : fields;
    if (obj === undefined || obj === null) return new FieldSet();
    if (!isObject(obj)) throw new Error('FieldsV1 must be a JSON object');
    const { set, canonical, hasSelf } = FieldSet.read(obj);
    // Encoding the set again would give back this very object (what Bulkhead stored): keep it.
    if (canonical && !hasSelf) set.fieldsV1 = obj;
    return set;
  }

  /**
   * `canonical`: `obj` is exactly what emit() gives for the set (keys serialized as upstream
   * does, in comparePE order, "." first and only beside children).
   */
  private static read(obj: JSONObject): { set: FieldSet; isMember: boolean; canonical: boolean; hasSelf: boolean } {
    const set = new FieldSet();
    let hasSelf = false;
    let canonical = true;
    let prev: PathElement | undefined;
    let first = true;
    for (const [k, v] of Object.entries(obj)) {
      if (k === '.') {
        hasSelf = true;
        if (!first || !isObject(v) || Object.keys(v).length > 0) canonical = false;
        first = false;
        continue;
      }
      first = false;
      let pe: PathElement;
      try {
        pe = deserializePE(k);
      } catch (e) {
        if (e instanceof UnknownPathElementType) {
          canonical = false;
          continue;
        }
        throw new Error(`parsing key as path element: ${(e as Error).message}`);
      }
      if (!isObject(v)) throw new Error(`value of ${k} must be a JSON object`);
      const child = FieldSet.read(v);
      const sk = serializePE(pe);
      if (!child.canonical || sk !== k || (prev !== undefined && comparePE(prev, pe) >= 0)) canonical = false;
      // emit() writes a member without children as {} and "." only beside children.
      if (child.hasSelf && child.set.empty()) canonical = false;
      prev = pe;
      if (child.isMember) set.putMember(sk, pe);
      if (!child.set.empty()) set.putChild(sk, { pe, set: child.set });
    }
    // A node with no children (`{}`) is a member.
    return { set, isMember: hasSelf || set.empty(), canonical, hasSelf };
  }

  toString(): string {
    return this.paths().map(pathString).join('\n');
  }
}

/** Builds a path from field names and elements: path('spec', 'containers', keyPE([['name','x']])). */
export function path(...parts: (string | PathElement)[]): Path {
  return parts.map((p) => (typeof p === 'string' ? fieldPE(p) : p));
}
