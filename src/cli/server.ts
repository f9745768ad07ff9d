// `bulkhead server`: run the API server until interrupted (and, for `bulkhead up`, up.ts, the
// rest of a single-node cluster beside it). The agent's modules are up.ts's: `server` does not
// load them on its way to serving.

import { Command } from 'commander';
import type { RunningServer } from '../server/start.js';
import { UsageError } from './errors.js';
import { applyServerHeapSettings } from './nodeflags.js';
import { DurationError, parseGoDuration } from './goduration.js';
import { addDefaultTolerationSecondsFlags, defaultTolerationSecondsFlags, durationFlag, featureGatesFlag, type DefaultTolerationSecondsFlags } from './flags.js';
import { admissionControlConfigFileHelp, podSecurityFromFlags, resourceQuotaFromFlags, type PodSecurityFlags } from './admissionconfig.js';
import type { OpenStoreOptions } from '../storage/index.js';
import { parseNodePortRange, parseServiceIPRange, type NodePortRange, type ServiceIPRange } from '../api/servicerange.js';

export interface ServerFlags extends DefaultTolerationSecondsFlags, PodSecurityFlags {
  dataDir: string;
  store?: string;
  etcdCafile?: string;
  etcdCertfile?: string;
  etcdKeyfile?: string;
  etcdPrefix?: string;
  listen: string;
  featureGates?: string;
  advertise?: string[];
  etcdCompactionInterval: string;
  requestTimeout: string;
  metricResolution: string;
  nodeMonitorPeriod: string;
  nodeMonitorGracePeriod: string;
  nodeStartupGracePeriod: string;
  nodeEvictionRate: string;
  secondaryNodeEvictionRate: string;
  unhealthyZoneThreshold: string;
  largeClusterSizeThreshold: string;
  leaderElect: string | boolean;
  leaderElectLeaseDuration: string;
  leaderElectRenewDeadline: string;
  leaderElectRetryPeriod: string;
  serviceClusterIpRange: string;
  serviceNodePortRange: string;
  horizontalPodAutoscalerSyncPeriod: string;
  horizontalPodAutoscalerTolerance: string;
  horizontalPodAutoscalerDownscaleStabilization: string;
  horizontalPodAutoscalerCpuInitializationPeriod: string;
  horizontalPodAutoscalerInitialReadinessDelay: string;
}

/** --request-timeout as seconds, refused as kube-apiserver's ServerRunOptions.Validate refuses it. */
function requestTimeoutFlag(v: string): number {
  try {
    if (parseGoDuration(v) < 0) throw new UsageError('--request-timeout can not be negative value');
  } catch (e) {
    if (!(e instanceof DurationError)) throw e;
  }
  return durationFlag('--request-timeout', v);
}

/** A non-negative float32 flag (kube-controller-manager's rates and threshold). */
function rateFlag(flag: string, v: string, max = Infinity): number {
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(v) ? Number(v) : NaN;
  if (!(n <= max)) throw new UsageError(`invalid value "${v}" for ${flag}: expected a number${max === Infinity ? '' : ` from 0 to ${max}`}`);
  return n;
}

/** A Go bool flag: bare (true), or =true/=false. */
function boolFlag(flag: string, v: string | boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (/^(1|t|true|TRUE|True)$/.test(v)) return true;
  if (/^(0|f|false|FALSE|False)$/.test(v)) return false;
  throw new UsageError(`invalid value "${v}" for ${flag}: must be true or false`);
}

