// podshelper.VisitContainersWithPath (pkg/apis/core/pods/helpers.go): every container of a pod
// spec with its path, init containers first, then the regular ones, then the ephemeral ones
// (the order validation reports their errors in).

import type { FieldPath } from '../fielderrors.js';
import type { Container, PodSpec } from '../types.js';

const lists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Calls `visit` for each container until it returns false. */
export function visitContainersWithPath(spec: PodSpec, specPath: FieldPath, visit: (c: Container, path: FieldPath) => boolean | void): void {
  for (const list of lists) {
    const cs = spec[list];
    if (!Array.isArray(cs)) continue;
    const p = specPath.child(list);
    for (let i = 0; i < cs.length; i++) {
      // A null entry decodes as Go's zero Container.
      if (visit((cs[i] ?? {}) as Container, p.index(i)) === false) return;
    }
  }
}
