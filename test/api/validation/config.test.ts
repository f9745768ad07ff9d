// ConfigMap, Secret and ServiceAccount validation (src/api/validation/config.ts): one row per
// rule of upstream's ValidateConfigMap(Update), ValidateSecret(Update) with the secret type
// rules, and ValidateServiceAccount, each asserting the exact field path, type and wording.

import { describe, test } from 'node:test';
import type { ConfigMap, Secret, ServiceAccount } from '../../../src/api/types.js';
import {
  validateConfigMap,
  validateConfigMapUpdate,
  validateSecret,
  validateSecretUpdate,
  validateServiceAccount,
  validateServiceAccountUpdate,
} from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const meta = (extra: Record<string, unknown> = {}) => ({ name: 'c', namespace: 'default', ...extra });
const keyMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const MiB = 1024 * 1024;
const immutableMsg = 'field is immutable when `immutable` is set';

const cm = (extra: Partial<ConfigMap>): ConfigMap => ({ metadata: meta(), ...extra });
const secret = (extra: Partial<Secret>): Secret => ({ metadata: meta(), type: 'Opaque', ...extra });

describe('ValidateConfigMap', () => {
  const rows: { name: string; obj: ConfigMap; want: Want }[] = [
    { name: 'valid: data and binaryData with distinct keys', obj: cm({ data: { 'a.b': 'x', A_1: 'y' }, binaryData: { 'b-c': b64('\u0000') } }), want: [] },
    { name: 'key characters', obj: cm({ data: { 'a b': 'x' } }), want: [['FieldValueInvalid', `data[a b]: Invalid value: "a b": ${keyMsg}`]] },
    { name: "key '.'", obj: cm({ data: { '.': 'x' } }), want: [['FieldValueInvalid', `data[.]: Invalid value: ".": must not be '.'`]] },
    { name: "key '..'", obj: cm({ data: { '..': 'x' } }), want: [['FieldValueInvalid', `data[..]: Invalid value: "..": must not be '..'`]] },
    { name: "key starting with '..'", obj: cm({ data: { '..a': 'x' } }), want: [['FieldValueInvalid', `data[..a]: Invalid value: "..a": must not start with '..'`]] },
    {
      name: 'key longer than 253',
      obj: cm({ data: { ['k'.repeat(254)]: 'x' } }),
      want: [['FieldValueInvalid', `data[${'k'.repeat(254)}]: Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters`]],
    },
    { name: 'binaryData keys follow the same rule', obj: cm({ binaryData: { 'a/b': b64('x') } }), want: [['FieldValueInvalid', `binaryData[a/b]: Invalid value: "a/b": ${keyMsg}`]] },
    {
      name: 'a key in both data and binaryData',
      obj: cm({ data: { k: 'x' }, binaryData: { k: b64('y') } }),
      want: [['FieldValueInvalid', 'data[k]: Invalid value: "k": duplicate of key present in binaryData']],
    },
    { name: 'exactly 1 MiB over data and binaryData is allowed', obj: cm({ data: { a: 'x'.repeat(MiB - 1) }, binaryData: { b: b64('y') } }), want: [] },
    {
      name: 'more than 1 MiB over data and binaryData',
      obj: cm({ data: { a: 'x'.repeat(MiB) }, binaryData: { b: b64('y') } }),
      want: [['FieldValueTooLong', '[]: Too long: may not be more than 1048576 bytes']],
    },
    { name: 'name must be a DNS subdomain', obj: { metadata: meta({ name: 'C_1' }) }, want: [['FieldValueInvalid', `metadata.name: Invalid value: "C_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`]] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateConfigMap(r.obj), r.want));
});

describe('ValidateConfigMapUpdate', () => {
  const old = cm({ immutable: true, data: { a: 'x' }, binaryData: { b: b64('y') }, metadata: meta({ uid: 'u' }) });
  const rows: { name: string; obj: ConfigMap; old: ConfigMap; want: Want }[] = [
    { name: 'immutable: metadata may change', old, obj: { ...old, metadata: meta({ uid: 'u', labels: { a: 'b' } }) }, want: [] },
    { name: 'immutable: cannot be unset', old, obj: { ...old, immutable: false }, want: [['FieldValueForbidden', `immutable: Forbidden: ${immutableMsg}`]] },
    { name: 'immutable: data cannot change', old, obj: { ...old, data: { a: 'z' } }, want: [['FieldValueForbidden', `data: Forbidden: ${immutableMsg}`]] },
    { name: 'immutable: binaryData cannot change', old, obj: { ...old, binaryData: {} }, want: [['FieldValueForbidden', `binaryData: Forbidden: ${immutableMsg}`]] },
    { name: 'mutable: data may change', old: { ...old, immutable: false }, obj: { ...old, immutable: false, data: { a: 'z' } }, want: [] },
    { name: 'mutable: may become immutable', old: { ...old, immutable: false }, obj: old, want: [] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateConfigMapUpdate(r.obj, r.old), r.want));
});

