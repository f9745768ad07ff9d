// certificates.k8s.io/v1 CertificateSigningRequest in the API server
// (pkg/registry/certificates/certificates/strategy.go): on create the requestor's identity is
// recorded in the spec and the status cleared; the spec never changes after; /status writes the
// certificate and conditions but not the approval, /approval writes Approved and Denied only.
// The request must parse as PKCS#10 with a valid signature (the validation upstream does with
// x509.ParseCertificateRequest).

import type { CertificateSigningRequest, CertificateSigningRequestCondition } from '../api/types.js';
import { validateCertificateSigningRequest, validateCertificateSigningRequestUpdate } from '../api/validation/certificates.js';
import { FieldPath, fieldError } from '../api/fielderrors.js';
import { parseCSR } from './pki.js';
import type { Api, Strategy } from './rest.js';
import { statusErrors } from './status.js';
import { metaTime } from '../api/metatime.js';

const group = 'certificates.k8s.io';
const kind = 'CertificateSigningRequest';
const approvalTypes = new Set(['Approved', 'Denied']);

/** populateConditionTimestamps: a new or changed condition gets the time of this write. */
function stampConditions(conds: CertificateSigningRequestCondition[] | undefined, old: CertificateSigningRequestCondition[] | undefined): CertificateSigningRequestCondition[] | undefined {
  if (!conds) return conds;
  const now = metaTime(new Date());
  return conds.map((c) => {
    const prev = old?.find((o) => o.type === c.type);
    return {
      ...c,
      lastUpdateTime: c.lastUpdateTime ?? now,
      lastTransitionTime: c.lastTransitionTime ?? (prev && prev.status === c.status ? (prev.lastTransitionTime ?? now) : now),
    };
  });
}

export const certificateSigningRequestStrategy: Strategy = {
  async create(obj, req, _api, _batch, track) {
    const csr = obj as CertificateSigningRequest;
    // The requester's identity is the server's to set, owned by no manager.
    track?.(csr);
    csr.status = {};
    if (csr.spec && typeof csr.spec === 'object') {
      csr.spec = { ...csr.spec, username: req.user.name, groups: [...req.user.groups] };
      delete csr.spec.uid;
      delete csr.spec.extra;
    }
    const errs = validateCertificateSigningRequest(csr);
    if (!errs.length) {
      const parsed = await parseCSR(Buffer.from(csr.spec.request, 'base64').toString('utf8'));
      if ('problem' in parsed) errs.push(fieldError.invalid(FieldPath.root('spec').child('request'), '<request>', parsed.problem));
    }
    if (errs.length) throw statusErrors.invalid(kind, group, csr.metadata?.name ?? '', errs);
    return { obj: csr };
  },
  async update(obj, old, _req, _api: Api, subresource) {
    const prev = old as CertificateSigningRequest;
    const next = obj as CertificateSigningRequest;
    // A null list item decodes, as in Go, to an empty condition (which validation then names).
    if (next.status?.conditions) next.status.conditions = next.status.conditions.map((c) => c ?? ({} as CertificateSigningRequestCondition));
    const oldConds = prev.status?.conditions ?? [];
    let csr: CertificateSigningRequest;
    if (subresource === 'status') {
      // The approval stays as it was; everything else of the status is the writer's.
      const conds = [...(next.status?.conditions ?? []).filter((c) => !approvalTypes.has(c.type)), ...oldConds.filter((c) => approvalTypes.has(c.type))];
      csr = { ...prev, metadata: next.metadata, status: { ...next.status, conditions: stampConditions(conds, oldConds) } };
    } else if (subresource === 'approval') {
      // Only Approved and Denied change; the certificate and other conditions stay.
      const conds = [...oldConds.filter((c) => !approvalTypes.has(c.type)), ...(next.status?.conditions ?? []).filter((c) => approvalTypes.has(c.type))];
      csr = { ...prev, metadata: next.metadata, status: { ...prev.status, conditions: stampConditions(conds, oldConds) } };
    } else {
      csr = { ...next, spec: next.spec ?? prev.spec, status: prev.status };
    }
    if (csr.status && !csr.status.conditions?.length) delete csr.status.conditions;
    const errs = validateCertificateSigningRequestUpdate(csr, prev);
    if (errs.length) throw statusErrors.invalid(kind, group, prev.metadata?.name ?? '', errs);
    return { obj: csr };
  },
};
