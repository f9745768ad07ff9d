// The pod's volumes on disk, before its containers start and on every later sync, as the
// kubelet's volume manager sets them up (pkg/kubelet/volumemanager, WaitForAttachAndMount): the
// ConfigMaps and Secrets the pod refers to fetched through the agent's client, and the service
// account tokens of its projected volumes from the token manager (src/agent/tokenmanager.ts,
// which refreshes them, so a sync rewrites a refreshed token); configMap,
// secret, downwardAPI and projected volumes written with pkg/volume/util/atomic_writer.go's
// layout (files in a timestamped `..<time>.<random>` directory, a `..data` symlink renamed over
// atomically, user-visible paths that are symlinks to `..data/<first component>`), rewritten
// only when their content changed; hostPath volumes checked (and made) by their type. The
// rules are src/agent/lifecycle/volumes.ts; this file is their I/O.

import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { podReferences } from '../../api/podreferences.js';
import type { Pod, Volume } from '../../api/types.js';
import { checkedPayload, hostPathCheck, payloadDiffers, projectedKinds, timestampedDirName, userVisiblePaths, volumeKind, volumePayload, VolumeSetUpError, type Payload, type PodObjects } from '../lifecycle/volumes.js';
import { nodeAllocatable, type WorkerContext } from './context.js';
import { podTokenProjections, projectedTokenRequest, projectionKey } from '../lifecycle/tokens.js';
import { serviceEnv } from '../lifecycle/serviceenv.js';

const dataDirName = '..data';
const dataTmpName = '..data_tmp';

/** The ConfigMaps and Secrets the pod refers to, as they are now (null: not found), and its service variables. */
export async function fetchObjects(w: WorkerContext, pod: Pod): Promise<PodObjects> {
  const refs = podReferences(pod);
  const ns = pod.metadata.namespace ?? 'default';
  const out: PodObjects = { configMaps: new Map(), secrets: new Map() };
  const src = w.opts.objects;
  if (!src) return out;
  const projections = podTokenProjections(pod);
  if (projections.length) out.serviceAccountTokens = new Map();
  const account = pod.spec.serviceAccountName || (pod.spec as { serviceAccount?: string }).serviceAccount || 'default';
  await Promise.all([
    (async () => {
      if (src.services) out.serviceEnv = serviceEnv(await src.services(), ns, pod.spec.enableServiceLinks !== false);
    })(),
    ...[...refs.configMaps].map(async (n) => out.configMaps.set(n, await src.configMap(ns, n))),
    ...[...refs.secrets].map(async (n) => out.secrets.set(n, await src.secret(ns, n))),
    // A token that cannot be had is that volume's FailedMount, not a failed read of the API.
    ...projections.map(async (p) => {
      if (!src.serviceAccountToken) return;
      try {
        const tr = await src.serviceAccountToken(ns, account, projectedTokenRequest(pod, p));
        out.serviceAccountTokens!.set(projectionKey(p), { token: tr.status?.token ?? '' });
      } catch (e) {
        out.serviceAccountTokens!.set(projectionKey(p), { error: e instanceof Error ? e.message : String(e) });
      }
    }),
  ]);
  return out;
}

/** The directory a volume's files live in. */
export function volumeDir(w: WorkerContext, uid: string, name: string): string {
  return join(w.records.podDir(uid), 'volumes', name);
}

/** What ..data holds now (undefined when nothing was written yet). */
function readPayload(dir: string): Payload | undefined {
  const data = join(dir, dataDirName);
  if (!existsSync(data)) return undefined;
  const out: Payload = new Map();
  const walk = (rel: string) => {
    for (const e of readdirSync(join(data, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else out.set(p, { data: readFileSync(join(data, p)), mode: statSync(join(data, p)).mode & 0o7777 });
    }
  };
  walk('');
  return out;
}

/**
 * atomic_writer.go Write: the payload into a new timestamped directory, `..data` swapped to it
 * by a rename, the user-visible symlinks made and the stale ones (and the old directory)
 * removed. Nothing is written when ..data holds the same files. Whether anything was written.
 */
export function atomicWrite(dir: string, payload: Payload, now: Date): boolean {
  mkdirSync(dir, { recursive: true });
  const current = readPayload(dir);
  const visible = userVisiblePaths(payload);
  const visibleOK = visible.every((p) => {
    try {
      return lstatSync(join(dir, p)).isSymbolicLink();
    } catch {
      return false;
    }
  });
  if (!payloadDiffers(payload, current) && visibleOK) return false;
  const oldTs = current ? readlinkSync(join(dir, dataDirName)) : undefined;
  const ts = mkdtempSync(join(dir, timestampedDirName(now, '')));
  chmodSync(ts, 0o755);
  for (const [p, f] of payload) {
    const file = join(ts, p);
    mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
    writeFileSync(file, f.data);
    chmodSync(file, f.mode);
  }
  const tmp = join(dir, dataTmpName);
  rmSync(tmp, { force: true });
  symlinkSync(basename(ts), tmp);
  renameSync(tmp, join(dir, dataDirName));
  for (const p of visible) {
    const link = join(dir, p);
    let ok = false;
    try {
      ok = lstatSync(link).isSymbolicLink() && readlinkSync(link) === join(dataDirName, p);
    } catch {
      ok = false;
    }
    if (!ok) {
      rmSync(link, { recursive: true, force: true });
      symlinkSync(join(dataDirName, p), link);
    }
  }
  // Stale user-visible paths: every other entry but the ..-prefixed ones.
  for (const e of readdirSync(dir)) {
    if (e.startsWith('..') || visible.includes(e)) continue;
    rmSync(join(dir, e), { recursive: true, force: true });
  }
  if (oldTs && oldTs !== basename(ts)) rmSync(join(dir, oldTs), { recursive: true, force: true });
  return true;
}

function whatIsAt(path: string): Parameters<typeof hostPathCheck>[2] {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 'missing';
  }
  if (st.isDirectory()) return 'directory';
  if (st.isFile()) return 'file';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'char';
  if (st.isBlockDevice()) return 'block';
  return 'other';
}

/** hostPath's type check, making a DirectoryOrCreate (0755) or FileOrCreate (0644) path. */
export function checkHostPath(v: Volume): void {
  const src = v.hostPath as { path?: string; type?: string };
  const path = src.path ?? '';
  const r = hostPathCheck(path, src.type, whatIsAt(path));
  if (r.error) throw new VolumeSetUpError(r.error);
  if (r.create === 'directory') mkdirSync(path, { recursive: true, mode: 0o755 });
  if (r.create === 'file') writeFileSync(path, '', { mode: 0o644, flag: 'a' });
}

/** A volume that failed to set up: its name and the error (for FailedMount). */
export interface VolumeFailure {
  volume: string;
  message: string;
}

/** Every volume of the pod that has something to set up; the first failure, if any. */
export function setUpVolumes(w: WorkerContext, pod: Pod, uid: string, objects: PodObjects, now: Date): VolumeFailure | undefined {
  const allocatable = nodeAllocatable(w);
  for (const v of pod.spec.volumes ?? []) {
    const kind = volumeKind(v);
    try {
      if (kind === 'hostPath') checkHostPath(v);
      else if (kind && (projectedKinds as readonly string[]).includes(kind)) atomicWrite(volumeDir(w, uid, v.name), checkedPayload(volumePayload(v, pod, objects, allocatable)), now);
    } catch (e) {
      if (e instanceof VolumeSetUpError) return { volume: v.name, message: e.message };
      return { volume: v.name, message: (e as Error).message };
    }
  }
  return undefined;
}
