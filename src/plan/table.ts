// The human form of a plan: per pod its QoS, verdict and pod cgroup; per container
// oom_score_adj, OOM kill mode and its source, memory and cpu cgroup values, rlimits; every
// refusal with its field paths; then quotas and the eviction order.

import { Quantity } from '../api/quantity.js';
import type { ContainerPlan } from './node.js';
import { describeOOMKillMode } from '../policy/oomkillmodestatus.js';
import type { PlanResult, PlanTail, PodPlan, Source } from './engine.js';

export function formatTable(rows: string[][], indent = ''): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((r) => indent + r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]! + 3))).join('').trimEnd());
}

export function formatSource(s: Source): string {
  return `${s.file}#${s.document}${s.item !== undefined ? `.items[${s.item}]` : ''}`;
}

function human(bytes: string): string {
  if (!/^\d+$/.test(bytes)) return bytes;
  const q = Quantity.fromInt(BigInt(bytes), 'BinarySI').toString();
  return q === bytes ? bytes : `${bytes} (${q})`;
}

function cgroupCell(files: Record<string, string>, prefix: string): string {
  const parts = Object.entries(files)
    .filter(([k]) => k.startsWith(prefix))
    .map(([k, v]) => `${k}=${k.startsWith('memory.') && k !== 'memory.oom.group' ? human(v) : v}`);
  return parts.length ? parts.join(' ') : '-';
}

function rlimitCell(c: ContainerPlan): string {
  if (c.rlimits.length === 0) return '-';
  return c.rlimits.map((r) => `${r.type.replace('RLIMIT_', '').toLowerCase()}=${r.soft}:${r.hard}`).join(' ');
}

export function podLines(p: PodPlan): string[] {
  const out: string[] = [];
  const verdict = p.admitted ? 'admitted' : 'REFUSED';
  const source = p.owner ? `${formatSource(p.source)} (${p.owner})` : formatSource(p.source);
  out.push(formatTable([[`${p.namespace}/${p.name}`, p.qosClass ?? '-', verdict, p.admitted ? p.podCgroup?.path ?? '' : '', source]])[0]!);
  // Only a pod with a class or a priority other than 0 says so: most have neither.
  if (p.admitted && (p.priorityClassName || (p.priority ?? 0) !== 0)) {
    out.push(`    priority: ${p.priority ?? 0}${p.priorityClassName ? ` (PriorityClass ${p.priorityClassName})` : ''}`);
  }
  if (p.admitted && p.runtimeClassName) {
    const overhead = Object.entries(p.overhead ?? {}).map(([k, v]) => `${k}=${v}`).join(' ');
    out.push(`    runtime class: ${p.runtimeClassName} (handler ${p.runtimeHandler ?? '?'})${overhead ? `, overhead ${overhead}` : ''}`);
  }
  if (p.podSecurityExempt === 'namespace') out.push(`    pod security: exempt (namespace ${p.namespace})`);
  if (p.podSecurityExempt === 'runtimeClass') out.push(`    pod security: exempt (runtime class ${p.object?.spec.runtimeClassName ?? ''})`);
  // A refused pod never reaches the node; -o json still carries what it would have become.
  if (p.admitted && p.containers && p.containers.length) {
    const rows = [['CONTAINER', 'KIND', 'OOM_SCORE_ADJ', 'OOM KILL MODE', 'MEMORY', 'CPU', 'RLIMITS (soft:hard)']];
    for (const c of p.containers) {
      rows.push([
        c.name,
        c.kind,
        c.onHost && c.onHost.oomScoreAdj !== c.oomScoreAdj ? `${c.oomScoreAdj} (host: ${c.onHost.oomScoreAdj})` : String(c.oomScoreAdj),
        describeOOMKillMode(c),
        cgroupCell(c.cgroup, 'memory.'),
        cgroupCell(c.cgroup, 'cpu.'),
        rlimitCell(c),
      ]);
    }
    out.push(...formatTable(rows, '    '));
    if (p.podCgroup) {
      const vals = Object.entries(p.podCgroup.values).map(([k, v]) => `${k}=${v}`).join(' ');
      const sandboxHost = p.sandbox?.onHost && p.sandbox.onHost.oomScoreAdj !== p.sandbox.oomScoreAdj ? ` (host: ${p.sandbox.onHost.oomScoreAdj})` : '';
      out.push(`    pod cgroup: ${vals || '(nothing written)'}; sandbox oom_score_adj ${p.sandbox?.oomScoreAdj}${sandboxHost}`);
    }
    for (const c of p.containers) for (const a of c.onHost?.adjustments ?? []) out.push(`    host: container "${c.name}": ${a}`);
  }
  // A decoding error is printed whole, as the API server words it; its error only adds where.
  const undecodable = p.rejections.some((r) => isDecodeRefusal(r.message));
  const listed = p.errors.length > 0 && !undecodable;
  for (const r of p.rejections) {
    // With field errors listed below, the headline alone avoids printing each error twice.
    const head = listed ? /^(.*? is invalid)/.exec(r.message)?.[1] ?? r.message : r.message;
    // A quota's refusal names the quota; one for the configuration's limitedResources says so.
    const by = r.limitedResources ? `${r.by} (limitedResources in --admission-control-config-file)` : r.by;
    out.push(`    refused by ${by}: ${head}${listed ? ':' : ''}`);
  }
  for (const e of p.errors) out.push(undecodable ? `      at ${e.field}` : `      ${e.field}: ${e.message}`);
  for (const w of p.warnings) out.push(`    warning: ${w}`);
  return out;
}

