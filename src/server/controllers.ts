// The controllers `bulkhead server` runs beside the API server, as kube-controller-manager and
// kube-scheduler run beside kube-apiserver: clients of it over shared informer factories on a
// loopback client, each with its own identity and User-Agent. Order: quota and namespace
// controllers, the garbage collector, CSR approval and signing (certificates.ts), the `default`
// ServiceAccount of every namespace that exists now, the `kube-root-ca.crt` ConfigMap of every
// namespace (the cluster CA, as the root CA publisher keeps it), the workload controllers (with
// the TTL-after-finished one, which deletes finished Jobs), the horizontal pod autoscaler (which
// reads the server's metrics.k8s.io storage directly), the disruption controller
// (PodDisruptionBudget status), the endpoints, EndpointSlice and EndpointSlice mirroring
// controllers, the node lifecycle and taint eviction
// controllers; the scheduler apart. Each of the two runs under a leader election (a Lease in
// kube-system, as kube-controller-manager's and kube-scheduler's --leader-elect), so of several
// API servers on one store one runs each; on a lone server the first attempt wins and they start
// before the server is returned. Loaded by start.ts once the API server listens.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FeatureGates } from '../api/featuregates.js';
import type { Api } from '../apiserver/rest.js';
import { SharedInformerFactory } from '../client/factory.js';
import { LeaderElector, leaderIdentity } from '../client/leaderelection.js';
import { LoopbackClient } from '../client/loopback.js';
import { componentUserAgent } from '../client/useragent.js';
import { CronJobController } from '../controllers/cronjob.js';
import { DeploymentController } from '../controllers/deployment.js';
import { DisruptionController, disruptionControllerName } from '../controllers/disruption.js';
import { GarbageCollector } from '../controllers/garbagecollector.js';
import { JobController } from '../controllers/job.js';
import { NamespaceController } from '../controllers/namespace.js';
import { NodeLifecycleController, nodeLifecycleControllerName } from '../controllers/nodelifecycle.js';
import { QuotaController } from '../controllers/quota.js';
import { ReplicaSetController } from '../controllers/replicaset.js';
import { SchedulerController, schedulerIdentity } from '../controllers/scheduler.js';
import { ServiceAccountsController } from '../controllers/serviceaccounts.js';
import { RootCACertPublisher } from '../controllers/rootcacert.js';
import { DaemonSetController, daemonSetControllerName } from '../controllers/daemonset.js';
import { StatefulSetController, statefulSetControllerName } from '../controllers/statefulset.js';
import { TaintEvictionController, taintEvictionControllerName } from '../controllers/tainteviction.js';
import { TtlAfterFinishedController, ttlAfterFinishedControllerName } from '../controllers/ttlafterfinished.js';
import { HorizontalPodAutoscalerController, horizontalPodAutoscalerControllerName } from '../controllers/horizontalpodautoscaler.js';
import { EndpointsController, endpointsControllerName } from '../controllers/endpoints.js';
import { EndpointSliceController, endpointSliceControllerAccount } from '../controllers/endpointslice.js';
import { EndpointSliceMirroringController, endpointSliceMirroringControllerAccount } from '../controllers/endpointslicemirroring.js';
import type { ServerOptions } from './start.js';
import { certificateControllers, type CertificateControllers } from './certificates.js';
import { ClusterRoleAggregationController, clusterRoleAggregationControllerName } from '../controllers/clusterroleaggregation.js';

/** What kube-controller-manager runs, started together when this server leads. */
export interface ControllerManager {
  quota: QuotaController;
  namespaces: NamespaceController;
  garbageCollector: GarbageCollector;
  /** CSR approval and signing (nodes that join with a bootstrap token). */
  certificates: CertificateControllers;
  clusterRoleAggregation: ClusterRoleAggregationController;
  replicaSets?: ReplicaSetController;
  deployments?: DeploymentController;
  statefulSets?: StatefulSetController;
  daemonSets?: DaemonSetController;
  jobs?: JobController;
  cronJobs?: CronJobController;
  /** Deletes finished Jobs once their spec.ttlSecondsAfterFinished has passed. */
  ttlAfterFinished?: TtlAfterFinishedController;
  /** Scales the targets of HorizontalPodAutoscalers on their pods' metrics. */
  horizontalPodAutoscaler?: HorizontalPodAutoscalerController;
  /** PodDisruptionBudget status (the eviction subresource reads it). */
  disruption: DisruptionController;
  /** The Endpoints and EndpointSlices of Services with a selector. */
  endpoints: EndpointsController;
  endpointSlices: EndpointSliceController;
  /** EndpointSlices for the Endpoints of Services without a selector. */
  endpointSliceMirroring: EndpointSliceMirroringController;
  nodeLifecycle: NodeLifecycleController;
  taintEviction: TaintEvictionController;
  stop(): Promise<void>;
}

