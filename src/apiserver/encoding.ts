// Response bodies built from objects encoded once: a list, a Table and a watch event line are
// concatenations of each object's JSON as UTF-8 (and of its metadata's, for a Table's
// PartialObjectMetadata rows), so serving the same object to many readers never encodes it
// again (as the cacher's cachingObject keeps each object's serialization upstream). The
// object's JSON keeps apiVersion and kind first and metadata next, so the metadata's bytes
// are a slice of it rather than a second encoding.

import type { KubeObject } from '../api/types.js';
import { escapeHTML } from './jsontext.js';
import { tableCells, tableColumns, tableRowConditions, type IncludeObject } from './tables.js';

/**
 * An object with its JSON as UTF-8, computed when first asked for and then kept. Bytes, not a
 * string: a LIST copies them into its body as they are, where a string had to be encoded
 * again for every LIST (about 20 ms of a 5,000-pod LIST). Each object has a buffer of its
 * own size: the shared pool of Buffer.from would pin a whole slab for one live object.
 */
export class EncodedObject {
  #bytes?: Buffer;
  #metaStart = 0;
  #metaEnd = 0;

  constructor(readonly obj: KubeObject) {}

  bytes(): Buffer {
    if (this.#bytes === undefined) this.#encode();
    return this.#bytes!;
  }

  /** The UTF-8 of metadata (`{}` when absent), a view into bytes(). */
  metadataBytes(): Buffer {
    const b = this.bytes();
    return this.#metaEnd > this.#metaStart ? b.subarray(this.#metaStart, this.#metaEnd) : emptyObject;
  }

  #encode(): void {
    // Each part escaped as Go escapes (jsontext.ts) before the offsets are taken.
    const { apiVersion, kind, metadata, ...rest } = this.obj as KubeObject & Record<string, unknown>;
    let head = '{';
    if (apiVersion !== undefined) head += `"apiVersion":${escapeHTML(JSON.stringify(apiVersion))},`;
    if (kind !== undefined) head += `"kind":${escapeHTML(JSON.stringify(kind))},`;
    let metaAt = -1;
    let metaLength = 0;
    if (metadata !== undefined) {
      const meta = escapeHTML(JSON.stringify(metadata));
      head += '"metadata":';
      metaAt = head.length;
      metaLength = meta.length;
      head += `${meta},`;
    }
    const tail = escapeHTML(JSON.stringify(rest));
    // `tail` is `{...}`: its members follow the head's, or it closes an object that had none.
    const json = tail === '{}' ? (head.length > 1 ? `${head.slice(0, -1)}}` : '{}') : head + tail.slice(1);
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    bytes.write(json);
    if (metaAt >= 0) {
      // Offsets in UTF-16 units become byte offsets; most heads are ASCII, so this is usually a no-op.
      this.#metaStart = json.length === bytes.length ? metaAt : Buffer.byteLength(json.slice(0, metaAt));
      this.#metaEnd = json.length === bytes.length ? metaAt + metaLength : this.#metaStart + Buffer.byteLength(json.slice(metaAt, metaAt + metaLength));
    }
    this.#bytes = bytes;
  }
}

const emptyObject = Buffer.from('{}');

/** The size of a body's pieces, one write each. */
const pieceBytes = 64 * 1024;
/**
 * Pieces kept for the next body once a response has been written: at most this many (16 MiB).
 * A LIST of 5,000 pods is about 13 MiB: newly allocated pieces for each were counted by V8 as
 * external memory, and with the server's small heap growing factor (nodeflags.ts) each such
 * LIST started a full mark-compact of the heap, costing more than the LIST's own work.
 */
const keptPieces = 256;
const freePieces: Buffer[] = [];
/** The pool is emptied when no body has finished for this long: a LIST now and then keeps no memory. */
const keptPiecesMs = 5000;
let dropPieces: NodeJS.Timeout | undefined;

/** What a body is written from: strings (JSON text) and bytes (encoded objects). */
export interface BodySink {
  add(s: string): void;
  addBytes(b: Buffer): void;
}

