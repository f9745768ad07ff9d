// Assembling a node agent for this host from its settings: probe what the host can enforce,
// decide the node's size and OOM settings, declare capabilities, make sure the busybox image
// exists, and wire the pod worker, node cgroups, eviction manager and endpoint together. Used
// by `bulkhead agent` and `bulkhead up`.

import { mkdirSync } from 'node:fs';
import { hostname, release } from 'node:os';
import { join, resolve } from 'node:path';
import type { FeatureGates } from '../api/featuregates.js';
import type { NodeConfig } from '../plan/node.js';
import { parseEvictionThresholds, thresholdQuantity, type Threshold } from '../policy/eviction.js';
import type { NodeCapabilities } from '../policy/nodecapabilities.js';
import { ulimitRlimitTypes, type RlimitType } from '../policy/rlimits.js';
import { validateSingleProcessOOMKill } from '../policy/oomkillmode.js';
import { Agent, agentLog, type EventSink, type PodAdmitter, type PodRuntime } from './agent.js';
import { connectAgent } from './connect.js';
import { filesystemCapacityBytes, hostArch, hostBootID, hostHugePages, hostMachineID, hostMemoryBytes, hostMilliCPU, hostOSImage } from './host.js';
import { ensureBusyboxImage } from './images/busybox.js';
import { ImageStore } from './images/store.js';
import type { ObjectSource } from './podworker/context.js';
import { AgentMetrics } from './metrics.js';
import { cgroupRootProblem, NodeCgroups } from './nodecgroups.js';
import type { CgroupManager } from './cgroups/manager.js';
import { cgroupManagerFor } from './cgroups/select.js';
import { allocatableOf, type NodeFacts } from './nodeobject.js';
import { probeHost, type HostProbe } from './runtime/hostprobe.js';
import { chooseOCIRuntime, probeRuntimeCandidate, runtimeHandlers, type OCIRuntime, type OCIRuntimeChoice } from './runtime/runtimechoice.js';
import { which } from './monitor/conmon.js';
import { delegatingAuthenticator } from './endpointauth.js';
import { defaultNodeIP, defaultNodeName } from './nodeidentity.js';

export interface AgentSettings {
  server: string;
  ca: string;
  /** The node's credentials: a bearer token, or a client certificate and key (a node that joined). */
  token?: string;
  cert?: string;
  key?: string;
  /**
   * The endpoint's serving certificate and key, signed by the cluster CA (`bulkhead up` has the
   * server issue them; `bulkhead agent` reads --tls-cert-file and --tls-private-key-file).
   */
  tls?: { cert: string; key: string };
  dataDir: string;
  nodeName?: string;
  nodeIP?: string;
  /** Declared node size; undefined: this machine's. */
  memoryBytes?: bigint;
  milliCPU?: bigint;
  maxPods?: number;
  cgroupRoot: string;
  singleProcessOOMKill?: boolean;
  oomGroupEmulation: boolean;
  /** The OCI runtime: crun where it works, else runc (auto, the default), or the one named. */
  containerRuntime?: OCIRuntimeChoice;
  evictionHard: string;
  gates: FeatureGates;
  endpoint: { host?: string; port: number };
  resyncMs?: number;
  heartbeatMs?: number;
  /** --housekeeping-interval: how often the stats are read; default 10 s. */
  statsIntervalMs?: number;
  /** Report progress (startup takes a few seconds on first run: the busybox image is built). */
  progress?: (msg: string) => void;
  log?: (msg: string) => void;
}

export class AgentSetupError extends Error {}

export { defaultNodeIP, defaultNodeName };

/** The capabilities a node with this host and configuration declares. */
export function nodeCapabilities(node: NodeConfig, probe: Pick<HostProbe, 'minOomScoreAdj' | 'hardRlimitCeilings'>): NodeCapabilities {
  const ceilings: Partial<Record<RlimitType, string>> = {};
  for (const t of Object.values(ulimitRlimitTypes)) {
    const v = probe.hardRlimitCeilings[t];
    if (v !== undefined) ceilings[t] = v.toString();
  }
  return {
    cgroupVersion: node.cgroupVersion,
    oomGroup: node.cgroupVersion === 2 ? 'native' : node.oomGroupEmulation ? 'emulated' : 'unsupported',
    minOOMScoreAdj: probe.minOomScoreAdj,
    hardRlimitCeilings: ceilings,
  };
}

