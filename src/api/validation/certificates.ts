// CertificateSigningRequest validation (pkg/apis/certificates/validation/validation.go): the
// spec on create and never changed after, the conditions on status and approval writes. That
// the request parses as PKCS#10 is checked by the API server, which holds the X.509 library.

import { FieldPath, fieldError, type FieldError } from '../fielderrors.js';
import { keyUsages } from '../certificates.js';
import type { CertificateSigningRequest } from '../types.js';
import { validateObjectMeta, validateObjectMetaUpdate, fieldImmutableErrorMsg } from './objectmeta.js';
import { isDNS1123Subdomain } from './names.js';

const spec = FieldPath.root('spec');
const status = FieldPath.root('status');

/** ValidateCertificateRequestName: any name that is a valid path segment. */
function pathSegmentName(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  for (const bad of ['/', '%']) if (name.includes(bad)) return [`may not contain '${bad}'`];
  return [];
}

/** validateSignerName: `<domain>/<path>`, the domain a DNS subdomain. */
function signerNameErrors(name: string): FieldError[] {
  const p = spec.child('signerName');
  if (!name) return [fieldError.required(p, '')];
  const [domain, ...rest] = name.split('/');
  if (!rest.length || !rest.join('/')) return [fieldError.invalid(p, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  return isDNS1123Subdomain(domain!).map((m) => fieldError.invalid(p, name, `the domain portion of the signerName ${m}`));
}

const pemHeader = '-----BEGIN CERTIFICATE REQUEST-----';

export function validateCertificateSigningRequest(csr: CertificateSigningRequest): FieldError[] {
  const errs = validateObjectMeta(csr?.metadata, { namespaced: false, nameFn: pathSegmentName });
  const s = csr?.spec;
  if (!s || typeof s !== 'object') return [...errs, fieldError.required(spec, '')];
  const pem = typeof s.request === 'string' ? Buffer.from(s.request, 'base64').toString('latin1') : '';
  if (!pem) errs.push(fieldError.required(spec.child('request'), ''));
  else if (!pem.includes(pemHeader)) errs.push(fieldError.invalid(spec.child('request'), '<request>', 'PEM block type must be CERTIFICATE REQUEST'));
  errs.push(...signerNameErrors(s.signerName ?? ''));
  if (s.expirationSeconds !== undefined && s.expirationSeconds < 600) {
    errs.push(fieldError.invalid(spec.child('expirationSeconds'), s.expirationSeconds, 'may not specify an expirationSeconds less than 600 seconds (10 minutes)'));
  }
  const usages = s.usages ?? [];
  if (!usages.length) errs.push(fieldError.required(spec.child('usages'), ''));
  const seen = new Set<string>();
  usages.forEach((u, i) => {
    const p = spec.child('usages').index(i);
    if (!(keyUsages as readonly string[]).includes(u)) errs.push(fieldError.notSupported(p, u, keyUsages));
    else if (seen.has(u)) errs.push(fieldError.duplicate(p, u));
    seen.add(u);
  });
  return errs;
}

/** The conditions' rules, for the status and approval writes. */
export function validateCertificateSigningRequestConditions(csr: CertificateSigningRequest): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  (csr.status?.conditions ?? []).forEach((c, i) => {
    const p = status.child('conditions').index(i);
    if (!c.type) errs.push(fieldError.required(p.child('type'), ''));
    else if (types.has(c.type) && ['Approved', 'Denied', 'Failed'].includes(c.type)) errs.push(fieldError.duplicate(p.child('type'), c.type));
    types.add(c.type);
    if (!c.status) errs.push(fieldError.required(p.child('status'), ''));
    else if (!['True', 'False', 'Unknown'].includes(c.status)) errs.push(fieldError.notSupported(p.child('status'), c.status, ['False', 'True', 'Unknown']));
  });
  const approved = csr.status?.conditions?.some((c) => c.type === 'Approved' && c.status === 'True');
  const denied = csr.status?.conditions?.some((c) => c.type === 'Denied' && c.status === 'True');
  if (approved && denied) errs.push(fieldError.invalid(status.child('conditions'), '<conditions>', 'Approved and Denied conditions are mutually exclusive'));
  return errs;
}

export function validateCertificateSigningRequestUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  const errs = validateObjectMetaUpdate(csr?.metadata, old?.metadata);
  if (JSON.stringify(csr.spec) !== JSON.stringify(old.spec)) errs.push(fieldError.invalid(spec, '<spec>', fieldImmutableErrorMsg));
  errs.push(...validateCertificateSigningRequestConditions(csr));
  // Once issued, a certificate stays (validateCertificateSigningRequestStatusUpdate).
  const was = old.status?.certificate;
  if (was && csr.status?.certificate !== was) errs.push(fieldError.invalid(status.child('certificate'), '<certificate>', 'updates may not modify existing certificate content'));
  return errs;
}
