// `bulkhead plan`: flags → node and policy settings, manifests → objects, engine → output.

import { readFileSync, writeSync } from 'node:fs';
import { Command, Option } from 'commander';
import * as yaml from 'js-yaml';
import { loadYAML } from '../api/boundedyaml.js';
import { parseGoBool } from '../api/featuregates.js';
import { Quantity } from '../api/quantity.js';
import { defaultEvictionHard, EvictionConfigError, parseEvictionThresholds } from '../policy/eviction.js';
import { validateSingleProcessOOMKill } from '../policy/oomkillmode.js';
import { ulimitRlimitTypes } from '../policy/rlimits.js';
import { Planner, type PlanResult } from '../plan/engine.js';
import type { NodeConfig } from '../plan/node.js';
import { planPrinter, renderPlan } from './planoutput.js';
import { hostCgroupVersion, hostMemoryBytes, hostMilliCPU, hostNrOpen } from '../agent/host.js';
import { ManifestError, ManifestStream } from './manifests.js';
import { UsageError } from './errors.js';
import { applyPlanHeapSettings } from './nodeflags.js';
import { addDefaultTolerationSecondsFlags, defaultTolerationSecondsFlags, featureGatesFlag, type DefaultTolerationSecondsFlags } from './flags.js';
import { admissionControlConfigFileHelp, podSecurityFromFlags, resourceQuotaFromFlags, type PodSecurityFlags } from './admissionconfig.js';

interface PlanFlags extends DefaultTolerationSecondsFlags, PodSecurityFlags {
  nodeMemory?: string;
  nodeCpu?: string;
  cgroupVersion?: string;
  cgroupDriver: string;
  singleProcessOomKill?: string | boolean;
  oomGroupEmulation?: boolean;
  featureGates?: string;
  usage?: string;
  evictionHard: string;
  nrOpen?: string;
  output: string;
  recursive?: boolean;
  thisHost?: boolean;
  filename?: string[];
}

/** kubectl's -f is a string slice: repeatable, and each value may hold comma-separated paths. */
function collectFilenames(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').filter((p) => p !== '')];
}

function parsePositiveQuantity(flag: string, v: string): Quantity {
  let q: Quantity;
  try {
    q = Quantity.parse(v);
  } catch (e) {
    throw new UsageError(`invalid value "${v}" for ${flag}: ${(e as Error).message}`);
  }
  if (q.sign() <= 0) throw new UsageError(`invalid value "${v}" for ${flag}: must be greater than 0`);
  return q;
}

