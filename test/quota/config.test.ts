// The ResourceQuota admission plugin's configuration (src/quota/config.ts): decoding and
// validation.
//
// Rows ported from k8s.io/apiserver pkg/admission/plugin/resourcequota (v1.32):
// * config_test.go TestLoadConfiguration (upstream only checks that the error contains a part of
//   its message; the rows here pin the whole of it). Its duplicate-field row is a YAML matter,
//   decided where the file is parsed: test/cli/admissionconfig.test.ts;
// * apis/resourcequota/validation/validation_test.go TestValidateConfiguration;
// plus rows pinning the registered kinds (install.go: v1 in apiserver.config.k8s.io, v1beta1 and
// v1alpha1 in resourcequota.admission.k8s.io) and encoding/json's type errors.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorString } from '../../src/api/fielderrors.js';
import {
  decodeResourceQuotaConfiguration,
  DEFAULT_RESOURCE_QUOTA_CONFIGURATION,
  validateResourceQuotaConfiguration,
  type ResourceQuotaConfiguration,
} from '../../src/quota/config.js';
import { ConfigDecodeError } from '../../src/api/configfile.js';

const limitedResources = [
  { apiGroup: '', resource: 'persistentvolumeclaims', matchContains: ['.storageclass.storage.k8s.io/requests.storage'] },
  { apiGroup: '', resource: 'pods', matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] },
];
const decodedValid: ResourceQuotaConfiguration = {
  limitedResources: [
    { apiGroup: '', resource: 'persistentvolumeclaims', matchContains: ['.storageclass.storage.k8s.io/requests.storage'], matchScopes: [] },
    { apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] },
  ],
};

describe('decodeResourceQuotaConfiguration: config_test.go TestLoadConfiguration', () => {
  const rows: { name: string; doc: unknown; want?: ResourceQuotaConfiguration; error?: string }[] = [
    { name: 'empty', doc: null, error: "Object 'Kind' is missing in 'null'" },
    { name: 'unknown type', doc: { kind: 'Unknown', apiVersion: 'v1' }, error: 'no kind "Unknown" is registered for version "v1"' },
    {
      name: 'unknown field error; strict validation',
      doc: { kind: 'ResourceQuotaConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', limitedResources: [{ apiGroup: '', foo: 'bar', resource: 'persistentvolumeclaims', matchContains: ['.storageclass.storage.k8s.io/requests.storage'] }] },
      error: 'strict decoding error: unknown field "limitedResources[0].foo"',
    },
    { name: 'valid v1alpha1 config', doc: { kind: 'Configuration', apiVersion: 'resourcequota.admission.k8s.io/v1alpha1', limitedResources }, want: decodedValid },
    { name: 'valid v1beta1 config', doc: { kind: 'Configuration', apiVersion: 'resourcequota.admission.k8s.io/v1beta1', limitedResources }, want: decodedValid },
    { name: 'valid v1 config', doc: { kind: 'ResourceQuotaConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', limitedResources }, want: decodedValid },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error === undefined) assert.deepEqual(decodeResourceQuotaConfiguration(r.doc), r.want);
      else assert.throws(() => decodeResourceQuotaConfiguration(r.doc), (e: unknown) => e instanceof ConfigDecodeError && e.message === r.error);
    });
  }
});

