// The create-only review APIs, answered from the authorizer the server enforces and never
// stored, as upstream's registries do: authorization.k8s.io/v1 SelfSubjectAccessReview
// (pkg/registry/authorization/selfsubjectaccessreview/rest.go) and SelfSubjectRulesReview
// (pkg/registry/authorization/selfsubjectrulesreview/rest.go), and authentication.k8s.io/v1
// SelfSubjectReview (pkg/registry/authentication/selfsubjectreview/rest.go). `kubectl auth
// can-i` and `kubectl auth whoami` use them. SubjectAccessReview and TokenReview are what a
// delegating server asks (the agent's endpoint, as the kubelet's webhook authn/authz);
// LocalSubjectAccessReview is SubjectAccessReview confined to a namespace (a namespace admin's:
// system:aggregate-to-admin grants its create).

import type { IncomingMessage } from 'node:http';
import { fieldError, omitValue, type FieldError } from '../api/fielderrors.js';
import type { KubeObject } from '../api/types.js';
import type { AuthorizationAttributes } from './authorizer.js';
import type { NodeAwareAuthorizer, TokenAuthentication } from './auth.js';
import { decodeRequestObject } from './decode.js';
import type { Api, RequestInfo, UserInfo } from './rest.js';
import { decodeBody, isObject, mediaType, readBody, sendJSON } from './request.js';
import { groupVersion, type ResourceDef } from './resources.js';
import type { SubresourceHandler } from './subresources.js';
import { StatusError, statusErrors } from './status.js';
import { metaTime } from '../api/metatime.js';
import { defaultServiceAccountIssuer } from '../api/serviceaccounttoken.js';

type JSONObject = Record<string, unknown>;