function parseUsageFile(path: string): Map<string, bigint> {
  let doc: unknown;
  try {
    doc = loadYAML(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--usage ${path}: ${e instanceof yaml.YAMLException ? e.reason : (e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (doc === null || doc === undefined) return new Map();
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`--usage ${path}: expected a map of namespace/name: workingSetBytes`);
  const out = new Map<string, bigint>();
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (!k.includes('/')) throw new UsageError(`--usage ${path}: key "${k}" must be namespace/name`);
    let q: Quantity;
    try {
      q = Quantity.fromJSON(v);
    } catch (e) {
      throw new UsageError(`--usage ${path}: ${k}: ${(e as Error).message}`);
    }
    if (q.sign() < 0) throw new UsageError(`--usage ${path}: ${k}: working set must not be negative`);
    out.set(k, q.value());
  }
  return out;
}

function nodeFromFlags(f: PlanFlags, host?: HostFacts): NodeConfig {
  const memoryBytes = f.nodeMemory !== undefined ? parsePositiveQuantity('--node-memory', f.nodeMemory).value() : hostMemoryBytes();
  const milliCPU = f.nodeCpu !== undefined ? parsePositiveQuantity('--node-cpu', f.nodeCpu).milliValue() : hostMilliCPU();
  let cgroupVersion = host?.memoryVersion ?? hostCgroupVersion();
  if (f.cgroupVersion !== undefined) {
    if (f.cgroupVersion !== '1' && f.cgroupVersion !== '2') throw new UsageError(`invalid value "${f.cgroupVersion}" for --cgroup-version: must be 1 or 2`);
    cgroupVersion = f.cgroupVersion === '1' ? 1 : 2;
  }
  if (f.cgroupDriver !== 'cgroupfs' && f.cgroupDriver !== 'systemd') throw new UsageError(`invalid value "${f.cgroupDriver}" for --cgroup-driver: must be cgroupfs or systemd`);
  let singleProcessOOMKill: boolean | undefined;
  if (f.singleProcessOomKill !== undefined) {
    const v = typeof f.singleProcessOomKill === 'boolean' ? f.singleProcessOomKill : parseGoBool(f.singleProcessOomKill);
    if (v === undefined) throw new UsageError(`invalid value "${f.singleProcessOomKill}" for --single-process-oom-kill: must be true or false`);
    singleProcessOOMKill = v;
    const err = validateSingleProcessOOMKill(v, cgroupVersion);
    if (err) throw new UsageError(err);
  }
  let nrOpen = hostNrOpen();
  if (f.nrOpen !== undefined) {
    if (!/^[1-9][0-9]*$/.test(f.nrOpen)) throw new UsageError(`invalid value "${f.nrOpen}" for --nr-open: must be a positive integer`);
    nrOpen = BigInt(f.nrOpen);
  }
  const node: NodeConfig = { memoryBytes, milliCPU, cgroupVersion, cgroupDriver: f.cgroupDriver, singleProcessOOMKill, oomGroupEmulation: !!f.oomGroupEmulation, nrOpen };
  if (host) {
    // The node agent's own view of this machine (src/agent/setup.ts agentNodeConfig does the same).
    const designCeilings: NonNullable<NodeConfig['hardRlimitCeilings']> = {};
    for (const t of Object.values(ulimitRlimitTypes)) if (host.hardRlimitCeilings[t] !== undefined) designCeilings[t] = host.hardRlimitCeilings[t];
    node.hardRlimitCeilings = designCeilings;
    node.host = { minOomScoreAdj: host.minOomScoreAdj, hardRlimitCeilings: host.hardRlimitCeilings };
    if (host.swapControllerAvailable !== undefined) node.swapControllerAvailable = host.swapControllerAvailable;
  }
  return node;
}

/** Exit code: 0 every pod admitted, 1 any refused. */
export function planExitCode(r: PlanResult): number {
  return r.pods.some((p) => !p.admitted) || r.rejectedObjects.length > 0 ? 1 : 0;
}

export { renderPlan };

/** Output gathered into writes of about 64 KiB: one write per pod would cost a system call each. */
class BufferedOut {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly write: (s: string) => void) {}
  add(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= 1 << 16) this.flush();
  }
  flush(): void {
    if (this.parts.length) this.write(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}

/** What `--this-host` reads from the machine (src/agent/runtime/hostprobe.ts probeHost). */
export interface HostFacts {
  memoryVersion: 1 | 2;
  minOomScoreAdj: number;
  hardRlimitCeilings: Partial<Record<string, bigint>>;
  /** Whether this kernel accounts swap per cgroup; absent: assumed, as for any node. */
  swapControllerAvailable?: boolean;
}

/** `keepListBytes`: how much of a JSON List the first pass keeps parsed for the second (tests set 0 to read it twice). */
export function runPlan(paths: string[], f: PlanFlags, io: { stdout: (s: string) => void; readStdin: () => string; keepListBytes?: number }, host?: HostFacts): number {
  if (!['table', 'json', 'yaml'].includes(f.output)) throw new UsageError(`invalid value "${f.output}" for --output: must be table, json or yaml`);
  if (paths.length === 0) throw new UsageError('no manifests given: pass files, directories or - for standard input, as arguments or with -f');
  const gates = featureGatesFlag(f.featureGates);
  const podSecurity = podSecurityFromFlags(f);
  const resourceQuota = resourceQuotaFromFlags(f, (m) => process.stderr.write(`bulkhead: warning: ${m}\n`));
  let evictionHard;
  try {
    evictionHard = parseEvictionThresholds(f.evictionHard);
  } catch (e) {
    if (e instanceof EvictionConfigError) throw new UsageError(`invalid value "${f.evictionHard}" for --eviction-hard: ${e.message}`);
    throw e;
  }
  const node = nodeFromFlags(f, host);
  const usage = f.usage !== undefined ? parseUsageFile(f.usage) : undefined;
  // Two passes over the input: the policy objects first, wherever they stand (they govern every
  // pod of their namespace), then the pods, each planned and printed as it is read.
  const manifests = new ManifestStream(paths, !!f.recursive, io.readStdin, io.keepListBytes);
  const defaultTolerationSeconds = defaultTolerationSecondsFlags(f);
  const planner = new Planner({ node, gates, podSecurity: podSecurity.defaults, podSecurityExemptions: podSecurity.exemptions, limitedResources: resourceQuota.limitedResources, usage, evictionHard, defaultTolerationSeconds, now: new Date(), ownsInput: true });
  const printer = planPrinter(f.output);
  const out = new BufferedOut(io.stdout);
  let refused = false;
  try {
    manifests.scan((o) => planner.policy(o));
    manifests.each((o) =>
      planner.add(o, (p) => {
        if (!p.admitted) refused = true;
        out.add(printer.pod(p));
      }),
    );
  } catch (e) {
    out.flush();
    if (e instanceof ManifestError) throw new UsageError(e.message);
    throw e;
  }
  const tail = planner.finish();
  out.add(printer.tail(tail));
  out.flush();
  return refused || tail.rejectedObjects.length > 0 ? 1 : 0;
}

export function planCommand(io: { stdout: (s: string) => void; readStdin: () => string; exit: (code: number) => void }): Command {
  return addDefaultTolerationSecondsFlags(new Command('plan'))
    .description('Explain offline what Bulkhead would do with these manifests on a node of this size: validation, LimitRange, Pod Security and quota admission, QoS, cgroups, oom_score_adj, OOM kill mode, rlimits and eviction order.')
    .argument('[paths...]', 'manifest files or directories (.yaml, .yml, .json); - reads standard input')
    .option('-f, --filename <paths>', 'as kubectl: a manifest file or directory, or - for standard input; repeatable and comma-separated, read after the positional paths', collectFilenames)
    .option('--node-memory <quantity>', 'node memory capacity, e.g. 16Gi (default: this machine)')
    .option('--node-cpu <quantity>', 'node CPU capacity, e.g. 4 or 3500m (default: this machine)')
    .option('--cgroup-version <1|2>', 'cgroup version of the node (default: this machine; a hybrid host counts as 1)')
    .option('--cgroup-driver <driver>', 'cgroupfs or systemd', 'cgroupfs')
    .option('--single-process-oom-kill [bool]', "the node agent's singleProcessOOMKill default (true or false); unset when omitted")
    .option('--oom-group-emulation', 'the agent emulates oomKillMode: Group on cgroup v1')
    .option('--feature-gates <gates>', 'feature gates, e.g. ContainerUlimits=false,ContainerOOMKillMode=true')
    .option('--pod-security <level[:version]>', 'Pod Security enforce level for namespaces without labels, e.g. baseline or restricted:v1.30 (default: privileged:latest); not with --admission-control-config-file')
    .option('--admission-control-config-file <file>', `${admissionControlConfigFileHelp}. A plan has no requesting user: exemptions.usernames never apply (namespaces and runtimeClasses do)`)
    .option('--usage <file>', 'YAML map "namespace/name: workingSetBytes"; turns on the memory-pressure eviction ranking')
    .option('--eviction-hard <thresholds>', 'hard eviction thresholds', defaultEvictionHard)
    .option('--nr-open <n>', 'the node\'s /proc/sys/fs/nr_open, to which nofile is clamped (default: this machine, else 1048576)')
    .option('--this-host', 'plan for this machine as the node agent sees it: its cgroup version, whether it accounts swap per cgroup, the lowest oom_score_adj and the hard rlimits it can set, and what it applies instead')
    .option('-R, --recursive', 'read directories recursively')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'yaml']).default('table'))
    .addHelpText('after', `
Exit status: 0 when every pod is admitted, 1 when any object is refused, 2 for unreadable input or bad flags.

Examples:
  # Plan the bundled examples on a 16 GiB, 4-CPU cgroup v2 node
  bulkhead plan examples/ --node-memory 16Gi --node-cpu 4 --cgroup-version 2

  # What the node agent on this machine applies, including values the host cannot grant
  bulkhead plan examples/qos-trio.yaml --this-host --node-memory 4Gi --node-cpu 2

  # Which pod of this release does the namespace quota refuse, and why?
  bulkhead plan examples/quota-scopes.yaml -o json | jq '.pods[] | select(.admitted == false) | .rejections'

  # Eviction order under memory pressure from observed working sets
  bulkhead plan examples/qos-trio.yaml --usage examples/qos-trio-usage.yaml --node-memory 4Gi

  # Read a manifest from standard input
  cat pod.yaml | bulkhead plan - --pod-security baseline

  # kubectl's spelling: -f, repeatable
  bulkhead plan -f examples/qos-trio.yaml -f examples/quota-scopes.yaml`)
    .action(async (paths: string[], flags: PlanFlags) => {
      let host: HostFacts | undefined;
      if (flags.thisHost) {
        const { probeHost } = await import('../agent/runtime/hostprobe.js');
        const p = await probeHost();
        host = { memoryVersion: p.cgroups.memoryVersion, minOomScoreAdj: p.minOomScoreAdj, hardRlimitCeilings: p.hardRlimitCeilings, swapControllerAvailable: p.swapControllerAvailable };
      }
      // With --usage the plan keeps every admitted pod, for the eviction ranking: its heap grows
      // with the pods, and a small growing factor only adds full GCs of an ever larger heap.
      if (flags.usage === undefined) applyPlanHeapSettings();
      blockingStdout();
      io.exit(runPlan([...paths, ...(flags.filename ?? [])], flags, { ...io, stdout: syncStdout(io.stdout) }, host));
    });
}

