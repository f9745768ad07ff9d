// The contents of the kubelet's projected-file volumes, and the atomic writer's layout, as pure
// rules: what a configMap, secret, downwardAPI or projected volume holds (pkg/volume/configmap
// MakePayload, pkg/volume/secret MakePayload, pkg/volume/downwardapi CollectData,
// pkg/volume/projected collectData: items key→path, defaultMode and per-item mode, optional;
// a serviceAccountToken source is the token the agent's token manager fetched),
// downward API values as pkg/fieldpath and pkg/api/v1/resource format them (labels and
// annotations as sorted `key="value"` lines, resource values rounded up in units of the
// divisor), and pkg/volume/util/atomic_writer.go's checks and names (payload paths, the
// timestamped directory, the user-visible top-level paths). hostPath's type names and messages
// (pkg/volume/hostpath checkType). The I/O is in src/agent/podworker/volumes.ts.

import { extractFieldPathAsString } from '../../api/fieldpath.js';
import type { ConfigMap, Pod, Secret, Volume } from '../../api/types.js';
import { containerResourceValue, ResourceFieldError } from './resourcefield.js';
import { projectionKey, type ServiceAccountTokenProjection } from './tokens.js';

/** One file of a volume: its bytes and mode. */
export interface PayloadFile {
  data: Buffer;
  mode: number;
}

/** Path (relative, `/`-separated) → file. */
export type Payload = Map<string, PayloadFile>;

/** The referenced objects as the agent fetched them: null for one that does not exist. */
export interface PodObjects {
  configMaps: Map<string, ConfigMap | null>;
  secrets: Map<string, Secret | null>;
  /** The pod's service account tokens by projectionKey (lifecycle/tokens.ts), or why there is none. */
  serviceAccountTokens?: Map<string, { token: string } | { error: string }>;
  /** The service environment variables of its containers (serviceenv.ts); none when absent. */
  serviceEnv?: Map<string, string>;
}

/** A volume that cannot be set up now (the kubelet's FailedMount; retried). */
export class VolumeSetUpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VolumeSetUpError';
  }
}

/** The event reason of a volume that could not be set up. */
export const failedMount = 'FailedMount';

/** The FailedMount event's text (operation_generator.go GenerateMountVolumeFunc). */
export function failedMountMessage(volume: string, err: string): string {
  return `MountVolume.SetUp failed for volume "${volume}" : ${err}`;
}

/** The kubelet's object managers' NotFound errors (resource named in the singular). */
export const notFound = {
  configMap: (name: string) => `configmap "${name}" not found`,
  secret: (name: string) => `secret "${name}" not found`,
};

/** Volume sources whose files the agent writes (read-only in the container, as upstream). */
export const projectedKinds = ['configMap', 'secret', 'downwardAPI', 'projected'] as const;
export type ProjectedKind = (typeof projectedKinds)[number];

export function volumeKind(v: Volume): ProjectedKind | 'emptyDir' | 'hostPath' | undefined {
  for (const k of [...projectedKinds, 'emptyDir', 'hostPath'] as const) if (v[k] !== undefined && v[k] !== null) return k;
  return undefined;
}

/** The API's defaultMode for every projected-file volume (0644). */
export const defaultVolumeMode = 0o644;

interface KeyToPath {
  key?: string;
  path?: string;
  mode?: number;
}

interface DownwardAPIFile {
  path?: string;
  fieldRef?: { fieldPath?: string };
  resourceFieldRef?: { containerName?: string; resource?: string; divisor?: string | number };
  mode?: number;
}

const b64 = (s: string) => Buffer.from(s, 'base64');

/** The keys of an object in the payload: every key, or the listed items (key → path). */
function keyPayload(values: Map<string, Buffer>, items: KeyToPath[] | undefined, defaultMode: number, optional: boolean, missingKey: (key: string) => string): Payload {
  const out: Payload = new Map();
  if (!items?.length) {
    for (const [k, data] of values) out.set(k, { data, mode: defaultMode });
    return out;
  }
  for (const it of items) {
    const data = values.get(it.key ?? '');
    if (data === undefined) {
      if (optional) continue;
      throw new VolumeSetUpError(missingKey(it.key ?? ''));
    }
    out.set(it.path ?? '', { data, mode: it.mode ?? defaultMode });
  }
  return out;
}

function configMapValues(cm: ConfigMap): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(cm.data ?? {})) m.set(k, Buffer.from(v, 'utf8'));
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) m.set(k, b64(v));
  return m;
}

