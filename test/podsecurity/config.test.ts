// The PodSecurity admission configuration, after upstream pod-security-admission (v1.32)
// admission/api/load/load_test.go TestLoadFromData (decoding and defaults),
// admission/api/validation/validation_test.go TestValidatePodSecurityConfiguration, and
// admission/admission_test.go's exemption lookups.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../src/api/fielderrors.js';
import {
  ConfigDecodeError, decodePodSecurityConfiguration, DEFAULT_POD_SECURITY_CONFIGURATION, isExemptNamespace, isExemptRuntimeClass,
  isExemptUser, requestExemption, validatePodSecurityConfiguration, type PodSecurityConfiguration,
} from '../../src/podsecurity/index.js';

const allDefaults = DEFAULT_POD_SECURITY_CONFIGURATION.defaults;
const baselineDefaults = { ...allDefaults, enforce: 'baseline' };
const noExemptions = { usernames: [], namespaces: [], runtimeClasses: [] };
const yamlConfig = (apiVersion: string) => ({
  apiVersion, kind: 'PodSecurityConfiguration',
  defaults: { enforce: 'baseline', 'enforce-version': 'v1.7' },
  exemptions: { usernames: ['alice', 'bob'], namespaces: ['kube-system'], runtimeClasses: ['special'] },
});
const yamlExpect: PodSecurityConfiguration = {
  defaults: { ...allDefaults, enforce: 'baseline', 'enforce-version': 'v1.7' },
  exemptions: { usernames: ['alice', 'bob'], namespaces: ['kube-system'], runtimeClasses: ['special'] },
};

describe('decodePodSecurityConfiguration (upstream load_test.go TestLoadFromData)', () => {
  const rows: { name: string; data: unknown; expectErr?: string; expectConfig?: PodSecurityConfiguration }[] = [
    { name: 'nil: the defaults, every mode privileged:latest, no exemptions', data: undefined, expectConfig: { defaults: allDefaults, exemptions: noExemptions } },
    { name: 'v1alpha1 - json', data: { apiVersion: 'pod-security.admission.config.k8s.io/v1alpha1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } }, expectConfig: { defaults: baselineDefaults, exemptions: noExemptions } },
    { name: 'v1alpha1 - yaml', data: yamlConfig('pod-security.admission.config.k8s.io/v1alpha1'), expectConfig: yamlExpect },
    { name: 'v1beta1 - json', data: { apiVersion: 'pod-security.admission.config.k8s.io/v1beta1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } }, expectConfig: { defaults: baselineDefaults, exemptions: noExemptions } },
    { name: 'v1beta1 - yaml', data: yamlConfig('pod-security.admission.config.k8s.io/v1beta1'), expectConfig: yamlExpect },
    { name: 'v1 - json', data: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } }, expectConfig: { defaults: baselineDefaults, exemptions: noExemptions } },
    { name: 'v1 - yaml', data: yamlConfig('pod-security.admission.config.k8s.io/v1'), expectConfig: yamlExpect },
    { name: 'missing apiVersion', data: { kind: 'PodSecurityConfiguration' }, expectErr: `'apiVersion' is missing` },
    { name: 'missing kind', data: { apiVersion: 'pod-security.admission.config.k8s.io/v1alpha1' }, expectErr: `'Kind' is missing` },
    { name: 'unknown group', data: { apiVersion: 'apps/v1alpha1', kind: 'PodSecurityConfiguration' }, expectErr: 'apps/v1alpha1' },
    { name: 'unknown version', data: { apiVersion: 'pod-security.admission.config.k8s.io/v99', kind: 'PodSecurityConfiguration' }, expectErr: 'pod-security.admission.config.k8s.io/v99' },
    { name: 'unknown kind', data: { apiVersion: 'pod-security.admission.config.k8s.io/v1alpha1', kind: 'SomeConfiguration' }, expectErr: 'SomeConfiguration' },
    { name: 'unknown field', data: { apiVersion: 'pod-security.admission.config.k8s.io/v1alpha1', kind: 'PodSecurityConfiguration', deflaults: { enforce: 'baseline' } }, expectErr: 'unknown field "deflaults"' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.expectErr) {
        assert.throws(() => decodePodSecurityConfiguration(r.data), (e: unknown) => e instanceof ConfigDecodeError && e.message.includes(r.expectErr!));
      } else {
        assert.deepEqual(decodePodSecurityConfiguration(r.data), r.expectConfig);
      }
    });
  }
});

