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

/**
 * Joins strings into pieces of about this many characters, one write each: small enough to be
 * young-generation garbage (V8 puts objects over 128 KiB straight into the old generation).
 */
const pieceChars = 32 * 1024;

/** Collects a response body as a few large strings (not one: a list can be tens of MB). */
export class BodyWriter {
  readonly pieces: string[] = [];
  #parts: string[] = [];
  #chars = 0;

  add(s: string): void {
    this.#parts.push(s);
    this.#chars += s.length;
    if (this.#chars >= pieceChars) this.#flush();
  }

  done(): string[] {
    this.#flush();
    return this.pieces;
  }

  #flush(): void {
    if (this.#parts.length) this.pieces.push(this.#parts.join(''));
    this.#parts = [];
    this.#chars = 0;
  }
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
}

/** `{apiVersion, kind: <Kind>List, metadata, items}` as the generic list handler sends it. */
export function encodeList(apiVersion: string, listKind: string, meta: ListMeta, items: readonly EncodedObject[]): string[] {
  const w = new BodyWriter();
  w.add(`{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(listKind)},"metadata":${JSON.stringify(meta)},"items":[`);
  items.forEach((o, i) => w.add(i ? `,${o.json()}` : o.json()));
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

/** What toTable returns, encoded from the objects' own JSON. */
export function encodeTable(resource: string, items: readonly EncodedObject[], opts: TableOptions): string[] {
  const w = new BodyWriter();
  const meta: ListMeta = {};
  if (opts.resourceVersion !== undefined) meta.resourceVersion = opts.resourceVersion;
  if (opts.continue) meta.continue = opts.continue;
  const columns = opts.withColumns === false ? [] : tableColumns(resource);
  w.add(`{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":${JSON.stringify(meta)},"columnDefinitions":${JSON.stringify(columns)},"rows":[`);
  items.forEach((o, i) => w.add(i ? `,${encodeRow(resource, o, opts)}` : encodeRow(resource, o, opts)));
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
      const payload = table ? encodeTable(table.resource, [this.object], { include: table.include, now: table.now(), withColumns: false }).join('') : this.object.json();
      b = Buffer.from(`{"type":${JSON.stringify(type)},"object":${payload}}\n`);
      this.#lines.set(key, b);
    }
    return b;
  }
}

/** A JSON response written as the pieces it was built in (Transfer-Encoding: chunked). */
export function sendPieces(res: ServerResponse, code: number, pieces: readonly string[]): void {
  res.writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.cork();
  for (const p of pieces) res.write(p);
  // end() uncorks: the pieces go out in as few TLS records as they fit.
  res.end();
}
