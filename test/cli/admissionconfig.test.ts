// --admission-control-config-file as kube-apiserver reads it (apiserver pkg/admission/config.go
// ReadAdmissionConfiguration, ConfigFor, GetAdmissionPluginConfigurationFor; pod-security-admission
// load.LoadFromReader; the plugin's ValidateInitialization; the ResourceQuota plugin's
// LoadConfiguration and ValidateConfiguration, wrapped by plugins.go InitPlugin), from files on
// disk, and the rule that --pod-security and the file are not given together.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { podSecurityFromFlags, readPodSecurityConfiguration, readResourceQuotaConfiguration, resourceQuotaFromFlags } from '../../src/cli/admissionconfig.js';
import { DEFAULT_RESOURCE_QUOTA_CONFIGURATION, type ResourceQuotaConfiguration } from '../../src/quota/config.js';
import { UsageError } from '../../src/cli/errors.js';
import { DEFAULT_POD_SECURITY_CONFIGURATION, type PodSecurityConfiguration } from '../../src/podsecurity/index.js';

const dir = mkdtempSync(join(tmpdir(), 'bulkhead-admissionconfig-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` (name → text) into a fresh directory of `dir`; returns that directory. */
let n = 0;
function files(contents: Record<string, string>): string {
  const d = join(dir, String(n++));
  mkdirSync(join(d, 'plugins'), { recursive: true });
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(d, name), text);
  return d;
}

const admission = (plugins: string) => `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n${plugins}`;
const psc = 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: restricted\nexemptions:\n  namespaces: [kube-system]\n';
const restricted: PodSecurityConfiguration = {
  defaults: { ...DEFAULT_POD_SECURITY_CONFIGURATION.defaults, enforce: 'restricted' },
  exemptions: { usernames: [], namespaces: ['kube-system'], runtimeClasses: [] },
};
const indent = (s: string, by: string) => s.split('\n').map((l) => (l ? by + l : l)).join('\n');

describe('readPodSecurityConfiguration: where the configuration comes from', () => {
  const rows: { name: string; files: Record<string, string>; want: PodSecurityConfiguration }[] = [
    { name: 'inline', files: { 'admission.yaml': admission(`- name: PodSecurity\n  configuration:\n${indent(psc, '    ')}`) }, want: restricted },
    { name: 'a relative path is the configuration file\'s directory\'s', files: { 'admission.yaml': admission('- name: PodSecurity\n  path: plugins/psa.yaml\n'), 'plugins/psa.yaml': psc }, want: restricted },
    { name: 'JSON is YAML', files: { 'admission.json': JSON.stringify({ apiVersion: 'apiserver.k8s.io/v1alpha1', kind: 'AdmissionConfiguration', plugins: [{ name: 'PodSecurity', path: 'psa.json' }] }), 'psa.json': '{"apiVersion":"pod-security.admission.config.k8s.io/v1beta1","kind":"PodSecurityConfiguration","defaults":{"enforce":"restricted"},"exemptions":{"namespaces":["kube-system"]}}' }, want: restricted },
    { name: 'an empty plugin file: the defaults', files: { 'admission.yaml': admission('- name: PodSecurity\n  path: psa.yaml\n'), 'psa.yaml': '' }, want: DEFAULT_POD_SECURITY_CONFIGURATION },
    { name: 'no PodSecurity entry: the defaults (other plugins\' entries ignored, their files never read)', files: { 'admission.yaml': admission('- name: EventRateLimit\n  path: missing.yaml\n') }, want: DEFAULT_POD_SECURITY_CONFIGURATION },
    { name: 'a legacy ImagePolicyWebhook file: the defaults', files: { 'admission.yaml': 'imagePolicy:\n  kubeConfigFile: /etc/kube\n' }, want: DEFAULT_POD_SECURITY_CONFIGURATION },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = files(r.files);
      const name = Object.keys(r.files).find((f) => f.startsWith('admission'))!;
      assert.deepEqual(readPodSecurityConfiguration(join(d, name)), r.want);
    });
  }
});

