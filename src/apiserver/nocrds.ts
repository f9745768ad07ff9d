// The CustomResourceDefinition list of a server without CRDs. kubectl (1.27–1.33, cli-runtime's
// QueryParamVerifier and its CRDFinder) lists
// /apis/apiextensions.k8s.io/v1/customresourcedefinitions when a manifest holds a kind the
// OpenAPI documents do not describe, to ask whether it is a custom resource; a 404 there fails
// the whole `apply -f` with "failed to check CRD", where kube-apiserver's empty list lets kubectl
// apply the other objects and report `no matches for kind` for that one. Bulkhead serves no CRDs
// (and does not list the group in discovery), so it answers that one read with the empty list.

export const crdListPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The body kube-apiserver returns for the list when no CRD exists. */
export function emptyCRDList(resourceVersion: string): unknown {
  return { kind: 'CustomResourceDefinitionList', apiVersion: 'apiextensions.k8s.io/v1', metadata: { resourceVersion }, items: [] };
}
