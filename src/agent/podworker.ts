// One node's pod lifecycle on the runtime pieces: the node plan (src/plan/node.ts) decides QoS,
// the pod cgroup, oom_score_adj, cgroup values and rlimits; CgroupV1Manager makes the pod
// cgroup; adaptToHost + ociSpec make each container's config.json; conmon + runc run it.
//
// Scope (first cut): regular containers only (a pod with init containers, sidecars or
// ephemeral containers is refused), cgroup v1 with the cgroupfs driver, one shared busybox
// rootfs for every container (images come later), no restarts, probes or volumes.
//
// Layout:
//   runc state            <stateDir>/runc
//   bundles               <runDir>/bundles/<containerID>/config.json (+ conmon/ monitor files)
//   exit codes            <runDir>/exits/<containerID>     (conmon --exit-dir)
//   logs                  <runDir>/logs/<ns>_<pod>_<uid>/<container>/0.log  (kubelet's layout)
//   container id          <pod uid>-<container name>  (deterministic: status/stop need no memory)
//   container cgroup      <cgroupRoot><plan.podCgroup.path>/<container name>

import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FeatureGates } from '../api/featuregates.js';
import type { Container, ContainerStatus, Pod } from '../api/types.js';
import { derivedPodUID, planPodOnNode, type ContainerPlan, type NodeConfig, type PodNodePlan } from '../plan/node.js';
import { CgroupV1Manager } from './cgroups/v1.js';
import { adopt, readExit, startMonitored, stopContainer, which, type Adopted } from './monitor/conmon.js';
import type { HostProbe } from './runtime/hostprobe.js';
import { adaptToHost, ociSpec, resourcesFromCgroupFiles, serializeSpec } from './runtime/ocispec.js';
import { Runc, RuncError } from './runtime/runc.js';

export interface PodWorkerOptions {
  /** Absolute cgroup path all pods go below, e.g. '/bulkhead' → /bulkhead/kubepods/... ('/' for the kubelet's layout). */
  cgroupRoot: string;
  /** Persistent state; runc's state directory is <stateDir>/runc. */
  stateDir: string;
  /** Bundles, logs and exit files. */
  runDir: string;
  /** A busybox rootfs directory (runtime/rootfs.ts buildBusyboxRootfs), shared read-only. */
  rootfs: string;
  node: NodeConfig;
  host: HostProbe;
  gates: FeatureGates;
  /** Root of the v1 hierarchies; default /sys/fs/cgroup. */
  cgroupMountRoot?: string;
  /** conmon/runc binaries; default from PATH. */
  conmon?: string;
  runtime?: string;
}

export interface StartedContainer {
  name: string;
  containerID: string;
  /** Host pid of the container's init. */
  pid: number;
  /** What the host changed from the plan (oom_score_adj, rlimits, env), as text. */
  adjustments: string[];
}

export class PodWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PodWorkerError';
  }
}

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

function normRoot(root: string): string {
  if (!root.startsWith('/')) throw new PodWorkerError(`cgroupRoot ${JSON.stringify(root)} must be absolute`);
  const r = root.replace(/\/+$/, '');
  return r === '' ? '' : r;
}

/** "/a/b/c" → ["/a", "/a/b", "/a/b/c"]. */
function prefixes(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, i) => '/' + parts.slice(0, i + 1).join('/'));
}

export class PodWorker {
  readonly runc: Runc;
  readonly exitDir: string;
  private readonly root: string;
  private readonly cgroups: CgroupV1Manager;
  /**
   * Cgroup directories below cgroupRoot that did not exist before this worker started a pod
   * (made by CgroupV1Manager or by runc on the worker's behalf): the only ancestors of a pod
   * cgroup that stop() removes (when empty). In memory only: after an agent restart empty QoS
   * tier directories stay behind.
   */
  private readonly created = new Set<string>();

  constructor(private readonly opts: PodWorkerOptions) {
    if (opts.node.cgroupVersion !== 1) throw new PodWorkerError('PodWorker supports cgroup v1 only so far');
    if (opts.node.cgroupDriver !== 'cgroupfs') throw new PodWorkerError('PodWorker supports the cgroupfs driver only so far');
    this.root = normRoot(opts.cgroupRoot);
    this.cgroups = new CgroupV1Manager(opts.cgroupMountRoot);
    this.runc = new Runc({ root: join(opts.stateDir, 'runc'), binary: which(opts.runtime ?? 'runc') ?? opts.runtime ?? 'runc' });
    this.exitDir = join(opts.runDir, 'exits');
  }

  plan(pod: Pod): PodNodePlan {
    return planPodOnNode(pod, this.opts.node, this.opts.gates);
  }

