// `bulkhead plan`'s output written as the plan is made, one pod at a time: the same bytes as
// rendering the whole result at the end (`-o json`: JSON.stringify(result, null, 2); `-o yaml`:
// js-yaml's dump of it; the table), without holding more than one pod's text.

import * as yaml from 'js-yaml';
import type { PlanResult, PlanTail, PodPlan } from '../plan/engine.js';
import { renderPlanTableTail, renderPodLines } from '../plan/table.js';
import { deepCopyJSON } from '../api/deepcopy.js';
import { podPlanJSON } from './planjson.js';

export interface PlanPrinter {
  /** The text of the next pod (and of what comes before the first). */
  pod(p: PodPlan): string;
  /** The text after the last pod. */
  tail(t: PlanTail): string;
}

const yamlOptions: yaml.DumpOptions = { noRefs: true, lineWidth: -1 };

function jsonPrinter(): PlanPrinter {
  let pods = 0;
  return {
    pod(p) {
      return `${pods++ === 0 ? '{\n  "pods": [\n    ' : ',\n    '}${podPlanJSON(p)}`;
    },
    tail(t) {
      // JSON.stringify of the rest, without its opening brace, follows the pods' array.
      return `${pods === 0 ? '{\n  "pods": [],\n' : '\n  ],\n'}${JSON.stringify(t, null, 2).slice(2)}\n`;
    },
  };
}

/** As js-yaml nests a sequence in a mapping: each element's lines indented by two, empty lines left empty. */
function yamlPrinter(): PlanPrinter {
  let pods = 0;
  return {
    pod(p) {
      const text = yaml.dump([deepCopyJSON(p)], yamlOptions).replace(/^(?=.)/gm, '  ');
      return `${pods++ === 0 ? 'pods:\n' : ''}${text}`;
    },
    tail(t) {
      return `${pods === 0 ? 'pods: []\n' : ''}${yaml.dump(deepCopyJSON(t), yamlOptions)}`;
    },
  };
}

function tablePrinter(): PlanPrinter {
  const counts = { pods: 0, admitted: 0 };
  return {
    pod(p) {
      counts.pods++;
      if (p.admitted) counts.admitted++;
      return renderPodLines(p);
    },
    tail: (t) => renderPlanTableTail(t, counts),
  };
}

export function planPrinter(output: string): PlanPrinter {
  if (output === 'json') return jsonPrinter();
  if (output === 'yaml') return yamlPrinter();
  return tablePrinter();
}

/** A whole result in one string (what the printer writes in pieces). */
export function renderPlan(r: PlanResult, output: string): string {
  const { pods, ...tail } = r;
  const printer = planPrinter(output);
  let out = '';
  for (const p of pods) out += printer.pod(p);
  return out + printer.tail(tail);
}
