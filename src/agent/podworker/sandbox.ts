// A pod's sandbox, as the kubelet's kuberuntime_sandbox.go createPodSandbox asks CRI-O's
// server/sandbox_run_linux.go for one: a busybox `sleep` holding the network, IPC and UTS
// namespaces the pod's containers join. The namespaces are pinned first (PodMounts, CRI-O's
// pinns) so that the pod's first containers can be created while the sandbox itself starts;
// the sandbox runs with no monitor (ContainerRuntime.runDetached) and its end is seen on its
// cgroup (observe.ts watchSandbox).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from '../../api/types.js';
import { ensureBusyboxImage } from '../images/busybox.js';
import type { ImageStore } from '../images/store.js';
import type { PodNodePlan } from '../../plan/node.js';
import { containerCgroupLeaf } from '../../policy/cgrouplayout.js';
import { messages, reasons } from '../lifecycle/wording.js';
import type { InstanceRecord, PodRecord } from '../podrecords.js';
import type { PinnedKind } from '../runtime/nspin.js';
import { adaptToHost, ociSpec, serializeSpec, type OciSpec } from '../runtime/ocispec.js';
import { defaultPath, emitOnce, hostNamespaces, podHostname, sandboxName, sandboxNsDir, sandboxPidFile, type EventSink, type PodMemory, type StartResult, type WorkerContext } from './context.js';
import { annotations, discard, removeBundle } from './instances.js';
import { watchSandbox } from './observe.js';

/** The sandbox's read-only rootfs: `given`, or the store's busybox image, made once (a failure is tried again next time). */
export function sandboxRootfsOnce(images: ImageStore, given?: string): () => Promise<{ rootfs: string; imageID: string }> {
  let pending: Promise<{ rootfs: string; imageID: string }> | undefined;
  return () => {
    if (given) return Promise.resolve({ rootfs: given, imageID: '' });
    const p = (pending ??= ensureBusyboxImage(images).then((img) => ({ rootfs: img.rootfs, imageID: img.id })));
    p.catch(() => {
      if (pending === p) pending = undefined;
    });
    return p;
  };
}

/**
 * The runtime handler a new sandbox of `pod` runs with, as the kubelet's createPodSandbox asks
 * its RuntimeClass manager (LookupRuntimeHandler) and the runtime's RunPodSandbox takes it: ''
 * (the default runtime) without a runtimeClassName; the class's handler when this node has a
 * runtime for it; else the error the sandbox fails with.
 */
export async function resolveRuntimeHandler(w: WorkerContext, pod: Pod): Promise<string | Error> {
  const name = pod.spec.runtimeClassName;
  if (!name) return '';
  let rc;
  try {
    rc = w.opts.objects?.runtimeClass ? await w.opts.objects.runtimeClass(name) : null;
  } catch (e) {
    return new Error(messages.runtimeClassLookupFailed(name, (e as Error).message));
  }
  if (!rc) return new Error(messages.runtimeClassNotFound(name));
  return w.runtimeHandlers.has(rc.handler) ? rc.handler : new Error(messages.noRuntimeForHandler(rc.handler));
}

export function sandboxID(podUID: string, attempt: number): string {
  return containerCgroupLeaf(podUID, sandboxName, attempt);
}

/**
 * A new sandbox, in two steps: its namespaces are pinned, and this resolves with `running`
 * while the runtime's `run -d` goes on, so that the pod's first containers are created in the
 * same namespaces at the same time. `running` resolves once the sandbox runs, or has failed
 * (reported, and discarded with its pins).
 */
