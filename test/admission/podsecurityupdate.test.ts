// isSignificantPodUpdate, as upstream pod-security-admission admission/admission.go defines it: a
// pod update (through the pod or a subresource such as pods/ephemeralcontainers) is evaluated
// again only when the container or init container count changed, one of their images changed
// (by position), or an ephemeral container was added or its image changed (matched by name).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSignificantPodUpdate } from '../../src/admission/podsecurity.js';
import type { Container, EphemeralContainer, Pod } from '../../src/api/types.js';

const pod = (...ecs: EphemeralContainer[]): Pod => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'busybox' }], ...(ecs.length ? { ephemeralContainers: ecs } : {}) } }) as Pod;
const ec = (name: string, image = 'busybox', extra: Partial<EphemeralContainer> = {}): EphemeralContainer => ({ name, image, ...extra });
const withSpec = (spec: Record<string, unknown>): Pod => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'busybox' }], ...spec } }) as Pod;
const ctr = (name: string, image = 'busybox', extra: Partial<Container> = {}): Container => ({ name, image, ...extra });

const rows: { name: string; old: Pod; next: Pod; want: boolean }[] = [
  { name: 'the first ephemeral container added', old: pod(), next: pod(ec('d')), want: true },
  { name: 'a second one added', old: pod(ec('d')), next: pod(ec('d'), ec('e')), want: true },
  { name: 'a second one added in front (strategic merge order)', old: pod(ec('d')), next: pod(ec('e'), ec('d')), want: true },
  // Upstream looks only at the new pod's ephemeral containers (validation refuses a removal anyway).
  { name: 'one removed is not significant', old: pod(ec('d')), next: pod(), want: false },
  { name: 'an ephemeral image changed', old: pod(ec('d')), next: pod(ec('d', 'alpine')), want: true },
  { name: 'nothing changed', old: pod(ec('d')), next: pod(ec('d')), want: false },
  { name: 'another ephemeral field changed (validation refuses it; Pod Security does not look)', old: pod(ec('d')), next: pod(ec('d', 'busybox', { tty: true })), want: false },
  // upstream admission_test.go TestValidatePodAndController "insignificant update" / "significant update denied|allowed"
  { name: 'tolerations added: insignificant update', old: withSpec({}), next: withSpec({ tolerations: [{ operator: 'Exists' }] }), want: false },
  { name: 'a container image changed: significant update', old: withSpec({}), next: withSpec({ containers: [ctr('app', 'https://example.com/a-different-image')] }), want: true },
  { name: 'an init container image changed', old: withSpec({ initContainers: [ctr('i')] }), next: withSpec({ initContainers: [ctr('i', 'alpine')] }), want: true },
  { name: 'a container added', old: withSpec({}), next: withSpec({ containers: [ctr('app'), ctr('b')] }), want: true },
  { name: 'an init container added', old: withSpec({}), next: withSpec({ initContainers: [ctr('i')] }), want: true },
  { name: 'a container field other than the image changed', old: withSpec({}), next: withSpec({ containers: [ctr('app', 'busybox', { securityContext: { privileged: true } })] }), want: false },
  { name: 'annotations changed', old: withSpec({}), next: { ...withSpec({}), metadata: { name: 'p', annotations: { a: 'b' } } } as Pod, want: false },
];

describe('isSignificantPodUpdate', () => {
  for (const r of rows) it(r.name, () => assert.equal(isSignificantPodUpdate(r.next, r.old), r.want));
});
