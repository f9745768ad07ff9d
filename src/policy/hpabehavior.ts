// How the horizontal pod autoscaler turns a metric proposal into the replica count it sets
// (pkg/controller/podautoscaler/horizontal.go at 1.32): without spec.behavior,
// normalizeDesiredReplicas (the highest recommendation of the downscale stabilization window,
// 300 s, then minReplicas, maxReplicas and the 2×/4-pod scale-up limit); with it,
// normalizeDesiredReplicasWithBehaviors (scale-up and scale-down stabilization windows, then the
// policies' rate limits over the replicas changed within each policy's period, selectPolicy
// Max/Min/Disabled). The recommendations and scale events an autoscaler remembers are the
// caller's state, passed in and returned changed; the clock is an argument. Pure.

import type { HorizontalPodAutoscalerBehavior, HPAScalingRules } from '../api/types.js';

/** --horizontal-pod-autoscaler-downscale-stabilization. */
export const defaultDownscaleStabilizationMs = 300_000;
/** scaleUpLimitFactor and scaleUpLimitMinimum: the scale-up bound without a behavior. */
export const scaleUpLimitFactor = 2.0;
export const scaleUpLimitMinimum = 4.0;

const int32Max = 2147483647;
const int32Min = -2147483648;

export interface Recommendation {
  replicas: number;
  atMs: number;
}

export interface ScaleEvent {
  change: number;
  atMs: number;
  outdated: boolean;
}

