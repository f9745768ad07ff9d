// The --admission-control-config-file of kube-apiserver (k8s.io/apiserver pkg/admission/config.go
// ReadAdmissionConfiguration and ConfigFor, v1.32): an AdmissionConfiguration
// (`apiserver.config.k8s.io/v1`, or the older `apiserver.k8s.io/v1alpha1`) listing, per plugin
// name, an inline `configuration` or a `path` to a file holding it. The file is decoded leniently
// (unknown fields ignored); a plugin reads the first entry with its name, the inline configuration
// winning over the path; entries of plugins Bulkhead does not run are ignored, as kube-apiserver
// ignores those of plugins it does not enable. Pure: the caller reads the files.

import { ConfigDecodeError, decodeGoStruct, goRaw, goString, interpretTypeMeta, notRegisteredError, type GoStruct } from '../api/configfile.js';

/** The apiVersions the AdmissionConfiguration kind is registered in. */
export const ADMISSION_CONFIGURATION_VERSIONS: readonly string[] = ['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1alpha1'];

/** One `plugins` entry. */
export interface AdmissionPluginConfiguration {
  readonly name: string;
  /** As written; the reader resolves a relative path against the configuration file's directory. */
  readonly path: string;
  /** The inline configuration as decoded (undefined when absent or null). */
  readonly configuration?: unknown;
}

function configStruct(version: string): GoStruct {
  return {
    type: 'struct',
    name: `${version}.AdmissionConfiguration`,
    fields: {
      plugins: {
        type: 'slice',
        of: { type: 'struct', name: `${version}.AdmissionPluginConfiguration`, fields: { name: goString, path: goString, configuration: goRaw } },
      },
    },
  };
}

/** The plugin-specific top-level keys of the two configuration files that predate AdmissionConfiguration. */
const legacyKeys = ['imagePolicy', 'podNodeSelectorPluginConfig'];

/**
 * ReadAdmissionConfiguration's decoding of the file's document. A document without a kind or
 * apiVersion, or of a kind not registered, is an error unless it is one of the two legacy
 * plugin files (ImagePolicyWebhook's, PodNodeSelector's), which configure only those plugins:
 * none of Bulkhead's, so no entries. Throws ConfigDecodeError.
 */
export function decodeAdmissionConfiguration(doc: unknown): AdmissionPluginConfiguration[] {
  let version: string;
  try {
    const meta = interpretTypeMeta(doc);
    const gv = meta.group === '' ? meta.version : `${meta.group}/${meta.version}`;
    if (meta.kind !== 'AdmissionConfiguration' || !ADMISSION_CONFIGURATION_VERSIONS.includes(gv)) throw notRegisteredError(meta);
    version = meta.version;
  } catch (e) {
    const tolerable = e instanceof ConfigDecodeError && e.kind !== 'other';
    const legacy = typeof doc === 'object' && doc !== null && !Array.isArray(doc) && legacyKeys.some((k) => Object.prototype.hasOwnProperty.call(doc, k));
    if (tolerable && legacy) return [];
    throw e;
  }
  const decoded = decodeGoStruct(doc as Record<string, unknown>, configStruct(version), false);
  return (decoded.plugins as Record<string, unknown>[]).map((p) => ({
    name: p.name as string,
    path: p.path as string,
    ...(p.configuration !== undefined ? { configuration: p.configuration } : {}),
  }));
}

/** Where a plugin's configuration comes from (ConfigFor): inline, a file, or nowhere (the plugin's defaults). */
export type PluginConfigurationSource = { readonly inline: unknown } | { readonly path: string } | undefined;

/** ConfigFor(name): the first entry with the plugin's name; its inline configuration, else its path, else none. */
export function admissionPluginConfiguration(plugins: readonly AdmissionPluginConfiguration[], name: string): PluginConfigurationSource {
  const entry = plugins.find((p) => p.name === name);
  if (!entry) return undefined;
  if (entry.configuration !== undefined) return { inline: entry.configuration };
  if (entry.path !== '') return { path: entry.path };
  return undefined;
}
