// coordination.k8s.io/v1 Lease: node heartbeats (kube-node-lease) and leader election.

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const kindOf = (kind: string) => ({ gvk: [gvk('coordination.k8s.io', 'v1', kind)] });

export const coordinationSchemas: readonly SchemaDef[] = [
  struct(
    PKG.coordination,
    'Lease',
    'A lease held by one holder at a time, renewed periodically.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'LeaseSpec | Holder and timing of the lease.',
    },
    kindOf('Lease'),
  ),
  struct(
    PKG.coordination,
    'LeaseList',
    'A list of leases.',
    { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]Lease! | The leases.' },
    kindOf('LeaseList'),
  ),
  struct(PKG.coordination, 'LeaseSpec', 'Holder and timing of a lease.', {
    holderIdentity: 's | Identity of the current holder.',
    leaseDurationSeconds: 'i32 | Seconds others must wait after renewTime before taking the lease over.',
    acquireTime: 'MicroTime | When the current holder acquired the lease.',
    renewTime: 'MicroTime | When the current holder last renewed the lease.',
    leaseTransitions: 'i32 | Number of times the lease changed holders.',
    strategy: 's go=CoordinatedLeaseStrategy gate=CoordinatedLeaderElection | How the leader is picked in coordinated leader election, e.g. OldestEmulationVersion.',
    preferredHolder: 's gate=CoordinatedLeaderElection | Holder the lease should pass to; needs strategy.',
  }),
];
