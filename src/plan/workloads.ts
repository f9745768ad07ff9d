// The objects `bulkhead plan` takes besides pods, namespaces, quotas, LimitRanges and
// PriorityClasses (RBAC's four kinds among them): each is defaulted and validated as the API server's strategy does on create,
// charged against its namespace's object-count quotas (count/jobs.batch, configmaps, …; a Service
// against the service quotas, with no address or port allocated), and a
// workload is expanded into the pods its controllers keep running once they have settled — a
// Deployment's ReplicaSet and its `replicas` pods, a StatefulSet's `<name>-0…`, a DaemonSet's pod
// for the plan's node, a Job's `parallelism` pods (at most `completions`), the Job of a
// CronJob's next run — made by the same functions the controllers use. Those pods then go
// through pod admission like any other, in document order. Pure: the engine owns the quotas.

import { defaultDaemonSet, defaultDeployment, defaultReplicaSet, defaultStatefulSet } from '../api/appsdefaults.js';
import { defaultCronJob, defaultJob, generateJobSelector } from '../api/batchdefaults.js';
import { parseCronSchedule } from '../api/cron.js';
import type { FeatureGates } from '../api/featuregates.js';
import type { FieldError } from '../api/fielderrors.js';
import { defaultBinding } from '../api/rbacdefaults.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../api/rbactypes.js';
import { defaultSecret } from '../api/secretdefaults.js';
import type { ConfigMap, CronJob, DaemonSet, Deployment, Job, KubeObject, OwnerReference, Pod, PodTemplateSpec, ReplicaSet, ResourceQuota, Secret, Service, ServiceAccount, StatefulSet } from '../api/types.js';
import { defaultService } from '../api/servicedefaults.js';
import { decideServiceQuota } from '../quota/services.js';
import type { LimitedResource } from '../quota/config.js';
import type { QuotaDecision } from '../quota/admission.js';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateConfigMap,
  validateCronJob,
  validateDaemonSet,
  validateDeployment,
  validateJob,
  validateReplicaSet,
  validateRole,
  validateRoleBinding,
  validateSecret,
  validateService,
  validateServiceAccount,
  validateStatefulSet,
} from '../api/validation/index.js';
import { newControllerRef } from '../policy/controllerref.js';
import { daemonPodTemplate } from '../policy/daemonset.js';
import { newReplicaSetFor } from '../policy/deployment.js';
import { podFromTemplate } from '../policy/podtemplate.js';
import { newStatefulSetPod } from '../policy/statefulset.js';
import { jobFromCronJob, nextScheduleTime } from '../policy/cronjob.js';
import { podFromJobTemplate } from '../policy/job.js';
import { isIndexedJob } from '../policy/jobindexes.js';
import {
  cronJobCreateWarnings,
  daemonSetCreateWarnings,
  deploymentCreateWarnings,
  jobCreateWarnings,
  replicaSetCreateWarnings,
  statefulSetCreateWarnings,
} from '../api/workloadwarnings.js';

export interface WorkloadContext {
  gates: FeatureGates;
  now: Date;
  /** The uid the API server would give the object (derived, so plans are reproducible). */
  uid(kind: string, namespace: string, name: string): string;
}

/** A pod a controller would create, with who creates it, for the plan's rows. */
export interface OwnedPod {
  pod: Pod;
  /** `Job report`, `CronJob nightly → Job nightly-29383920`. */
  owner: string;
}

/** A further object created with this one and charged like it (a CronJob run's Job). */
export interface ChargedChild {
  group: string;
  resource: string;
  kind: string;
  name: string;
}

/**
 * `warnings`: what the kind's strategy warns of on create (api/workloadwarnings.ts); `warning`:
 * what the plan adds about the object's expansion.
 */
export type Admitted = { ok: true; object: KubeObject; pods: OwnedPod[]; children: ChargedChild[]; warnings: string[]; warning?: string } | { ok: false; errors: FieldError[] };

export interface PlannedKind {
  apiVersion: string;
  group: string;
  /** The quota's resource name (count/<resource>.<group>). */
  resource: string;
  /** Defaults, validates and expands one object of the kind (its namespace already set). */
  admit(obj: KubeObject, ctx: WorkloadContext): Admitted;
  /** The quota decision for the admitted object, when its kind has an evaluator of its own (Service); object counts otherwise. */
  decide?(obj: KubeObject, quotas: readonly ResourceQuota[], limited: readonly LimitedResource[]): QuotaDecision;
}

type Expansion = { pods: OwnedPod[]; children: ChargedChild[]; warning?: string };
const none: Expansion = { pods: [], children: [] };

/** `warn`: the strategy's WarningsOnCreate, asked only of a valid object. */
function checked(object: KubeObject, errors: FieldError[], more: () => Expansion = () => none, warn: () => string[] = () => []): Admitted {
  return errors.length ? { ok: false, errors } : { ok: true, object, warnings: warn(), ...more() };
}

