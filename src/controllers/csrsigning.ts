// The CSR signing controller (pkg/controller/certificates/signer): an approved request for a
// signer served here (src/api/certificates.ts signerProblem) gets its certificate from the
// cluster CA in status.certificate; one the signer refuses gets a Failed condition with the
// reason, as upstream's does. The CA itself is the composition's (kube-controller-manager's
// --cluster-signing-cert-file), passed in as `sign`.

import { certificateDurationSeconds, isApproved, isFailed, newCondition, signers, signerProblem, type RequestSubject } from '../api/certificates.js';
import type { CertificateSigningRequest } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { certificateSigningRequestsRef } from '../client/resources.js';
import { KeyedQueue } from './queue.js';
import { QueueController } from './workqueuecontroller.js';
import { metaTime } from '../api/metatime.js';

export interface CSRSigningDeps {
  parse(pem: string): Promise<{ subject: RequestSubject } | { problem: string }>;
  /** The CA's certificate (PEM) for the request, with these usages, valid for `seconds`. */
  sign(pem: string, usages: readonly string[], seconds: number): Promise<string>;
}

const served: readonly string[] = [signers.kubeletClient, signers.kubeletServing, signers.kubeAPIServerClient];

export class CSRSigningController extends QueueController {
  protected readonly queue: KeyedQueue;
  private readonly csrs: SharedIndexInformer<CertificateSigningRequest>;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly deps: CSRSigningDeps) {
    super();
    this.queue = new KeyedQueue((name) => this.sync(name));
    this.csrs = informers.informerFor<CertificateSigningRequest>(certificateSigningRequestsRef);
  }

  async start(): Promise<void> {
    const enqueue = (csr: CertificateSigningRequest) => {
      if (pending(csr)) this.queue.add(csr.metadata.name!);
    };
    this.unsubscribe.push(this.csrs.addEventHandler({ add: enqueue, update: (_o, csr) => enqueue(csr) }));
    await this.csrs.start();
  }

  async sync(name: string): Promise<void> {
    const csr = this.csrs.lister.get(undefined, name);
    if (!csr || !pending(csr)) return;
    const pem = Buffer.from(csr.spec.request, 'base64').toString('utf8');
    const parsed = await this.deps.parse(pem);
    const usages = csr.spec.usages ?? [];
    const problem = 'problem' in parsed ? parsed.problem : signerProblem(csr.spec.signerName, parsed.subject, usages);
    const now = metaTime(this.client.now());
    const status: CertificateSigningRequest['status'] = problem
      ? { ...csr.status, conditions: [...(csr.status?.conditions ?? []), newCondition('Failed', 'SignerValidationFailure', `invalid certificate request: ${problem}`, now)] }
      : { ...csr.status, certificate: Buffer.from(await this.deps.sign(pem, usages, certificateDurationSeconds(csr))).toString('base64') };
    try {
      await this.client.update(certificateSigningRequestsRef, undefined, { ...csr, status }, { subresource: 'status' });
    } catch (e) {
      if (isStatus(e, 409, 404)) return;
      throw e;
    }
  }
}

/** Approved, not failed, not yet signed, for a signer served here. */
function pending(csr: CertificateSigningRequest): boolean {
  return isApproved(csr) && !isFailed(csr) && !csr.status?.certificate && served.includes(csr.spec.signerName);
}
