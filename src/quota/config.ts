// The ResourceQuota admission plugin's configuration, as k8s.io/apiserver
// pkg/admission/plugin/resourcequota defines it (v1.32): apis/resourcequota and its versions
// (`apiserver.config.k8s.io/v1` kind ResourceQuotaConfiguration; `resourcequota.admission.k8s.io`
// v1beta1 and v1alpha1 kind Configuration, the same fields in each), config.go LoadConfiguration
// (decoded strictly; no configuration at all is the empty one, and no version sets a default),
// and validation/validation.go (every limitedResources entry names its resource). What the
// configuration means at admission is limited.ts. Pure: the caller reads the file.

import { decodeGoStruct, goNamedString, goString, goStringSlice, interpretTypeMeta, notRegisteredError, type GoStruct } from '../api/configfile.js';
import { fieldError, FieldPath, type FieldError } from '../api/fielderrors.js';
import type { ScopedResourceSelectorRequirement } from '../api/types.js';

/** A resource whose consumption needs a covering quota (resourcequotaapi.LimitedResource). */
export interface LimitedResource {
  /** The API group of the resource ("" for the core group). */
  readonly apiGroup: string;
  /** The resource (`pods`, `services`, `configmaps`, …) whose creates and updates this entry limits. */
  readonly resource: string;
  /** A usage name containing any of these (`cpu` covers `requests.cpu` and `limits.cpu`) needs a quota limiting it. */
  readonly matchContains: readonly string[];
  /** An object matching any of these scope selectors needs a quota with a selector of that scope it matches. */
  readonly matchScopes: readonly ScopedResourceSelectorRequirement[];
}

export interface ResourceQuotaConfiguration {
  readonly limitedResources: readonly LimitedResource[];
}

/** LoadConfiguration(nil): nothing limited by default. */
export const DEFAULT_RESOURCE_QUOTA_CONFIGURATION: ResourceQuotaConfiguration = Object.freeze({ limitedResources: Object.freeze([]) });

/** The kinds the plugin's scheme registers: `group/version` → kind. */
export const RESOURCE_QUOTA_CONFIG_KINDS: Readonly<Record<string, string>> = Object.freeze({
  'apiserver.config.k8s.io/v1': 'ResourceQuotaConfiguration',
  'resourcequota.admission.k8s.io/v1beta1': 'Configuration',
  'resourcequota.admission.k8s.io/v1alpha1': 'Configuration',
});

/** The Go struct of one version: its own package's names, core/v1's for the scope selector. */
function configStruct(version: string): GoStruct {
  return {
    type: 'struct',
    name: `${version}.Configuration`,
    fields: {
      limitedResources: {
        type: 'slice',
        of: {
          type: 'struct',
          name: `${version}.LimitedResource`,
          fields: {
            apiGroup: goString,
            resource: goString,
            matchContains: goStringSlice,
            matchScopes: {
              type: 'slice',
              of: {
                type: 'struct',
                name: 'v1.ScopedResourceSelectorRequirement',
                fields: { scopeName: goNamedString('v1.ResourceQuotaScope'), operator: goNamedString('v1.ScopeSelectorOperator'), values: goStringSlice },
              },
            },
          },
        },
      },
    },
  };
}

/**
 * LoadConfiguration: `undefined` (no configuration for the plugin: no entry, or an entry with
 * neither `configuration` nor `path`) is the empty configuration; anything else must be one of
 * the registered kinds, with no unknown field. Throws ConfigDecodeError with upstream's message
 * (`'Kind' is missing`, `no kind "X" is registered for version "g/v"`, `strict decoding error:
 * unknown field "limitedResources[0].foo"`, encoding/json's type errors). Not validated: see
 * validateResourceQuotaConfiguration.
 */
export function decodeResourceQuotaConfiguration(doc: unknown): ResourceQuotaConfiguration {
  if (doc === undefined) return DEFAULT_RESOURCE_QUOTA_CONFIGURATION;
  const meta = interpretTypeMeta(doc);
  const gv = meta.group === '' ? meta.version : `${meta.group}/${meta.version}`;
  if (RESOURCE_QUOTA_CONFIG_KINDS[gv] !== meta.kind) throw notRegisteredError(meta);
  const decoded = decodeGoStruct(doc as Record<string, unknown>, configStruct(meta.version), true);
  const entries = decoded.limitedResources as Record<string, unknown>[];
  // Absent or null `values` stay absent, as Go's nil slice (upstream's messages tell nil from empty).
  const raw = (doc as { limitedResources?: { matchScopes?: { values?: unknown }[] }[] }).limitedResources;
  return {
    limitedResources: entries.map((e, i) => ({
      apiGroup: e.apiGroup as string,
      resource: e.resource as string,
      matchContains: e.matchContains as string[],
      matchScopes: (e.matchScopes as Record<string, unknown>[]).map((s, j) => ({
        scopeName: s.scopeName as string,
        operator: s.operator as string,
        ...(raw?.[i]?.matchScopes?.[j]?.values == null ? {} : { values: s.values as string[] }),
      })),
    })),
  };
}

/**
 * ValidateConfiguration: every entry names its resource (`limitedResources[0].resource: Required
 * value`). Nothing else is checked, as upstream checks nothing else: an entry with neither
 * matchContains nor matchScopes limits nothing, and a scope selector upstream cannot match
 * (limited.ts unmatchableLimitedScopes) is only found out at admission.
 */
export function validateResourceQuotaConfiguration(config: ResourceQuotaConfiguration): FieldError[] {
  const path = FieldPath.root('limitedResources');
  const errs: FieldError[] = [];
  config.limitedResources.forEach((l, i) => {
    if (l.resource.length === 0) errs.push(fieldError.required(path.index(i).child('resource')));
  });
  return errs;
}
