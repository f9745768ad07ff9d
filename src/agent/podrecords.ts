// What the pod worker keeps on disk so that an agent that restarts knows every pod and container
// it started (nothing started twice, nothing orphaned). Small JSON files, each replaced by
// rename, so a crash leaves the old or the new version, never half of one.
//
//   <runDir>/pods/<uid>/pod.json            PodRecord
//   <runDir>/bundles/<containerID>/instance.json   InstanceRecord (one per container attempt and sandbox)

import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PodRecord {
  uid: string;
  namespace: string;
  name: string;
  /** The pod cgroup below every hierarchy's mount point, e.g. /bulkhead/kubepods/burstable/pod<uid>. */
  cgroupPath: string;
  /** When this node first synced the pod (status.startTime). */
  startTime: string;
  /** Set once the pod reached Succeeded or Failed here: nothing is started again. */
  terminal?: 'Succeeded' | 'Failed';
  /** The RuntimeClass handler its last sandbox was created with (absent: the default runtime). */
  runtimeHandler?: string;
  /** spec.terminationGracePeriodSeconds when first synced: what `bulkhead down` gives the pod (absent: records from before). */
  terminationGracePeriodSeconds?: number;
}

export type InstanceKind = 'sandbox' | 'init' | 'sidecar' | 'container' | 'ephemeral';

export interface InstanceRecord {
  id: string;
  podUID: string;
  namespace: string;
  pod: string;
  /** Container name; 'POD' for the sandbox. */
  container: string;
  kind: InstanceKind;
  attempt: number;
  /** The sandbox the container joined. */
  sandboxID?: string;
  image: string;
  imageID: string;
  specHash?: string;
  /** runc cgroupsPath: below every hierarchy's mount point. */
  cgroupsPath: string;
  logPath: string;
  /** The container root is an overlay mounted at <bundle>/rootfs. */
  overlay: boolean;
  oomKillMode?: 'Single' | 'Group';
  oomKillModeEmulated?: boolean;
  state: 'creating' | 'running' | 'exited';
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  exitCode?: number;
  reason?: string;
  message?: string;
  pid?: number;
  /**
   * How the container's stdin was started (its spec's stdin and stdinOnce): 'once' closes when
   * the first attach session ends, 'open' stays open; absent: /dev/null, nothing to attach to.
   */
  stdin?: 'once' | 'open';
  /** Its stdio is a terminal (the spec's tty). */
  tty?: boolean;
  /** A sandbox's pinned namespaces (runtime/nspin.ts), which the pod's containers join. */
  namespaces?: Partial<Record<'network' | 'ipc' | 'uts', string>>;
}

function writeJSON(path: string, value: unknown): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  renameSync(tmp, path);
}

function readJSON<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

export class PodRecords {
  constructor(readonly runDir: string) {}

  podDir(uid: string): string {
    return join(this.runDir, 'pods', uid);
  }

  bundleDir(id: string): string {
    return join(this.runDir, 'bundles', id);
  }

  readPod(uid: string): PodRecord | undefined {
    return readJSON<PodRecord>(join(this.podDir(uid), 'pod.json'));
  }

  writePod(rec: PodRecord): void {
    mkdirSync(this.podDir(rec.uid), { recursive: true });
    writeJSON(join(this.podDir(rec.uid), 'pod.json'), rec);
  }

  listPods(): PodRecord[] {
    let uids: string[];
    try {
      uids = readdirSync(join(this.runDir, 'pods'));
    } catch {
      return [];
    }
    return uids.flatMap((u) => {
      const r = this.readPod(u);
      return r ? [r] : [];
    });
  }

  readInstance(id: string): InstanceRecord | undefined {
    return readJSON<InstanceRecord>(join(this.bundleDir(id), 'instance.json'));
  }

  writeInstance(rec: InstanceRecord): void {
    mkdirSync(this.bundleDir(rec.id), { recursive: true });
    writeJSON(join(this.bundleDir(rec.id), 'instance.json'), rec);
  }

  /** Every instance record, or those of one pod. */
  listInstances(podUID?: string): InstanceRecord[] {
    let ids: string[];
    try {
      ids = readdirSync(join(this.runDir, 'bundles'));
    } catch {
      return [];
    }
    return ids.filter((id) => podUID === undefined || id.startsWith(`${podUID}-`)).flatMap((id) => {
      const r = this.readInstance(id);
      return r && (podUID === undefined || r.podUID === podUID) ? [r] : [];
    });
  }
}
