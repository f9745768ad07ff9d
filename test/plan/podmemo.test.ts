// `bulkhead plan` plans a pod the same as an earlier one but for its name from that pod's
// remembered outcome, and prints it from that pod's text (plan/podmemo.ts, cli/planjson.ts): its
// output must be, byte for byte, what planning every pod on its own and printing the whole result
// with JSON.stringify (and the YAML and table printers) gives.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkKinds, parseManifests } from '../../src/cli/manifests.js';
import { renderPlan } from '../../src/cli/planoutput.js';
import { planJSONStats, podPlanJSON } from '../../src/cli/planjson.js';
import { featureGatesFlag, podSecurityFlag } from '../../src/cli/flags.js';
import { plan, type PlanOptions, type PlanResult } from '../../src/plan/engine.js';
import { isPlainJSON, PodMemo, plannedFromMemory, podMemoKey, podMemoSize } from '../../src/plan/podmemo.js';
import { defaultEvictionHard, parseEvictionThresholds } from '../../src/policy/eviction.js';
import type { LimitedResource } from '../../src/quota/config.js';

const node: PlanOptions['node'] = { memoryBytes: 16n << 30n, milliCPU: 4000n, cgroupVersion: 2, cgroupDriver: 'cgroupfs', nrOpen: 1048576n };

function options(extra: Partial<PlanOptions> = {}): PlanOptions {
  return { node, gates: featureGatesFlag(undefined), podSecurity: podSecurityFlag('privileged:latest'), evictionHard: parseEvictionThresholds(defaultEvictionHard), now: new Date(0), ...extra };
}

