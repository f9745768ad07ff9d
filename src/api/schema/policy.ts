// policy/v1: Eviction, the body POSTed to pods/{name}/eviction, and PodDisruptionBudget
// (k8s.io/api/policy/v1 types.go; the descriptions are our own).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const kindOf = (kind: string) => ({ gvk: [gvk('policy', 'v1', kind)] });

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
    kindOf('Eviction'),
  ),
  struct(
    PKG.policy,
    'PodDisruptionBudget',
    'The least number of a set of pods that must stay available (or the most that may be unavailable) when pods are evicted.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'PodDisruptionBudgetSpec | The budget.',
      status: 'PodDisruptionBudgetStatus | What the disruption controller last observed. Read-only.',
    },
    kindOf('PodDisruptionBudget'),
  ),
  struct(
    PKG.policy,
    'PodDisruptionBudgetList',
    'A list of pod disruption budgets.',
    { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]PodDisruptionBudget! | The budgets.' },
    kindOf('PodDisruptionBudgetList'),
  ),
  struct(PKG.policy, 'PodDisruptionBudgetSpec', 'What a pod disruption budget guards and how much.', {
    minAvailable: 'IntOrString | Pods (or percent of the expected pods, rounded up) that must stay available after an eviction. Exclusive with maxUnavailable.',
    selector: 'LabelSelector ps=replace | The pods the budget guards. An empty selector selects every pod of the namespace, a null one none.',
    maxUnavailable: 'IntOrString | Pods (or percent of the expected pods, rounded up) that may be unavailable after an eviction. Exclusive with minAvailable.',
    unhealthyPodEvictionPolicy: 's enum=AlwaysAllow,IfHealthyBudget go=v1.UnhealthyPodEvictionPolicyType | When running but not Ready pods may be evicted: IfHealthyBudget (default: only while the budget is met) or AlwaysAllow.',
  }),
  struct(PKG.policy, 'PodDisruptionBudgetStatus', 'The disruption controller\'s view of a budget.', {
    observedGeneration: 'i64 | The generation of the budget this status was computed for.',
    disruptedPods: '{}Time | Pods the eviction subresource let go that the controller has not seen deleted yet, with when; dropped after two minutes.',
    disruptionsAllowed: 'i32! | How many pods may be disrupted now.',
    currentHealthy: 'i32! | Healthy (Ready) pods now.',
    desiredHealthy: 'i32! | Healthy pods the budget asks for.',
    expectedPods: 'i32! | Pods the budget counts: the scale of their controllers, or the pods selected.',
    conditions: '[]Condition ps=merge mk=type lt=map lk=type | DisruptionAllowed: whether the budget allows an eviction now (reasons SufficientPods, InsufficientPods, SyncFailed).',
  }),
];
