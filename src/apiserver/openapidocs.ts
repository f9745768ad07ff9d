// The OpenAPI documents of the resources the server serves (resources.ts, the one list that
// discovery reads too): the v3 documents and their index, and the v2 document as JSON and as
// gnostic protobuf, each with kube-openapi's ETag (the upper-case hex SHA-512 of the JSON bytes,
// pkg/handler and pkg/handler3). Registering a resource in resources.ts puts it in all of them.

import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { openAPIBundle, swaggerDocument, type ServedResource } from '../api/schema/index.js';
import { openAPIv2Protobuf } from './openapiv2proto.js';
import { resources, type ResourceDef } from './resources.js';

/** One encoding of a document as served: the bytes, their gzip, and the ETag of the document. */
export interface ServedBytes {
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly etag: string;
}

export interface OpenAPIDocs {
  /** The /openapi/v3 index (JSON). */
  readonly v3Index: ServedBytes;
  /** /openapi/v3/<gv> documents by group-version path (api/v1, apis/<group>/<version>). */
  readonly v3: ReadonlyMap<string, ServedBytes>;
  readonly v2JSON: ServedBytes;
  readonly v2Protobuf: ServedBytes;
  /** When the documents were built: the Last-Modified of every response. */
  readonly lastModified: Date;
}

/** The OpenAPI view of a served resource. */
export function servedResource(def: ResourceDef): ServedResource {
  return {
    group: def.group,
    version: def.version,
    resource: def.resource,
    kind: def.kind,
    namespaced: def.namespaced,
    subresources: def.subresources.map((s) => s.name),
    verbs: def.verbs,
    listKind: def.listKind,
  };
}

/** The OpenAPI view of every served resource. */
export function servedResources(defs: readonly ResourceDef[] = resources): ServedResource[] {
  return defs.map(servedResource);
}

export function sha512Hex(data: Buffer | string): string {
  return createHash('sha512').update(data).digest('hex').toUpperCase();
}

function bytes(body: Buffer, etag: string): ServedBytes {
  return { body, gzip: gzipSync(body), etag };
}

let served: OpenAPIDocs | undefined;

/** The documents of the served resources, built on first use: they only change with the code (~0.5 s to build). */
export function openAPIDocs(): OpenAPIDocs {
  served ??= buildOpenAPIDocs();
  return served;
}

/** Builds every document of these resources. */
export function buildOpenAPIDocs(defs: readonly ResourceDef[] = resources, now = new Date()): OpenAPIDocs {
  const bundle = openAPIBundle(servedResources(defs));
  const v3 = new Map<string, ServedBytes>();
  for (const [gv, { doc, hash }] of Object.entries(bundle.documents)) v3.set(gv, bytes(Buffer.from(JSON.stringify(doc)), hash));
  const index = Buffer.from(JSON.stringify(bundle.index));
  const v2 = Buffer.from(JSON.stringify(swaggerDocument(bundle.documents)));
  const v2etag = sha512Hex(v2);
  return {
    v3Index: bytes(index, sha512Hex(index)),
    v3,
    v2JSON: bytes(v2, v2etag),
    v2Protobuf: bytes(openAPIv2Protobuf(JSON.parse(v2.toString()) as Parameters<typeof openAPIv2Protobuf>[0]), v2etag),
    lastModified: now,
  };
}
