// certificates.k8s.io/v1 CertificateSigningRequest: how a node that joins with a bootstrap token
// asks for its client certificate (and, once it is a node, its serving certificate), after
// upstream's k8s.io/api/certificates/v1/types.go.

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const kindOf = (kind: string) => ({ gvk: [gvk('certificates.k8s.io', 'v1', kind)] });

export const certificatesSchemas: readonly SchemaDef[] = [
  struct(
    PKG.certificates,
    'CertificateSigningRequest',
    'A request for a certificate from a named signer, approved or denied, then signed.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'CertificateSigningRequestSpec! | The request: the PKCS#10 CSR, the signer, the usages. Immutable; the requestor fields are set by the server.',
      status: 'CertificateSigningRequestStatus | Approval conditions and the issued certificate.',
    },
    kindOf('CertificateSigningRequest'),
  ),
  struct(
    PKG.certificates,
    'CertificateSigningRequestList',
    'A list of certificate signing requests.',
    { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]CertificateSigningRequest! | The requests.' },
    kindOf('CertificateSigningRequestList'),
  ),
  struct(PKG.certificates, 'CertificateSigningRequestSpec', 'What is requested and by whom.', {
    request: 'bytes! lt=atomic | A PEM-encoded PKCS#10 certificate request (CERTIFICATE REQUEST block).',
    signerName: 's! | The signer asked to sign, e.g. kubernetes.io/kube-apiserver-client-kubelet.',
    expirationSeconds: 'i32 | Requested validity of the certificate; the signer may issue a shorter one. At least 600.',
    usages: '[]s go=KeyUsage lt=atomic | Key usages asked for, e.g. digital signature, client auth.',
    username: 's | The requesting user, set by the server.',
    uid: 's | The requesting user\'s UID, set by the server.',
    groups: '[]s lt=atomic | The requesting user\'s groups, set by the server.',
    extra: '{}[]s | The requesting user\'s extra attributes, set by the server.',
  }),
  struct(PKG.certificates, 'CertificateSigningRequestStatus', 'The decision and the result.', {
    conditions: '[]CertificateSigningRequestCondition lt=map lk=type | Approved, Denied or Failed.',
    certificate: 'bytes lt=atomic | The issued certificate, PEM-encoded, set by the signer once approved.',
  }),
  struct(PKG.certificates, 'CertificateSigningRequestCondition', 'One condition of a request.', {
    type: 's! go=RequestConditionType | Approved, Denied or Failed.',
    status: 's! go=ConditionStatus | True, False or Unknown.',
    reason: 's | A brief reason, e.g. AutoApproved.',
    message: 's | Human-readable details.',
    lastUpdateTime: 'Time | When the condition was last updated.',
    lastTransitionTime: 'Time | When the condition last changed status.',
  }),
];
