// Pod validation (validatePodMetadataAndSpec, ValidatePodSpec, ValidatePodCreate) for the fields
// Bulkhead serves, with upstream's order of checks.

import type { FeatureGates } from '../featuregates.js';
import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import type { Container, HostAlias, Pod, PodDNSConfig, PodSpec } from '../types.js';
import { hasInvalidAffinityTermSelector, validateAffinity } from './affinity.js';
import { validateAppArmorAnnotationsAndFieldsMatchOnCreate } from './apparmor.js';
import {
  validateContainers,
  validateDNS1123Label,
  validateEphemeralContainers,
  validateImageWhitespace,
  validateInitContainers,
  type ContainerContext,
} from './container.js';
import { goStrings, goValue } from './gosyntax.js';
import { validateHostUsers } from './hostusers.js';
import { validateImagePullSecrets } from './imagepullsecrets.js';
import { byteLength, inclusiveRangeError, isDNS1123Subdomain, nameIsDNSSubdomain, validateIP } from './names.js';
import { isNegativeErrorMsg, validateLabels, validateObjectMeta, type ObjectMetaOptions } from './objectmeta.js';
import { validateOSFields, validOSNames } from './osfields.js';
import { validatePodSpecificAnnotations } from './podannotations.js';
import { validatePodSpecSecurityContext } from './podsecuritycontext.js';
import { validateReadinessGates } from './readinessgates.js';
import { validateOverhead, validatePodResources } from './resources.js';
import { validateSchedulingGates, validateSchedulingGatesOnCreate } from './schedulinggates.js';
import { validateSeccompAnnotationsAndFields } from './seccomp.js';
import { validateTolerations } from './tolerations.js';
import { hasInvalidTopologySpreadSelector, validateTopologySpreadConstraints } from './topologyspread.js';
import { validateVolumes, type VolumeMap } from './volumes.js';
import { validateWindowsHostProcessPod } from './windowsoptions.js';

export { validOSNames };

/** InPlacePodVerticalScaling may be left out: absent is off, its v1.32 default. */
export type PodValidationGates = Pick<FeatureGates, 'ContainerOOMKillMode' | 'ContainerUlimits' | 'PodLevelResources'> &
  Partial<Pick<FeatureGates, 'InPlacePodVerticalScaling'>>;

export interface PodValidationOptions {
  gates: PodValidationGates;
  /**
   * AllowInvalidLabelValueInSelector: pod (anti-)affinity selectors are not held to label-value
   * rules. Absent (false) on create; on update, true when the old spec already broke them
   * (podSelectorOptionsForUpdate), as upstream's GetValidationOptionsFromPodSpecAndMeta.
   */
  allowInvalidLabelValueInSelector?: boolean;
  /** AllowInvalidTopologySpreadConstraintLabelSelector: likewise, and the selectors are then not validated at all. */
  allowInvalidTopologySpreadConstraintLabelSelector?: boolean;
  /** AllowInvalidPodDeletionCost: an update of a pod whose stored pod-deletion-cost is already invalid. */
  allowInvalidPodDeletionCost?: boolean;
}

/** The options of an update whose old spec is `old`: what the old spec got away with, the new may keep. */
export function podSelectorOptionsForUpdate(opts: PodValidationOptions, old: PodSpec | null | undefined): PodValidationOptions {
  if (!old || typeof old !== 'object') return opts;
  const affinity = hasInvalidAffinityTermSelector(old.affinity);
  const spread = hasInvalidTopologySpreadSelector(old.topologySpreadConstraints);
  if (!affinity && !spread) return opts;
  return {
    ...opts,
    allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector || affinity,
    allowInvalidTopologySpreadConstraintLabelSelector: opts.allowInvalidTopologySpreadConstraintLabelSelector || spread,
  };
}

const maxInt32 = 2147483647;
const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];
// Limits on DNS parameters (MaxDNSNameservers, MaxDNSSearchPaths, MaxDNSSearchListChars: the
// values since ExpandedDNSConfig went GA in v1.28, unchanged in v1.32).
const maxDNSNameservers = 3;
const maxDNSSearchPaths = 32;
const maxDNSSearchListChars = 2048;