/** The node configuration the plans of this agent are made with (one implementation: src/plan/node.ts). */
export function agentNodeConfig(s: Pick<AgentSettings, 'memoryBytes' | 'milliCPU' | 'singleProcessOOMKill' | 'oomGroupEmulation'>, probe: HostProbe): NodeConfig {
  const cgroupVersion = probe.cgroups.memoryVersion;
  if (s.singleProcessOOMKill !== undefined) {
    const err = validateSingleProcessOOMKill(s.singleProcessOOMKill, cgroupVersion);
    if (err) throw new AgentSetupError(err);
  }
  const hardRlimitCeilings: Partial<Record<RlimitType, bigint>> = {};
  for (const t of Object.values(ulimitRlimitTypes)) {
    const v = probe.hardRlimitCeilings[t];
    if (v !== undefined) hardRlimitCeilings[t] = v;
  }
  return {
    memoryBytes: s.memoryBytes ?? hostMemoryBytes(),
    milliCPU: s.milliCPU ?? hostMilliCPU(),
    cgroupVersion,
    cgroupDriver: 'cgroupfs',
    ...(s.singleProcessOOMKill !== undefined ? { singleProcessOOMKill: s.singleProcessOOMKill } : {}),
    oomGroupEmulation: cgroupVersion === 1 && s.oomGroupEmulation,
    swapControllerAvailable: probe.swapControllerAvailable,
    ...(probe.nrOpen !== undefined ? { nrOpen: probe.nrOpen } : {}),
    hardRlimitCeilings,
    host: { minOomScoreAdj: probe.minOomScoreAdj, hardRlimitCeilings: probe.hardRlimitCeilings },
  };
}

export interface RuntimeContext {
  node: NodeConfig;
  host: HostProbe;
  gates: FeatureGates;
  images: ImageStore;
  metrics: AgentMetrics;
  cgroupRoot: string;
  stateDir: string;
  runDir: string;
  /** The node's addresses, primary first. */
  hostIPs: string[];
  /** The Node's status.allocatable (the downward API's unset limits). */
  allocatable: Record<string, string>;
  /** The OCI runtime containers run with (conmon's --runtime). */
  ociRuntime: OCIRuntime;
  /** The runtimes a RuntimeClass handler may select (`runc`, `crun`: those usable here). */
  handlerRuntimes: OCIRuntime[];
  /** The host's cgroup manager (v1 or v2), shared with the node cgroups and the agent. */
  cgroups: CgroupManager;
  /** The ConfigMaps and Secrets pods refer to, through the agent's client. */
  objects: ObjectSource;
  /** A container was just started (the OOM reporter watches its memory.events from now on). */
  containerStarted: () => void;
  /** A container's cgroup is about to be removed (the OOM reporter reads its memory.events a last time). */
  containerRemoving: (containerID: string) => void;
  /** The probes' events (Unhealthy, ProbeWarning), recorded as the agent records a sync's. */
  probeEvents: EventSink;
  /** A probe result changed: the pod is synced again. */
  probeChanged: (podUID: string) => void;
}

export interface EvictionContext {
  node: NodeConfig;
  host: HostProbe;
  thresholds: Threshold[];
  nodeCgroups: NodeCgroups;
  gates: FeatureGates;
  runtime: PodRuntime;
  agent: Agent;
}

export interface AssembleHooks {
  runtime: (ctx: RuntimeContext) => PodRuntime;
  eviction?: (ctx: EvictionContext) => PodAdmitter;
}

