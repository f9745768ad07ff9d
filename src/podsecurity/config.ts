// The PodSecurity admission plugin's configuration, as upstream pod-security-admission
// admission/api defines it (v1.32): PodSecurityConfiguration in
// `pod-security.admission.config.k8s.io` v1, v1beta1 and v1alpha1 (the same fields in each),
// decoded strictly (load/load.go with scheme.go's EnableStrict codecs), its defaults set
// (v1/defaults.go: every empty level `privileged`, every empty version `latest`), and validated
// (validation/validation.go, messages and order). Pure: the caller reads the file.

import { ConfigDecodeError, decodeGoStruct, goString, goStringSlice, interpretTypeMeta, notRegisteredError, type GoStruct } from '../api/configfile.js';
import { fieldError, FieldPath, type FieldError } from '../api/fielderrors.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../api/validation/names.js';
import { validatePodSecurityDefaults, type PodSecurityDefaults } from './namespace.js';

export const POD_SECURITY_CONFIG_GROUP = 'pod-security.admission.config.k8s.io';
/** The versions the scheme registers, newest first (its version priority). */
export const POD_SECURITY_CONFIG_VERSIONS: readonly string[] = ['v1', 'v1beta1', 'v1alpha1'];
export const POD_SECURITY_CONFIG_KIND = 'PodSecurityConfiguration';

/** Who and what is never evaluated: exact usernames, namespace names and RuntimeClass names. */
export interface PodSecurityExemptions {
  readonly usernames?: readonly string[];
  readonly namespaces?: readonly string[];
  readonly runtimeClasses?: readonly string[];
}

export interface PodSecurityConfiguration {
  readonly defaults: PodSecurityDefaults;
  readonly exemptions: PodSecurityExemptions;
}

/** LoadFromData(nil): no configuration is every default privileged:latest and no exemptions. */
export const DEFAULT_POD_SECURITY_CONFIGURATION: PodSecurityConfiguration = Object.freeze({
  defaults: Object.freeze({
    enforce: 'privileged', 'enforce-version': 'latest',
    audit: 'privileged', 'audit-version': 'latest',
    warn: 'privileged', 'warn-version': 'latest',
  }),
  exemptions: Object.freeze({ usernames: [], namespaces: [], runtimeClasses: [] }),
});

/** The Go struct of one version (each version's package prints its own name). */
function configStruct(version: string): GoStruct {
  return {
    type: 'struct',
    name: `${version}.PodSecurityConfiguration`,
    fields: {
      defaults: {
        type: 'struct',
        name: `${version}.PodSecurityDefaults`,
        fields: { enforce: goString, 'enforce-version': goString, audit: goString, 'audit-version': goString, warn: goString, 'warn-version': goString },
      },
      exemptions: {
        type: 'struct',
        name: `${version}.PodSecurityExemptions`,
        fields: { usernames: goStringSlice, namespaces: goStringSlice, runtimeClasses: goStringSlice },
      },
    },
  };
}

/** SetDefaults_PodSecurityDefaults: empty levels are privileged, empty versions latest. */
function withDefaults(d: Record<string, string>): PodSecurityDefaults {
  const level = (v: string | undefined) => (v ? v : 'privileged');
  const version = (v: string | undefined) => (v ? v : 'latest');
  return {
    enforce: level(d.enforce), 'enforce-version': version(d['enforce-version']),
    audit: level(d.audit), 'audit-version': version(d['audit-version']),
    warn: level(d.warn), 'warn-version': version(d['warn-version']),
  };
}

/**
 * LoadFromData: `undefined` (no data at all: an empty file, or no configuration for the plugin)
 * is the default configuration; anything else must be a PodSecurityConfiguration of a known
 * version, with no unknown fields, and gets its defaults set. Throws ConfigDecodeError with
 * upstream's message (`'Kind' is missing`, `no kind "X" is registered for version "g/v"`,
 * `strict decoding error: unknown field "deflaults"`, encoding/json's type errors).
 * The result is not validated: see validatePodSecurityConfiguration.
 */
export function decodePodSecurityConfiguration(doc: unknown): PodSecurityConfiguration {
  if (doc === undefined) return DEFAULT_POD_SECURITY_CONFIGURATION;
  const meta = interpretTypeMeta(doc);
  if (meta.group !== POD_SECURITY_CONFIG_GROUP || !POD_SECURITY_CONFIG_VERSIONS.includes(meta.version) || meta.kind !== POD_SECURITY_CONFIG_KIND) {
    throw notRegisteredError(meta);
  }
  const decoded = decodeGoStruct(doc as Record<string, unknown>, configStruct(meta.version), true);
  const defaults = decoded.defaults as Record<string, string>;
  const exemptions = decoded.exemptions as Record<string, string[]>;
  return {
    defaults: withDefaults(defaults),
    exemptions: { usernames: exemptions.usernames!, namespaces: exemptions.namespaces!, runtimeClasses: exemptions.runtimeClasses! },
  };
}

export { ConfigDecodeError };

/** One exemption list: each entry valid (`problems` of it, joined by ", ") and not a repeat. */
function validateList(path: FieldPath, values: readonly string[] | undefined, problems: (v: string) => string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (values ?? []).forEach((v, i) => {
    const p = problems(v);
    if (p.length > 0) errs.push(fieldError.invalid(path.index(i), v, p.join(', ')));
    else if (seen.has(v)) errs.push(fieldError.duplicate(path.index(i), v));
    else seen.add(v);
  });
  return errs;
}

/**
 * ValidatePodSecurityConfiguration, in upstream's order: the defaults (enforce, enforce-version,
 * warn, warn-version, audit, audit-version), then the exempt namespaces (namespace names), the
 * exempt runtime classes (DNS subdomains), the exempt usernames (non-empty); repeats are
 * `Duplicate value`. A configuration with any error is refused at startup.
 */
export function validatePodSecurityConfiguration(config: PodSecurityConfiguration): FieldError[] {
  const exemptions = FieldPath.root('exemptions');
  return [
    ...validatePodSecurityDefaults(config.defaults),
    ...validateList(exemptions.child('namespaces'), config.exemptions.namespaces, (v) => nameIsDNSLabel(v, false)),
    ...validateList(exemptions.child('runtimeClasses'), config.exemptions.runtimeClasses, (v) => nameIsDNSSubdomain(v, false)),
    ...validateList(exemptions.child('usernames'), config.exemptions.usernames, (v) => (v === '' ? ['username must not be empty'] : [])),
  ];
}