async function reviewBody(def: ResourceDef, req: IncomingMessage, info: RequestInfo): Promise<JSONObject> {
  const what = `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`;
  const raw = decodeBody(await readBody(req), mediaType(req), what);
  if (!isObject(raw)) throw statusErrors.badRequest(`${what}: the body must be a JSON object`);
  if (raw.kind !== undefined && raw.kind !== def.kind) {
    throw statusErrors.badRequest(`${what}: the kind of the object (${String(raw.kind)}) does not match the kind of the request (${def.kind})`);
  }
  if (raw.apiVersion !== undefined && raw.apiVersion !== groupVersion(def)) {
    throw statusErrors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${groupVersion(def)})`);
  }
  return decodeRequestObject(def, raw, info) as unknown as JSONObject;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Go's %#v of the internal NonResourceAttributes, as field.Invalid prints a struct. */
function goNonResource(n: JSONObject): string {
  return `authorization.NonResourceAttributes{Path:${JSON.stringify(str(n.path))}, Verb:${JSON.stringify(str(n.verb))}}`;
}

/** ValidateSelfSubjectAccessReviewSpec: exactly one of the two attribute sets. */
function validateAttributes(spec: JSONObject, errs: FieldError[]): void {
  const res = spec.resourceAttributes;
  const non = spec.nonResourceAttributes;
  if (isObject(res) && isObject(non)) {
    errs.push(fieldError.invalid('spec.nonResourceAttributes', omitValue, `${goNonResource(non)}: cannot be specified in combination with resourceAttributes`));
  }
  if (!isObject(res) && !isObject(non)) {
    errs.push(fieldError.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
}

/** ValidateSubjectAccessReviewSpec: the attributes, and someone to ask about. */
function validateSubjectAccessReviewSpec(spec: JSONObject, errs: FieldError[]): void {
  validateAttributes(spec, errs);
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  if (!str(spec.user) && groups.length === 0) errs.push(fieldError.invalid('spec.user', str(spec.user), 'at least one of user or group must be specified'));
}

/** Semantic.DeepEqual(ObjectMeta{}, meta) without managedFields (and `except`): zero values (as protobuf bodies carry them) are empty. */
function metadataEmpty(review: JSONObject, except?: string): boolean {
  const meta = isObject(review.metadata) ? review.metadata : {};
  const zero = (v: unknown) => v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
  return !Object.entries(meta).some(([k, v]) => k !== 'managedFields' && k !== except && !zero(v));
}

const specOf = (review: JSONObject): JSONObject => (isObject(review.spec) ? review.spec : {});

/** ValidateSelfSubjectAccessReview (metadata must be empty; Bulkhead omits the Go rendering of it). */
export function validateSelfSubjectAccessReview(review: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  validateAttributes(specOf(review), errs);
  if (!metadataEmpty(review)) errs.push(fieldError.invalid('metadata', omitValue, 'must be empty'));
  return errs;
}

/** ValidateSubjectAccessReview: the spec's errors, then the metadata's. */
export function validateSubjectAccessReview(review: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  validateSubjectAccessReviewSpec(specOf(review), errs);
  if (!metadataEmpty(review)) errs.push(fieldError.invalid('metadata', omitValue, 'must be empty'));
  return errs;
}

/**
 * ValidateLocalSubjectAccessReview: a SubjectAccessReview whose metadata holds only its namespace
 * (the request's, set before validation), asking about resources of that namespace only.
 */
export function validateLocalSubjectAccessReview(review: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(review);
  validateSubjectAccessReviewSpec(spec, errs);
  if (!metadataEmpty(review, 'namespace')) errs.push(fieldError.invalid('metadata', omitValue, 'must be empty except for namespace'));
  const namespace = str(isObject(review.metadata) ? review.metadata.namespace : undefined);
  if (isObject(spec.resourceAttributes) && str(spec.resourceAttributes.namespace) !== namespace) {
    errs.push(fieldError.invalid('spec.resourceAttributes.namespace', str(spec.resourceAttributes.namespace), 'must match metadata.namespace'));
  }
  if (isObject(spec.nonResourceAttributes)) {
    errs.push(fieldError.invalid('spec.nonResourceAttributes', omitValue, `${goNonResource(spec.nonResourceAttributes)}: disallowed on this kind of request`));
  }
  return errs;
}

/**
 * apierrors.NewInvalid(authorizationapi.Kind(selfSAR.Kind), "", errs): the decoded internal
 * object has no kind, so upstream's message starts with ".authorization.k8s.io".
 */
function invalidReview(errs: FieldError[]): StatusError {
  const e = statusErrors.invalid('', 'authorization.k8s.io', '', errs);
  e.status.details = { ...e.status.details, kind: '' };
  return e;
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
function attributesOf(info: RequestInfo, spec: JSONObject): AuthorizationAttributes {
  return attributesFor(info.user, spec);
}

/** The user a SubjectAccessReview asks about (authorizationutil.AuthorizationAttributesFrom). */
function specUser(spec: JSONObject): UserInfo {
  const groups = Array.isArray(spec.groups) ? spec.groups.filter((g): g is string => typeof g === 'string') : [];
  return { name: str(spec.user), groups };
}

function attributesFor(user: UserInfo, spec: JSONObject): AuthorizationAttributes {
  if (isObject(spec.resourceAttributes)) {
    const r = spec.resourceAttributes;
    const fs = isObject(r.fieldSelector) ? str(r.fieldSelector.rawSelector) : '';
    return {
      user,
      verb: str(r.verb),
      resourceRequest: true,
      namespace: str(r.namespace) || undefined,
      apiGroup: str(r.group),
      resource: str(r.resource),
      subresource: str(r.subresource) || undefined,
      name: str(r.name) || undefined,
      fieldSelector: fs || undefined,
    };
  }
  const n = isObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {};
  return { user, verb: str(n.verb), resourceRequest: false, path: str(n.path) };
}

function created(res: Parameters<SubresourceHandler>[4], def: ResourceDef, body: JSONObject, status: unknown, info: RequestInfo): void {
  const meta = isObject(body.metadata) ? body.metadata : {};
  sendJSON(res, 201, { kind: def.kind, apiVersion: groupVersion(def), metadata: meta, ...(body.spec !== undefined ? { spec: body.spec } : {}), status }, info.warnings);
}

/** go-restful finds no route for the method: the apiserver's ServiceErrorHandler answers 405. */
function onlyPost(req: IncomingMessage): void {
  if (req.method !== 'POST') {
    throw statusErrors.methodNotAllowed();
  }
}

/** The audiences a token is checked for when a TokenReview names none: the API server's own. */
export const apiAudiences = [defaultServiceAccountIssuer];

export interface ReviewOptions {
  /** Who a bearer token is (the server's token authenticator); undefined for an unknown token. */
  authenticateToken?(token: string, audiences?: readonly string[]): TokenAuthentication | Promise<TokenAuthentication>;
}

export function accessReviewHandlers(authorizer: NodeAwareAuthorizer, reviewOpts: ReviewOptions = {}): Record<string, SubresourceHandler> {
  /** The decision, with the node authorizer's pod relationship checked as the handler checks it. */
  async function decide(api: Api, attrs: AuthorizationAttributes) {
    let d = authorizer.decide(attrs);
    if (d.decision === 'Allow' && attrs.resourceRequest && attrs.apiGroup === '' && attrs.resource === 'pods' && attrs.name && attrs.namespace) {
      const pods = api.def('pods');
      const pod = await api.tryGet<KubeObject>(pods, attrs.namespace, attrs.name);
      const why = authorizer.relationship(attrs.user, pods, pod);
      if (why) d = { decision: 'NoOpinion', reason: why };
    }
    return d;
  }

  // pkg/registry/authorization/subjectaccessreview/rest.go: the same question for any user.
  const subjectAccessReview: SubresourceHandler = async (api: Api, def, _path, req, res, info) => {
    onlyPost(req);
    const body = await reviewBody(def, req, info);
    const errs = validateSubjectAccessReview(body);
    if (errs.length) throw invalidReview(errs);
    const spec = body.spec as JSONObject;
    const d = await decide(api, attributesFor(specUser(spec), spec));
    created(res, def, body, { allowed: d.decision === 'Allow', ...(d.decision === 'Deny' ? { denied: true } : {}), ...(d.reason ? { reason: d.reason } : {}) }, info);
  };

  // pkg/registry/authorization/localsubjectaccessreview/rest.go: a SubjectAccessReview in the
  // path's namespace (NamespaceLifecycle lets it through for a namespace that does not exist).
  const localSubjectAccessReview: SubresourceHandler = async (api: Api, def, path, req, res, info) => {
    onlyPost(req);
    const body = await reviewBody(def, req, info);
    const namespace = path.namespace ?? '';
    // The create handler's EnsureObjectNamespaceMatchesRequestNamespace.
    const meta = isObject(body.metadata) ? body.metadata : {};
    if (str(meta.namespace) && meta.namespace !== namespace) throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    const review: JSONObject = { ...body, metadata: { ...meta, namespace } };
    const errs = validateLocalSubjectAccessReview(review);
    if (errs.length) throw invalidReview(errs);
    const spec = review.spec as JSONObject;
    const d = await decide(api, attributesFor(specUser(spec), spec));
    created(res, def, review, { allowed: d.decision === 'Allow', ...(d.decision === 'Deny' ? { denied: true } : {}), ...(d.reason ? { reason: d.reason } : {}) }, info);
  };

  // pkg/registry/authentication/tokenreview/storage.go.
  const tokenReview: SubresourceHandler = async (_api, def, _path, req, res, info) => {
    onlyPost(req);
    const body = await reviewBody(def, req, info);
    const spec = isObject(body.spec) ? body.spec : {};
    const token = str(spec.token);
    if (!token) throw statusErrors.badRequest('token is required for TokenReview in authentication');
    const asked = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    const r = await reviewOpts.authenticateToken?.(token, asked.length ? asked : undefined);
    // The data directory's and bootstrap tokens are audience-agnostic: valid for whatever
    // audiences were asked about; a service account token says which it is good for.
    let status: Record<string, unknown> = { user: {} };
    if (r && 'user' in r) {
      const u = r.user;
      const user = { username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups], ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}) };
      status = { authenticated: true, user, audiences: r.audiences ?? (asked.length ? asked : apiAudiences) };
    } else if (r) status = { user: {}, error: r.error };
    created(res, def, body, status, info);
  };

  const selfSubjectAccessReview: SubresourceHandler = async (api: Api, def, _path, req, res, info) => {
    onlyPost(req);
    const body = await reviewBody(def, req, info);
    const errs = validateSelfSubjectAccessReview(body);
    if (errs.length) throw invalidReview(errs);
    const d = await decide(api, attributesOf(info, body.spec as JSONObject));
    created(res, def, body, { allowed: d.decision === 'Allow', ...(d.decision === 'Deny' ? { denied: true } : {}), ...(d.reason ? { reason: d.reason } : {}) }, info);
  };

  const selfSubjectRulesReview: SubresourceHandler = async (_api, def, _path, req, res, info) => {
    onlyPost(req);
    const body = await reviewBody(def, req, info);
    const spec = isObject(body.spec) ? body.spec : {};
    if (!str(spec.namespace)) throw statusErrors.badRequest('no namespace on request');
    const rules = authorizer.rulesFor(info.user, str(spec.namespace));
    created(res, def, body, rules, info);
  };

  const selfSubjectReview: SubresourceHandler = async (api, def, _path, req, res, info) => {
    onlyPost(req);
    await reviewBody(def, req, info);
    const u = info.user;
    const status = { userInfo: { username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups], ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}) } };
    sendJSON(res, 201, { kind: def.kind, apiVersion: groupVersion(def), metadata: { creationTimestamp: metaTime(api.now()) }, status }, info.warnings);
  };

  return {
    'authorization.k8s.io/selfsubjectaccessreviews': selfSubjectAccessReview,
    'authorization.k8s.io/selfsubjectrulesreviews': selfSubjectRulesReview,
    'authentication.k8s.io/selfsubjectreviews': selfSubjectReview,
    'authorization.k8s.io/subjectaccessreviews': subjectAccessReview,
    'authorization.k8s.io/localsubjectaccessreviews': localSubjectAccessReview,
    'authentication.k8s.io/tokenreviews': tokenReview,
  };
}