// The paths every pod starts from (a FieldPath never changes once built).
const specRoot = FieldPath.root('spec');
const ephemeralContainersPath = specRoot.child('ephemeralContainers');
const annotationsPath = FieldPath.root('metadata').child('annotations');
const podMetaOptions: ObjectMetaOptions = { namespaced: true, nameFn: nameIsDNSSubdomain };

// The validators below append to the list they are given and return it, as upstream's
// `allErrs = append(allErrs, …)` does, without a list per call.

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function validateEnum(value: unknown, allowed: string[], path: FieldPath, errs: FieldError[]): FieldError[] {
  if (value === undefined || value === null) return errs; // defaulted by the API server
  const v = str(value);
  if (v === '') errs.push(fieldError.required(path));
  else if (!allowed.includes(v)) errs.push(fieldError.notSupported(path, v, allowed));
  return errs;
}

function validateDNSSubdomainField(value: unknown, path: FieldPath, errs: FieldError[]): FieldError[] {
  const v = str(value);
  if (v.length === 0) return errs;
  for (const m of nameIsDNSSubdomain(v, false)) errs.push(fieldError.invalid(path, v, m));
  return errs;
}

/** validatePodHostNetworkDeps: with hostNetwork a container's hostPort must equal its containerPort. */
function validateHostNetworkPorts(spec: PodSpec, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (spec.hostNetwork !== true || !Array.isArray(spec.containers)) return errs;
  const containers = spec.containers;
  for (let i = 0; i < containers.length; i++) {
    const ports = containers[i]?.ports;
    if (!Array.isArray(ports)) continue;
    for (let j = 0; j < ports.length; j++) {
      const port = ports[j];
      const hp = port?.hostPort ?? 0;
      const cp = port?.containerPort ?? 0;
      if (hp !== cp) {
        errs.push(fieldError.invalid(path.child('containers').index(i).child('ports').index(j).child('hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
      }
    }
  }
  return errs;
}

/**
 * validatePodDNSConfig, with the RelaxedDNSSearchValidation gate off (alpha in v1.32): each search
 * path, less one trailing dot, must be a DNS-1123 subdomain. The lists print as Go's `[]string{…}`.
 */
function validatePodDNSConfig(dnsConfig: PodDNSConfig | undefined | null, dnsPolicy: unknown, path: FieldPath, errs: FieldError[]): FieldError[] {
  const conf = dnsConfig !== null && typeof dnsConfig === 'object' ? dnsConfig : undefined;
  const nameservers = Array.isArray(conf?.nameservers) ? conf.nameservers : [];
  if (dnsPolicy === 'None') {
    if (!conf) {
      errs.push(fieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None'));
      return errs;
    }
    if (nameservers.length === 0) {
      errs.push(fieldError.required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None'));
      return errs;
    }
  }
  if (!conf) return errs;
  if (nameservers.length > maxDNSNameservers) {
    errs.push(fieldError.invalid(path.child('nameservers'), goValue(goStrings(nameservers)), `must not have more than ${maxDNSNameservers} nameservers`));
  }
  for (let i = 0; i < nameservers.length; i++) validateIP(str(nameservers[i]), path.child('nameservers').index(i), errs);
  const searches = Array.isArray(conf.searches) ? conf.searches.map(str) : [];
  if (searches.length > maxDNSSearchPaths) {
    errs.push(fieldError.invalid(path.child('searches'), goValue(goStrings(searches)), `must not have more than ${maxDNSSearchPaths} search paths`));
  }
  // The joined list counts the spaces between paths, in bytes.
  if (byteLength(searches.join(' ')) > maxDNSSearchListChars) {
    errs.push(fieldError.invalid(path.child('searches'), goValue(goStrings(searches)), `must not have more than ${maxDNSSearchListChars} characters (including spaces) in the search list`));
  }
  for (let i = 0; i < searches.length; i++) {
    const search = searches[i]!.endsWith('.') ? searches[i]!.slice(0, -1) : searches[i]!;
    for (const m of isDNS1123Subdomain(search)) errs.push(fieldError.invalid(path.child('searches').index(i), search, m));
  }
  const options = Array.isArray(conf.options) ? conf.options : [];
  for (let i = 0; i < options.length; i++) {
    if (str(options[i]?.name).length === 0) errs.push(fieldError.required(path.child('options').index(i), 'must not be empty'));
  }
  return errs;
}

/** ValidateHostAliases: each ip a valid IP (IsValidIP), each hostname a DNS-1123 subdomain. */
function validateHostAliases(aliases: HostAlias[], path: FieldPath, errs: FieldError[]): FieldError[] {
  for (let i = 0; i < aliases.length; i++) {
    const p = path.index(i);
    validateIP(str(aliases[i]?.ip), p.child('ip'), errs);
    const hostnames = aliases[i]?.hostnames;
    if (!Array.isArray(hostnames)) continue;
    for (let j = 0; j < hostnames.length; j++) {
      const h = str(hostnames[j]);
      for (const m of isDNS1123Subdomain(h)) errs.push(fieldError.invalid(p.child('hostnames').index(j), h, m));
    }
  }
  return errs;
}

/**
 * The spec as validation reads it: a shallow copy, whose hidden class is shared with other specs
 * of the same fields. Specs built as `{ ...spec, tolerations }` (DefaultTolerationSeconds
 * admission) each have a class of their own, and each of the ~30 fields validation reads from
 * an object of a class the engine has not seen costs a slow lookup; the copy costs one.
 * (A spread, not Object.assign: a decoded "__proto__" key must stay a plain field.)
 */
function specFields(spec: PodSpec | undefined): PodSpec {
  return spec && typeof spec === 'object' ? { ...spec } : ({ containers: [] } as PodSpec);
}

/**
 * ValidatePodSpec. Beyond upstream: terminationGracePeriodSeconds must not be negative
 * (upstream turns a negative value into 1 instead); an absent one is left to defaulting.
 */
export function validatePodSpec(spec: PodSpec | undefined, opts: PodValidationOptions, path = specRoot, errs: FieldError[] = []): FieldError[] {
  return validateSpecFields(specFields(spec), opts, path, errs);
}

function validateSpecFields(s: PodSpec, opts: PodValidationOptions, path: FieldPath, errs: FieldError[]): FieldError[] {
  // Volumes come first, as in upstream's ValidatePodSpec; the containers' mounts are checked against those that validated.
  const volumes = isSet(s.volumes) ? validateVolumes(s.volumes, path.child('volumes'), errs) : (new Map() as VolumeMap);
  const ctx: ContainerContext = {
    volumes,
    gates: opts.gates,
    windows: s.os?.name === 'windows',
    hostUsers: s.hostUsers !== false,
    terminationGracePeriodSeconds: typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : undefined,
    podRestartPolicy: s.restartPolicy,
  };

  const grace = s.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) {
    errs.push(fieldError.invalid(path.child('terminationGracePeriodSeconds'), grace, isNegativeErrorMsg));
  }

  // As upstream's `if spec.X != nil`, optional parts are descended into (and their paths built) only when set.
  validateContainers(s.containers, path.child('containers'), ctx, errs);
  if (isSet(s.initContainers)) validateInitContainers(s.initContainers, s.containers, path.child('initContainers'), ctx, errs);
  if (isSet(s.ephemeralContainers)) validateEphemeralContainers(s.ephemeralContainers, s.containers, s.initContainers, path.child('ephemeralContainers'), ctx, errs);
  if (opts.gates.PodLevelResources && isSet(s.resources)) validatePodResources(s, path.child('resources'), errs);

  validateHostNetworkPorts(s, path, errs);
  validateEnum(s.restartPolicy, restartPolicies, path.child('restartPolicy'), errs);
  validateEnum(s.dnsPolicy, dnsPolicies, path.child('dnsPolicy'), errs);
  if (isSet(s.nodeSelector)) validateLabels(s.nodeSelector, path.child('nodeSelector'), errs);
  validatePodSpecSecurityContext(s, path, errs);
  if (Array.isArray(s.imagePullSecrets)) validateImagePullSecrets(s.imagePullSecrets, path.child('imagePullSecrets'), errs);
  if (isSet(s.affinity)) validateAffinity(s.affinity, { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector === true }, path.child('affinity'), errs);
  validatePodDNSConfig(s.dnsConfig, s.dnsPolicy, path.child('dnsConfig'), errs);
  if (Array.isArray(s.readinessGates)) validateReadinessGates(s.readinessGates, path.child('readinessGates'), errs);
  if (Array.isArray(s.schedulingGates)) validateSchedulingGates(s.schedulingGates, path.child('schedulingGates'), errs);
  if (isSet(s.topologySpreadConstraints)) {
    validateTopologySpreadConstraints(s.topologySpreadConstraints, { allowInvalidLabelSelector: opts.allowInvalidTopologySpreadConstraintLabelSelector === true }, path.child('topologySpreadConstraints'), errs);
  }
  validateWindowsHostProcessPod(s, path, errs);
  validateHostUsers(s, path, errs);
  validateDNSSubdomainField(s.serviceAccountName, path.child('serviceAccountName'), errs);
  validateDNSSubdomainField(s.nodeName, path.child('nodeName'), errs);

  if (s.activeDeadlineSeconds !== undefined && s.activeDeadlineSeconds !== null) {
    const v = s.activeDeadlineSeconds;
    if (typeof v !== 'number' || v < 1 || v > maxInt32) {
      errs.push(fieldError.invalid(path.child('activeDeadlineSeconds'), v, inclusiveRangeError(1, maxInt32)));
    }
  }
  if (str(s.hostname).length > 0) validateDNS1123Label(str(s.hostname), path.child('hostname'), errs);
  if (str(s.subdomain).length > 0) validateDNS1123Label(str(s.subdomain), path.child('subdomain'), errs);
  if (isSet(s.tolerations)) validateTolerations(s.tolerations, path.child('tolerations'), errs);
  if (Array.isArray(s.hostAliases) && s.hostAliases.length > 0) validateHostAliases(s.hostAliases, path.child('hostAliases'), errs);
  validateDNSSubdomainField(s.priorityClassName, path.child('priorityClassName'), errs);
  if (s.runtimeClassName !== undefined && s.runtimeClassName !== null) {
    const v = str(s.runtimeClassName);
    for (const m of nameIsDNSSubdomain(v, false)) errs.push(fieldError.invalid(path.child('runtimeClassName'), v, m));
  }
  validateEnum(s.preemptionPolicy, preemptionPolicies, path.child('preemptionPolicy'), errs);
  if (isSet(s.overhead)) validateOverhead(s.overhead, path.child('overhead'), errs);
  validateOSFields(s, path, errs);
  return errs;
}

/** validateContainerOnlyForPod over a list of containers at `path` (…containers or …initContainers). */
function validateImagesWhitespace(containers: Container[] | undefined, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!Array.isArray(containers)) return errs;
  for (let i = 0; i < containers.length; i++) validateImageWhitespace(containers[i]!, path.index(i), errs);
  return errs;
}

/** validatePodMetadataAndSpec: metadata, spec, then the pod-only image whitespace rule. */
export function validatePod(pod: Pod, opts: PodValidationOptions, errs: FieldError[] = []): FieldError[] {
  return validatePodWithSpec(pod, specFields(pod?.spec), opts, errs);
}

function validatePodWithSpec(pod: Pod, s: PodSpec, opts: PodValidationOptions, errs: FieldError[]): FieldError[] {
  validateObjectMeta(pod?.metadata, podMetaOptions, undefined, errs);
  validatePodSpecificAnnotations(pod?.metadata?.annotations, s, annotationsPath, opts.allowInvalidPodDeletionCost === true, errs);
  validateSpecFields(s, opts, specRoot, errs);
  validateImagesWhitespace(s.containers, specRoot.child('containers'), errs);
  validateImagesWhitespace(s.initContainers, specRoot.child('initContainers'), errs);
  return errs;
}

/**
 * ValidatePodCreate: ephemeral containers can only be added later (ephemeralcontainers
 * subresource), a gated pod cannot name its node, and annotations agree with fields.
 */
export function validatePodCreate(pod: Pod, opts: PodValidationOptions): FieldError[] {
  const s = specFields(pod?.spec);
  const errs = validatePodWithSpec(pod, s, opts, []);
  if (Array.isArray(s.ephemeralContainers) && s.ephemeralContainers.length > 0) {
    errs.push(fieldError.forbidden(ephemeralContainersPath, 'cannot be set on create'));
  }
  validateSchedulingGatesOnCreate(s, specRoot, errs);
  validateSeccompAnnotationsAndFields(pod?.metadata?.annotations, s, specRoot, errs);
  validateAppArmorAnnotationsAndFieldsMatchOnCreate(pod?.metadata?.annotations, s, specRoot, errs);
  return errs;
}
