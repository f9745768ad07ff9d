// ConfigMap, Secret and ServiceAccount validation (pkg/apis/core/validation validation.go:
// ValidateConfigMap/ValidateConfigMapUpdate, ValidateSecret/ValidateSecretUpdate and the
// secret type rules, ValidateServiceAccount/ValidateServiceAccountUpdate; apimachinery
// IsConfigMapKey). Secret data and ConfigMap binaryData arrive base64-encoded, as stored; sizes
// are those of the decoded bytes. Keys are visited in sorted order (upstream iterates Go maps).
// Deliberate difference: the message of a malformed .dockercfg/.dockerconfigjson is Go's
// encoding/json wording only for the common cases (see goJSONError).

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import type { ConfigMap, Secret, ServiceAccount } from '../types.js';
import { byteLength, DNS1123SubdomainMaxLength, maxLenError, nameIsDNSSubdomain, regexError } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

/** core.MaxSecretSize: data (+ binaryData for a ConfigMap) may hold at most 1 MiB. */
export const maxSecretSize = 1024 * 1024;
export const immutableWhenSetMsg = 'field is immutable when `immutable` is set';

export const secretTypes = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJSON: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
  bootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

export const serviceAccountNameKey = 'kubernetes.io/service-account.name';

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRe = new RegExp(`^${configMapKeyFmt}$`);

/** IsConfigMapKey: length, characters, and no '.'/'..' (a key becomes a file name). */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!configMapKeyRe.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

function mapOf(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Bytes of a base64 value (as the decoder accepted it). */
export function decodedLength(b64: unknown): number {
  return typeof b64 === 'string' ? Buffer.from(b64, 'base64').length : 0;
}

function decoded(b64: unknown): Buffer {
  return typeof b64 === 'string' ? Buffer.from(b64, 'base64') : Buffer.alloc(0);
}

/**
 * The error encoding/json's Unmarshal into map[string]interface{} reports, or undefined when
 * the bytes are a JSON object. Covers the wordings a user meets: empty or cut-off input, a first
 * character that cannot start a value, and valid JSON that is not an object.
 */
export function goJSONError(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    const trimmed = text.trimStart();
    if (trimmed === '') return 'unexpected end of JSON input';
    const first = trimmed[0]!;
    if (!/[{["\-0-9tfn]/.test(first)) return `invalid character '${first}' looking for beginning of value`;
    return 'unexpected end of JSON input';
  }
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  const kind = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs = validateObjectMeta(cm?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const data = mapOf(cm?.data);
  const binary = mapOf(cm?.binaryData);
  let total = 0;
  const dataPath = FieldPath.root('data');
  for (const key of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(dataPath.key(key), key, msg));
    if (key in binary) errs.push(fieldError.invalid(dataPath.key(key), key, 'duplicate of key present in binaryData'));
    total += byteLength(String(data[key] ?? ''));
  }
  const binaryPath = FieldPath.root('binaryData');
  for (const key of Object.keys(binary).sort()) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(binaryPath.key(key), key, msg));
    total += decodedLength(binary[key]);
  }
  // Upstream reports the size at field.NewPath(""), which prints as "[]".
  if (total > maxSecretSize) errs.push(fieldError.tooLong('[]', maxSecretSize));
  return errs;
}

export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs = validateObjectMetaUpdate(cm?.metadata, old?.metadata);
  if (old?.immutable === true) {
    if (cm?.immutable !== true) errs.push(fieldError.forbidden('immutable', immutableWhenSetMsg));
    if (!sameMap(cm?.data, old.data)) errs.push(fieldError.forbidden('data', immutableWhenSetMsg));
    if (!sameMap(cm?.binaryData, old.binaryData)) errs.push(fieldError.forbidden('binaryData', immutableWhenSetMsg));
  }
  errs.push(...validateConfigMap(cm));
  return errs;
}

/** reflect.DeepEqual of two maps as Go holds them: nil and empty differ. */
function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** ValidateSecret: metadata, keys, total size, then the rules of the secret's type. */
export function validateSecret(secret: Secret): FieldError[] {
  const errs = validateObjectMeta(secret?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const data = mapOf(secret?.data);
  const dataPath = FieldPath.root('data');
  let total = 0;
  for (const key of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(dataPath.key(key), key, msg));
    total += decodedLength(data[key]);
  }
  if (total > maxSecretSize) errs.push(fieldError.tooLong(dataPath, maxSecretSize));
  const has = (k: string) => Object.prototype.hasOwnProperty.call(data, k);
  const required = (k: string) => errs.push(fieldError.required(dataPath.key(k), ''));
  const json = (k: string) => {
    if (!has(k)) return required(k);
    const problem = goJSONError(decoded(data[k]));
    if (problem) errs.push(fieldError.invalid(dataPath.key(k), '<secret contents redacted>', problem));
  };
  switch (secret?.type ?? '') {
    case secretTypes.serviceAccountToken: {
      // Only the account's name is required; uid and token are a controller's to fill in.
      const name = secret.metadata?.annotations?.[serviceAccountNameKey];
      if (!name) errs.push(fieldError.required(FieldPath.root('metadata').child('annotations').key(serviceAccountNameKey), ''));
      break;
    }
    case secretTypes.dockercfg:
      json('.dockercfg');
      break;
    case secretTypes.dockerConfigJSON:
      json('.dockerconfigjson');
      break;
    case secretTypes.basicAuth:
      // Either may be empty, but one of the two keys must be there.
      if (!has('username') && !has('password')) {
        required('username');
        required('password');
      }
      break;
    case secretTypes.sshAuth:
      if (decodedLength(data['ssh-privatekey']) === 0) required('ssh-privatekey');
      break;
    case secretTypes.tls:
      if (!has('tls.crt')) required('tls.crt');
      if (!has('tls.key')) required('tls.key');
      break;
    default:
      // Opaque, empty and any other type: no rules of their own.
      break;
  }
  return errs;
}

export function validateSecretUpdate(secret: Secret, old: Secret): FieldError[] {
  const errs = validateObjectMetaUpdate(secret?.metadata, old?.metadata);
  if ((secret?.type ?? '') !== (old?.type ?? '')) errs.push(fieldError.invalid('type', secret?.type ?? '', 'field is immutable'));
  if (old?.immutable === true) {
    if (secret?.immutable !== true) errs.push(fieldError.forbidden('immutable', immutableWhenSetMsg));
    // stringData was merged into data before validation, so data alone is compared.
    if (!sameMap(secret?.data, old.data)) errs.push(fieldError.forbidden('data', immutableWhenSetMsg));
  }
  errs.push(...validateSecret(secret));
  return errs;
}

export function validateServiceAccount(sa: ServiceAccount): FieldError[] {
  return validateObjectMeta(sa?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
}

export function validateServiceAccountUpdate(sa: ServiceAccount, old: ServiceAccount): FieldError[] {
  return [...validateObjectMetaUpdate(sa?.metadata, old?.metadata), ...validateServiceAccount(sa)];
}