/** A kube-controller-manager controller's loopback identity (its service account, as upstream's --use-service-account-credentials). */
function controllerIdentity(name: string) {
  const user = `system:serviceaccount:kube-system:${name}`;
  return { user, userAgent: componentUserAgent('kube-controller-manager', user) };
}

async function startControllerManager(api: Api, opts: ServerOptions, gates: FeatureGates, turn: () => Promise<void>): Promise<ControllerManager> {
  // One informer per kind for all controllers; the list and watch go through the loopback client,
  // whose objects are the watch cache's: the informers hold them as they are (a copy without
  // managedFields, as kube-scheduler's transform makes, would cost memory here, not save it).
  const informers = new SharedInformerFactory(new LoopbackClient(api, controllerIdentity('shared-informers')));
  const client = (name: string) => new LoopbackClient(api, controllerIdentity(name));
  const quota = new QuotaController(client('resourcequota-controller'), informers, { gates, resyncMs: (opts.quotaResyncSeconds ?? 30) * 1000 });
  const namespaces = new NamespaceController(client('namespace-controller'), informers);
  const serviceAccounts = new ServiceAccountsController(client('service-account-controller'), informers);
  const rootCA = new RootCACertPublisher(client('root-ca-cert-publisher'), informers, readFileSync(join(resolve(opts.dataDir), 'pki', 'ca.crt'), 'utf8'));
  const garbageCollector = new GarbageCollector(client('generic-garbage-collector'), informers);
  const certificates = certificateControllers(api, informers, opts.dataDir, controllerIdentity);
  const clusterRoleAggregation = new ClusterRoleAggregationController(client(clusterRoleAggregationControllerName), informers);
  const workloads = opts.workloadControllers ?? true;
  const replicaSets = workloads ? new ReplicaSetController(client('replicaset-controller'), informers) : undefined;
  const deployments = workloads ? new DeploymentController(client('deployment-controller'), informers) : undefined;
  const statefulSets = workloads ? new StatefulSetController(client(statefulSetControllerName), informers) : undefined;
  const daemonSets = workloads ? new DaemonSetController(client(daemonSetControllerName), informers) : undefined;
  const jobs = workloads ? new JobController(client('job-controller'), informers, opts.jobController) : undefined;
  const cronJobs = workloads ? new CronJobController(client('cronjob-controller'), informers, opts.cronJobController) : undefined;
  const ttlAfterFinished = workloads ? new TtlAfterFinishedController(client(ttlAfterFinishedControllerName), informers, { log: opts.log, ...opts.ttlAfterFinishedController }) : undefined;
  const disruption = new DisruptionController(client(disruptionControllerName), informers);
  const endpoints = new EndpointsController(client(endpointsControllerName), informers);
  const endpointSlices = new EndpointSliceController(client(endpointSliceControllerAccount), informers);
  const endpointSliceMirroring = new EndpointSliceMirroringController(client(endpointSliceMirroringControllerAccount), informers);
  const horizontalPodAutoscaler = opts.podMetrics
    ? new HorizontalPodAutoscalerController(client(horizontalPodAutoscalerControllerName), informers, { ...opts.horizontalPodAutoscaler, metrics: opts.podMetrics, ...(opts.log ? { log: opts.log } : {}) })
    : undefined;
  const nodeLifecycle = new NodeLifecycleController(client(nodeLifecycleControllerName), informers, { ...opts.nodeLifecycle, log: opts.log });
  const taintEviction = new TaintEvictionController(client(taintEvictionControllerName), informers, { log: opts.log });
  const stop = async () => {
    await taintEviction.stop();
    await nodeLifecycle.stop();
    ttlAfterFinished?.stop();
    await horizontalPodAutoscaler?.stop();
    await disruption.stop();
    await endpointSliceMirroring.stop();
    await endpointSlices.stop();
    await endpoints.stop();
    for (const c of [daemonSets, statefulSets, cronJobs, jobs, deployments, replicaSets]) await c?.stop();
    quota.stop();
    namespaces.stop();
    garbageCollector.stop();
    certificates.stop();
    clusterRoleAggregation.stop();
    serviceAccounts.stop();
    rootCA.stop();
    informers.stop();
  };
  try {
    // One controller's start after each turn of the API server's I/O (src/apiserver/startturns.ts):
    // requests are answered in between, as beside kube-controller-manager's start upstream.
    await quota.start();
    await turn();
    await namespaces.start();
    await turn();
    await garbageCollector.start();
    await turn();
    await certificates.start();
    await turn();
    await clusterRoleAggregation.start();
    await turn();
    quota.resyncAll();
    await turn();
    // Every namespace that exists now gets its `default` ServiceAccount before the first pod.
    await serviceAccounts.start();
    await serviceAccounts.idle();
    await turn();
    await rootCA.start();
    for (const c of [replicaSets, deployments, jobs, cronJobs, ttlAfterFinished, statefulSets, daemonSets, disruption, endpoints, endpointSlices, endpointSliceMirroring, horizontalPodAutoscaler, nodeLifecycle, taintEviction]) {
      await turn();
      await c?.start();
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { quota, namespaces, garbageCollector, certificates, clusterRoleAggregation, replicaSets, deployments, statefulSets, daemonSets, jobs, cronJobs, ttlAfterFinished, horizontalPodAutoscaler, disruption, endpoints, endpointSlices, endpointSliceMirroring, nodeLifecycle, taintEviction, stop };
}

async function startScheduler(api: Api, opts: ServerOptions, gates: FeatureGates): Promise<{ scheduler: SchedulerController; stop(): Promise<void> }> {
  const informers = new SharedInformerFactory(new LoopbackClient(api, controllerIdentity('shared-informers')));
  // In process there is no client connection to protect: no client-side rate limit.
  const scheduler = new SchedulerController(new LoopbackClient(api, schedulerIdentity), informers, { gates, qps: opts.schedulerQPS ?? 0 });
  try {
    await scheduler.start();
  } catch (e) {
    informers.stop();
    throw e;
  }
  return {
    scheduler,
    async stop() {
      await scheduler.stop();
      informers.stop();
    },
  };
}

/**
 * A component that runs while this server holds its Lease: started on winning, stopped on
 * losing (and started again on winning again), or run at once without election.
 */
class LeaderComponent<T extends { stop(): Promise<void> }> {
  current?: T;
  private elector?: LeaderElector;

  constructor(private readonly start: () => Promise<T>, api: Api, name: string, user: { user: string; userAgent: string }, opts: ServerOptions, identity: string) {
    if (opts.leaderElection === false) return;
    this.elector = new LeaderElector({
      client: new LoopbackClient(api, user),
      name,
      identity,
      timings: opts.leaderElection,
      log: opts.log,
      onStartedLeading: async () => {
        this.current = await this.start();
      },
      onStoppedLeading: async () => {
        const c = this.current;
        this.current = undefined;
        await c?.stop();
      },
    });
  }

  async run(): Promise<void> {
    if (this.elector) await this.elector.run();
    else this.current = await this.start();
  }

  async stop(): Promise<void> {
    if (this.elector) await this.elector.stop();
    else await this.current?.stop();
    this.current = undefined;
  }
}

/** Both components, each under its election (or at once with leaderElection: false). */
export async function startControlPlane(api: Api, opts: ServerOptions & { gates: FeatureGates; startTurn: () => Promise<void> }) {
  const { gates, startTurn: turn } = opts;
  const identity = opts.leaderIdentity ?? leaderIdentity();
  const manager = new LeaderComponent(() => startControllerManager(api, opts, gates, turn), api, 'kube-controller-manager', controllerIdentity('leader-election'), opts, identity);
  const scheduling = opts.scheduler ?? true ? new LeaderComponent(() => startScheduler(api, opts, gates), api, 'kube-scheduler', schedulerIdentity, opts, identity) : undefined;
  const stop = async () => {
    await scheduling?.stop();
    await manager.stop();
  };
  try {
    await manager.run();
    await turn();
    await scheduling?.run();
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
  return { manager, scheduling, stop };
}
