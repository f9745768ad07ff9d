// The controllers `bulkhead server` runs beside the API server, as kube-controller-manager and
// kube-scheduler run beside kube-apiserver: clients of it over one shared informer factory on a
// loopback client, each with its own identity and User-Agent. Order: quota and namespace
// controllers, the garbage collector, CSR approval and signing (certificates.ts), the `default`
// ServiceAccount of every namespace that exists now, the workload controllers, then the
// scheduler. Loaded by start.ts once the API server listens.

import type { FeatureGates } from '../api/featuregates.js';
import type { Api } from '../apiserver/rest.js';
import { SharedInformerFactory } from '../client/factory.js';
import { LoopbackClient } from '../client/loopback.js';
import { componentUserAgent } from '../client/useragent.js';
import { CronJobController } from '../controllers/cronjob.js';
import { DeploymentController } from '../controllers/deployment.js';
import { GarbageCollector } from '../controllers/garbagecollector.js';
import { JobController } from '../controllers/job.js';
import { NamespaceController } from '../controllers/namespace.js';
import { QuotaController } from '../controllers/quota.js';
import { ReplicaSetController } from '../controllers/replicaset.js';
import { SchedulerController, schedulerIdentity } from '../controllers/scheduler.js';
import { ServiceAccountsController } from '../controllers/serviceaccounts.js';
import { DaemonSetController, daemonSetControllerName } from '../controllers/daemonset.js';
import { StatefulSetController, statefulSetControllerName } from '../controllers/statefulset.js';
import type { RunningServer, ServerOptions } from './start.js';
import { certificateControllers } from './certificates.js';

type Running = Pick<RunningServer, 'quota' | 'namespaces' | 'garbageCollector' | 'certificates' | 'replicaSets' | 'deployments' | 'statefulSets' | 'daemonSets' | 'jobs' | 'cronJobs' | 'scheduler'>;

/** A kube-controller-manager controller's loopback identity (its service account, as upstream's --use-service-account-credentials). */
function controllerIdentity(name: string) {
  const user = `system:serviceaccount:kube-system:${name}`;
  return { user, userAgent: componentUserAgent('kube-controller-manager', user) };
}

/** Starts the controllers against `api`; if one fails to start, those started are stopped. */
export async function startControllers(api: Api, opts: ServerOptions & { gates: FeatureGates }): Promise<{ running: Running; stop(): Promise<void> }> {
  const { gates } = opts;
  // One informer per kind for all controllers; the list and watch go through the loopback client.
  const informers = new SharedInformerFactory(new LoopbackClient(api, controllerIdentity('shared-informers')));
  const client = (name: string) => new LoopbackClient(api, controllerIdentity(name));
  const quota = new QuotaController(client('resourcequota-controller'), informers, { gates, resyncMs: (opts.quotaResyncSeconds ?? 30) * 1000 });
  const namespaces = new NamespaceController(client('namespace-controller'), informers);
  const serviceAccounts = new ServiceAccountsController(client('service-account-controller'), informers);
  const garbageCollector = new GarbageCollector(client('generic-garbage-collector'), informers);
  const certificates = certificateControllers(api, informers, opts.dataDir, controllerIdentity);
  const workloads = opts.workloadControllers ?? true;
  const replicaSets = workloads ? new ReplicaSetController(client('replicaset-controller'), informers) : undefined;
  const deployments = workloads ? new DeploymentController(client('deployment-controller'), informers) : undefined;
  const statefulSets = workloads ? new StatefulSetController(client(statefulSetControllerName), informers) : undefined;
  const daemonSets = workloads ? new DaemonSetController(client(daemonSetControllerName), informers) : undefined;
  const jobs = workloads ? new JobController(client('job-controller'), informers, opts.jobController) : undefined;
  const cronJobs = workloads ? new CronJobController(client('cronjob-controller'), informers, opts.cronJobController) : undefined;
  let scheduler: SchedulerController | undefined;
  const stop = async () => {
    await scheduler?.stop();
    for (const c of [daemonSets, statefulSets, cronJobs, jobs, deployments, replicaSets]) await c?.stop();
    quota.stop();
    namespaces.stop();
    garbageCollector.stop();
    certificates.stop();
    serviceAccounts.stop();
    informers.stop();
  };
  try {
    await quota.start();
    await namespaces.start();
    await garbageCollector.start();
    await certificates.start();
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
    await stop().catch(() => undefined);
    throw e;
  }
  return { running: { quota, namespaces, garbageCollector, certificates, replicaSets, deployments, statefulSets, daemonSets, jobs, cronJobs, scheduler }, stop };
}
