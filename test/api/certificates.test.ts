// certificates.k8s.io rules (src/api/certificates.ts, src/api/validation/certificates.ts): what
// each signer signs, which requests the approver's recognizers take, and CSR validation.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { approvalRules, certificateDurationSeconds, signerProblem, signers, type RequestSubject } from '../../src/api/certificates.js';
import type { CertificateSigningRequest } from '../../src/api/types.js';
import { validateCertificateSigningRequest, validateCertificateSigningRequestUpdate } from '../../src/api/validation/certificates.js';

const subject = (over: Partial<RequestSubject> = {}): RequestSubject => ({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [], ...over });
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const servingUsages = ['digital signature', 'key encipherment', 'server auth'];

describe('what each signer signs', () => {
  const rows: [string, string, RequestSubject, string[], string | undefined][] = [
    ['kubelet client: a node identity', signers.kubeletClient, subject(), clientUsages, undefined],
    ['kubelet client: another organization', signers.kubeletClient, subject({ organizations: ['system:masters'] }), clientUsages, 'subject organization is not system:nodes'],
    ['kubelet client: a second organization', signers.kubeletClient, subject({ organizations: ['system:nodes', 'system:masters'] }), clientUsages, 'subject organization is not system:nodes'],
    ['kubelet client: a CN that is not a node', signers.kubeletClient, subject({ commonName: 'admin' }), clientUsages, 'subject common name does not begin with system:node:'],
    ['kubelet client: DNS names', signers.kubeletClient, subject({ dnsNames: ['n1'] }), clientUsages, 'DNS subjectAltNames are not allowed'],
    ['kubelet client: IPs', signers.kubeletClient, subject({ ipAddresses: ['10.0.0.1'] }), clientUsages, 'IP subjectAltNames are not allowed'],
    ['kubelet client: server auth', signers.kubeletClient, subject(), [...clientUsages, 'server auth'], 'usages did not match [digital signature key encipherment client auth]'],
    ['kubelet client: without client auth', signers.kubeletClient, subject(), ['digital signature'], 'usages did not match [digital signature key encipherment client auth]'],
    ['kubelet serving: a node with an IP', signers.kubeletServing, subject({ ipAddresses: ['10.0.0.1'] }), servingUsages, undefined],
    ['kubelet serving: no names', signers.kubeletServing, subject(), servingUsages, 'DNS or IP subjectAltName is required'],
    ['kubelet serving: client auth', signers.kubeletServing, subject({ dnsNames: ['n1'] }), clientUsages, 'usages did not match [digital signature key encipherment server auth]'],
    ['an unknown signer', 'example.com/x', subject(), clientUsages, 'signer "example.com/x" is not served here'],
  ];
  for (const [name, signer, s, usages, want] of rows) it(name, () => assert.equal(signerProblem(signer, s, usages), want));
});

const csr = (signerName: string, usages: string[], username: string, groups: string[], extra: Partial<CertificateSigningRequest['spec']> = {}): CertificateSigningRequest => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'node-csr-x' },
  spec: { request: Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n').toString('base64'), signerName, usages, username, groups, ...extra },
});

describe('the approver\'s recognizers', () => {
  const applying = (c: CertificateSigningRequest, s: RequestSubject) => approvalRules.filter((r) => r.applies(c, s)).map((r) => r.subresource);
  const rows: [string, CertificateSigningRequest, RequestSubject, string[]][] = [
    ['a bootstrapper asking for a node client certificate: nodeclient', csr(signers.kubeletClient, clientUsages, 'system:bootstrap:abcdef', ['system:bootstrappers']), subject(), ['nodeclient']],
    ['a node renewing its own client certificate: selfnodeclient first', csr(signers.kubeletClient, clientUsages, 'system:node:n1', ['system:nodes']), subject(), ['selfnodeclient', 'nodeclient']],
    ['a node asking for its own serving certificate: selfnodeserving', csr(signers.kubeletServing, servingUsages, 'system:node:n1', ['system:nodes']), subject({ ipAddresses: ['10.0.0.1'] }), ['selfnodeserving']],
    ['a node asking for another node\'s serving certificate: none', csr(signers.kubeletServing, servingUsages, 'system:node:n2', ['system:nodes']), subject({ ipAddresses: ['10.0.0.1'] }), []],
    ['a bootstrapper asking for a serving certificate: none', csr(signers.kubeletServing, servingUsages, 'system:node:n1', ['system:bootstrappers']), subject({ ipAddresses: ['10.0.0.1'] }), []],
    ['a client certificate for another organization: none', csr(signers.kubeletClient, clientUsages, 'system:bootstrap:abcdef', ['system:bootstrappers']), subject({ organizations: ['system:masters'] }), []],
  ];
  for (const [name, c, s, want] of rows) it(name, () => assert.deepEqual(applying(c, s), want));
});

describe('certificate lifetime', () => {
  const rows: [string, number | undefined, number][] = [
    ['none asked: the cluster signing duration (one year)', undefined, 365 * 86400],
    ['a shorter one asked: as asked', 3600, 3600],
    ['a longer one asked: capped at the cluster signing duration', 10 * 365 * 86400, 365 * 86400],
  ];
  for (const [name, asked, want] of rows) it(name, () => assert.equal(certificateDurationSeconds(csr(signers.kubeletClient, clientUsages, 'u', [], asked ? { expirationSeconds: asked } : {})), want));
});

describe('CertificateSigningRequest validation', () => {
  const ok = csr(signers.kubeletClient, clientUsages, 'u', []);
  const rows: [string, CertificateSigningRequest, string[]][] = [
    ['a complete request', ok, []],
    ['no usages', { ...ok, spec: { ...ok.spec, usages: [] } }, ['spec.usages: FieldValueRequired']],
    ['an unknown usage', { ...ok, spec: { ...ok.spec, usages: ['flying'] } }, ['spec.usages[0]: FieldValueNotSupported']],
    ['a repeated usage', { ...ok, spec: { ...ok.spec, usages: ['client auth', 'client auth'] } }, ['spec.usages[1]: FieldValueDuplicate']],
    ['no signer', { ...ok, spec: { ...ok.spec, signerName: '' } }, ['spec.signerName: FieldValueRequired']],
    ['a signer without a path', { ...ok, spec: { ...ok.spec, signerName: 'kubernetes.io' } }, ['spec.signerName: FieldValueInvalid']],
    ['a request that is not a CSR PEM', { ...ok, spec: { ...ok.spec, request: Buffer.from('hello').toString('base64') } }, ['spec.request: FieldValueInvalid']],
    ['a too short expiration', { ...ok, spec: { ...ok.spec, expirationSeconds: 60 } }, ['spec.expirationSeconds: FieldValueInvalid']],
  ];
  const fields = (errs: { field: string; type: string }[]) => errs.map((e) => `${e.field}: ${e.type}`);
  for (const [name, c, want] of rows) {
    it(name, () => {
      const got = fields(validateCertificateSigningRequest(c) as never);
      assert.deepEqual(got, want);
    });
  }
  it('Approved and Denied together are refused', () => {
    const both = { ...ok, status: { conditions: [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }] } };
    assert.match(JSON.stringify(validateCertificateSigningRequestUpdate(both, ok)), /mutually exclusive/);
  });
  it('an issued certificate does not change', () => {
    const issued = { ...ok, status: { certificate: 'QQ==' } };
    assert.match(JSON.stringify(validateCertificateSigningRequestUpdate({ ...ok, status: { certificate: 'Qg==' } }, issued)), /may not modify existing certificate/);
  });
});