/** The node lifecycle, DefaultTolerationSeconds and leader election settings of the flags. */
function controlPlaneSettings(f: ServerFlags) {
  const ms = (flag: string, v: string) => Math.round(durationFlag(flag, v) * 1000);
  const nodeLifecycle = {
    monitorPeriodMs: ms('--node-monitor-period', f.nodeMonitorPeriod),
    gracePeriodMs: ms('--node-monitor-grace-period', f.nodeMonitorGracePeriod),
    startupGracePeriodMs: ms('--node-startup-grace-period', f.nodeStartupGracePeriod),
  };
  const zoneRates = {
    evictionRate: rateFlag('--node-eviction-rate', f.nodeEvictionRate),
    secondaryEvictionRate: rateFlag('--secondary-node-eviction-rate', f.secondaryNodeEvictionRate),
    unhealthyZoneThreshold: rateFlag('--unhealthy-zone-threshold', f.unhealthyZoneThreshold, 1),
    largeClusterSizeThreshold: rateFlag('--large-cluster-size-threshold', f.largeClusterSizeThreshold),
  };
  if (nodeLifecycle.monitorPeriodMs <= 0) throw new UsageError(`invalid value "${f.nodeMonitorPeriod}" for --node-monitor-period: must be greater than 0`);
  const defaultTolerationSeconds = defaultTolerationSecondsFlags(f);
  const timings = {
    leaseDurationMs: ms('--leader-elect-lease-duration', f.leaderElectLeaseDuration),
    renewDeadlineMs: ms('--leader-elect-renew-deadline', f.leaderElectRenewDeadline),
    retryPeriodMs: ms('--leader-elect-retry-period', f.leaderElectRetryPeriod),
  };
  // client-go's NewLeaderElector checks.
  if (timings.leaseDurationMs <= timings.renewDeadlineMs) throw new UsageError('leaseDuration must be greater than renewDeadline (--leader-elect-lease-duration, --leader-elect-renew-deadline)');
  if (timings.renewDeadlineMs <= timings.retryPeriodMs * 1.2) throw new UsageError('renewDeadline must be greater than retryPeriod*JitterFactor (--leader-elect-renew-deadline, --leader-elect-retry-period)');
  if (timings.retryPeriodMs < 1000) throw new UsageError(`invalid value "${f.leaderElectRetryPeriod}" for --leader-elect-retry-period: must be at least 1s`);
  const leaderElection = boolFlag('--leader-elect', f.leaderElect) ? timings : (false as const);
  // kube-controller-manager's horizontal pod autoscaler flags.
  const syncPeriodMs = ms('--horizontal-pod-autoscaler-sync-period', f.horizontalPodAutoscalerSyncPeriod);
  if (syncPeriodMs <= 0) throw new UsageError(`invalid value "${f.horizontalPodAutoscalerSyncPeriod}" for --horizontal-pod-autoscaler-sync-period: must be greater than 0`);
  const horizontalPodAutoscaler = {
    syncPeriodMs,
    reconcile: {
      tolerance: rateFlag('--horizontal-pod-autoscaler-tolerance', f.horizontalPodAutoscalerTolerance),
      downscaleStabilizationMs: ms('--horizontal-pod-autoscaler-downscale-stabilization', f.horizontalPodAutoscalerDownscaleStabilization),
      cpuInitializationPeriodMs: ms('--horizontal-pod-autoscaler-cpu-initialization-period', f.horizontalPodAutoscalerCpuInitializationPeriod),
      delayOfInitialReadinessStatusMs: ms('--horizontal-pod-autoscaler-initial-readiness-delay', f.horizontalPodAutoscalerInitialReadinessDelay),
    },
  };
  return { nodeLifecycle: { ...nodeLifecycle, zoneRates }, defaultTolerationSeconds, leaderElection, horizontalPodAutoscaler };
}

/** --service-cluster-ip-range and --service-node-port-range. */
function serviceRangeFlags(f: ServerFlags): { ip: ServiceIPRange; nodePorts: NodePortRange } {
  const parse = <T>(flag: string, v: string, fn: (s: string) => T): T => {
    try {
      return fn(v);
    } catch (e) {
      throw new UsageError(`invalid value "${v}" for ${flag}: ${(e as Error).message.replace(/^"[^"]*" /, '')}`);
    }
  };
  return { ip: parse('--service-cluster-ip-range', f.serviceClusterIpRange, parseServiceIPRange), nodePorts: parse('--service-node-port-range', f.serviceNodePortRange, parseNodePortRange) };
}

