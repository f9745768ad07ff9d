// PartialObjectMetadata, as kube-apiserver converts an object or list for a client that asks for
// `as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1|v1beta1` (k8s.io/apiserver
// pkg/endpoints/handlers/response.go @ v0.32.9: asPartialObjectMetadata[List]): only the kind,
// apiVersion and metadata of each object; a single object asked for as a list, or a list as a
// single object, is refused with 406 naming the object's internal Go type.

import type { KubeObject } from '../api/types.js';
import type { ResourceDef } from './resources.js';
import { statusErrors, type StatusError } from './status.js';

export function partialObjectMetadata(apiVersion: string, obj: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata ?? {} } as KubeObject;
}

/**
 * `%T` of the internal object the REST storage returns: `*<package>.<Kind>`, the package being
 * the group's first label (`core` for the legacy group and for events.k8s.io, whose Event is
 * core's).
 */
function internalType(def: ResourceDef, list: boolean): string {
  const pkg = def.group === '' || def.group === 'events.k8s.io' ? 'core' : def.group.split('.')[0]!;
  return `*${pkg}.${def.kind}${list ? 'List' : ''}`;
}

export function aListError(def: ResourceDef): StatusError {
  return statusErrors.notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${internalType(def, true)})`);
}

export function notAListError(def: ResourceDef): StatusError {
  return statusErrors.notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${internalType(def, false)})`);
}
