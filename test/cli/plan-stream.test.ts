// `bulkhead plan` plans and prints one pod at a time, reading a JSON List item by item: its
// output must be, byte for byte, what rendering the whole plan of the same manifest read whole
// through the YAML decoder gives (the way plan read every manifest before it streamed).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as yaml from 'js-yaml';
import { runPlan } from '../../src/cli/plan.js';
import { checkKinds, ManifestStream, parseManifests } from '../../src/cli/manifests.js';
import { featureGatesFlag, podSecurityFlag } from '../../src/cli/flags.js';
import { plan, type PlanResult } from '../../src/plan/engine.js';
import { renderPlanTable } from '../../src/plan/table.js';
import { defaultEvictionHard, parseEvictionThresholds } from '../../src/policy/eviction.js';

const pod = (name: string, ns: string, resources: object = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { containers: [{ name: 'c', image: 'busybox:1.36', resources }] } });
const list = (...items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 1);
const quota = (ns: string, hard: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: ns }, spec: { hard } });
const limitRange = (ns: string) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace: ns }, spec: { limits: [{ type: 'Container', default: { memory: '256Mi' }, defaultRequest: { memory: '128Mi' } }] } });
const namespace = (name: string, level: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': level } } });
const deployment = (ns: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: ns },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { memory: '64Mi', cpu: '100m' } } }] } } },
});

/** The old way: the whole manifest through the YAML decoder, the whole result rendered at the end. */
function reference(text: string, output: string): string {
  const objects = parseManifests(text, '<stdin>');
  checkKinds(objects);
  const r: PlanResult = plan(objects, {
    node: { memoryBytes: 16n << 30n, milliCPU: 4000n, cgroupVersion: 2, cgroupDriver: 'cgroupfs', oomGroupEmulation: false, nrOpen: 1048576n },
    gates: featureGatesFlag(undefined),
    podSecurity: podSecurityFlag('privileged:latest'),
    evictionHard: parseEvictionThresholds(defaultEvictionHard),
    now: new Date(),
  });
  if (output === 'json') return JSON.stringify(r, null, 2) + '\n';
  if (output === 'yaml') return yaml.dump(JSON.parse(JSON.stringify(r)), { noRefs: true, lineWidth: -1 });
  return renderPlanTable(r);
}

describe('bulkhead plan streams with the same output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-plan-stream-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const flags = (output: string) => ({ nodeMemory: '16Gi', nodeCpu: '4', cgroupVersion: '2', cgroupDriver: 'cgroupfs', podSecurity: 'privileged:latest', evictionHard: defaultEvictionHard, output, nrOpen: '1048576' });
  const rows: { name: string; text: string }[] = [
    { name: 'policy objects after the pods they govern still govern them (the first pass takes them)', text: list(pod('a', 'team', { limits: { memory: '1Gi' } }), pod('b', 'team'), quota('team', { pods: '1' }), limitRange('team'), namespace('team', 'baseline')) },
    { name: 'quota usage accumulates in document order, workload pods included', text: list(quota('t', { 'limits.memory': '200Mi' }), deployment('t'), pod('after', 't', { limits: { memory: '64Mi', cpu: '1' } }), pod('over', 't', { limits: { memory: '64Mi', cpu: '1' } })) },
    { name: 'refused objects, decode errors and warnings in the tail', text: list(pod('ok', 'default'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: { containers: [{ name: 'c', image: 'b', bogus: 1 }] } }, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'Bad_Name' }, spec: { hard: { pods: '1' } } }) },
    { name: 'multi-line strings (YAML block scalars nested in the pods list)', text: list({ ...pod('m', 'default'), metadata: { name: 'm', annotations: { note: 'one\ntwo\n\nfour\n' } } }) },
    { name: 'no pods at all', text: list(quota('x', { pods: '3' })) },
    { name: 'an empty List', text: list() },
    { name: 'one pod, not in a List', text: JSON.stringify(pod('solo', 'default')) },
    { name: 'a List the YAML decoder reads (a trailing comma)', text: `{"kind":"List","apiVersion":"v1","items":[${JSON.stringify(pod('y', 'default'))},]}` },
  ];
  for (const r of rows) {
    for (const output of ['table', 'json', 'yaml']) {
      it(`${r.name} (-o ${output})`, () => {
        const want = reference(r.text, output);
        // From standard input, and from a file read in chunks (its source then names the file).
        let out = '';
        const code = runPlan(['-'], flags(output), { stdout: (s) => (out += s), readStdin: () => r.text });
        assert.equal(out, want);
        assert.equal(code, /REFUSED|"admitted": false|admitted: false/.test(want) ? 1 : 0);
        const file = join(dir, 'in.json');
        writeFileSync(file, r.text);
        let fromFile = '';
        runPlan([file], flags(output), { stdout: (s) => (fromFile += s), readStdin: () => '' });
        assert.equal(fromFile, want.split('<stdin>').join(file));
        // A List too large for the first pass to keep: the second reads the file again.
        let reread = '';
        runPlan([file], flags(output), { stdout: (s) => (reread += s), readStdin: () => '', keepListBytes: 0 });
        assert.equal(reread, want.split('<stdin>').join(file));
      });
    }
  }
});

describe('the first pass keeps a List for the second only when the file fits keepListBytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-plan-keep-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const items = list(pod('a', 'default'), pod('b', 'default'));
  // The file is rewritten between the passes: pods a and b come from the first pass's objects, x and y from a second read.
  const rows: { name: string; text: string; keepListBytes: number; second: string[] }[] = [
    { name: 'a file within the bound: its parsed items, not read again', text: items, keepListBytes: items.length, second: ['a', 'b'] },
    { name: 'a file past the bound: read again', text: items, keepListBytes: items.length - 1, second: ['x', 'y'] },
    { name: 'a file past the bound though its items fit (white space around them): read again, nothing kept', text: `${items}${' '.repeat(100)}`, keepListBytes: items.length, second: ['x', 'y'] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const file = join(dir, 'list.json');
      writeFileSync(file, r.text);
      const stream = new ManifestStream([file], false, () => '', r.keepListBytes);
      stream.scan(() => {});
      writeFileSync(file, list(pod('x', 'default'), pod('y', 'default')));
      const names: string[] = [];
      stream.each((o) => names.push(o.object.metadata!.name!));
      assert.deepEqual(names, r.second);
    });
  }
});
