// The OCI runtime spec (config.json) for one container, built from a container's node plan
// (src/plan/node.ts), and the host adaptation that happens before it. Pure: no I/O.
//
// Rules this module enforces (measured in shared/reference/linux-host.md):
// - rlimits: an rlimit the spec omits is inherited from the runtime process, so every spec
//   carries the COMPLETE set of all 16 Linux rlimits (`allRlimitTypes`). Types the plan does
//   not set get `defaultRlimits` (documented below).
// - uint64 values (rlimits) are bigints and `serializeSpec` writes them as exact digits:
//   RLIM_INFINITY is written 18446744073709551615 (JSON.stringify(2**64-1) gives
//   18446744073709552000, which runc and crun reject).
// - `linux.resources.unified` is never sent on cgroup v1 (runc: "cannot use unified on cgroup v1").
// - oom_score_adj is clamped at the host's minimum (0 without CAP_SYS_RESOURCE); see adaptToHost.

import type { CgroupFiles, CgroupVersion } from '../../policy/cgroupvalues.js';
import { MinQuotaPeriod, MinShares } from '../../policy/cgroupvalues.js';
import { formatRlimitValue, RLIM_INFINITY } from '../../policy/rlimits.js';

export {
  adaptToHost,
  allRlimitTypes,
  defaultRlimits,
  designRlimitTypes,
  isAnyRlimitType,
  parseRlimitValue,
  type AdaptedContainer,
  type AnyRlimitType,
  type HostAdjustment,
  type HostCapabilities,
  type OciRlimit,
} from '../../policy/hostadapt.js';
import { allRlimitTypes, isAnyRlimitType, type OciRlimit } from '../../policy/hostadapt.js';

// ---------------------------------------------------------------------------------------------
// linux.resources from the plan's cgroup files

export interface OciLinuxResources {
  /** swap: runc's memory+swap limit (v1 memory.memsw.limit_in_bytes). */
  memory?: { limit?: bigint; swap?: bigint };
  cpu?: { shares?: bigint; quota?: bigint; period?: bigint };
  pids?: { limit: bigint };
  unified?: Record<string, string>;
  devices?: { allow: boolean; access?: string; type?: string; major?: number; minor?: number }[];
}

function decimal(file: string, v: string): bigint {
  if (!/^-?[0-9]+$/.test(v)) throw new RangeError(`cgroup file ${file}: ${JSON.stringify(v)} is not an integer`);
  return BigInt(v);
}

/**
 * The exact inverse of policy/cgroupvalues.containerCgroupFiles: OCI linux.resources that make
 * the runtime write exactly these files. v1 uses the typed fields (cpu.shares, cpu.quota,
 * cpu.period, memory.limit, memory.swap); v2 passes the files through `unified`, because runc's
 * own shares→weight conversion differs between versions and the plan already holds the weight.
 * Unknown files throw rather than being dropped silently.
 */