/** The pods a Job's controller creates on its first sync: parallelism, at most completions (Indexed: indexes 0, 1, …); none while suspended. */
function jobPods(job: Job, owner: string): OwnedPod[] {
  const spec = job.spec ?? {};
  if (spec.suspend) return [];
  const parallelism = spec.parallelism ?? 1;
  const n = spec.completions === undefined ? parallelism : Math.min(parallelism, spec.completions);
  return Array.from({ length: n }, (_, i) => ({ pod: inOwnerNamespace(podFromJobTemplate(job, isIndexedJob(job) ? i : undefined), job), owner }));
}

/** An apps/v1 object as the API server stores it on create: defaulted, its uid given, no status. */
function stored<T extends KubeObject>(kind: string, obj: T, ctx: WorkloadContext, defaults: (o: T, opts: { gates: FeatureGates }) => T): T {
  const o = defaults(obj, { gates: ctx.gates });
  o.metadata = { ...o.metadata, uid: ctx.uid(kind, o.metadata?.namespace ?? '', o.metadata?.name ?? '') };
  (o as { status?: unknown }).status = {};
  return o;
}

/** A pod the controller creates, in its owner's namespace (the create's: GetPodFromTemplate leaves it out). */
function inOwnerNamespace(pod: Pod, owner: KubeObject): Pod {
  pod.metadata.namespace = owner.metadata?.namespace;
  return pod;
}

function templatePod(template: PodTemplateSpec | undefined, owner: KubeObject, ref: OwnerReference): Pod {
  return inOwnerNamespace(podFromTemplate(template, owner.metadata?.name ?? '', ref), owner);
}

/** A ReplicaSet's `replicas` pods. */
function replicaSetPods(rs: ReplicaSet, owner: string): OwnedPod[] {
  const ref = newControllerRef(rs, 'apps/v1', 'ReplicaSet');
  return Array.from({ length: rs.spec?.replicas ?? 1 }, () => ({ pod: templatePod(rs.spec?.template, rs, ref), owner }));
}

/** The Job as the API server stores it on create: defaulted, given its uid and generated selector. */
function storedJob(obj: Job, ctx: WorkloadContext): Job {
  const job = defaultJob(obj, { gates: ctx.gates });
  job.metadata = { ...job.metadata, uid: ctx.uid('Job', job.metadata.namespace ?? '', job.metadata.name ?? '') };
  generateJobSelector(job);
  job.status = {};
  return job;
}

