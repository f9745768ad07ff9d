import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderKubeconfig } from '../../src/api/kubeconfig.js';

const ca = '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('kubeconfig files as Bulkhead writes them', () => {
  const rows: { name: string; got: () => string; want: string[] }[] = [
    {
      name: 'a bearer-token user in the default namespace (the admin kubeconfig)',
      got: () => renderKubeconfig({ server: 'https://127.0.0.1:6443', ca, user: 'admin', credentials: { token: 't0k' }, namespace: 'default' }),
      want: ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: bulkhead', '  cluster:', '    server: https://127.0.0.1:6443', `    certificate-authority-data: ${b64(ca)}`, 'users:', '- name: admin', '  user:', '    token: t0k', 'contexts:', '- name: bulkhead', '  context:', '    cluster: bulkhead', '    user: admin', '    namespace: default', 'current-context: bulkhead', ''],
    },
    {
      name: 'a client-certificate user, PEM written base64, no namespace (a joined node)',
      got: () => renderKubeconfig({ server: 'https://10.0.0.1:6443', ca, user: 'system:node:n1', credentials: { clientCertificate: 'CERT', clientKey: 'KEY' } }),
      want: ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: bulkhead', '  cluster:', '    server: https://10.0.0.1:6443', `    certificate-authority-data: ${b64(ca)}`, 'users:', '- name: system:node:n1', '  user:', `    client-certificate-data: ${b64('CERT')}`, `    client-key-data: ${b64('KEY')}`, 'contexts:', '- name: bulkhead', '  context:', '    cluster: bulkhead', '    user: system:node:n1', 'current-context: bulkhead', ''],
    },
    {
      name: 'a context name of its own names the cluster too',
      got: () => renderKubeconfig({ server: 'https://h:1', ca, user: 'u', credentials: { token: 'x' }, context: 'lab' }),
      want: ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: lab', '  cluster:', '    server: https://h:1', `    certificate-authority-data: ${b64(ca)}`, 'users:', '- name: u', '  user:', '    token: x', 'contexts:', '- name: lab', '  context:', '    cluster: lab', '    user: u', 'current-context: lab', ''],
    },
  ];
  for (const r of rows) it(r.name, () => assert.equal(r.got(), r.want.join('\n')));
});
