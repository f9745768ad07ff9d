// The agent's one view of the host's cgroups, as the kubelet's CgroupManager
// (pkg/kubelet/cm/cgroup_manager_linux.go beside cgroup_v1_manager_linux.go and
// cgroup_v2_manager_linux.go): everything above it (node cgroups, pod cgroups, the pod worker,
// the eviction manager, OOM reporting) speaks to this interface and never asks "v1 or v2?".
// The implementation is chosen once, at start, from the host probe (select.ts).
//
// Paths are cgroup paths as the plan writes them (`/bulkhead/kubepods/burstable/pod<uid>`),
// the same below every hierarchy's mount point; files are named as the plan names them for the
// manager's version (src/policy/cgroupvalues.ts: `memory.limit_in_bytes` on v1, `memory.max`
// on v2). Only directories the agent created are ever removed.

import type { CgroupFiles, CgroupVersion } from '../../policy/cgroupvalues.js';

/** Memory figures of one cgroup, as cAdvisor derives them for the kubelet. */
export interface CgroupMemory {
  /** v1 memory.usage_in_bytes; v2 memory.current. */
  usageBytes: bigint;
  /** usage − inactive file (v1 total_inactive_file, v2 inactive_file), floored at 0. */
  workingSetBytes: bigint;
  inactiveFileBytes: bigint;
  /** The memory limit when finite (v1 memory.limit_in_bytes ≤ 2^62, v2 memory.max ≠ "max"). */
  limitBytes?: bigint;
  /** Anonymous and swap cache memory, as cAdvisor's RSS: v1 total_rss, v2 anon (memory.stat). */
  rssBytes?: bigint;
  /** v1 total_pgfault / total_pgmajfault, v2 pgfault / pgmajfault (memory.stat). */
  pageFaults?: bigint;
  majorPageFaults?: bigint;
}

/** CPU time of one cgroup and its descendants, as cAdvisor reads it for the kubelet. */
export interface CgroupCPU {
  /** v1 cpuacct.usage (ns); v2 cpu.stat usage_usec × 1000. */
  usageNanoseconds: bigint;
}

/** The kernel's OOM counters of one cgroup (its own, not its descendants'). */
export interface CgroupOOMCounters {
  /** Tasks the OOM killer killed in this cgroup (v1 memory.oom_control oom_kill, v2 memory.events.local oom_kill). */
  oomKill: number;
  /** v2 only: whole-group kills under memory.oom.group (memory.events.local oom_group_kill); 0 on v1. */
  oomGroupKill: number;
}

export interface CgroupManager {
  readonly version: CgroupVersion;

  /**
   * Every mount point a runtime may make a container's cgroup in (v1: each hierarchy's, and on
   * hybrid hosts the cgroup2 tree; v2: the one tree). Parents made below the agent's root are
   * noted for removal in each of them.
   */
  hierarchies(): string[];

  /**
   * Makes `path` (and missing parents) and writes `files`, in the order given. v2 enables the
   * controllers the files need in every parent's cgroup.subtree_control first. A file the host
   * cannot take (no such controller) is an error naming the file and value.
   */
  ensure(path: string, files?: CgroupFiles): void;

  /** Whether `path` exists (in the memory hierarchy on v1). */
  exists(path: string): boolean;

  /** The trimmed content of `file` of `path`. */
  read(path: string, file: string): string;

  /** The absolute directory holding `file` of `path` (v1: in the file's controller's hierarchy). */
  fileDir(path: string, file: string): string;

  /** The absolute directory of `path`'s memory cgroup (for OOM reports and memory readings). */
  memoryDir(path: string): string;

  /** rmdir `path` and every cgroup below it, deepest first, in every hierarchy; ENOENT is fine. */
  removeTree(path: string): void;

  /** The pids in `path` (cgroup.procs; v1: of the memory hierarchy). */
  pids(path: string): number[];

  /** Memory figures of `path`; undefined when it does not exist. `withLimit` also reads the limit. */
  memory(path: string, withLimit?: boolean): CgroupMemory | undefined;

  /** CPU time of `path` (the root cgroup "" or "/" for the whole host); undefined when it does not exist. */
  cpu(path: string): CgroupCPU | undefined;

  /** The kernel's OOM counters of `path`; zeros when it does not exist. */
  oomCounters(path: string): CgroupOOMCounters;

  /**
   * A file the kernel modifies (inotify IN_MODIFY) when `path` gets an OOM kill: v2
   * memory.events; undefined on v1 (OOM kills are seen on /dev/kmsg there).
   */
  oomEventsFile(path: string): string | undefined;

  /**
   * A file the kernel modifies when `path` becomes empty or populated (v2 cgroup.events, on a
   * hybrid host the cgroup2 tree's); undefined when there is none (then poll).
   */
  populatedEventsFile(path: string): string | undefined;

  /** Whether `pid`'s cgroup (/proc/<pid>/cgroup, the hierarchy of this manager's memory controller) is `path`. */
  pidIn(pid: number, path: string): boolean;

  /**
   * Whether the kernel accounts swap per cgroup here: the kubelet's swapControllerAvailable
   * (pkg/kubelet/kuberuntime/kuberuntime_container_linux.go @ v1.32, after containerd#7838).
   * Without it no container gets a swap setting (policy/swap.ts). Read at start.
   */
  swapControllerAvailable(): boolean;
}
