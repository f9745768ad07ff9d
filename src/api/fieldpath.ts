// A pod's metadata fields by path, as upstream's pkg/fieldpath (ExtractFieldPathAsString,
// FormatMap): one implementation for the downward API volume files and the env fieldRefs
// (which add the spec.* and status.* fields the kubelet resolves itself).

import { goQuote } from './goquote.js';
import type { Pod } from './types.js';

/** fieldpath.FormatMap: `key="value"` lines in key order, Go's %q quoting. */
export function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${goQuote(m![k]!)}`)
    .join('\n');
}

/** fieldpath.ExtractFieldPathAsString over a pod's metadata; undefined for a path it does not name. */
export function extractFieldPathAsString(pod: Pod, path: string): string | undefined {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations)?.[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name':
      return pod.metadata.name ?? '';
    case 'metadata.namespace':
      return pod.metadata.namespace ?? 'default';
    case 'metadata.uid':
      return pod.metadata.uid ?? '';
    case 'metadata.labels':
      return formatMap(pod.metadata.labels);
    case 'metadata.annotations':
      return formatMap(pod.metadata.annotations);
    default:
      return undefined;
  }
}
