// Response bodies built from objects encoded once: a list, a Table and a watch event line are
// concatenations of each object's JSON (and of its metadata's, for a Table's
// PartialObjectMetadata rows), so serving the same object to many readers never encodes it
// again. The object's JSON keeps apiVersion and kind first and metadata next, so the
// metadata's JSON is a slice of it rather than a second encoding.

import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../api/types.js';
import { tableCells, tableColumns, type IncludeObject } from './tables.js';

/** An object with its JSON, computed when first asked for and then kept. */
export class EncodedObject {
  #json?: string;
  #metaStart = 0;
  #metaEnd = 0;

  constructor(readonly obj: KubeObject) {}

  json(): string {
    if (this.#json === undefined) this.#encode();
    return this.#json!;
  }

  /** The JSON of metadata (`{}` when absent), a slice of json(). */
  metadataJSON(): string {
    if (this.#json === undefined) this.#encode();
    return this.#metaEnd > this.#metaStart ? this.#json!.slice(this.#metaStart, this.#metaEnd) : '{}';
  }

  #encode(): void {
    const { apiVersion, kind, metadata, ...rest } = this.obj as KubeObject & Record<string, unknown>;
    let head = '{';
    if (apiVersion !== undefined) head += `"apiVersion":${JSON.stringify(apiVersion)},`;
    if (kind !== undefined) head += `"kind":${JSON.stringify(kind)},`;
    let meta = '';
    if (metadata !== undefined) {
      meta = JSON.stringify(metadata);
      head += '"metadata":';
      this.#metaStart = head.length;
      this.#metaEnd = head.length + meta.length;
      head += `${meta},`;
    }
    const tail = JSON.stringify(rest);
    // `tail` is `{...}`: its members follow the head's, or it closes an object that had none.
    this.#json = tail === '{}' ? (head.length > 1 ? `${head.slice(0, -1)}}` : '{}') : head + tail.slice(1);
  }
}

/** The size of a body's pieces, one write each. */
const pieceBytes = 64 * 1024;

/**
 * Collects a response body as UTF-8 pieces of about pieceBytes (not one: a list can be tens of
 * MB). Each string is encoded straight into the piece, not joined into a larger string first and
 * encoded on write: a LIST of 5,000 pods made 10 MB of young-generation strings per request so,
 * and their scavenges were a tenth of its time. A string never straddles two pieces.
 */
export class BodyWriter {
  readonly pieces: Buffer[] = [];
  #buf = Buffer.allocUnsafeSlow(pieceBytes);
  #used = 0;

  add(s: string): void {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (s.length * 3 > this.#buf.length - this.#used) {
      this.#flush();
      if (s.length * 3 > this.#buf.length) {
        this.pieces.push(Buffer.from(s));
        return;
      }
    }
    this.#used += this.#buf.write(s, this.#used);
  }

  done(): Buffer[] {
    this.#flush();
    return this.pieces;
  }

  #flush(): void {
    if (this.#used === 0) return;
    this.pieces.push(this.#buf.subarray(0, this.#used));
    this.#buf = Buffer.allocUnsafeSlow(pieceBytes);
    this.#used = 0;
  }
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
}

/** `{apiVersion, kind: <Kind>List, metadata, items}` as the generic list handler sends it. */
export function encodeList(apiVersion: string, listKind: string, meta: ListMeta, items: readonly EncodedObject[]): Buffer[] {
  const w = new BodyWriter();
  w.add(`{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(listKind)},"metadata":${JSON.stringify(meta)},"items":[`);
  items.forEach((o, i) => {
    if (i) w.add(',');
    w.add(o.json());
  });
  w.add(']}');
  return w.done();
}

export interface TableOptions {
  include: IncludeObject;
  now: number;
  resourceVersion?: string;
  continue?: string;
  withColumns?: boolean;
}

/** One Table row: the printer's cells and the object as `include` asks (toTable's rowObject). */
function encodeRow(resource: string, o: EncodedObject, opts: TableOptions): string {
  const cells = JSON.stringify(tableCells(resource, o.obj, opts.now));
  if (opts.include === 'None') return `{"cells":${cells}}`;
  if (opts.include === 'Object') return `{"cells":${cells},"object":${o.json()}}`;
  return `{"cells":${cells},"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":${o.metadataJSON()}}}`;
}

/** A Table's members before its rows, up to the rows' opening bracket. */
function tableHead(resource: string, opts: TableOptions): string {
  const meta: ListMeta = {};
  if (opts.resourceVersion !== undefined) meta.resourceVersion = opts.resourceVersion;
  if (opts.continue) meta.continue = opts.continue;
  const columns = opts.withColumns === false ? [] : tableColumns(resource);
  return `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":${JSON.stringify(meta)},"columnDefinitions":${JSON.stringify(columns)},"rows":[`;
}

/** What toTable returns, encoded from the objects' own JSON. */
export function encodeTable(resource: string, items: readonly EncodedObject[], opts: TableOptions): Buffer[] {
  const w = new BodyWriter();
  w.add(tableHead(resource, opts));
  items.forEach((o, i) => {
    if (i) w.add(',');
    w.add(encodeRow(resource, o, opts));
  });
  w.add(']}');
  return w.done();
}

/**
 * The lines of one watch event, made once per event for every watcher that sends the same
 * type in the same form (JSON, or a Table with the same includeObject).
 */
export class EventLines {
  readonly #lines = new Map<string, Buffer>();

  constructor(readonly object: EncodedObject) {}

  line(type: string, table: { resource: string; include: IncludeObject; now: () => number } | undefined): Buffer {
    const key = table ? `${type}|${table.include}` : type;
    let b = this.#lines.get(key);
    if (!b) {
      // A one-row Table as encodeTable makes it, as one string: no body pieces for one line.
      const opts: TableOptions | undefined = table && { include: table.include, now: table.now(), withColumns: false };
      const payload = table ? `${tableHead(table.resource, opts!)}${encodeRow(table.resource, this.object, opts!)}]}` : this.object.json();
      b = Buffer.from(`{"type":${JSON.stringify(type)},"object":${payload}}\n`);
      this.#lines.set(key, b);
    }
    return b;
  }
}

/** A JSON response written as the pieces it was built in (Transfer-Encoding: chunked). */
export function sendPieces(res: ServerResponse, code: number, pieces: readonly Buffer[]): void {
  res.writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.cork();
  for (const p of pieces) res.write(p);
  // end() uncorks: the pieces go out in as few TLS records as they fit.
  res.end();
}
