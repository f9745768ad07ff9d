// A Namespace as the API server takes it on create and update: SetDefaults_Namespace (and the
// namespace strategy's Canonicalize, for a name generated after defaulting) label it with its own
// name, `kubernetes.io/metadata.name`, which selectors can then match. Pure.

import type { Namespace } from './types.js';

export const namespaceNameLabel = 'kubernetes.io/metadata.name';

/** The namespace labelled with its name (a namespace without one yet is left as it is). */
export function defaultNamespace(ns: Namespace): Namespace {
  const name = ns.metadata?.name;
  if (!name || ns.metadata.labels?.[namespaceNameLabel] === name) return ns;
  ns.metadata = { ...ns.metadata, labels: { ...(ns.metadata.labels ?? {}), [namespaceNameLabel]: name } };
  return ns;
}
