// applyStrategicMergePatch (src/apiserver/patch/strategicmerge.ts) on Pod-like objects: one row
// per rule, then the errors (texts and codes as kube-apiserver answers), then the exact body
// kubectl's client-side apply sends (kubectl-protocol.md §7).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from '../../../src/apiserver/patch/strategicmerge.js';
import { StrategicMergePatchError } from '../../../src/apiserver/patch/errors.js';
import { podSchema } from './podschema.js';

interface Row {
  name: string;
  original: unknown;
  patch: unknown;
  want: unknown;
}

const c = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name, ...extra });
const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'app' }): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec });

const rules: Row[] = [
  {
    name: 'containers merge by name: a listed container is merged in place, others kept',
    original: pod({ containers: [c('a', { image: 'a:1', ports: [{ containerPort: 80 }] }), c('b', { image: 'b:1' })] }),
    patch: { spec: { containers: [c('a', { image: 'a:2' })] } },
    want: pod({ containers: [c('a', { image: 'a:2', ports: [{ containerPort: 80 }] }), c('b', { image: 'b:1' })] }),
  },
  {
    name: 'containers merge by name: without $setElementOrder a new container goes before the server-only ones (upstream mergeSortedSlice)',
    original: pod({ containers: [c('a')] }),
    patch: { spec: { containers: [c('b', { image: 'b:1' })] } },
    want: pod({ containers: [c('b', { image: 'b:1' }), c('a')] }),
  },
  {
    name: 'initContainers, ephemeralContainers and imagePullSecrets merge by name',
    original: pod({ initContainers: [c('i1'), c('i2')], ephemeralContainers: [c('e1')], imagePullSecrets: [{ name: 's1' }] }),
    patch: { spec: { initContainers: [c('i2', { image: 'x' })], ephemeralContainers: [c('e2')], imagePullSecrets: [{ name: 's2' }] } },
    want: pod({ initContainers: [c('i1'), c('i2', { image: 'x' })], ephemeralContainers: [c('e2'), c('e1')], imagePullSecrets: [{ name: 's2' }, { name: 's1' }] }),
  },
  {
    name: 'ports merge by containerPort',
    original: pod({ containers: [c('a', { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] })] }),
    patch: { spec: { containers: [c('a', { ports: [{ containerPort: 443, name: 'https' }, { containerPort: 8080 }] })] } },
    want: pod({ containers: [c('a', { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }, { containerPort: 8080 }] })] }),
  },
  {
    name: 'volumeMounts merge by mountPath',
    original: pod({ containers: [c('a', { volumeMounts: [{ name: 'v', mountPath: '/data' }] })] }),
    patch: { spec: { containers: [c('a', { volumeMounts: [{ mountPath: '/data', readOnly: true }, { name: 'w', mountPath: '/w' }] })] } },
    want: pod({ containers: [c('a', { volumeMounts: [{ name: 'v', mountPath: '/data', readOnly: true }, { name: 'w', mountPath: '/w' }] })] }),
  },
  {
    name: 'env merges by name',
    original: pod({ containers: [c('a', { env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] })] }),
    patch: { spec: { containers: [c('a', { env: [{ name: 'B', value: '3' }] })] } },
    want: pod({ containers: [c('a', { env: [{ name: 'A', value: '1' }, { name: 'B', value: '3' }] })] }),
  },
  {
    name: 'volumes merge by name',
    original: pod({ volumes: [{ name: 'v1', emptyDir: {} }] }),
    patch: { spec: { volumes: [{ name: 'v2', hostPath: { path: '/x' } }] } },
    want: pod({ volumes: [{ name: 'v2', hostPath: { path: '/x' } }, { name: 'v1', emptyDir: {} }] }),
  },
  {
    name: 'a list without patch strategy is replaced: tolerations',
    original: pod({ tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }] }),
    patch: { spec: { tolerations: [{ key: 'c', operator: 'Exists' }] } },
    want: pod({ tolerations: [{ key: 'c', operator: 'Exists' }] }),
  },
  {
    name: 'a list-type map without patch strategy is replaced: securityContext.ulimits',
    original: pod({ containers: [c('a', { securityContext: { ulimits: [{ name: 'nofile', soft: 1, hard: 2 }, { name: 'nproc', soft: 3, hard: 4 }] } })] }),
    patch: { spec: { containers: [c('a', { securityContext: { ulimits: [{ name: 'nofile', soft: 5, hard: 6 }] } })] } },
    want: pod({ containers: [c('a', { securityContext: { ulimits: [{ name: 'nofile', soft: 5, hard: 6 }] } })] }),
  },
  {
    name: 'atomic scalar lists are replaced: command',
    original: pod({ containers: [c('a', { command: ['sh', '-c', 'x'] })] }),
    patch: { spec: { containers: [c('a', { command: ['y'] })] } },
    want: pod({ containers: [c('a', { command: ['y'] })] }),
  },
  {
    name: 'a merge-strategy scalar list is a set union: metadata.finalizers (patch order first, server-only values after)',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { finalizers: ['c', 'a'] } },
    want: { metadata: { finalizers: ['c', 'a', 'b'] } },
  },
  {
    name: '$deleteFromPrimitiveList/finalizers removes values',
    original: { metadata: { finalizers: ['a', 'b', 'c', 'b'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'zzz'] } },
    want: { metadata: { finalizers: ['a', 'c'] } },
  },
  {
    name: '$deleteFromPrimitiveList of a list the object lacks adds nothing',
    original: { metadata: {} },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: { metadata: {} },
  },
  {
    name: '$setElementOrder with $deleteFromPrimitiveList: the kubectl form of a finalizer change',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'], finalizers: ['c'] } },
    want: { metadata: { finalizers: ['c', 'a'] } },
  },
  {
    name: 'maps merge key by key: labels',
    original: { metadata: { labels: { app: 'web', tier: 'v1' } } },
    patch: { metadata: { labels: { tier: 'v2', env: 'prod' } } },
    want: { metadata: { labels: { app: 'web', tier: 'v2', env: 'prod' } } },
  },
  {
    name: 'null deletes a map key',
    original: { metadata: { labels: { app: 'web', tier: 'v1' } } },
    patch: { metadata: { labels: { tier: null } } },
    want: { metadata: { labels: { app: 'web' } } },
  },
  {
    name: 'null for a key the object lacks is ignored',
    original: { metadata: { labels: { app: 'web' } } },
    patch: { metadata: { labels: { nope: null } } },
    want: { metadata: { labels: { app: 'web' } } },
  },
  {
    name: 'null deletes a whole field: spec.activeDeadlineSeconds',
    original: pod({ activeDeadlineSeconds: 30, restartPolicy: 'Always' }),
    patch: { spec: { activeDeadlineSeconds: null } },
    want: pod({ restartPolicy: 'Always' }),
  },
  {
    name: 'nulls inside a new subtree are dropped',
    original: pod({}),
    patch: { spec: { securityContext: { runAsUser: 1000, fsGroup: null } } },
    want: pod({ securityContext: { runAsUser: 1000 } }),
  },
  {
    name: 'a value of another JSON type replaces the original',
    original: { metadata: { labels: { a: 'b' } } },
    patch: { metadata: { labels: 'oops' } },
    want: { metadata: { labels: 'oops' } },
  },
  {
    name: '$patch: replace on a map replaces it',
    original: { metadata: { labels: { app: 'web', tier: 'v1' } } },
    patch: { metadata: { labels: { $patch: 'replace', only: 'this' } } },
    want: { metadata: { labels: { only: 'this' } } },
  },
  {
    name: '$patch: delete on a map empties it',
    original: pod({ securityContext: { runAsUser: 1 }, restartPolicy: 'Always' }),
    patch: { spec: { securityContext: { $patch: 'delete' } } },
    want: pod({ securityContext: {}, restartPolicy: 'Always' }),
  },
  {
    name: 'a $patch-marked map in a new subtree is dropped',
    original: pod({}),
    patch: { spec: { securityContext: { $patch: 'delete' }, restartPolicy: 'Never' } },
    want: pod({ restartPolicy: 'Never' }),
  },
  {
    name: '$patch: delete on a list element deletes it by merge key',
    original: pod({ containers: [c('a'), c('b'), c('c')] }),
    patch: { spec: { containers: [{ name: 'b', $patch: 'delete' }] } },
    want: pod({ containers: [c('a'), c('c')] }),
  },
  {
    name: '$patch: replace in a merging list replaces the whole list',
    original: pod({ containers: [c('a'), c('b')] }),
    patch: { spec: { containers: [{ $patch: 'replace' }, c('z', { image: 'z' })] } },
    want: pod({ containers: [c('z', { image: 'z' })] }),
  },
  {
    name: '$setElementOrder orders the merged list',
    original: pod({ containers: [c('a'), c('b'), c('c')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }] } },
    want: pod({ containers: [c('c'), c('a'), c('b')] }),
  },
  {
    name: '$setElementOrder places a server-only item before the first listed item that followed it on the server',
    original: pod({ containers: [c('a'), c('sidecar'), c('b')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }, { name: 'new' }], containers: [c('new')] } },
    want: pod({ containers: [c('sidecar'), c('b'), c('a'), c('new')] }),
  },
  {
    name: '$setElementOrder keeps a trailing server-only item last',
    original: pod({ containers: [c('a'), c('b'), c('injected')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
    want: pod({ containers: [c('b'), c('a'), c('injected')] }),
  },
  {
    name: '$setElementOrder with a deletion and an addition (kubectl renaming a container)',
    original: pod({ containers: [c('old', { image: 'x' })] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'new' }], containers: [c('new', { image: 'y' }), { name: 'old', $patch: 'delete' }] } },
    want: pod({ containers: [c('new', { image: 'y' })] }),
  },
  {
    name: '$retainKeys clears the keys it does not list: a volume switching source',
    original: pod({ volumes: [{ name: 'v', emptyDir: {} }] }),
    patch: { spec: { volumes: [{ name: 'v', hostPath: { path: '/data' }, $retainKeys: ['hostPath', 'name'] }] } },
    want: pod({ volumes: [{ name: 'v', hostPath: { path: '/data' } }] }),
  },
  {
    name: 'fields the schema does not know merge as plain maps',
    original: { spec: { widget: { a: 1, nested: { b: 2 } } } },
    patch: { spec: { widget: { nested: { c: 3 } } } },
    want: { spec: { widget: { a: 1, nested: { b: 2, c: 3 } } } },
  },
  {
    name: 'lists the schema does not know are replaced',
    original: { spec: { gadgets: [{ name: 'a' }, { name: 'b' }] } },
    patch: { spec: { gadgets: [{ name: 'b', x: 1 }] } },
    want: { spec: { gadgets: [{ name: 'b', x: 1 }] } },
  },
  {
    name: 'maps typed as atomic still merge (SMP only looks at the patch strategy): nodeSelector',
    original: pod({ nodeSelector: { a: '1' } }),
    patch: { spec: { nodeSelector: { b: '2' } } },
    want: pod({ nodeSelector: { a: '1', b: '2' } }),
  },
  {
    name: 'an empty patch changes nothing',
    original: pod({ containers: [c('a', { image: 'x' })] }),
    patch: {},
    want: pod({ containers: [c('a', { image: 'x' })] }),
  },
  {
    name: '$patch: delete at the top empties the object',
    original: pod({ containers: [c('a')] }),
    patch: { $patch: 'delete' },
    want: {},
  },
];