describe('decodeResourceQuotaConfiguration: the registered kinds, defaults and type errors', () => {
  const v1 = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration' };
  const rows: { name: string; doc: unknown; want?: ResourceQuotaConfiguration; error?: string }[] = [
    { name: 'no configuration for the plugin: nothing limited', doc: undefined, want: DEFAULT_RESOURCE_QUOTA_CONFIGURATION },
    { name: 'no limitedResources: none', doc: v1, want: { limitedResources: [] } },
    { name: 'limitedResources null: none', doc: { ...v1, limitedResources: null }, want: { limitedResources: [] } },
    { name: 'no version sets a default: an entry keeps its empty fields', doc: { ...v1, limitedResources: [{}] }, want: { limitedResources: [{ apiGroup: '', resource: '', matchContains: [], matchScopes: [] }] } },
    {
      name: 'a scope selector keeps what it says, unchecked',
      doc: { ...v1, limitedResources: [{ resource: 'pods', matchScopes: [{ scopeName: 'Nonsense', operator: 'Gt' }] }] },
      want: { limitedResources: [{ apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'Nonsense', operator: 'Gt' }] }] },
    },
    {
      name: 'values: absent or null is no list (Go\'s nil), [] an empty one',
      doc: { ...v1, limitedResources: [{ resource: 'pods', matchScopes: [{ scopeName: 'PriorityClass', operator: 'In' }, { scopeName: 'PriorityClass', operator: 'In', values: null }, { scopeName: 'PriorityClass', operator: 'In', values: [] }] }] },
      want: { limitedResources: [{ apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In' }, { scopeName: 'PriorityClass', operator: 'In' }, { scopeName: 'PriorityClass', operator: 'In', values: [] }] }] },
    },
    { name: 'v1 is not the Configuration kind', doc: { ...v1, kind: 'Configuration' }, error: 'no kind "Configuration" is registered for version "apiserver.config.k8s.io/v1"' },
    { name: 'nor is there a v1beta1 of ResourceQuotaConfiguration', doc: { ...v1, apiVersion: 'apiserver.config.k8s.io/v1beta1' }, error: 'no kind "ResourceQuotaConfiguration" is registered for version "apiserver.config.k8s.io/v1beta1"' },
    { name: 'the legacy group has no v1', doc: { apiVersion: 'resourcequota.admission.k8s.io/v1', kind: 'Configuration' }, error: 'no kind "Configuration" is registered for version "resourcequota.admission.k8s.io/v1"' },
    { name: 'the legacy group has no ResourceQuotaConfiguration', doc: { apiVersion: 'resourcequota.admission.k8s.io/v1beta1', kind: 'ResourceQuotaConfiguration' }, error: 'no kind "ResourceQuotaConfiguration" is registered for version "resourcequota.admission.k8s.io/v1beta1"' },
    { name: 'no apiVersion', doc: { kind: 'ResourceQuotaConfiguration' }, error: `Object 'apiVersion' is missing in '{"kind":"ResourceQuotaConfiguration"}'` },
    { name: 'field names are case-sensitive', doc: { ...v1, LimitedResources: [] }, error: 'strict decoding error: unknown field "LimitedResources"' },
    { name: 'unknown fields of a scope selector, by path', doc: { ...v1, limitedResources: [{ resource: 'pods', matchScopes: [{ scopeName: 'BestEffort', operator: 'Exists', value: 'x' }] }, { resource: 'pods', extra: 1 }] },
      error: 'strict decoding error: unknown field "limitedResources[0].matchScopes[0].value", unknown field "limitedResources[1].extra"' },
    { name: 'limitedResources not a list', doc: { ...v1, limitedResources: { resource: 'pods' } }, error: 'json: cannot unmarshal object into Go struct field Configuration.limitedResources of type []v1.LimitedResource' },
    { name: 'a resource that is not a string', doc: { ...v1, limitedResources: [{ resource: 1 }] }, error: 'json: cannot unmarshal number into Go struct field LimitedResource.limitedResources.resource of type string' },
    { name: 'matchContains not a list', doc: { ...v1, limitedResources: [{ resource: 'pods', matchContains: 'cpu' }] }, error: 'json: cannot unmarshal string into Go struct field LimitedResource.limitedResources.matchContains of type []string' },
    { name: 'a scope name that is not a string: its named type', doc: { ...v1, limitedResources: [{ resource: 'pods', matchScopes: [{ scopeName: true }] }] },
      error: 'json: cannot unmarshal bool into Go struct field ScopedResourceSelectorRequirement.limitedResources.matchScopes.scopeName of type v1.ResourceQuotaScope' },
    { name: 'an operator that is not a string: its named type', doc: { ...v1, limitedResources: [{ resource: 'pods', matchScopes: [{ scopeName: 'PriorityClass', operator: 1 }] }] },
      error: 'json: cannot unmarshal number into Go struct field ScopedResourceSelectorRequirement.limitedResources.matchScopes.operator of type v1.ScopeSelectorOperator' },
    { name: 'the legacy versions name their own structs', doc: { apiVersion: 'resourcequota.admission.k8s.io/v1alpha1', kind: 'Configuration', limitedResources: 'pods' },
      error: 'json: cannot unmarshal string into Go struct field Configuration.limitedResources of type []v1alpha1.LimitedResource' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error === undefined) assert.deepEqual(decodeResourceQuotaConfiguration(r.doc), r.want);
      else assert.throws(() => decodeResourceQuotaConfiguration(r.doc), (e: unknown) => e instanceof ConfigDecodeError && e.message === r.error);
    });
  }
});

describe('validateResourceQuotaConfiguration: validation_test.go TestValidateConfiguration', () => {
  const entry = (resource: string, matchContains: string[]) => ({ apiGroup: '', resource, matchContains, matchScopes: [] });
  const rows: { name: string; config: ResourceQuotaConfiguration; want: string[] }[] = [
    { name: 'success: pods, requests.cpu', config: { limitedResources: [entry('pods', ['requests.cpu'])] }, want: [] },
    { name: 'success: persistentvolumeclaims, requests.storage', config: { limitedResources: [entry('persistentvolumeclaims', ['requests.storage'])] }, want: [] },
    { name: 'missing apiGroupResource', config: { limitedResources: [entry('', ['requests.cpu'])] }, want: ['limitedResources[0].resource: Required value'] },
    { name: 'each entry without a resource, by index', config: { limitedResources: [entry('', []), entry('pods', []), entry('', ['x'])] },
      want: ['limitedResources[0].resource: Required value', 'limitedResources[2].resource: Required value'] },
    { name: 'nothing else is checked: no match, an unknown scope', config: { limitedResources: [{ apiGroup: 'no such group', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'Nonsense', operator: 'Gt' }] }] }, want: [] },
    { name: 'no entries', config: DEFAULT_RESOURCE_QUOTA_CONFIGURATION, want: [] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(validateResourceQuotaConfiguration(r.config).map(errorString), r.want));
});
