// The downward API selectors env and volumes share (pkg/apis/core/validation/validation.go):
// validateObjectFieldSelector (a fieldRef, through pods.ConvertDownwardAPIFieldLabel),
// validateContainerResourceFieldSelector and validateContainerResourceDivisor. Each caller passes
// its own allow-list of field paths; a volume file also needs a containerName.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import { isQualifiedName } from './names.js';
import { quantityAt } from './quantities.js';

type Obj = Record<string, unknown>;

/** validEnvDownwardAPIFieldPathExpressions, sorted as sets.List gives them. */
export const envFieldPaths = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
/** validVolumeDownwardAPIFieldPathExpressions, sorted. */
export const volumeFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
/** validContainerResourceFieldPathExpressions, sorted. */
export const resourceFieldPaths = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const hugePagesResourcePrefixes = ['limits.hugepages-', 'requests.hugepages-'];
/** The labels pods.ConvertDownwardAPIFieldLabel accepts for v1 (v1.32; spec.host is the old name of spec.nodeName). */
const convertibleFieldLabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.restartPolicy',
  'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
]);
const cpuDivisors = new Set(['1m', '1']);
const byteDivisors = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const byteDivisorList = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** fieldpath.SplitMaybeSubscriptedPath: "metadata.labels['k']" → ["metadata.labels", "k"]. */
function splitSubscriptedPath(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

/**
 * validateObjectFieldSelector against `allowed`. An absent apiVersion is left to defaulting
 * ("v1"); an explicit "" is Required, as upstream.
 */
export function validateObjectFieldSelector(fs: Obj, allowed: readonly string[], path: FieldPath, errs: FieldError[]): FieldError[] {
  const apiVersion = fs.apiVersion === undefined || fs.apiVersion === null ? 'v1' : str(fs.apiVersion);
  if (apiVersion.length === 0) {
    errs.push(fieldError.required(path.child('apiVersion')));
    return errs;
  }
  const fieldPath = str(fs.fieldPath);
  if (fieldPath.length === 0) {
    errs.push(fieldError.required(path.child('fieldPath')));
    return errs;
  }
  // pods.ConvertDownwardAPIFieldLabel
  const sub = splitSubscriptedPath(fieldPath);
  let convertErr: string | undefined;
  if (apiVersion !== 'v1') convertErr = `unsupported pod version: ${apiVersion}`;
  else if (sub && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') convertErr = `field label does not support subscript: ${fieldPath}`;
  else if (!sub && !convertibleFieldLabels.has(fieldPath) && fieldPath !== 'spec.host') convertErr = `field label not supported: ${fieldPath}`;
  if (convertErr !== undefined) {
    errs.push(fieldError.invalid(path.child('fieldPath'), fieldPath, `error converting fieldPath: ${convertErr}`));
    return errs;
  }
  if (sub) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    for (const m of isQualifiedName(key)) errs.push(fieldError.invalid(path, key, m));
    return errs;
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  if (!allowed.includes(internal)) errs.push(fieldError.notSupported(path.child('fieldPath'), internal, allowed));
  return errs;
}

/** validateContainerResourceDivisor: an unset or zero divisor is not checked. */
function validateResourceDivisor(resource: string, raw: unknown, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (raw === undefined || raw === null) return errs;
  const q = quantityAt(raw, path.child('divisor'), errs);
  if (q === undefined || q.sign() === 0) return errs;
  const d = q.toString();
  const bad = (what: string) => errs.push(fieldError.invalid(path.child('divisor'), resource, `only divisor's values ${what}`));
  if (resource === 'limits.cpu' || resource === 'requests.cpu') {
    if (!cpuDivisors.has(d)) bad('1m and 1 are supported with the cpu resource');
  } else if (resource === 'limits.memory' || resource === 'requests.memory') {
    if (!byteDivisors.has(d)) bad(`${byteDivisorList} are supported with the memory resource`);
  } else if (resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') {
    if (!byteDivisors.has(d)) bad(`${byteDivisorList} are supported with the local ephemeral storage resource`);
  }
  if (hugePagesResourcePrefixes.some((p) => resource.startsWith(p)) && !byteDivisors.has(d)) {
    bad(`${byteDivisorList} are supported with the hugepages resource`);
  }
  return errs;
}

/** validateContainerResourceFieldSelector; `volume`: a volume file, whose containerName is required. */
export function validateResourceFieldSelector(fs: Obj, volume: boolean, path: FieldPath, errs: FieldError[]): FieldError[] {
  const resource = str(fs.resource);
  if (volume && str(fs.containerName).length === 0) errs.push(fieldError.required(path.child('containerName')));
  else if (resource.length === 0) errs.push(fieldError.required(path.child('resource')));
  else if (!resourceFieldPaths.includes(resource) && !hugePagesResourcePrefixes.some((p) => resource.startsWith(p))) {
    errs.push(fieldError.notSupported(path.child('resource'), resource, resourceFieldPaths));
  }
  return validateResourceDivisor(resource, fs.divisor, path, errs);
}
