// Binding a pod to a node: the rules of the pods/binding subresource in one place, for the
// HTTP handler (subresources.ts) and the in-process scheduler alike. A pod that
// already has a node, or is being deleted, cannot be bound (409); a write that lost a race
// with another update is retried on the fresh object.

import type { Pod } from '../api/types.js';
import type { Api, RequestInfo } from './rest.js';
import { statusErrors, StatusError } from './status.js';

const bindingGR = { group: '', resource: 'pods/binding' };

export async function bindPod(api: Api, namespace: string, name: string, node: string, req: RequestInfo): Promise<Pod> {
  const def = api.def('pods');
  for (;;) {
    const pod = await api.get<Pod>(def, namespace, name);
    if (pod.spec.nodeName) {
      throw statusErrors.conflict(bindingGR, name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    }
    if (pod.metadata.deletionTimestamp) throw statusErrors.conflict(bindingGR, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    const next: Pod = { ...pod, spec: { ...pod.spec, nodeName: node } };
    try {
      return (await api.update(def, namespace, name, next, { ...req, fieldManager: req.fieldManager ?? 'bulkhead-scheduler' }, 'binding')) as Pod;
    } catch (e) {
      if (e instanceof StatusError && e.code === 409 && e.status.reason === 'Conflict') continue;
      throw e;
    }
  }
}
