// Reads manifests the way `kubectl apply -f` takes them: files, directories (their .yaml, .yml
// and .json files; subdirectories with --recursive), or `-` for standard input; YAML
// multi-document streams and JSON; `List` kinds expanded into their items.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import * as yaml from 'js-yaml';
import { BoundedDecodeError, loadYAMLDocuments } from '../api/boundedyaml.js';
import { fileSource, stringSource, walkJSONManifest, type JSONShape, type TextSource } from './jsonlist.js';
import type { KubeObject } from '../api/types.js';
import type { PlanObject } from '../plan/engine.js';
import { plannedKinds } from '../plan/workloads.js';

export class ManifestError extends Error {}

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

export function expandPaths(paths: readonly string[], recursive: boolean): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push(p);
      continue;
    }
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new ManifestError(`the path "${p}" does not exist`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        const child = join(p, name);
        const cst = statSync(child);
        if (cst.isDirectory()) {
          if (recursive) out.push(...expandPaths([child], true));
        } else if (manifestExtensions.has(extname(name))) out.push(child);
      }
    } else out.push(p);
  }
  return out;
}

function describeYamlError(e: unknown): string {
  if (e instanceof yaml.YAMLException) {
    const m = e.mark;
    const where = m ? ` at line ${m.line + 1}, column ${m.column + 1}` : '';
    return `${e.reason}${where}`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Splits on document markers so that an error can name the document it is in. */
function documentsOf(text: string, file: string): unknown[] {
  try {
    return loadYAMLDocuments(text, file);
  } catch (e) {
    if (e instanceof BoundedDecodeError) throw new ManifestError(`${file}: document ${e.document + 1}: invalid YAML: ${e.message}`);
    const m = e instanceof yaml.YAMLException ? e.mark : undefined;
    let doc = 1;
    if (m) {
      const before = text.slice(0, m.position);
      doc = 1 + (before.match(/^---/gm)?.length ?? 0) - (text.startsWith('---') ? 1 : 0);
    }
    throw new ManifestError(`${file}: document ${Math.max(doc, 1)}: invalid YAML: ${describeYamlError(e)}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseManifests(text: string, file: string): PlanObject[] {
  return objectsOf(documentsOf(text, file), file);
}

function objectsOf(docs: readonly unknown[], file: string): PlanObject[] {
  const out: PlanObject[] = [];
  docs.forEach((doc, i) => {
    const document = i + 1;
    if (doc === null || doc === undefined) return;
    if (!isObject(doc)) throw new ManifestError(`${file}: document ${document}: expected an object with apiVersion and kind, got ${Array.isArray(doc) ? 'a list' : typeof doc}`);
    const kind = doc.kind;
    if (typeof kind !== 'string' || kind === '') throw new ManifestError(`${file}: document ${document}: Object 'Kind' is missing`);
    if (kind === 'List' || (kind.endsWith('List') && Array.isArray(doc.items))) {
      if (!Array.isArray(doc.items)) throw new ManifestError(`${file}: document ${document}: ${kind} has no items list`);
      doc.items.forEach((item, j) => {
        if (!isObject(item) || typeof item.kind !== 'string') {
          throw new ManifestError(`${file}: document ${document}: items[${j}]: Object 'Kind' is missing`);
        }
        out.push({ object: item as KubeObject, source: { file, document, item: j } });
      });
      return;
    }
    out.push({ object: doc as KubeObject, source: { file, document } });
  });
  return out;
}

/** The kinds plan understands, with the apiVersion each must carry. */
export const planKinds: Record<string, string> = {
  Pod: 'v1',
  Namespace: 'v1',
  ResourceQuota: 'v1',
  LimitRange: 'v1',
  PriorityClass: 'scheduling.k8s.io/v1',
  RuntimeClass: 'node.k8s.io/v1',
  ...Object.fromEntries(Object.entries(plannedKinds).map(([kind, k]) => [kind, k.apiVersion])),
};

export function checkKinds(objects: readonly PlanObject[]): void {
  for (const o of objects) {
    const why = kindError(o);
    if (why) throw new ManifestError(why);
  }
}

function kindError(o: PlanObject): string | undefined {
  const kind = o.object.kind!;
  const want = planKinds[kind];
  if (want && o.object.apiVersion === want) return undefined;
  const where = `${o.source.file}: document ${o.source.document}${o.source.item !== undefined ? `: items[${o.source.item}]` : ''}`;
  if (!want) return `${where}: unknown kind "${kind}" (plan understands ${Object.keys(planKinds).join(', ')} and List)`;
  return `${where}: no matches for kind "${kind}" in version "${o.object.apiVersion ?? ''}" (expected apiVersion "${want}")`;
}

/**
 * One input of a plan: a JSON List read item by item, or the objects of any other manifest. A
 * List of at most keepListBytes of items has all its items kept by the first pass (`all`),
 * which the second then takes instead of reading and parsing the file again.
 */
type Input = { file: string; list: TextSource; kept: PlanObject[]; all?: (PlanObject | undefined)[] } | { file: string; objects: PlanObject[] };

/** The items' text up to which the first pass keeps a List's parsed items (memory stays bounded beyond it). */
export const defaultKeepListBytes = 16 << 20;

/**
 * The manifests of a plan, read in two passes so that no pass holds more than one pod: `scan`
 * reads everything, as readManifests and checkKinds would, and throws their errors before
 * anything is planned; `each` then reads the objects again, in the same order. A JSON List
 * file is read from disk each time, item by item (standard input once, into memory); YAML
 * and other JSON manifests are decoded whole by the first pass and kept for the second.
 */
export class ManifestStream {
  private inputs: Input[] = [];

  constructor(
    private readonly paths: readonly string[],
    private readonly recursive: boolean,
    private readonly stdin: () => string,
    private readonly keepListBytes = defaultKeepListBytes,
  ) {}

  /** The first pass: every object but a List's pods to `visit` (when all parse and have known kinds), in input order. */
  scan(visit: (o: PlanObject) => void): void {
    for (const file of expandPaths(this.paths, this.recursive)) this.inputs.push(this.read(file));
    // Syntax first, then kinds, as readManifests and checkKinds report them.
    for (const input of this.inputs) {
      for (const o of 'objects' in input ? input.objects : input.kept) {
        const why = kindError(o);
        if (why) throw new ManifestError(why);
      }
    }
    for (const input of this.inputs) ('objects' in input ? input.objects : input.kept).forEach(visit);
  }

  /** The second pass: every object, in input order. */
  each(visit: (o: PlanObject) => void): void {
    for (const input of this.inputs) {
      if ('objects' in input) {
        input.objects.forEach(visit);
        continue;
      }
      if (input.all) {
        // Each item let go as soon as it is visited: the plan holds one pod at a time, as when read again.
        const all = input.all;
        input.all = undefined;
        for (let j = 0; j < all.length; j++) {
          const o = all[j]!;
          all[j] = undefined;
          visit(o);
        }
        continue;
      }
      const shape = walkJSONManifest(input.list, false, (item, j) => visit({ object: item as KubeObject, source: { file: input.file, document: 1, item: j } }));
      if (shape !== 'list') throw new ManifestError(`${input.file}: changed while it was read`);
    }
  }

  /** Reads a manifest as far as its errors show: a JSON List checked whole, keeping its objects other than pods. */
  private read(file: string): Input {
    const name = file === '-' ? '<stdin>' : file;
    const cannot = (e: unknown) => new ManifestError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    let text: string | undefined;
    const whole = (): string => {
      try {
        return (text ??= file === '-' ? this.stdin() : readFileSync(file, 'utf8'));
      } catch (e) {
        throw cannot(e);
      }
    };
    const source = file === '-' ? stringSource(whole()) : fileSource(file);
    // A List's items are kept for the second pass only when they fit in keepListBytes. A file's
    // size bounds its items' text (a UTF-8 byte per UTF-16 unit at least), so a regular file
    // larger than that is not kept from the start: keeping items up to the limit and then
    // dropping them held some 60,000 pods (30 MiB of heap) in the first pass of a 100,000-pod
    // List, most of the plan's peak RSS. Standard input and pipes, of unknown size, are counted.
    const knownSize = file === '-' ? whole().length : regularFileSize(file);
    // JSON: checked in full here (what is not plain JSON the YAML decoder words); each item must
    // be shaped as parseManifests requires. Of a List's items only the first pod (for its kind
    // error, should it have one) and the other kinds are kept: the pods are the second pass's.
    let shapeErr: string | undefined;
    const kept: PlanObject[] = [];
    let all: PlanObject[] | undefined = knownSize === undefined || knownSize <= this.keepListBytes ? [] : undefined;
    let allBytes = 0;
    let shape: JSONShape;
    try {
      if (firstChar(source) !== '{') return { file: name, objects: parseManifests(whole(), name) };
      let podKindErr = false;
      shape = walkJSONManifest(source, true, (item, j, bytes) => {
        if (!isObject(item) || typeof item.kind !== 'string') {
          shapeErr ??= `${name}: document 1: items[${j}]: Object 'Kind' is missing`;
          return;
        }
        const o: PlanObject = { object: item as KubeObject, source: { file: name, document: 1, item: j } };
        if (all) {
          allBytes += bytes;
          if (allBytes <= this.keepListBytes) all.push(o);
          else all = undefined;
        }
        if (item.kind !== 'Pod') kept.push(o);
        else if (!podKindErr && kindError(o)) {
          podKindErr = true;
          kept.push(o);
        }
      });
    } catch (e) {
      if (e instanceof ManifestError) throw e;
      throw cannot(e);
    }
    if (shape === 'yaml') return { file: name, objects: parseManifests(whole(), name) };
    if (shape === 'object') return { file: name, objects: objectsOf([JSON.parse(whole())], name) };
    if (shapeErr) throw new ManifestError(shapeErr);
    return { file: name, list: source, kept, ...(all ? { all } : {}) };
  }
}

/** The size of a regular file; undefined for anything else (a pipe, a device) or what cannot be read (the read says why). */
function regularFileSize(path: string): number | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : undefined;
  } catch {
    return undefined;
  }
}

/** The first character that is not JSON white space, or '' for none. */
function firstChar(source: TextSource): string {
  const it = source.chunks();
  try {
    for (let r = it.next(); !r.done; r = it.next()) {
      const m = /[^ \t\r\n]/.exec(r.value);
      if (m) return m[0];
    }
    return '';
  } finally {
    it.return?.();
  }
}
