// The hashes the workload controllers name things by (src/policy/hash.ts): FNV-32 and FNV-32a
// against the published test vectors, rand.SafeEncodeString, and ComputeHash (the
// pod-template-hash of a Deployment's ReplicaSets, the controller-revision-hash of a DaemonSet's
// pods). The pinned hash values are the ones Deployments created before the unification carry:
// a row failing here means every existing Deployment would roll its pods.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeHash, fnv32, fnv32a, safeEncodeString, utf8 } from '../../src/policy/hash.js';

const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };

describe('hashing', () => {
  const rows: [string, () => unknown, unknown][] = [
    ['FNV-32 of nothing is the offset basis', () => fnv32(utf8('')), 0x811c9dc5],
    ['FNV-32 of "a" (FNV-1 vector)', () => fnv32(utf8('a')), 0x050c5d7e],
    ['FNV-32a of nothing is the offset basis', () => fnv32a(utf8('')), 0x811c9dc5],
    ['FNV-32a of "a" (FNV-1a vector)', () => fnv32a(utf8('a')), 0xe40c292c],
    ['FNV-32a of "foobar"', () => fnv32a(utf8('foobar')), 0xbf9cf968],
    ['SafeEncodeString maps digits past the vowels: 0→4 … 9→f', () => safeEncodeString('0123456789'), '456789bcdf'],
    ['SafeEncodeString maps runes, not bytes (Go ranges over []rune)', () => safeEncodeString('é'), 'w'],
    ['ComputeHash of a template is pinned (existing Deployments keep their pod-template-hash)', () => computeHash(t), '686fbf49d8'],
    ['ComputeHash with a collision count is pinned', () => computeHash(t, 1), '6f844cc749'],
    ['ComputeHash prints strings as plain JSON: <, > and & are not HTML-escaped', () => computeHash({ metadata: { annotations: { note: 'a<b&c' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }), '9dc49fddb'],
    ['ComputeHash: the same template in another key order, the same hash', () => computeHash({ spec: { containers: [{ image: 'busybox', name: 'c' }] }, metadata: { labels: { app: 'web' } } }), computeHash(t)],
    ['ComputeHash: a different template, a different hash', () => computeHash({ ...t, spec: { containers: [{ name: 'c', image: 'nginx' }] } }) === computeHash(t), false],
    ['ComputeHash: a collision count of 0 is hashed (only a missing one is not)', () => computeHash(t, 0) === computeHash(t), false],
    ['ComputeHash: a missing template hashes as an empty one', () => computeHash(undefined), computeHash({})],
  ];
  for (const [name, f, want] of rows) test(name, () => assert.deepEqual(f(), want));
});