  uid(pod: Pod): string {
    return pod.metadata.uid ?? derivedPodUID(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
  }

  /** The pod cgroup path below every hierarchy's mount point. */
  podCgroupPath(pod: Pod, plan: PodNodePlan = this.plan(pod)): string {
    return this.root + plan.podCgroup.path;
  }

  containerID(pod: Pod, name: string): string {
    return `${this.uid(pod)}-${name}`;
  }

  bundleDir(pod: Pod, name: string): string {
    return join(this.opts.runDir, 'bundles', this.containerID(pod, name));
  }

  logPath(pod: Pod, name: string): string {
    return join(this.opts.runDir, 'logs', `${pod.metadata.namespace ?? 'default'}_${pod.metadata.name ?? ''}_${this.uid(pod)}`, name, '0.log');
  }

  /** Every cgroup hierarchy runc may create the container's cgroup in (v1 mounts and, on hybrid hosts, the cgroup2 tree). */
  private hierarchyMounts(): string[] {
    const c = this.opts.host.cgroups;
    return [...new Set([...Object.values(c.v1), ...(c.unified ? [c.unified] : [])])];
  }

  private regularContainers(pod: Pod, plan: PodNodePlan): [Container, ContainerPlan][] {
    const other = plan.containers.filter((c) => c.kind !== 'container');
    if (other.length) throw new PodWorkerError(`pod ${pod.metadata.name}: ${other.map((c) => `${c.kind} container ${c.name}`).join(', ')} not supported yet`);
    return (pod.spec.containers ?? []).map((c, i) => [c, plan.containers[i]!]);
  }

  /** Creates the pod cgroup and starts every container under conmon. */
  async start(pod: Pod): Promise<StartedContainer[]> {
    const plan = this.plan(pod);
    const pairs = this.regularContainers(pod, plan);
    for (const [, cp] of pairs) if (cp.oomKillModeError) throw new PodWorkerError(`container ${cp.name}: ${cp.oomKillModeError}`);
    const podPath = this.podCgroupPath(pod, plan);

    // Which directories below cgroupRoot are new, in every hierarchy (runc makes the container's
    // parents in hierarchies the manager does not handle, e.g. cpuset, devices, freezer).
    const below = prefixes(podPath).filter((p) => p.length > this.root.length);
    for (const m of this.hierarchyMounts()) for (const p of below) if (!existsSync(join(m, p))) this.created.add(join(m, p));
    this.cgroups.ensure(podPath, plan.podCgroup.values);

    const out: StartedContainer[] = [];
    for (const [c, cp] of pairs) {
      const adapted = adaptToHost(cp, this.opts.host);
      const adjustments = adapted.adjustments.map((a) => a.message);
      const env = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'];
      for (const e of c.env ?? []) {
        if (e.value === undefined && e.valueFrom !== undefined) {
          adjustments.push(`env ${e.name}: valueFrom is not supported yet; not set`);
          continue;
        }
        const entry = `${e.name}=${e.value ?? ''}`;
        const i = env.findIndex((x) => x.startsWith(`${e.name}=`));
        if (i >= 0) env[i] = entry;
        else env.push(entry);
      }
      const id = this.containerID(pod, c.name);
      const bundle = this.bundleDir(pod, c.name);
      mkdirSync(bundle, { recursive: true });
      const spec = ociSpec({
        args: [...(c.command?.length ? c.command : ['sh']), ...(c.args ?? [])],
        env,
        ...(c.workingDir ? { cwd: c.workingDir } : {}),
        hostname: pod.metadata.name ?? 'bulkhead',
        rootfs: this.opts.rootfs,
        cgroupsPath: `${podPath}/${c.name}`,
        cgroupVersion: 1,
        oomScoreAdj: adapted.oomScoreAdj,
        rlimits: adapted.rlimits,
        resources: resourcesFromCgroupFiles(cp.cgroup, 1),
        annotations: { 'io.kubernetes.pod.uid': this.uid(pod), 'io.kubernetes.container.name': c.name },
      });
      writeFileSync(join(bundle, 'config.json'), serializeSpec(spec));
      const s = await startMonitored({
        id,
        bundle,
        stateDir: this.runc.root,
        exitDir: this.exitDir,
        logPath: this.logPath(pod, c.name),
        ...(this.opts.conmon ? { conmon: this.opts.conmon } : {}),
        ...(this.opts.runtime ? { runtime: this.opts.runtime } : {}),
      });
      writeFileSync(join(bundle, 'started-at'), new Date().toISOString());
      out.push({ name: c.name, containerID: id, pid: s.containerPid, adjustments });
    }
    return out;
  }

  /** Kubernetes ContainerStatus-like state of every container (containerID as `runc://<id>`). */
  async status(pod: Pod): Promise<ContainerStatus[]> {
    const out: ContainerStatus[] = [];
    for (const c of pod.spec.containers ?? []) {
      const id = this.containerID(pod, c.name);
      const a: Adopted = await adopt(this.runc.root, this.exitDir, id, this.opts.runtime ? { runtime: this.opts.runtime } : {});
      const startedAt = this.readStartedAt(pod, c.name);
      const base = { name: c.name, restartCount: 0, image: c.image ?? '', imageID: '', containerID: `runc://${id}` };
      switch (a.state) {
        case 'running':
        case 'unmonitored':
          out.push({ ...base, ready: true, started: true, state: { running: startedAt ? { startedAt } : {} } });
          break;
        case 'exited':
          if (a.exitCode === undefined) {
            out.push({ ...base, ready: false, started: false, state: { waiting: { reason: 'ContainerStatusUnknown', message: 'the container exited but no monitor recorded its exit code' } } });
          } else {
            const finishedAt = this.exitTime(id);
            out.push({
              ...base,
              ready: false,
              started: false,
              state: {
                terminated: {
                  exitCode: a.exitCode,
                  ...(a.exitCode > 128 && a.exitCode < 128 + 65 ? { signal: a.exitCode - 128 } : {}),
                  reason: a.exitCode === 0 ? 'Completed' : 'Error',
                  ...(startedAt ? { startedAt } : {}),
                  ...(finishedAt ? { finishedAt } : {}),
                  containerID: `runc://${id}`,
                },
              },
            });
          }
          break;
        case 'created':
          out.push({ ...base, ready: false, started: false, state: { waiting: { reason: 'ContainerCreating' } } });
          break;
        case 'absent':
          out.push({ ...base, ready: false, started: false, state: { waiting: { reason: 'ContainerStatusUnknown', message: 'the runtime does not know this container' } } });
          break;
      }
    }
    return out;
  }

  private readStartedAt(pod: Pod, name: string): string | undefined {
    try {
      return readFileSync(join(this.bundleDir(pod, name), 'started-at'), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  private exitTime(id: string): string | undefined {
    try {
      return statSync(join(this.exitDir, id)).mtime.toISOString();
    } catch {
      return undefined;
    }
  }

  /**
   * SIGTERM, SIGKILL after `graceSeconds`, `runc delete` for every container, then removes the
   * pod cgroup in every hierarchy and the (empty) parents this worker created. Returns the exit
   * code per container name (undefined for one the runtime never had). Exit files and logs stay.
   */
  async stop(pod: Pod, graceSeconds: number): Promise<Record<string, number | undefined>> {
    const plan = this.plan(pod);
    const codes: Record<string, number | undefined> = {};
    const problems: string[] = [];
    await Promise.all((pod.spec.containers ?? []).map(async (c) => {
      const id = this.containerID(pod, c.name);
      try {
        await this.runc.state(id);
      } catch (e) {
        if (e instanceof RuncError && /does not exist/.test(e.message)) {
          codes[c.name] = readExit(this.exitDir, id);
          return;
        }
        throw e;
      }
      try {
        codes[c.name] = await stopContainer(this.runc, id, graceSeconds, { exitDir: this.exitDir });
        await this.runc.delete(id, { force: true });
      } catch (e) {
        problems.push(`${c.name}: ${(e as Error).message}`);
      }
    }));
    if (problems.length) throw new PodWorkerError(`stopping pod ${pod.metadata.name}: ${problems.join('; ')}`);
    this.removePodCgroup(this.podCgroupPath(pod, plan));
    return codes;
  }

  private removePodCgroup(podPath: string): void {
    for (const m of this.hierarchyMounts()) {
      const podDir = join(m, podPath);
      try {
        rmdirSync(podDir);
      } catch (e) {
        if (errno(e) !== 'ENOENT') throw new PodWorkerError(`removing pod cgroup ${podDir}: ${errno(e) ?? (e as Error).message}`);
      }
      this.created.delete(podDir);
      // Parents up to (not including) cgroupRoot, only those this worker created, only when empty.
      for (let d = dirname(podDir); d.length > join(m, this.root).length && this.created.has(d); d = dirname(d)) {
        try {
          rmdirSync(d);
        } catch (e) {
          if (errno(e) === 'EBUSY' || errno(e) === 'ENOTEMPTY') break;
          if (errno(e) !== 'ENOENT') throw e;
        }
        this.created.delete(d);
      }
    }
  }
}
