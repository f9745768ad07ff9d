// apps/v1 in the API server (pkg/registry/apps/{deployment,replicaset,statefulset,daemonset,
// controllerrevision}/strategy.go): defaulting (api/appsdefaults.ts), status cleared on create
// and kept by spec writes, the spec kept by status writes, generation bumped when the spec
// changes (a Deployment's also when its annotations change, since they are copied to its
// ReplicaSets), the DaemonSet's template generation, validation from api/validation/apps.ts, the
// template warnings of api/workloadwarnings.ts, and
// the object-count quota charge (`count/<resource>.apps`) committed with the create. A write
// through the `scale` subresource (scale.ts) is a spec write.

import {
  daemonSetTemplateGenerationAnnotation,
  defaultDaemonSet,
  defaultDeployment,
  defaultReplicaSet,
  defaultStatefulSet,
} from '../api/appsdefaults.js';
import type { FieldError } from '../api/fielderrors.js';
import type { ControllerRevision, DaemonSet, Deployment, KubeObject, ReplicaSet, StatefulSet } from '../api/types.js';
import {
  validateControllerRevision,
  validateControllerRevisionUpdate,
  validateDaemonSet,
  validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
  validateDeployment,
  validateDeploymentStatusUpdate,
  validateDeploymentUpdate,
  validateReplicaSet,
  validateReplicaSetStatusUpdate,
  validateReplicaSetUpdate,
  validateStatefulSet,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from '../api/validation/index.js';
import type { Api, Strategy } from './rest.js';
import { statusErrors } from './status.js';
import { semanticEqual } from '../api/semanticequal.js';
import {
  daemonSetCreateWarnings,
  daemonSetUpdateWarnings,
  deploymentCreateWarnings,
  deploymentUpdateWarnings,
  replicaSetCreateWarnings,
  replicaSetUpdateWarnings,
  statefulSetCreateWarnings,
  statefulSetUpdateWarnings,
} from '../api/workloadwarnings.js';

const group = 'apps';
const opts = (api: Api) => ({ gates: api.gates });

type Workload = KubeObject & { spec?: unknown; status?: unknown };

interface WorkloadRules<T extends Workload> {
  kind: string;
  resource: string;
  /** Defaulting, applied to every create and spec write. */
  defaults(obj: T, api: Api): T;
  /** Drops what the create may not set, after defaulting (PrepareForCreate). */
  prepareCreate?(obj: T): void;
  /** Fixes up a spec write against the stored object, after defaulting (PrepareForUpdate); returns whether generation moves. */
  specChanged(obj: T, old: T): boolean;
  /** Fixes up a status write (the status strategy's PrepareForUpdate beyond keeping spec). */
  prepareStatus?(obj: T, old: T): void;
  validate(obj: T, api: Api): FieldError[];
  validateUpdate(obj: T, old: T, api: Api): FieldError[];
  validateStatus(obj: T, old: T): FieldError[];
  /** WarningsOnCreate and WarningsOnUpdate (api/workloadwarnings.ts), given once validation has passed. */
  warnOnCreate(obj: T): string[];
  warnOnUpdate(obj: T, old: T): string[];
}

function invalid(kind: string, name: string, errs: FieldError[]): never {
  throw statusErrors.invalid(kind, group, name, errs);
}

/** The strategy of a workload kind with a status subresource. */
function workloadStrategy<T extends Workload>(r: WorkloadRules<T>): Strategy {
  return {
    setsGeneration: true,
    async create(obj, req, api, _batch, track) {
      const o = r.defaults(obj as T, api);
      track?.(o);
      o.status = {};
      r.prepareCreate?.(o);
      const errs = r.validate(o, api);
      if (errs.length) invalid(r.kind, o.metadata?.name ?? '', errs);
      req.warnings.push(...r.warnOnCreate(o));
      return { obj: o };
    },
    async update(obj, old, req, api, subresource) {
      const prev = old as T;
      const name = prev.metadata?.name ?? '';
      const generation = prev.metadata?.generation ?? 1;
      if (subresource === 'status') {
        const o = { ...(obj as T), spec: prev.spec } as T;
        o.metadata = { ...o.metadata, generation };
        r.prepareStatus?.(o, prev);
        const errs = r.validateStatus(o, prev);
        if (errs.length) invalid(r.kind, name, errs);
        return { obj: o };
      }
      const o = r.defaults(obj as T, api);
      o.status = prev.status;
      const changed = r.specChanged(o, prev);
      o.metadata = { ...o.metadata, generation: changed ? generation + 1 : generation };
      const errs = r.validateUpdate(o, prev, api);
      if (errs.length) invalid(r.kind, name, errs);
      req.warnings.push(...r.warnOnUpdate(o, prev));
      return { obj: o };
    },
  };
}

/** Whether the spec changed as Semantic.DeepEqual tells it (quantities by value: the kind's spec schema says where they are). */
const specDiffers = (kind: string) => (o: Workload, old: Workload) => !semanticEqual(o.spec, old.spec, `io.k8s.api.apps.v1.${kind}Spec`);

export const deploymentStrategy = workloadStrategy<Deployment>({
  kind: 'Deployment',
  resource: 'deployments',
  defaults: (d, api) => defaultDeployment(d, opts(api)),
  // Annotations are copied to the deployment's ReplicaSets, so a change to them is a new generation too.
  specChanged: (d, old) => specDiffers('Deployment')(d, old) || !semanticEqual(d.metadata?.annotations, old.metadata?.annotations),
  // The status strategy resets labels as well as spec (GetResetFields: spec, metadata.labels).
  prepareStatus: (d, old) => {
    const { labels: _dropped, ...rest } = d.metadata ?? {};
    d.metadata = old.metadata?.labels ? { ...rest, labels: old.metadata.labels } : rest;
  },
  validate: (d, api) => validateDeployment(d, opts(api)),
  validateUpdate: (d, old, api) => validateDeploymentUpdate(d, old, opts(api)),
  validateStatus: validateDeploymentStatusUpdate,
  warnOnCreate: deploymentCreateWarnings,
  warnOnUpdate: deploymentUpdateWarnings,
});

export const replicaSetStrategy = workloadStrategy<ReplicaSet>({
  kind: 'ReplicaSet',
  resource: 'replicasets',
  defaults: (rs, api) => defaultReplicaSet(rs, opts(api)),
  specChanged: specDiffers('ReplicaSet'),
  validate: (rs, api) => validateReplicaSet(rs, opts(api)),
  validateUpdate: (rs, old, api) => validateReplicaSetUpdate(rs, old, opts(api)),
  validateStatus: validateReplicaSetStatusUpdate,
  warnOnCreate: replicaSetCreateWarnings,
  warnOnUpdate: replicaSetUpdateWarnings,
});

/**
 * rollingUpdate.maxUnavailable is behind MaxUnavailableStatefulSet (alpha, off): a write that sets
 * it is stored without it unless the stored object already has it (dropStatefulSetDisabledFields).
 */
function dropStatefulSetMaxUnavailable(ss: StatefulSet, old?: StatefulSet): void {
  const ru = ss.spec?.updateStrategy?.rollingUpdate;
  if (ru && ru.maxUnavailable !== undefined && old?.spec?.updateStrategy?.rollingUpdate?.maxUnavailable === undefined) delete ru.maxUnavailable;
}

export const statefulSetStrategy = workloadStrategy<StatefulSet>({
  kind: 'StatefulSet',
  resource: 'statefulsets',
  defaults: (ss, api) => defaultStatefulSet(ss, opts(api)),
  prepareCreate: (ss) => dropStatefulSetMaxUnavailable(ss),
  specChanged: (ss, old) => {
    dropStatefulSetMaxUnavailable(ss, old);
    return specDiffers('StatefulSet')(ss, old);
  },
  validate: (ss) => validateStatefulSet(ss),
  validateUpdate: (ss, old) => validateStatefulSetUpdate(ss, old),
  validateStatus: validateStatefulSetStatusUpdate,
  warnOnCreate: statefulSetCreateWarnings,
  warnOnUpdate: statefulSetUpdateWarnings,
});

/** The internal spec.templateGeneration, which apps/v1 carries in an annotation; 0 when absent or not a number. */
function templateGeneration(ds: DaemonSet): number {
  const v = ds.metadata?.annotations?.[daemonSetTemplateGenerationAnnotation];
  return v !== undefined && /^[0-9]+$/.test(v) ? Number(v) : 0;
}

function withTemplateGeneration(ds: DaemonSet, tg: number): void {
  ds.metadata = { ...ds.metadata, annotations: { ...(ds.metadata?.annotations ?? {}), [daemonSetTemplateGenerationAnnotation]: String(tg) } };
}

export const daemonSetStrategy = workloadStrategy<DaemonSet>({
  kind: 'DaemonSet',
  resource: 'daemonsets',
  defaults: (ds, api) => defaultDaemonSet(ds, opts(api)),
  prepareCreate: (ds) => withTemplateGeneration(ds, Math.max(1, templateGeneration(ds))),
  // The template generation is the server's: it moves, with generation, when the template changes.
  specChanged: (ds, old) => {
    const templateChanged = !semanticEqual(ds.spec?.template, old.spec?.template, 'io.k8s.api.core.v1.PodTemplateSpec');
    withTemplateGeneration(ds, templateGeneration(old) + (templateChanged ? 1 : 0));
    return templateChanged || specDiffers('DaemonSet')(ds, old);
  },
  prepareStatus: (ds, old) => withTemplateGeneration(ds, templateGeneration(old)),
  validate: (ds, api) => validateDaemonSet(ds, opts(api)),
  validateUpdate: (ds, old, api) => validateDaemonSetUpdate(ds, old, opts(api)),
  validateStatus: validateDaemonSetStatusUpdate,
  warnOnCreate: daemonSetCreateWarnings,
  warnOnUpdate: (ds, old) => daemonSetUpdateWarnings(ds, old, templateGeneration),
});

/** ControllerRevision: no status and no generation (its PrepareForCreate is empty); its data never changes. */
export const controllerRevisionStrategy: Strategy = {
  async create(obj) {
    const cr = obj as ControllerRevision;
    const errs = validateControllerRevision(cr);
    if (errs.length) invalid('ControllerRevision', cr.metadata?.name ?? '', errs);
    return { obj: cr };
  },
  async update(obj, old) {
    const cr = obj as ControllerRevision;
    const errs = validateControllerRevisionUpdate(cr, old as ControllerRevision);
    if (errs.length) invalid('ControllerRevision', old.metadata?.name ?? '', errs);
    return { obj: cr };
  },
};

export function installAppsStrategies(api: Api): void {
  api.strategies.set('deployments', deploymentStrategy);
  api.strategies.set('replicasets', replicaSetStrategy);
  api.strategies.set('statefulsets', statefulSetStrategy);
  api.strategies.set('daemonsets', daemonSetStrategy);
  api.strategies.set('controllerrevisions', controllerRevisionStrategy);
}
