// rest.BeforeUpdate's common checks through the real HTTP API, for every kind: a PATCH to a
// uid other than the stored one is a 422 (metadata.uid is immutable), while a PUT's body uid is
// a precondition, a 409 before anything else (an empty one takes the stored uid); labels, annotations,
// owner references and finalizers are validated on update as on create (pods and namespaces had
// no such check), a cluster-scoped object's namespace is cleared, and the common errors come
// first in one 422 with the kind's own. One row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from './kubectlserver.js';

type Obj = Record<string, any>;

interface Row {
  rule: string;
  path: string;
  body: Obj;
  change: (o: Obj) => void;
  /** Sent as a merge patch of what `change` set, instead of a PUT of the whole object. */
  patch?: Obj;
  /** The update's status, and for a 422 its message (or a function of the created object) and causes' fields in order. */
  want: { status: number; message?: string | ((created: Obj) => string); fields?: string[]; check?: (o: Obj) => void };
}

const badKey = 'name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')';
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });

const rows: Row[] = [
  {
    rule: 'a Pod patched to another uid is a 422 (metadata.uid is immutable)',
    path: '/api/v1/namespaces/default/pods',
    body: pod('uid'),
    change: () => {},
    patch: { metadata: { uid: 'not-the-uid' } },
    want: { status: 422, message: 'Pod "uid" is invalid: metadata.uid: Invalid value: "not-the-uid": field is immutable', fields: ['metadata.uid'] },
  },
  {
    rule: "a PUT whose body has another uid fails its precondition (409), as DefaultUpdatedObjectInfo's",
    path: '/api/v1/namespaces/default/pods',
    body: pod('uid-put'),
    change: (o) => {
      o.metadata.uid = 'not-the-uid';
      o.metadata.labels = { 'bad key!': 'v' };
    },
    want: { status: 409, message: (c) => `Operation cannot be fulfilled on pods "uid-put": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${c.metadata.uid}` },
  },
  {
    rule: 'an update with an empty uid keeps the stored one',
    path: '/api/v1/namespaces/default/configmaps',
    body: cm('empty-uid'),
    change: (o) => {
      o.metadata.uid = '';
      o.data.a = '2';
    },
    want: { status: 200, check: (o) => assert.match(o.metadata.uid, /^[0-9a-f-]{36}$/) },
  },
  {
    rule: 'a Pod update validates its labels',
    path: '/api/v1/namespaces/default/pods',
    body: pod('labels'),
    change: (o) => (o.metadata.labels = { 'bad key!': 'v' }),
    want: { status: 422, message: `Pod "labels" is invalid: metadata.labels: Invalid value: "bad key!": ${badKey}`, fields: ['metadata.labels', 'metadata.labels'] },
  },
  {
    rule: 'a Namespace update validates its labels',
    path: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'update-common' } },
    change: (o) => (o.metadata.labels = { 'bad key!': 'v' }),
    want: { status: 422, message: `Namespace "update-common" is invalid: metadata.labels: Invalid value: "bad key!": ${badKey}`, fields: ['metadata.labels', 'metadata.labels'] },
  },
  {
    rule: 'an update validates owner references (an Event owns nothing)',
    path: '/api/v1/namespaces/default/configmaps',
    body: cm('owned'),
    change: (o) => (o.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }]),
    want: {
      status: 422,
      message: 'ConfigMap "owned" is invalid: metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner',
      // As upstream: the common create and update checks, then ValidateConfigMapUpdate's own two.
      fields: ['metadata.ownerReferences', 'metadata.ownerReferences', 'metadata.ownerReferences', 'metadata.ownerReferences'],
    },
  },
  {
    rule: "the common errors come first, then the kind's own, in one 422",
    path: '/api/v1/namespaces/default/configmaps',
    body: cm('both'),
    change: (o) => {
      o.metadata.annotations = { 'bad key!': 'v' };
      o.data = { 'bad key!': 'v' };
    },
    want: {
      status: 422,
      message: `ConfigMap "both" is invalid: [metadata.annotations: Invalid value: "bad key!": ${badKey}, data[bad key!]: Invalid value: "bad key!": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')]`,
      // The common create and update checks, then ValidateConfigMapUpdate's metadata checks (update and create) and its data.
      fields: ['metadata.annotations', 'metadata.annotations', 'metadata.annotations', 'metadata.annotations', 'data[bad key!]'],
    },
  },
  {
    rule: "a cluster-scoped object's namespace in an update is cleared, not refused",
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'update-common' }, value: 5 },
    change: (o) => (o.metadata.namespace = 'somewhere'),
    want: { status: 200, check: (o) => assert.equal(o.metadata.namespace, undefined) },
  },
];

describe('the common metadata checks of every update (rest.BeforeUpdate)', () => {
  const t = useTestServer('bulkhead-updatecommon-');

  for (const row of rows) {
    it(row.rule, async () => {
      const c = await t.admin().request('POST', row.path, row.body);
      assert.equal(c.status, 201, c.text);
      const created = c.json();
      const sent = structuredClone(created);
      const name = sent.metadata.name as string;
      row.change(sent);
      const u = row.patch
        ? await t.admin().request('PATCH', `${row.path}/${name}`, row.patch, { 'Content-Type': 'application/merge-patch+json' })
        : await t.admin().request('PUT', `${row.path}/${name}`, sent);
      assert.equal(u.status, row.want.status, u.text);
      const body = u.json();
      if (row.want.message !== undefined) assert.equal(body.message, typeof row.want.message === 'function' ? row.want.message(created) : row.want.message);
      if (row.want.fields !== undefined) assert.deepEqual(body.details.causes.map((c: Obj) => c.field), row.want.fields);
      row.want.check?.(body);
    });
  }
});
