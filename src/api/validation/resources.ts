// Resource requirements (validateResourceRequirements and friends): container resources,
// pod-level spec.resources, spec.overhead, and the pod-level/container consistency rules.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import { aggregateContainerRequests } from '../podresources.js';
import { Quantity } from '../quantity.js';
import type { Container, Pod, PodSpec, ResourceList, ResourceRequirements } from '../types.js';
import { parseList, quantityAt, sortedKeys, validateResourceQuantityValue } from './quantities.js';
import {
  isHugePageResourceName,
  isOvercommitAllowed,
  validateContainerResourceName,
  validatePodResourceName,
} from './resourcenames.js';

/** A resource-name rule; appends what it finds to `errs`. */
type NameValidator = (name: string, path: FieldPath, errs: FieldError[]) => FieldError[];

// The validators below append to the list they are given (a new one when none is) and return it.

/** IsHugePageResourceValueDivisible: the value is a whole number of pages of the size in the name. */
function isHugePageValueDivisible(name: string, q: Quantity): boolean {
  const pageSize = Quantity.tryParse(name.slice('hugepages-'.length));
  if (!pageSize || pageSize.sign() <= 0 || pageSize.milliValue() % 1000n !== 0n) return false;
  return q.value() % pageSize.value() === 0n;
}

function validateHugePageValue(name: string, q: Quantity, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (isHugePageResourceName(name) && !isHugePageValueDivisible(name, q)) {
    errs.push(fieldError.invalid(path, q.toString(), `${q.toString()} is not positive integer multiple of ${name}`));
  }
  return errs;
}

/**
 * validateResourceClaimNames. Bulkhead pods have no spec.resourceClaims, so every named claim
 * is NotFound (with upstream's "which is empty" detail).
 */
function validateResourceClaimNames(claims: ResourceRequirements['claims'], path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!Array.isArray(claims)) return errs;
  const names = new Set<string>();
  claims.forEach((claim, i) => {
    const name = typeof claim?.name === 'string' ? claim.name : '';
    const request = typeof claim?.request === 'string' ? claim.request : '';
    if (name === '') {
      errs.push(fieldError.required(path.index(i)));
      return;
    }
    if (names.has(name)) {
      errs.push(fieldError.duplicate(path.index(i), name));
    } else {
      const key = request === '' ? name : `${name}/${request}`;
      if (names.has(key)) errs.push(fieldError.duplicate(path.index(i), key));
      else if (request === '') {
        for (const k of names) if (k.includes('/') && k.slice(0, k.indexOf('/')) === name) errs.push(fieldError.duplicate(path.index(i), name));
      }
      names.add(key);
    }
    errs.push({ ...fieldError.notFound(path.index(i), name), detail: 'must be one of the names in pod.spec.resourceClaims which is empty' });
  });
  return errs;
}

/** validateResourceRequirements with the given resource-name rule, at `path` (…resources). */
function validateResourceRequirements(req: ResourceRequirements | undefined, nameFn: NameValidator, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!req || typeof req !== 'object') return errs;
  const limitNames = sortedKeys(req.limits);
  const requestNames = sortedKeys(req.requests);
  const limPath = path.child('limits');
  // The parsed limits, by position in limitNames (undefined: did not parse).
  const limitValues: (Quantity | undefined)[] = [];
  let cpuOrMemory = false;
  let hugePages = false;

  for (const name of limitNames) {
    const p = limPath.key(name);
    nameFn(name, p, errs);
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    const q = quantityAt((req.limits as Record<string, unknown>)[name], p, errs);
    limitValues.push(q);
    if (q === undefined) continue;
    validateResourceQuantityValue(name, q, p, errs);
    validateHugePageValue(name, q, p, errs);
  }

  if (requestNames.length > 0) {
    const reqPath = path.child('requests');
    for (const name of requestNames) {
      const p = reqPath.key(name);
      nameFn(name, p, errs);
      if (isHugePageResourceName(name)) hugePages = true;
      if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
      const q = quantityAt((req.requests as Record<string, unknown>)[name], p, errs);
      if (q === undefined) continue;
      validateResourceQuantityValue(name, q, p, errs);
      const li = limitNames.indexOf(name);
      if (li >= 0) {
        const limit = limitValues[li];
        if (limit) {
          const c = q.cmp(limit);
          if (c !== 0 && !isOvercommitAllowed(name)) {
            errs.push(fieldError.invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${limit.toString()}`));
          } else if (c > 0) {
            errs.push(fieldError.invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${limit.toString()}`));
          }
        }
      } else if (!isOvercommitAllowed(name)) {
        errs.push(fieldError.required(limPath, 'Limit must be set for non overcommitable resources'));
      }
      validateHugePageValue(name, q, p, errs);
    }
  }

  if (!cpuOrMemory && hugePages) errs.push(fieldError.forbidden(path, 'HugePages require cpu or memory'));
  if (Array.isArray(req.claims)) validateResourceClaimNames(req.claims, path.child('claims'), errs);
  return errs;
}

