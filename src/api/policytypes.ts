// policy/v1 PodDisruptionBudget as Bulkhead reads and writes it (k8s.io/api/policy/v1 types.go;
// split from types.ts, which re-exports it).

import type { IntOrString } from './appstypes.js';
import type { KubeObject, LabelSelector } from './types.js';

/** metav1.Condition: the condition shape of newer kinds (PodDisruptionBudget's DisruptionAllowed). */
export interface MetaCondition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export type UnhealthyPodEvictionPolicy = 'IfHealthyBudget' | 'AlwaysAllow';

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  selector?: LabelSelector;
  maxUnavailable?: IntOrString;
  unhealthyPodEvictionPolicy?: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pod name → when the eviction subresource let it go (metav1.Time). */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: MetaCondition[];
}

export interface PodDisruptionBudget extends KubeObject {
  spec?: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
}
