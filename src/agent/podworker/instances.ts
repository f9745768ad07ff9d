// One container instance (a container attempt or a sandbox) from record to removal: its record
// written before anything of it exists on the host, its overlay root, how it ended, and what
// goes when it is finished or discarded, as the kubelet's kuberuntime_container.go and
// kuberuntime_gc.go do with CRI calls. Every runtime and mount step goes through
// ContainerRuntime and PodMounts (runtime/runtime.ts).

import { runtimeHandlerAnnotation } from '../runtime/handlers.js';
import { existsSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Container } from '../../api/types.js';
import type { ContainerPlan } from '../../plan/node.js';
import { containerCgroupLeaf } from '../../policy/cgrouplayout.js';
import type { ImageRecord } from '../images/store.js';
import { runtimeContainerID } from '../lifecycle/containerstatus.js';
import { stopNetnsDialer } from '../streaming/netnsdialer.js';
import { messages, reasons } from '../lifecycle/wording.js';
import type { InstanceKind, InstanceRecord, PodRecord } from '../podrecords.js';
import { errno, PodWorkerError, sandboxNsDir, sandboxPidFile, specHash, type ContainerKind, type PodMemory, type WorkerContext } from './context.js';

export function logDir(w: WorkerContext, namespace: string, pod: string, uid: string): string {
  return join(w.opts.runDir, 'logs', `${namespace}_${pod}_${uid}`);
}

export function annotations(podRec: PodRecord, container: string, kind: InstanceKind, attempt: number): Record<string, string> {
  return {
    'io.kubernetes.pod.uid': podRec.uid,
    'io.kubernetes.pod.namespace': podRec.namespace,
    'io.kubernetes.pod.name': podRec.name,
    'io.kubernetes.container.name': container,
    'io.bulkhead.container.kind': kind,
    'io.kubernetes.container.restartCount': String(attempt),
    ...(podRec.runtimeHandler ? { [runtimeHandlerAnnotation]: podRec.runtimeHandler } : {}),
  };
}

/** The runtime's container, overlay mount and bundle contents of an instance, keeping instance.json (and the log). */
export async function cleanupInstance(w: WorkerContext, rec: InstanceRecord): Promise<void> {
  if (rec.kind !== 'sandbox') w.opts.containerRemoving?.(runtimeContainerID(rec.id));
  await w.runtime.delete(rec.id, { force: true });
  const bundle = w.records.bundleDir(rec.id);
  const rootfs = join(bundle, 'rootfs');
  if (rec.overlay) await w.mounts.unmountIfMounted(rootfs);
  // rmdir, never rm -r: if the unmount had not happened this would be the image's files.
  try {
    rmdirSync(rootfs);
  } catch (e) {
    if (errno(e) !== 'ENOENT') throw new PodWorkerError(`removing ${rootfs}: ${errno(e) ?? (e as Error).message}`);
  }
  if (rec.kind === 'sandbox') {
    // The pod's dialer holds its network namespace: it goes with the sandbox.
    await stopNetnsDialer(bundle);
    await w.mounts.unpinNamespaces(join(bundle, sandboxNsDir));
  }
  for (const p of ['overlay', 'conmon', 'config.json', sandboxPidFile]) rmSync(join(bundle, p), { recursive: true, force: true });
  rmSync(join(w.exitDir, rec.id), { force: true });
  w.sandboxExits.delete(rec.id);
}

/** Records how an instance ended (exit code, OOM, times), then frees its runtime resources. */
export async function finalize(w: WorkerContext, rec: InstanceRecord, code: number | undefined, mem: PodMemory): Promise<void> {
  const oom = w.podCgroups.oomKilled(rec.cgroupsPath);
  let finishedAt: string | undefined;
  try {
    finishedAt = statSync(join(w.exitDir, rec.id)).mtime.toISOString();
  } catch {
    finishedAt = undefined;
  }
  rec.state = 'exited';
  rec.exitCode = code ?? 137;
  rec.reason = code === undefined ? reasons.containerStatusUnknown : code === 137 && oom ? reasons.oomKilled : code === 0 ? reasons.completed : reasons.error;
  if (code === undefined) rec.message = messages.statusUnknown;
  rec.finishedAt = finishedAt ?? w.nowISO();
  w.records.writeInstance(rec);
  mem.kills.delete(rec.id);
  await cleanupInstance(w, rec);
}

/** rm -r of a bundle, after making sure no overlay is still mounted in it (that would be the image's files). */
export async function removeBundle(w: WorkerContext, id: string): Promise<void> {
  const bundle = w.records.bundleDir(id);
  // Nothing can be mounted in a bundle that does not exist (a new instance's, on the hot path).
  if (!existsSync(bundle)) return;
  await w.mounts.unmountIfMounted(join(bundle, 'rootfs'));
  await stopNetnsDialer(bundle);
  await w.mounts.unpinNamespaces(join(bundle, sandboxNsDir));
  rmSync(bundle, { recursive: true, force: true });
}

/** Everything of an instance goes (a creation that never finished, or an old attempt). */
export async function discard(w: WorkerContext, rec: InstanceRecord): Promise<void> {
  await cleanupInstance(w, rec);
  await removeBundle(w, rec.id);
  if (rec.kind !== 'sandbox') rmSync(rec.logPath, { force: true });
}

/** Everything but the log (a removed pod's logs go with its log directory). */
export async function discardKeepLog(w: WorkerContext, rec: InstanceRecord): Promise<void> {
  await cleanupInstance(w, rec);
  await removeBundle(w, rec.id);
}

/**
 * A container instance's record, written in state 'creating' before anything of it exists on
 * the host (so that a crash leaves something for observe() to discard), after whatever an
 * earlier try of the same id left behind is gone.
 */
export async function newInstance(w: WorkerContext, podRec: PodRecord, c: Container, kind: ContainerKind, cp: ContainerPlan, attempt: number, sandboxID: string, img: ImageRecord): Promise<InstanceRecord> {
  const id = containerCgroupLeaf(podRec.uid, c.name, attempt);
  const leftover = w.records.readInstance(id);
  if (leftover) await discard(w, leftover);
  await removeBundle(w, id);
  const logPath = join(logDir(w, podRec.namespace, podRec.name, podRec.uid), c.name, `${attempt}.log`);
  rmSync(logPath, { force: true });
  const rec: InstanceRecord = {
    id,
    podUID: podRec.uid,
    namespace: podRec.namespace,
    pod: podRec.name,
    container: c.name,
    kind,
    attempt,
    sandboxID,
    image: c.image ?? '',
    imageID: img.id,
    specHash: specHash(c),
    cgroupsPath: `${podRec.cgroupPath}/${id}`,
    logPath,
    overlay: true,
    oomKillMode: cp.oomKillMode,
    ...(cp.oomKillModeEmulated ? { oomKillModeEmulated: true } : {}),
    state: 'creating',
    createdAt: w.nowISO(),
  };
  w.records.writeInstance(rec);
  return rec;
}

/** The instance's writable root: an overlay over the image at <bundle>/rootfs. */
export async function mountRoot(w: WorkerContext, rec: InstanceRecord, img: ImageRecord): Promise<void> {
  const bundle = w.records.bundleDir(rec.id);
  await w.mounts.mountOverlay(img.rootfs, join(bundle, 'overlay', 'upper'), join(bundle, 'overlay', 'work'), join(bundle, 'rootfs'));
}
