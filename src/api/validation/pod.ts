// Pod validation (validatePodMetadataAndSpec, ValidatePodSpec, ValidatePodCreate) for the fields
// Bulkhead serves, with upstream's order of checks.

import type { FeatureGates } from '../featuregates.js';
import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import type { Container, Pod, PodSecurityContext, PodSpec } from '../types.js';
import {
  validateContainers,
  validateDNS1123Label,
  validateEphemeralContainers,
  validateImageWhitespace,
  validateInitContainers,
  type ContainerContext,
} from './container.js';
import { inclusiveRangeError, isValidUnixID, nameIsDNSSubdomain } from './names.js';
import { isNegativeErrorMsg, validateLabels, validateObjectMeta } from './objectmeta.js';
import { validateOverhead, validatePodResources } from './resources.js';
import { validateTolerations } from './tolerations.js';

export type PodValidationGates = Pick<FeatureGates, 'ContainerOOMKillMode' | 'ContainerUlimits' | 'PodLevelResources'>;

export interface PodValidationOptions {
  gates: PodValidationGates;
}

const maxInt32 = 2147483647;
const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];
/** validOS, sorted. */
export const validOSNames = ['linux', 'windows'];

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function list<T>(v: T[] | undefined): T[] {
  return Array.isArray(v) ? v : [];
}

function validateEnum(value: unknown, allowed: string[], path: FieldPath): FieldError[] {
  if (value === undefined || value === null) return []; // defaulted by the API server
  const v = str(value);
  if (v === '') return [fieldError.required(path)];
  return allowed.includes(v) ? [] : [fieldError.notSupported(path, v, allowed)];
}

function validateDNSSubdomainField(value: unknown, path: FieldPath): FieldError[] {
  const v = str(value);
  if (v.length === 0) return [];
  return nameIsDNSSubdomain(v, false).map((m) => fieldError.invalid(path, v, m));
}

/** validateOS: `spec.os.name: Required value: cannot be empty`, or `spec.os: Unsupported value: "…"`. */
function validateOS(spec: PodSpec, path: FieldPath): FieldError[] {
  const os = spec.os;
  if (os === undefined || os === null) return [];
  const name = str(os.name);
  if (name.length === 0) return [fieldError.required(path.child('name'), 'cannot be empty')];
  return validOSNames.includes(name) ? [] : [fieldError.notSupported(path, name, validOSNames)];
}