describe('decodePodSecurityConfiguration: the whole messages (apimachinery json serializer, strict)', () => {
  const v1 = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration' };
  const rows: { name: string; data: unknown; message: string }[] = [
    { name: 'a document without a kind (missing kind is checked first)', data: {}, message: `Object 'Kind' is missing in '{}'` },
    { name: 'an empty document is null', data: null, message: `Object 'Kind' is missing in 'null'` },
    { name: 'a version-less apiVersion names the version alone', data: { apiVersion: 'v1', kind: 'PodSecurityConfiguration' }, message: 'no kind "PodSecurityConfiguration" is registered for version "v1"' },
    { name: 'an AdmissionConfiguration is not a PodSecurityConfiguration', data: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration' }, message: 'no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1"' },
    { name: 'an apiVersion with two slashes', data: { apiVersion: 'a/b/c', kind: 'PodSecurityConfiguration' }, message: 'unexpected GroupVersion string: a/b/c' },
    { name: 'a list is no object', data: [v1], message: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }` },
    { name: 'a kind that is not a string', data: { ...v1, kind: 7 }, message: `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string` },
    { name: 'every unknown field, with its path (case-sensitive: Defaults is not defaults)', data: { ...v1, Defaults: {}, defaults: { enforce: 'baseline', enforcee: 'x' }, exemptions: { users: [] } },
      message: 'strict decoding error: unknown field "Defaults", unknown field "defaults.enforcee", unknown field "exemptions.users"' },
    { name: 'a level that is not a string', data: { ...v1, defaults: { enforce: 1 } }, message: 'json: cannot unmarshal number into Go struct field PodSecurityDefaults.defaults.enforce of type string' },
    { name: 'defaults that are not an object', data: { ...v1, defaults: 'baseline' }, message: 'json: cannot unmarshal string into Go struct field PodSecurityConfiguration.defaults of type v1.PodSecurityDefaults' },
    { name: 'an exemption list that is a string', data: { ...v1, exemptions: { namespaces: 'kube-system' } }, message: 'json: cannot unmarshal string into Go struct field PodSecurityExemptions.exemptions.namespaces of type []string' },
    { name: 'an exemption that is not a string names the list and the element type', data: { ...v1, exemptions: { usernames: ['alice', true] } }, message: 'json: cannot unmarshal bool into Go struct field PodSecurityExemptions.exemptions.usernames of type string' },
    { name: 'a type error comes before unknown fields', data: { ...v1, bogus: 1, defaults: { warn: [] } }, message: 'json: cannot unmarshal array into Go struct field PodSecurityDefaults.defaults.warn of type string' },
    { name: 'each version prints its own package', data: { ...v1, apiVersion: 'pod-security.admission.config.k8s.io/v1beta1', exemptions: [] }, message: 'json: cannot unmarshal array into Go struct field PodSecurityConfiguration.exemptions of type v1beta1.PodSecurityExemptions' },
  ];
  for (const r of rows) {
    it(r.name, () => assert.throws(() => decodePodSecurityConfiguration(r.data), (e: unknown) => e instanceof ConfigDecodeError && (assert.equal(e.message, r.message), true)));
  }
});

describe('SetDefaults_PodSecurityDefaults (every version)', () => {
  const rows: { name: string; defaults: unknown; want: unknown }[] = [
    { name: 'absent defaults: all privileged:latest', defaults: undefined, want: allDefaults },
    { name: 'null defaults: all privileged:latest', defaults: null, want: allDefaults },
    { name: 'empty strings are defaulted', defaults: { enforce: '', 'enforce-version': '', warn: '' }, want: allDefaults },
    { name: 'null members are defaulted', defaults: { audit: null, 'audit-version': null }, want: allDefaults },
    { name: 'set values are kept, even invalid ones (validation refuses those)', defaults: { enforce: 'restricted', 'enforce-version': 'v1.30', audit: 'baseline', 'audit-version': 'v1.0', warn: 'bogus', 'warn-version': 'v2' },
      want: { enforce: 'restricted', 'enforce-version': 'v1.30', audit: 'baseline', 'audit-version': 'v1.0', warn: 'bogus', 'warn-version': 'v2' } },
  ];
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    for (const r of rows) {
      it(`${version}: ${r.name}`, () => {
        const doc = { apiVersion: `pod-security.admission.config.k8s.io/${version}`, kind: 'PodSecurityConfiguration', ...(r.defaults === undefined ? {} : { defaults: r.defaults }) };
        assert.deepEqual(decodePodSecurityConfiguration(doc).defaults, r.want);
      });
    }
  }
  it('null exemption lists and null entries: empty lists and empty names', () => {
    const doc = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { usernames: null, namespaces: [null] } };
    assert.deepEqual(decodePodSecurityConfiguration(doc).exemptions, { usernames: [], namespaces: [''], runtimeClasses: [] });
  });
});

// Upstream's rows compare type and bad value; the messages are pinned here too.
const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const invalidValueUppercase = 'TEST';
const invalidValueChars = '_&$%#';
const invalidValueTooLong = 'testtesttesttesttesttesttesttesttesttesttesttesttesttesttesttest';
const invalidValueEmpty = '';
const validValue = 'testing';

describe('validatePodSecurityConfiguration (upstream validation_test.go TestValidatePodSecurityConfiguration)', () => {
  const rows: { name: string; config: PodSecurityConfiguration; want: string[] }[] = [
    {
      name: 'exemptions: bad names and repeats, namespaces then runtimeClasses then usernames',
      config: {
        defaults: { enforce: 'privileged', 'enforce-version': 'v1.22', audit: 'baseline', 'audit-version': 'v1.25', warn: 'restricted', 'warn-version': 'latest' },
        exemptions: {
          namespaces: [invalidValueEmpty, invalidValueChars, invalidValueUppercase, invalidValueTooLong, validValue, validValue],
          runtimeClasses: [invalidValueEmpty, invalidValueChars, invalidValueUppercase, validValue, validValue],
          usernames: [invalidValueEmpty, validValue, validValue],
        },
      },
      want: [
        `exemptions.namespaces[0]: Invalid value: "": ${labelMsg}`,
        `exemptions.namespaces[1]: Invalid value: "_&$%#": ${labelMsg}`,
        `exemptions.namespaces[2]: Invalid value: "TEST": ${labelMsg}`,
        `exemptions.namespaces[3]: Invalid value: "${invalidValueTooLong}": must be no more than 63 characters`,
        'exemptions.namespaces[5]: Duplicate value: "testing"',
        `exemptions.runtimeClasses[0]: Invalid value: "": ${subdomainMsg}`,
        `exemptions.runtimeClasses[1]: Invalid value: "_&$%#": ${subdomainMsg}`,
        `exemptions.runtimeClasses[2]: Invalid value: "TEST": ${subdomainMsg}`,
        'exemptions.runtimeClasses[4]: Duplicate value: "testing"',
        'exemptions.usernames[0]: Invalid value: "": username must not be empty',
        'exemptions.usernames[2]: Duplicate value: "testing"',
      ],
    },
    {
      // Upstream validates the internal object, where an empty warn is invalid; a decoded file
      // has its empty entries defaulted first (the SetDefaults rows above), so only bad values remain.
      name: 'defaults: enforce, enforce-version, warn, warn-version, audit, audit-version',
      config: {
        defaults: { enforce: 'baslein', 'enforce-version': 'v.122', audit: 'lorum', 'audit-version': 'ipsum', warn: 'privileged', 'warn-version': 'latest' },
        exemptions: {},
      },
      want: [
        'defaults.enforce: Invalid value: "baslein": must be one of privileged, baseline, restricted',
        'defaults.enforce-version: Invalid value: "v.122": must be "latest" or "v1.x"',
        'defaults.audit: Invalid value: "lorum": must be one of privileged, baseline, restricted',
        'defaults.audit-version: Invalid value: "ipsum": must be "latest" or "v1.x"',
      ],
    },
    {
      name: 'a namespace name may be 63 characters, a runtime class a dotted subdomain, a username anything non-empty',
      config: { defaults: allDefaults, exemptions: { namespaces: ['a'.repeat(63)], runtimeClasses: ['gvisor.example.com'], usernames: ['system:serviceaccount:kube-system:replicaset-controller', 'Alice Smith'] } },
      want: [],
    },
    { name: 'a namespace name is a label: no dots', config: { defaults: allDefaults, exemptions: { namespaces: ['kube.system'] } }, want: ['exemptions.namespaces[0]: Invalid value: "kube.system": must not contain dots'] },
    { name: 'a bad name repeated is reported at each place, never as a duplicate', config: { defaults: allDefaults, exemptions: { usernames: ['', ''] } },
      want: ['exemptions.usernames[0]: Invalid value: "": username must not be empty', 'exemptions.usernames[1]: Invalid value: "": username must not be empty'] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(validatePodSecurityConfiguration(r.config).map(errorString), r.want));
});

describe('exemption lookups (upstream exemptNamespace, exemptUser, exemptRuntimeClass)', () => {
  const ex = { namespaces: ['exempt-ns'], usernames: ['exempt-user'], runtimeClasses: ['exempt-runtimeclass'] };
  const rows: { name: string; got: boolean; want: boolean }[] = [
    { name: 'a listed namespace', got: isExemptNamespace(ex, 'exempt-ns'), want: true },
    { name: 'matching is exact (no prefix, case-sensitive)', got: isExemptNamespace(ex, 'exempt-ns-2') || isExemptNamespace(ex, 'Exempt-ns'), want: false },
    { name: 'an empty namespace is never exempt', got: isExemptNamespace({ namespaces: [''] }, ''), want: false },
    { name: 'a listed user', got: isExemptUser(ex, 'exempt-user'), want: true },
    { name: 'no user (a plan) is never exempt', got: isExemptUser({ usernames: [''] }, undefined), want: false },
    { name: 'a listed runtime class', got: isExemptRuntimeClass(ex, 'exempt-runtimeclass'), want: true },
    { name: 'no runtime class is never exempt', got: isExemptRuntimeClass({ runtimeClasses: [''] }, undefined) || isExemptRuntimeClass({ runtimeClasses: [''] }, ''), want: false },
    { name: 'no exemptions configured', got: isExemptNamespace({}, 'kube-system') || isExemptUser({}, 'admin') || isExemptRuntimeClass({}, 'kata'), want: false },
  ];
  for (const r of rows) it(r.name, () => assert.equal(r.got, r.want));

  const order: { name: string; namespace?: string; username?: string; want: string | undefined }[] = [
    { name: 'the namespace is asked first', namespace: 'exempt-ns', username: 'exempt-user', want: 'namespace' },
    { name: 'then the user', namespace: 'restricted-ns', username: 'exempt-user', want: 'user' },
    { name: 'neither', namespace: 'restricted-ns', username: 'test-user', want: undefined },
  ];
  for (const r of order) it(`requestExemption: ${r.name}`, () => assert.equal(requestExemption(ex, r.namespace, r.username), r.want));
});
