// `bulkhead agent`: the node agent for this host, a client of an API server; and the agent
// flags `bulkhead up` shares.

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { Quantity, QuantityError } from '../api/quantity.js';
import { defaultEvictionHard, parseEvictionThresholds } from '../policy/eviction.js';
import { cgroupRootProblem } from '../agent/nodecgroups.js';
import { ociRuntimeChoices } from '../agent/runtime/runtimechoice.js';
import type { FeatureGates } from '../api/featuregates.js';
import type { AgentSettings } from '../agent/setup.js';
import { UsageError } from './errors.js';
import { durationFlag, featureGatesFlag } from './flags.js';

export interface AgentFlags {
  nodeName?: string;
  nodeIp?: string;
  nodeMemory?: string;
  nodeCpu?: string;
  maxPods: string;
  cgroupRoot: string;
  singleProcessOomKill?: string | boolean;
  oomGroupEmulation?: boolean;
  containerRuntime: string;
  evictionHard: string;
  agentListen?: string;
  housekeepingInterval: string;
  nodeStatusUpdateFrequency: string;
}

export function addAgentFlags(c: Command): Command {
  return c
    .option('--node-name <name>', 'name of this node (default: the hostname, lowercased)')
    .option('--node-ip <ip>', 'the InternalIP this node registers; the agent endpoint listens on it')
    .option('--node-memory <quantity>', 'declared node memory, e.g. 4Gi; enforced by the node cgroup that holds every pod (default: this machine)')
    .option('--node-cpu <quantity>', 'declared node CPU, e.g. 2 or 1500m; enforced by the node cgroup (default: this machine)')
    .option('--max-pods <n>', 'pods this node accepts', '110')
    .option('--cgroup-root <path>', 'cgroup below which kubepods/ is made in every hierarchy', '/bulkhead')
    .option('--single-process-oom-kill [bool]', 'node default OOM kill mode for containers without oomKillMode: true = Single (cgroup v1 always kills single processes)')
    .option('--oom-group-emulation', 'on cgroup v1, emulate oomKillMode: Group by killing the rest of a container after its first OOM kill (otherwise Group containers are refused)')
    .option('--container-runtime <runtime>', 'OCI runtime for containers: auto (crun when installed and this host\'s cgroups suit it, else runc), runc or crun; the Node shows it in nodeInfo.containerRuntimeVersion', 'auto')
    .option('--eviction-hard <thresholds>', 'hard eviction thresholds', defaultEvictionHard)
    .option('--agent-listen <host:port>', 'address of the agent endpoint (logs, metrics), like the kubelet\'s :10250 (default: <node-ip>:10250)')
    .option('--housekeeping-interval <duration>', 'how often the agent reads the cgroups\' CPU and memory for /stats/summary and /metrics/resource (the kubelet\'s flag)', '10s')
    .option('--node-status-update-frequency <duration>', 'how often the agent posts its Node status and renews its Lease (the kubelet\'s flag); keep it well under the server\'s --node-monitor-grace-period', '10s');
}

function positiveQuantity(flag: string, v: string): Quantity {
  let q: Quantity;
  try {
    q = Quantity.parse(v);
  } catch (e) {
    throw new UsageError(`invalid value "${v}" for ${flag}: ${e instanceof QuantityError ? e.message : String(e)}`);
  }
  if (q.sign() <= 0) throw new UsageError(`invalid value "${v}" for ${flag}: must be positive`);
  return q;
}

function goBool(flag: string, v: string | boolean | undefined): boolean | undefined {
  if (v === undefined || typeof v === 'boolean') return v;
  if (/^(1|t|T|TRUE|true|True)$/.test(v)) return true;
  if (/^(0|f|F|FALSE|false|False)$/.test(v)) return false;
  throw new UsageError(`invalid value "${v}" for ${flag}: must be true or false`);
}