/** validatePodHostNetworkDeps: with hostNetwork a container's hostPort must equal its containerPort. */
function validateHostNetworkPorts(spec: PodSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.hostNetwork !== true) return errs;
  list(spec.containers).forEach((c, i) => {
    list(c?.ports).forEach((port, j) => {
      const hp = port?.hostPort ?? 0;
      const cp = port?.containerPort ?? 0;
      if (hp !== cp) {
        errs.push(fieldError.invalid(path.child('containers').index(i).child('ports').index(j).child('hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

function validatePodSecurityContext(sc: PodSecurityContext | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!sc || typeof sc !== 'object') return errs;
  for (const f of ['fsGroup', 'runAsUser', 'runAsGroup'] as const) {
    const v = sc[f];
    if (typeof v === 'number') for (const m of isValidUnixID(v)) errs.push(fieldError.invalid(path.child(f), v, m));
  }
  list(sc.supplementalGroups).forEach((g, i) => {
    if (typeof g === 'number') for (const m of isValidUnixID(g)) errs.push(fieldError.invalid(path.child('supplementalGroups').index(i), g, m));
  });
  return errs;
}

/**
 * ValidatePodSpec. Beyond upstream: terminationGracePeriodSeconds must not be negative
 * (upstream turns a negative value into 1 instead); an absent one is left to defaulting.
 */
export function validatePodSpec(spec: PodSpec | undefined, opts: PodValidationOptions, path = FieldPath.root('spec')): FieldError[] {
  const errs: FieldError[] = [];
  const s: PodSpec = spec && typeof spec === 'object' ? spec : ({ containers: [] } as PodSpec);
  const ctx: ContainerContext = {
    gates: opts.gates,
    windows: s.os?.name === 'windows',
    hostUsers: s.hostUsers !== false,
    terminationGracePeriodSeconds: typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : undefined,
  };

  const grace = s.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) {
    errs.push(fieldError.invalid(path.child('terminationGracePeriodSeconds'), grace, isNegativeErrorMsg));
  }

  errs.push(...validateContainers(s.containers, path.child('containers'), ctx));
  errs.push(...validateInitContainers(s.initContainers, s.containers, path.child('initContainers'), ctx));
  errs.push(...validateEphemeralContainers(s.ephemeralContainers, s.containers, s.initContainers, path.child('ephemeralContainers'), ctx));
  if (opts.gates.PodLevelResources) errs.push(...validatePodResources(s, path.child('resources')));

  errs.push(...validateHostNetworkPorts(s, path));
  errs.push(...validateEnum(s.restartPolicy, restartPolicies, path.child('restartPolicy')));
  errs.push(...validateEnum(s.dnsPolicy, dnsPolicies, path.child('dnsPolicy')));
  errs.push(...validateLabels(s.nodeSelector, path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(s.securityContext, path.child('securityContext')));
  errs.push(...validateDNSSubdomainField(s.serviceAccountName, path.child('serviceAccountName')));
  errs.push(...validateDNSSubdomainField(s.nodeName, path.child('nodeName')));

  if (s.activeDeadlineSeconds !== undefined && s.activeDeadlineSeconds !== null) {
    const v = s.activeDeadlineSeconds;
    if (typeof v !== 'number' || v < 1 || v > maxInt32) {
      errs.push(fieldError.invalid(path.child('activeDeadlineSeconds'), v, inclusiveRangeError(1, maxInt32)));
    }
  }
  if (str(s.hostname).length > 0) errs.push(...validateDNS1123Label(str(s.hostname), path.child('hostname')));
  if (str(s.subdomain).length > 0) errs.push(...validateDNS1123Label(str(s.subdomain), path.child('subdomain')));
  errs.push(...validateTolerations(s.tolerations, path.child('tolerations')));
  errs.push(...validateDNSSubdomainField(s.priorityClassName, path.child('priorityClassName')));
  if (s.runtimeClassName !== undefined && s.runtimeClassName !== null) {
    const v = str(s.runtimeClassName);
    errs.push(...nameIsDNSSubdomain(v, false).map((m) => fieldError.invalid(path.child('runtimeClassName'), v, m)));
  }
  errs.push(...validateEnum(s.preemptionPolicy, preemptionPolicies, path.child('preemptionPolicy')));
  errs.push(...validateOverhead(s.overhead, path.child('overhead')));
  errs.push(...validateOS(s, path.child('os')));
  return errs;
}

/** validatePodMetadataAndSpec: metadata, spec, then the pod-only image whitespace rule. */
export function validatePod(pod: Pod, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMeta(pod?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const specPath = FieldPath.root('spec');
  errs.push(...validatePodSpec(pod?.spec, opts, specPath));
  const spec = pod?.spec;
  const check = (cs: Container[] | undefined, p: FieldPath) => list(cs).forEach((c, i) => errs.push(...validateImageWhitespace(c, p.index(i))));
  check(spec?.containers, specPath.child('containers'));
  check(spec?.initContainers, specPath.child('initContainers'));
  return errs;
}

/** ValidatePodCreate: ephemeral containers can only be added later (ephemeralcontainers subresource). */
export function validatePodCreate(pod: Pod, opts: PodValidationOptions): FieldError[] {
  const errs = validatePod(pod, opts);
  if (list(pod?.spec?.ephemeralContainers).length > 0) {
    errs.push(fieldError.forbidden(FieldPath.root('spec').child('ephemeralContainers'), 'cannot be set on create'));
  }
  return errs;
}