/** A refusal worded by the decoder (`Pod in version "v1" cannot be handled as a Pod: …`). */
function isDecodeRefusal(message: string): boolean {
  return /^\w+ in version "[^"]*" cannot be handled as a \w+: /.test(message);
}

export function renderPlanTable(result: PlanResult): string {
  const { pods, ...tail } = result;
  let out = '';
  for (const p of pods) out += renderPodLines(p);
  return out + renderPlanTableTail(tail, { pods: pods.length, admitted: pods.filter((p) => p.admitted).length });
}

/** One pod's lines and the blank line after them. */
export function renderPodLines(p: PodPlan): string {
  return podLines(p).join('\n') + '\n\n';
}

/** What follows the pods: refused objects, warnings, quotas, memory and the summary line. */
export function renderPlanTableTail(result: PlanTail, counts: { pods: number; admitted: number }): string {
  const out: string[] = [];
  for (const o of result.rejectedObjects) {
    out.push(`${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name} REFUSED (${formatSource(o.source)}): ${o.message}`);
    const undecodable = isDecodeRefusal(o.message);
    for (const e of o.errors) out.push(undecodable ? `    at ${e.field}` : `    ${e.field}: ${e.message}`);
    out.push('');
  }
  for (const w of result.objectWarnings ?? []) {
    out.push(`${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name} (${formatSource(w.source)}): warning: ${w.message}`, '');
  }
  if (result.quotas.length) {
    const rows = [['QUOTA', 'RESOURCE', 'USED', 'HARD']];
    for (const q of result.quotas) {
      for (const k of Object.keys(q.hard).sort()) rows.push([`${q.namespace}/${q.name}`, k, q.used[k] ?? '-', q.hard[k]!]);
    }
    out.push(...formatTable(rows), '');
  }
  if (result.memory) {
    const m = result.memory;
    out.push(`node memory: capacity ${human(m.capacityBytes)}, working set ${human(m.workingSetBytes)}, available ${human(m.availableBytes)}, eviction threshold ${human(m.thresholdBytes)}: ${m.memoryPressure ? 'MemoryPressure' : 'no pressure'}`);
  }
  if (result.evictionOrder) {
    out.push(`eviction order under memory pressure: ${result.evictionOrder.length ? result.evictionOrder.map((n, i) => `${i + 1}. ${n}`).join('  ') : '(no evictable pods)'}`, '');
  }
  const refused = counts.pods - counts.admitted;
  let summary = `${counts.pods} pod${counts.pods === 1 ? '' : 's'}: ${counts.admitted} admitted, ${refused} refused`;
  if (result.rejectedObjects.length) summary += `; ${result.rejectedObjects.length} other object${result.rejectedObjects.length === 1 ? '' : 's'} refused`;
  out.push(summary);
  return out.join('\n') + '\n';
}
