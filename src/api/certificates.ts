// certificates.k8s.io rules: the known signers and what each will sign
// (pkg/apis/certificates/v1/helpers.go, pkg/controller/certificates/signer's
// ValidateKubeletClientCSR and ValidateKubeletServingCSR), the conditions
// (pkg/apis/certificates/helpers.go), and the CSR approver's recognizers
// (pkg/controller/certificates/approver/sarapprove.go). The request's PKCS#10 is parsed by the
// caller (an I/O layer owns the X.509 library) and passed in as `RequestSubject`. Pure.

import type { CertificateSigningRequest, CertificateSigningRequestCondition } from './types.js';

export const signers = {
  kubeAPIServerClient: 'kubernetes.io/kube-apiserver-client',
  kubeletClient: 'kubernetes.io/kube-apiserver-client-kubelet',
  kubeletServing: 'kubernetes.io/kubelet-serving',
} as const;

export const nodesOrganization = 'system:nodes';
export const nodeCommonNamePrefix = 'system:node:';

/** certificates.KeyUsage values (k8s.io/api/certificates/v1). */
export const keyUsages = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
] as const;

/** What a PKCS#10 request asks for, as x509.CertificateRequest exposes it. */
export interface RequestSubject {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
}

function usagesProblem(usages: readonly string[], required: readonly string[], allowed: readonly string[]): string | undefined {
  const ok = required.every((u) => usages.includes(u)) && usages.every((u) => allowed.includes(u));
  return ok ? undefined : `usages did not match [${allowed.join(' ')}]`;
}

function nodeSubjectProblem(s: RequestSubject): string | undefined {
  if (s.organizations.length !== 1 || s.organizations[0] !== nodesOrganization) return `subject organization is not ${nodesOrganization}`;
  if (!s.commonName.startsWith(nodeCommonNamePrefix)) return `subject common name does not begin with ${nodeCommonNamePrefix}`;
  return undefined;
}

/** ValidateKubeletClientCSR: a node's client certificate, nothing else. */
export function kubeletClientProblem(s: RequestSubject, usages: readonly string[]): string | undefined {
  const subject = nodeSubjectProblem(s);
  if (subject) return subject;
  if (s.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (s.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (s.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (s.uris.length) return 'URI subjectAltNames are not allowed';
  return usagesProblem(usages, ['client auth'], ['digital signature', 'key encipherment', 'client auth']);
}

/** ValidateKubeletServingCSR: a node's serving certificate for its DNS names and IPs. */
export function kubeletServingProblem(s: RequestSubject, usages: readonly string[]): string | undefined {
  const subject = nodeSubjectProblem(s);
  if (subject) return subject;
  if (!s.dnsNames.length && !s.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (s.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (s.uris.length) return 'URI subjectAltNames are not allowed';
  return usagesProblem(usages, ['server auth'], ['digital signature', 'key encipherment', 'server auth']);
}

/** What the signer for `signerName` refuses in a request; undefined when it signs it. */
export function signerProblem(signerName: string, s: RequestSubject, usages: readonly string[]): string | undefined {
  switch (signerName) {
    case signers.kubeletClient:
      return kubeletClientProblem(s, usages);
    case signers.kubeletServing:
      return kubeletServingProblem(s, usages);
    case signers.kubeAPIServerClient:
      return usagesProblem(usages, ['client auth'], ['digital signature', 'key encipherment', 'client auth']);
    default:
      return `signer "${signerName}" is not served here`;
  }
}

/** The signer's certificate lifetime: the request's expirationSeconds capped at the cluster's (kube-controller-manager --cluster-signing-duration, 1 year). */
export const clusterSigningDurationSeconds = 365 * 24 * 3600;

export function certificateDurationSeconds(csr: CertificateSigningRequest): number {
  const asked = csr.spec.expirationSeconds;
  return asked && asked > 0 ? Math.min(asked, clusterSigningDurationSeconds) : clusterSigningDurationSeconds;
}

const condition = (csr: CertificateSigningRequest, type: string) => csr.status?.conditions?.find((c) => c.type === type && c.status === 'True');

export function isApproved(csr: CertificateSigningRequest): boolean {
  return !!condition(csr, 'Approved');
}
export function isDenied(csr: CertificateSigningRequest): boolean {
  return !!condition(csr, 'Denied');
}
export function isFailed(csr: CertificateSigningRequest): boolean {
  return !!condition(csr, 'Failed');
}

/** A condition as the controllers append it. */
export function newCondition(type: 'Approved' | 'Denied' | 'Failed', reason: string, message: string, now: string): CertificateSigningRequestCondition {
  return { type, status: 'True', reason, message, lastUpdateTime: now, lastTransitionTime: now };
}

/**
 * One of the approver's recognizers: the request it applies to, and the permission (a create of
 * `certificatesigningrequests/<subresource>`) whose holder gets it approved.
 */
export interface ApprovalRule {
  subresource: string;
  message: string;
  applies(csr: CertificateSigningRequest, s: RequestSubject): boolean;
}

const isNodeClientCert = (csr: CertificateSigningRequest, s: RequestSubject) =>
  csr.spec.signerName === signers.kubeletClient && !kubeletClientProblem(s, csr.spec.usages ?? []);

/**
 * sarapprove.go's recognizers in its order (selfnodeclient, then nodeclient), and one Bulkhead
 * adds: a node's serving certificate for itself, which upstream leaves to an approver outside
 * the control plane (k3s signs them itself). The node names its own addresses; the request is
 * approved when the requestor is the node the certificate is for.
 */
export const approvalRules: readonly ApprovalRule[] = [
  {
    subresource: 'selfnodeclient',
    message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
    applies: (csr, s) => isNodeClientCert(csr, s) && csr.spec.username === s.commonName,
  },
  {
    subresource: 'nodeclient',
    message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
    applies: (csr, s) => isNodeClientCert(csr, s),
  },
  {
    subresource: 'selfnodeserving',
    message: 'Auto approving self kubelet serving certificate after SubjectAccessReview.',
    applies: (csr, s) =>
      csr.spec.signerName === signers.kubeletServing && !kubeletServingProblem(s, csr.spec.usages ?? []) && csr.spec.username === s.commonName && (csr.spec.groups ?? []).includes(nodesOrganization),
  },
];
