// The one piece of API defaulting that changes a Pod Security outcome.
//
// Upstream PSA runs after the API server has defaulted (and validated) the pod, so its checks
// never see a volume without a source: SetDefaults_Volume turns one into `emptyDir: {}`. Rather
// than teach `restrictedVolumes` a rule upstream's check does not have, the check stays faithful
// (a source-less volume is "unknown") and this helper applies the defaulting, exactly as the API
// server would, for callers that evaluate raw objects (and for the upstream fixtures, which are
// raw). Other defaults only change message text (e.g. hostPort defaulting to containerPort on
// hostNetwork pods) and are deliberately not applied.
//
// Pure: the input is never mutated; untouched parts are shared with the result.

import type { Pod, PodSpec } from '../api/types.js';
import { has, rec } from './podfields.js';

/** True for a volume object with no source: no key besides `name` holds a non-null value. */
export function isSourcelessVolume(volume: unknown): boolean {
  const v = rec(volume);
  if (!v) return false;
  return Object.keys(v).every((k) => k === 'name' || !has(v[k]));
}

/** The spec with every source-less volume given `emptyDir: {}`; other input is returned as is. */
export function defaultPodSpecForPodSecurity<T extends PodSpec | null | undefined>(spec: T): T {
  const s = rec(spec);
  if (!s || !Array.isArray(s.volumes) || !s.volumes.some(isSourcelessVolume)) return spec;
  const volumes = s.volumes.map((v: unknown) => (isSourcelessVolume(v) ? { ...rec(v), emptyDir: {} } : v));
  return { ...s, volumes } as unknown as T;
}

/** The pod with its spec passed through defaultPodSpecForPodSecurity. */
export function defaultPodForPodSecurity<T extends Pod | null | undefined>(pod: T): T {
  const p = rec(pod);
  if (!p) return pod;
  const spec = p.spec as PodSpec | undefined;
  const defaulted = defaultPodSpecForPodSecurity(spec);
  return defaulted === spec ? pod : ({ ...p, spec: defaulted } as unknown as T);
}
