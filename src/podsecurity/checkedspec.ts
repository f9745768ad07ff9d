// What the checks read of a pod spec, for remembering outcomes: pods that differ only in what no
// check reads must share one evaluation. Every pod carries a ServiceAccount token volume with a
// random name (`kube-api-access-xxxxx`) and a mount of it in each container, so a key of the
// whole spec would never repeat and the outcome cache would miss on every pod.

import type { PodSpecInput } from './podfields.js';
import { ALLOWED_VOLUME_SOURCES, volumeSourceKeys } from './checks/restrictedVolumes.js';

const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/**
 * Whether no check reads the volume's name: it has a source and every source is allowed at
 * restricted, so neither restrictedVolumes nor hostPathVolumes (hostPath is not allowed) can
 * name it in a message, and no check reads anything else of it than which sources it has.
 */
function nameUnread(volume: unknown): boolean {
  const sources = volumeSourceKeys(volume);
  return sources.length > 0 && sources.every((k) => ALLOWED_VOLUME_SOURCES.has(k));
}

function withoutMounts(container: unknown): unknown {
  if (container === null || typeof container !== 'object' || Array.isArray(container) || !('volumeMounts' in container)) return container;
  const { volumeMounts: _unread, ...rest } = container as Record<string, unknown>;
  return rest;
}

/**
 * The spec as the checks see it: no check reads a container's volumeMounts, nor the name of a
 * volume whose sources are all allowed. A shallow view (the spec itself when it has neither), for
 * a cache key only: the checks still run on the real spec.
 */
export function checkedSpecView(spec: PodSpecInput): PodSpecInput {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return spec;
  const s = spec as unknown as Record<string, unknown>;
  let view: Record<string, unknown> | undefined;
  if (Array.isArray(s.volumes) && s.volumes.some(nameUnread)) {
    view = { ...s, volumes: s.volumes.map((v) => (nameUnread(v) ? { ...(v as object), name: '' } : v)) };
  }
  for (const list of containerLists) {
    const cs = s[list];
    if (!Array.isArray(cs) || !cs.some((c) => withoutMounts(c) !== c)) continue;
    view ??= { ...s };
    view[list] = cs.map(withoutMounts);
  }
  return (view ?? spec) as PodSpecInput;
}
