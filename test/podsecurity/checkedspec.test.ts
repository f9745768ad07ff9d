// checkedSpecView: the part of a pod spec the Pod Security checks read, the key under which
// admission remembers an outcome. Rows pin what it leaves out and what it keeps; the upstream
// fixtures (../shared/conformance/psa) pin the claim it rests on: changing what it leaves out
// never changes an evaluation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import type { Pod, PodSpec } from '../../src/api/types.js';
import { aggregateReasons, checkedSpecView, defaultPodForPodSecurity, evaluatePod, parseVersion, type Level } from '../../src/podsecurity/index.js';
import { evaluatePodSecurity } from '../../src/admission/podsecurity.js';

const token = (name: string) => ({
  name,
  projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { configMap: { name: 'kube-root-ca.crt' } }] },
});
const mount = (name: string) => ({ name, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true });

const rows: { rule: string; spec: Record<string, unknown>; view: Record<string, unknown> | 'same' }[] = [
  { rule: 'a spec with no volumes and no mounts is its own view', spec: { containers: [{ name: 'app', image: 'x' }] }, view: 'same' },
  {
    rule: 'an allowed (projected) volume loses its name, keeps its sources',
    spec: { containers: [{ name: 'app', image: 'x' }], volumes: [token('kube-api-access-abcde')] },
    view: { containers: [{ name: 'app', image: 'x' }], volumes: [token('')] },
  },
  {
    rule: 'a hostPath volume keeps its name (hostPathVolumes and restrictedVolumes name it)',
    spec: { containers: [{ name: 'app', image: 'x' }], volumes: [{ name: 'host', hostPath: { path: '/' } }] },
    view: 'same',
  },
  {
    rule: 'a volume with no source keeps its name (restrictedVolumes reports it as "unknown")',
    spec: { containers: [{ name: 'app', image: 'x' }], volumes: [{ name: 'bare' }, { name: 'nulled', emptyDir: null }] },
    view: 'same',
  },
  {
    rule: 'a volume with an allowed and a restricted source keeps its name',
    spec: { containers: [{ name: 'app', image: 'x' }], volumes: [{ name: 'both', emptyDir: {}, nfs: { server: 's', path: '/' } }] },
    view: 'same',
  },
  {
    rule: 'an unknown source key is not allowed: the name stays',
    spec: { containers: [{ name: 'app', image: 'x' }], volumes: [{ name: 'odd', somethingNew: {} }] },
    view: 'same',
  },
  {
    rule: 'volumeMounts leave every kind of container; container names stay (messages name containers)',
    spec: {
      initContainers: [{ name: 'init', image: 'x', volumeMounts: [mount('v')] }],
      containers: [{ name: 'app', image: 'x', volumeMounts: [mount('v')], securityContext: { privileged: true } }],
      ephemeralContainers: [{ name: 'debug', image: 'x', volumeMounts: [mount('v')] }],
    },
    view: {
      initContainers: [{ name: 'init', image: 'x' }],
      containers: [{ name: 'app', image: 'x', securityContext: { privileged: true } }],
      ephemeralContainers: [{ name: 'debug', image: 'x' }],
    },
  },
];

for (const row of rows) {
  test(`checkedSpecView: ${row.rule}`, () => {
    const before = JSON.stringify(row.spec);
    const view = checkedSpecView(row.spec as unknown as PodSpec);
    if (row.view === 'same') assert.equal(view, row.spec);
    else assert.deepEqual(view, row.view);
    assert.equal(JSON.stringify(row.spec), before, 'the spec itself is left as it was');
  });
}

const psaDir = path.resolve(process.cwd(), '..', 'shared', 'conformance', 'psa');

/** The pod with every allowed volume renamed and every container's mounts replaced. */
function variant(spec: PodSpec): PodSpec {
  const s = structuredClone(spec) as unknown as Record<string, unknown>;
  if (Array.isArray(s.volumes)) {
    for (const [i, v] of (s.volumes as Record<string, unknown>[]).entries()) {
      if (v && typeof v === 'object' && (checkedSpecView({ volumes: [v] } as unknown as PodSpec) as { volumes: { name: string }[] }).volumes[0]!.name === '') v.name = `renamed-${i}`;
    }
  }
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of (s[list] as Record<string, unknown>[] | undefined) ?? []) if (c && typeof c === 'object') c.volumeMounts = [mount('renamed-0')];
  }
  return s as unknown as PodSpec;
}

test('upstream fixtures: what checkedSpecView leaves out never changes an evaluation (every fixture, with its allowed volumes renamed and its mounts replaced)', () => {
  const indexPath = path.join(psaDir, 'index.json');
  if (!existsSync(indexPath)) assert.fail(`PSA conformance fixtures not found at ${indexPath} (shared/ must sit beside the repo)`);
  const entries = JSON.parse(readFileSync(indexPath, 'utf8')) as { file: string; level: Level; version: string }[];
  let compared = 0;
  let renamed = 0;
  const diffs: string[] = [];
  for (const e of entries) {
    const pod = defaultPodForPodSecurity(load(readFileSync(path.join(psaDir, e.file), 'utf8')) as Pod);
    const lv = { level: e.level, version: parseVersion(e.version).version };
    const changed = variant(pod.spec!);
    if (JSON.stringify(changed.volumes) !== JSON.stringify(pod.spec!.volumes)) renamed++;
    assert.equal(JSON.stringify(checkedSpecView(changed)), JSON.stringify(checkedSpecView(pod.spec)), `${e.file}: the views differ`);
    const a = aggregateReasons(evaluatePod(lv, pod.metadata, pod.spec));
    const b = aggregateReasons(evaluatePod(lv, pod.metadata, changed));
    if (a !== b) diffs.push(`${e.file}: ${a} | ${b}`);
    compared++;
  }
  assert.equal(compared, entries.length);
  assert.ok(renamed > 0, 'some fixtures carry an allowed volume to rename');
  assert.deepEqual(diffs, []);
});

const restricted = { 'pod-security.kubernetes.io/enforce': 'restricted' };
const pod = (volumes: unknown[]): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'app', image: 'x', volumeMounts: volumes.map((v) => mount((v as { name: string }).name)) }], volumes },
  }) as unknown as Pod;

test('admission: pods that differ only in their token volume name share an outcome; pods that differ in a hostPath volume name are each told their own', () => {
  const a = evaluatePodSecurity(restricted, {}, pod([token('kube-api-access-aaaaa')]));
  const b = evaluatePodSecurity(restricted, {}, pod([token('kube-api-access-bbbbb')]));
  assert.deepEqual(a, b);
  assert.match(a.denied ?? '', /violates PodSecurity "restricted:latest"/);
  const h1 = evaluatePodSecurity(restricted, {}, pod([{ name: 'first', hostPath: { path: '/' } }]));
  const h2 = evaluatePodSecurity(restricted, {}, pod([{ name: 'second', hostPath: { path: '/' } }]));
  assert.match(h1.denied ?? '', /volume "first" uses restricted volume type "hostPath"/);
  assert.match(h2.denied ?? '', /volume "second" uses restricted volume type "hostPath"/);
});
