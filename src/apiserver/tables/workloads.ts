// Tables of the workload kinds (pkg/printers/internalversion printers.go at v1.32): printDeployment,
// printReplicaSet, printStatefulSet, printDaemonSet, printControllerRevision, printJob and
// printCronJob.

import type { ControllerRevision, CronJob, DaemonSet, Deployment, Job, ReplicaSet, StatefulSet } from '../../api/types.js';
import { age, ageCol, col, containerCells, formatLabels, formatLabelSelector, humanDuration, nameCol, readyCol, selectorString, wideTemplateCols, type Printer } from './common.js';

/** hasJobCondition: the first condition of the type decides. */
const jobCondition = (j: Job, type: string) => (j.status?.conditions ?? []).find((c) => c.type === type)?.status === 'True';

/**
 * printJob's STATUS: the finished conditions first, then Terminating, Suspended and FailureTarget;
 * SuccessCriteriaMet is not one of 1.32's statuses (kubernetes PR #132832 added it in 1.34).
 */
function jobStatus(j: Job): string {
  if (jobCondition(j, 'Complete')) return 'Complete';
  if (jobCondition(j, 'Failed')) return 'Failed';
  if (j.metadata?.deletionTimestamp) return 'Terminating';
  if (jobCondition(j, 'Suspended')) return 'Suspended';
  if (jobCondition(j, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function jobCompletions(j: Job): string {
  const succeeded = j.status?.succeeded ?? 0;
  const spec = j.spec ?? {};
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  if (typeof spec.parallelism === 'number' && spec.parallelism > 1) return `${succeeded}/1 of ${spec.parallelism}`;
  return `${succeeded}/1`;
}

function jobDuration(j: Job, now: number): string {
  const start = j.status?.startTime ? Date.parse(j.status.startTime) : NaN;
  if (Number.isNaN(start)) return '';
  const end = j.status?.completionTime ? Date.parse(j.status.completionTime) : now;
  return humanDuration(end - start);
}

// printJob (NAME STATUS COMPLETIONS DURATION AGE; wide: CONTAINERS IMAGES SELECTOR).
export const jobPrinter: Printer<Job> = {
  columns: [
    nameCol,
    col('Status', 'string', 'Status of the job.'),
    col('Completions', 'string', 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.'),
    col('Duration', 'string', 'Time required to complete the job.'),
    ageCol,
    ...wideTemplateCols('A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (j, now) => [j.metadata?.name ?? '', jobStatus(j), jobCompletions(j), jobDuration(j, now), age(j.metadata?.creationTimestamp, now), ...containerCells(j.spec?.template?.spec?.containers), formatLabelSelector(j.spec?.selector)],
};

// printCronJob (NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE; wide as for jobs).
export const cronJobPrinter: Printer<CronJob> = {
  columns: [
    nameCol,
    col('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    col('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones'),
    col('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    col('Active', 'integer', 'A list of pointers to currently running jobs.'),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    ageCol,
    ...wideTemplateCols('A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (cj, now) => {
    const spec = cj.spec ?? {};
    const suspend = typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>';
    const last = cj.status?.lastScheduleTime ? age(cj.status.lastScheduleTime, now) : '<none>';
    return [
      cj.metadata?.name ?? '',
      spec.schedule ?? '',
      spec.timeZone ?? '<none>',
      suspend,
      Array.isArray(cj.status?.active) ? cj.status!.active!.length : 0,
      last,
      age(cj.metadata?.creationTimestamp, now),
      ...containerCells(spec.jobTemplate?.spec?.template?.spec?.containers),
      formatLabelSelector(spec.jobTemplate?.spec?.selector),
    ];
  },
};

// printDeployment (NAME READY UP-TO-DATE AVAILABLE AGE; wide: CONTAINERS IMAGES SELECTOR).
export const deploymentPrinter: Printer<Deployment> = {
  columns: [
    nameCol,
    readyCol,
    col('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    col('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageCol,
    ...wideTemplateCols('Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.'),
  ],
  cells: (d, now) => [
    d.metadata?.name ?? '',
    `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
    d.status?.updatedReplicas ?? 0,
    d.status?.availableReplicas ?? 0,
    age(d.metadata?.creationTimestamp, now),
    ...containerCells(d.spec?.template?.spec?.containers),
    selectorString(d.spec?.selector),
  ],
};

// printReplicaSet (NAME DESIRED CURRENT READY AGE; wide: CONTAINERS IMAGES SELECTOR).
export const replicaSetPrinter: Printer<ReplicaSet> = {
  columns: [
    nameCol,
    col('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    col('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    col('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageCol,
    ...wideTemplateCols('Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (rs, now) => [
    rs.metadata?.name ?? '',
    rs.spec?.replicas ?? 0,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    age(rs.metadata?.creationTimestamp, now),
    ...containerCells(rs.spec?.template?.spec?.containers),
    formatLabelSelector(rs.spec?.selector),
  ],
};

// printStatefulSet (NAME READY AGE; wide: CONTAINERS IMAGES).
export const statefulSetPrinter: Printer<StatefulSet> = {
  columns: [nameCol, readyCol, ageCol, col('Containers', 'string', 'Names of each container in the template.', 1), col('Images', 'string', 'Images referenced by each container in the template.', 1)],
  cells: (ss, now) => [
    ss.metadata?.name ?? '',
    `${ss.status?.readyReplicas ?? 0}/${ss.spec?.replicas ?? 0}`,
    age(ss.metadata?.creationTimestamp, now),
    ...containerCells(ss.spec?.template?.spec?.containers),
  ],
};

// printDaemonSet (NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE; wide: CONTAINERS IMAGES SELECTOR).
export const daemonSetPrinter: Printer<DaemonSet> = {
  columns: [
    nameCol,
    col('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    col('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    col('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    col('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    col('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
    ageCol,
    ...wideTemplateCols('A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells: (ds, now) => {
    const st = ds.status ?? {};
    return [
      ds.metadata?.name ?? '',
      st.desiredNumberScheduled ?? 0,
      st.currentNumberScheduled ?? 0,
      st.numberReady ?? 0,
      st.updatedNumberScheduled ?? 0,
      st.numberAvailable ?? 0,
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      age(ds.metadata?.creationTimestamp, now),
      ...containerCells(ds.spec?.template?.spec?.containers),
      formatLabelSelector(ds.spec?.selector),
    ];
  },
};

/** formatResourceName of the controller reference: `<kind>.<group>/<name>` lower-cased, the group left out for core kinds. */
function controllerName(cr: ControllerRevision): string {
  const ref = (cr.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = group ? `${ref.kind}.${group}` : (ref.kind ?? '');
  return kind ? `${kind.toLowerCase()}/${ref.name}` : (ref.name ?? '');
}

// printControllerRevision (NAME CONTROLLER REVISION AGE).
export const controllerRevisionPrinter: Printer<ControllerRevision> = {
  columns: [nameCol, col('Controller', 'string', 'Controller of the object'), col('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'), ageCol],
  cells: (cr, now) => [cr.metadata?.name ?? '', controllerName(cr), cr.revision ?? 0, age(cr.metadata?.creationTimestamp, now)],
};
