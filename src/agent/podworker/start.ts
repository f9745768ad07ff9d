// Starting one container of a pod, the kubelet's startContainer
// (pkg/kubelet/kuberuntime/kuberuntime_container.go) with the back-off of
// kuberuntime_manager.go doBackOff: back-off gate, image, config, then create + start through
// ContainerRuntime.startMonitored, in the sandbox's namespaces (and an ephemeral container in
// its target's PID namespace), then the postStart hook (hooks.ts). Never waits for a back-off;
// waits for a postStart hook, as the kubelet does.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Container, EphemeralContainer, Pod } from '../../api/types.js';
import type { ContainerPlan, PodNodePlan } from '../../plan/node.js';
import { containerCgroupLeaf } from '../../policy/cgrouplayout.js';
import { ContainerConfigError } from '../lifecycle/containerconfig.js';
import { hookMessages, hookReasons } from '../lifecycle/hooks.js';
import { runtimeRequestTimeoutMs } from '../lifecycle/killresult.js';
import { messages, reasons } from '../lifecycle/wording.js';
import type { PodRecord } from '../podrecords.js';
import type { PinnedKind } from '../runtime/nspin.js';
import { adaptToHost, ociSpec, resourcesFromCgroupFiles, serializeSpec, type OciSpec } from '../runtime/ocispec.js';
import { ContainerNotStartedError } from '../runtime/runtime.js';
import { defaultGraceSeconds, emit, emitOnce, hostNamespaces, podHostname, PodWorkerError, retriedReasons, type ContainerKind, type EventSink, type PodMemory, type Prepared, type StartResult, type View, type WorkerContext } from './context.js';
import { runHook } from './hooks.js';
import { annotations, cleanupInstance, discard, mountRoot, newInstance } from './instances.js';
import { imageFor, processConfig, refuse, type ProcessConfig } from './prepare.js';
import { stopFor } from './stop.js';

/** The OCI namespace types a container joins from its sandbox, and their /proc/<pid>/ns names. */
const sandboxNsPath: Record<string, string> = { network: 'net', ipc: 'ipc', uts: 'uts' };

/**
 * The host pid of an ephemeral container's targetContainerName while it runs (undefined without
 * a target); the kubelet's getTargetID refuses the start when the target is not running.
 */
function ephemeralTargetPid(c: EphemeralContainer, view: View): number | undefined {
  const target = c.targetContainerName;
  if (!target) return undefined;
  const rec = view.recs.filter((r) => r.kind !== 'sandbox' && r.kind !== 'ephemeral' && r.container === target).sort((a, b) => b.attempt - a.attempt)[0];
  if (!rec || rec.state !== 'running' || !rec.pid) throw new ContainerConfigError(`unable to find target container ${target}`);
  return rec.pid;
}

/**
 * Starts one container of the pod, the kubelet's way: back-off check, image, config, create +
 * start. Never waits for a back-off: reports when it wants to be tried again.
 */
