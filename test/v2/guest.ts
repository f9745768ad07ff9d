// Helpers of the cgroup v2 end-to-end suite (test/v2/*.test.ts), which runs only inside
// scripts/vm.sh's pure-v2 guest: why it cannot run elsewhere, and what the kernel applied to a
// pod's containers read back from /sys/fs/cgroup and /proc. Modelled on the upstream node e2e
// helpers that read a container's cgroup files and /proc entries (test/e2e_node's
// cgroup/oom checks), written here against Bulkhead's layout (src/policy/cgrouplayout.ts).

import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, readdirSync, watch, writeSync } from 'node:fs';
import { join } from 'node:path';
import { podCgroupPath } from '../../src/policy/cgrouplayout.js';
import type { QOSClass } from '../../src/api/types.js';
import type { ContainerStatusJSON, PodJSON, UpCluster } from '../e2e/upcluster.js';

/** The cgroup2 mount in the guest. */
export const cgroupMount = '/sys/fs/cgroup';

function onPath(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why this suite cannot run here, or undefined inside a pure cgroup v2 guest of scripts/vm.sh
 * with what `bulkhead up` needs. The tier is never meant to run on the host itself:
 * `node scripts/run-tests.mjs --tier v2` boots the guest and runs it there.
 */
export function v2SkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  if (!process.env.BULKHEAD_IN_VM) return 'not inside scripts/vm.sh\'s guest (BULKHEAD_IN_VM unset); this tier runs there: node scripts/run-tests.mjs --tier v2 boots it';
  if (process.getuid?.() !== 0) return 'not root in the guest';
  let fsType = '';
  try {
    fsType = execFileSync('stat', ['-fc', '%T', cgroupMount], { encoding: 'utf8' }).trim();
  } catch (e) {
    return `cannot stat ${cgroupMount}: ${(e as Error).message}`;
  }
  if (fsType !== 'cgroup2fs') return `${cgroupMount} is ${fsType || 'unknown'}, not cgroup2fs: not a pure cgroup v2 host`;
  const controllers = readFileSync(join(cgroupMount, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
  if (!controllers.includes('memory')) return `no memory controller in ${cgroupMount}/cgroup.controllers (${controllers.join(' ')})`;
  if (!existsSync('/bin/busybox')) return '/bin/busybox is missing (scripts/install-host-deps.sh installs busybox-static)';
  for (const t of ['conmon', 'kubectl']) if (!onPath(t)) return `${t} is not installed`;
  if (!onPath('runc') && !onPath('crun')) return 'neither runc nor crun is installed';
  return undefined;
}

/** Reports a skip loudly on stderr (once per file) and returns the node:test option. */
export function skipUnlessV2(file: string): { skip?: string } {
  const reason = v2SkipReason();
  if (reason) console.error(`\n*** ${file}: SKIPPING the cgroup v2 end-to-end tests: ${reason} ***\n`);
  return reason ? { skip: reason } : {};
}

export function containerStatus(p: PodJSON, name: string, init = false): ContainerStatusJSON | undefined {
  return (init ? p.status.initContainerStatuses : p.status.containerStatuses)?.find((c) => c.name === name);
}

/** The pod's cgroup directory: the agent's --cgroup-root, then the kubelet's layout for its QoS class. */
export function podCgroupDir(c: UpCluster, p: PodJSON): string {
  const qos = p.status.qosClass as QOSClass | undefined;
  if (!qos) throw new Error(`pod ${p.metadata.name} has no qosClass yet`);
  return join(cgroupMount, c.cgroupRoot, podCgroupPath(qos, p.metadata.uid, 'cgroupfs'));
}

/**
 * A container's cgroup directory: below the pod's, named by its runtime id `<uid>-<name>-<attempt>`
 * (policy/cgrouplayout.ts containerCgroupLeaf), which the status's containerID carries.
 */
export function containerCgroupDir(c: UpCluster, p: PodJSON, name: string, init = false): string {
  const cs = containerStatus(p, name, init);
  if (!cs?.containerID) throw new Error(`container ${name} of ${p.metadata.name} has no containerID yet`);
  return join(podCgroupDir(c, p), cs.containerID.replace(/^[a-z]+:\/\//, ''));
}

/** The sandbox's cgroup directory (the container named POD, of whichever attempt exists). */
export function sandboxCgroupDir(c: UpCluster, p: PodJSON): string {
  const dir = podCgroupDir(c, p);
  const leaf = readdirSync(dir).filter((e) => e.startsWith(`${p.metadata.uid}-POD-`)).sort().at(-1);
  if (!leaf) throw new Error(`no sandbox cgroup below ${dir}: ${readdirSync(dir).join(' ')}`);
  return join(dir, leaf);
}

export function readCg(dir: string, file: string): string {
  return readFileSync(join(dir, file), 'utf8').trim();
}

/** The pids in a cgroup (cgroup.procs), [] once it is gone. */
export function procs(dir: string): number[] {
  try {
    return readCg(dir, 'cgroup.procs').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** memory.events as numbers: low, high, max, oom, oom_kill, oom_group_kill. */
export function parseMemoryEvents(text: string): Record<string, number> {
  return Object.fromEntries(text.split('\n').filter(Boolean).map((l) => l.split(' ')).map(([k, v]) => [k!, Number(v)]));
}

/** The command name of a process, or undefined once it has exited. */
export function comm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Follows a container cgroup's memory.events while the cgroup exists: the last text read is kept,
 * so what the kernel counted for a container whose processes all died (and whose cgroup the
 * runtime then removes) can still be asserted. Reads on every inotify event of the file (the
 * kernel signals one each time a counter in it changes) and every 20 ms besides.
 */
export function followMemoryEvents(dir: string): { last: () => Record<string, number> | undefined; stop: () => void } {
  let last: Record<string, number> | undefined;
  const read = () => {
    try {
      last = parseMemoryEvents(readFileSync(join(dir, 'memory.events'), 'utf8'));
    } catch {
      // gone: keep the last reading
    }
  };
  read();
  const timer = setInterval(read, 20);
  let watcher: { close(): void } | undefined;
  try {
    watcher = watch(join(dir, 'memory.events'), read);
  } catch {
    watcher = undefined;
  }
  return {
    last: () => last,
    stop: () => {
      clearInterval(timer);
      watcher?.close();
    },
  };
}

/**
 * Wakes a hog container (oom.test.ts): writes a line to the fifo its subshell reads, at
 * /dev/shm/go inside the container (its own tmpfs), through /proc/<pid>/root. Opened without
 * blocking, so a container whose reader is not there yet is retried rather than hung on.
 */
export async function trigger(c: UpCluster, cgroupDir: string): Promise<void> {
  await c.until(`the fifo of ${cgroupDir} has its reader`, async () => {
    const pid = procs(cgroupDir)[0];
    if (pid === undefined) throw new Error(`no process in ${cgroupDir}`);
    const fd = openSync(`/proc/${pid}/root/dev/shm/go`, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeSync(fd, 'go\n');
    } finally {
      closeSync(fd);
    }
    return true;
  }, 300_000);
}

/** One /proc/<pid>/limits row: soft and hard as printed ("unlimited" or a number). */
export function limitsRow(pid: number, label: string): { soft: string; hard: string } {
  const text = readFileSync(`/proc/${pid}/limits`, 'utf8');
  const m = new RegExp(`^${label}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(text);
  if (!m) throw new Error(`${label} not in /proc/${pid}/limits:\n${text}`);
  return { soft: m[1]!, hard: m[2]! };
}

export interface EventJSON {
  reason: string;
  message: string;
  type: string;
  involvedObject?: { fieldPath?: string };
}

export async function events(c: UpCluster, pod: string, namespace = 'default'): Promise<EventJSON[]> {
  const list = JSON.parse(await c.ok(['get', 'events', '-n', namespace, '-o', 'json', '--field-selector', `involvedObject.name=${pod}`])) as { items: EventJSON[] };
  return list.items;
}