export async function createSandbox(w: WorkerContext, pod: Pod, podRec: PodRecord, plan: PodNodePlan, attempt: number, record: EventSink, mem: PodMemory, handler: string | Error = ''): Promise<StartResult & { running?: Promise<StartResult> }> {
  const uid = podRec.uid;
  const id = sandboxID(uid, attempt);
  const bundle = w.records.bundleDir(id);
  const leftover = w.records.readInstance(id);
  if (leftover) await discard(w, leftover);
  await removeBundle(w, id);
  const key = `${uid}/${sandboxName}`;
  const gate = w.retryBackoff.remainingSinceUpdate(key, w.now());
  if (gate > 0) return { started: false, retryMs: gate };
  const failed = (e: unknown): StartResult => {
    w.retryBackoff.next(key, w.now(), w.now());
    emitOnce(mem, `${sandboxName}/${attempt}`, record, pod, 'Warning', 'FailedCreatePodSandBox', messages.failedCreatePodSandbox((e as Error).message));
    return { started: false, retryMs: w.retryBackoff.get(key) };
  };
  // No runtime for the pod's RuntimeClass: nothing is created, as RunPodSandbox refuses it.
  if (handler instanceof Error) return failed(handler);

  let rec: InstanceRecord | undefined;
  const adapted = adaptToHost({ oomScoreAdj: plan.sandbox.oomScoreAdj, rlimits: [] }, w.opts.host);
  try {
    const { rootfs, imageID } = await w.sandboxRootfs();
    const spec = ociSpec({
      args: ['sleep', '2147483647'],
      env: [defaultPath],
      hostname: podHostname(pod),
      rootfs,
      readonlyRootfs: true,
      cgroupsPath: `${podRec.cgroupPath}/${id}`,
      cgroupVersion: w.cgroups.version,
      oomScoreAdj: adapted.oomScoreAdj,
      rlimits: adapted.rlimits,
      resources: {},
      annotations: annotations(podRec, sandboxName, 'sandbox', attempt),
    });
    const drop = hostNamespaces(pod);
    // runc refuses a hostname without a UTS namespace of the container's own.
    if (drop.has('uts')) delete (spec as Partial<OciSpec>).hostname;
    rec = {
      id,
      podUID: uid,
      namespace: podRec.namespace,
      pod: podRec.name,
      container: sandboxName,
      kind: 'sandbox',
      attempt,
      image: 'busybox',
      imageID,
      cgroupsPath: `${podRec.cgroupPath}/${id}`,
      logPath: join(bundle, 'sandbox.log'),
      overlay: false,
      state: 'creating',
      createdAt: w.nowISO(),
    };
    // The record first: whatever a crash leaves after it is found and discarded by observe().
    w.records.writeInstance(rec);
    const shared = (['network', 'ipc', 'uts'] as const).filter((k) => !drop.has(k));
    rec.namespaces = await w.mounts.pinNamespaces(join(bundle, sandboxNsDir), shared);
    w.records.writeInstance(rec);
    const pins = rec.namespaces;
    spec.linux.namespaces = spec.linux.namespaces.filter((n) => !drop.has(n.type)).map((n) => (pins[n.type as PinnedKind] ? { type: n.type, path: pins[n.type as PinnedKind] } : n));
    writeFileSync(join(bundle, 'config.json'), serializeSpec(spec));
  } catch (e) {
    if (rec) await discard(w, rec).catch(() => undefined);
    return failed(e);
  }
  const sandbox = rec;
  const running = (async (): Promise<StartResult> => {
    try {
      // No monitor: nobody reads the sandbox's exit code or output, and a bare `run -d` is the
      // quickest start there is (a `start` of its own would cost as much again as the start
      // inside `run`). Its end is noticed by watchSandbox instead.
      const pid = await w.runtime.runDetached(id, bundle, { pidFile: join(bundle, sandboxPidFile), logPath: sandbox.logPath });
      sandbox.state = 'running';
      sandbox.pid = pid;
      sandbox.startedAt = w.nowISO();
      w.records.writeInstance(sandbox);
    } catch (e) {
      await discard(w, sandbox).catch(() => undefined);
      return failed(e);
    }
    watchSandbox(w, sandbox);
    w.retryBackoff.reset(key);
    // As each container's clamp is reported; once per pod, not per re-created sandbox.
    const planned = adapted.adjustments.filter((a) => a.source === 'plan').map((a) => a.message);
    if (planned.length) emitOnce(mem, `${sandboxName}/hostAdjusted`, record, pod, 'Warning', reasons.hostAdjusted, messages.sandboxHostAdjusted(planned));
    return { started: true };
  })();
  return { started: true, running };
}
