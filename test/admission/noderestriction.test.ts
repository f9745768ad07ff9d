// NodeRestriction's pure rules (src/admission/noderestriction.ts), one row per rule of
// upstream's plugin/pkg/admission/noderestriction/admission.go for Nodes, Leases and a node's
// TokenRequests (admitServiceAccount), with the node authorizer's rule for serviceaccounts/token
// (node_authorizer.go authorizeCreateToken).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitLease, admitNode, admitPodStatusLabels, admitServiceAccountToken, forbiddenLabels, isKubeletLabel, nodeIdentity, type TokenBinding } from '../../src/admission/noderestriction.js';
import { authorizeNode } from '../../src/apiserver/authorizer.js';
import type { Pod } from '../../src/api/types.js';
import type { Node } from '../../src/api/types.js';

const node = (labels: Record<string, string> = {}, spec: Record<string, unknown> = {}): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels }, spec });

describe('NodeRestriction for nodes and leases', () => {
  const identities: [string, { name: string; groups: string[] }, string | undefined][] = [
    ['a node identity names its node', { name: 'system:node:n1', groups: ['system:nodes'] }, 'n1'],
    ['the node prefix without the nodes group is not a node', { name: 'system:node:n1', groups: [] }, undefined],
    ['the nodes group without the prefix is not a node', { name: 'n1', groups: ['system:nodes'] }, undefined],
    ['a nameless node identity is a node with no name', { name: 'system:node:', groups: ['system:nodes'] }, ''],
  ];
  for (const [name, user, want] of identities) it(`identity: ${name}`, () => assert.equal(nodeIdentity(user), want));

  const kubelet: [string, boolean][] = [
    ['kubernetes.io/hostname', true],
    ['kubernetes.io/os', true],
    ['beta.kubernetes.io/arch', true],
    ['topology.kubernetes.io/region', true],
    ['failure-domain.beta.kubernetes.io/zone', true],
    ['node.kubernetes.io/instance-type', true],
    ['node.kubernetes.io/anything', true],
    ['x.kubelet.kubernetes.io/y', true],
    ['kubernetes.io/role', false],
    ['node-role.kubernetes.io/control-plane', false],
    ['node-restriction.kubernetes.io/x', false],
  ];
  for (const [key, want] of kubelet) it(`kubelet label: ${key} → ${want}`, () => assert.equal(isKubeletLabel(key), want));

  const forbidden: [string, string[], string[]][] = [
    ['node-restriction prefix and its subdomains', ['node-restriction.kubernetes.io/a', 'x.node-restriction.kubernetes.io/b'], ['node-restriction.kubernetes.io/a', 'x.node-restriction.kubernetes.io/b']],
    ['unknown kubernetes.io and k8s.io labels, sorted', ['kubernetes.io/role', 'app.k8s.io/x', 'k8s.io/y'], ['app.k8s.io/x', 'k8s.io/y', 'kubernetes.io/role']],
    ['labels outside kubernetes.io and unprefixed labels are free', ['example.com/a', 'plain', 'notkubernetes.io/x'], []],
    ['the kubelet\'s own labels are free', ['kubernetes.io/hostname', 'node.kubernetes.io/exclude-from-external-load-balancers'], []],
  ];
  for (const [name, keys, want] of forbidden) it(`forbidden labels: ${name}`, () => assert.deepEqual(forbiddenLabels(keys), want));

  const nodes: [string, Parameters<typeof admitNode>[1], string | undefined][] = [
    ['create of its own Node', { operation: 'create', name: 'n1', object: node({ 'kubernetes.io/hostname': 'n1' }) }, undefined],
    ['create of another Node', { operation: 'create', name: 'n2', object: node() }, 'node "n1" is not allowed to modify node "n2"'],
    ['delete of another Node', { operation: 'delete', name: 'n2' }, 'node "n1" is not allowed to modify node "n2"'],
    ['create with a configSource', { operation: 'create', name: 'n1', object: node({}, { configSource: { configMap: {} } }) }, 'node "n1" is not allowed to create pods with a non-nil configSource'],
    ['create with forbidden labels', { operation: 'create', name: 'n1', object: node({ 'node-restriction.kubernetes.io/b': '1', 'kubernetes.io/a': '1' }) }, 'node "n1" is not allowed to set the following labels: kubernetes.io/a, node-restriction.kubernetes.io/b'],
    ['create with taints is allowed (the kubelet registers with them)', { operation: 'create', name: 'n1', object: node({}, { taints: [{ key: 'k', effect: 'NoSchedule' }] }) }, undefined],
    ['update changing taints', { operation: 'update', name: 'n1', object: node({}, { taints: [{ key: 'k', effect: 'NoSchedule' }] }), oldObject: node() }, 'node "n1" is not allowed to modify taints'],
    ['update with an empty taint list where there was none', { operation: 'update', name: 'n1', object: node({}, { taints: [] }), oldObject: node() }, undefined],
    ['update setting a configSource', { operation: 'update', name: 'n1', object: node({}, { configSource: { configMap: { name: 'a' } } }), oldObject: node() }, 'node "n1" is not allowed to update configSource to a new non-nil configSource'],
    ['update dropping the configSource is allowed (old kubelets drop it)', { operation: 'update', name: 'n1', object: node(), oldObject: node({}, { configSource: { configMap: { name: 'a' } } }) }, undefined],
    ['update removing a node-restriction label', { operation: 'update', name: 'n1', object: node(), oldObject: node({ 'node-restriction.kubernetes.io/a': 'x' }) }, 'is not allowed to modify labels: node-restriction.kubernetes.io/a'],
    ['update keeping a node-restriction label', { operation: 'update', name: 'n1', object: node({ 'node-restriction.kubernetes.io/a': 'x', b: 'c' }), oldObject: node({ 'node-restriction.kubernetes.io/a': 'x' }) }, undefined],
  ];
  for (const [name, req, want] of nodes) it(`node: ${name}`, () => assert.equal(admitNode('n1', req), want));

  const leases: [string, string | undefined, string, string | undefined][] = [
    ['its own lease in kube-node-lease', 'kube-node-lease', 'n1', undefined],
    ['another node\'s lease', 'kube-node-lease', 'n2', 'can only access node lease with the same name as the requesting node'],
    ['a lease in another namespace', 'default', 'n1', 'can only access leases in the "kube-node-lease" system namespace'],
  ];
  for (const [name, ns, lease, want] of leases) it(`lease: ${name}`, () => assert.equal(admitLease('n1', ns, { operation: 'create', name: lease }), want));

  it('pod status: a node may not relabel a pod, and unchanged labels pass', () => {
    assert.equal(admitPodStatusLabels('n1', { a: 'b' }, {}), 'node "n1" cannot update labels through pod status');
    assert.equal(admitPodStatusLabels('n1', undefined, {}), undefined);
  });
});

