// Reads manifests the way `kubectl apply -f` takes them: files, directories (their .yaml, .yml
// and .json files; subdirectories with --recursive), or `-` for standard input; YAML
// multi-document streams and JSON; `List` kinds expanded into their items.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import * as yaml from 'js-yaml';
import { BoundedDecodeError, loadYAMLDocuments } from '../api/boundedyaml.js';
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
  const out: PlanObject[] = [];
  const docs = documentsOf(text, file);
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

export function readManifests(paths: readonly string[], recursive: boolean, stdin: () => string): PlanObject[] {
  const out: PlanObject[] = [];
  for (const file of expandPaths(paths, recursive)) {
    let text: string;
    try {
      text = file === '-' ? stdin() : readFileSync(file, 'utf8');
    } catch (e) {
      throw new ManifestError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    out.push(...parseManifests(text, file === '-' ? '<stdin>' : file));
  }
  return out;
}

/** The kinds plan understands, with the apiVersion each must carry. */
export const planKinds: Record<string, string> = {
  Pod: 'v1',
  Namespace: 'v1',
  ResourceQuota: 'v1',
  LimitRange: 'v1',
  PriorityClass: 'scheduling.k8s.io/v1',
  ...Object.fromEntries(Object.entries(plannedKinds).map(([kind, k]) => [kind, k.apiVersion])),
};

export function checkKinds(objects: readonly PlanObject[]): void {
  for (const o of objects) {
    const where = `${o.source.file}: document ${o.source.document}${o.source.item !== undefined ? `: items[${o.source.item}]` : ''}`;
    const kind = o.object.kind!;
    const want = planKinds[kind];
    if (!want) {
      throw new ManifestError(`${where}: unknown kind "${kind}" (plan understands ${Object.keys(planKinds).join(', ')} and List)`);
    }
    if (o.object.apiVersion !== want) {
      throw new ManifestError(`${where}: no matches for kind "${kind}" in version "${o.object.apiVersion ?? ''}" (expected apiVersion "${want}")`);
    }
  }
}