describe('ValidateSecret', () => {
  const rows: { name: string; obj: Secret; want: Want }[] = [
    { name: 'valid Opaque', obj: secret({ data: { p: b64('q') } }), want: [] },
    { name: 'key characters', obj: secret({ data: { 'p q': b64('x') } }), want: [['FieldValueInvalid', `data[p q]: Invalid value: "p q": ${keyMsg}`]] },
    { name: 'decoded size exactly 1 MiB is allowed', obj: secret({ data: { a: b64(Buffer.alloc(MiB)) } }), want: [] },
    { name: 'decoded size over 1 MiB', obj: secret({ data: { a: b64(Buffer.alloc(MiB)), b: b64('x') } }), want: [['FieldValueTooLong', 'data: Too long: may not be more than 1048576 bytes']] },
    { name: 'an unknown type has no rules', obj: secret({ type: 'example.com/custom' }), want: [] },
    {
      name: 'service-account-token needs the service-account.name annotation',
      obj: secret({ type: 'kubernetes.io/service-account-token' }),
      want: [['FieldValueRequired', 'metadata.annotations[kubernetes.io/service-account.name]: Required value']],
    },
    {
      name: 'service-account-token with the annotation',
      obj: secret({ type: 'kubernetes.io/service-account-token', metadata: meta({ annotations: { 'kubernetes.io/service-account.name': 'default' } }) }),
      want: [],
    },
    { name: 'dockercfg needs .dockercfg', obj: secret({ type: 'kubernetes.io/dockercfg' }), want: [['FieldValueRequired', 'data[.dockercfg]: Required value']] },
    {
      name: 'dockercfg must be JSON',
      obj: secret({ type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64('x') } }),
      want: [['FieldValueInvalid', `data[.dockercfg]: Invalid value: "<secret contents redacted>": invalid character 'x' looking for beginning of value`]],
    },
    { name: 'dockerconfigjson needs .dockerconfigjson', obj: secret({ type: 'kubernetes.io/dockerconfigjson' }), want: [['FieldValueRequired', 'data[.dockerconfigjson]: Required value']] },
    {
      name: 'dockerconfigjson must be a JSON object',
      obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('[]') } }),
      want: [['FieldValueInvalid', `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}`]],
    },
    {
      name: 'dockerconfigjson cut off',
      obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":') } }),
      want: [['FieldValueInvalid', `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input`]],
    },
    { name: 'valid dockerconfigjson', obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } }), want: [] },
    {
      name: 'basic-auth needs username or password',
      obj: secret({ type: 'kubernetes.io/basic-auth' }),
      want: [
        ['FieldValueRequired', 'data[username]: Required value'],
        ['FieldValueRequired', 'data[password]: Required value'],
      ],
    },
    { name: 'basic-auth with an empty password only', obj: secret({ type: 'kubernetes.io/basic-auth', data: { password: '' } }), want: [] },
    { name: 'ssh-auth needs a non-empty ssh-privatekey', obj: secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }), want: [['FieldValueRequired', 'data[ssh-privatekey]: Required value']] },
    {
      name: 'tls needs tls.crt and tls.key',
      obj: secret({ type: 'kubernetes.io/tls' }),
      want: [
        ['FieldValueRequired', 'data[tls.crt]: Required value'],
        ['FieldValueRequired', 'data[tls.key]: Required value'],
      ],
    },
    { name: 'tls with both keys (contents are only warned about)', obj: secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }), want: [] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateSecret(r.obj), r.want));
});

describe('ValidateSecretUpdate', () => {
  const old = secret({ data: { p: b64('q') }, metadata: meta({ uid: 'u' }) });
  const frozen = { ...old, immutable: true };
  const rows: { name: string; obj: Secret; old: Secret; want: Want }[] = [
    { name: 'data may change', old, obj: { ...old, data: { p: b64('r') } }, want: [] },
    {
      name: 'type is immutable',
      old,
      obj: { ...old, type: 'kubernetes.io/basic-auth', data: { username: '' } },
      want: [['FieldValueInvalid', 'type: Invalid value: "kubernetes.io/basic-auth": field is immutable']],
    },
    { name: 'immutable: cannot be unset', old: frozen, obj: { ...frozen, immutable: false }, want: [['FieldValueForbidden', `immutable: Forbidden: ${immutableMsg}`]] },
    { name: 'immutable: data cannot change', old: frozen, obj: { ...frozen, data: {} }, want: [['FieldValueForbidden', `data: Forbidden: ${immutableMsg}`]] },
    { name: 'immutable: labels may change', old: frozen, obj: { ...frozen, metadata: meta({ uid: 'u', labels: { a: 'b' } }) }, want: [] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateSecretUpdate(r.obj, r.old), r.want));
});

describe('ValidateServiceAccount', () => {
  const rows: { name: string; obj: ServiceAccount; want: Want }[] = [
    { name: 'valid', obj: { metadata: meta({ name: 'build-bot' }), imagePullSecrets: [{ name: 'reg' }] }, want: [] },
    { name: 'the namespace is required', obj: { metadata: { name: 'sa' } }, want: [['FieldValueRequired', 'metadata.namespace: Required value']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateServiceAccount(r.obj), r.want));
  test('update: the name is immutable', () =>
    assertErrors(validateServiceAccountUpdate({ metadata: meta({ name: 'b' }) }, { metadata: meta({ name: 'a' }) }), [
      ['FieldValueInvalid', 'metadata.name: Invalid value: "b": field is immutable'],
    ]));
});