/**
 * Node writes standard output to a pipe asynchronously: a plan, made in one synchronous run, would
 * queue all its output in memory (29 MB for 10,000 pods) and hand it to the reader only after the
 * last pod. Blocking writes hand each buffer over as it is made (Node makes TTYs blocking so).
 */
function blockingStdout(): void {
  const handle = (process.stdout as unknown as { _handle?: { setBlocking?: (on: boolean) => number } })._handle;
  handle?.setBlocking?.(true);
}

/**
 * Standard output, once blocking, written with writeSync from one buffer reused for every write:
 * process.stdout.write allocates a Buffer for each string it is given (29 MB for a 10,000-pod
 * plan, a page fault every 4 KiB of it). A reader that is gone (EPIPE) ends the process quietly,
 * as the stream's handler does (main.ts); output standard output will not take at once (EAGAIN:
 * it was not made blocking) goes to `fallback`, as does everything after it.
 */
function syncStdout(fallback: (s: string) => void): (s: string) => void {
  let buf = Buffer.allocUnsafe(0);
  let direct = true;
  return (s) => {
    if (!direct) return fallback(s);
    // UTF-8 takes at most three bytes for each UTF-16 unit.
    if (buf.length < s.length * 3) buf = Buffer.allocUnsafe(Math.max(s.length * 3, 1 << 16));
    const n = buf.write(s, 0, 'utf8');
    let off = 0;
    try {
      while (off < n) off += writeSync(1, buf, off, n - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (code !== 'EAGAIN') throw e;
      direct = false;
      fallback(buf.subarray(off, n).toString('utf8'));
    }
  };
}
