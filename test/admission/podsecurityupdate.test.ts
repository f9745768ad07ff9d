// isSignificantPodUpdate as Pod Security applies it to pods/ephemeralcontainers writes: the pod
// is evaluated again only when an ephemeral container was added or removed or its image changed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSignificantEphemeralUpdate } from '../../src/admission/podsecurity.js';
import type { EphemeralContainer, Pod } from '../../src/api/types.js';

const pod = (...ecs: EphemeralContainer[]): Pod => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'busybox' }], ...(ecs.length ? { ephemeralContainers: ecs } : {}) } }) as Pod;
const ec = (name: string, image = 'busybox', extra: Partial<EphemeralContainer> = {}): EphemeralContainer => ({ name, image, ...extra });

const rows: { name: string; old: Pod; next: Pod; want: boolean }[] = [
  { name: 'the first ephemeral container added', old: pod(), next: pod(ec('d')), want: true },
  { name: 'a second one added', old: pod(ec('d')), next: pod(ec('d'), ec('e')), want: true },
  { name: 'one removed', old: pod(ec('d')), next: pod(), want: true },
  { name: 'an image changed', old: pod(ec('d')), next: pod(ec('d', 'alpine')), want: true },
  { name: 'nothing changed', old: pod(ec('d')), next: pod(ec('d')), want: false },
  { name: 'another field changed (validation refuses it; Pod Security does not look)', old: pod(ec('d')), next: pod(ec('d', 'busybox', { tty: true })), want: false },
];

describe('isSignificantEphemeralUpdate', () => {
  for (const r of rows) it(r.name, () => assert.equal(isSignificantEphemeralUpdate(r.next, r.old), r.want));
});
