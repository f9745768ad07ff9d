// The scheduling-gate rules of ValidatePodUpdate (pkg/apis/core/validation, v1.32): gates may
// only be removed (validateOnlyDeletedSchedulingGates), and while the old pod is gated its
// placement may be narrowed — nodeSelector entries added (validateNodeSelectorMutation), required
// node affinity set where there was none or its terms' requirements extended
// (validateNodeAffinityMutation). `munged` is the new spec with what these rules allow changed
// taken back from the old one, for the "pod updates may not change fields" comparison.

import { fieldError, GoSyntax, type FieldError, type FieldPath } from '../fielderrors.js';
import { stableJSON } from '../stablejson.js';
import type { NodeAffinity, NodeSelectorTerm, PodSchedulingGate, PodSpec } from '../types.js';

/** Go's Semantic.DeepEqual as far as JSON shows it: a nil slice or map equals an empty one. */
function semantic(v: unknown): string {
  if (Array.isArray(v)) return v.length ? `[${v.map(semantic).join(',')}]` : 'null';
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined && o[k] !== null && !(Array.isArray(o[k]) && (o[k] as unknown[]).length === 0)).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${semantic(o[k])}`).join(',')}}`;
  }
  return v === undefined ? 'null' : JSON.stringify(v);
}

function semanticMap(m: Record<string, string> | undefined | null): string {
  return m && Object.keys(m).length ? stableJSON(m) : 'null';
}

/** A bad value as json.Marshal renders it: struct fields and map keys in the order Go writes them (here both sorted). */
function jsonValue(v: unknown): GoSyntax {
  return new GoSyntax(v === undefined || v === null ? 'null' : stableJSON(v));
}

/** validateOnlyDeletedSchedulingGates: each gate the old list lacks, at its `name` (upstream in map order, here in list order). */
export function validateOnlyDeletedSchedulingGates(newGates: readonly PodSchedulingGate[] | undefined, oldGates: readonly PodSchedulingGate[] | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!newGates?.length) return errs;
  const old = new Set((oldGates ?? []).map((g) => g?.name));
  const added = new Map<string, number>();
  newGates.forEach((g, i) => added.set(g?.name ?? '', i));
  for (const [name, i] of added) {
    if (!old.has(name)) errs.push(fieldError.forbidden(path.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
  }
  return errs;
}

function termHasOnlyAdditions(next: NodeSelectorTerm, old: NodeSelectorTerm): boolean {
  const oldExprs = old.matchExpressions ?? [];
  const oldFields = old.matchFields ?? [];
  const newExprs = next?.matchExpressions ?? [];
  const newFields = next?.matchFields ?? [];
  // A term with no requirements matches nothing: giving it some would widen it.
  if (!oldExprs.length && !oldFields.length && (newExprs.length || newFields.length)) return false;
  if (oldExprs.length > newExprs.length || oldFields.length > newFields.length) return false;
  if (oldExprs.length && semantic(newExprs.slice(0, oldExprs.length)) !== semantic(oldExprs)) return false;
  if (oldFields.length && semantic(newFields.slice(0, oldFields.length)) !== semantic(oldFields)) return false;
  return true;
}

function validateNodeAffinityMutation(path: FieldPath, next: NodeAffinity | undefined, old: NodeAffinity | undefined, errs: FieldError[]): void {
  const oldRequired = old?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!oldRequired) return;
  const oldTerms = oldRequired.nodeSelectorTerms ?? [];
  const newTerms = next?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const termsPath = path.child('requiredDuringSchedulingIgnoredDuringExecution').child('nodeSelectorTerms');
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length) {
    errs.push(fieldError.invalid(termsPath, jsonValue(newTerms.length ? newTerms : null), 'no additions/deletions to non-empty NodeSelectorTerms list are allowed'));
    return;
  }
  oldTerms.forEach((t, i) => {
    if (!termHasOnlyAdditions(newTerms[i], t)) errs.push(fieldError.invalid(termsPath.index(i), jsonValue(newTerms[i]), 'only additions are allowed (no mutations or deletions)'));
  });
}

/**
 * The gate rules of a pod update, in upstream's order: the added gates, then, when the old pod is
 * gated, the nodeSelector and the node affinity. The caller compares `munged` with the old spec.
 */
export function validateSchedulingGatesUpdate(next: PodSpec, old: PodSpec, specPath: FieldPath): { errors: FieldError[]; munged: PodSpec } {
  const errors = validateOnlyDeletedSchedulingGates(next.schedulingGates, old.schedulingGates, specPath.child('schedulingGates'));
  const munged: PodSpec = { ...next };
  if (old.schedulingGates?.length) {
    if (semanticMap(next.nodeSelector) !== semanticMap(old.nodeSelector)) {
      const sel = next.nodeSelector ?? {};
      if (Object.entries(old.nodeSelector ?? {}).some(([k, v]) => sel[k] !== v)) {
        errors.push(fieldError.invalid(specPath.child('nodeSelector'), jsonValue(next.nodeSelector && Object.keys(next.nodeSelector).length ? next.nodeSelector : null), 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
      }
      setOrDelete(munged, 'nodeSelector', old.nodeSelector);
    }
    const oldNA = old.affinity?.nodeAffinity;
    const newNA = next.affinity?.nodeAffinity;
    if (semantic(oldNA) !== semantic(newNA)) {
      validateNodeAffinityMutation(specPath.child('affinity').child('nodeAffinity'), newNA, oldNA, errors);
      const affinity = next.affinity;
      if (!affinity) munged.affinity = { nodeAffinity: oldNA };
      else if (!old.affinity && !affinity.podAffinity && !affinity.podAntiAffinity) delete munged.affinity;
      else {
        munged.affinity = { ...affinity };
        setOrDelete(munged.affinity, 'nodeAffinity', oldNA);
      }
    }
  }
  // Removing gates is the one change of them allowed; additions were refused above.
  setOrDelete(munged, 'schedulingGates', old.schedulingGates);
  return { errors, munged };
}

function setOrDelete<T extends object, K extends keyof T>(o: T, k: K, v: T[K] | undefined): void {
  if (v === undefined) delete o[k];
  else o[k] = v;
}