/** ValidateContainerResourceRequirements at `…containers[i].resources`. */
export function validateContainerResources(req: ResourceRequirements | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  return validateResourceRequirements(req, validateContainerResourceName, path, errs);
}

/** validateOverhead: spec.overhead checked like container limits, at `spec.overhead.limits[<name>]`. */
export function validateOverhead(overhead: ResourceList | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (overhead === undefined || overhead === null) return errs;
  return validateResourceRequirements({ limits: overhead }, validateContainerResourceName, path, errs);
}

/** The pod with every unparseable container quantity left out, so the aggregation helpers cannot throw. */
function withParseableContainerResources(spec: PodSpec): Pod {
  const clean = (c: Container): Container => {
    const r = c?.resources;
    if (!r || typeof r !== 'object') return { ...c, resources: {} };
    const keep = (rl: unknown): ResourceList => {
      const out: ResourceList = {};
      for (const [k, q] of parseList(rl, () => FieldPath.root('x')).values) out[k] = q.toString();
      return out;
    };
    return { ...c, resources: { limits: keep(r.limits), requests: keep(r.requests) } };
  };
  return {
    metadata: {},
    spec: {
      ...spec,
      containers: Array.isArray(spec.containers) ? spec.containers.map(clean) : [],
      initContainers: Array.isArray(spec.initContainers) ? spec.initContainers.map(clean) : [],
    },
  };
}

/**
 * validatePodResourceConsistency: pod-level requests ≥ the aggregate of container requests
 * (a resource the pod does not request counts as 0), and each regular container's limit ≤ the
 * pod-level limit for that resource, reported at `spec.resources.containers[i][<res>].limits`.
 */
function validatePodResourceConsistency(spec: PodSpec, path: FieldPath, errs: FieldError[]): FieldError[] {
  const podRes = spec.resources ?? {};
  const podRequests = parseList(podRes.requests, () => path).values;
  const podLimits = parseList(podRes.limits, () => path).values;
  const podRequestNames = sortedKeys(podRes.requests);
  const reqPath = path.child('requests');
  const aggregate = aggregateContainerRequests(withParseableContainerResources(spec));
  for (const name of [...aggregate.keys()].sort()) {
    const ctr = aggregate.get(name)!;
    const present = podRequestNames.includes(name);
    const pod = podRequests.get(name);
    if (present && !pod) continue; // unparseable: already reported
    const podQ = pod ?? Quantity.zero();
    if (ctr.cmp(podQ) > 0) {
      errs.push(fieldError.invalid(reqPath.key(name), podQ.toString(), `must be greater than or equal to aggregate container requests of ${ctr.toString()}`));
    }
  }
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  containers.forEach((c, i) => {
    const limits = parseList(c?.resources?.limits, () => path).values;
    for (const [name, q] of limits) {
      const podLimit = podLimits.get(name);
      if (!podLimit) continue;
      if (q.cmp(podLimit) > 0) {
        errs.push(fieldError.invalid(path.child('containers').index(i).key(name).child('limits'), q.toString(), `must be less than or equal to pod limits of ${podLimit.toString()}`));
      }
    }
  });
  return errs;
}

/** validatePodResources (gate PodLevelResources): spec.resources names, values, claims and consistency. */
export function validatePodResources(spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const res = spec.resources;
  if (res === undefined || res === null) return errs;
  if (res.claims !== undefined && res.claims !== null) {
    errs.push(fieldError.forbidden(path.child('claims'), 'claims cannot be set for Resources at pod-level'));
  }
  validateResourceRequirements(res, validatePodResourceName, path, errs);
  validatePodResourceConsistency(spec, path, errs);
  return errs;
}
