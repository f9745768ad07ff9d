// --admission-control-config-file as kube-apiserver reads it (apiserver pkg/admission/config.go
// ReadAdmissionConfiguration, ConfigFor, GetAdmissionPluginConfigurationFor; pod-security-admission
// load.LoadFromReader; the plugin's ValidateInitialization), from files on disk, and the rule
// that --pod-security and the file are not given together.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { podSecurityFromFlags, readPodSecurityConfiguration } from '../../src/cli/admissionconfig.js';
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