export function resourcesFromCgroupFiles(files: CgroupFiles, version: CgroupVersion): OciLinuxResources {
  const r: OciLinuxResources = {};
  if (version === 2) {
    const known = new Set(['cpu.weight', 'cpu.max', 'memory.max', 'memory.swap.max', 'memory.oom.group']);
    for (const [k, v] of Object.entries(files)) {
      if (!known.has(k)) throw new RangeError(`cgroup v2 file ${k} is not supported by the runtime backend`);
      (r.unified ??= {})[k] = v;
    }
    return r;
  }
  for (const [k, v] of Object.entries(files)) {
    switch (k) {
      case 'cpu.shares': (r.cpu ??= {}).shares = decimal(k, v); break;
      case 'cpu.cfs_quota_us': (r.cpu ??= {}).quota = decimal(k, v); break;
      case 'cpu.cfs_period_us': (r.cpu ??= {}).period = decimal(k, v); break;
      case 'memory.limit_in_bytes': (r.memory ??= {}).limit = decimal(k, v); break;
      case 'memory.memsw.limit_in_bytes': (r.memory ??= {}).swap = decimal(k, v); break;
      default: throw new RangeError(`cgroup v1 file ${k} is not supported by the runtime backend`);
    }
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// The spec

export interface OciMount {
  destination: string;
  type: string;
  source: string;
  options?: string[];
}

export interface OciSpec {
  ociVersion: string;
  process: {
    terminal: boolean;
    user: { uid: number; gid: number };
    args: string[];
    env: string[];
    cwd: string;
    capabilities: Record<'bounding' | 'effective' | 'permitted' | 'ambient', string[]>;
    rlimits: OciRlimit[];
    noNewPrivileges: boolean;
    oomScoreAdj: number;
  };
  root: { path: string; readonly: boolean };
  hostname: string;
  mounts: OciMount[];
  linux: {
    cgroupsPath: string;
    resources: OciLinuxResources;
    namespaces: { type: string; path?: string }[];
    maskedPaths: string[];
    readonlyPaths: string[];
  };
  annotations?: Record<string, string>;
}

export interface OciSpecInput {
  args: string[];
  env?: string[];
  cwd?: string;
  hostname?: string;
  /** Bundle-relative or absolute rootfs path. Default "rootfs". */
  rootfs?: string;
  /** Default true. */
  readonlyRootfs?: boolean;
  /** runc cgroupfs driver: an absolute path below each hierarchy's root, e.g. /bulkhead/pod<uid>/<ctr>. */
  cgroupsPath: string;
  cgroupVersion: CgroupVersion;
  oomScoreAdj: number;
  /** Must be complete (every allRlimitTypes entry once): use adaptToHost(...).rlimits. */
  rlimits: readonly OciRlimit[];
  /** From resourcesFromCgroupFiles(plan.cgroup, version). */
  resources: OciLinuxResources;
  pidsLimit?: bigint;
  annotations?: Record<string, string>;
}

const defaultEnv = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'];
/** `runc spec`'s capability set. */
const defaultCaps = ['CAP_AUDIT_WRITE', 'CAP_KILL', 'CAP_NET_BIND_SERVICE'];

/** Mounts: `runc spec`'s set (proc, /dev tmpfs, devpts, shm, mqueue, sysfs ro, cgroup ro). */
function defaultMounts(): OciMount[] {
  return [
    { destination: '/proc', type: 'proc', source: 'proc' },
    { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
    { destination: '/dev/pts', type: 'devpts', source: 'devpts', options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5'] },
    { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
    { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
    { destination: '/sys/fs/cgroup', type: 'cgroup', source: 'cgroup', options: ['nosuid', 'noexec', 'nodev', 'relatime', 'ro'] },
  ];
}

function checkSpecInput(input: OciSpecInput): void {
  if (input.args.length === 0) throw new RangeError('process.args must not be empty');
  if (!input.cgroupsPath.startsWith('/')) throw new RangeError(`cgroupsPath ${JSON.stringify(input.cgroupsPath)} must be absolute`);
  if (!Number.isInteger(input.oomScoreAdj) || input.oomScoreAdj < -1000 || input.oomScoreAdj > 1000) {
    throw new RangeError(`oomScoreAdj ${input.oomScoreAdj} is outside [-1000, 1000]`);
  }
  const seen = new Set<string>();
  for (const r of input.rlimits) {
    if (!isAnyRlimitType(r.type)) throw new RangeError(`unknown rlimit type ${r.type}`);
    if (seen.has(r.type)) throw new RangeError(`rlimit ${r.type} appears twice`);
    seen.add(r.type);
    for (const v of [r.soft, r.hard]) if (typeof v !== 'bigint' || v < 0n || v > RLIM_INFINITY) throw new RangeError(`rlimit ${r.type} value ${String(v)} is not a uint64`);
    if (r.soft > r.hard) throw new RangeError(`rlimit ${r.type}: soft ${formatRlimitValue(r.soft)} is above hard ${formatRlimitValue(r.hard)}`);
  }
  const missing = allRlimitTypes.filter((t) => !seen.has(t));
  if (missing.length) throw new RangeError(`rlimits are incomplete (the runtime would inherit its own): missing ${missing.join(', ')}`);
  const res = input.resources;
  if (input.cgroupVersion === 1 && res.unified && Object.keys(res.unified).length) {
    throw new RangeError('linux.resources.unified cannot be used on cgroup v1');
  }
  if (res.cpu?.shares !== undefined && res.cpu.shares !== 0n && res.cpu.shares < MinShares) throw new RangeError(`cpu shares ${res.cpu.shares} is below ${MinShares}`);
  if (res.cpu?.quota !== undefined && res.cpu.quota > 0n && res.cpu.quota < MinQuotaPeriod) throw new RangeError(`cpu quota ${res.cpu.quota} is below ${MinQuotaPeriod}us`);
}

/** The OCI runtime spec for one container. Throws on values the runtime would refuse. */
export function ociSpec(input: OciSpecInput): OciSpec {
  checkSpecInput(input);
  const resources: OciLinuxResources = {
    // runc spec's default: deny every device node access; runc adds its default allow list.
    devices: [{ allow: false, access: 'rwm' }],
  };
  if (input.resources.memory) resources.memory = { ...input.resources.memory };
  if (input.resources.cpu) resources.cpu = { ...input.resources.cpu };
  if (input.resources.unified && Object.keys(input.resources.unified).length) resources.unified = { ...input.resources.unified };
  const pids = input.pidsLimit ?? input.resources.pids?.limit;
  if (pids !== undefined) resources.pids = { limit: pids };
  const caps = [...defaultCaps];
  const byType = new Map(input.rlimits.map((r) => [r.type, r] as const));
  const spec: OciSpec = {
    ociVersion: '1.0.2-dev',
    process: {
      terminal: false,
      user: { uid: 0, gid: 0 },
      args: [...input.args],
      env: input.env ? [...input.env] : [...defaultEnv],
      cwd: input.cwd ?? '/',
      capabilities: { bounding: caps, effective: [...caps], permitted: [...caps], ambient: [...caps] },
      rlimits: allRlimitTypes.map((t) => ({ type: t, hard: byType.get(t)!.hard, soft: byType.get(t)!.soft })),
      noNewPrivileges: true,
      oomScoreAdj: input.oomScoreAdj,
    },
    root: { path: input.rootfs ?? 'rootfs', readonly: input.readonlyRootfs ?? true },
    hostname: input.hostname ?? 'bulkhead',
    mounts: defaultMounts(),
    linux: {
      cgroupsPath: input.cgroupsPath,
      resources,
      namespaces: [{ type: 'pid' }, { type: 'network' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }],
      maskedPaths: ['/proc/acpi', '/proc/asound', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list', '/proc/timer_stats', '/proc/sched_debug', '/sys/firmware', '/proc/scsi'],
      readonlyPaths: ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'],
    },
  };
  if (input.annotations) spec.annotations = { ...input.annotations };
  return spec;
}

// ---------------------------------------------------------------------------------------------
// Serialisation

function ser(v: unknown, indent: string, step: string, path: string): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'bigint':
      return v.toString(10);
    case 'number':
      if (!Number.isFinite(v)) throw new RangeError(`${path}: ${v} is not a JSON number`);
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) throw new RangeError(`${path}: ${v} is not exact as a double; pass a bigint`);
      return JSON.stringify(v);
    case 'string':
    case 'boolean':
      return JSON.stringify(v);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  const inner = indent + step;
  const nl = step ? '\n' : '';
  const colon = step ? ': ' : ':';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const items = v.map((x, i) => ser(x, inner, step, `${path}[${i}]`) ?? 'null');
    return `[${nl}${items.map((s) => inner + s).join(`,${nl}`)}${nl}${indent}]`;
  }
  const entries: string[] = [];
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const s = ser(x, inner, step, `${path}.${k}`);
    if (s !== undefined) entries.push(`${inner}${JSON.stringify(k)}${colon}${s}`);
  }
  if (entries.length === 0) return '{}';
  return `{${nl}${entries.join(`,${nl}`)}${nl}${indent}}`;
}

/**
 * JSON text of a spec with every bigint written as its exact decimal digits (so RLIM_INFINITY is
 * 18446744073709551615). Integral numbers that a double cannot hold exactly are refused.
 */
export function serializeSpec(spec: unknown, opts: { indent?: number } = {}): string {
  return ser(spec, '', ' '.repeat(opts.indent ?? 2), '$') ?? 'null';
}
