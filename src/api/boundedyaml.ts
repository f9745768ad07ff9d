// Bounded decoding of untrusted YAML and JSON text: alias expansion as go-yaml v2's decoder
// bounds it (decode.go: allowedAliasRatio, "document contains excessive aliasing", "anchor 'x'
// value contains itself"), and nesting depth as go-yaml's scanner (max_flow_level/max_indents,
// "exceeded max depth of N") and encoding/json's scanner (maxNestingDepth, "invalid character
// '{' exceeded max depth") bound it. Every YAML or JSON body the API server decodes and every
// manifest `bulkhead plan` reads goes through here.
//
// Deliberate deviation: upstream's depth limit is 10000; Node's default stack overflows well
// before that in js-yaml's recursive parser and in JSON.stringify (about 1600 and 9000 levels),
// so Bulkhead's limit is `maxNestingDepth` below, with the same wording. It also applies to the
// depth that aliases build, which Go's growable stacks never need to bound.

import { constructFromEvents, EVENT_ID, parseEvents, YAMLException, type Event } from 'js-yaml';

/** The deepest nesting of collections a decoded body or manifest may have. */
export const maxNestingDepth = 1000;

/** A document refused for its aliasing or its depth; `message` is go-yaml's or encoding/json's. */
export class BoundedDecodeError extends Error {
  constructor(
    message: string,
    /** The 0-based index of the document in a multi-document stream. */
    readonly document: number,
  ) {
    super(message);
  }
}

// go-yaml v2 decode.go: the share of decoded nodes that may come from alias expansion falls
// from 99% for documents under 400,000 decodes to 10% from 4,000,000 on.
const aliasRatioRangeLow = 400_000;
const aliasRatioRangeHigh = 4_000_000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= aliasRatioRangeLow) return 0.99;
  if (decodeCount >= aliasRatioRangeHigh) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - aliasRatioRangeLow) / (aliasRatioRangeHigh - aliasRatioRangeLow));
}

interface YNode {
  collection: boolean;
  /** Where a collection starts in the source, for the line of a depth error. */
  start?: number;
  children: YNode[];
  /** For an alias: the node its anchor named when it was read (undefined: js-yaml refuses it). */
  target?: YNode;
  alias?: string;
}

/** One tree per document, aliases pointing at the nodes their anchors named. */
function documentTrees(events: readonly Event[], source: string): YNode[] {
  const docs: YNode[] = [];
  const stack: YNode[] = [];
  let anchors = new Map<string, YNode>();
  const add = (n: YNode) => stack[stack.length - 1]?.children.push(n);
  const anchor = (e: { anchorStart: number; anchorEnd: number }, n: YNode) => {
    if (e.anchorStart >= 0) anchors.set(source.slice(e.anchorStart, e.anchorEnd), n);
  };
  for (const e of events) {
    switch (e.type) {
      case EVENT_ID.DOCUMENT: {
        anchors = new Map();
        const doc: YNode = { collection: false, children: [] };
        docs.push(doc);
        stack.push(doc);
        break;
      }
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING: {
        const n: YNode = { collection: true, children: [], start: e.start };
        anchor(e, n);
        add(n);
        stack.push(n);
        break;
      }
      case EVENT_ID.SCALAR: {
        const n: YNode = { collection: false, children: [] };
        anchor(e, n);
        add(n);
        break;
      }
      case EVENT_ID.ALIAS: {
        const name = source.slice(e.anchorStart, e.anchorEnd);
        add({ collection: false, children: [], alias: name, target: anchors.get(name) });
        break;
      }
      case EVENT_ID.POP:
        stack.pop();
        break;
    }
  }
  return docs;
}

/**
 * Walks a document as go-yaml's decoder does, following every alias, and fails as it fails:
 * when alias expansion does most of the work, or an anchor holds itself. The walk stops at the
 * first failure, so its cost is bounded by the ratio rule, not by the expanded size.
 */
