// The `pod-template-hash` of a Deployment's ReplicaSets (pkg/controller/controller_utils.go
// ComputeHash, k8s.io/apimachinery/pkg/util/rand SafeEncodeString): FNV-1a 32 over the printed
// template, then the collision count as 8 little-endian bytes when the Deployment has one, the
// 32-bit sum in decimal, each digit mapped to an unambiguous letter or digit.
//
// Deliberate deviation: upstream prints the template with go-spew's `%#v` of the Go struct
// (every field of PodTemplateSpec in declaration order, nil pointers included), which changes
// whenever a Kubernetes release adds a field; Bulkhead prints the template as JSON with sorted
// keys and no absent fields. The hash is therefore stable and deterministic (the same template
// always gives the same name, across restarts and servers) but not the same string as a given
// kube-controller-manager would compute. Nothing compares the two: the controller finds its
// ReplicaSets by comparing templates (EqualIgnoreHash), never by recomputing the hash.

import { stableJSON } from '../api/stablejson.js';
import type { PodTemplateSpec } from '../api/types.js';

/** apps.DefaultDeploymentUniqueLabelKey. */
export const podTemplateHashLabel = 'pod-template-hash';

const utf8 = new TextEncoder();
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each byte to alphanums[b % 27] (no vowels, no 0/1/3: no words, no look-alikes). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const b of utf8.encode(s)) out += alphanums[b % alphanums.length];
  return out;
}

/** FNV-1a, 32 bits, continuing from `h` (the offset basis by default). */
export function fnv32a(bytes: Uint8Array, h = 0x811c9dc5): number {
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** ComputeHash(template, collisionCount). */
export function computeHash(template: PodTemplateSpec, collisionCount?: number): string {
  let h = fnv32a(utf8.encode(stableJSON(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(b, h);
  }
  return safeEncodeString(String(h));
}