function secretValues(s: Secret): Map<string, Buffer> {
  return new Map(Object.entries(s.data ?? {}).map(([k, v]) => [k, b64(v)]));
}

/** The pod fields a downward API file may name (fieldpath.ExtractFieldPathAsString). */
export function downwardFieldValue(pod: Pod, path: string): string {
  const v = extractFieldPathAsString(pod, path);
  if (v === undefined) throw new VolumeSetUpError(`unsupported fieldPath: ${path}`);
  return v;
}

/** resource.ExtractResourceValueByContainerNameAndNodeAllocatable: the value in units of the divisor, rounded up. */
export function resourceFieldValue(pod: Pod, ref: NonNullable<DownwardAPIFile['resourceFieldRef']>, allocatable: Record<string, string> = {}): string {
  try {
    return containerResourceValue(pod, ref, allocatable);
  } catch (e) {
    if (e instanceof ResourceFieldError) throw new VolumeSetUpError(e.message);
    throw e;
  }
}

function downwardPayload(pod: Pod, items: DownwardAPIFile[] | undefined, defaultMode: number, allocatable?: Record<string, string>): Payload {
  const out: Payload = new Map();
  for (const it of items ?? []) {
    let value: string;
    if (it.fieldRef?.fieldPath) value = downwardFieldValue(pod, it.fieldRef.fieldPath);
    else if (it.resourceFieldRef) value = resourceFieldValue(pod, it.resourceFieldRef, allocatable);
    else continue;
    out.set(it.path ?? '', { data: Buffer.from(value, 'utf8'), mode: it.mode ?? defaultMode });
  }
  return out;
}

function lookup<T>(objects: Map<string, T | null>, name: string, optional: boolean, missing: string): T | undefined {
  const o = objects.get(name);
  if (o) return o;
  if (optional) return undefined;
  throw new VolumeSetUpError(missing);
}

/**
 * The files of a configMap, secret, downwardAPI or projected volume. Throws VolumeSetUpError with
 * upstream's message for a missing non-optional object or key and for what cannot be projected.
 */
