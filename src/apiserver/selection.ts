// ListOptions' selectors as the handler decodes them and the test of an object against them,
// shared by the store's LIST and WATCH paths and the watch cache.

import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, SelectorParseError, type FieldRequirement, type LabelRequirement } from '../api/selectors.js';
import type { KubeObject } from '../api/types.js';
import { convertFieldLabel, type ResourceDef } from './resources.js';
import { statusErrors } from './status.js';

export interface Selection {
  labels: LabelRequirement[];
  fields: FieldRequirement[];
}

/**
 * ListOptions as the handler decodes them: the label selector parsed first, then the field
 * selector, then each field label through the kind's conversion; every error a bare 400.
 */
export function selection(def: ResourceDef, opts: { labelSelector?: string; fieldSelector?: string }): Selection {
  let labels: LabelRequirement[];
  let fields: FieldRequirement[];
  try {
    labels = parseLabelSelector(opts.labelSelector ?? '');
    fields = parseFieldSelector(opts.fieldSelector ?? '');
  } catch (e) {
    if (e instanceof SelectorParseError) throw statusErrors.badRequest(e.message);
    throw e;
  }
  const converted = fields.map((f) => {
    const c = convertFieldLabel(def, f.field);
    if ('error' in c) throw statusErrors.badRequest(c.error);
    return { ...f, field: c.field };
  });
  return { labels, fields: converted };
}

export function selects(def: ResourceDef, s: Selection, obj: KubeObject): boolean {
  return matchesLabels(s.labels, obj.metadata?.labels) && (s.fields.length === 0 || matchesFields(s.fields, def.fields(obj)));
}