describe('podSecurityFromFlags: a bad file is one line naming the file and the reason', () => {
  const rows: { name: string; files: Record<string, string>; message: (file: string, d: string) => string }[] = [
    { name: 'an empty file', files: { 'admission.yaml': '' }, message: () => `Object 'Kind' is missing in 'null'` },
    { name: 'not YAML', files: { 'admission.yaml': 'plugins: [\n' }, message: () => 'error converting YAML to JSON: deficient indentation (2:1)' },
    { name: 'a PodSecurityConfiguration where the AdmissionConfiguration belongs', files: { 'admission.yaml': psc }, message: () => 'no kind "PodSecurityConfiguration" is registered for version "pod-security.admission.config.k8s.io/v1"' },
    { name: 'a missing plugin file', files: { 'admission.yaml': admission('- name: PodSecurity\n  path: nope.yaml\n') },
      message: (_f, d) => `couldn't open admission plugin configuration ${join(d, 'nope.yaml')}: ENOENT: no such file or directory, open '${join(d, 'nope.yaml')}'` },
    { name: 'a plugin file of only a comment has no kind', files: { 'admission.yaml': admission('- name: PodSecurity\n  path: psa.yaml\n'), 'psa.yaml': '# nothing yet\n' },
      message: () => `couldn't init admission plugin "PodSecurity": Object 'Kind' is missing in 'null'` },
    { name: 'an unknown field', files: { 'admission.yaml': admission('- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    exemption:\n      namespaces: [a]\n') },
      message: () => `couldn't init admission plugin "PodSecurity": strict decoding error: unknown field "exemption"` },
    { name: 'an empty inline configuration has no kind', files: { 'admission.yaml': admission('- name: PodSecurity\n  configuration: {}\n') }, message: () => `couldn't init admission plugin "PodSecurity": Object 'Kind' is missing in '{}'` },
    { name: 'one invalid value', files: { 'admission.yaml': admission(`- name: PodSecurity\n  configuration:\n${indent(psc.replace('restricted', 'strict'), '    ')}`) },
      message: () => 'PodSecurity invalid: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted' },
    { name: 'several invalid values, as an aggregate', files: { 'admission.yaml': admission('- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    defaults: {warn-version: "1.30"}\n    exemptions: {usernames: [alice, alice]}\n') },
      message: () => 'PodSecurity invalid: [defaults.warn-version: Invalid value: "1.30": must be "latest" or "v1.x", exemptions.usernames[1]: Duplicate value: "alice"]' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = files(r.files);
      const file = join(d, 'admission.yaml');
      assert.throws(() => podSecurityFromFlags({ admissionControlConfigFile: file }), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.equal(e.message, `--admission-control-config-file ${file}: ${r.message(file, d)}`);
        return true;
      });
    });
  }
  it('a file that is not there', () => {
    const file = join(dir, 'absent.yaml');
    assert.throws(() => podSecurityFromFlags({ admissionControlConfigFile: file }),
      { message: `--admission-control-config-file ${file}: unable to read admission control configuration from "${file}" [ENOENT: no such file or directory, open '${file}']` });
  });
});

describe('podSecurityFromFlags: --pod-security and the file', () => {
  it('neither: every default privileged:latest, no exemptions', () => assert.deepEqual(podSecurityFromFlags({}), { defaults: { enforce: 'privileged', 'enforce-version': 'latest' }, exemptions: {} }));
  it('--pod-security alone: the enforce default, no exemptions', () => assert.deepEqual(podSecurityFromFlags({ podSecurity: 'baseline:v1.30' }), { defaults: { enforce: 'baseline', 'enforce-version': 'v1.30' }, exemptions: {} }));
  it('the file alone: its configuration', () => {
    const d = files({ 'admission.yaml': admission('- name: PodSecurity\n  path: psa.yaml\n'), 'psa.yaml': psc });
    assert.deepEqual(podSecurityFromFlags({ admissionControlConfigFile: join(d, 'admission.yaml') }), restricted);
  });
  it('both: refused, whatever the file holds', () => {
    assert.throws(() => podSecurityFromFlags({ podSecurity: 'privileged', admissionControlConfigFile: join(dir, 'absent.yaml') }),
      { message: '--pod-security and --admission-control-config-file cannot be used together: set defaults.enforce (and enforce-version) in the PodSecurity configuration instead' });
  });
});

