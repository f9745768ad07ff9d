// Create, update and delete of Nodes and Leases, and the pod status rule: NodeRestriction admission first (as upstream,
// where it runs before validation, so a node naming another node is refused 403 whatever the
// name; on update before the resourceVersion check too: Strategy.admitUpdate), then validation
// (422), then the condition taints the node lifecycle controller would set (src/api/nodetaints.ts).

import { admitLease, admitNode, admitPodStatusLabels, nodeIdentity, type AdmissionOperation } from '../admission/noderestriction.js';
import { reconcileConditionTaints } from '../api/nodetaints.js';
import type { KubeObject, Lease, Node } from '../api/types.js';
import { validateLease, validateLeaseUpdate, validateNode, validateNodeUpdate } from '../api/validation/index.js';
import type { RequestInfo, Strategy } from './rest.js';
import { statusErrors } from './status.js';

/** admission.NewForbidden's name: the request's, else the object's name or generateName, else "Unknown". */
function admissionName(name: string, obj: KubeObject | undefined): string {
  return name || obj?.metadata?.name || obj?.metadata?.generateName || 'Unknown';
}

function restrict(resource: 'nodes' | 'leases', req: RequestInfo, operation: AdmissionOperation, name: string, object?: KubeObject, oldObject?: KubeObject): void {
  const node = nodeIdentity(req.user);
  if (node === undefined) return;
  const group = resource === 'leases' ? 'coordination.k8s.io' : '';
  const gr = { group, resource };
  if (node === '') throw statusErrors.forbidden(gr, admissionName(name, object), `could not determine node from user "${req.user.name}"`);
  const r = { operation, name, object, oldObject };
  const why = resource === 'nodes' ? admitNode(node, r) : admitLease(node, (object ?? oldObject)?.metadata?.namespace, r);
  if (why) throw statusErrors.forbidden(gr, admissionName(name, object), why);
}

function withConditionTaints(node: Node): Node {
  const taints = reconcileConditionTaints(node);
  const spec = { ...(node.spec ?? {}) };
  if (taints.length) spec.taints = taints;
  else delete spec.taints;
  return { ...node, spec };
}

export const nodeStrategy: Strategy = {
  async create(obj, req, _api, _batch, track) {
    const node = obj as Node;
    // The condition taints are TaintNodesByCondition's (admission), owned by no manager.
    track?.(node);
    restrict('nodes', req, 'create', node.metadata?.name ?? '', node);
    const errs = validateNode(node);
    if (errs.length) throw statusErrors.invalid('Node', '', node.metadata?.name ?? '', errs);
    return { obj: withConditionTaints(node) };
  },
  admitUpdate(obj, old, req) {
    restrict('nodes', req, 'update', old.metadata?.name ?? '', obj, old);
  },
  async update(obj, old, req, _api, subresource) {
    const node = obj as Node;
    const prev = old as Node;
    const errs = validateNodeUpdate(node, prev);
    if (errs.length) throw statusErrors.invalid('Node', '', prev.metadata?.name ?? '', errs);
    // The status subresource changes status only; the main resource everything else.
    const next = subresource === 'status' ? { ...prev, status: node.status } : { ...node, status: prev.status };
    return { obj: withConditionTaints(next) };
  },
  async delete(obj, _opts, req) {
    restrict('nodes', req, 'delete', obj.metadata?.name ?? '');
    return undefined;
  },
};

export const leaseStrategy: Strategy = {
  // The registry's AllowCreateOnUpdate: a PUT of a missing object creates it.
  allowCreateOnUpdate: true,
  async create(obj, req) {
    const lease = obj as Lease;
    restrict('leases', req, 'create', lease.metadata?.name ?? '', lease);
    const errs = validateLease(lease);
    if (errs.length) throw statusErrors.invalid('Lease', 'coordination.k8s.io', lease.metadata?.name ?? '', errs);
    return { obj: lease };
  },
  admitUpdate(obj, old, req) {
    restrict('leases', req, 'update', old.metadata?.name ?? '', obj, old);
  },
  async update(obj, old) {
    const lease = obj as Lease;
    const errs = validateLeaseUpdate(lease, old as Lease);
    if (errs.length) throw statusErrors.invalid('Lease', 'coordination.k8s.io', old.metadata?.name ?? '', errs);
    return { obj: lease };
  },
  async delete(obj, _opts, req) {
    restrict('leases', req, 'delete', obj.metadata?.name ?? '', undefined, obj);
    return undefined;
  },
};

/** The pods strategy with NodeRestriction's pod status rule in front of its status writes. */
export function withPodStatusRestriction(pods: Strategy): Strategy {
  return {
    ...pods,
    admitUpdate(obj, old, req, subresource) {
      pods.admitUpdate?.(obj, old, req, subresource);
      const node = nodeIdentity(req.user);
      if (subresource === 'status' && node) {
        const why = admitPodStatusLabels(node, obj.metadata?.labels, old.metadata?.labels);
        if (why) throw statusErrors.forbidden({ group: '', resource: 'pods' }, old.metadata?.name ?? '', why);
      }
    },
  };
}