export const plannedKinds: Record<string, PlannedKind> = {
  Deployment: {
    apiVersion: 'apps/v1',
    group: 'apps',
    resource: 'deployments',
    admit: (obj, ctx) => {
      const d = stored('Deployment', obj as Deployment, ctx, defaultDeployment);
      return checked(d, validateDeployment(d, { gates: ctx.gates }), () => {
        // The first ReplicaSet, at full size once the rollout is done.
        const rs = newReplicaSetFor(d, [], 1);
        rs.metadata.uid = ctx.uid('ReplicaSet', rs.metadata.namespace ?? '', rs.metadata.name ?? '');
        rs.spec = { ...rs.spec, replicas: d.spec?.replicas ?? 1 };
        const name = rs.metadata.name ?? '';
        return { pods: replicaSetPods(rs, `Deployment ${d.metadata.name} → ReplicaSet ${name}`), children: [{ group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', name }] };
      }, () => deploymentCreateWarnings(d));
    },
  },
  ReplicaSet: {
    apiVersion: 'apps/v1',
    group: 'apps',
    resource: 'replicasets',
    admit: (obj, ctx) => {
      const rs = stored('ReplicaSet', obj as ReplicaSet, ctx, defaultReplicaSet);
      return checked(rs, validateReplicaSet(rs, { gates: ctx.gates }), () => ({ pods: replicaSetPods(rs, `ReplicaSet ${rs.metadata.name}`), children: [] }), () => replicaSetCreateWarnings(rs));
    },
  },
  StatefulSet: {
    apiVersion: 'apps/v1',
    group: 'apps',
    resource: 'statefulsets',
    admit: (obj, ctx) => {
      const set = stored('StatefulSet', obj as StatefulSet, ctx, defaultStatefulSet);
      return checked(set, validateStatefulSet(set), () => {
        // The claim each pod needs cannot be created (PersistentVolumeClaims are not served), so
        // the controller creates no pod, as on the server.
        if ((set.spec?.volumeClaimTemplates ?? []).length > 0) return { ...none, warning: 'its pods would not be created: volumeClaimTemplates need PersistentVolumeClaims, which Bulkhead does not serve' };
        const start = set.spec?.ordinals?.start ?? 0;
        const owner = `StatefulSet ${set.metadata.name}`;
        return { pods: Array.from({ length: set.spec?.replicas ?? 1 }, (_, i) => ({ pod: newStatefulSetPod(set, start + i), owner })), children: [] };
      }, () => statefulSetCreateWarnings(set));
    },
  },
  DaemonSet: {
    apiVersion: 'apps/v1',
    group: 'apps',
    resource: 'daemonsets',
    admit: (obj, ctx) => {
      const ds = stored('DaemonSet', obj as DaemonSet, ctx, defaultDaemonSet);
      return checked(ds, validateDaemonSet(ds, { gates: ctx.gates }), () => {
        // One pod for the plan's one node (its nodeSelector and affinity are not judged here).
        const pod = templatePod(daemonPodTemplate(ds, ''), ds, newControllerRef(ds, 'apps/v1', 'DaemonSet'));
        return { pods: [{ pod, owner: `DaemonSet ${ds.metadata.name}` }], children: [] };
      }, () => daemonSetCreateWarnings(ds));
    },
  },
  ConfigMap: {
    apiVersion: 'v1',
    group: '',
    resource: 'configmaps',
    admit: (obj) => checked(obj, validateConfigMap(obj as ConfigMap)),
  },
  Secret: {
    apiVersion: 'v1',
    group: '',
    resource: 'secrets',
    admit: (obj) => {
      const secret = defaultSecret(obj as Secret);
      return checked(secret, validateSecret(secret));
    },
  },
  // Defaulted, validated and charged to the service quotas as on create; no cluster IP or node port
  // is allocated (a plan has no cluster), and a requested one is not checked against a range.
  Service: {
    apiVersion: 'v1',
    group: '',
    resource: 'services',
    admit: (obj) => {
      const svc = defaultService(obj as Service);
      if (svc.spec?.clusterIP && (svc.spec.clusterIPs ?? []).length === 0) svc.spec.clusterIPs = [svc.spec.clusterIP];
      svc.status = { loadBalancer: {} };
      return checked(svc, validateService(svc));
    },
    decide: (obj, quotas, limited) => decideServiceQuota(obj as Service, undefined, quotas, limited),
  },
  ServiceAccount: {
    apiVersion: 'v1',
    group: '',
    resource: 'serviceaccounts',
    admit: (obj) => checked(obj, validateServiceAccount(obj as ServiceAccount)),
  },
  // rbac.authorization.k8s.io/v1: defaulted and validated as the RBAC strategies do on create
  // (the escalation check needs a writer, which a plan has not); Roles and RoleBindings are
  // charged to count/roles.rbac.authorization.k8s.io and count/rolebindings.…, the cluster-scoped
  // two to no quota.
  Role: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    group: 'rbac.authorization.k8s.io',
    resource: 'roles',
    admit: (obj) => checked(obj, validateRole(obj as Role)),
  },
  RoleBinding: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    group: 'rbac.authorization.k8s.io',
    resource: 'rolebindings',
    admit: (obj) => {
      const b = defaultBinding(obj as RoleBinding);
      return checked(b, validateRoleBinding(b));
    },
  },
  ClusterRole: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    group: 'rbac.authorization.k8s.io',
    resource: 'clusterroles',
    admit: (obj) => checked(obj, validateClusterRole(obj as ClusterRole)),
  },
  ClusterRoleBinding: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    group: 'rbac.authorization.k8s.io',
    resource: 'clusterrolebindings',
    admit: (obj) => {
      const b = defaultBinding(obj as ClusterRoleBinding);
      return checked(b, validateClusterRoleBinding(b));
    },
  },
  Job: {
    apiVersion: 'batch/v1',
    group: 'batch',
    resource: 'jobs',
    admit: (obj, ctx) => {
      const job = storedJob(obj as Job, ctx);
      return checked(job, validateJob(job, { gates: ctx.gates }), () => ({ pods: jobPods(job, `Job ${job.metadata.name}`), children: [] }), () => jobCreateWarnings(job));
    },
  },
  CronJob: {
    apiVersion: 'batch/v1',
    group: 'batch',
    resource: 'cronjobs',
    admit: (obj, ctx) => {
      const cj = defaultCronJob(obj as CronJob, { gates: ctx.gates });
      cj.metadata = { ...cj.metadata, uid: ctx.uid('CronJob', cj.metadata.namespace ?? '', cj.metadata.name ?? '') };
      cj.status = {};
      return checked(cj, validateCronJob(cj, { gates: ctx.gates }), () => {
        // The next run: the Job the controller creates at the first schedule time after now.
        if (cj.spec?.suspend) return none;
        const at = nextScheduleTime(parseCronSchedule(cj.spec?.schedule ?? ''), ctx.now.getTime(), cj.spec?.timeZone ?? 'UTC');
        if (at === undefined) return none;
        const job = storedJob(jobFromCronJob(cj, at), ctx);
        const name = job.metadata.name ?? '';
        return { pods: jobPods(job, `CronJob ${cj.metadata.name} → Job ${name}`), children: [{ group: 'batch', resource: 'jobs', kind: 'Job', name }] };
      }, () => cronJobCreateWarnings(cj));
    },
  },
};