/** What the controller remembers of one autoscaler between syncs. */
export interface AutoscalerMemory {
  recommendations: Recommendation[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}

export const emptyMemory = (): AutoscalerMemory => ({ recommendations: [], scaleUpEvents: [], scaleDownEvents: [] });

/** A condition the normalization decided (type, status, reason, message). */
export interface ConditionChange {
  type: 'AbleToScale' | 'ScalingLimited';
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface Normalized {
  replicas: number;
  conditions: ConditionChange[];
}

const tooFew = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
const tooMany = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
const upLimit = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
const downLimit = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };
const withinRange = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const readyForNewScale: ConditionChange = { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
const scaleDownStabilized = { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
const scaleUpStabilized = { reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' };

/** recordInitialRecommendation: the current size is the first recommendation an autoscaler remembers. */
export function recordInitialRecommendation(memory: AutoscalerMemory, current: number, nowMs: number): void {
  if (memory.recommendations.length === 0) memory.recommendations.push({ replicas: current, atMs: nowMs });
}

/** stabilizeRecommendation: the highest recommendation of the window; this one replaces the oldest expired. */
export function stabilizeRecommendation(memory: AutoscalerMemory, desired: number, nowMs: number, windowMs: number): number {
  let max = desired;
  let oldIndex = -1;
  const cutoff = nowMs - windowMs;
  memory.recommendations.forEach((r, i) => {
    if (r.atMs < cutoff) oldIndex = i;
    else if (r.replicas > max) max = r.replicas;
  });
  const rec = { replicas: desired, atMs: nowMs };
  if (oldIndex >= 0) memory.recommendations[oldIndex] = rec;
  else memory.recommendations.push(rec);
  return max;
}

/** calculateScaleUpLimit: twice the current count, at least 4. */
export function scaleUpLimit(current: number): number {
  return Math.trunc(Math.max(scaleUpLimitFactor * current, scaleUpLimitMinimum));
}

/** convertDesiredReplicasWithRules: minReplicas, then maxReplicas or the scale-up limit, whichever is lower. */
export function convertDesiredReplicasWithRules(current: number, desired: number, min: number, max: number): { replicas: number; reason: string; message: string } {
  const limit = scaleUpLimit(current);
  const upper = max > limit ? { n: limit, ...upLimit } : { n: max, ...tooMany };
  if (desired < min) return { replicas: min, ...tooFew };
  if (desired > upper.n) return { replicas: upper.n, reason: upper.reason, message: upper.message };
  return { replicas: desired, ...withinRange };
}

/** normalizeDesiredReplicas: the path without spec.behavior. */
export function normalizeDesiredReplicas(memory: AutoscalerMemory, current: number, desired: number, min: number, max: number, nowMs: number, downscaleWindowMs = defaultDownscaleStabilizationMs): Normalized {
  const stabilized = stabilizeRecommendation(memory, desired, nowMs, downscaleWindowMs);
  const conditions: ConditionChange[] = [stabilized !== desired ? { type: 'AbleToScale', status: 'True', ...scaleDownStabilized } : readyForNewScale];
  const r = convertDesiredReplicasWithRules(current, stabilized, min, max);
  conditions.push({ type: 'ScalingLimited', status: r.replicas === stabilized ? 'False' : 'True', reason: r.reason, message: r.message });
  return { replicas: r.replicas, conditions };
}

/** getReplicasChangePerPeriod: the replicas changed by events within the period. */
export function replicasChangePerPeriod(periodSeconds: number, events: readonly ScaleEvent[], nowMs: number): number {
  const cutoff = nowMs - periodSeconds * 1000;
  let n = 0;
  for (const e of events) if (e.atMs > cutoff) n += e.change;
  return n;
}

/** calculateScaleUpLimitWithScalingRules: the most replicas the rules allow now. */
export function scaleUpLimitWithRules(current: number, up: readonly ScaleEvent[], down: readonly ScaleEvent[], rules: HPAScalingRules, nowMs: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? int32Max : int32Min;
  for (const p of rules.policies ?? []) {
    const start = current - replicasChangePerPeriod(p.periodSeconds, up, nowMs) + replicasChangePerPeriod(p.periodSeconds, down, nowMs);
    let proposed = 0;
    if (p.type === 'Pods') proposed = start + p.value;
    else if (p.type === 'Percent') proposed = Math.ceil(start * (1 + p.value / 100));
    result = useMin ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors: the fewest replicas the rules allow now. */
export function scaleDownLimitWithRules(current: number, up: readonly ScaleEvent[], down: readonly ScaleEvent[], rules: HPAScalingRules, nowMs: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? int32Min : int32Max;
  for (const p of rules.policies ?? []) {
    const start = current - replicasChangePerPeriod(p.periodSeconds, up, nowMs) + replicasChangePerPeriod(p.periodSeconds, down, nowMs);
    let proposed = 0;
    if (p.type === 'Pods') proposed = start - p.value;
    else if (p.type === 'Percent') proposed = Math.trunc(start * (1 - p.value / 100));
    result = useMin ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/**
 * stabilizeRecommendationWithBehaviors: the current count brought within the lowest
 * recommendation of the scale-up window and the highest of the scale-down window; this
 * recommendation replaces one older than both windows.
 */
export function stabilizeWithBehaviors(memory: AutoscalerMemory, current: number, desired: number, upWindowSeconds: number, downWindowSeconds: number, nowMs: number): { replicas: number; reason: string; message: string } {
  let upRec = desired;
  let downRec = desired;
  const upCutoff = nowMs - upWindowSeconds * 1000;
  const downCutoff = nowMs - downWindowSeconds * 1000;
  let oldIndex = -1;
  memory.recommendations.forEach((r, i) => {
    if (r.atMs > upCutoff) upRec = Math.min(r.replicas, upRec);
    if (r.atMs > downCutoff) downRec = Math.max(r.replicas, downRec);
    if (r.atMs < upCutoff && r.atMs < downCutoff) oldIndex = i;
  });
  let replicas = current;
  if (replicas < upRec) replicas = upRec;
  if (replicas > downRec) replicas = downRec;
  const rec = { replicas: desired, atMs: nowMs };
  if (oldIndex >= 0) memory.recommendations[oldIndex] = rec;
  else memory.recommendations.push(rec);
  return { replicas, ...(desired >= current ? scaleUpStabilized : scaleDownStabilized) };
}

/** convertDesiredReplicasWithBehaviorRate: the rate limits and the replica bounds. */
export function convertWithBehaviorRate(memory: AutoscalerMemory, behavior: Required<HorizontalPodAutoscalerBehavior>, current: number, desired: number, min: number, max: number, nowMs: number): { replicas: number; reason: string; message: string } {
  if (desired > current) {
    let limit = scaleUpLimitWithRules(current, memory.scaleUpEvents, memory.scaleDownEvents, behavior.scaleUp, nowMs);
    // No further scale-up until the events of the period run out.
    if (limit < current) limit = current;
    const upper = max > limit ? { n: limit, ...upLimit } : { n: max, ...tooMany };
    if (desired > upper.n) return { replicas: upper.n, reason: upper.reason, message: upper.message };
  } else if (desired < current) {
    let limit = scaleDownLimitWithRules(current, memory.scaleUpEvents, memory.scaleDownEvents, behavior.scaleDown, nowMs);
    if (limit > current) limit = current;
    const lower = min < limit ? { n: limit, ...downLimit } : { n: min, ...tooFew };
    if (desired < lower.n) return { replicas: lower.n, reason: lower.reason, message: lower.message };
  }
  return { replicas: desired, ...withinRange };
}

/** The behavior as the controller reads it: scaleDown's unset window is the controller's 300 s (maybeInitScaleDownStabilizationWindow). */
export function effectiveBehavior(behavior: HorizontalPodAutoscalerBehavior, downscaleWindowMs = defaultDownscaleStabilizationMs): Required<HorizontalPodAutoscalerBehavior> {
  const scaleUp = behavior.scaleUp ?? {};
  const scaleDown = behavior.scaleDown ?? {};
  return {
    scaleUp: { ...scaleUp, stabilizationWindowSeconds: scaleUp.stabilizationWindowSeconds ?? 0 },
    scaleDown: { ...scaleDown, stabilizationWindowSeconds: scaleDown.stabilizationWindowSeconds ?? Math.trunc(downscaleWindowMs / 1000) },
  };
}

/** normalizeDesiredReplicasWithBehaviors. */
export function normalizeWithBehaviors(memory: AutoscalerMemory, behavior: HorizontalPodAutoscalerBehavior, current: number, desired: number, min: number, max: number, nowMs: number, downscaleWindowMs = defaultDownscaleStabilizationMs): Normalized {
  const b = effectiveBehavior(behavior, downscaleWindowMs);
  const s = stabilizeWithBehaviors(memory, current, desired, b.scaleUp.stabilizationWindowSeconds!, b.scaleDown.stabilizationWindowSeconds!, nowMs);
  const conditions: ConditionChange[] = [s.replicas !== desired ? { type: 'AbleToScale', status: 'True', reason: s.reason, message: s.message } : readyForNewScale];
  const r = convertWithBehaviorRate(memory, b, current, s.replicas, min, max, nowMs);
  conditions.push({ type: 'ScalingLimited', status: r.replicas === s.replicas ? 'False' : 'True', reason: r.reason, message: r.message });
  return { replicas: r.replicas, conditions };
}

const longestPeriod = (rules: HPAScalingRules | undefined) => Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds));

/** storeScaleEvent: a rescale remembered for the rate limits (only with a behavior); an outdated event's slot is reused. */
export function storeScaleEvent(memory: AutoscalerMemory, behavior: HorizontalPodAutoscalerBehavior | undefined, prev: number, next: number, nowMs: number): void {
  if (!behavior) return;
  const up = next > prev;
  const events = up ? memory.scaleUpEvents : memory.scaleDownEvents;
  const cutoff = nowMs - longestPeriod(up ? behavior.scaleUp : behavior.scaleDown) * 1000;
  let oldIndex = -1;
  events.forEach((e, i) => {
    if (e.atMs < cutoff) e.outdated = true;
    if (e.outdated) oldIndex = i;
  });
  const event = { change: up ? next - prev : prev - next, atMs: nowMs, outdated: false };
  if (oldIndex >= 0) events[oldIndex] = event;
  else events.push(event);
}
