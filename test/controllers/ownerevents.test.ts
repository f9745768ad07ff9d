// Which owners an owned object's informer event concerns (src/controllers/ownerevents.ts), as the
// ReplicaSet controller routes pod events and the Deployment controller ReplicaSet events.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, OwnerReference } from '../../src/api/types.js';
import { ownersOfAdded, ownersOfUpdated, type OwnerLookup } from '../../src/controllers/ownerevents.js';

const ref = (name: string, uid: string): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid, controller: true });
const obj = (labels: Record<string, string>, owner?: OwnerReference): KubeObject => ({ metadata: { namespace: 'ns', name: 'p', labels, ...(owner ? { ownerReferences: [owner] } : {}) } });

/** Owners a, b (existing, uids ua, ub); `gone` names a deleted one; adopters are the owners selecting app=web. */
const lookup: OwnerLookup<string, KubeObject> = {
  resolve: (_ns, r) => (r && { a: 'ua', b: 'ub' }[r.name] === r.uid ? r.name : undefined),
  adopters: (o) => (o.metadata?.labels?.['app'] === 'web' ? ['a', 'b'] : []),
};

describe('owners of an added object', () => {
  const rows: { name: string; o: KubeObject; want: { controller?: string; adopters: string[] } }[] = [
    { name: 'controlled: its controller only', o: obj({ app: 'web' }, ref('a', 'ua')), want: { controller: 'a', adopters: [] } },
    { name: 'controlled by an owner that is gone: nobody', o: obj({ app: 'web' }, ref('gone', 'ug')), want: { adopters: [] } },
    { name: 'controlled by a replaced owner (other uid): nobody', o: obj({ app: 'web' }, ref('a', 'old')), want: { adopters: [] } },
    { name: 'orphan: every owner whose selector matches', o: obj({ app: 'web' }), want: { adopters: ['a', 'b'] } },
    { name: 'orphan nobody selects: nobody', o: obj({ app: 'db' }), want: { adopters: [] } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(ownersOfAdded(r.o, lookup), r.want));
});

describe('owners of an updated object', () => {
  const rows: { name: string; old: KubeObject; cur: KubeObject; want: { previous?: string; controller?: string; adopters: string[] } }[] = [
    { name: 'same controller: it only', old: obj({ app: 'web' }, ref('a', 'ua')), cur: obj({ app: 'web', x: '1' }, ref('a', 'ua')), want: { controller: 'a', adopters: [] } },
    { name: 'controller moved: the old one and the new one', old: obj({ app: 'web' }, ref('a', 'ua')), cur: obj({ app: 'web' }, ref('b', 'ub')), want: { previous: 'a', controller: 'b', adopters: [] } },
    { name: 'released (controller reference removed): the old one and every adopter', old: obj({ app: 'web' }, ref('a', 'ua')), cur: obj({ app: 'web' }), want: { previous: 'a', adopters: ['a', 'b'] } },
    { name: 'orphan whose labels changed: the owners that match now', old: obj({ app: 'db' }), cur: obj({ app: 'web' }), want: { adopters: ['a', 'b'] } },
    { name: 'orphan with the same labels: nobody (nothing that matters changed)', old: obj({ app: 'web' }), cur: obj({ app: 'web' }), want: { adopters: [] } },
    { name: 'controlled by an owner that is gone: nobody, not the adopters', old: obj({ app: 'web' }, ref('gone', 'ug')), cur: obj({ app: 'db' }, ref('gone', 'ug')), want: { adopters: [] } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(ownersOfUpdated(r.old, r.cur, lookup), r.want));
});
