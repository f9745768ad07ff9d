// The create-only review APIs, answered from the authorizer the server enforces and never
// stored, as upstream's registries do: authorization.k8s.io/v1 SelfSubjectAccessReview
// (pkg/registry/authorization/selfsubjectaccessreview/rest.go) and SelfSubjectRulesReview
// (pkg/registry/authorization/selfsubjectrulesreview/rest.go), and authentication.k8s.io/v1
// SelfSubjectReview (pkg/registry/authentication/selfsubjectreview/rest.go). `kubectl auth
// can-i` and `kubectl auth whoami` use them.

import type { IncomingMessage } from 'node:http';
import { fieldError, omitValue, type FieldError } from '../api/fielderrors.js';
import type { KubeObject } from '../api/types.js';
import { rulesFor, type AuthorizationAttributes } from './authorizer.js';
import type { NodeAwareAuthorizer } from './auth.js';
import { decodeRequestObject } from './decode.js';
import { timestamp } from './objects.js';
import type { Api, RequestInfo } from './rest.js';
import { decodeBody, isObject, mediaType, readBody, sendJSON } from './request.js';
import { groupVersion, type ResourceDef } from './resources.js';
import type { SubresourceHandler } from './subresources.js';
import { StatusError, statusErrors } from './status.js';

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

/** ValidateSelfSubjectAccessReview (metadata must be empty; Bulkhead omits the Go rendering of it). */
export function validateSelfSubjectAccessReview(review: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = isObject(review.spec) ? review.spec : {};
  const res = spec.resourceAttributes;
  const non = spec.nonResourceAttributes;
  if (isObject(res) && isObject(non)) {
    errs.push(fieldError.invalid('spec.nonResourceAttributes', omitValue, `${goNonResource(non)}: cannot be specified in combination with resourceAttributes`));
  }
  if (!isObject(res) && !isObject(non)) {
    errs.push(fieldError.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  const meta = isObject(review.metadata) ? review.metadata : {};
  // Semantic.DeepEqual(ObjectMeta{}, meta): zero values (as protobuf bodies carry them) are empty.
  const zero = (v: unknown) => v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
  if (Object.entries(meta).some(([k, v]) => k !== 'managedFields' && !zero(v))) {
    errs.push(fieldError.invalid('metadata', omitValue, 'must be empty'));
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
  const user = info.user;
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

export function accessReviewHandlers(authorizer: NodeAwareAuthorizer): Record<string, SubresourceHandler> {
  const selfSubjectAccessReview: SubresourceHandler = async (api: Api, def, _path, req, res, info) => {
    onlyPost(req);
    const body = await reviewBody(def, req, info);
    const errs = validateSelfSubjectAccessReview(body);
    if (errs.length) throw invalidReview(errs);
    const attrs = attributesOf(info, body.spec as JSONObject);
    let d = authorizer.decide(attrs);
    // The node authorizer's pod relationship, checked against the pod as the handler does.
    if (d.decision === 'Allow' && attrs.resourceRequest && attrs.apiGroup === '' && attrs.resource === 'pods' && attrs.name && attrs.namespace) {
      const pods = api.def('pods');
      const pod = await api.tryGet<KubeObject>(pods, attrs.namespace, attrs.name);
      const why = authorizer.relationship(info.user, pods, pod);
      if (why) d = { decision: 'NoOpinion', reason: why };
    }
    created(res, def, body, { allowed: d.decision === 'Allow', ...(d.decision === 'Deny' ? { denied: true } : {}), ...(d.reason ? { reason: d.reason } : {}) }, info);
  };

  const selfSubjectRulesReview: SubresourceHandler = async (_api, def, _path, req, res, info) => {
    onlyPost(req);
    const body = await reviewBody(def, req, info);
    const spec = isObject(body.spec) ? body.spec : {};
    if (!str(spec.namespace)) throw statusErrors.badRequest('no namespace on request');
    const rules = rulesFor(info.user);
    created(res, def, body, rules, info);
  };

  const selfSubjectReview: SubresourceHandler = async (api, def, _path, req, res, info) => {
    onlyPost(req);
    await reviewBody(def, req, info);
    const status = { userInfo: { username: info.user.name, groups: [...info.user.groups] } };
    sendJSON(res, 201, { kind: def.kind, apiVersion: groupVersion(def), metadata: { creationTimestamp: timestamp(api.now()) }, status }, info.warnings);
  };

  return {
    'authorization.k8s.io/selfsubjectaccessreviews': selfSubjectAccessReview,
    'authorization.k8s.io/selfsubjectrulesreviews': selfSubjectRulesReview,
    'authentication.k8s.io/selfsubjectreviews': selfSubjectReview,
  };
}
