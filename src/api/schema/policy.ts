// policy/v1 Eviction: the body POSTed to pods/{name}/eviction.

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

export const policySchemas: readonly SchemaDef[] = [
  struct(
    PKG.policy,
    'Eviction',
    'Asks for a pod to be evicted, subject to disruption budgets. POST it to the pod\'s eviction subresource.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Names the pod to evict (name and namespace).',
      deleteOptions: 'DeleteOptions | Options for the deletion that the eviction performs.',
    },
    { gvk: [gvk('policy', 'v1', 'Eviction')] },
  ),
];