export async function startContainer(w: WorkerContext, pod: Pod, podRec: PodRecord, plan: PodNodePlan, c: Container, kind: ContainerKind, view: View, record: EventSink, mem: PodMemory, planAt: number, prepared?: Map<string, Prepared>, sandboxStarting?: Promise<StartResult>): Promise<StartResult> {
  const uid = podRec.uid;
  const name = c.name;
  const key = `${uid}/${name}`;
  const now = w.now();
  const latest = view.rt.containers[name]?.[0];
  const sandbox = view.recs.find((r) => r.id === view.rt.sandbox?.id);
  // A running sandbox, or one this sync is starting whose namespaces are pinned already: the
  // container is created meanwhile and started once the sandbox runs (never without it).
  const inStartingSandbox = sandbox?.state === 'creating' && sandbox.namespaces !== undefined && sandboxStarting !== undefined;
  if (!sandbox || !(sandbox.state === 'running' ? sandbox.pid : inStartingSandbox)) return { started: false };

  // Starts refused before a container existed are retried on the retry back-off.
  const prevFailure = mem.failures.get(name);
  const retryGate = w.retryBackoff.remainingSinceUpdate(key, now);
  if (retryGate > 0 && prevFailure && retriedReasons.has(prevFailure.reason)) return { started: false, retryMs: retryGate };

  // The kubelet's doBackOff: a container that exited waits out its back-off before it restarts.
  if (latest && latest.state === 'exited') {
    const ts = Date.parse(latest.finishedAt ?? latest.createdAt);
    const rem = w.restartBackoff.remainingSince(key, ts, now);
    if (rem > 0) {
      mem.failures.set(name, { reason: reasons.crashLoopBackOff, message: messages.crashLoopWaiting(w.restartBackoff.get(key), name, pod) });
      emitOnce(mem, `${name}/${latest.attempt}/backoff`, record, pod, 'Warning', reasons.backOff, messages.backOffRestarting(name, pod));
      return { started: false, retryMs: rem };
    }
    w.restartBackoff.next(key, ts, now);
  }
  const attempt = latest ? latest.attempt + 1 : 0;
  const evKey = `${name}/${attempt}`;

  const image = await imageFor(w, pod, uid, c, now, evKey, record, mem, prepared);
  if ('result' in image) return image.result;
  const img = image.img;

  const cp: ContainerPlan | undefined = plan.containers.find((p) => p.name === name && p.kind === kind);
  if (!cp) throw new PodWorkerError(`container ${name}: not in the node plan`);
  let proc: ProcessConfig;
  let targetPid: number | undefined;
  try {
    if (kind === 'ephemeral') targetPid = ephemeralTargetPid(c as EphemeralContainer, view);
    proc = processConfig(w, pod, c, cp, img, uid, mem.objects, (reason, message) => emitOnce(mem, evKey, record, pod, 'Warning', reason, message));
  } catch (e) {
    if (!(e instanceof ContainerConfigError)) throw e;
    emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(e.message));
    return refuse(w, mem, key, now, name, e.reason, e.message);
  }

  // Create and start.
  const id = containerCgroupLeaf(uid, name, attempt);
  const bundle = w.records.bundleDir(id);
  const prep = prepared?.get(name);
  prepared?.delete(name);
  const ready = prep !== undefined && prep.rec.id === id && prep.rec.kind === kind && prep.rec.sandboxID === sandbox.id && prep.img.id === img.id;
  if (prep && !ready) await discard(w, prep.rec);
  const rec = ready ? prep.rec : await newInstance(w, podRec, c, kind, cp, attempt, sandbox.id, img);
  const adapted = adaptToHost(cp, w.opts.host);
  let spec: OciSpec;
  try {
    if (!ready) await mountRoot(w, rec, img);
    spec = ociSpec({
      args: proc.args,
      env: proc.env,
      cwd: c.workingDir || img.config.workingDir || '/',
      hostname: podHostname(pod),
      rootfs: join(bundle, 'rootfs'),
      readonlyRootfs: c.securityContext?.readOnlyRootFilesystem === true,
      cgroupsPath: rec.cgroupsPath,
      cgroupVersion: w.cgroups.version,
      oomScoreAdj: adapted.oomScoreAdj,
      rlimits: adapted.rlimits,
      resources: resourcesFromCgroupFiles(cp.cgroup, w.cgroups.version),
      annotations: annotations(podRec, name, kind, attempt),
    });
  } catch (e) {
    // The runtime side refused (overlay mount, a value the runtime would reject): CreateContainerError.
    await discard(w, rec);
    const msg = (e as Error).message;
    emitOnce(mem, evKey, record, pod, 'Warning', reasons.failed, messages.error(msg));
    return refuse(w, mem, key, now, name, reasons.createContainerError, msg);
  }
  spec.process.user = proc.user;
  // The kubelet passes stdin, stdinOnce and tty to the runtime as they are (CRI ContainerConfig).
  spec.process.terminal = c.tty === true;
  spec.mounts.push(...proc.mounts);
  const drop = hostNamespaces(pod);
  spec.linux.namespaces = spec.linux.namespaces
    .filter((n) => !drop.has(n.type))
    .map((n) => (sandboxNsPath[n.type] ? { type: n.type, path: sandbox.namespaces?.[n.type as PinnedKind] ?? `/proc/${sandbox.pid}/ns/${sandboxNsPath[n.type]}` } : n));
  if (drop.has('uts')) delete (spec as Partial<OciSpec>).hostname;
  // An ephemeral container with a target joins its PID namespace (the CRI's NamespaceMode TARGET).
  if (targetPid !== undefined) spec.linux.namespaces = spec.linux.namespaces.map((n) => (n.type === 'pid' ? { type: 'pid', path: `/proc/${targetPid}/ns/pid` } : n));
  writeFileSync(join(bundle, 'config.json'), serializeSpec(spec));

  try {
    const startAfter = inStartingSandbox ? sandboxStarting!.then((r) => r.started) : undefined;
    if (c.stdin) rec.stdin = c.stdinOnce ? 'once' : 'open';
    if (c.tty) rec.tty = true;
    const s = await w.runtime.startMonitored(id, bundle, rec.logPath, {
      ...(startAfter ? { startAfter } : {}),
      ...(rec.stdin ? { stdin: { once: rec.stdin === 'once' } } : {}),
      ...(rec.tty ? { tty: true } : {}),
    });
    rec.state = 'running';
    rec.pid = s.containerPid;
    rec.startedAt = w.nowISO();
    w.records.writeInstance(rec);
  } catch (e) {
    if (e instanceof ContainerNotStartedError || (inStartingSandbox && !(await sandboxStarting!).started)) {
      // Its sandbox failed (and says so; its namespaces may have gone while this was being
      // created): as if it had never been created.
      await discard(w, rec);
      return { started: false };
    }
    // The runtime refused it (e.g. no such executable): an attempt that ended before it ran.
    const msg = (e as Error).message;
    rec.state = 'exited';
    rec.exitCode = 128;
    rec.reason = reasons.startError;
    rec.message = msg;
    rec.finishedAt = w.nowISO();
    w.records.writeInstance(rec);
    await cleanupInstance(w, rec);
    emit(record, pod, 'Warning', reasons.failed, messages.error(msg));
    mem.failures.set(name, { reason: 'RunContainerError', message: msg });
    // No exit file will announce this one: ask to be called again (the back-off decides when it restarts).
    return { started: false, retryMs: 1 };
  }
  mem.failures.delete(name);
  w.retryBackoff.reset(key);
  // Events of earlier attempts cannot recur.
  for (const k of mem.emitted) {
    const m = /^([^/]+)\/(\d+)\//.exec(k);
    if (m && m[1] === name && Number(m[2]) < attempt - 1) mem.emitted.delete(k);
  }
  emit(record, pod, 'Normal', reasons.created, messages.created(name));
  emit(record, pod, 'Normal', reasons.started, messages.started(name));
  const planned = adapted.adjustments.filter((a) => a.source === 'plan').map((a) => a.message);
  if (planned.length) emit(record, pod, 'Warning', reasons.hostAdjusted, messages.hostAdjusted(planned));
  w.opts.metrics?.configured(cp.oomKillMode, (performance.now() - planAt) / 1000);
  w.opts.containerStarted?.();
  const postStart = c.lifecycle?.postStart;
  if (postStart) {
    // Step 4 of the kubelet's startContainer: the hook runs before the start counts, and one that
    // fails kills the container (its preStop hook too) and is the start's error.
    const netns = drop.has('network') ? 'host' : (sandbox.namespaces?.network ?? `/proc/${sandbox.pid}/ns/net`);
    mem.postStartAbort ??= new AbortController();
    const hook = await runHook(w.runtime, pod, c, postStart, { container: c, id, bundle, netns, dialer: w.dialer }, mem.postStartAbort.signal);
    if (!hook.ok) {
      emit(record, pod, 'Warning', hookReasons.failedPostStartHook, hookMessages.postStartFailed);
      const grace = pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? defaultGraceSeconds;
      await stopFor(w, pod, uid, { kill: [{ id, name, message: hookMessages.postStartKill }] }, grace, Number.POSITIVE_INFINITY, record, mem, w.opts.runtimeRequestTimeoutMs ?? runtimeRequestTimeoutMs);
      mem.failures.set(name, { reason: hookReasons.postStartHookError, message: hook.message });
      // The exit is seen: ask to be called again (the back-off decides when it restarts).
      return { started: false, retryMs: 1 };
    }
  }
  return { started: true };
}