export function parseHostPort(flag: string, v: string): { host?: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]*):(\d+)$/.exec(v);
  if (!m || Number(m[2]) > 65535) throw new UsageError(`invalid value "${v}" for ${flag}: expected HOST:PORT, e.g. 127.0.0.1:10250`);
  const host = m[1]!.replace(/^\[|\]$/g, '');
  return { ...(host ? { host } : {}), port: Number(m[2]) };
}

/** Agent settings from flags; connection fields are filled in by the caller. */
export function agentSettingsFromFlags(f: AgentFlags, gates: FeatureGates, dataDir: string): Omit<AgentSettings, 'server' | 'ca' | 'token'> {
  if (!/^[1-9][0-9]{0,5}$/.test(f.maxPods)) throw new UsageError(`invalid value "${f.maxPods}" for --max-pods: a positive integer`);
  if (f.nodeName !== undefined && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(f.nodeName)) {
    throw new UsageError(`invalid value "${f.nodeName}" for --node-name: a lowercase RFC 1123 subdomain, e.g. node-1`);
  }
  const rootProblem = cgroupRootProblem(f.cgroupRoot);
  if (rootProblem) throw new UsageError(`invalid value "${f.cgroupRoot}" for --cgroup-root: ${rootProblem}`);
  try {
    parseEvictionThresholds(f.evictionHard);
  } catch (e) {
    throw new UsageError(`invalid value "${f.evictionHard}" for --eviction-hard: ${(e as Error).message}`);
  }
  const endpoint = f.agentListen ? parseHostPort('--agent-listen', f.agentListen) : { port: 10250 };
  const single = goBool('--single-process-oom-kill', f.singleProcessOomKill);
  const housekeepingSeconds = durationFlag('--housekeeping-interval', f.housekeepingInterval ?? '10s');
  if (housekeepingSeconds < 0.1) throw new UsageError(`invalid value "${f.housekeepingInterval}" for --housekeeping-interval: must be at least 100ms`);
  const statusSeconds = durationFlag('--node-status-update-frequency', f.nodeStatusUpdateFrequency ?? '10s');
  if (statusSeconds < 0.1) throw new UsageError(`invalid value "${f.nodeStatusUpdateFrequency}" for --node-status-update-frequency: must be at least 100ms`);
  const containerRuntime = ociRuntimeChoices.find((c) => c === f.containerRuntime);
  if (!containerRuntime) throw new UsageError(`invalid value "${f.containerRuntime}" for --container-runtime: one of ${ociRuntimeChoices.join(', ')}`);
  return {
    dataDir,
    ...(f.nodeName ? { nodeName: f.nodeName } : {}),
    ...(f.nodeIp ? { nodeIP: f.nodeIp } : {}),
    ...(f.nodeMemory !== undefined ? { memoryBytes: positiveQuantity('--node-memory', f.nodeMemory).value() } : {}),
    ...(f.nodeCpu !== undefined ? { milliCPU: positiveQuantity('--node-cpu', f.nodeCpu).milliValue() } : {}),
    maxPods: Number(f.maxPods),
    cgroupRoot: f.cgroupRoot,
    ...(single !== undefined ? { singleProcessOOMKill: single } : {}),
    oomGroupEmulation: !!f.oomGroupEmulation,
    containerRuntime,
    evictionHard: f.evictionHard,
    gates,
    endpoint,
    statsIntervalMs: housekeepingSeconds * 1000,
    heartbeatMs: statusSeconds * 1000,
    progress: (m) => process.stderr.write(`bulkhead: ${m}\n`),
  };
}

/** Starts an agent with these settings (loaded lazily: the runtime modules are only for agents). */
/**
 * The lock a running agent holds on its data directory (`<path>-lock`, storage/ownerlock.ts): a
 * second agent on the same directory is refused, and so is `bulkhead down` while one runs.
 */
export function agentLockPath(dataDir: string): string {
  return join(resolve(dataDir), 'agent', 'state', 'agent');
}

