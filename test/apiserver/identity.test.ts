// Who may do what, over HTTP against a real server: every verb on every resource the server
// serves, for each identity kind (admin, a node on its own objects, a node on another node's,
// a node identity without a name, a plain authenticated user, anonymous), then
// NodeRestriction's rules for what a node writes into its own Node and Lease, and Node/Lease
// name validation. Writes that are allowed run with dryRun=All, so rows do not depend on
// each other.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseResourcePath } from '../../src/apiserver/request.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

type Who = 'admin' | 'n1' | 'n2' | 'fresh' | 'nameless' | 'jane' | 'anonymous';

const nodesG = ['system:nodes'];
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
const dry = (p: string) => `${p}${p.includes('?') ? '&' : '?'}dryRun=All`;

const pod = (name: string, nodeName?: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...(nodeName ? { nodeName } : {}) },
});
const node = (name: string, extra: Record<string, unknown> = {}, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, ...(labels ? { labels } : {}) },
  ...extra,
});
const lease = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name, ...spec } });
const event = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p1' },
  reason: 'Test',
  message: 'm',
  type: 'Normal',
});

/** One request as some identity; a watch resolves on its response headers. */
interface Req {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  who: Who;
  req: Req;
  code: number;
  /** The Status message, exactly, or a pattern. */
  message?: string | RegExp;
}

const nodeReadN1 = 'User "system:node:n2" cannot get resource "nodes" in API group "" at the cluster scope: node \'n2\' cannot read \'n1\', only its own Node object';

