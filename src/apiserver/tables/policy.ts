// Tables of the policy, autoscaling and RBAC kinds (pkg/printers/internalversion printers.go at
// v1.32): printPodDisruptionBudget, printHorizontalPodAutoscaler (its TARGETS in ../hpatable.ts),
// printRoleBinding, printClusterRoleBinding and printScale.

import { hpaV1ToV2 } from '../../api/autoscalingdefaults.js';
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerV1, KubeObject, PodDisruptionBudget, RoleBinding } from '../../api/types.js';
import { formatHPAMetrics } from '../hpatable.js';
import { age, ageCol, col, nameCol, type Printer } from './common.js';

// printPodDisruptionBudget: N/A for the bound not set; the allowed disruptions an integer.
export const podDisruptionBudgetPrinter: Printer<PodDisruptionBudget> = {
  columns: [
    nameCol,
    col('Min Available', 'string', 'The minimum number of pods that must be available.'),
    col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageCol,
  ],
  cells: (pdb, now) => {
    const bound = (v: number | string | undefined) => (v === undefined || v === null ? 'N/A' : String(v));
    return [pdb.metadata?.name ?? '', bound(pdb.spec?.minAvailable), bound(pdb.spec?.maxUnavailable), pdb.status?.disruptionsAllowed ?? 0, age(pdb.metadata?.creationTimestamp, now)];
  },
};

// printHorizontalPodAutoscaler: of the stored v2 form (a v1 object is converted first).
export const horizontalPodAutoscalerPrinter: Printer<HorizontalPodAutoscaler> = {
  columns: [
    nameCol,
    col('Reference', 'string', 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.'),
    col('Targets', 'string', 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).'),
    col('MinPods', 'string', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.'),
    col('MaxPods', 'string', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.'),
    col('Replicas', 'string', 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.'),
    ageCol,
  ],
  cells: (o, now) => {
    const hpa = o.apiVersion === 'autoscaling/v1' ? hpaV1ToV2(o as HorizontalPodAutoscalerV1) : o;
    const ref = hpa.spec?.scaleTargetRef;
    const min = hpa.spec?.minReplicas;
    return [hpa.metadata?.name ?? '', `${ref?.kind ?? ''}/${ref?.name ?? ''}`, formatHPAMetrics(hpa.spec?.metrics, hpa.status?.currentMetrics), typeof min === 'number' ? String(min) : '<unset>', hpa.spec?.maxReplicas ?? 0, hpa.status?.currentReplicas ?? 0, age(hpa.metadata?.creationTimestamp, now)];
  },
};

// printScale, for the scale subresource (NAME DESIRED AVAILABLE AGE); its NAME column has no
// name format, as upstream's scaleColumnDefinitions.
type Scale = KubeObject & { spec?: { replicas?: number }; status?: { replicas?: number } };
export const scalePrinter: Printer<Scale> = {
  columns: [
    { ...nameCol, format: '' },
    col('Desired', 'integer', 'replicas is the desired number of instances for the scaled object.'),
    col('Available', 'integer', 'replicas is the actual number of observed instances of the scaled object.'),
    ageCol,
  ],
  cells: (s, now) => [s.metadata?.name ?? '', s.spec?.replicas ?? 0, s.status?.replicas ?? 0, age(s.metadata?.creationTimestamp, now)],
};

// printRoleBinding / printClusterRoleBinding: ROLE is Kind/name; the wide columns from
// rbac.SubjectsStrings (a service account as namespace/name), each joined with ", ".
function bindingPrinter(what: string, roleRefDoc: string): Printer<RoleBinding> {
  return {
    columns: [
      nameCol,
      col('Role', 'string', roleRefDoc),
      ageCol,
      col('Users', 'string', `Users in the ${what}`, 1),
      col('Groups', 'string', `Groups in the ${what}`, 1),
      col('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, 1),
    ],
    cells: (b, now) => {
      const users: string[] = [];
      const groups: string[] = [];
      const sas: string[] = [];
      for (const s of b.subjects ?? []) {
        if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
        else if (s.kind === 'User') users.push(s.name);
        else if (s.kind === 'Group') groups.push(s.name);
      }
      return [b.metadata?.name ?? '', `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`, age(b.metadata?.creationTimestamp, now), users.join(', '), groups.join(', '), sas.join(', ')];
    },
  };
}

export const roleBindingPrinter = bindingPrinter('roleBinding', 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.');
export const clusterRoleBindingPrinter = bindingPrinter('clusterRoleBinding', 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.');