function parseListen(v: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]*):(\d+)$/.exec(v);
  if (!m) throw new UsageError(`invalid value "${v}" for --listen: expected HOST:PORT, e.g. 127.0.0.1:6443`);
  const port = Number(m[2]);
  if (port > 65535) throw new UsageError(`invalid value "${v}" for --listen: port must be at most 65535`);
  return { host: m[1]!.replace(/^\[|\]$/g, '') || '127.0.0.1', port };
}

/** --store and the etcd client flags (kube-apiserver's --etcd-cafile, --etcd-certfile, --etcd-keyfile, --etcd-prefix). */
async function storeFlags(f: ServerFlags): Promise<OpenStoreOptions> {
  const etcdFlags = ([['--etcd-cafile', f.etcdCafile], ['--etcd-certfile', f.etcdCertfile], ['--etcd-keyfile', f.etcdKeyfile], ['--etcd-prefix', f.etcdPrefix]] as const).filter(([, v]) => v !== undefined);
  const isEtcd = !!f.store && /^etcd:/i.test(f.store);
  if (f.store && !isEtcd && !/^(sqlite:.+|memory:)$/.test(f.store)) {
    throw new UsageError(`invalid value "${f.store}" for --store: supported engines are sqlite:PATH, memory: and etcd://HOST:PORT[,HOST:PORT…]`);
  }
  if (!isEtcd) {
    if (etcdFlags.length > 0) throw new UsageError(`${etcdFlags.map(([n]) => n).join(', ')} ${etcdFlags.length === 1 ? 'applies' : 'apply'} only with --store etcd://HOST:PORT`);
    return {};
  }
  const { parseEtcdEndpoints } = await import('../storage/index.js');
  try {
    parseEtcdEndpoints(f.store!);
  } catch (e) {
    throw new UsageError(`invalid value "${f.store}" for --store: ${(e as Error).message.replace(/^store spec "[^"]*":? ?/, '')}`);
  }
  if ((f.etcdCertfile === undefined) !== (f.etcdKeyfile === undefined)) throw new UsageError('--etcd-certfile and --etcd-keyfile go together');
  if (f.etcdPrefix !== undefined && f.etcdPrefix !== '' && !f.etcdPrefix.startsWith('/')) throw new UsageError(`invalid value "${f.etcdPrefix}" for --etcd-prefix: must start with /`);
  const { readFileSync } = await import('node:fs');
  const read = (flag: string, path: string | undefined) => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (e) {
      throw new UsageError(`cannot read ${flag} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  const ca = read('--etcd-cafile', f.etcdCafile);
  const cert = read('--etcd-certfile', f.etcdCertfile);
  const key = read('--etcd-keyfile', f.etcdKeyfile);
  return {
    etcdPrefix: f.etcdPrefix?.replace(/\/+$/, ''),
    ...(ca || cert ? { etcdTLS: { ca, cert, key } } : {}),
  };
}

export async function runServer(f: ServerFlags, banner: (s: RunningServer) => string, withAgent?: (s: RunningServer) => Promise<{ stop(): Promise<void> }>): Promise<RunningServer> {
  applyServerHeapSettings();
  const { host, port } = parseListen(f.listen);
  const gates = featureGatesFlag(f.featureGates);
  const podSecurity = podSecurityFromFlags(f);
  const resourceQuota = resourceQuotaFromFlags(f, (m) => process.stderr.write(`bulkhead: warning: ${m}\n`));
  const compactionSeconds = durationFlag('--etcd-compaction-interval', f.etcdCompactionInterval);
  const requestTimeoutSeconds = requestTimeoutFlag(f.requestTimeout);
  const metricResolutionSeconds = durationFlag('--metric-resolution', f.metricResolution);
  if (metricResolutionSeconds < 1) throw new UsageError(`invalid value "${f.metricResolution}" for --metric-resolution: must be at least 1s`);
  const storeOptions = await storeFlags(f);
  const controlPlane = controlPlaneSettings(f);
  const serviceRanges = serviceRangeFlags(f);
  process.stderr.write(`bulkhead: starting the API server (data in ${f.dataDir})…\n`);
  // Loaded here, not at the top: the server's modules (schemas, SQLite, X.509) would slow every other command's start.
  const { startServer } = await import('../server/start.js');
  let running: RunningServer;
  try {
    running = await startServer({ dataDir: f.dataDir, store: f.store, storeOptions, host, port, gates, podSecurityDefaults: podSecurity.defaults, podSecurityExemptions: podSecurity.exemptions, resourceQuota, advertise: f.advertise, compactionSeconds, requestTimeoutSeconds, metricResolutionSeconds, serviceRanges, ...controlPlane, log: (msg) => process.stderr.write(`bulkhead: ${msg}\n`) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new UsageError(`cannot listen on ${f.listen}: the address is already in use (another bulkhead running?)`);
    if (err.code === 'EACCES') throw new UsageError(`cannot listen on ${f.listen}: permission denied`);
    throw e;
  }
  // A kubeconfig with this host's node identity, for `bulkhead agent --kubeconfig`.
  const { kubeconfig } = await import('../server/start.js');
  const { defaultNodeName, defaultNodeIP } = await import('../agent/nodeidentity.js');
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const nodeName = defaultNodeName();
  writeFileSync(join(f.dataDir, 'node.kubeconfig'), kubeconfig(running.url, running.caCert, `system:node:${nodeName}`, running.nodeToken(nodeName)), { mode: 0o600 });
  // And its agent endpoint's serving certificate, issued by the cluster CA for the names and
  // addresses the agent registers (its hostname and default InternalIP) and loopback.
  const serving = await running.nodeServingCert(nodeName, [defaultNodeIP(), '127.0.0.1']);
  writeFileSync(join(f.dataDir, 'node.crt'), serving.cert, { mode: 0o644 });
  writeFileSync(join(f.dataDir, 'node.key'), serving.key, { mode: 0o600 });
  let agent: { stop(): Promise<void> } | undefined;
  if (withAgent) {
    try {
      agent = await withAgent(running);
    } catch (e) {
      await running.close();
      throw e;
    }
  }
  const stop = () => {
    process.stderr.write('bulkhead: shutting down…\n');
    void (async () => {
      await agent?.stop();
      await running.close();
      process.exit(0);
    })();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // After the handlers: whoever stops the server once the banner is out (bench:startup, a
  // supervisor) finds them installed. Printed first, a SIGTERM sent on seeing it could land
  // before them (the process preempted between the two) and kill it without its clean stop.
  process.stdout.write(banner(running));
  return running;
}

export function addServerFlags(c: Command, defaultDataDir: string): Command {
  c
    .option('--data-dir <dir>', 'where the database, certificates, tokens and kubeconfig live', defaultDataDir)
    .option('--store <engine>', 'sqlite:PATH (default: <data-dir>/bulkhead.db), memory: (nothing survives a restart), or etcd://HOST:PORT[,HOST:PORT…] (an etcd v3 cluster; several servers may share it)')
    .option('--etcd-cafile <file>', 'with --store etcd://: the CA that signed the etcd members\' serving certificates (TLS to etcd)')
    .option('--etcd-certfile <file>', 'with --store etcd://: client certificate for etcd (with --etcd-keyfile)')
    .option('--etcd-keyfile <file>', 'with --store etcd://: the client certificate\'s key')
    .option('--etcd-prefix <prefix>', 'with --store etcd://: prepended to every key (/registry/… below it), so several clusters can share one etcd; default none')
    .option('--listen <host:port>', 'address to serve HTTPS on', '127.0.0.1:6443')
    .option('--advertise <name...>', 'extra DNS names or IPs for the serving certificate')
    .option('--feature-gates <gates>', 'feature gates, e.g. ContainerUlimits=false')
    .option('--pod-security <level[:version]>', 'Pod Security enforce level for namespaces without labels (default: privileged:latest); the shorthand for defaults.enforce[-version] of --admission-control-config-file, so not with it')
    .option('--admission-control-config-file <file>', admissionControlConfigFileHelp)
    .option('--request-timeout <duration>', 'An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests (watches, logs, exec, attach, port-forward and proxy are long-running and have none).', '1m0s')
    .option('--etcd-compaction-interval <duration>', 'how often history older than one interval is compacted away (watches from before it get 410 Gone); 0 disables compaction', '5m0s')
    .option('--metric-resolution <duration>', 'how often metrics.k8s.io scrapes every node agent\'s /metrics/resource (metrics-server\'s flag)', '15s')
    .option('--node-monitor-period <duration>', 'how often the node lifecycle controller checks every node\'s heartbeat', '5s')
    .option('--node-monitor-grace-period <duration>', 'how long a node may go without renewing its Lease or status before its Ready condition becomes Unknown and it is tainted unreachable', '50s')
    .option('--node-startup-grace-period <duration>', 'the same for a node that never posted a Ready condition', '1m0s')
    .option('--node-eviction-rate <rate>', 'nodes per second tainted NoExecute (their pods then evicted) in a zone that is healthy', '0.1')
    .option('--secondary-node-eviction-rate <rate>', 'the same in a zone in partial disruption larger than --large-cluster-size-threshold (smaller zones: none)', '0.01')
    .option('--unhealthy-zone-threshold <fraction>', 'the share of not-Ready nodes (at least three) that puts a zone in partial disruption', '0.55')
    .option('--large-cluster-size-threshold <nodes>', 'zones larger than this keep evicting, at the secondary rate, in partial disruption', '50')
    .option('--horizontal-pod-autoscaler-sync-period <duration>', 'how often the horizontal pod autoscaler looks at each autoscaler', '15s')
    .option('--horizontal-pod-autoscaler-tolerance <fraction>', 'the least change of the metrics\' ratio to their target for which the autoscaler rescales', '0.1')
    .option('--horizontal-pod-autoscaler-downscale-stabilization <duration>', 'how far back the autoscaler looks for a higher recommendation before scaling down (and a behavior\'s unset scale-down window)', '5m0s')
    .option('--horizontal-pod-autoscaler-cpu-initialization-period <duration>', 'how long after a pod\'s start its CPU readings may be skipped', '5m0s')
    .option('--horizontal-pod-autoscaler-initial-readiness-delay <duration>', 'how long after a pod\'s start a readiness change counts as its first one', '30s')
    .option('--leader-elect [bool]', 'elect one leader (a Lease in kube-system) to run the controllers and one to run the scheduler, for several servers on one store', 'true')
    .option('--leader-elect-lease-duration <duration>', 'how long a candidate waits after the leader\'s last observed renewal before taking over', '15s')
    .option('--leader-elect-renew-deadline <duration>', 'how long the leader keeps trying to renew before it stops leading', '10s')
    .option('--leader-elect-retry-period <duration>', 'how long candidates wait between attempts to acquire or renew', '2s')
    .option('--service-cluster-ip-range <cidr>', 'the IPv4 range Services\' cluster IPs are allocated from; its first address is the kubernetes Service\'s (nothing routes to these addresses: there is no kube-proxy)', '10.96.0.0/12')
    .option('--service-node-port-range <range>', 'the ports NodePort and LoadBalancer Services\' node ports are allocated from', '30000-32767');
  return addDefaultTolerationSecondsFlags(c);
}

export const kubectlHint = (s: RunningServer, stop = 'Stop with Ctrl-C; data stays in the data directory.') => `Bulkhead API server is running at ${s.url}

Point kubectl at it:
  export KUBECONFIG=${s.kubeconfigPath}
  kubectl get namespaces
  kubectl apply -f examples/

${stop}
`;

export function serverCommand(): Command {
  return addServerFlags(new Command('server'), '.bulkhead')
    .description('Run the API server with the embedded SQLite store (or on etcd, with --store etcd://…) and the quota and namespace controllers.')
    .addHelpText('after', `
Examples:
  bulkhead server --data-dir /var/lib/bulkhead --listen 0.0.0.0:6443 --advertise my-host
  KUBECONFIG=/var/lib/bulkhead/kubeconfig kubectl get ns`)
    .action(async (f: ServerFlags) => {
      await runServer(f, (s) => kubectlHint(s));
    });
}
