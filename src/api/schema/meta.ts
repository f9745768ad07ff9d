// meta/v1 types shared by every kind, plus the scalar types with their own JSON decoding
// (Quantity, IntOrString, Time, MicroTime, FieldsV1).

import { PKG, gvk, struct, typeMeta, type GroupVersionKind, type SchemaDef } from './dsl.js';

const m = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.meta, short, description, fields, opts);

/** Group-versions whose documents carry the shared option kinds (DeleteOptions). */
const optionGroups: readonly GroupVersionKind[] = [gvk('', 'v1', 'DeleteOptions'), gvk('coordination.k8s.io', 'v1', 'DeleteOptions'), gvk('policy', 'v1', 'DeleteOptions'), gvk('scheduling.k8s.io', 'v1', 'DeleteOptions'), gvk('batch', 'v1', 'DeleteOptions'), gvk('certificates.k8s.io', 'v1', 'DeleteOptions'), gvk('node.k8s.io', 'v1', 'DeleteOptions'), gvk('rbac.authorization.k8s.io', 'v1', 'DeleteOptions')];

export const metaSchemas: readonly SchemaDef[] = [
  m('ObjectMeta', 'Metadata every persisted object has: identity, labels, annotations, ownership and lifecycle bookkeeping.', {
    name: 's | Name, unique within the namespace (or the cluster for cluster-scoped kinds). Required on create unless generateName is set; cannot be changed.',
    generateName: 's | Prefix the server uses to generate a unique name when name is empty.',
    namespace: 's | Namespace of the object. Empty for cluster-scoped kinds; cannot be changed.',
    selfLink: 's | Deprecated: no longer filled in by the server.',
    uid: 's go=types.UID | Identifier assigned by the server, unique across time and space. Read-only.',
    resourceVersion: 's | Opaque version of the object, used for optimistic concurrency and as a watch position. Read-only.',
    generation: 'i64 | Sequence number of the desired state, bumped by the server. Read-only.',
    creationTimestamp: 'Time | When the server stored the object for the first time. Read-only.',
    deletionTimestamp: 'Time | Set by the server when deletion was requested: the time after which the object may be removed. Read-only.',
    deletionGracePeriodSeconds: 'i64 | Seconds the object is given to terminate once deletionTimestamp is set. Read-only.',
    labels: '{}s | Key/value pairs for organizing and selecting objects.',
    annotations: '{}s | Arbitrary key/value data for tools and extensions; not used for selection.',
    ownerReferences: '[]OwnerReference ps=merge mk=uid lt=map lk=uid | Objects this one depends on. When every owner is gone, the garbage collector deletes this object.',
    finalizers: '[]s ps=merge lt=set | Tokens that must all be removed before the object is deleted from storage.',
    managedFields: '[]ManagedFieldsEntry lt=atomic | Which manager owns which fields, kept by server-side apply. Internal bookkeeping.',
  }),
  m(
    'OwnerReference',
    'Identifies an owner of an object. The owner must be in the same namespace, or be cluster-scoped.',
    {
      apiVersion: 's! | API version of the owner.',
      kind: 's! | Kind of the owner.',
      name: 's! | Name of the owner.',
      uid: 's! go=types.UID | UID of the owner.',
      controller: 'b | True when the owner is the managing controller of this object.',
      blockOwnerDeletion: 'b | When true, foreground deletion of the owner waits until this reference is removed.',
    },
    { mapType: 'atomic' },
  ),
  m('ManagedFieldsEntry', 'One manager\'s set of owned fields and the operation that made it.', {
    manager: 's | Name of the actor managing the fields.',
    operation: 's go=ManagedFieldsOperationType | Operation that produced the entry: Apply or Update.',
    apiVersion: 's | API version the field set is expressed in.',
    time: 'Time | When the manager last changed one of the fields.',
    fieldsType: 's | Encoding of the field set; the only one defined is FieldsV1.',
    fieldsV1: 'FieldsV1 | The field set, when fieldsType is FieldsV1.',
    subresource: 's | Subresource the operation went through; empty for the main resource.',
  }),
  {
    short: 'FieldsV1',
    pkg: PKG.meta,
    description: 'A set of fields encoded as a JSON trie: keys are f:<name>, v:<value>, i:<index> or k:<keys>, and "." marks the field itself.',
    fields: [],
    goPkg: 'v1',
    special: { type: 'object', decoder: 'any' },
  },
  m('ListMeta', 'Metadata of a list response.', {
    selfLink: 's | Deprecated: no longer filled in by the server.',
    resourceVersion: 's | Version of the collection the list was read at; start a watch from here.',
    continue: 's | Token to fetch the next chunk when the list was limited; empty on the last chunk.',
    remainingItemCount: 'i64 | Number of items after this chunk, when the server knows it.',
  }),
  m(
    'Status',
    'Result of an operation that does not return an object, and the shape of every error response.',
    {
      ...typeMeta,
      metadata: 'ListMeta | Standard list metadata.',
      status: 's | Success or Failure.',
      message: 's | Human-readable description of the outcome.',
      reason: 's go=StatusReason | Machine-readable reason for a failure, e.g. NotFound or Invalid.',
      details: 'StatusDetails lt=atomic | Extra data whose meaning depends on reason.',
      code: 'i32 | HTTP status code of the outcome.',
    },
    { gvk: [gvk('', 'v1', 'Status')] },
  ),
  m('StatusDetails', 'Extra data about a failed request; which fields are set depends on the reason.', {
    name: 's | Name of the object the failure concerns.',
    group: 's | API group of that object.',
    kind: 's | Kind (or resource) of that object.',
    uid: 's go=types.UID | UID of that object.',
    causes: '[]StatusCause lt=atomic | The individual problems behind the failure.',
    retryAfterSeconds: 'i32 | Seconds to wait before retrying.',
  }),
  m('StatusCause', 'One problem behind a failed request, possibly tied to a field.', {
    reason: 's go=CauseType | Machine-readable cause, e.g. FieldValueRequired.',
    message: 's | Human-readable cause.',
    field: 's | Path of the field at fault, e.g. spec.containers[0].name.',
  }),
  m(
    'DeleteOptions',
    'Options for a delete request.',
    {
      ...typeMeta,
      gracePeriodSeconds: 'i64 | Seconds before the object is removed. 0 deletes at once; unset uses the kind\'s default.',
      preconditions: 'Preconditions | Conditions the object must meet, or the delete fails with 409 Conflict.',
      orphanDependents: 'b | Deprecated: use propagationPolicy. true orphans the dependents.',
      propagationPolicy: 's go=DeletionPropagation | What happens to dependents: Orphan, Background or Foreground.',
      dryRun: '[]s lt=atomic | With All, every stage runs but nothing is persisted.',
      ignoreStoreReadErrorWithClusterBreakingPotential: 'b | Delete an object even though it cannot be read back from storage. Unsafe.',
    },
    { gvk: optionGroups },
  ),
  m('Preconditions', 'Conditions an object must meet before an operation proceeds.', {
    uid: 's go=types.UID | Expected UID.',
    resourceVersion: 's | Expected resourceVersion.',
  }),
  m(
    'LabelSelector',
    'A label query. Its parts are ANDed; an empty selector matches everything, a null one nothing.',
    {
      matchLabels: '{}s | Labels that must all be present with these values.',
      matchExpressions: '[]LabelSelectorRequirement lt=atomic | Requirements that must all hold.',
    },
    { mapType: 'atomic' },
  ),
  m('Condition', 'One aspect of an object\'s current state, in the shape newer kinds share (metav1.Condition).', {
    type: 's! | Condition type in CamelCase (or foo.example.com/CamelCase).',
    status: 's! enum=False,True,Unknown go=ConditionStatus | True, False or Unknown.',
    observedGeneration: 'i64 | The .metadata.generation the condition was set for.',
    lastTransitionTime: 'Time! | When the status last changed.',
    reason: 's! | Programmatic identifier of the last transition, in CamelCase.',
    message: 's! | Human-readable details of the last transition; may be empty.',
  }),
  m('LabelSelectorRequirement', 'A requirement on one label key.', {
    key: 's! | Label key.',
    operator: 's! go=LabelSelectorOperator | In, NotIn, Exists or DoesNotExist.',
    values: '[]s lt=atomic | Values for In and NotIn; must be empty for Exists and DoesNotExist.',
  }),
  {
    short: 'Time',
    pkg: PKG.meta,
    description: 'A timestamp in RFC 3339 form with second precision, e.g. 2024-05-01T12:00:00Z.',
    fields: [],
    goPkg: 'v1',
    special: { type: 'string', format: 'date-time', decoder: 'time' },
  },
  {
    short: 'MicroTime',
    pkg: PKG.meta,
    description: 'A timestamp in RFC 3339 form with exactly six fractional digits, e.g. 2024-05-01T12:00:00.000000Z.',
    fields: [],
    goPkg: 'v1',
    special: { type: 'string', format: 'date-time', decoder: 'microtime' },
  },
  {
    short: 'Patch',
    pkg: PKG.meta,
    description: 'Body of a PATCH request; its format is given by the Content-Type (JSON patch, merge patch, strategic merge patch or apply).',
    fields: [],
    goPkg: 'v1',
    special: { type: 'object', decoder: 'any' },
  },
  {
    short: 'Quantity',
    pkg: PKG.resource,
    description:
      'A fixed-point number with an optional suffix: binary (Ki, Mi, Gi, Ti, Pi, Ei), decimal (m, k, M, G, T, P, E) or an exponent (e3). Examples: 500m, 2, 1.5Gi, 1e3.',
    fields: [],
    goPkg: 'resource',
    special: { type: 'string', decoder: 'quantity' },
  },
  {
    short: 'IntOrString',
    pkg: PKG.intstr,
    description: 'Either an integer or a string, e.g. a port number or a named port.',
    fields: [],
    goPkg: 'intstr',
    special: { type: 'string', format: 'int-or-string', decoder: 'intorstring' },
  },
];
