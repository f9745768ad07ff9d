// authorization.k8s.io/v1 SelfSubjectAccessReview and SelfSubjectRulesReview, and
// authentication.k8s.io/v1 SelfSubjectReview: the create-only review kinds `kubectl auth can-i`
// and `kubectl auth whoami` POST (k8s.io/api authorization/v1 and authentication/v1 types.go).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const authz = (kind: string) => ({ gvk: [gvk('authorization.k8s.io', 'v1', kind)] });

export const accessSchemas: readonly SchemaDef[] = [
  struct(
    PKG.authorization,
    'SelfSubjectAccessReview',
    'Asks whether the caller may perform an action. Exactly one of resourceAttributes and nonResourceAttributes is set.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata; must be empty.',
      spec: 'SelfSubjectAccessReviewSpec! | The action asked about.',
      status: 'SubjectAccessReviewStatus | Whether the action is allowed, filled in by the server.',
    },
    authz('SelfSubjectAccessReview'),
  ),
  struct(PKG.authorization, 'SelfSubjectAccessReviewSpec', 'The action asked about: on a resource or on a non-resource path.', {
    resourceAttributes: 'ResourceAttributes | A request on a resource.',
    nonResourceAttributes: 'NonResourceAttributes | A request on a non-resource path.',
  }),
  struct(PKG.authorization, 'ResourceAttributes', 'The attributes of a resource request, as the authorizer sees them.', {
    namespace: 's | Namespace of the action; empty for cluster-scoped resources or all namespaces.',
    verb: 's | get, list, watch, create, update, patch, delete, deletecollection, or * for all.',
    group: 's | API group of the resource; * for all.',
    version: 's | API version of the resource; * for all.',
    resource: 's | The resource, e.g. pods; * for all.',
    subresource: 's | The subresource, e.g. status; empty for none.',
    name: 's | The object, for get, update, patch and delete; empty for all.',
    fieldSelector: 'FieldSelectorAttributes | The field selector of a list or watch.',
    labelSelector: 'LabelSelectorAttributes | The label selector of a list or watch.',
  }),
  struct(PKG.authorization, 'FieldSelectorAttributes', 'A field selector, as the raw string or as requirements.', {
    rawSelector: 's | The selector as a query parameter would carry it.',
    requirements: '[]FieldSelectorRequirement lt=atomic | The parsed requirements.',
  }),
  struct(PKG.meta, 'FieldSelectorRequirement', 'A requirement on one field.', {
    key: 's! | The field.',
    operator: 's! | In, NotIn, Exists or DoesNotExist.',
    values: '[]s lt=atomic | The values, for In and NotIn.',
  }),
  struct(PKG.authorization, 'LabelSelectorAttributes', 'A label selector, as the raw string or as requirements.', {
    rawSelector: 's | The selector as a query parameter would carry it.',
    requirements: '[]LabelSelectorRequirement lt=atomic | The parsed requirements.',
  }),
  struct(PKG.authorization, 'NonResourceAttributes', 'The attributes of a request on a non-resource path.', {
    path: 's | The URL path, e.g. /healthz.',
    verb: 's | The lower-cased HTTP method, e.g. get.',
  }),
  struct(PKG.authorization, 'SubjectAccessReviewStatus', 'The answer of an access review.', {
    allowed: 'b! | Whether the action is allowed.',
    denied: 'b | Whether an authorizer denied the action outright.',
    reason: 's | Why the action is allowed or not.',
    evaluationError: 's | An error met while deciding; the answer may still be right.',
  }),
  struct(
    PKG.authorization,
    'SelfSubjectRulesReview',
    'Lists what the caller may do in a namespace. The list may be incomplete, and is for display only: ask a SelfSubjectAccessReview to decide.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'SelfSubjectRulesReviewSpec! | The namespace asked about.',
      status: 'SubjectRulesReviewStatus | The rules, filled in by the server.',
    },
    authz('SelfSubjectRulesReview'),
  ),
  struct(PKG.authorization, 'SelfSubjectRulesReviewSpec', 'The namespace of a rules review.', {
    namespace: 's | Namespace to list the rules for.',
  }),
  struct(PKG.authorization, 'SubjectRulesReviewStatus', 'What the caller may do.', {
    resourceRules: '[]ResourceRule! lt=atomic | Actions on resources.',
    nonResourceRules: '[]NonResourceRule! lt=atomic | Actions on non-resource paths.',
    incomplete: 'b! | True when an authorizer cannot list its rules (the node authorizer), so the lists are partial.',
    evaluationError: 's | Why the list is incomplete.',
  }),
  struct(PKG.authorization, 'ResourceRule', 'Actions allowed on resources.', {
    verbs: '[]s! lt=atomic | The verbs; * for all.',
    apiGroups: '[]s lt=atomic | The API groups; * for all.',
    resources: '[]s lt=atomic | The resources, or resource/subresource; * for all.',
    resourceNames: '[]s lt=atomic | The object names; empty for all.',
  }),
  struct(PKG.authorization, 'NonResourceRule', 'Actions allowed on non-resource paths.', {
    verbs: '[]s! lt=atomic | The lower-cased HTTP verbs; * for all.',
    nonResourceURLs: '[]s lt=atomic | The paths; a trailing * matches a prefix.',
  }),
  struct(
    PKG.authentication,
    'SelfSubjectReview',
    'Returns who the server takes the caller to be.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      status: 'SelfSubjectReviewStatus | The caller, filled in by the server.',
    },
    { gvk: [gvk('authentication.k8s.io', 'v1', 'SelfSubjectReview')] },
  ),
  struct(PKG.authentication, 'SelfSubjectReviewStatus', 'The caller as authenticated.', {
    userInfo: 'UserInfo | User name, groups and extra attributes.',
  }),
  struct(PKG.authentication, 'UserInfo', 'An authenticated user.', {
    username: 's | The name that identifies the user.',
    uid: 's | A unique value that identifies the user across time.',
    groups: '[]s lt=atomic | The groups the user belongs to.',
    extra: '{}[]s | Further attributes from the authenticator.',
  }),
  // The reviews a delegating authenticator and authorizer ask (the agent's endpoint, as the
  // kubelet's webhook authn/authz): authentication.k8s.io/v1 TokenReview and
  // authorization.k8s.io/v1 SubjectAccessReview.
  struct(
    PKG.authorization,
    'SubjectAccessReview',
    'Asks whether a given user may perform an action. Exactly one of resourceAttributes and nonResourceAttributes is set.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'SubjectAccessReviewSpec! | The user and the action asked about.',
      status: 'SubjectAccessReviewStatus | Whether the action is allowed, filled in by the server.',
    },
    authz('SubjectAccessReview'),
  ),
  // authorization.k8s.io/v1 LocalSubjectAccessReview: a SubjectAccessReview in one namespace.
  struct(
    PKG.authorization,
    'LocalSubjectAccessReview',
    'Asks whether a given user may perform an action in a namespace. resourceAttributes.namespace must be the namespace of the request; nonResourceAttributes may not be set.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata; only its namespace may be set.',
      spec: 'SubjectAccessReviewSpec! | The user and the action asked about.',
      status: 'SubjectAccessReviewStatus | Whether the action is allowed, filled in by the server.',
    },
    authz('LocalSubjectAccessReview'),
  ),
  struct(PKG.authorization, 'SubjectAccessReviewSpec', 'The user and the action asked about.', {
    resourceAttributes: 'ResourceAttributes | A request on a resource.',
    nonResourceAttributes: 'NonResourceAttributes | A request on a non-resource path.',
    user: 's | The user asked about.',
    groups: '[]s lt=atomic | The groups of that user.',
    extra: '{}[]s | Further attributes of that user.',
    uid: 's | The UID of that user.',
  }),
  struct(
    PKG.authentication,
    'TokenReview',
    'Asks who a bearer token authenticates as.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'TokenReviewSpec! | The token.',
      status: 'TokenReviewStatus | Who the token is, filled in by the server.',
    },
    { gvk: [gvk('authentication.k8s.io', 'v1', 'TokenReview')] },
  ),
  struct(PKG.authentication, 'TokenReviewSpec', 'The token to review.', {
    token: 's | The opaque bearer token.',
    audiences: '[]s lt=atomic | Audiences the token must be valid for.',
  }),
  // serviceaccounts/token: authentication.k8s.io/v1 TokenRequest, what `kubectl create token`
  // and the node agent POST for a service account's token.
  struct(
    PKG.authentication,
    'TokenRequest',
    'Asks for a token of a service account.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'TokenRequestSpec! | What the token is for.',
      status: 'TokenRequestStatus | The token, filled in by the server.',
    },
    { gvk: [gvk('authentication.k8s.io', 'v1', 'TokenRequest')] },
  ),
  struct(PKG.authentication, 'TokenRequestSpec', 'What a requested token is for.', {
    audiences: '[]s! lt=atomic | Who the token is meant for; defaults to the API server\'s audiences.',
    expirationSeconds: 'i64 | Requested lifetime in seconds; defaults to an hour.',
    boundObjectRef: 'BoundObjectReference | The object the token is bound to: it is valid only while that object exists.',
  }),
  struct(PKG.authentication, 'BoundObjectReference', 'A reference to the Pod, Secret or Node a token is bound to.', {
    kind: 's | Kind of the referent: Pod, Secret or Node.',
    apiVersion: 's | API version of the referent.',
    name: 's | Name of the referent.',
    uid: 's go=types.UID | UID of the referent.',
  }),
  struct(PKG.authentication, 'TokenRequestStatus', 'The issued token.', {
    token: 's! | The opaque bearer token.',
    expirationTimestamp: 'Time! | When the token expires.',
  }),
  struct(PKG.authentication, 'TokenReviewStatus', 'The result of a token review.', {
    authenticated: 'b | Whether the token is valid.',
    user: 'UserInfo | The user the token authenticates as.',
    audiences: '[]s lt=atomic | The audiences the token is valid for.',
    error: 's | Why the token could not be checked.',
  }),
];
