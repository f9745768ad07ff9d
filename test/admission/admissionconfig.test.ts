// The admission control configuration file, as k8s.io/apiserver pkg/admission/config.go reads
// it (v1.32; rows after its config_test.go TestReadAdmissionConfiguration and TestEmbeddedConfiguration,
// Bulkhead enabling none of the legacy plugins; a relative path's fix-up is test/cli/admissionconfig's): which
// document is an AdmissionConfiguration, and where a plugin's configuration comes from.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admissionPluginConfiguration, decodeAdmissionConfiguration, type AdmissionPluginConfiguration } from '../../src/admission/admissionconfig.js';
import { ConfigDecodeError } from '../../src/api/configfile.js';

const v1 = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration' };
const psc = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { namespaces: ['kube-system'] } };

describe('decodeAdmissionConfiguration (ReadAdmissionConfiguration)', () => {
  const rows: { name: string; doc: unknown; want?: AdmissionPluginConfiguration[]; error?: string }[] = [
    { name: 'apiserver.config.k8s.io/v1: every entry, in order', doc: { ...v1, plugins: [{ name: 'PodSecurity', configuration: psc }, { name: 'EventRateLimit', path: 'eventconfig.yaml' }] },
      want: [{ name: 'PodSecurity', path: '', configuration: psc }, { name: 'EventRateLimit', path: 'eventconfig.yaml' }] },
    { name: 'the legacy apiserver.k8s.io/v1alpha1', doc: { apiVersion: 'apiserver.k8s.io/v1alpha1', kind: 'AdmissionConfiguration', plugins: [{ name: 'PodSecurity', path: '/etc/psa.yaml' }] },
      want: [{ name: 'PodSecurity', path: '/etc/psa.yaml' }] },
    { name: 'upstream "v1alpha1 configuration - abspath": an entry without a path or configuration is kept', doc: { apiVersion: 'apiserver.k8s.io/v1alpha1', kind: 'AdmissionConfiguration', plugins: [{ name: 'ImagePolicyWebhook', path: '/tmp/image-policy-webhook.json' }, { name: 'ResourceQuota' }] },
      want: [{ name: 'ImagePolicyWebhook', path: '/tmp/image-policy-webhook.json' }, { name: 'ResourceQuota', path: '' }] },
    { name: 'upstream "v1 legacy configuration" (TestEmbeddedConfiguration): an inline configuration without a type is passed on as it is', doc: { ...v1, plugins: [{ name: 'Foo', configuration: { foo: 'bar' } }] },
      want: [{ name: 'Foo', path: '', configuration: { foo: 'bar' } }] },
    { name: 'no plugins', doc: v1, want: [] },
    { name: 'null plugins', doc: { ...v1, plugins: null }, want: [] },
    { name: 'unknown fields are ignored (the codec is not strict)', doc: { ...v1, extra: 1, plugins: [{ name: 'PodSecurity', path: 'p.yaml', comment: 'x' }] }, want: [{ name: 'PodSecurity', path: 'p.yaml' }] },
    { name: 'a null configuration is none (a nil pointer)', doc: { ...v1, plugins: [{ name: 'PodSecurity', configuration: null, path: 'p.yaml' }] }, want: [{ name: 'PodSecurity', path: 'p.yaml' }] },
    { name: 'a configuration of any JSON value is kept for the plugin to decode', doc: { ...v1, plugins: [{ name: 'PodSecurity', configuration: 'text' }] }, want: [{ name: 'PodSecurity', path: '', configuration: 'text' }] },
    // The two files that predate AdmissionConfiguration configure ImagePolicyWebhook and PodNodeSelector only.
    { name: 'upstream "legacy configuration not using legacy plugins"', doc: { imagePolicy: { kubeConfigFile: '/home/user/.kube/config', allowTTL: 30 }, podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: '' } }, want: [] },
    { name: 'a legacy ImagePolicyWebhook file: no entry for Bulkhead', doc: { imagePolicy: { kubeConfigFile: '/etc/k' } }, want: [] },
    { name: 'a legacy PodNodeSelector file: no entry for Bulkhead', doc: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'a=b' } }, want: [] },
    { name: 'a document without a kind', doc: { plugins: [] }, error: `Object 'Kind' is missing in '{"plugins":[]}'` },
    { name: 'an empty file', doc: null, error: `Object 'Kind' is missing in 'null'` },
    { name: 'a document without an apiVersion', doc: { kind: 'AdmissionConfiguration' }, error: `Object 'apiVersion' is missing in '{"kind":"AdmissionConfiguration"}'` },
    { name: 'the v1 kind under the v1alpha1 group', doc: { apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'AdmissionConfiguration' }, error: 'no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1alpha1"' },
    { name: 'a PodSecurityConfiguration given directly', doc: psc, error: 'no kind "PodSecurityConfiguration" is registered for version "pod-security.admission.config.k8s.io/v1"' },
    { name: 'plugins that are not a list', doc: { ...v1, plugins: { PodSecurity: {} } }, error: 'json: cannot unmarshal object into Go struct field AdmissionConfiguration.plugins of type []v1.AdmissionPluginConfiguration' },
    { name: 'a name that is not a string', doc: { ...v1, plugins: [{ name: 1 }] }, error: 'json: cannot unmarshal number into Go struct field AdmissionPluginConfiguration.plugins.name of type string' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error) assert.throws(() => decodeAdmissionConfiguration(r.doc), (e: unknown) => e instanceof ConfigDecodeError && (assert.equal(e.message, r.error), true));
      else assert.deepEqual(decodeAdmissionConfiguration(r.doc), r.want);
    });
  }
});

describe('admissionPluginConfiguration (ConfigFor)', () => {
  const rows: { name: string; plugins: AdmissionPluginConfiguration[]; want: unknown }[] = [
    { name: 'the inline configuration', plugins: [{ name: 'PodSecurity', path: '', configuration: psc }], want: { inline: psc } },
    { name: 'the inline configuration wins over the path', plugins: [{ name: 'PodSecurity', path: 'p.yaml', configuration: psc }], want: { inline: psc } },
    { name: 'the path when there is nothing inline', plugins: [{ name: 'PodSecurity', path: 'p.yaml' }], want: { path: 'p.yaml' } },
    { name: 'the first entry with the name wins', plugins: [{ name: 'PodSecurity', path: 'first.yaml' }, { name: 'PodSecurity', path: '', configuration: psc }], want: { path: 'first.yaml' } },
    { name: 'an entry with neither: the plugin\'s defaults', plugins: [{ name: 'PodSecurity', path: '' }], want: undefined },
    { name: 'other plugins\' entries are not the plugin\'s', plugins: [{ name: 'EventRateLimit', path: 'e.yaml' }, { name: 'ResourceQuota', path: '', configuration: {} }], want: undefined },
    { name: 'names match case-sensitively', plugins: [{ name: 'podsecurity', path: 'p.yaml' }], want: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(admissionPluginConfiguration(r.plugins, 'PodSecurity'), r.want));
});
