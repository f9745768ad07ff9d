// What a container needs before the runtime sees it, the kubelet's EnsureImageExists
// (pkg/kubelet/images/image_manager.go: pull policy, ErrImageNeverPull, ImagePullBackOff) and
// generateContainerConfig (kuberuntime_container.go: command, env, user, volume mounts), and
// the early preparation of a new sandbox's first containers (records and overlay roots made
// while the sandbox starts).

import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Container, Pod } from '../../api/types.js';
import { isSidecar } from '../../api/types.js';
import type { ContainerPlan, PodNodePlan } from '../../plan/node.js';
import { InvalidReferenceError } from '../images/reference.js';
import type { ImageRecord } from '../images/store.js';
import type { PodActions } from '../lifecycle/actions.js';
import { checkSubPath, ContainerConfigError, containerEnv, processArgs, processEnv, processUser } from '../lifecycle/containerconfig.js';
import { volumeKind, type PodObjects } from '../lifecycle/volumes.js';
import { messages, reasons } from '../lifecycle/wording.js';
import type { PodRecord } from '../podrecords.js';
import type { OciMount, OciSpec } from '../runtime/ocispec.js';
import { defaultPath, emit, emitOnce, nodeAllocatable, podHostname, type ContainerKind, type EventSink, type PodMemory, type Prepared, type StartResult, type View, type WorkerContext } from './context.js';
import { discard, mountRoot, newInstance } from './instances.js';
import { volumeDir } from './volumes.js';

export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const last = image.split('/').pop() ?? '';
  if (last.includes('@')) return 'IfNotPresent';
  const colon = last.lastIndexOf(':');
  return colon < 0 || last.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** A refusal before any container exists: remembered for the status, retried on the retry back-off. */
export function refuse(w: WorkerContext, mem: PodMemory, key: string, now: number, name: string, reason: string, message: string): StartResult {
  mem.failures.set(name, { reason, message });
  w.retryBackoff.next(key, now, now);
  return { started: false, retryMs: w.retryBackoff.get(key) };
}

/**
 * The container's image from the local store (nothing is pulled): the image, or the start's
 * result when there is none (InvalidImageName, ErrImageNeverPull, ErrImagePull and its back-off).
 */
export async function imageFor(w: WorkerContext, pod: Pod, uid: string, c: Container, now: number, evKey: string, record: EventSink, mem: PodMemory, prepared?: Map<string, Prepared>): Promise<{ img: ImageRecord } | { result: StartResult }> {
  const key = `${uid}/${c.name}`;
  const imageRef = c.image ?? '';
  let img: ImageRecord | undefined;
  try {
    // Resolved a moment ago, while the sandbox started.
    const early = prepared?.get(c.name);
    img = early && early.rec.image === imageRef ? early.img : await w.opts.images.resolve(imageRef);
  } catch (e) {
    if (!(e instanceof InvalidReferenceError)) throw e;
    const msg = messages.invalidImageName(imageRef, e.message);
    emitOnce(mem, evKey, record, pod, 'Warning', reasons.inspectFailed, msg);
    emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(reasons.invalidImageName));
    return { result: refuse(w, mem, key, now, c.name, reasons.invalidImageName, msg) };
  }
  if (!img) {
    if ((c.imagePullPolicy ?? defaultPullPolicy(imageRef)) === 'Never') {
      const msg = messages.imageNeverPull(imageRef);
      emitOnce(mem, evKey, record, pod, 'Warning', reasons.errImageNeverPull, msg);
      emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(reasons.errImageNeverPull));
      return { result: refuse(w, mem, key, now, c.name, reasons.errImageNeverPull, msg) };
    }
    const pullKey = `${uid}_${imageRef}`;
    const rem = w.imageBackoff.remainingSinceUpdate(pullKey, now);
    if (rem > 0) {
      const prev = mem.pullErrors.get(imageRef);
      mem.failures.set(c.name, { reason: reasons.imagePullBackOff, message: prev ? messages.backOffPullingWaiting(imageRef, prev) : messages.backOffPulling(imageRef) });
      const round = `${evKey}/pull-${w.imageBackoff.get(pullKey)}`;
      emitOnce(mem, round, record, pod, 'Normal', reasons.backOff, messages.backOffPulling(imageRef));
      emitOnce(mem, round, record, pod, 'Warning', reasons.failed, messages.error(reasons.imagePullBackOff));
      return { result: { started: false, retryMs: rem } };
    }
    const err = messages.imageNotInStore(imageRef);
    emit(record, pod, 'Warning', reasons.failed, messages.failedToPull(imageRef, err));
    emit(record, pod, 'Warning', reasons.failed, messages.error(reasons.errImagePull));
    w.imageBackoff.next(pullKey, now, now);
    mem.pullErrors.set(imageRef, err);
    mem.failures.set(c.name, { reason: reasons.errImagePull, message: err });
    return { result: { started: false, retryMs: w.imageBackoff.get(pullKey) } };
  }
  w.imageBackoff.reset(`${uid}_${imageRef}`);
  mem.pullErrors.delete(imageRef);
  emitOnce(mem, evKey, record, pod, 'Normal', reasons.pulled, messages.imagePresent(imageRef));
  return { img };
}

/**
 * Volumes bind-mounted where the container asks: emptyDir (a directory per pod), the
 * projected-file kinds (configMap, secret, downwardAPI, projected: the directory setUpVolumes
 * wrote, always read-only, as upstream mounts them) and hostPath.
 */