/**
 * A response body built as pieces of pieceBytes (not one buffer: a list can be tens of MB).
 * Strings are encoded straight into the piece, never straddling two; bytes are copied and may.
 * The pieces come from, and go back to, a pool shared by all bodies: release() once the
 * response is written (its 'finish'), never while a write, or the deflate of a compressed
 * response (responsewriter.ts), may still read them.
 */
export class BodyWriter implements BodySink {
  readonly #pieces: Buffer[] = [];
  /** Whole pieces taken from the pool, to give back on release. */
  readonly #owned: Buffer[] = [];
  #buf: Buffer | undefined;
  #used = 0;

  add(s: string): void {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (s.length * 3 > pieceBytes - this.#used) {
      this.#flush();
      if (s.length * 3 > pieceBytes) {
        this.#pieces.push(Buffer.from(s));
        return;
      }
    }
    this.#used += (this.#buf ??= this.#take()).write(s, this.#used);
  }

  addBytes(b: Buffer): void {
    let at = 0;
    while (at < b.length) {
      if (this.#used === pieceBytes) this.#flush();
      const n = b.copy((this.#buf ??= this.#take()), this.#used, at);
      this.#used += n;
      at += n;
    }
  }

  /** The pieces, to be written in order. */
  done(): Buffer[] {
    this.#flush();
    return this.#pieces;
  }

  /** Gives the pieces back to the pool: the response that wrote them has finished. */
  release(): void {
    for (const p of this.#owned) if (freePieces.length < keptPieces) freePieces.push(p);
    this.#owned.length = 0;
    if (dropPieces) dropPieces.refresh();
    else {
      dropPieces = setTimeout(() => {
        freePieces.length = 0;
        dropPieces = undefined;
      }, keptPiecesMs);
      dropPieces.unref();
    }
  }

  #take(): Buffer {
    const p = freePieces.pop() ?? Buffer.allocUnsafeSlow(pieceBytes);
    this.#owned.push(p);
    return p;
  }

  #flush(): void {
    if (this.#used > 0) this.#pieces.push(this.#buf!.subarray(0, this.#used));
    this.#buf = undefined;
    this.#used = 0;
  }
}

/** A body's pieces as one Buffer-list sink, for small bodies built once (a watch event line). */
class Concat implements BodySink {
  readonly parts: Buffer[] = [];
  add(s: string): void {
    this.parts.push(Buffer.from(s));
  }
  addBytes(b: Buffer): void {
    this.parts.push(b);
  }
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
}

/** A response body's pieces, and the release of the pooled ones once the response is written. */
export interface Body {
  pieces: readonly Buffer[];
  release(): void;
}

function body(w: BodyWriter): Body {
  return { pieces: w.done(), release: () => w.release() };
}

/** `{apiVersion, kind: <Kind>List, metadata, items}` as the generic list handler sends it. */
export function encodeList(apiVersion: string, listKind: string, meta: ListMeta, items: readonly EncodedObject[]): Body {
  const w = new BodyWriter();
  w.add(`{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(listKind)},"metadata":${JSON.stringify(meta)},"items":[`);
  for (let i = 0; i < items.length; i++) {
    if (i) w.add(',');
    w.addBytes(items[i]!.bytes());
  }
  w.add(']}');
  return body(w);
}

/**
 * `{kind: PartialObjectMetadataList, apiVersion, metadata, items}` with each item's kind,
 * apiVersion and metadata only (asPartialObjectMetadataList), the metadata's bytes as kept.
 */
export function encodePartialList(apiVersion: string, meta: ListMeta, items: readonly EncodedObject[]): Body {
  const w = new BodyWriter();
  const v = JSON.stringify(apiVersion);
  w.add(`{"kind":"PartialObjectMetadataList","apiVersion":${v},"metadata":${JSON.stringify(meta)},"items":[`);
  for (let i = 0; i < items.length; i++) {
    w.add(`${i ? ',' : ''}{"kind":"PartialObjectMetadata","apiVersion":${v},"metadata":`);
    w.addBytes(items[i]!.metadataBytes());
    w.add('}');
  }
  w.add(']}');
  return body(w);
}

export interface TableOptions {
  include: IncludeObject;
  now: number;
  resourceVersion?: string;
  continue?: string;
  withColumns?: boolean;
  /** The Table's group version: meta.k8s.io/v1 unless the client asked for v1beta1. */
  apiVersion?: string;
}

/** One Table row: the printer's cells, its conditions if any, and the object as `include` asks (toTable's rowObject). */
function encodeRow(w: BodySink, resource: string, o: EncodedObject, opts: TableOptions): void {
  const conditions = tableRowConditions(resource, o.obj);
  const cells = escapeHTML(JSON.stringify(tableCells(resource, o.obj, opts.now))) + (conditions ? `,"conditions":${escapeHTML(JSON.stringify(conditions))}` : '');
  if (opts.include === 'None') return w.add(`{"cells":${cells}}`);
  if (opts.include === 'Object') {
    w.add(`{"cells":${cells},"object":`);
    w.addBytes(o.bytes());
    return w.add('}');
  }
  w.add(`{"cells":${cells},"object":{"kind":"PartialObjectMetadata","apiVersion":${JSON.stringify(opts.apiVersion ?? 'meta.k8s.io/v1')},"metadata":`);
  w.addBytes(o.metadataBytes());
  w.add('}}');
}

/** A Table's members before its rows, up to the rows' opening bracket. */
function tableHead(resource: string, opts: TableOptions): string {
  const meta: ListMeta = {};
  if (opts.resourceVersion !== undefined) meta.resourceVersion = opts.resourceVersion;
  if (opts.continue) meta.continue = opts.continue;
  const columns = opts.withColumns === false ? [] : tableColumns(resource);
  return `{"kind":"Table","apiVersion":${JSON.stringify(opts.apiVersion ?? 'meta.k8s.io/v1')},"metadata":${JSON.stringify(meta)},"columnDefinitions":${escapeHTML(JSON.stringify(columns))},"rows":[`;
}

/** What toTable returns, encoded from the objects' own JSON. */
export function encodeTable(resource: string, items: readonly EncodedObject[], opts: TableOptions): Body {
  const w = new BodyWriter();
  w.add(tableHead(resource, opts));
  for (let i = 0; i < items.length; i++) {
    if (i) w.add(',');
    encodeRow(w, resource, items[i]!, opts);
  }
  w.add(']}');
  return body(w);
}

/**
 * The lines of one watch event, made once per event for every watcher that sends the same
 * type in the same form (JSON, or a Table with the same includeObject).
 */
export class EventLines {
  readonly #lines = new Map<string, Buffer>();

  constructor(readonly object: EncodedObject) {}

  line(type: string, form: { resource: string; include: IncludeObject; apiVersion: string; now: () => number } | { partial: string } | undefined): Buffer {
    const key = form === undefined ? type : 'partial' in form ? `${type}|${form.partial}` : `${type}|${form.include}|${form.apiVersion}`;
    let b = this.#lines.get(key);
    if (!b) {
      const c = new Concat();
      c.add(`{"type":${JSON.stringify(type)},"object":`);
      if (form !== undefined && 'partial' in form) {
        c.add(`{"kind":"PartialObjectMetadata","apiVersion":${JSON.stringify(form.partial)},"metadata":`);
        c.addBytes(this.object.metadataBytes());
        c.add('}');
      } else if (form) {
        const table = form;
        // A one-row Table as encodeTable makes it; one buffer, not body pieces, for one line.
        const opts: TableOptions = { include: table.include, now: table.now(), withColumns: false, apiVersion: table.apiVersion };
        c.add(tableHead(table.resource, opts));
        encodeRow(c, table.resource, this.object, opts);
        c.add(']}');
      } else {
        c.addBytes(this.object.bytes());
      }
      c.add('}\n');
      b = Buffer.concat(c.parts);
      this.#lines.set(key, b);
    }
    return b;
  }
}