const pod = (name: string | undefined, ns: string, spec: object = {}, meta: object = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { ...(name === undefined ? {} : { name }), namespace: ns, ...meta },
  spec: { containers: [{ name: 'app', image: 'busybox:1.36' }], ...spec },
});
const resources = (r: object) => ({ containers: [{ name: 'app', image: 'busybox:1.36', resources: r }] });
const quota = (ns: string, name: string, hard: Record<string, string>, scopes?: string[]) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: ns }, spec: { hard, ...(scopes ? { scopes } : {}) } });
const namespace = (name: string, labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const yamlDocs = (objects: unknown[]) => objects.map((o) => JSON.stringify(o)).join('\n---\n');

interface Row {
  name: string;
  /** YAML (JSON documents, or YAML text where JSON cannot say it). */
  text: string;
  opts?: Partial<PlanOptions>;
  /** At least this many pods are planned from memory (0: none). */
  fromMemory: number;
  /** Some of those are refused (by ResourceQuota, the one decision made again for each). */
  refusedFromMemory?: boolean;
}

const limited: LimitedResource[] = [{ apiGroup: '', resource: 'pods', matchContains: ['memory'], matchScopes: [] }];

const rows: Row[] = [
  {
    name: 'replicas across namespaces, refused midway by an exceeded quota and by a quota whose names they leave unstated',
    fromMemory: 60,
    refusedFromMemory: true,
    text: yamlDocs([
      quota('a', 'compute', { pods: '25', 'requests.cpu': '2' }, ['NotBestEffort']),
      quota('b', 'memory', { 'limits.memory': '1Gi' }),
      ...times(60, (i) => pod(`web-${i}`, i % 2 ? 'a' : 'b', i % 3 ? resources({ requests: { cpu: '100m' }, limits: { memory: '100Mi' } }) : resources({ limits: { memory: '64Mi', cpu: '1' } }))),
      ...times(10, (i) => pod(`idle-${i}`, 'b')),
    ]),
  },
  {
    name: 'names no DNS label, no name, a generateName, a uid of its own: each planned on its own',
    fromMemory: 4,
    text: yamlDocs([
      ...times(3, (i) => pod(`web.${i}`, 'default')),
      ...times(3, () => pod('Bad_Name', 'default')),
      ...times(3, () => pod(undefined, 'default', {}, { generateName: 'job-' })),
      ...times(3, (i) => pod(`own-${i}`, 'default', {}, { uid: '0d7a0c40-4a5b-4e8e-9b0c-000000000001' })),
      ...times(3, () => pod('', 'default')),
      ...times(3, (i) => pod(`x${'y'.repeat(61)}${i}`, 'default')),
    ]),
  },
  {
    name: 'values whose JSON text hides them (-0, .inf) are never taken for the value the text shows',
    fromMemory: 0,
    text: [0, 1, 2].map((i) => `apiVersion: v1\nkind: Pod\nmetadata: {name: z${i}}\nspec:\n  terminationGracePeriodSeconds: ${i === 1 ? '-0' : '0'}\n  activeDeadlineSeconds: ${i === 2 ? '.inf' : 'null'}\n  containers: [{name: app, image: busybox}]\n`).join('---\n'),
  },
  {
    name: 'warnings: Pod Security warn and audit levels, a deprecated AppArmor annotation, a dotted container port name',
    fromMemory: 3,
    text: yamlDocs([
      namespace('w', { 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/enforce': 'baseline' }),
      ...times(4, (i) => pod(`p-${i}`, 'w', {}, { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default' } })),
      ...times(4, (i) => pod(`priv-${i}`, 'w', { containers: [{ name: 'app', image: 'busybox', securityContext: { privileged: true } }] })),
    ]),
  },
  {
    name: "workloads: a Deployment's replicas and a Job's pods, the quota running out among them",
    fromMemory: 4,
    refusedFromMemory: true,
    text: yamlDocs([
      quota('ns', 'pods', { pods: '4' }),
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ns' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } },
      { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'batch', namespace: 'ns' }, spec: { parallelism: 3, completions: 3, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
    ]),
  },
  {
    name: "the ResourceQuota configuration's limitedResources refuse what no quota covers",
    fromMemory: 5,
    refusedFromMemory: true,
    text: yamlDocs([...times(4, (i) => pod(`m-${i}`, 'team', resources({ limits: { memory: '64Mi' } }))), ...times(3, (i) => pod(`n-${i}`, 'team'))]),
    opts: { limitedResources: limited },
  },
  {
    name: 'a RuntimeClass with overhead, sidecars, ulimits above the node ceilings, a node plan on the host',
    fromMemory: 5,
    text: yamlDocs([
      { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata', overhead: { podFixed: { memory: '128Mi', cpu: '250m' } } },
      ...times(4, (i) => pod(`rc-${i}`, 'default', { runtimeClassName: 'kata', ...resources({ limits: { memory: '1Gi', cpu: '1' } }) })),
      ...times(4, (i) =>
        pod(`u-${i}`, 'default', {
          initContainers: [{ name: 'proxy', image: 'busybox', restartPolicy: 'Always', resources: { requests: { cpu: '50m', memory: '32Mi' } } }],
          containers: [{ name: 'app', image: 'busybox', oomKillMode: i % 2 ? 'Group' : 'Single', securityContext: { ulimits: [{ name: 'nofile', soft: 65535, hard: 65535 }] } }],
        }),
      ),
    ]),
    opts: { node: { ...node, hardRlimitCeilings: { RLIMIT_NOFILE: 4096n }, host: { minOomScoreAdj: 0, hardRlimitCeilings: { RLIMIT_NOFILE: 4096n } } } },
  },
  {
    // The memo rests after podMemoSize lookups without a hit, then looks again.
    name: 'distinct pods past the size of the memo, then replicas',
    fromMemory: 1000,
    text: yamlDocs([...times(podMemoSize + 40, (i) => pod(`d-${i}`, 'default', { containers: [{ name: 'app', image: 'busybox', env: [{ name: 'I', value: String(i) }] }] })), ...times(6 * podMemoSize, (i) => pod(`r-${i}`, 'default'))]),
  },
];

function planned(text: string, opts: PlanOptions): PlanResult {
  const objects = parseManifests(text, 'in.yaml');
  checkKinds(objects);
  return plan(objects, opts);
}

describe('pods planned from a remembered outcome: the same output as each planned on its own', () => {
  for (const r of rows) {
    it(r.name, () => {
      const alone = planned(r.text, options({ ...r.opts, rememberPods: false }));
      const remembered = planned(r.text, options(r.opts));
      assert.ok(alone.pods.every((p) => p[plannedFromMemory] === undefined));
      assert.equal(JSON.stringify(remembered), JSON.stringify(alone));
      const templated = planJSONStats.fromTemplate;
      for (const output of ['json', 'yaml', 'table']) assert.equal(renderPlan(remembered, output), renderPlan(alone, output), `-o ${output}`);
      // Printed from templates: all of them but the first of each (which makes the template).
      if (r.fromMemory > 0) assert.ok(planJSONStats.fromTemplate - templated >= r.fromMemory / 2, `${planJSONStats.fromTemplate - templated} pods printed from a template`);
      assert.equal(renderPlan(remembered, 'json'), JSON.stringify(alone, null, 2) + '\n');
      // The rows test the memo, not its absence.
      const fromMemory = remembered.pods.filter((p) => p[plannedFromMemory] !== undefined);
      if (r.fromMemory === 0) assert.equal(fromMemory.length, 0);
      else assert.ok(fromMemory.length >= r.fromMemory, `${fromMemory.length} pods planned from memory`);
      if (r.refusedFromMemory) assert.ok(fromMemory.some((p) => !p.admitted), 'a refusal planned from memory');
    });
  }
});

describe('podMemoKey: which pods may be remembered', () => {
  const cases: { name: string; raw: unknown; key: boolean }[] = [
    { name: 'a pod named with a DNS label', raw: pod('web-1', 'default'), key: true },
    { name: 'a pod with no name (generateName)', raw: pod(undefined, 'default', {}, { generateName: 'web-' }), key: true },
    { name: 'a dotted name (a subdomain: other warnings)', raw: pod('web.1', 'default'), key: false },
    { name: 'an invalid name', raw: pod('Web', 'default'), key: false },
    { name: 'an empty name', raw: pod('', 'default'), key: false },
    { name: 'a name not a string', raw: { ...pod('x', 'default'), metadata: { name: 7 } }, key: false },
    { name: 'a uid of its own', raw: pod('web-1', 'default', {}, { uid: 'u' }), key: false },
    { name: 'no metadata', raw: { kind: 'Pod', spec: {} }, key: false },
    { name: 'a value its JSON text hides (-0)', raw: pod('web-1', 'default', { terminationGracePeriodSeconds: -0 }), key: false },
    { name: 'not a plain object', raw: new Map(), key: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(podMemoKey(c.raw) !== undefined, c.key));
  it('pods that differ only in name have one key, the name left where it stood', () => {
    const a = pod('a', 'default');
    assert.equal(podMemoKey(a), podMemoKey(pod('b', 'default')));
    assert.equal(a.metadata.name, 'a');
    assert.notEqual(podMemoKey(a), podMemoKey(pod('a', 'other')));
  });
});

describe('isPlainJSON: what JSON text gives back', () => {
  const cases: { name: string; v: unknown; plain: boolean }[] = [
    { name: 'a pod', v: pod('a', 'default', { terminationGracePeriodSeconds: 30 }), plain: true },
    { name: 'null, strings, booleans, numbers', v: [null, 'x', true, 1.5, -2, 1e21], plain: true },
    { name: '-0 (its text is 0)', v: { a: [-0] }, plain: false },
    { name: 'Infinity and NaN (their text is null)', v: [Infinity], plain: false },
    { name: 'NaN', v: { a: NaN }, plain: false },
    { name: 'undefined in an object (left out of the text)', v: { a: undefined }, plain: false },
    { name: 'a hole in an array (null in the text)', v: [1, , 2], plain: false },
    { name: 'a Date (its text a string)', v: { t: new Date(0) }, plain: false },
    { name: 'an object of another prototype', v: { m: new Map() }, plain: false },
    { name: 'a toJSON method', v: { toJSON: () => 'x' }, plain: false },
    { name: 'a bigint', v: { n: 1n }, plain: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isPlainJSON(c.v), c.plain));
});

describe('PodMemo', () => {
  it('keeps the first outcome offered after a lookup of its key, and drops the oldest key past its size', () => {
    const memo = new PodMemo<string>(2);
    const key = podMemoKey(pod('a', 'default'))!;
    assert.equal(memo.get(key), undefined);
    memo.offer(key, () => 'outcome');
    assert.equal(memo.get(podMemoKey(pod('b', 'default'))!), 'outcome');
    memo.offer(key, () => 'another');
    assert.equal(memo.get(key), 'outcome');
    memo.get('k2');
    memo.get('k3');
    assert.equal(memo.get(key), undefined);
    // Offered without a lookup first: not kept.
    memo.offer('k4', () => 'x');
    assert.equal(memo.get('k4'), undefined);
  });
  it(`rests after ${podMemoSize} lookups without a hit, for four times as many pods`, () => {
    const memo = new PodMemo<string>();
    let wanted = 0;
    for (let i = 0; i < 5 * podMemoSize; i++) {
      if (!memo.wanted()) continue;
      wanted++;
      memo.get(`k${i}`);
    }
    assert.equal(wanted, podMemoSize);
    assert.equal(memo.wanted(), true);
  });
});

describe('podPlanJSON', () => {
  it('prints a pod planned from memory as JSON.stringify does, whatever its name, source and refusal hold', () => {
    const text = yamlDocs([quota('q', 'pods', { pods: '2' }), ...times(5, (i) => pod(`p-${i}`, 'q'))]);
    const r = planned(text, options());
    const odd = ['in "quotes".yaml', 'ünïcödé\n.yaml', 'back\\slash'];
    r.pods.forEach((p, i) => {
      p.source = { file: odd[i % odd.length]!, document: i + 1, ...(i % 2 ? { item: i } : {}) };
      assert.equal(podPlanJSON(p), JSON.stringify({ pods: [p] }, null, 2).slice('{\n  "pods": [\n    '.length, -'\n  ]\n}'.length), p.name);
    });
    assert.ok(planJSONStats.fromTemplate > 0);
    assert.ok(r.pods.some((p) => p[plannedFromMemory] !== undefined && !p.admitted));
  });
});