export async function runAgent(s: AgentSettings): Promise<{ stop(): Promise<void>; nodeName: string; endpointPort?: number }> {
  const { assembleAgent, AgentSetupError } = await import('../agent/setup.js');
  const { createPodRuntime, createEviction } = await import('../agent/wiring.js');
  const { takeOwnerLockNow } = await import('../storage/sqlite.js');
  const lockPath = agentLockPath(s.dataDir);
  mkdirSync(dirname(lockPath), { recursive: true });
  let lock: { release(): void };
  try {
    lock = takeOwnerLockNow(lockPath);
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new UsageError(`another node agent is running with ${s.dataDir} (${lockPath}-lock is held)`);
    throw e;
  }
  try {
    const { agent } = await assembleAgent(s, { runtime: createPodRuntime, eviction: createEviction });
    await agent.start();
    return {
      stop: async () => {
        try {
          await agent.stop();
        } finally {
          lock.release();
        }
      },
      nodeName: agent.nodeName,
      endpointPort: agent.endpointPort,
    };
  } catch (e) {
    lock.release();
    if (e instanceof AgentSetupError) throw new UsageError(e.message);
    throw e;
  }
}

interface AgentCommandFlags extends AgentFlags {
  kubeconfig?: string;
  server?: string;
  token?: string;
  discoveryTokenCaCertHash?: string[];
  discoveryTokenUnsafeSkipCaVerification?: boolean;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  dataDir: string;
  featureGates?: string;
}