const rqc = 'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  matchScopes:\n  - scopeName: PriorityClass\n    operator: In\n    values: [cluster-services]\n';
const clusterServices: ResourceQuotaConfiguration = {
  limitedResources: [{ apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] }],
};

describe('readResourceQuotaConfiguration: where the configuration comes from', () => {
  const rows: { name: string; files: Record<string, string>; want: ResourceQuotaConfiguration }[] = [
    { name: 'inline', files: { 'admission.yaml': admission(`- name: ResourceQuota\n  configuration:\n${indent(rqc, '    ')}`) }, want: clusterServices },
    { name: 'a relative path is the configuration file\'s directory\'s', files: { 'admission.yaml': admission('- name: ResourceQuota\n  path: plugins/quota.yaml\n'), 'plugins/quota.yaml': rqc }, want: clusterServices },
    { name: 'the legacy group\'s Configuration', files: { 'admission.yaml': admission('- name: ResourceQuota\n  path: quota.json\n'), 'quota.json': '{"apiVersion":"resourcequota.admission.k8s.io/v1beta1","kind":"Configuration","limitedResources":[{"resource":"pods","matchScopes":[{"scopeName":"PriorityClass","operator":"In","values":["cluster-services"]}]}]}' }, want: clusterServices },
    { name: 'beside a PodSecurity entry', files: { 'admission.yaml': admission(`- name: PodSecurity\n  configuration:\n${indent(psc, '    ')}- name: ResourceQuota\n  configuration:\n${indent(rqc, '    ')}`) }, want: clusterServices },
    { name: 'the first ResourceQuota entry wins', files: { 'admission.yaml': admission(`- name: ResourceQuota\n  configuration:\n${indent(rqc, '    ')}- name: ResourceQuota\n  path: missing.yaml\n`) }, want: clusterServices },
    { name: 'no ResourceQuota entry: nothing limited', files: { 'admission.yaml': admission(`- name: PodSecurity\n  configuration:\n${indent(psc, '    ')}`) }, want: DEFAULT_RESOURCE_QUOTA_CONFIGURATION },
    { name: 'an entry with neither configuration nor path: nothing limited', files: { 'admission.yaml': admission('- name: ResourceQuota\n') }, want: DEFAULT_RESOURCE_QUOTA_CONFIGURATION },
    { name: 'no limitedResources: none', files: { 'admission.yaml': admission('- name: ResourceQuota\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: ResourceQuotaConfiguration\n') }, want: { limitedResources: [] } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = files(r.files);
      assert.deepEqual(readResourceQuotaConfiguration(join(d, 'admission.yaml')), r.want);
    });
  }
});

