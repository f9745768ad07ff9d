// A pod's plan as JSON.stringify(result, null, 2) writes it inside `-o json`'s pods array, for
// the pods `bulkhead plan` planned from its memory (plan/podmemo.ts) from the text of the first
// of them: such pods share everything with the pod they were planned from but their name, UID,
// source and quota decision, and printing the rest again for each replica would cost more than
// planning it.
//
// A template is the text of a pod's plan with a marker in each of those places, cut at the
// markers; a pod is its template with its own values put back. A template is kept only when it
// gives back exactly the text JSON.stringify writes for the pod it was made from; any other pod is
// printed by JSON.stringify.

import { randomBytes } from 'node:crypto';
import { plannedFromMemory } from '../plan/podmemo.js';
import type { PodPlan } from '../plan/engine.js';

/** What a pod of a template puts in one of its places. */
type Slot = (p: PodPlan, indent: string) => string;

const slots: Record<string, Slot> = {
  name: (p) => JSON.stringify(p.name),
  owner: (p) => JSON.stringify(p.owner),
  source: (p, indent) => sourceJSON(p.source as unknown as Record<string, unknown>, indent),
  path: (p) => JSON.stringify(p.podCgroup!.path),
  podName: (p) => JSON.stringify(p.object!.metadata.name),
  uid: (p) => JSON.stringify(p.object!.metadata.uid),
  message: (p) => JSON.stringify(p.rejections[0]!.message),
};

/** The last string value written, and its JSON: a plan's pods mostly come from one file. */
let lastString = '';
let lastStringJSON = '""';

/** A source ({file, document, item}) as JSON.stringify(source, null, 2) writes it on a line indented by `indent`. */
function sourceJSON(source: Record<string, unknown>, indent: string): string {
  let out = '';
  for (const k of Object.keys(source)) {
    const v = source[k];
    if (v === undefined) continue;
    let text: string;
    if (typeof v === 'string') {
      if (v !== lastString) [lastString, lastStringJSON] = [v, JSON.stringify(v)];
      text = lastStringJSON;
    } else if (typeof v === 'object' && v !== null) text = JSON.stringify(v, null, 2).replaceAll('\n', `\n${indent}  `);
    else text = JSON.stringify(v);
    out += `${out === '' ? '{' : ','}\n${indent}  ${JSON.stringify(k)}: ${text}`;
  }
  return out === '' ? '{}' : `${out}\n${indent}}`;
}

interface Template {
  /** The text between the places: one more than `fill`. */
  parts: string[];
  fill: Slot[];
  /** The indentation of the line each place is on. */
  indents: string[];
}

/** Markers no pod's text holds: a control character (which JSON escapes) and a random word. */
const token = `\u0001${randomBytes(6).toString('hex')}`;
const marker = (slot: string) => `${token}:${slot}`;
const markerText = (slot: string) => JSON.stringify(marker(slot));

// The pods array's elements are at column 4 of the whole result: a pod is stringified where it
// stands, in a one-pod result, and cut out of it (faster than indenting).
const podPrefix = '{\n  "pods": [\n    '.length;
const podSuffix = '\n  ]\n}'.length;

/** The pods array's element as JSON.stringify of the whole result writes it. */
function stringified(p: PodPlan): string {
  return JSON.stringify({ pods: [p] }, null, 2).slice(podPrefix, -podSuffix);
}

/** `p` with a marker in each place a pod of its template has its own value; the places it has. */
function marked(p: PodPlan): { probe: PodPlan; places: string[] } {
  const places = ['name', 'source'];
  const probe: PodPlan = { ...p, name: marker('name'), source: marker('source') as unknown as PodPlan['source'] };
  if (p.owner !== undefined) {
    probe.owner = marker('owner');
    places.push('owner');
  }
  if (p.podCgroup) {
    probe.podCgroup = { ...p.podCgroup, path: marker('path') };
    places.push('path');
  }
  if (p.object) {
    const metadata = { ...p.object.metadata, uid: marker('uid') };
    places.push('uid');
    if (metadata.name !== undefined) {
      metadata.name = marker('podName');
      places.push('podName');
    }
    probe.object = { ...p.object, metadata };
  }
  if (p.rejections.length > 0) {
    probe.rejections = [{ ...p.rejections[0]!, message: marker('message') }, ...p.rejections.slice(1)];
    places.push('message');
  }
  return { probe, places };
}

function makeTemplate(p: PodPlan): Template | undefined {
  const { probe, places } = marked(p);
  const text = stringified(probe);
  const found = places.map((slot) => ({ slot, at: text.indexOf(markerText(slot)) }));
  if (found.some((f) => f.at < 0)) return undefined;
  found.sort((a, b) => a.at - b.at);
  const t: Template = { parts: [], fill: [], indents: [] };
  let from = 0;
  for (const { slot, at } of found) {
    t.parts.push(text.slice(from, at));
    t.fill.push(slots[slot]!);
    const lineStart = text.lastIndexOf('\n', at) + 1;
    t.indents.push(/^ */.exec(text.slice(lineStart, at))![0]);
    from = at + markerText(slot).length;
  }
  t.parts.push(text.slice(from));
  // Kept only when it gives back the pod it was made from exactly.
  return render(t, p) === stringified(p) ? t : undefined;
}

function render(t: Template, p: PodPlan): string {
  let out = t.parts[0]!;
  for (let i = 0; i < t.fill.length; i++) out += t.fill[i]!(p, t.indents[i]!) + t.parts[i + 1]!;
  return out;
}

/** Templates by the remembered outcome a pod was planned from, and by what else shapes its text. */
const templates = new WeakMap<object, Map<string, Template | null>>();

/** What, besides the outcome, decides which members a pod's plan has. */
function variant(p: PodPlan): string {
  const r = p.rejections[0];
  return `${p.admitted ? 'admitted' : `${r?.by}:${r?.limitedResources ? 'limited' : ''}:${p.rejections.length}`}/${p.owner !== undefined}/${p.object?.metadata.name !== undefined}/${p.podCgroup !== undefined}`;
}

/** How many pods were printed from a template (the tests check that templates are used, not only that the output is right). */
export const planJSONStats = { fromTemplate: 0 };

/** A pod's plan as an element of the pods array (at column 4), as JSON.stringify of the whole result writes it. */
export function podPlanJSON(p: PodPlan): string {
  const from = p[plannedFromMemory];
  if (from === undefined) return stringified(p);
  let byVariant = templates.get(from);
  if (byVariant === undefined) templates.set(from, (byVariant = new Map()));
  const v = variant(p);
  let t = byVariant.get(v);
  if (t === undefined) byVariant.set(v, (t = makeTemplate(p) ?? null));
  if (t === null) return stringified(p);
  planJSONStats.fromTemplate++;
  return render(t, p);
}