export function agentCommand(): Command {
  return addAgentFlags(new Command('agent'))
    .description('Run the node agent for this host against a Bulkhead (or Kubernetes-compatible) API server: registers the Node, runs the pods bound to it with runc under conmon, enforces QoS cgroups, oom_score_adj, OOM kill modes and ulimits, and evicts under memory pressure. Needs root.')
    .option('--kubeconfig <file>', 'kubeconfig with the node identity (bulkhead server writes <data-dir>/node.kubeconfig for its own host)')
    .option('--server <url>', 'API server to join with --token, e.g. https://10.0.0.1:6443')
    .option('--token <token>', 'bootstrap token (bulkhead token create): the agent obtains its own client and serving certificates with it and keeps them in --data-dir')
    .option('--discovery-token-ca-cert-hash <sha256:hex...>', 'the public key hash of the cluster CA the server must present (bulkhead token create --print-join-command prints it)')
    .option('--discovery-token-unsafe-skip-ca-verification', 'join without pinning the cluster CA (anyone between here and the server could pose as it)')
    .option('--data-dir <dir>', 'where images, container state and logs live', '.bulkhead')
    .option('--feature-gates <gates>', 'feature gates, e.g. ContainerUlimits=false')
    .option('--tls-cert-file <file>', 'serving certificate of the agent endpoint, signed by the cluster CA (bulkhead server writes <data-dir>/node.crt)')
    .option('--tls-private-key-file <file>', 'its key (bulkhead server writes <data-dir>/node.key)')
    .addHelpText('after', `
Stopping: Ctrl-C stops the agent, as a kubelet restart would: the containers keep running and the
next start adopts them. \`bulkhead down --data-dir DIR\` after Ctrl-C stops them too.

Examples:
  bulkhead agent --server https://10.0.0.1:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:<hex> --node-name node-2
  bulkhead agent --kubeconfig .bulkhead/node.kubeconfig --tls-cert-file .bulkhead/node.crt --tls-private-key-file .bulkhead/node.key
  bulkhead agent --kubeconfig node.kubeconfig --node-memory 2Gi --node-cpu 1 --oom-group-emulation`)
    .action(async (f: AgentCommandFlags) => {
      const flagSettings = agentSettingsFromFlags(f, featureGatesFlag(f.featureGates), f.dataDir);
      const { conn, tls } = f.token !== undefined || f.server !== undefined ? await joinWithToken(f, flagSettings) : await fromKubeconfig(f);
      const settings = { ...flagSettings, ...conn, tls };
      const running = await runAgent(settings);
      process.stdout.write(`Bulkhead agent is running as node ${running.nodeName} (endpoint port ${running.endpointPort}).\nStop with Ctrl-C; containers keep running and are adopted at the next start.\n`);
      const stop = () => {
        process.stderr.write('bulkhead: stopping the agent…\n');
        void running.stop().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

/** The node's identity from --kubeconfig and its serving certificate from the TLS flags. */
async function fromKubeconfig(f: AgentCommandFlags) {
  if (!f.kubeconfig) throw new UsageError('--kubeconfig, or --server with --token, is required: the agent is a client of an API server (bulkhead server writes <data-dir>/node.kubeconfig; bulkhead token create makes a token to join with)');
  const { readKubeconfig, KubeconfigError } = await import('../agent/kubeconfig.js');
  let conn;
  try {
    conn = readKubeconfig(f.kubeconfig);
  } catch (e) {
    if (e instanceof KubeconfigError) throw new UsageError(e.message);
    throw e;
  }
  if (!f.tlsCertFile || !f.tlsPrivateKeyFile) {
    throw new UsageError('--tls-cert-file and --tls-private-key-file are required: the agent endpoint serves HTTPS with a certificate the cluster CA signs (bulkhead server writes <data-dir>/node.crt and node.key)');
  }
  const { readFileSync } = await import('node:fs');
  try {
    return { conn, tls: { cert: readFileSync(f.tlsCertFile, 'utf8'), key: readFileSync(f.tlsPrivateKeyFile, 'utf8') } };
  } catch (e) {
    throw new UsageError(`cannot read the agent's serving certificate: ${(e as Error).message}`);
  }
}

/** The node's identity obtained with a bootstrap token (src/agent/bootstrap). */
async function joinWithToken(f: AgentCommandFlags, s: Omit<AgentSettings, 'server' | 'ca' | 'token'>) {
  if (!f.server || !f.token) throw new UsageError('--server and --token go together: the agent joins the server at --server with the bootstrap token');
  if (f.kubeconfig) throw new UsageError('--kubeconfig and --token exclude each other: a joining node writes its own kubeconfig into --data-dir');
  const { parseToken } = await import('../api/bootstraptoken.js');
  if (!parseToken(f.token)) throw new UsageError(`invalid value for --token: a bootstrap token has the form [a-z0-9]{6}.[a-z0-9]{16} (bulkhead token create)`);
  let server: URL;
  try {
    server = new URL(f.server);
  } catch {
    throw new UsageError(`invalid value "${f.server}" for --server: a URL such as https://10.0.0.1:6443`);
  }
  if (server.protocol !== 'https:') throw new UsageError(`invalid value "${f.server}" for --server: the API server speaks https`);
  const pins = f.discoveryTokenCaCertHash ?? [];
  for (const p of pins) if (!/^sha256:[0-9a-f]{64}$/.test(p)) throw new UsageError(`invalid value "${p}" for --discovery-token-ca-cert-hash: sha256: and 64 hex digits`);
  const { defaultNodeName, defaultNodeIP } = await import('../agent/setup.js');
  const { bootstrapNode, BootstrapError } = await import('../agent/bootstrap/bootstrap.js');
  const { DiscoveryError } = await import('../agent/bootstrap/discovery.js');
  const nodeName = s.nodeName ?? defaultNodeName();
  try {
    const creds = await bootstrapNode({
      server: server.origin,
      token: f.token,
      caCertHashes: pins,
      unsafeSkipCAVerification: !!f.discoveryTokenUnsafeSkipCaVerification,
      dataDir: s.dataDir,
      nodeName,
      servingHosts: [s.nodeIP ?? defaultNodeIP(), ...(s.endpoint.host ? [s.endpoint.host] : [])],
      log: s.progress ?? (() => undefined),
    });
    return { conn: { server: creds.server, ca: creds.ca, cert: creds.cert, key: creds.key }, tls: creds.tls };
  } catch (e) {
    if (e instanceof BootstrapError || e instanceof DiscoveryError) throw new UsageError(e.message);
    throw e;
  }
}
