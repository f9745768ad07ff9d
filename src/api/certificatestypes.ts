// certificates.k8s.io/v1 objects (split from types.ts, which re-exports them).

import type { KubeObject, ObjectMeta } from './types.js';

/** certificates.k8s.io/v1 (k8s.io/api/certificates/v1 types.go). */
export interface CertificateSigningRequestCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    /** PEM CERTIFICATE REQUEST, base64 in JSON. */
    request: string;
    signerName: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: {
    conditions?: CertificateSigningRequestCondition[];
    /** PEM CERTIFICATE, base64 in JSON. */
    certificate?: string;
  };
}
