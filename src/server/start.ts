// `bulkhead server` and `bulkhead up` without the agent: the API server (src/apiserver/server.ts)
// with the controllers composed on top as clients of it, as kube-controller-manager and
// kube-scheduler are (k3s pkg/server's shape: composition at the top, nothing below knows what
// runs beside it): src/server/controllers.ts, under leader election. The controllers' modules
// are loaded once the API server listens: /readyz means what kube-apiserver's means (the API
// server serves; it does not wait for kube-controller-manager), and loading them first cost
// about a quarter of a start. Their start goes step by step, each after a turn of the API
// server's I/O (startTurn, src/apiserver/startturns.ts), so that requests are answered meanwhile.

import { defaultFeatureGates } from '../api/featuregates.js';
import { startApiServer, type ApiServerOptions, type RunningApiServer } from '../apiserver/server.js';
import type { LeaderElectionTimings } from '../client/leaderelection.js';
import type { JobControllerOptions } from '../controllers/job.js';
import type { CronJobControllerOptions } from '../controllers/cronjob.js';
import type { TtlAfterFinishedControllerOptions } from '../controllers/ttlafterfinished.js';
import type { SchedulerController } from '../controllers/scheduler.js';
import type { ControllerManager } from './controllers.js';
import type { NodeLifecycleOptions } from '../controllers/nodelifecycle.js';
import type { HorizontalPodAutoscalerControllerOptions, PodMetricsSource } from '../controllers/horizontalpodautoscaler.js';

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
  /** TTL-after-finished controller settings (tests inject a clock). */
  ttlAfterFinishedController?: TtlAfterFinishedControllerOptions;
  /** Run the workload controllers (default true); off for tests of the apps and batch APIs alone. */
  workloadControllers?: boolean;
  /** Node lifecycle settings: --node-monitor-period, --node-monitor-grace-period, --node-startup-grace-period and the zone rates. */
  nodeLifecycle?: Pick<NodeLifecycleOptions, 'monitorPeriodMs' | 'gracePeriodMs' | 'startupGracePeriodMs' | 'zoneRates'>;
  /** --leader-elect (default true) and its timings; false: run everything without a Lease. */
  leaderElection?: false | Partial<LeaderElectionTimings>;
  /** Where the horizontal pod autoscaler reads pods' usage (default: the server's metrics.k8s.io storage; tests give a fake). */
  podMetrics?: PodMetricsSource;
  /** The horizontal pod autoscaler's sync period and calculator settings (tests shorten them). */
  horizontalPodAutoscaler?: Omit<HorizontalPodAutoscalerControllerOptions, 'metrics' | 'events' | 'log'>;
  /** The candidate identity (default hostname_uuid, new each start). */
  leaderIdentity?: string;
  log?: (msg: string) => void;
}

/**
 * The running server; the controllers (ControllerManager's) are there while this server leads
 * (always, on a lone server), the workload ones unless started with `workloadControllers: false`.
 */
export interface RunningServer extends RunningApiServer, Partial<Omit<ControllerManager, 'stop'>> {
  /** The scheduler while this server leads, unless started with `scheduler: false`. */
  scheduler?: SchedulerController;
  /** Whether this server runs the controllers and the scheduler now. */
  leading(): { controllers: boolean; scheduler: boolean };
}


export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const server = await startApiServer(opts);
  let plane: Awaited<ReturnType<typeof import('./controllers.js').startControlPlane>>;
  try {
    await server.startTurn();
    const { startControlPlane } = await import('./controllers.js');
    plane = await startControlPlane(server.api, { ...opts, podMetrics: opts.podMetrics ?? server.podMetrics, gates: opts.gates ?? defaultFeatureGates, startTurn: server.startTurn });
  } catch (e) {
    await server.close();
    throw e;
  }
  const { manager, scheduling } = plane;
  const cm = () => manager.current;
  return Object.defineProperties(
    {
      ...server,
      leading: () => ({ controllers: !!manager.current, scheduler: !!scheduling?.current }),
      async close() {
        await plane.stop();
        await server.close();
      },
    } as RunningServer,
    {
      quota: { get: () => cm()?.quota, enumerable: true },
      namespaces: { get: () => cm()?.namespaces, enumerable: true },
      garbageCollector: { get: () => cm()?.garbageCollector, enumerable: true },
      certificates: { get: () => cm()?.certificates, enumerable: true },
      replicaSets: { get: () => cm()?.replicaSets, enumerable: true },
      deployments: { get: () => cm()?.deployments, enumerable: true },
      statefulSets: { get: () => cm()?.statefulSets, enumerable: true },
      daemonSets: { get: () => cm()?.daemonSets, enumerable: true },
      jobs: { get: () => cm()?.jobs, enumerable: true },
      cronJobs: { get: () => cm()?.cronJobs, enumerable: true },
      ttlAfterFinished: { get: () => cm()?.ttlAfterFinished, enumerable: true },
      horizontalPodAutoscaler: { get: () => cm()?.horizontalPodAutoscaler, enumerable: true },
      nodeLifecycle: { get: () => cm()?.nodeLifecycle, enumerable: true },
      taintEviction: { get: () => cm()?.taintEviction, enumerable: true },
      scheduler: { get: () => scheduling?.current?.scheduler, enumerable: true },
    },
  );
}