function volumeMounts(w: WorkerContext, pod: Pod, c: Container, uid: string): OciMount[] {
  const out: OciMount[] = [];
  for (const vm of c.volumeMounts ?? []) {
    const vol = (pod.spec.volumes ?? []).find((v) => v.name === vm.name);
    if (!vol) throw new ContainerConfigError(`volumeMount ${vm.name}: the pod has no volume of that name`);
    const kind = volumeKind(vol);
    if (kind === 'hostPath') {
      const base = (vol.hostPath as { path?: string }).path ?? '';
      const src = vm.subPath ? join(base, ...checkSubPath(vm.subPath, vm.name)) : base;
      out.push({ destination: vm.mountPath, type: 'bind', source: src, options: ['rbind', vm.readOnly ? 'ro' : 'rw'] });
      continue;
    }
    if (kind !== undefined && kind !== 'emptyDir') {
      const dir = volumeDir(w, uid, vm.name);
      if (!existsSync(dir)) throw new ContainerConfigError(`volume ${vm.name}: not set up yet`);
      const src = vm.subPath ? join(dir, ...checkSubPath(vm.subPath, vm.name)) : dir;
      out.push({ destination: vm.mountPath, type: 'bind', source: src, options: ['rbind', 'ro'] });
      continue;
    }
    if (kind !== 'emptyDir') throw new ContainerConfigError(`volume ${vm.name}: only emptyDir, hostPath, configMap, secret, downwardAPI and projected volumes are supported by Bulkhead's node agent`);
    const dir = join(w.records.podDir(uid), 'volumes', vm.name);
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o777);
    }
    const src = vm.subPath ? join(dir, ...checkSubPath(vm.subPath, vm.name)) : dir;
    mkdirSync(src, { recursive: true });
    out.push({ destination: vm.mountPath, type: 'bind', source: src, options: ['rbind', vm.readOnly ? 'ro' : 'rw'] });
  }
  return out;
}

function readImageFile(img: ImageRecord, path: string): string | undefined {
  try {
    return readFileSync(join(img.rootfs, path), 'utf8');
  } catch {
    return undefined;
  }
}

export interface ProcessConfig {
  args: string[];
  env: string[];
  user: OciSpec['process']['user'];
  mounts: OciMount[];
}

/**
 * The container's process and mounts; ContainerConfigError for what the plan refuses (OOM kill
 * mode) and what the spec asks that cannot be done.
 */
export function processConfig(w: WorkerContext, pod: Pod, c: Container, cp: ContainerPlan, img: ImageRecord, uid: string, objects?: PodObjects, warn?: (reason: string, message: string) => void): ProcessConfig {
  if (cp.oomKillModeError) {
    w.opts.metrics?.configError();
    throw new ContainerConfigError(cp.oomKillModeError);
  }
  if (pod.spec.shareProcessNamespace) throw new ContainerConfigError('shareProcessNamespace is not supported by Bulkhead\'s node agent');
  const cenv = containerEnv(pod, c, { hostIPs: w.opts.hostIPs ?? [], allocatable: nodeAllocatable(w) }, objects, warn);
  return {
    args: processArgs(c, img.config, cenv),
    env: processEnv([defaultPath, ...img.config.env], podHostname(pod), cenv),
    user: processUser(pod, c, img.config.user, readImageFile(img, 'etc/passwd'), readImageFile(img, 'etc/group')),
    mounts: volumeMounts(w, pod, c, uid),
  };
}

/**
 * While a new sandbox starts: the records and overlay roots of the containers that start in it
 * right after (only their namespaces need the sandbox). First starts only, as a restart may be
 * held back by its back-off; a container whose start then goes another way (a refusal, another
 * attempt, a sandbox that failed) has its preparation discarded. Failures here are not
 * reported: startContainer meets them again and reports them.
 */
export async function prepareStarts(w: WorkerContext, pod: Pod, podRec: PodRecord, plan: PodNodePlan, actions: PodActions, view: View, sandboxID: string, mem: PodMemory): Promise<Map<string, Prepared>> {
  const out = new Map<string, Prepared>();
  const inits = pod.spec.initContainers ?? [];
  const wanted: { c: Container; kind: ContainerKind }[] = [
    ...actions.initContainersToStart.map((i) => ({ c: inits[i]!, kind: isSidecar(inits[i]!) ? ('sidecar' as const) : ('init' as const) })),
    ...actions.containersToStart.map((i) => ({ c: pod.spec.containers[i]!, kind: 'container' as const })),
  ];
  await Promise.all(
    wanted.map(async ({ c, kind }) => {
      if (view.rt.containers[c.name]?.length || mem.failures.has(c.name)) return;
      const cp = plan.containers.find((p) => p.name === c.name && p.kind === kind);
      if (!cp || cp.oomKillModeError) return;
      let img: ImageRecord | undefined;
      try {
        img = await w.opts.images.resolve(c.image ?? '');
      } catch {
        return;
      }
      if (!img) return;
      const rec = await newInstance(w, podRec, c, kind, cp, 0, sandboxID, img);
      try {
        await mountRoot(w, rec, img);
      } catch {
        await discard(w, rec);
        return;
      }
      out.set(c.name, { rec, img });
    }),
  );
  return out;
}