// Requests, by resource and verb. Bodies of PUTs are filled in from the fixtures.
const R = {
  nodeGet: { method: 'GET', path: '/api/v1/nodes/n1' },
  nodeList: { method: 'GET', path: '/api/v1/nodes' },
  nodeWatch: { method: 'GET', path: '/api/v1/nodes?watch=1' },
  nodeListOwnByName: { method: 'GET', path: '/api/v1/nodes?fieldSelector=metadata.name%3Dn1' },
  nodeWatchOwnByName: { method: 'GET', path: '/api/v1/nodes?watch=1&fieldSelector=metadata.name%3Dn1' },
  nodeCreateN1: { method: 'POST', path: dry('/api/v1/nodes'), body: node('n1') },
  nodeUpdate: { method: 'PUT', path: dry('/api/v1/nodes/n1'), body: node('n1', {}, { 'node-restriction.kubernetes.io/pool': 'a' }) },
  nodePatch: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { metadata: { labels: { role: 'x' } } }, headers: mergePatch },
  nodeDelete: { method: 'DELETE', path: dry('/api/v1/nodes/n1') },
  nodeDeleteCollection: { method: 'DELETE', path: dry('/api/v1/nodes') },
  nodeStatusGet: { method: 'GET', path: '/api/v1/nodes/n1/status' },
  nodeStatusUpdate: { method: 'PUT', path: dry('/api/v1/nodes/n1/status'), body: node('n1', { status: { conditions: [] } }, { 'node-restriction.kubernetes.io/pool': 'a' }) },
  nodeStatusPatch: { method: 'PATCH', path: dry('/api/v1/nodes/n1/status'), body: { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, headers: mergePatch },
  leaseGet: { method: 'GET', path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1' },
  leaseList: { method: 'GET', path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases' },
  leaseWatch: { method: 'GET', path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases?watch=1' },
  leaseCreateN1: { method: 'POST', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'), body: lease('n1') },
  leaseCreateDefault: { method: 'POST', path: dry('/apis/coordination.k8s.io/v1/namespaces/default/leases'), body: lease('n1') },
  leaseUpdate: { method: 'PUT', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1'), body: lease('n1') },
  leasePatch: { method: 'PATCH', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1'), body: { spec: { leaseDurationSeconds: 40 } }, headers: mergePatch },
  leaseDelete: { method: 'DELETE', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1') },
  leaseDeleteCollection: { method: 'DELETE', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases') },
  podGet: { method: 'GET', path: '/api/v1/namespaces/default/pods/p1' },
  // ConfigMaps and Secrets: p3 (bound to n1) refers to cm1 (volume), s1 (env) and s-missing (envFrom).
  cmGetReferenced: { method: 'GET', path: '/api/v1/namespaces/default/configmaps/cm1' },
  cmGetUnreferenced: { method: 'GET', path: '/api/v1/namespaces/default/configmaps/cm-other' },
  cmList: { method: 'GET', path: '/api/v1/namespaces/default/configmaps' },
  cmListAllNamespaces: { method: 'GET', path: '/api/v1/configmaps' },
  cmListReferencedByName: { method: 'GET', path: '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dcm1' },
  cmWatchReferencedByName: { method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dcm1' },
  cmWatchUnreferencedByName: { method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dcm-other' },
  cmDeleteReferenced: { method: 'DELETE', path: dry('/api/v1/namespaces/default/configmaps/cm1') },
  cmCreate: { method: 'POST', path: dry('/api/v1/namespaces/default/configmaps'), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm9' } } },
  secretGetReferenced: { method: 'GET', path: '/api/v1/namespaces/default/secrets/s1' },
  secretGetUnreferenced: { method: 'GET', path: '/api/v1/namespaces/default/secrets/s-other' },
  secretGetReferencedMissing: { method: 'GET', path: '/api/v1/namespaces/default/secrets/s-missing' },
  secretGetOtherNamespace: { method: 'GET', path: '/api/v1/namespaces/kube-system/secrets/s1' },
  secretList: { method: 'GET', path: '/api/v1/namespaces/default/secrets' },
  podListAll: { method: 'GET', path: '/api/v1/pods' },
  podListN1: { method: 'GET', path: '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1' },
  podWatchN1: { method: 'GET', path: '/api/v1/pods?watch=1&fieldSelector=spec.nodeName%3Dn1' },
  podCreate: { method: 'POST', path: dry('/api/v1/namespaces/default/pods'), body: pod('new', 'n1') },
  podUpdate: { method: 'PUT', path: dry('/api/v1/namespaces/default/pods/p1'), body: undefined },
  podPatch: { method: 'PATCH', path: dry('/api/v1/namespaces/default/pods/p1'), body: { metadata: { labels: { a: 'b' } } }, headers: mergePatch },
  podDelete: { method: 'DELETE', path: dry('/api/v1/namespaces/default/pods/p1') },
  podDeleteCollection: { method: 'DELETE', path: dry('/api/v1/namespaces/default/pods') },
  podStatusGet: { method: 'GET', path: '/api/v1/namespaces/default/pods/p1/status' },
  podStatusUpdate: { method: 'PUT', path: dry('/api/v1/namespaces/default/pods/p1/status'), body: undefined },
  podStatusPatch: { method: 'PATCH', path: dry('/api/v1/namespaces/default/pods/p1/status'), body: { status: { message: 'hi' } }, headers: mergePatch },
  podBinding: { method: 'POST', path: dry('/api/v1/namespaces/default/pods/p2/binding'), body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p2' }, target: { kind: 'Node', name: 'n1' } } },
  podEviction: { method: 'POST', path: dry('/api/v1/namespaces/default/pods/p1/eviction'), body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1' } } },
  podLog: { method: 'GET', path: '/api/v1/namespaces/default/pods/p2/log' },
  eventGet: { method: 'GET', path: '/api/v1/namespaces/default/events/ev1' },
  eventList: { method: 'GET', path: '/api/v1/namespaces/default/events' },
  eventCreate: { method: 'POST', path: dry('/api/v1/namespaces/default/events'), body: event('ev2') },
  eventPatch: { method: 'PATCH', path: dry('/api/v1/namespaces/default/events/ev1'), body: { count: 2 }, headers: mergePatch },
  eventDelete: { method: 'DELETE', path: dry('/api/v1/namespaces/default/events/ev1') },
  eventDeleteCollection: { method: 'DELETE', path: dry('/api/v1/namespaces/default/events') },
  nsGet: { method: 'GET', path: '/api/v1/namespaces/default' },
  nsList: { method: 'GET', path: '/api/v1/namespaces' },
  nsCreate: { method: 'POST', path: dry('/api/v1/namespaces'), body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'new' } } },
  nsPatch: { method: 'PATCH', path: dry('/api/v1/namespaces/default'), body: { metadata: { labels: { a: 'b' } } }, headers: mergePatch },
  quotaGet: { method: 'GET', path: '/api/v1/namespaces/default/resourcequotas/q1' },
  quotaList: { method: 'GET', path: '/api/v1/namespaces/default/resourcequotas' },
  quotaCreate: { method: 'POST', path: dry('/api/v1/namespaces/default/resourcequotas'), body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q2' }, spec: { hard: { pods: '5' } } } },
  quotaStatusPatch: { method: 'PATCH', path: dry('/api/v1/namespaces/default/resourcequotas/q1/status'), body: { status: { hard: { pods: '9' } } }, headers: mergePatch },
  limitsList: { method: 'GET', path: '/api/v1/namespaces/default/limitranges' },
  metrics: { method: 'GET', path: '/metrics' },
  discovery: { method: 'GET', path: '/apis' },
  openapi: { method: 'GET', path: '/openapi/v3' },
} satisfies Record<string, Req>;

type Name = keyof typeof R;

/** [request, admin, n1 (its own objects), n2 (another node's), jane (authenticated, no roles)]. */
const matrix: [Name, number, number, number, number][] = [
  ['nodeGet', 200, 200, 403, 403],
  ['nodeList', 200, 403, 403, 403],
  ['nodeWatch', 200, 403, 403, 403],
  ['nodeListOwnByName', 200, 200, 403, 403],
  ['nodeWatchOwnByName', 200, 200, 403, 403],
  ['nodeCreateN1', 409, 409, 403, 403],
  ['nodeUpdate', 200, 200, 403, 403],
  ['nodePatch', 200, 200, 403, 403],
  ['nodeDelete', 200, 403, 403, 403],
  ['nodeDeleteCollection', 200, 403, 403, 403],
  ['nodeStatusGet', 200, 403, 403, 403],
  ['nodeStatusUpdate', 200, 200, 403, 403],
  ['nodeStatusPatch', 200, 200, 403, 403],
  ['leaseGet', 200, 200, 403, 403],
  ['leaseList', 200, 403, 403, 403],
  ['leaseWatch', 200, 403, 403, 403],
  ['leaseCreateN1', 409, 409, 403, 403],
  ['leaseCreateDefault', 201, 403, 403, 403],
  ['leaseUpdate', 200, 200, 403, 403],
  ['leasePatch', 200, 200, 403, 403],
  ['leaseDelete', 200, 200, 403, 403],
  ['leaseDeleteCollection', 200, 403, 403, 403],
  ['podGet', 200, 200, 403, 403],
  ['cmGetReferenced', 200, 200, 403, 403],
  ['cmGetUnreferenced', 200, 403, 403, 403],
  ['cmList', 200, 403, 403, 403],
  ['cmListAllNamespaces', 200, 403, 403, 403],
  ['cmListReferencedByName', 200, 200, 403, 403],
  ['cmWatchReferencedByName', 200, 200, 403, 403],
  ['cmWatchUnreferencedByName', 200, 403, 403, 403],
  ['cmDeleteReferenced', 200, 403, 403, 403],
  ['cmCreate', 201, 403, 403, 403],
  ['secretGetReferenced', 200, 200, 403, 403],
  ['secretGetUnreferenced', 200, 403, 403, 403],
  ['secretGetReferencedMissing', 404, 404, 403, 403],
  ['secretGetOtherNamespace', 404, 403, 403, 403],
  ['secretList', 200, 403, 403, 403],
  ['podListAll', 200, 403, 403, 403],
  ['podListN1', 200, 200, 403, 403],
  ['podWatchN1', 200, 200, 403, 403],
  ['podCreate', 201, 403, 403, 403],
  ['podUpdate', 200, 403, 403, 403],
  ['podPatch', 200, 403, 403, 403],
  ['podDelete', 200, 200, 403, 403],
  ['podDeleteCollection', 200, 403, 403, 403],
  ['podStatusGet', 200, 403, 403, 403],
  ['podStatusUpdate', 200, 200, 403, 403],
  ['podStatusPatch', 200, 200, 403, 403],
  ['podBinding', 201, 403, 403, 403],
  ['podEviction', 201, 403, 403, 403],
  ['podLog', 204, 403, 403, 403],
  ['eventGet', 200, 200, 200, 403],
  ['eventList', 200, 200, 200, 403],
  ['eventCreate', 201, 201, 201, 403],
  ['eventPatch', 200, 200, 200, 403],
  ['eventDelete', 200, 403, 403, 403],
  ['eventDeleteCollection', 200, 403, 403, 403],
  ['nsGet', 200, 403, 403, 403],
  ['nsList', 200, 403, 403, 403],
  ['nsCreate', 201, 403, 403, 403],
  ['nsPatch', 200, 403, 403, 403],
  ['quotaGet', 200, 403, 403, 403],
  ['quotaList', 200, 403, 403, 403],
  ['quotaCreate', 201, 403, 403, 403],
  ['quotaStatusPatch', 200, 403, 403, 403],
  ['limitsList', 200, 403, 403, 403],
  ['metrics', 200, 403, 403, 403],
  ['discovery', 200, 200, 200, 200],
  ['openapi', 200, 200, 200, 200],
];

/** Denials whose exact message matters (upstream's wording). */
const messages: Row[] = [
  { who: 'n2', req: R.nodeGet, code: 403, message: `nodes "n1" is forbidden: ${nodeReadN1}` },
  { who: 'n1', req: R.nodeList, code: 403, message: 'nodes is forbidden: User "system:node:n1" cannot list resource "nodes" in API group "" at the cluster scope: node \'n1\' cannot read all nodes, only its own Node object' },
  { who: 'n2', req: R.nodeCreateN1, code: 403, message: 'nodes "n1" is forbidden: node "n2" is not allowed to modify node "n1"' },
  { who: 'n2', req: R.nodePatch, code: 403, message: 'nodes "n1" is forbidden: node "n2" is not allowed to modify node "n1"' },
  { who: 'n2', req: R.nodeStatusPatch, code: 403, message: 'nodes "n1" is forbidden: node "n2" is not allowed to modify node "n1"' },
  // NodeRestriction is mutating admission, which upstream runs before the resourceVersion check: 403, not 409.
  { who: 'n2', req: { method: 'PUT', path: dry('/api/v1/nodes/n1/status'), body: { ...node('n1', { status: { conditions: [] } }), metadata: { name: 'n1', resourceVersion: '1' } } }, code: 403, message: 'nodes "n1" is forbidden: node "n2" is not allowed to modify node "n1"' },
  { who: 'n2', req: { method: 'PUT', path: dry('/api/v1/nodes/n1'), body: { ...node('n1'), metadata: { name: 'n1', resourceVersion: '1' } } }, code: 403, message: 'nodes "n1" is forbidden: node "n2" is not allowed to modify node "n1"' },
  { who: 'admin', req: { method: 'PUT', path: dry('/api/v1/nodes/n1/status'), body: { ...node('n1', { status: { conditions: [] } }), metadata: { name: 'n1', resourceVersion: '1' } } }, code: 409, message: 'Operation cannot be fulfilled on nodes "n1": the object has been modified; please apply your changes to the latest version and try again' },
  { who: 'n1', req: R.nodeDelete, code: 403, message: 'nodes "n1" is forbidden: User "system:node:n1" cannot delete resource "nodes" in API group "" at the cluster scope' },
  { who: 'n1', req: R.nodeStatusGet, code: 403, message: 'nodes "n1" is forbidden: User "system:node:n1" cannot get resource "nodes/status" in API group "" at the cluster scope' },
  { who: 'n2', req: R.leaseGet, code: 403, message: 'leases.coordination.k8s.io "n1" is forbidden: User "system:node:n2" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node' },
  { who: 'n2', req: R.leaseCreateN1, code: 403, message: 'leases.coordination.k8s.io "n1" is forbidden: can only access node lease with the same name as the requesting node' },
  { who: 'n1', req: R.leaseCreateDefault, code: 403, message: 'leases.coordination.k8s.io is forbidden: User "system:node:n1" cannot create resource "leases" in API group "coordination.k8s.io" in the namespace "default": can only access leases in the "kube-node-lease" system namespace' },
  { who: 'n1', req: R.leaseList, code: 403, message: 'leases.coordination.k8s.io is forbidden: User "system:node:n1" cannot list resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only get, create, update, patch, or delete a node lease' },
  { who: 'n1', req: R.cmGetUnreferenced, code: 403, message: 'configmaps "cm-other" is forbidden: User "system:node:n1" cannot get resource "configmaps" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object' },
  { who: 'n2', req: R.cmGetReferenced, code: 403, message: 'configmaps "cm1" is forbidden: User "system:node:n2" cannot get resource "configmaps" in API group "" in the namespace "default": no relationship found between node \'n2\' and this object' },
  { who: 'n1', req: R.cmList, code: 403, message: 'configmaps is forbidden: User "system:node:n1" cannot list resource "configmaps" in API group "" in the namespace "default": No Object name found' },
  { who: 'n1', req: R.cmListAllNamespaces, code: 403, message: 'configmaps is forbidden: User "system:node:n1" cannot list resource "configmaps" in API group "" at the cluster scope: can only read namespaced object of this type' },
  { who: 'n1', req: R.cmDeleteReferenced, code: 403, message: 'configmaps "cm1" is forbidden: User "system:node:n1" cannot delete resource "configmaps" in API group "" in the namespace "default": can only read resources of this type' },
  { who: 'n1', req: R.secretGetUnreferenced, code: 403, message: 'secrets "s-other" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object' },
  { who: 'n2', req: R.podGet, code: 403, message: 'pods "p1" is forbidden: User "system:node:n2" cannot get resource "pods" in API group "" in the namespace "default": no relationship found between node \'n2\' and this object' },
  { who: 'n1', req: R.podListAll, code: 403, message: 'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector' },
  // A list or watch named by its field selector (requestinfo.go): the denial names the object too.
  { who: 'n1', req: R.cmWatchUnreferencedByName, code: 403, message: 'configmaps "cm-other" is forbidden: User "system:node:n1" cannot watch resource "configmaps" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object' },
  { who: 'n2', req: { method: 'GET', path: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dp1' }, code: 403, message: 'pods "p1" is forbidden: User "system:node:n2" cannot list resource "pods" in API group "" in the namespace "default": no relationship found between node \'n2\' and this object' },
  { who: 'n1', req: { method: 'GET', path: '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1,junk' }, code: 403, message: 'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector' },
  { who: 'nameless', req: R.nodeGet, code: 403, message: 'nodes "n1" is forbidden: User "system:node:" cannot get resource "nodes" in API group "" at the cluster scope: unknown node for user "system:node:"' },
  { who: 'jane', req: R.nsGet, code: 403, message: 'namespaces "default" is forbidden: User "jane" cannot get resource "namespaces" in API group "" at the cluster scope' },
  { who: 'n1', req: R.metrics, code: 403, message: 'forbidden: User "system:node:n1" cannot get path "/metrics"' },
];

/** NodeRestriction on what a node writes into its own Node and Lease; validation of names. */
const restriction: (Row & { name: string })[] = [
  { name: 'a node may not register a Node under another name', who: 'n1', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('n3') }, code: 403, message: 'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"' },
  { name: 'a node may not register with node-restriction labels', who: 'fresh', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('fresh', {}, { 'node-restriction.kubernetes.io/secure': 'true' }) }, code: 403, message: 'nodes "fresh" is forbidden: node "fresh" is not allowed to set the following labels: node-restriction.kubernetes.io/secure' },
  { name: 'a node may not register with unknown kubernetes.io / k8s.io labels (sorted, subdomains too)', who: 'fresh', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('fresh', {}, { 'kubernetes.io/role': 'x', 'a.node-restriction.kubernetes.io/z': 'y', 'k8s.io/q': 'r', 'kubernetes.io/hostname': 'fresh', 'example.com/ok': 'y' }) }, code: 403, message: 'nodes "fresh" is forbidden: node "fresh" is not allowed to set the following labels: a.node-restriction.kubernetes.io/z, k8s.io/q, kubernetes.io/role' },
  { name: 'a node registers with the kubelet labels and its own namespaces', who: 'fresh', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('fresh', { spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] } }, { 'kubernetes.io/hostname': 'fresh', 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64', 'topology.kubernetes.io/zone': 'z', 'node.kubernetes.io/instance-type': 't', 'x.kubelet.kubernetes.io/y': 'z', 'example.com/ok': 'y' }) }, code: 201 },
  { name: 'a node may not create its Node with a configSource', who: 'fresh', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('fresh', { spec: { configSource: { configMap: { name: 'c', namespace: 'kube-system', kubeletConfigKey: 'k' } } } }) }, code: 403, message: 'nodes "fresh" is forbidden: node "fresh" is not allowed to create pods with a non-nil configSource' },
  { name: 'a node may not set a node-restriction label on itself', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { metadata: { labels: { 'node-restriction.kubernetes.io/trusted': 'yes' } } }, headers: mergePatch }, code: 403, message: 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/trusted' },
  { name: 'a node may not remove a node-restriction label either', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { metadata: { labels: { 'node-restriction.kubernetes.io/pool': null } } }, headers: mergePatch }, code: 403, message: 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool' },
  { name: 'a node may not set an unknown kubernetes.io label on itself', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }, headers: mergePatch }, code: 403, message: 'nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane' },
  { name: 'nor through the status subresource', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1/status'), body: { metadata: { labels: { 'node-restriction.kubernetes.io/trusted': 'yes' } } }, headers: mergePatch }, code: 403, message: 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/trusted' },
  { name: 'a node may change its kubelet labels and labels outside kubernetes.io', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { metadata: { labels: { 'topology.kubernetes.io/zone': 'b', 'example.com/x': 'y' } } }, headers: mergePatch }, code: 200 },
  { name: 'a node may not change its taints', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] } }, headers: mergePatch }, code: 403, message: 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints' },
  { name: 'a node may not set a configSource on itself', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { spec: { configSource: { configMap: { name: 'c', namespace: 'kube-system', kubeletConfigKey: 'k' } } } }, headers: mergePatch }, code: 403, message: 'nodes "n1" is forbidden: node "n1" is not allowed to update configSource to a new non-nil configSource' },
  { name: 'an admin may set node-restriction labels and taints', who: 'admin', req: { method: 'PATCH', path: dry('/api/v1/nodes/n1'), body: { metadata: { labels: { 'node-restriction.kubernetes.io/trusted': 'yes' } }, spec: { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] } }, headers: mergePatch }, code: 200 },
  { name: 'a node may not relabel a pod bound to it through the pod status', who: 'n1', req: { method: 'PATCH', path: dry('/api/v1/namespaces/default/pods/p1/status'), body: { metadata: { labels: { stolen: 'yes' } }, status: { message: 'x' } }, headers: mergePatch }, code: 403, message: 'pods "p1" is forbidden: node "n1" cannot update labels through pod status' },
  { name: 'a node may list one pod bound to it by metadata.name', who: 'n1', req: { method: 'GET', path: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dp1' }, code: 200 },
  { name: 'a node may list its pods when any spec.nodeName term is its own', who: 'n1', req: { method: 'GET', path: '/api/v1/pods?fieldSelector=spec.nodeName%3Dn2,spec.nodeName%3Dn1' }, code: 200 },
  { name: 'an admin may relabel a pod through its status', who: 'admin', req: { method: 'PATCH', path: dry('/api/v1/namespaces/default/pods/p1/status'), body: { metadata: { labels: { stolen: 'yes' } } }, headers: mergePatch }, code: 200 },
  { name: 'a node may not create another node\'s lease', who: 'n1', req: { method: 'POST', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'), body: lease('n2') }, code: 403, message: 'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node' },
  { name: 'a node creates its own lease', who: 'fresh', req: { method: 'POST', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'), body: lease('fresh') }, code: 201 },
  { name: 'a node naming an invalid Node is refused by NodeRestriction before validation', who: 'n1', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('..') }, code: 403, message: 'nodes ".." is forbidden: node "n1" is not allowed to modify node ".."' },
  { name: 'Node names are DNS-1123 subdomains: ".."', who: 'admin', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('..') }, code: 422, message: 'Node ".." is invalid: metadata.name: Invalid value: "..": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')' },
  { name: 'Node names are DNS-1123 subdomains: "a/b"', who: 'admin', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('a/b') }, code: 422, message: /^Node "a\/b" is invalid: metadata\.name: Invalid value: "a\/b": a lowercase RFC 1123 subdomain must consist of/ },
  { name: 'Node names are DNS-1123 subdomains: upper case', who: 'admin', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('Node1') }, code: 422, message: /^Node "Node1" is invalid: metadata\.name: Invalid value: "Node1": a lowercase RFC 1123 subdomain/ },
  { name: 'Node names are at most 253 characters', who: 'admin', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('a'.repeat(300_000)) }, code: 422, message: /^Node "a{300000}" is invalid: metadata\.name: Invalid value: "a{300000}": must be no more than 253 characters$/ },
  { name: 'a 253-character Node name is valid', who: 'admin', req: { method: 'POST', path: dry('/api/v1/nodes'), body: node('a'.repeat(253)) }, code: 201 },
  { name: 'Lease names are DNS-1123 subdomains', who: 'admin', req: { method: 'POST', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'), body: lease('a/b') }, code: 422, message: /^Lease\.coordination\.k8s\.io "a\/b" is invalid: metadata\.name: Invalid value: "a\/b": a lowercase RFC 1123 subdomain must consist of/ },
  { name: 'a lease lasts more than 0 seconds', who: 'admin', req: { method: 'POST', path: dry('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'), body: lease('l0', { leaseDurationSeconds: 0, leaseTransitions: -1 }) }, code: 422, message: 'Lease.coordination.k8s.io "l0" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]' },
];

describe('identities: who may do what', () => {
  let s: RunningServer;
  let dir: string;
  const clients = new Map<string, Client>();
  let tokens: Record<string, string | undefined> = {};

  function call(who: string, req: Req): Promise<{ status: number; text: string }> {
    const token = tokens[who];
    const url = new URL(req.path, s.url);
    const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    return new Promise((resolve, reject) => {
      const r = request(
        url,
        {
          method: req.method,
          ca: s.caCert,
          headers: {
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
            Accept: 'application/json',
            ...(req.headers ?? {}),
          },
        },
        (res) => {
          // A watch that was allowed streams until closed: its status is all the row needs.
          if (res.statusCode === 200 && /[?&]watch=1/.test(req.path)) {
            res.destroy();
            resolve({ status: 200, text: '' });
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      if (payload) r.write(payload);
      r.end();
    });
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-identity-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    tokens = {
      admin: s.adminToken,
      n1: s.nodeToken('n1'),
      n2: s.nodeToken('n2'),
      fresh: s.nodeToken('fresh'),
      nameless: s.tokens.ensure('system:node:', nodesG),
      jane: s.tokens.ensure('jane', []),
      anonymous: undefined,
    };
    const admin = new Client(s.url, s.caCert, s.adminToken);
    clients.set('admin', admin);
    const ok = async (method: string, path: string, body: unknown) => {
      const r = await admin.request(method, path, body);
      assert.ok(r.status < 300, `${method} ${path}: ${r.text}`);
      return r.json();
    };
    await ok('POST', '/api/v1/nodes', node('n1', {}, { 'node-restriction.kubernetes.io/pool': 'a' }));
    await ok('POST', '/api/v1/nodes', node('n2'));
    await ok('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', lease('n1'));
    const p1 = await ok('POST', '/api/v1/namespaces/default/pods', pod('p1', 'n1'));
    await ok('POST', '/api/v1/namespaces/default/pods', pod('p2'));
    await ok('POST', '/api/v1/namespaces/default/pods', {
      ...pod('p3', 'n1'),
      spec: {
        nodeName: 'n1',
        containers: [{ name: 'c', image: 'busybox', env: [{ name: 'S', valueFrom: { secretKeyRef: { name: 's1', key: 'k' } } }], envFrom: [{ secretRef: { name: 's-missing' } }], volumeMounts: [{ name: 'v', mountPath: '/v' }] }],
        volumes: [{ name: 'v', configMap: { name: 'cm1' } }],
      },
    });
    // p2 is not bound: what it refers to gives no node a path.
    await ok('POST', '/api/v1/namespaces/default/pods', { ...pod('p4'), spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'v', configMap: { name: 'cm-other' } }] } });
    for (const name of ['cm1', 'cm-other']) await ok('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
    for (const name of ['s1', 's-other']) await ok('POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { k: 'v' } });
    await ok('POST', '/api/v1/namespaces/default/events', event('ev1'));
    await ok('POST', '/api/v1/namespaces/default/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q1' }, spec: { hard: { pods: '10' } } });
    delete p1.metadata.resourceVersion;
    (R.podUpdate as Req).body = p1;
    (R.podStatusUpdate as Req).body = p1;
  });
  after(async () => {
    for (const c of clients.values()) c.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const who: Who[] = ['admin', 'n1', 'n2', 'jane'];
  for (const [name, ...codes] of matrix) {
    codes.forEach((code, i) => {
      it(`${name} as ${who[i]}: ${code}`, async () => {
        const r = await call(who[i]!, R[name]);
        assert.equal(r.status, code, r.text);
        if (code === 403) assert.equal(JSON.parse(r.text).reason, 'Forbidden');
      });
    });
    it(`${name} as anonymous: 401`, async () => {
      const r = await call('anonymous', R[name]);
      assert.equal(r.status, 401, r.text);
      assert.equal(JSON.parse(r.text).reason, 'Unauthorized');
    });
  }

  for (const row of messages) {
    it(`${row.who}: ${row.req.method} ${row.req.path} says upstream's words`, async () => {
      const r = await call(row.who, row.req);
      assert.equal(r.status, row.code, r.text);
      const body = JSON.parse(r.text);
      if (typeof row.message === 'string') assert.equal(body.message, row.message);
      else assert.match(body.message, row.message!);
    });
  }

  for (const row of restriction) {
    it(row.name, async () => {
      const r = await call(row.who, row.req);
      assert.equal(r.status, row.code, r.text.slice(0, 2000));
      const body = JSON.parse(r.text);
      if (row.code === 403) assert.equal(body.reason, 'Forbidden');
      if (row.code === 422) assert.equal(body.reason, 'Invalid');
      if (typeof row.message === 'string') assert.equal(body.message, row.message);
      else if (row.message) assert.match(body.message, row.message);
    });
  }

  /** The SelfSubjectAccessReview spec of a request, as the server's request-info resolver reads it. */
  function reviewSpec(req: Req): Record<string, unknown> {
    const url = new URL(req.path, 'https://x');
    const p = parseResourcePath(url.pathname);
    if (!p) return { nonResourceAttributes: { path: url.pathname, verb: req.method.toLowerCase() } };
    const verb =
      req.method === 'GET' ? (url.searchParams.get('watch') ? 'watch' : p.name ? 'get' : 'list')
      : req.method === 'POST' ? 'create'
      : req.method === 'PUT' ? 'update'
      : req.method === 'PATCH' ? 'patch'
      : p.name ? 'delete' : 'deletecollection';
    const fs = url.searchParams.get('fieldSelector');
    // kubectl auth can-i passes a list's metadata.name selector as the name, as requestinfo.go does.
    const byName = !p.name && fs ? /^metadata\.name=(.+)$/.exec(fs)?.[1] : undefined;
    return {
      resourceAttributes: {
        verb, group: p.group, version: p.version, resource: p.resource, namespace: p.namespace ?? '', name: p.name ?? byName ?? '', subresource: p.subresource ?? '',
        ...(fs ? { fieldSelector: { rawSelector: fs } } : {}),
      },
    };
  }

  // The access review answers from the authorizer the handler enforces: it says no exactly
  // when the request was refused by authorization ("User … cannot …"), and yes when it went
  // through (admission may still refuse it, as upstream: `can-i create nodes` is yes for a node).
  for (const [name, ...codes] of matrix) {
    codes.forEach((code, i) => {
      it(`SelfSubjectAccessReview agrees: ${name} as ${who[i]}`, async () => {
        const r = await call(who[i]!, R[name]);
        assert.equal(r.status, code, r.text);
        const byAuthorizer = r.status === 403 && /(^|: )User "[^"]*" cannot /.test(JSON.parse(r.text).message);
        const review = await call(who[i]!, { method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: reviewSpec(R[name]) } });
        assert.equal(review.status, 201, review.text);
        assert.equal(JSON.parse(review.text).status.allowed, !byAuthorizer, review.text);
      });
    });
  }

  it('the server, not the node, keeps the condition taints: a status write under memory pressure taints the node', async () => {
    const r = await call('n1', {
      method: 'PATCH',
      path: '/api/v1/nodes/n1/status',
      body: { status: { conditions: [{ type: 'MemoryPressure', status: 'True' }, { type: 'Ready', status: 'True' }] } },
      headers: mergePatch,
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(JSON.parse(r.text).spec.taints, [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }]);
    const relieved = await call('n1', {
      method: 'PATCH',
      path: '/api/v1/nodes/n1/status',
      body: { status: { conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'False' }] } },
      headers: mergePatch,
    });
    assert.deepEqual(JSON.parse(relieved.text).spec.taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  });
});
