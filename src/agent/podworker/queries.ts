// What the rest of the agent asks the pod worker about containers it runs (the OOM watcher,
// the endpoint's logs and pids, an agent that restarts), answered from the on-disk records and
// the runtime, as the kubelet answers from its runtime cache (pkg/kubelet/container/runtime_cache.go).

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ContainerStatus } from '../../api/types.js';
import { runtimeContainerID } from '../lifecycle/containerstatus.js';
import type { RunningInstance } from '../runtime/runtime.js';
import { errno, sandboxNsDir, type MemcgContainer, type PodMemory, type WorkerContext } from './context.js';

const idRe = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;

/** `<id>` of `<id>` or `runc://<id>`, when it can name a container at all. */
function bareID(containerID: string): string | undefined {
  const id = containerID.replace(/^runc:\/\//, '');
  return idRe.test(id) ? id : undefined;
}

/** Pods with state on this host (records, bundles, runtime annotations), for an agent that restarts. */
export async function knownPods(w: WorkerContext): Promise<{ uid: string; namespace: string; name: string }[]> {
  const out = new Map<string, { uid: string; namespace: string; name: string }>();
  for (const p of w.records.listPods()) out.set(p.uid, { uid: p.uid, namespace: p.namespace, name: p.name });
  for (const r of w.records.listInstances()) if (!out.has(r.podUID)) out.set(r.podUID, { uid: r.podUID, namespace: r.namespace, name: r.pod });
  for (const st of await w.runtime.list()) {
    const a = st.annotations ?? {};
    const uid = a['io.kubernetes.pod.uid'];
    if (uid && !out.has(uid)) out.set(uid, { uid, namespace: a['io.kubernetes.pod.namespace'] ?? '', name: a['io.kubernetes.pod.name'] ?? '' });
  }
  // A log directory outlives the rest when a removal was cut short (or predates removing it):
  // its pod is known until remove() takes the directory too. Names are <ns>_<pod>_<uid>; neither
  // a namespace nor a pod name can hold '_'.
  for (const n of listDir(join(w.opts.runDir, 'logs'))) {
    const parts = n.split('_');
    if (parts.length === 3 && parts[2] && !out.has(parts[2])) out.set(parts[2], { uid: parts[2], namespace: parts[0]!, name: parts[1]! });
  }
  return [...out.values()];
}

/** The container whose memory cgroup is `memcgPath` (as /dev/kmsg prints task_memcg=). */
export function containerByMemcg(w: WorkerContext, memcgPath: string): MemcgContainer | undefined {
  const id = bareID(basename(memcgPath));
  if (!id) return undefined;
  const rec = w.records.readInstance(id);
  if (!rec || rec.kind === 'sandbox' || rec.cgroupsPath !== memcgPath.replace(/\/+$/, '')) return undefined;
  return {
    podUID: rec.podUID,
    namespace: rec.namespace,
    pod: rec.pod,
    container: rec.container,
    containerID: runtimeContainerID(rec.id),
    oomKillMode: rec.oomKillMode ?? 'Single',
    emulated: rec.oomKillModeEmulated === true,
    cgroupDir: w.cgroups.memoryDir(rec.cgroupsPath),
  };
}

export function podUIDOfContainer(w: WorkerContext, containerID: string): string | undefined {
  const id = bareID(containerID);
  return id ? w.records.readInstance(id)?.podUID : undefined;
}

export function containerRunning(w: WorkerContext, namespace: string, pod: string, container: string): boolean {
  return w.records
    .listPods()
    .filter((p) => p.namespace === namespace && p.name === pod)
    .some((p) => w.records.listInstances(p.uid).some((r) => r.kind !== 'sandbox' && r.container === container && r.state === 'running' && w.runtime.readExit(r.id) === undefined));
}

export async function containerPid(w: WorkerContext, containerID: string): Promise<number | undefined> {
  const id = bareID(containerID);
  if (!id) return undefined;
  const rec = w.records.readInstance(id);
  if (!rec || rec.state !== 'running' || w.runtime.readExit(id) !== undefined) return undefined;
  const st = await w.runtime.state(id);
  return st && st.status === 'running' ? st.pid : undefined;
}

/**
 * The container's current log (or, with `previous`, its last terminated instance's), in
 * conmon's k8s-file format; undefined when there is none. "Current" is what `kubectl logs`
 * shows: the running or terminated instance, or the last terminated one while it waits.
 */
export function logPath(w: WorkerContext, memOf: (uid: string) => PodMemory | undefined, namespace: string, pod: string, container: string, previous: boolean): string | undefined {
  const pods = w.records.listPods().filter((p) => p.namespace === namespace && p.name === pod);
  if (!pods.length) return undefined;
  const podRec = pods.sort((a, b) => Number(a.terminal !== undefined) - Number(b.terminal !== undefined) || b.startTime.localeCompare(a.startTime))[0]!;
  const recs = w.records.listInstances(podRec.uid).filter((r) => r.kind !== 'sandbox' && r.container === container).sort((a, b) => b.attempt - a.attempt);
  const st = memOf(podRec.uid)?.lastStatus;
  const cs: ContainerStatus | undefined = st && [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? []), ...(st.ephemeralContainerStatuses ?? [])].find((s) => s.name === container);
  let id: string | undefined;
  if (cs) {
    if (previous) id = cs.lastState?.terminated?.containerID;
    else id = cs.state?.running || cs.state?.terminated ? cs.containerID : cs.lastState?.terminated?.containerID;
    id = id?.replace(/^runc:\/\//, '');
  } else {
    const [cur, prev] = recs;
    id = previous ? (cur?.state === 'exited' ? cur.id : prev?.id) : cur?.id;
  }
  const rec = recs.find((r) => r.id === id);
  return rec && existsSync(rec.logPath) ? rec.logPath : undefined;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (e) {
    if (errno(e) === 'ENOENT') return [];
    throw e;
  }
}

/** `<ns>_<name>_<uid>` below the logs directory: found by the uid, which no other pod has. */
export function removeLogDirs(w: WorkerContext, podUID: string): void {
  const logs = join(w.opts.runDir, 'logs');
  for (const n of listDir(logs)) if (n.endsWith(`_${podUID}`)) rmSync(join(logs, n), { recursive: true, force: true });
}

/** The running instance of a container (for exec and attach): the newest, while it has not exited. */
export function runningInstance(w: WorkerContext, namespace: string, pod: string, container: string): RunningInstance | undefined {
  for (const p of w.records.listPods().filter((x) => x.namespace === namespace && x.name === pod && x.terminal === undefined)) {
    const r = w.records
      .listInstances(p.uid)
      .filter((x) => x.kind !== 'sandbox' && x.container === container && x.state === 'running' && w.runtime.readExit(x.id) === undefined)
      .sort((a, b) => b.attempt - a.attempt)[0];
    if (r) return { id: r.id, logPath: r.logPath, ...(r.stdin ? { stdin: r.stdin } : {}), ...(r.tty ? { tty: true } : {}) };
  }
  return undefined;
}

/**
 * The network namespace of a pod's running sandbox (for port-forward): the path its pin has,
 * `host` for a pod on the host's network (no pin), undefined when no sandbox runs.
 */
/** The pinned network namespace of a pod's running sandbox ('host' without a pin), by its UID. */
export function podNetnsByUID(w: WorkerContext, uid: string): string | undefined {
  const sb = w.records
    .listInstances(uid)
    .filter((x) => x.kind === 'sandbox' && x.state === 'running')
    .sort((a, b) => b.attempt - a.attempt)[0];
  if (!sb) return undefined;
  const pin = join(w.records.bundleDir(sb.id), sandboxNsDir, 'network');
  return existsSync(pin) ? pin : 'host';
}

export function podNetns(w: WorkerContext, namespace: string, pod: string): string | undefined {
  for (const p of w.records.listPods().filter((x) => x.namespace === namespace && x.name === pod && x.terminal === undefined)) {
    const sb = w.records
      .listInstances(p.uid)
      .filter((x) => x.kind === 'sandbox' && x.state === 'running')
      .sort((a, b) => b.attempt - a.attempt)[0];
    if (!sb) continue;
    const pin = join(w.records.bundleDir(sb.id), sandboxNsDir, 'network');
    return existsSync(pin) ? pin : 'host';
  }
  return undefined;
}