/** Where an agent with this data directory keeps its container state and its pods' files. */
export function agentDirs(dataDir: string): { dataDir: string; stateDir: string; runDir: string } {
  const agentDir = resolve(dataDir, 'agent');
  return { dataDir: agentDir, stateDir: join(agentDir, 'state'), runDir: join(agentDir, 'run') };
}

/**
 * What runs containers here: root, the host's probe, conmon, the OCI runtime `choice` names (or
 * auto's) and the RuntimeClass handlers usable beside it. Used by the agent and `bulkhead down`.
 */
export async function probeContainerHost(choice: OCIRuntimeChoice | undefined, progress: (msg: string) => void): Promise<{ host: HostProbe; ociRuntime: OCIRuntime; handlers: ReturnType<typeof runtimeHandlers> }> {
  if (process.getuid?.() !== 0) {
    throw new AgentSetupError('the node agent needs root: it creates cgroups and runs containers with runc (run it as root, or `bulkhead server` for the API server alone)');
  }
  progress('probing what this host can enforce…');
  const host = await probeHost();
  if (!which('conmon')) throw new AgentSetupError('conmon is not installed (apt-get install conmon; scripts/install-host-deps.sh does it)');
  const candidates = { runc: probeRuntimeCandidate('runc', which), crun: probeRuntimeCandidate('crun', which) };
  const ociRuntime = chooseOCIRuntime(choice ?? 'auto', host.cgroups, candidates);
  if (ociRuntime instanceof Error) throw new AgentSetupError(ociRuntime.message);
  progress(`running containers with ${ociRuntime.name} ${ociRuntime.version} (${ociRuntime.binary})`);
  // The handlers a RuntimeClass may name: runc and crun where usable (the default's too).
  const handlers = runtimeHandlers(host.cgroups, candidates);
  progress(`runtime handlers: ${handlers.usable.map((r) => r.name).join(', ') || 'none'}${handlers.refused.map((r) => `; not ${r.name}: ${r.reason}`).join('')}`);
  return { host, ociRuntime, handlers };
}