function checkAliasing(doc: YNode, index: number, source: string): void {
  let decodeCount = 0;
  let aliasCount = 0;
  let aliasDepth = 0;
  const following = new Set<YNode>();
  // Frames: a node to visit, or the end of an alias expansion.
  type Frame = { visit: YNode; depth: number } | { leave: YNode };
  const todo: Frame[] = [{ visit: doc, depth: 0 }];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if ('leave' in f) {
      aliasDepth--;
      following.delete(f.leave);
      continue;
    }
    const n = f.visit;
    decodeCount++;
    if (aliasDepth > 0) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      throw new BoundedDecodeError('yaml: document contains excessive aliasing', index);
    }
    if (n.alias !== undefined) {
      if (!n.target) continue;
      if (following.has(n)) throw new BoundedDecodeError(`yaml: anchor '${n.alias}' value contains itself`, index);
      following.add(n);
      aliasDepth++;
      todo.push({ leave: n }, { visit: n.target, depth: f.depth });
      continue;
    }
    const depth = n.collection ? f.depth + 1 : f.depth;
    if (depth > maxNestingDepth) throw new BoundedDecodeError(depthMessage(source, n.start ?? 0), index);
    for (let i = n.children.length - 1; i >= 0; i--) todo.push({ visit: n.children[i]!, depth });
  }
}

/** go-yaml's scanner error, which names the line unless it is the first. */
function depthMessage(source: string, position: number): string {
  let line = 0;
  for (let i = source.indexOf('\n'); i >= 0 && i < position; i = source.indexOf('\n', i + 1)) line++;
  return `yaml: ${line > 0 ? `line ${line + 1}: ` : ''}exceeded max depth of ${maxNestingDepth}`;
}

/**
 * All documents of a YAML stream, with aliases expanded into copies (as go-yaml's decoder
 * builds them) within the bounds above. js-yaml's own syntax errors are thrown as they are.
 */
export function loadYAMLDocuments(text: string, filename?: string): unknown[] {
  let events: Event[];
  try {
    // js-yaml counts every node, scalars and the document too; the exact bound on collections
    // is checkAliasing's. This one keeps js-yaml's recursive parser off the end of the stack.
    events = parseEvents(text, { maxDepth: maxNestingDepth + 2, ...(filename ? { filename } : {}) });
  } catch (e) {
    if (e instanceof YAMLException && e.reason.startsWith('nesting exceeded maxDepth')) {
      const at = e.mark?.position ?? 0;
      const before = text.slice(0, at);
      const doc = Math.max(0, (before.match(/^---/gm)?.length ?? 0) - (text.startsWith('---') ? 1 : 0));
      throw new BoundedDecodeError(depthMessage(text, at), doc);
    }
    throw e;
  }
  const trees = documentTrees(events, text);
  trees.forEach((t, i) => checkAliasing(t, i, text));
  const docs = constructFromEvents(events, { source: text, ...(filename ? { filename } : {}) });
  // js-yaml shares one object among an anchor and its aliases; Go decodes each into its own copy,
  // and later writes (defaulting, patches) must not reach through one alias into another.
  return events.some((e) => e.type === EVENT_ID.ALIAS) ? docs.map(expandShared) : docs;
}

/** A copy in which no two places share an object (the depth is bounded by checkAliasing). */
function expandShared(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(expandShared);
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = expandShared(x);
    return out;
  }
  return v;
}

/** The one document of a YAML body (an empty body is null). */
export function loadYAML(text: string): unknown {
  const docs = loadYAMLDocuments(text);
  if (docs.length > 1) throw new YAMLException('expected a single document in the stream, but found more');
  return docs[0] ?? null;
}

/**
 * The character at which encoding/json's scanner gives up for depth (an opening bracket one
 * level too deep), or undefined when the text nests no deeper than `maxNestingDepth`.
 */
export function jsonDepthExceeded(text: string): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxNestingDepth) return text[i];
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/** JSON.parse within the depth bound; the error for a deeper text is encoding/json's. */
export function parseJSONBounded(text: string): unknown {
  const c = jsonDepthExceeded(text);
  if (c !== undefined) throw new SyntaxError(`invalid character '${c}' exceeded max depth`);
  return JSON.parse(text);
}