describe('strategic merge patch rules', () => {
  for (const r of rules) {
    it(r.name, () => {
      const before = JSON.stringify([r.original, r.patch]);
      assert.deepEqual(applyStrategicMergePatch(r.original, r.patch, podSchema), r.want);
      assert.equal(JSON.stringify([r.original, r.patch]), before, 'inputs must not be modified');
    });
  }
});

interface ErrRow {
  name: string;
  original: unknown;
  patch: unknown;
  message: string;
  code: 400 | 422;
}

const errors: ErrRow[] = [
  { name: 'a patch that is not a JSON object', original: {}, patch: [1], message: 'invalid JSON document', code: 400 },
  { name: 'an object that is not a JSON object', original: 'x', patch: {}, message: 'invalid JSON document', code: 400 },
  { name: 'unknown $patch value on a map', original: { metadata: { labels: {} } }, patch: { metadata: { labels: { $patch: 'frob' } } }, message: 'unknown patch type: frob in map: map[$patch:frob]', code: 400 },
  { name: '$patch: merge on a map is refused, as upstream refuses it', original: { metadata: { labels: {} } }, patch: { metadata: { labels: { $patch: 'merge' } } }, message: 'unknown patch type: merge in map: map[$patch:merge]', code: 400 },
  { name: '$patch: merge in a merging list is refused', original: pod({ containers: [c('a')] }), patch: { spec: { containers: [{ $patch: 'merge' }] } }, message: 'merging lists cannot yet be specified in the patch', code: 400 },
  { name: 'unknown $patch value in a merging list', original: pod({ containers: [c('a')] }), patch: { spec: { containers: [{ name: 'a', $patch: 'frob' }] } }, message: 'unknown patch type: frob in map: map[$patch:frob name:a]', code: 400 },
  { name: 'a list element without its merge key', original: pod({ containers: [c('a')] }), patch: { spec: { containers: [{ image: 'x' }] } }, message: 'map: map[image:x] does not contain declared merge key: name', code: 400 },
  { name: '$patch: delete without the merge key', original: pod({ containers: [c('a')] }), patch: { spec: { containers: [{ $patch: 'delete' }] } }, message: 'map: map[$patch:delete] does not contain declared merge key: name', code: 400 },
  {
    name: 'a patch list out of $setElementOrder order',
    original: pod({ containers: [c('a'), c('b')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [c('b'), c('a')] } },
    message: "The order in patch list:\n[map[name:b] map[name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n",
    code: 400,
  },
  { name: '$setElementOrder that is not a list', original: pod({}), patch: { spec: { '$setElementOrder/containers': 'x' } }, message: 'expected a []interface {}, but received a string', code: 400 },
  { name: 'a malformed $setElementOrder key', original: pod({}), patch: { spec: { $setElementOrderX: [] } }, message: 'invalid patch format of setElementOrder list', code: 400 },
  { name: 'a malformed $deleteFromPrimitiveList key', original: { metadata: {} }, patch: { metadata: { $deleteFromPrimitiveListX: ['a'] } }, message: 'invalid patch format of primitive list', code: 400 },
  { name: '$retainKeys that is not a list', original: pod({ volumes: [{ name: 'v' }] }), patch: { spec: { volumes: [{ name: 'v', $retainKeys: 'name' }] } }, message: 'invalid patch format of retainKeys', code: 400 },
  {
    name: '$retainKeys not listing a key the patch sets',
    original: pod({ volumes: [{ name: 'v' }] }),
    patch: { spec: { volumes: [{ name: 'v', hostPath: {}, $retainKeys: ['name'] }] } },
    message: 'invalid patch format of retainKeys',
    code: 400,
  },
  { name: 'lists of lists', original: { metadata: { finalizers: [['a']] } }, patch: { metadata: { finalizers: [['b']] } }, message: 'lists of lists are not supported', code: 422 },
  { name: 'mixed element types in a merging list', original: { metadata: { finalizers: ['a'] } }, patch: { metadata: { finalizers: [1] } }, message: 'list element types are not identical: [[a] [1]]', code: 400 },
];

describe('strategic merge patch errors', () => {
  for (const r of errors) {
    it(r.name, () => {
      assert.throws(
        () => applyStrategicMergePatch(r.original, r.patch, podSchema),
        (e: unknown) => {
          assert.ok(e instanceof StrategicMergePatchError);
          assert.equal(e.message, r.message);
          assert.equal(e.code, r.code);
          return true;
        },
      );
    });
  }
  it('maps to Status like kube-apiserver: 400 BadRequest, 422 generic Invalid; upstream\'s 500s are 400 BadRequest', () => {
    const status = (patch: unknown, original: unknown = {}): unknown => {
      try {
        applyStrategicMergePatch(original, patch, podSchema);
      } catch (e) {
        const s = (e as StrategicMergePatchError).toStatus();
        return [s.code, s.reason, s.message];
      }
      return undefined;
    };
    assert.deepEqual(status([]), [400, 'BadRequest', 'invalid JSON document']);
    assert.deepEqual(status({ metadata: { finalizers: [['b']] } }, { metadata: { finalizers: [['a']] } }), [422, 'Invalid', 'the server rejected our request due to an error in our request']);
    assert.deepEqual(status({ $patch: 'frob' }), [400, 'BadRequest', 'unknown patch type: frob in map: map[$patch:frob]']);
  });
});

describe('kubectl client-side apply, second run (kubectl-protocol.md §7)', () => {
  const lastApplied1 = '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"labels":{"tier":"v1"},"name":"app","namespace":"default"},"spec":{"containers":[{"image":"nginx:1.25","name":"nginx"}]}}\n';
  const lastApplied2 = '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"labels":{"tier":"v2"},"name":"app","namespace":"default"},"spec":{"containers":[{"image":"nginx:1.26","name":"nginx"}]}}\n';
  const live = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'app', namespace: 'default', uid: 'u-1', resourceVersion: '120', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied1 }, labels: { tier: 'v1' } },
    spec: {
      containers: [{ name: 'nginx', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} }],
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
    status: { phase: 'Running', qosClass: 'BestEffort' },
  };
  // The body kubectl sends (observed), with the label change and the image change.
  const body = {
    metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied2 }, labels: { tier: 'v2' } },
    spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ image: 'nginx:1.26', name: 'nginx' }] },
  };

  it('updates the label, the image and the annotation, and keeps server-set fields', () => {
    const got = applyStrategicMergePatch(live, body, podSchema);
    const want = structuredClone(live);
    want.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = lastApplied2;
    want.metadata.labels.tier = 'v2';
    want.spec.containers[0].image = 'nginx:1.26';
    assert.deepEqual(got, want);
  });

  it('round-trips the annotation byte for byte', () => {
    const got = applyStrategicMergePatch(live, body, podSchema) as { metadata: { annotations: Record<string, string> } };
    assert.equal(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'], lastApplied2);
  });
});
