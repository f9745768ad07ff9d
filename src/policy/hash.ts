// The hashes the workload controllers name things by: hash/fnv New32 and New32a,
// k8s.io/apimachinery/pkg/util/rand SafeEncodeString, and pkg/controller/controller_utils.go
// ComputeHash (the `pod-template-hash` of a Deployment's ReplicaSets and the
// `controller-revision-hash` of a DaemonSet's pods). Pure.
//
// Deliberate deviation (ComputeHash): upstream prints the template with go-spew's `%#v` of the Go
// struct (every field of PodTemplateSpec in declaration order, nil pointers included), which
// changes whenever a Kubernetes release adds a field; Bulkhead prints the template as JSON with
// sorted keys and no absent fields (stableJSON). The hash is stable and deterministic (the same
// template always gives the same name, across restarts and servers) but not the string a given
// kube-controller-manager would compute. Nothing compares the two: the controllers find their
// ReplicaSets and revisions by comparing templates, never by recomputing the hash.

import { stableJSON } from '../api/stablejson.js';
import type { PodTemplateSpec } from '../api/types.js';

const fnvOffset = 0x811c9dc5;
const fnvPrime = 0x01000193;

/** The UTF-8 bytes of a string, as Go's []byte(s). */
export function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** hash/fnv New32 (FNV-1: multiply, then xor), continuing from `h` (the offset basis by default). */
export function fnv32(bytes: Uint8Array, h = fnvOffset): number {
  for (const b of bytes) h = (Math.imul(h, fnvPrime) ^ b) >>> 0;
  return h >>> 0;
}

/** hash/fnv New32a (FNV-1a: xor, then multiply), continuing from `h` (the offset basis by default). */
export function fnv32a(bytes: Uint8Array, h = fnvOffset): number {
  for (const b of bytes) h = Math.imul(h ^ b, fnvPrime) >>> 0;
  return h >>> 0;
}

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * rand.SafeEncodeString: each rune (code point, as Go's `range []rune(s)`) to alphanums[r % 27]:
 * no vowels, no 0/1/3, so no words and no look-alikes. Callers pass decimal digits.
 */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += alphanums[ch.codePointAt(0)! % alphanums.length];
  return out;
}

/**
 * ComputeHash(template, collisionCount): FNV-1a 32 over the printed template, then, when the
 * owner has a collision count, its 8 little-endian bytes (binary.LittleEndian.PutUint32 of the
 * int32 into the low 4, the rest zero); the 32-bit sum in decimal, safely encoded.
 */
export function computeHash(template: PodTemplateSpec | undefined, collisionCount?: number | null): string {
  let h = fnv32a(utf8(stableJSON(template ?? {})));
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(b, h);
  }
  return safeEncodeString(String(h));
}
