// The CSR approving controller (pkg/controller/certificates/approver/sarapprove.go): a pending
// CertificateSigningRequest that one of the recognizers of src/api/certificates.ts applies to is
// approved when its requestor may create the recognizer's `certificatesigningrequests/<sub>`
// (a SubjectAccessReview of the requestor recorded in the spec). Others are left for a person
// (`kubectl certificate approve`). Reads CSRs from the shared informer, writes /approval.

import { approvalRules, isApproved, isDenied, newCondition, type RequestSubject } from '../api/certificates.js';
import type { CertificateSigningRequest } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { certificateSigningRequestsRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';
import { QueueController } from './workqueuecontroller.js';
import { metaTime } from '../api/metatime.js';

export interface CSRApprovingDeps {
  /** The request's subject, or why it does not parse (the composition owns the X.509 library). */
  parse(pem: string): Promise<{ subject: RequestSubject } | { problem: string }>;
  /** A SubjectAccessReview: may this user create certificatesigningrequests/<subresource>? */
  mayCreate(user: { name: string; groups: string[] }, subresource: string): boolean;
}

export class CSRApprovingController extends QueueController {
  protected readonly queue: KeyedQueue;
  private readonly csrs: SharedIndexInformer<CertificateSigningRequest>;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly deps: CSRApprovingDeps) {
    super();
    this.queue = new KeyedQueue((name) => this.sync(name));
    this.csrs = informers.informerFor<CertificateSigningRequest>(certificateSigningRequestsRef);
  }

  async start(): Promise<void> {
    const enqueue = (csr: CertificateSigningRequest) => {
      if (!isApproved(csr) && !isDenied(csr)) this.queue.add(csr.metadata.name!);
    };
    this.unsubscribe.push(this.csrs.addEventHandler({ add: enqueue, update: (_o, csr) => enqueue(csr) }));
    await this.csrs.start();
  }

  async sync(name: string): Promise<void> {
    const csr = this.csrs.lister.get(undefined, name);
    if (!csr || isApproved(csr) || isDenied(csr) || csr.status?.certificate) return;
    const parsed = await this.deps.parse(Buffer.from(csr.spec.request, 'base64').toString('utf8'));
    if ('problem' in parsed) return;
    const user = { name: csr.spec.username ?? '', groups: csr.spec.groups ?? [] };
    const rule = approvalRules.find((r) => r.applies(csr, parsed.subject) && this.deps.mayCreate(user, r.subresource));
    if (!rule) return;
    const approved: CertificateSigningRequest = {
      ...csr,
      status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), newCondition('Approved', 'AutoApproved', rule.message, metaTime(this.client.now()))] },
    };
    try {
      await this.client.update(certificateSigningRequestsRef, undefined, approved, { subresource: 'approval' });
    } catch (e) {
      // A newer version is on its way through the informer, or the request went.
      if (isStatus(e, 409, 404)) return;
      throw e;
    }
  }
}
