// The authorizer's index of bindings by subject (rbacindex.ts) answers as a visit of every
// binding would: random bindings of users, groups and service accounts (with and without a
// namespace) are written, changed and deleted through a store, and after each step the RBAC
// decision and rules of every user, in every namespace, are compared with those read from the
// plain lists of the same objects (staticRBACObjects, which visits each binding).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../../src/api/rbactypes.js';
import { ObjectCache } from '../../src/apiserver/cache.js';
import { RBACIndex } from '../../src/apiserver/rbacindex.js';
import { findResource, storageKey } from '../../src/apiserver/resources.js';
import { authorizeRBAC, rulesFor, staticRBACObjects, type RBACUser } from '../../src/policy/rbacresolver.js';
import { openStore } from '../../src/storage/index.js';
// The fuzz requests' seeded generator (mulberry32), so a failure names its seed.
import { prng } from './fuzz/requests.js';

const G = 'rbac.authorization.k8s.io';
const def = (r: string) => findResource(G, 'v1', r)!;

const namespaces = ['ns1', 'ns2'];
const users: RBACUser[] = [
  { name: 'alice', groups: ['system:authenticated'] },
  { name: 'bob', groups: ['ops', 'system:authenticated'] },
  { name: 'system:serviceaccount:ns1:app', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] },
  { name: 'system:serviceaccount:ns2:app', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns2', 'system:authenticated'] },
  { name: 'carol', groups: ['dev'] },
];
const verbs = ['get', 'list', 'create', 'delete'];
const resources = ['pods', 'secrets', 'configmaps'];

describe('RBACIndex answers as a visit of every binding', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seed ${seed}: after each of 60 writes, every user's decisions and rules in every namespace agree`, async () => {
      const rand = prng(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
      const store = await openStore('memory:');
      const caches = {
        clusterroles: new ObjectCache<ClusterRole>(store, def('clusterroles')),
        clusterrolebindings: new ObjectCache<ClusterRoleBinding>(store, def('clusterrolebindings')),
        roles: new ObjectCache<Role>(store, def('roles')),
        rolebindings: new ObjectCache<RoleBinding>(store, def('rolebindings')),
      };
      for (const c of Object.values(caches)) await c.start();
      const index = new RBACIndex(caches.clusterroles, caches.clusterrolebindings, caches.roles, caches.rolebindings);
      const subject = (): Subject => {
        const k = rand();
        if (k < 0.3) return { kind: 'User', apiGroup: G, name: pick(['alice', 'bob', 'carol', 'system:serviceaccount:ns1:app']) };
        if (k < 0.6) return { kind: 'Group', apiGroup: G, name: pick(['ops', 'dev', 'system:serviceaccounts:ns1', 'system:authenticated']) };
        return { kind: 'ServiceAccount', name: 'app', ...(rand() < 0.5 ? { namespace: pick(namespaces) } : {}) };
      };
      let allowed = 0;
      const rules = () => [{ verbs: [pick(verbs)], apiGroups: [''], resources: [pick(resources)] }];
      try {
        for (let step = 0; step < 60; step++) {
          const k = rand();
          const name = `o${Math.floor(rand() * 6)}`;
          const ns = pick(namespaces);
          const put = async (resource: string, namespace: string | undefined, obj: object) => {
            const key = storageKey(def(resource), namespace, name);
            const value = JSON.stringify({ ...obj, metadata: { name, ...(namespace ? { namespace } : {}) } });
            if (await store.get(key)) await store.update(key, value);
            else await store.create(key, value);
          };
          if (k < 0.15) await put('clusterroles', undefined, { rules: rules() });
          else if (k < 0.3) await put('roles', ns, { rules: rules() });
          else if (k < 0.55) await put('clusterrolebindings', undefined, { roleRef: { apiGroup: G, kind: 'ClusterRole', name: `o${Math.floor(rand() * 6)}` }, subjects: [subject(), subject()] });
          else if (k < 0.85) await put('rolebindings', ns, { roleRef: { apiGroup: G, kind: pick(['Role', 'ClusterRole']), name: `o${Math.floor(rand() * 6)}` }, subjects: [subject(), subject()] });
          else {
            const resource = pick(['clusterrolebindings', 'rolebindings']);
            const key = storageKey(def(resource), resource === 'rolebindings' ? ns : undefined, name);
            if (await store.get(key)) await store.delete(key);
          }
          const plain = staticRBACObjects(
            caches.clusterroles.list().map((c) => c.obj),
            caches.clusterrolebindings.list().map((c) => c.obj),
            caches.roles.list().map((c) => c.obj),
            caches.rolebindings.list().map((c) => c.obj),
          );
          for (const u of users) {
            for (const namespace of ['', ...namespaces]) {
              assert.deepEqual(rulesFor(index, u, namespace), rulesFor(plain, u, namespace), `step ${step}: rules of ${u.name} in "${namespace}"`);
              for (const verb of verbs) {
                for (const resource of resources) {
                  const req = { verb, resourceRequest: true, apiGroup: '', resource, namespace };
                  const got = authorizeRBAC(index, u, req);
                  assert.deepEqual(got, authorizeRBAC(plain, u, req), `step ${step}: ${u.name} ${verb} ${resource} in "${namespace}"`);
                  if (got.allowed) allowed++;
                }
              }
            }
          }
        }
        // The walk reached decisions both ways (it would agree trivially on an empty policy).
        assert.ok(allowed > 0, 'no request was allowed');
      } finally {
        for (const c of Object.values(caches)) c.stop();
        await store.close();
      }
    });
  }
});
