// `bulkhead server` and `bulkhead up` without the agent: the API server (src/apiserver/server.ts)
// with the controllers composed on top as clients of it, as kube-controller-manager and
// kube-scheduler are (k3s pkg/server's shape: composition at the top, nothing below knows what
// runs beside it). The controllers share one informer factory over a loopback client
// (src/client/loopback.ts), each with its own identity and User-Agent, so what they write is
// recorded as upstream's components' writes are (the scheduler as system:kube-scheduler). Order:
// quota and namespace controllers, the garbage collector, the `default` ServiceAccount of every
// namespace that exists now, the workload controllers (ReplicaSet, Deployment, Job, CronJob,
// StatefulSet, DaemonSet), then the scheduler. The controllers' modules are loaded once the API
// server listens: /readyz means what kube-apiserver's means (the API server serves; it does not
// wait for kube-controller-manager), and loading them first cost about a quarter of a start.

import { defaultFeatureGates } from '../api/featuregates.js';
import { startApiServer, type ApiServerOptions, type RunningApiServer } from '../apiserver/server.js';
import type { QuotaController } from '../controllers/quota.js';
import type { NamespaceController } from '../controllers/namespace.js';
import type { GarbageCollector } from '../controllers/garbagecollector.js';
import type { ReplicaSetController } from '../controllers/replicaset.js';
import type { DeploymentController } from '../controllers/deployment.js';
import type { StatefulSetController } from '../controllers/statefulset.js';
import type { DaemonSetController } from '../controllers/daemonset.js';
import type { JobController, JobControllerOptions } from '../controllers/job.js';
import type { CronJobController, CronJobControllerOptions } from '../controllers/cronjob.js';
import type { SchedulerController } from '../controllers/scheduler.js';
import type { startControllers } from './controllers.js';
import type { CertificateControllers } from './certificates.js';

type StartControllers = typeof startControllers;

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
  /** CSR approval and signing (nodes that join with a bootstrap token). */
  certificates: CertificateControllers;
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

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const server = await startApiServer(opts);
  let c: Awaited<ReturnType<StartControllers>>;
  try {
    const { startControllers } = await import('./controllers.js');
    c = await startControllers(server.api, { ...opts, gates: opts.gates ?? defaultFeatureGates });
  } catch (e) {
    await server.close();
    throw e;
  }
  return {
    ...server,
    ...c.running,
    async close() {
      await c.stop();
      await server.close();
    },
  };
}
