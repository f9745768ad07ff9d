// `bulkhead server` and `bulkhead up` without the agent: the API server (src/apiserver/server.ts)
// with the controllers composed on top as clients of it, as kube-controller-manager and
// kube-scheduler are (k3s pkg/server's shape: composition at the top, nothing below knows what
// runs beside it). The controllers share one informer factory over a loopback client
// (src/client/loopback.ts), each with its own identity and User-Agent, so what they write is
// recorded as upstream's components' writes are (the scheduler as system:kube-scheduler). Order:
// quota and namespace controllers, the garbage collector, the `default` ServiceAccount of every
// namespace that exists now, the workload controllers (ReplicaSet, Deployment, Job, CronJob,
// StatefulSet, DaemonSet), then the scheduler.

import type { FeatureGates } from '../api/featuregates.js';
import { defaultFeatureGates } from '../api/featuregates.js';
import { startApiServer, type ApiServerOptions, type RunningApiServer } from '../apiserver/server.js';
import { SharedInformerFactory } from '../client/factory.js';
import { LoopbackClient } from '../client/loopback.js';
import { componentUserAgent } from '../client/useragent.js';
import { CronJobController, type CronJobControllerOptions } from '../controllers/cronjob.js';
import { DeploymentController } from '../controllers/deployment.js';
import { GarbageCollector } from '../controllers/garbagecollector.js';
import { JobController, type JobControllerOptions } from '../controllers/job.js';
import { NamespaceController } from '../controllers/namespace.js';
import { QuotaController } from '../controllers/quota.js';
import { ReplicaSetController } from '../controllers/replicaset.js';
import { SchedulerController, schedulerIdentity } from '../controllers/scheduler.js';
import { ServiceAccountsController } from '../controllers/serviceaccounts.js';
import { DaemonSetController, daemonSetControllerName } from '../controllers/daemonset.js';
import { StatefulSetController, statefulSetControllerName } from '../controllers/statefulset.js';

export { kubeconfig, systemNamespaces } from '../apiserver/server.js';

export interface ServerOptions extends ApiServerOptions {
  /** Seconds between full quota resyncs. */
  quotaResyncSeconds?: number;
  /** Run the scheduler in the server (default true). */
  scheduler?: boolean;
  /** The scheduler's client-side write limit per second (burst 100); default 0, none: it writes in process. */
  schedulerQPS?: number;
  /** Job controller settings (tests shorten the batching and the back-off). */
  jobController?: JobControllerOptions;
  /** CronJob controller settings (tests inject a clock). */
  cronJobController?: CronJobControllerOptions;
  /** Run the workload controllers (default true); off for tests of the apps and batch APIs alone. */
  workloadControllers?: boolean;
}

export interface RunningServer extends RunningApiServer {
  quota: QuotaController;
  namespaces: NamespaceController;
  garbageCollector: GarbageCollector;
  /** The workload controllers, unless started with `workloadControllers: false`. */
  replicaSets?: ReplicaSetController;
  deployments?: DeploymentController;
  statefulSets?: StatefulSetController;
  daemonSets?: DaemonSetController;
  jobs?: JobController;
  cronJobs?: CronJobController;
  /** The scheduler, unless started with `scheduler: false`. */
  scheduler?: SchedulerController;
}

/** A kube-controller-manager controller's loopback identity (its service account, as upstream's --use-service-account-credentials). */
function controllerIdentity(name: string) {
  const user = `system:serviceaccount:kube-system:${name}`;
  return { user, userAgent: componentUserAgent('kube-controller-manager', user) };
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const server = await startApiServer(opts);
  const gates: FeatureGates = opts.gates ?? defaultFeatureGates;
  const { api } = server;
  // One informer per kind for all controllers; the list and watch go through the loopback client.
  const informers = new SharedInformerFactory(new LoopbackClient(api, controllerIdentity('shared-informers')));
  const quota = new QuotaController(new LoopbackClient(api, controllerIdentity('resourcequota-controller')), informers, { gates, resyncMs: (opts.quotaResyncSeconds ?? 30) * 1000 });
  const namespaces = new NamespaceController(new LoopbackClient(api, controllerIdentity('namespace-controller')), informers);
  const serviceAccounts = new ServiceAccountsController(new LoopbackClient(api, controllerIdentity('service-account-controller')), informers);
  const garbageCollector = new GarbageCollector(new LoopbackClient(api, controllerIdentity('generic-garbage-collector')), informers);
  const workloads = opts.workloadControllers ?? true;
  const client = (name: string) => new LoopbackClient(api, controllerIdentity(name));
  const replicaSets = workloads ? new ReplicaSetController(client('replicaset-controller'), informers) : undefined;
  const deployments = workloads ? new DeploymentController(client('deployment-controller'), informers) : undefined;
  const statefulSets = workloads ? new StatefulSetController(client(statefulSetControllerName), informers) : undefined;
  const daemonSets = workloads ? new DaemonSetController(client(daemonSetControllerName), informers) : undefined;
  const jobs = workloads ? new JobController(client('job-controller'), informers, opts.jobController) : undefined;
  const cronJobs = workloads ? new CronJobController(client('cronjob-controller'), informers, opts.cronJobController) : undefined;
  let scheduler: SchedulerController | undefined;
  try {
    await quota.start();
    await namespaces.start();
    await garbageCollector.start();
    quota.resyncAll();
    // Every namespace that exists now gets its `default` ServiceAccount before the first pod.
    await serviceAccounts.start();
    await serviceAccounts.idle();
    for (const c of [replicaSets, deployments, jobs, cronJobs, statefulSets, daemonSets]) await c?.start();
    if (opts.scheduler ?? true) {
      // In process there is no client connection to protect: no client-side rate limit.
      scheduler = new SchedulerController(new LoopbackClient(api, schedulerIdentity), informers, { gates, qps: opts.schedulerQPS ?? 0 });
      await scheduler.start();
    }
  } catch (e) {
    await server.close();
    throw e;
  }
  return {
    ...server,
    quota,
    namespaces,
    garbageCollector,
    replicaSets,
    deployments,
    statefulSets,
    daemonSets,
    jobs,
    cronJobs,
    scheduler,
    async close() {
      await scheduler?.stop();
      for (const c of [daemonSets, statefulSets, cronJobs, jobs, deployments, replicaSets]) await c?.stop();
      quota.stop();
      namespaces.stop();
      garbageCollector.stop();
      serviceAccounts.stop();
      informers.stop();
      await server.close();
    },
  };
}