describe("a node's service account tokens", () => {
  const mine = { metadata: { name: 'mine', namespace: 'ns', uid: 'mine-uid' }, spec: { nodeName: 'n1', serviceAccountName: 'sa', containers: [] } } as unknown as Pod;
  const theirs = { metadata: { name: 'theirs', namespace: 'ns', uid: 'theirs-uid' }, spec: { nodeName: 'n2', serviceAccountName: 'other', containers: [] } } as unknown as Pod;
  const ref = (over: Partial<TokenBinding> = {}): TokenBinding => ({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'mine-uid', ...over });
  const admits: [string, TokenBinding | undefined, Pod | undefined, string | undefined][] = [
    ['bound to its own pod by uid', ref(), mine, undefined],
    ['not bound at all', undefined, undefined, 'node requested token not bound to a pod'],
    ['bound to a Secret', ref({ kind: 'Secret' }), undefined, 'node requested token not bound to a pod'],
    ['bound to a pod of another apiVersion', ref({ apiVersion: 'v2' }), undefined, 'node requested token not bound to a pod'],
    ['bound to a pod without a name', ref({ name: '' }), undefined, 'node requested token not bound to a pod'],
    ['bound to a pod without a uid', ref({ uid: '' }), mine, 'node requested token with a pod binding without a uid'],
    ['bound to a pod that is not there', ref(), undefined, 'notFound'],
    ['bound to an earlier pod of that name', ref({ uid: 'stale' }), mine, 'the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated'],
    ['bound to a pod on another node', ref({ name: 'theirs', uid: 'theirs-uid' }), theirs, 'node requested token bound to a pod scheduled on a different node'],
  ];
  for (const [name, r, pod, want] of admits) it(`admission: ${name}`, () => assert.equal(admitServiceAccountToken('n1', r, pod), want));

  const attrs = (verb: string, name: string | undefined, subresource: string | undefined, namespace = 'ns') => ({
    user: { name: 'system:node:n1', groups: ['system:nodes'] },
    verb,
    resourceRequest: true,
    apiGroup: '',
    resource: 'serviceaccounts',
    namespace,
    ...(name ? { name } : {}),
    ...(subresource ? { subresource } : {}),
  });
  const decisions: [string, ReturnType<typeof attrs>, string, string][] = [
    ['a token of an account a pod on the node runs as', attrs('create', 'sa', 'token'), 'Allow', ''],
    ["a token of an account only another node's pod runs as", attrs('create', 'other', 'token'), 'NoOpinion', "no relationship found between node 'n1' and this object"],
    ['the same account name in another namespace', attrs('create', 'sa', 'token', 'elsewhere'), 'NoOpinion', "no relationship found between node 'n1' and this object"],
    ['reading the account itself', attrs('get', 'sa', undefined), 'NoOpinion', 'can only create tokens for individual service accounts'],
    ['creating without a name', attrs('create', undefined, 'token'), 'NoOpinion', 'can only create tokens for individual service accounts'],
    ['creating the account', attrs('create', 'sa', undefined), 'NoOpinion', 'can only create token subresource of serviceaccount'],
  ];
  for (const [name, a, decision, reason] of decisions) {
    it(`node authorizer: ${name}`, () => assert.deepEqual(authorizeNode('n1', a, (node) => (node === 'n1' ? [mine] : [theirs])), { decision, reason }));
  }
});
