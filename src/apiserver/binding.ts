// Binding a pod to a node: the rules of the pods/binding subresource in one place, for the
// HTTP handler (subresources.ts) and the in-process scheduler alike, as upstream's
// BindingREST: a pod that already has a node, or is being deleted, cannot be bound (409); the
// Binding's annotations are copied onto the pod, and PodScheduled=True is set in the same
// write (a watcher never sees a bound pod without it), which also clears
// status.nominatedNodeName (ClearingNominatedNodeNameAfterBinding, on by default since 1.35). A
// write that lost a race with another update is retried on the fresh object. Like upstream's assignPod (a storage update that
// bypasses the field manager), binding records no managedFields.

import { updatePodCondition } from '../api/podconditions.js';
import type { Pod } from '../api/types.js';
import { checkPreconditions, type Api, type RequestInfo } from './rest.js';
import { statusErrors, StatusError } from './status.js';
import { metaTime } from '../api/metatime.js';

const bindingGR = { group: '', resource: 'pods/binding' };

export interface BindOptions {
  /** Copied onto the pod's annotations. */
  annotations?: Record<string, string>;
  /** Preconditions from the Binding's metadata (uid, resourceVersion), when set. */
  uid?: string;
  resourceVersion?: string;
}

export async function bindPod(api: Api, namespace: string, name: string, node: string, req: RequestInfo, opts: BindOptions = {}): Promise<Pod> {
  const def = api.def('pods');
  for (;;) {
    const pod = await api.get<Pod>(def, namespace, name);
    checkPreconditions(def, name, pod, opts);
    if (pod.metadata.deletionTimestamp) throw statusErrors.conflict(bindingGR, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (pod.spec.nodeName) {
      throw statusErrors.conflict(bindingGR, name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    }
    const annotations = opts.annotations && Object.keys(opts.annotations).length ? { ...(pod.metadata.annotations ?? {}), ...opts.annotations } : pod.metadata.annotations;
    const { nominatedNodeName: _cleared, ...status } = pod.status ?? {};
    const next: Pod = {
      ...pod,
      metadata: { ...pod.metadata, ...(annotations ? { annotations } : {}) },
      spec: { ...pod.spec, nodeName: node },
      status: { ...status, conditions: updatePodCondition(pod.status?.conditions ?? [], { type: 'PodScheduled', status: 'True' }, metaTime(api.now())).conditions },
    };
    try {
      return (await api.update(def, namespace, name, next, { ...req, managedFieldsDone: true }, 'binding')) as Pod;
    } catch (e) {
      if (e instanceof StatusError && e.code === 409 && e.status.reason === 'Conflict') continue;
      throw e;
    }
  }
}
