// The certificates controllers of kube-controller-manager, composed: csrapproving (approval by
// the rules of src/api/certificates.ts, asked of the one authorizer as a SubjectAccessReview)
// and csrsigning with the cluster CA of the data directory as its signer
// (--cluster-signing-cert-file). Kept apart from start.ts so the composition there stays a list.

import { join, resolve } from 'node:path';
import { authorize } from '../apiserver/authorizer.js';
import { parseCSR, signCSR } from '../apiserver/pki.js';
import { rbacIndexOf } from '../apiserver/rbacindex.js';
import type { Api } from '../apiserver/rest.js';
import type { SharedInformerFactory } from '../client/factory.js';
import { LoopbackClient, type LoopbackIdentity } from '../client/loopback.js';
import { CSRApprovingController } from '../controllers/csrapproving.js';
import { CSRSigningController } from '../controllers/csrsigning.js';

export interface CertificateControllers {
  approver: CSRApprovingController;
  signer: CSRSigningController;
  start(): Promise<void>;
  stop(): void;
}

export function certificateControllers(api: Api, informers: SharedInformerFactory, dataDir: string, identity: (name: string) => LoopbackIdentity): CertificateControllers {
  const pkiDir = join(resolve(dataDir), 'pki');
  const parse = async (pem: string) => {
    const r = await parseCSR(pem);
    return 'problem' in r ? r : { subject: r.subject };
  };
  const approver = new CSRApprovingController(new LoopbackClient(api, identity('certificatesigningrequest-approving-controller')), informers, {
    parse,
    mayCreate: (user, subresource) =>
      authorize({ user, verb: 'create', resourceRequest: true, apiGroup: 'certificates.k8s.io', resource: 'certificatesigningrequests', subresource }, undefined, rbacIndexOf(api)).decision === 'Allow',
  });
  const signer = new CSRSigningController(new LoopbackClient(api, identity('certificatesigningrequest-signing-controller')), informers, {
    parse,
    sign: async (pem, usages, seconds) => {
      const r = await parseCSR(pem);
      if ('problem' in r) throw new Error(r.problem);
      return signCSR(pkiDir, r.csr, usages, seconds);
    },
  });
  return {
    approver,
    signer,
    async start() {
      await approver.start();
      await signer.start();
    },
    stop() {
      approver.stop();
      signer.stop();
    },
  };
}