export async function assembleAgent(s: AgentSettings, hooks: AssembleHooks): Promise<{ agent: Agent; node: NodeConfig; host: HostProbe; facts: NodeFacts }> {
  const progress = s.progress ?? (() => undefined);
  const rootProblem = cgroupRootProblem(s.cgroupRoot);
  if (rootProblem) throw new AgentSetupError(`invalid value "${s.cgroupRoot}" for --cgroup-root: ${rootProblem}`);
  let thresholds: Threshold[];
  try {
    thresholds = parseEvictionThresholds(s.evictionHard);
  } catch (e) {
    throw new AgentSetupError(`invalid value "${s.evictionHard}" for --eviction-hard: ${(e as Error).message}`);
  }
  const { host, ociRuntime, handlers } = await probeContainerHost(s.containerRuntime, progress);
  const node = agentNodeConfig(s, host);
  progress(
    host.swapControllerAvailable
      ? `containers may not swap: ${node.cgroupVersion === 1 ? 'memory.memsw.limit_in_bytes is set to their memory limit' : 'memory.swap.max is set to 0'}`
      : `this kernel accounts no swap per cgroup (no ${node.cgroupVersion === 1 ? 'memory.memsw.limit_in_bytes' : 'memory.swap.max in the agent\'s own cgroup'}): containers get no swap setting`,
  );
  const { dataDir, stateDir, runDir } = agentDirs(s.dataDir);
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(runDir, { recursive: true });
  const images = new ImageStore(join(resolve(s.dataDir), 'images'));
  progress('making sure the busybox image is in the local image store…');
  await ensureBusyboxImage(images);
  const evictionMemory = thresholds.find((t) => t.signal === 'memory.available');
  const evictionNodefs = thresholds.find((t) => t.signal === 'nodefs.available');
  // The kubelet's root directory's filesystem: here, where the agent keeps its data.
  const ephemeralStorageBytes = filesystemCapacityBytes(dataDir);
  const facts: NodeFacts = {
    name: s.nodeName ?? defaultNodeName(),
    memoryBytes: node.memoryBytes,
    milliCPU: node.milliCPU,
    maxPods: s.maxPods ?? 110,
    evictionHardMemoryBytes: evictionMemory ? thresholdQuantity(evictionMemory, node.memoryBytes) : 0n,
    ephemeralStorageBytes,
    evictionHardNodefsBytes: evictionNodefs ? thresholdQuantity(evictionNodefs, ephemeralStorageBytes) : 0n,
    hugePages: hostHugePages(),
    internalIP: s.nodeIP ?? defaultNodeIP(),
    hostname: hostname(),
    kernelVersion: release(),
    osImage: hostOSImage(),
    architecture: hostArch(),
    machineID: hostMachineID(),
    bootID: hostBootID(),
    containerRuntimeVersion: `${ociRuntime.name}://${ociRuntime.version}`,
    runtimeHandlers: [...handlers.usable.map((r) => r.name), ''],
    capabilities: nodeCapabilities(node, host),
    ulimits: s.gates.ContainerUlimits,
  };
  const metrics = new AgentMetrics();
  // One manager, chosen here from the host, for the node cgroups, the pod worker and OOM reports.
  const cgroups = cgroupManagerFor(host.cgroups);
  const nodeCgroups = new NodeCgroups(s.cgroupRoot === '/' ? '' : s.cgroupRoot.replace(/\/+$/, ''), node, s.gates, {
    cgroups,
    hierarchies: cgroups.hierarchies(),
    createdFile: join(stateDir, 'node-cgroups-created.json'),
  });
  // The one client (src/client) with the node's identity: its pod informer, its event recorder,
  // and the ConfigMaps and Secrets of the pods' env and volumes.
  const tls = s.tls;
  if (!tls) throw new AgentSetupError('the agent endpoint needs a serving certificate the cluster CA signed (--tls-cert-file and --tls-private-key-file; bulkhead server writes <data-dir>/node.crt and node.key)');
  const { client, pods, events, objects } = connectAgent({ server: s.server, ca: s.ca, ...(s.token ? { token: s.token } : {}), ...(s.cert && s.key ? { cert: s.cert, key: s.key } : {}) }, facts.name, s.log ?? agentLog);
  // The agent exists only after its runtime; a start reaches it through this late binding.
  let started: Agent | undefined;
  const containerStarted = () => started?.containersChanged();
  const containerRemoving = (containerID: string) => started?.containerRemoving(containerID);
  const probeEvents: EventSink = (pod, type, reason, message) => started?.recordEvent(pod, type, reason, message);
  const probeChanged = (uid: string) => started?.podChanged(uid);
  const runtime = hooks.runtime({ node, host, gates: s.gates, images, metrics, cgroupRoot: s.cgroupRoot, stateDir, runDir, hostIPs: [facts.internalIP], allocatable: allocatableOf(facts), ociRuntime, handlerRuntimes: handlers.usable, cgroups, objects, containerStarted, containerRemoving, probeEvents, probeChanged });
  const agent: Agent = new Agent({
    client,
    pods,
    events,
    endpointSecurity: { tls: { ...tls, clientCA: s.ca }, auth: delegatingAuthenticator(client, facts.name) },
    facts,
    node,
    gates: s.gates,
    runtime,
    metrics,
    nodeCgroups,
    cgroups,
    ...(hooks.eviction ? { eviction: (a: Agent) => hooks.eviction!({ node, host, thresholds, nodeCgroups, gates: s.gates, runtime, agent: a }) } : {}),
    endpoint: { host: s.endpoint.host ?? facts.internalIP, port: s.endpoint.port },
    ...(s.resyncMs !== undefined ? { resyncMs: s.resyncMs } : {}),
    ...(s.heartbeatMs !== undefined ? { heartbeatMs: s.heartbeatMs } : {}),
    ...(s.statsIntervalMs !== undefined ? { statsIntervalMs: s.statsIntervalMs } : {}),
    ...(s.log ? { log: s.log } : {}),
  });
  started = agent;
  return { agent, node, host, facts };
}
