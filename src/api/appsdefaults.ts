// Defaulting of apps/v1 kinds as the API server stores them (pkg/apis/apps/v1/defaults.go
// SetDefaults_Deployment, _ReplicaSet, _StatefulSet, _DaemonSet; the generated defaulters that
// apply the pod defaults to the template (batchdefaults.ts defaultTemplate) and the claim
// defaults to a StatefulSet's volumeClaimTemplates). Pure.

import { defaultTemplate } from './batchdefaults.js';
import type { PodDefaultingOptions } from './defaults.js';
import type { DaemonSet, Deployment, KubeObject, ReplicaSet, StatefulSet } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object's spec, made an object when absent (Go decodes a missing spec as the zero spec). */
function specOf<S>(o: { spec?: S }): S {
  if (!isObject(o.spec)) o.spec = {} as S;
  return o.spec as S;
}

/** SetDefaults_Deployment: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600. */
export function defaultDeployment(d: Deployment, opts: PodDefaultingOptions): Deployment {
  const spec = specOf(d);
  spec.replicas ??= 1;
  const strategy = isObject(spec.strategy) ? spec.strategy : {};
  spec.strategy = strategy;
  if (strategy.type === undefined || strategy.type === '') strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = isObject(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
    strategy.rollingUpdate = ru;
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  spec.template = defaultTemplate(spec.template, opts);
  return d;
}

/** SetDefaults_ReplicaSet: replicas 1. */
export function defaultReplicaSet(rs: ReplicaSet, opts: PodDefaultingOptions): ReplicaSet {
  const spec = specOf(rs);
  spec.replicas ??= 1;
  spec.template = defaultTemplate(spec.template, opts);
  return rs;
}

/** SetDefaults_PersistentVolumeClaim and _PersistentVolumeClaimSpec, as a volumeClaimTemplates item gets them. */
function defaultClaimTemplate(c: KubeObject): KubeObject {
  if (!isObject(c)) return c;
  const claim = c as KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
  // The v1 form of the internal claim carries its type.
  claim.apiVersion ??= 'v1';
  claim.kind ??= 'PersistentVolumeClaim';
  const spec = isObject(claim.spec) ? claim.spec : {};
  claim.spec = spec;
  spec.volumeMode ??= 'Filesystem';
  const status = isObject(claim.status) ? claim.status : {};
  claim.status = status;
  if (status.phase === undefined || status.phase === '') status.phase = 'Pending';
  return claim;
}

/**
 * SetDefaults_StatefulSet: OrderedReady, RollingUpdate with partition 0 (only when the type was
 * defaulted or a rollingUpdate was given), Retain/Retain claim retention (StatefulSetAutoDeletePVC
 * is on by default), replicas 1, revisionHistoryLimit 10.
 */
export function defaultStatefulSet(ss: StatefulSet, opts: PodDefaultingOptions): StatefulSet {
  const spec = specOf(ss);
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us = isObject(spec.updateStrategy) ? spec.updateStrategy : {};
  spec.updateStrategy = us;
  if (us.type === undefined || us.type === '') {
    us.type = 'RollingUpdate';
    if (!isObject(us.rollingUpdate)) us.rollingUpdate = {};
  }
  if (us.type === 'RollingUpdate' && isObject(us.rollingUpdate)) us.rollingUpdate.partition ??= 0;
  const retention = isObject(spec.persistentVolumeClaimRetentionPolicy) ? spec.persistentVolumeClaimRetentionPolicy : {};
  spec.persistentVolumeClaimRetentionPolicy = retention;
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.template = defaultTemplate(spec.template, opts);
  if (Array.isArray(spec.volumeClaimTemplates)) spec.volumeClaimTemplates = spec.volumeClaimTemplates.map(defaultClaimTemplate);
  return ss;
}

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10. */
export function defaultDaemonSet(ds: DaemonSet, opts: PodDefaultingOptions): DaemonSet {
  const spec = specOf(ds);
  const us = isObject(spec.updateStrategy) ? spec.updateStrategy : {};
  spec.updateStrategy = us;
  if (us.type === undefined || us.type === '') us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru = isObject(us.rollingUpdate) ? us.rollingUpdate : {};
    us.rollingUpdate = ru;
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  spec.template = defaultTemplate(spec.template, opts);
  return ds;
}

/**
 * The annotation apps/v1 carries the internal DaemonSetSpec.templateGeneration in (the v1
 * conversion writes it on every DaemonSet it returns).
 */
export const daemonSetTemplateGenerationAnnotation = 'deprecated.daemonset.template.generation';
