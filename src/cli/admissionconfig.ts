// --admission-control-config-file (kube-apiserver's flag) and --pod-security, for `server`, `up`
// and `plan` alike: the files read here, their meaning decided by src/admission/admissionconfig.ts
// (which plugin entry, inline or path), src/podsecurity/config.ts (PodSecurityConfiguration:
// decoding, defaults, validation) and src/quota/config.ts (the ResourceQuota plugin's
// configuration). Any problem is one line and exit 2, before anything starts.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { admissionPluginConfiguration, decodeAdmissionConfiguration } from '../admission/admissionconfig.js';
import { ConfigDecodeError } from '../api/configfile.js';
import { loadYAML } from '../api/boundedyaml.js';
import {
  aggregateFieldErrors, decodePodSecurityConfiguration, validatePodSecurityConfiguration, type PodSecurityConfiguration,
} from '../podsecurity/index.js';
import {
  decodeResourceQuotaConfiguration, DEFAULT_RESOURCE_QUOTA_CONFIGURATION, validateResourceQuotaConfiguration, type ResourceQuotaConfiguration,
} from '../quota/config.js';
import { unmatchableLimitedScopes } from '../quota/limited.js';
import { UsageError } from './errors.js';
import { podSecurityFlag } from './flags.js';

export interface PodSecurityFlags {
  /** `LEVEL[:VERSION]`; absent: privileged:latest (or the file's defaults). */
  podSecurity?: string;
  admissionControlConfigFile?: string;
}

export const admissionControlConfigFileHelp =
  "an AdmissionConfiguration (apiserver.config.k8s.io/v1) as kube-apiserver reads it; its PodSecurity entry (inline `configuration:` or `path:`) holds a PodSecurityConfiguration: `defaults` for namespaces without labels and `exemptions` (usernames, namespaces, runtimeClasses); its ResourceQuota entry a ResourceQuotaConfiguration: `limitedResources` that need a covering quota; other plugins' entries are ignored. Not with --pod-security";

/** The first line of an error's message (js-yaml's spans several, with a code excerpt). */
function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
}

/** A file's text, parsed: YAML or JSON (JSON is YAML); null when it holds no document. */
function parse(text: string): unknown {
  try {
    return loadYAML(text);
  } catch (e) {
    throw new ConfigDecodeError(`error converting YAML to JSON: ${firstLine(e)}`);
  }
}

function readText(path: string, what: (reason: string) => string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigDecodeError(what(firstLine(e)));
  }
}

/**
 * What configures plugin `name` in an admission control configuration file, as kube-apiserver
 * finds it: ReadAdmissionConfiguration, ConfigFor(name) (a relative `path` is the directory of
 * the file's): the inline document, the plugin file's document (null when it holds none), or, for
 * no configuration at all, undefined. `emptyFileIsNone`: the plugin reads a file of no bytes as
 * no configuration (pod-security-admission's LoadFromReader), not as a document without a kind.
 * The plugin file is the plugin's to decode: what is wrong with its YAML is the plugin's error.
 */
function pluginDocument(file: string, name: string, emptyFileIsNone: boolean): unknown {
  const text = readText(file, (why) => `unable to read admission control configuration from "${file}" [${why}]`);
  const source = admissionPluginConfiguration(decodeAdmissionConfiguration(parse(text)), name);
  if (source === undefined) return undefined;
  if ('inline' in source) return source.inline;
  const path = resolve(dirname(file), source.path);
  const plugin = readText(path, (why) => `couldn't open admission plugin configuration ${path}: ${why}`);
  if (plugin.length === 0 && emptyFileIsNone) return undefined;
  try {
    return parse(plugin);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new ConfigDecodeError(`couldn't init admission plugin "${name}": ${e.message}`);
    throw e;
  }
}

/**
 * The PodSecurity configuration in an admission control configuration file, as kube-apiserver
 * loads it: pluginDocument, LoadFromReader (an empty plugin file or no entry: the defaults), then
 * the plugin's ValidateInitialization. Errors are ConfigDecodeError with upstream's wording.
 */
export function readPodSecurityConfiguration(file: string): PodSecurityConfiguration {
  const doc = pluginDocument(file, 'PodSecurity', true);
  let config: PodSecurityConfiguration;
  try {
    config = decodePodSecurityConfiguration(doc);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new ConfigDecodeError(`couldn't init admission plugin "PodSecurity": ${e.message}`);
    throw e;
  }
  const errs = validatePodSecurityConfiguration(config);
  if (errs.length > 0) throw new ConfigDecodeError(`PodSecurity invalid: ${aggregateFieldErrors(errs)}`);
  return config;
}

/**
 * The ResourceQuota configuration in an admission control configuration file, as kube-apiserver
 * loads it: pluginDocument, then the plugin's factory: LoadConfiguration (no entry: nothing
 * limited; an empty plugin file is a document without a kind) and ValidateConfiguration, either
 * failing as `couldn't init admission plugin "ResourceQuota": <why>`. Errors are ConfigDecodeError.
 */
export function readResourceQuotaConfiguration(file: string): ResourceQuotaConfiguration {
  const doc = pluginDocument(file, 'ResourceQuota', false);
  const init = (why: string) => new ConfigDecodeError(`couldn't init admission plugin "ResourceQuota": ${why}`);
  let config: ResourceQuotaConfiguration;
  try {
    config = decodeResourceQuotaConfiguration(doc);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw init(e.message);
    throw e;
  }
  const errs = validateResourceQuotaConfiguration(config);
  if (errs.length > 0) throw init(aggregateFieldErrors(errs));
  return config;
}

/**
 * The PodSecurity configuration the flags give. `--pod-security` is the shorthand for
 * defaults.enforce and defaults.enforce-version, nothing else; with a configuration file the
 * defaults are the file's, so giving both is refused rather than guessing which one wins.
 */
export function podSecurityFromFlags(f: PodSecurityFlags): PodSecurityConfiguration {
  const file = f.admissionControlConfigFile;
  if (file === undefined) return { defaults: podSecurityFlag(f.podSecurity ?? 'privileged:latest'), exemptions: {} };
  if (f.podSecurity !== undefined) {
    throw new UsageError('--pod-security and --admission-control-config-file cannot be used together: set defaults.enforce (and enforce-version) in the PodSecurity configuration instead');
  }
  try {
    return readPodSecurityConfiguration(file);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new UsageError(`--admission-control-config-file ${file}: ${e.message}`);
    throw e;
  }
}

/**
 * The ResourceQuota configuration the flags give: the file's, or nothing limited without one.
 * A matchScopes selector upstream cannot match is no error (upstream does not validate it), but
 * it turns quota admission off for pods: `warn` is told, once per selector.
 */
export function resourceQuotaFromFlags(f: Pick<PodSecurityFlags, 'admissionControlConfigFile'>, warn: (message: string) => void = () => {}): ResourceQuotaConfiguration {
  const file = f.admissionControlConfigFile;
  if (file === undefined) return DEFAULT_RESOURCE_QUOTA_CONFIGURATION;
  let config: ResourceQuotaConfiguration;
  try {
    config = readResourceQuotaConfiguration(file);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new UsageError(`--admission-control-config-file ${file}: ${e.message}`);
    throw e;
  }
  for (const problem of unmatchableLimitedScopes(config.limitedResources)) {
    warn(`--admission-control-config-file ${file}: ResourceQuota ${problem}; with it, kube-apiserver admits every pod without checking its quotas, and so does Bulkhead`);
  }
  return config;
}
