// The real `kubectl auth can-i` and `kubectl auth whoami` against a real Bulkhead server, as the
// admin and as a node (its own kubeconfig): the answers mirror what the server enforces, and a
// node's request that can-i calls allowed or refused goes the same way. Also as someone else
// (--as, --as-group): the admin impersonating a user is answered for that user, and a node may
// impersonate no one.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubeconfig } from '../../src/server/start.js';
import { kubectlAvailable, startCluster, type TestCluster } from './cluster.js';

const missing = kubectlAvailable();
if (missing) console.error(`\n*** SKIPPING kubectl auth end-to-end tests: ${missing} ***\n`);

/** `someone`: the admin with --as=someone; `x-in-g`: the admin with --as=x --as-group=g; `node-as-jane`: the node with --as=jane. */
type As = 'admin' | 'node' | 'someone' | 'x-in-g' | 'node-as-jane';

describe('kubectl auth against bulkhead server', { skip: missing }, () => {
  let c: TestCluster;
  let nodeKubeconfig: string;
  before(async () => {
    c = await startCluster({ scheduler: false });
    nodeKubeconfig = c.file('node.kubeconfig', kubeconfig(c.server.url, c.server.caCert, 'system:node:n1', c.server.nodeToken('n1')));
    const admin = ['--kubeconfig', c.server.kubeconfigPath];
    for (const doc of [
      'apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n',
      'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: n2, namespace: kube-node-lease}\nspec: {holderIdentity: n2}\n',
    ]) {
      const r = await c.kubectl([...admin, 'create', '-f', '-'], doc);
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(async () => {
    await c?.stop();
  });

  const asFlags: Record<As, string[]> = { admin: [], node: [], someone: ['--as=someone'], 'x-in-g': ['--as=x', '--as-group=g'], 'node-as-jane': ['--as=jane'] };
  const kubectl = (as: As, args: string[], input?: string) => c.kubectl([...(as === 'node' || as === 'node-as-jane' ? ['--kubeconfig', nodeKubeconfig] : []), ...asFlags[as], ...args], input);

  // [as, can-i arguments, yes?, what the real request does (kubectl args), its outcome]
  const canI: [As, string[], boolean, string[] | undefined, RegExp | undefined][] = [
    ['admin', ['create', 'pods'], true, undefined, undefined],
    ['admin', ['delete', 'nodes'], true, undefined, undefined],
    ['node', ['create', 'pods'], false, undefined, undefined],
    ['node', ['create', 'nodes'], true, undefined, undefined],
    ['node', ['get', 'nodes/n1'], true, undefined, undefined],
    ['node', ['get', 'nodes/n2'], false, ['get', 'node', 'n2'], /Error from server \(Forbidden\): nodes "n2" is forbidden: User "system:node:n1" cannot get resource "nodes" in API group "" at the cluster scope: node 'n1' cannot read 'n2', only its own Node object/],
    ['node', ['list', 'nodes'], false, ['get', 'nodes'], /Error from server \(Forbidden\): nodes is forbidden: User "system:node:n1" cannot list resource "nodes" in API group "" at the cluster scope: node 'n1' cannot read all nodes, only its own Node object/],
    ['node', ['delete', 'nodes/n1'], false, ['delete', 'node', 'n1'], /Error from server \(Forbidden\): nodes "n1" is forbidden: User "system:node:n1" cannot delete resource "nodes" in API group "" at the cluster scope/],
    ['node', ['get', 'leases/n2', '-n', 'kube-node-lease'], false, ['get', 'lease', 'n2', '-n', 'kube-node-lease'], /Error from server \(Forbidden\): leases\.coordination\.k8s\.io "n2" is forbidden: .*can only access node lease with the same name as the requesting node/],
    ['node', ['list', 'leases', '-n', 'kube-node-lease'], false, ['get', 'leases', '-n', 'kube-node-lease'], /can only get, create, update, patch, or delete a node lease/],
    ['node', ['list', 'namespaces'], false, ['get', 'namespaces'], /Error from server \(Forbidden\): namespaces is forbidden: User "system:node:n1" cannot list resource "namespaces"/],
    ['node', ['create', 'events'], true, undefined, undefined],
    ['node', ['get', '/metrics'], false, ['get', '--raw', '/metrics'], /Error from server \(Forbidden\): forbidden: User "system:node:n1" cannot get path "\/metrics"/],
    ['node', ['get', '/healthz'], true, ['get', '--raw', '/healthz'], /^ok$/],
    ['someone', ['create', 'pods'], false, ['get', 'pods'], /Error from server \(Forbidden\): pods is forbidden: User "someone" cannot list resource "pods" in API group "" in the namespace "default"/],
    ['x-in-g', ['get', 'nodes'], false, ['get', 'nodes'], /Error from server \(Forbidden\): nodes is forbidden: User "x" cannot list resource "nodes" in API group "" at the cluster scope/],
  ];
  for (const [as, args, yes, real, outcome] of canI) {
    it(`${as}: kubectl auth can-i ${args.join(' ')} → ${yes ? 'yes' : 'no'}${real ? `, and kubectl ${real.join(' ')} agrees` : ''}`, async () => {
      const r = await kubectl(as, ['auth', 'can-i', ...args]);
      assert.equal(r.code, yes ? 0 : 1, r.stdout + r.stderr);
      assert.match(r.stdout, yes ? /^yes$/m : /^no\b/m);
      if (real) {
        const q = await kubectl(as, real);
        assert.equal(q.code === 0, yes, q.stdout + q.stderr);
        assert.match(yes ? q.stdout.trim() : q.stderr, outcome!);
      }
    });
  }

  it('a node may label itself with its kubelet labels, but not with node-restriction ones (can-i cannot tell: admission)', async () => {
    assert.equal((await kubectl('admin', ['create', '-f', '-'], 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n')).code, 0);
    const ok = await kubectl('node', ['label', 'node', 'n1', 'topology.kubernetes.io/zone=a']);
    assert.equal(ok.code, 0, ok.stderr);
    const refused = await kubectl('node', ['label', 'node', 'n1', 'node-restriction.kubernetes.io/trusted=yes']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Error from server \(Forbidden\): nodes "n1" is forbidden: is not allowed to modify labels: node-restriction\.kubernetes\.io\/trusted/);
    const other = await kubectl('node', ['label', 'node', 'n2', 'x=y']);
    assert.equal(other.code, 1);
    // kubectl label reads the node first, which a node may not do for another node.
    assert.match(other.stderr, /Error from server \(Forbidden\): nodes "n2" is forbidden/);
  });

  it('kubectl auth can-i --list: the admin sees everything; a node\'s list is marked incomplete', async () => {
    const admin = await kubectl('admin', ['auth', 'can-i', '--list']);
    assert.equal(admin.code, 0, admin.stderr);
    assert.match(admin.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    assert.match(admin.stdout, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
    assert.match(admin.stdout, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    const node = await kubectl('node', ['auth', 'can-i', '--list']);
    assert.equal(node.code, 0, node.stderr);
    assert.doesNotMatch(node.stdout, /^\*\.\*/m);
    assert.match(node.stdout, /^selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    assert.match(node.stderr, /the list may be incomplete: node authorizer does not support user rule resolution/);
  });

  const whoami: [As, string, string][] = [
    ['admin', 'bulkhead-admin', '[system:masters system:authenticated]'],
    ['node', 'system:node:n1', '[system:nodes system:authenticated]'],
    ['someone', 'someone', '[system:authenticated]'],
    ['x-in-g', 'x', '[g system:authenticated]'],
  ];
  for (const [as, user, groups] of whoami) {
    it(`kubectl auth whoami as ${as}: ${user}`, async () => {
      const table = await kubectl(as, ['auth', 'whoami']);
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, new RegExp(`^Username\\s+${user.replace(/[.:]/g, '\\$&')}$`, 'm'));
      assert.match(table.stdout, new RegExp(`^Groups\\s+${groups.replace(/[[\]]/g, '\\$&')}$`, 'm'));
      const json = await kubectl(as, ['auth', 'whoami', '-o', 'json']);
      assert.equal(json.code, 0, json.stderr);
      const out = JSON.parse(json.stdout);
      assert.equal(out.kind, 'SelfSubjectReview');
      assert.equal(out.apiVersion, 'authentication.k8s.io/v1');
      assert.equal(out.status.userInfo.username, user);
    });
  }

  // kubectl auth whoami words any 403 its own way; a get shows the server's message.
  const nodeAsJane: [string[], RegExp][] = [
    [['get', 'nodes', 'n1'], /Error from server \(Forbidden\): users "jane" is forbidden: User "system:node:n1" cannot impersonate resource "users" in API group "" at the cluster scope/],
    [['auth', 'whoami'], /error: the selfsubjectreviews API is not enabled in the cluster or you do not have permission to call it/],
  ];
  for (const [args, refusal] of nodeAsJane) {
    it(`a node may not impersonate: kubectl --as=jane ${args.join(' ')} is refused`, async () => {
      const r = await kubectl('node-as-jane', args);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, refusal);
    });
  }
});