export function volumePayload(v: Volume, pod: Pod, objects: PodObjects, allocatable?: Record<string, string>): Payload {
  const src = (k: string) => (v[k] ?? {}) as Record<string, unknown>;
  switch (volumeKind(v)) {
    case 'configMap': {
      const s = src('configMap') as { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
      const cm = lookup(objects.configMaps, s.name ?? '', !!s.optional, notFound.configMap(s.name ?? ''));
      if (!cm) return new Map();
      return keyPayload(configMapValues(cm), s.items, s.defaultMode ?? defaultVolumeMode, !!s.optional, (k) => `configmap references non-existent config key: ${k}`);
    }
    case 'secret': {
      const s = src('secret') as { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
      const sec = lookup(objects.secrets, s.secretName ?? '', !!s.optional, notFound.secret(s.secretName ?? ''));
      if (!sec) return new Map();
      return keyPayload(secretValues(sec), s.items, s.defaultMode ?? defaultVolumeMode, !!s.optional, (k) => `references non-existent secret key: ${k}`);
    }
    case 'downwardAPI': {
      const s = src('downwardAPI') as { items?: DownwardAPIFile[]; defaultMode?: number };
      return downwardPayload(pod, s.items, s.defaultMode ?? defaultVolumeMode, allocatable);
    }
    case 'projected': {
      const s = src('projected') as { sources?: Record<string, unknown>[]; defaultMode?: number };
      const mode = s.defaultMode ?? defaultVolumeMode;
      const out: Payload = new Map();
      for (const p of s.sources ?? []) {
        let part: Payload;
        if (p.configMap) {
          const r = p.configMap as { name?: string; items?: KeyToPath[]; optional?: boolean };
          const cm = lookup(objects.configMaps, r.name ?? '', !!r.optional, notFound.configMap(r.name ?? ''));
          part = cm ? keyPayload(configMapValues(cm), r.items, mode, !!r.optional, (k) => `configmap references non-existent config key: ${k}`) : new Map();
        } else if (p.secret) {
          const r = p.secret as { name?: string; items?: KeyToPath[]; optional?: boolean };
          const sec = lookup(objects.secrets, r.name ?? '', !!r.optional, notFound.secret(r.name ?? ''));
          part = sec ? keyPayload(secretValues(sec), r.items, mode, !!r.optional, (k) => `references non-existent secret key: ${k}`) : new Map();
        } else if (p.downwardAPI) {
          part = downwardPayload(pod, (p.downwardAPI as { items?: DownwardAPIFile[] }).items, mode, allocatable);
        } else if (p.serviceAccountToken) {
          // pkg/volume/projected: the token the token manager holds for this audience and
          // lifetime, with the volume's mode (upstream's 0600 under an fsGroup goes with the
          // ownership change Bulkhead does not make, so the mode is left as it is).
          const r = p.serviceAccountToken as ServiceAccountTokenProjection;
          const got = objects.serviceAccountTokens?.get(projectionKey(r));
          if (!got) throw new VolumeSetUpError('failed to fetch token: the node agent has no API client to ask for it');
          if ('error' in got) throw new VolumeSetUpError(got.error);
          part = new Map([[r.path ?? '', { data: Buffer.from(got.token, 'utf8'), mode }]]);
        } else if (p.clusterTrustBundle) {
          throw new VolumeSetUpError("clusterTrustBundle projections are not supported by Bulkhead's node agent");
        } else continue;
        for (const [k, f] of part) out.set(k, f);
      }
      return out;
    }
    default:
      throw new VolumeSetUpError(`volume ${v.name} has no projected-file source`);
  }
}

/** atomic_writer.go validatePath: a relative path, no `..` element, not starting with `..`. */
export function checkPayloadPath(path: string): string | undefined {
  if (path === '') return 'invalid path: must not be empty';
  if (path.length > 4096) return `invalid path: must be less than or equal to 4096 characters`;
  if (path.startsWith('/')) return 'invalid path: must be relative path';
  const parts = path.split('/');
  if (parts.some((p) => p === '..')) return "invalid path: must not contain '..'";
  if (parts[0]!.startsWith('..')) return "invalid path: must not start with '..'";
  return undefined;
}

/** The payload with cleaned paths (Go's path.Clean of each), refusing the invalid ones. */
export function checkedPayload(payload: Payload): Payload {
  const out: Payload = new Map();
  for (const [p, f] of payload) {
    const why = checkPayloadPath(p);
    if (why) throw new VolumeSetUpError(why);
    out.set(p.split('/').filter((x) => x !== '' && x !== '.').join('/'), f);
  }
  return out;
}

/** The user-visible entries of the volume's directory: each path's first component, a symlink into ..data. */
export function userVisiblePaths(payload: Payload): string[] {
  return [...new Set([...payload.keys()].map((p) => p.split('/')[0]!))].sort();
}

/** The timestamped directory the writer fills before the swap: `..YYYY_MM_DD_HH_MM_SS.<suffix>` (UTC). */
export function timestampedDirName(at: Date, suffix: string): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `..${at.getUTCFullYear()}_${two(at.getUTCMonth() + 1)}_${two(at.getUTCDate())}_${two(at.getUTCHours())}_${two(at.getUTCMinutes())}_${two(at.getUTCSeconds())}.${suffix}`;
}

/** atomic_writer.go shouldWritePayload: whether the files differ from what ..data holds. */
export function payloadDiffers(next: Payload, current: Payload | undefined): boolean {
  if (!current || current.size !== next.size) return true;
  for (const [p, f] of next) {
    const c = current.get(p);
    if (!c || c.mode !== f.mode || !c.data.equals(f.data)) return true;
  }
  return false;
}

/** hostPath types and the message checkType gives for a path that is not what the type asks. */
export const hostPathTypes: Record<string, string | undefined> = {
  '': undefined,
  DirectoryOrCreate: 'directory',
  Directory: 'directory',
  FileOrCreate: 'file',
  File: 'file',
  Socket: 'socket file',
  CharDevice: 'character device',
  BlockDevice: 'block device',
};

/** What a hostPath of `type` must be, given what is at the path now; the error, or what to create. */
export function hostPathCheck(path: string, type: string | undefined, found: 'missing' | 'directory' | 'file' | 'socket' | 'char' | 'block' | 'other'): { create?: 'directory' | 'file'; error?: string } {
  const t = type ?? '';
  if (!(t in hostPathTypes)) return { error: `hostPath type check failed: ${path}: unknown hostPath type ${JSON.stringify(t)}` };
  if (t === '') return {};
  if (found === 'missing' && t === 'DirectoryOrCreate') return { create: 'directory' };
  if (found === 'missing' && t === 'FileOrCreate') return { create: 'file' };
  const want = { DirectoryOrCreate: 'directory', Directory: 'directory', FileOrCreate: 'file', File: 'file', Socket: 'socket', CharDevice: 'char', BlockDevice: 'block' }[t];
  return found === want ? {} : { error: `hostPath type check failed: ${path} is not a ${hostPathTypes[t]}` };
}