describe('resourceQuotaFromFlags: a bad file is one line naming the file and the reason', () => {
  const init = (why: string) => `couldn't init admission plugin "ResourceQuota": ${why}`;
  const rows: { name: string; files: Record<string, string>; message: (d: string) => string }[] = [
    // LoadConfiguration reads a plugin file of no bytes as a document, not as no configuration (config_test.go "empty").
    { name: 'an empty plugin file has no kind', files: { 'admission.yaml': admission('- name: ResourceQuota\n  path: quota.yaml\n'), 'quota.yaml': '' }, message: () => init("Object 'Kind' is missing in 'null'") },
    { name: 'an unknown kind (config_test.go "unknown type")', files: { 'admission.yaml': admission('- name: ResourceQuota\n  configuration: {"kind":"Unknown","apiVersion":"v1"}\n') }, message: () => init('no kind "Unknown" is registered for version "v1"') },
    { name: 'an unknown field (config_test.go "unknown field error; strict validation")', files: { 'admission.yaml': admission('- name: ResourceQuota\n  path: quota.yaml\n'), 'quota.yaml': 'kind: ResourceQuotaConfiguration\napiVersion: apiserver.config.k8s.io/v1\nlimitedResources:\n- apiGroup: ""\n  foo:      bar\n  resource: persistentvolumeclaims\n  matchContains:\n  - .storageclass.storage.k8s.io/requests.storage\n' },
      message: () => init('strict decoding error: unknown field "limitedResources[0].foo"') },
    // Upstream: `strict decoding error: yaml: unmarshal errors: line 6: key "resource" already set in map` (config_test.go "duplicate field error"); refused here as a YAML error, on one line.
    { name: 'a duplicate field is refused (its YAML)', files: { 'admission.yaml': admission('- name: ResourceQuota\n  path: quota.yaml\n'), 'quota.yaml': 'kind: ResourceQuotaConfiguration\napiVersion: apiserver.config.k8s.io/v1\nlimitedResources:\n- apiGroup: ""\n  resource: persistentvolumeclaims\n  resource: persistentvolumeclaims\n' },
      message: () => init('error converting YAML to JSON: duplicated mapping key (6:3)') },
    { name: 'a missing plugin file', files: { 'admission.yaml': admission('- name: ResourceQuota\n  path: nope.yaml\n') },
      message: (d) => `couldn't open admission plugin configuration ${join(d, 'nope.yaml')}: ENOENT: no such file or directory, open '${join(d, 'nope.yaml')}'` },
    { name: 'a ResourceQuotaConfiguration where the AdmissionConfiguration belongs', files: { 'admission.yaml': rqc }, message: () => 'no kind "ResourceQuotaConfiguration" is registered for version "apiserver.config.k8s.io/v1"' },
    { name: 'an entry without a resource (validation_test.go "missing apiGroupResource")', files: { 'admission.yaml': admission('- name: ResourceQuota\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: ResourceQuotaConfiguration\n    limitedResources:\n    - matchContains: [requests.cpu]\n') },
      message: () => init('limitedResources[0].resource: Required value') },
    { name: 'several, as an aggregate', files: { 'admission.yaml': admission('- name: ResourceQuota\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: ResourceQuotaConfiguration\n    limitedResources: [{}, {resource: pods}, {apiGroup: apps}]\n') },
      message: () => init('[limitedResources[0].resource: Required value, limitedResources[2].resource: Required value]') },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = files(r.files);
      const file = join(d, 'admission.yaml');
      assert.throws(() => resourceQuotaFromFlags({ admissionControlConfigFile: file }), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.equal(e.message, `--admission-control-config-file ${file}: ${r.message(d)}`);
        return true;
      });
    });
  }
  it('no file: nothing limited', () => assert.deepEqual(resourceQuotaFromFlags({}), DEFAULT_RESOURCE_QUOTA_CONFIGURATION));
  it('a scope selector upstream cannot match is accepted, with a warning for each', () => {
    const d = files({ 'admission.yaml': admission('- name: ResourceQuota\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: ResourceQuotaConfiguration\n    limitedResources:\n    - resource: pods\n      matchScopes:\n      - {scopeName: BestEffort, operator: Exists}\n      - {scopeName: PriorityClass, operator: In}\n    - resource: pods\n      matchScopes: [{scopeName: PriorityClass, operator: Gt, values: ["1"]}]\n') });
    const file = join(d, 'admission.yaml');
    const warnings: string[] = [];
    const config = resourceQuotaFromFlags({ admissionControlConfigFile: file }, (m) => warnings.push(m));
    assert.equal(config.limitedResources.length, 2);
    const tail = '; with it, kube-apiserver admits every pod without checking its quotas, and so does Bulkhead';
    assert.deepEqual(warnings, [
      `--admission-control-config-file ${file}: ResourceQuota limitedResources[0].matchScopes[1]: error on matching scope {PriorityClass In []}: failed to parse and convert selector: values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty${tail}`,
      `--admission-control-config-file ${file}: ResourceQuota limitedResources[1].matchScopes[0]: error on matching scope {PriorityClass Gt [1]}: failed to parse and convert selector: "Gt" is not a valid scope selector operator${tail}`,
    ]);
  });
  it('a PodSecurity plugin file that is not YAML is the plugin\'s error', () => {
    const d = files({ 'admission.yaml': admission('- name: PodSecurity\n  path: psa.yaml\n'), 'psa.yaml': 'defaults: [\n' });
    const file = join(d, 'admission.yaml');
    assert.throws(() => podSecurityFromFlags({ admissionControlConfigFile: file }),
      { message: `--admission-control-config-file ${file}: couldn't init admission plugin "PodSecurity": error converting YAML to JSON: deficient indentation (2:1)` });
  });
});
