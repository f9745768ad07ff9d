// Pod Security on namespace writes, as upstream pod-security-admission admission/admission.go
// ValidateNamespace and EvaluatePodsInNamespace: labels validated on create and update, and on an
// update that tightens the enforce policy the existing pods dry-run against it, as warnings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitNamespaceUpdate, namespaceCreateWarnings, validateNamespaceObject } from '../../src/admission/namespace.js';
import { errorString } from '../../src/api/fielderrors.js';
import type { Namespace, OwnerReference, Pod } from '../../src/api/types.js';
import {
  evaluatePodsInNamespace, formatLevelVersion, LIST_PODS_FAILED_WARNING, namespaceDryRunLevel, policyToEvaluate,
  prioritizePods, type CheckResult, type EvaluateFn, type NamespacePod, type PodSecurityDefaults,
} from '../../src/podsecurity/index.js';

const P = 'pod-security.kubernetes.io/';
const ENFORCE = `${P}enforce`;
const ENFORCE_VERSION = `${P}enforce-version`;

// ---------------------------------------------------------------------------------------------
// upstream admission_test.go TestValidateNamespace, row by row. Its evaluator fails a pod with
// the pod's `error` annotation as the reason; its pod limit is 4 and its budget 1 s, which
// the "timeout" rows spend by sleeping: here a counting clock expires after the same number of
// evaluations instead.

/** upstream's testEvaluator: the `error` annotation is the reason; remembers the level asked for. */
function testEvaluator(): { evaluate: EvaluateFn; asked: () => string | undefined } {
  let lv: string | undefined;
  const evaluate: EvaluateFn = (l, metadata): CheckResult[] => {
    lv = formatLevelVersion(l);
    const error = metadata?.annotations?.['error'];
    return error ? [{ allowed: false, forbiddenReason: error, forbiddenDetail: '' }] : [{ allowed: true, forbiddenReason: '', forbiddenDetail: '' }];
  };
  return { evaluate, asked: () => lv };
}

const pod = (name: string, error: string, extra: { runtimeClassName?: string; controller?: string } = {}): Pod => ({
  metadata: {
    name,
    annotations: { error },
    ...(extra.controller ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: extra.controller, controller: true }] } : {}),
  },
  spec: { containers: [], ...(extra.runtimeClassName ? { runtimeClassName: extra.runtimeClassName } : {}) },
});

/** upstream's default pod list for rows that give none. */
const defaultPods: Pod[] = [
  pod('noruntimeclasspod', 'message'),
  pod('runtimeclass1pod', 'message', { runtimeClassName: 'runtimeclass1' }),
  pod('runtimeclass2pod', 'message', { runtimeClassName: 'runtimeclass2' }),
  pod('runtimeclass3pod', 'message, message2'),
];

interface ValidateRow {
  name: string;
  newLabels: Record<string, string>;
  /** Absent: a create. */
  oldLabels?: Record<string, string>;
  defaults?: PodSecurityDefaults;
  exemptNamespaces?: string[];
  exemptRuntimeClasses?: string[];
  pods?: Pod[] | Error;
  /** The clock expires once this many pods were evaluated (upstream: a delay per evaluation). */
  expireAfter?: number;
  expectError?: string;
  expectListPods?: boolean;
  expectEvaluate?: string;
  expectWarnings?: string[];
}

const validateRows: ValidateRow[] = [
  // creation tests, just validate labels
  { name: 'create privileged', newLabels: { [ENFORCE]: 'privileged', [ENFORCE_VERSION]: 'v1.0' } },
  { name: 'create baseline', newLabels: { [ENFORCE]: 'baseline' } },
  { name: 'create restricted', newLabels: { [ENFORCE]: 'restricted' } },
  { name: 'create restricted exempt', newLabels: { [ENFORCE]: 'restricted' }, exemptNamespaces: ['test'],
    expectWarnings: ['namespace "test" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored'] },
  { name: 'create malformed level', newLabels: { [ENFORCE]: 'unknown' }, expectError: 'must be one of privileged, baseline, restricted' },
  { name: 'create malformed version', newLabels: { [ENFORCE]: 'privileged', [ENFORCE_VERSION]: 'unknown' }, expectError: 'must be "latest" or "v1.x"' },

  // update tests that don't tighten effective policy, no pod list/evaluate
  { name: 'update no-op', newLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0' }, oldLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0' } },
  { name: 'update no-op malformed level', newLabels: { [ENFORCE]: 'unknown' }, oldLabels: { [ENFORCE]: 'unknown' } },
  { name: 'update no-op malformed version', newLabels: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'unknown' }, oldLabels: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'unknown' } },
  { name: 'update relax level identical version', newLabels: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'v1.0' }, oldLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0' } },
  { name: 'update relax level explicit latest', newLabels: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'latest' }, oldLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'latest' } },
  { name: 'update relax level implicit latest', newLabels: { [ENFORCE]: 'baseline' }, oldLabels: { [ENFORCE]: 'restricted' } },
  { name: 'update to explicit privileged', newLabels: { [ENFORCE]: 'privileged' }, oldLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0' } },
  { name: 'update to implicit privileged', newLabels: {}, oldLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0' } },
  { name: 'update exempt to restricted', exemptNamespaces: ['test'],
    newLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0', [`${P}audit`]: 'restricted', [`${P}warn`]: 'baseline' }, oldLabels: {},
    expectWarnings: ['namespace "test" is exempt from Pod Security, and the policy (enforce=restricted:v1.0, audit=restricted:latest, warn=baseline:latest) will be ignored'] },

  // update tests that introduce labels errors
  { name: 'update malformed level', newLabels: { [ENFORCE]: 'unknown' }, oldLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0' },
    expectError: 'must be one of privileged, baseline, restricted' },
  { name: 'update malformed version', newLabels: { [ENFORCE]: 'privileged', [ENFORCE_VERSION]: 'unknown' }, oldLabels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.0' },
    expectError: 'must be "latest" or "v1.x"' },

  // update tests that tighten effective policy
  { name: 'update to implicit restricted', newLabels: {}, oldLabels: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'v1.0' }, defaults: { enforce: 'restricted' },
    expectListPods: true, expectEvaluate: 'restricted:latest',
    expectWarnings: [
      'existing pods in namespace "test" violate the new PodSecurity enforce level "restricted:latest"',
      'noruntimeclasspod (and 2 other pods): message',
      'runtimeclass3pod: message, message2',
    ] },
  { name: 'update with runtimeclass exempt pods', exemptRuntimeClasses: ['runtimeclass1'], newLabels: { [ENFORCE]: 'restricted' }, oldLabels: { [ENFORCE]: 'baseline' },
    expectListPods: true, expectEvaluate: 'restricted:latest',
    expectWarnings: [
      'existing pods in namespace "test" violate the new PodSecurity enforce level "restricted:latest"',
      'noruntimeclasspod (and 1 other pod): message',
      'runtimeclass3pod: message, message2',
    ] },
  { name: 'timeout on list', newLabels: { [ENFORCE]: 'restricted' }, oldLabels: { [ENFORCE]: 'baseline' }, pods: new Error('context deadline exceeded'),
    expectListPods: true, expectWarnings: ['failed to list pods while checking new PodSecurity enforce level'] },
  { name: 'timeout on evaluate', newLabels: { [ENFORCE]: 'restricted' }, oldLabels: { [ENFORCE]: 'baseline' }, expireAfter: 2,
    expectListPods: true, expectEvaluate: 'restricted:latest',
    expectWarnings: [
      'new PodSecurity enforce level only checked against the first 2 of 4 existing pods',
      'existing pods in namespace "test" violate the new PodSecurity enforce level "restricted:latest"',
      'noruntimeclasspod (and 1 other pod): message',
    ] },
  { name: 'bound number of pods', newLabels: { [ENFORCE]: 'restricted' }, oldLabels: { [ENFORCE]: 'baseline' },
    pods: ['pod1', 'pod2', 'pod3', 'pod4', 'pod5'].map((n) => pod(n, 'message')),
    expectListPods: true, expectEvaluate: 'restricted:latest',
    expectWarnings: [
      'new PodSecurity enforce level only checked against the first 4 of 5 existing pods',
      'existing pods in namespace "test" violate the new PodSecurity enforce level "restricted:latest"',
      'pod1 (and 3 other pods): message',
    ] },
  { name: 'prioritized pods', exemptRuntimeClasses: ['runtimeclass1'], newLabels: { [ENFORCE]: 'restricted' }, oldLabels: { [ENFORCE]: 'baseline' },
    pods: [
      // ensure exempt pods don't use up the limit of evaluated pods
      ...[1, 2, 3, 4].map((i) => pod(`exemptpod${i}`, 'message1', { runtimeClassName: 'runtimeclass1' })),
      // ensure replicas from the same controller don't use up limit of evaluated pods
      ...[1, 2, 3, 4].map((i) => pod(`replicaset1pod${i}`, 'replicaset1error', { controller: '1' })),
      ...[1, 2, 3, 4].map((i) => pod(`replicaset2pod${i}`, 'replicaset2error', { controller: '2' })),
      // ensure unique pods are prioritized before additional replicas
      ...[1, 2, 3, 4].map((i) => pod(`uniquepod${i}`, `uniquemessage${i}`)),
    ],
    expectListPods: true, expectEvaluate: 'restricted:latest',
    expectWarnings: [
      'new PodSecurity enforce level only checked against the first 4 of 12 existing pods',
      'existing pods in namespace "test" violate the new PodSecurity enforce level "restricted:latest"',
      'replicaset1pod1: replicaset1error',
      'replicaset2pod1: replicaset2error',
      'uniquepod1: uniquemessage1',
      'uniquepod2: uniquemessage2',
    ] },
];

// Beyond upstream's rows: when an exempt namespace gets its warning, and that only it is exempt.
validateRows.push(
  { name: 'create exempt with privileged labels: no warning', newLabels: { [ENFORCE]: 'privileged', [ENFORCE_VERSION]: 'v1.0' }, exemptNamespaces: ['test'] },
  { name: 'create exempt with malformed labels: refused all the same', newLabels: { [ENFORCE]: 'unknown' }, exemptNamespaces: ['test'], expectError: 'must be one of privileged, baseline, restricted' },
  { name: 'update exempt, relaxed: neither a dry run nor a warning', exemptNamespaces: ['test'], newLabels: { [ENFORCE]: 'baseline' }, oldLabels: { [ENFORCE]: 'restricted' } },
  { name: 'update exempt back to the defaults: no warning', exemptNamespaces: ['test'], newLabels: {}, oldLabels: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'v1.0' }, defaults: { enforce: 'restricted' } },
  { name: 'another namespace exempt: the dry run as usual', exemptNamespaces: ['other'], newLabels: { [ENFORCE]: 'restricted' }, oldLabels: { [ENFORCE]: 'baseline' },
    expectListPods: true, expectEvaluate: 'restricted:latest',
    expectWarnings: [
      'existing pods in namespace "test" violate the new PodSecurity enforce level "restricted:latest"',
      'noruntimeclasspod (and 2 other pods): message',
      'runtimeclass3pod: message, message2',
    ] },
);

const ns = (labels: Record<string, string>): Namespace => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'test', labels } });

describe('upstream admission_test.go TestValidateNamespace', () => {
  for (const row of validateRows) {
    it(row.name, () => {
      const { evaluate, asked } = testEvaluator();
      let listed = false;
      let errors: string[];
      let warnings: string[] = [];
      const exemptions = { namespaces: row.exemptNamespaces, runtimeClasses: row.exemptRuntimeClasses };
      if (row.oldLabels === undefined) {
        errors = validateNamespaceObject(ns(row.newLabels)).map(errorString);
        if (errors.length === 0) warnings = namespaceCreateWarnings(ns(row.newLabels), row.defaults ?? {}, exemptions);
      } else {
        const admission = admitNamespaceUpdate(ns(row.newLabels), ns(row.oldLabels), row.defaults ?? {}, exemptions);
        errors = admission.errors.map(errorString);
        warnings = admission.warnings ?? [];
        if (admission.checkPods) {
          listed = true;
          let evaluated = 0;
          warnings = evaluatePodsInNamespace('test', admission.checkPods, row.pods ?? defaultPods, {
            maxPods: 4,
            exemptRuntimeClasses: row.exemptRuntimeClasses,
            evaluate: (lv, m, s) => (evaluated++, evaluate(lv, m, s)),
            expired: () => row.expireAfter !== undefined && evaluated >= row.expireAfter,
          });
        }
      }
      if (row.expectError) {
        assert.equal(errors.length, 1);
        assert.ok(errors[0]!.includes(row.expectError), errors[0]);
      } else {
        assert.deepEqual(errors, []);
      }
      assert.equal(listed, row.expectListPods ?? false, 'pods listed');
      assert.equal(asked(), row.expectEvaluate, 'level evaluated');
      assert.deepEqual(warnings, row.expectWarnings ?? []);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// When the dry run happens: upstream's three skips, over the defaults.

const dryRunRows: { name: string; next: Record<string, string>; old: Record<string, string>; defaults?: PodSecurityDefaults; want: string | undefined }[] = [
  { name: 'privileged → baseline', old: {}, next: { [ENFORCE]: 'baseline' }, want: 'baseline:latest' },
  { name: 'baseline → restricted', old: { [ENFORCE]: 'baseline' }, next: { [ENFORCE]: 'restricted' }, want: 'restricted:latest' },
  { name: 'restricted:latest → restricted:v1.20 (version changed, same level)', old: { [ENFORCE]: 'restricted' }, next: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.20' }, want: 'restricted:v1.20' },
  { name: 'restricted:v1.20 → baseline:latest (relaxed, but the version changed)', old: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.20' }, next: { [ENFORCE]: 'baseline' }, want: 'baseline:latest' },
  { name: 'latest and a future pinned version differ', old: { [ENFORCE]: 'restricted' }, next: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.99' }, want: 'restricted:v1.99' },
  { name: 'explicit latest = implicit latest: unchanged', old: { [ENFORCE]: 'baseline' }, next: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'latest' }, want: undefined },
  { name: 'only warn and audit changed', old: {}, next: { [`${P}warn`]: 'restricted', [`${P}audit`]: 'restricted' }, want: undefined },
  { name: 'privileged at another version', old: {}, next: { [ENFORCE]: 'privileged', [ENFORCE_VERSION]: 'v1.0' }, want: undefined },
  { name: 'a bad enforce level reads as restricted (fails closed)', old: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'v1.0' }, next: { [ENFORCE]: 'bogus' }, want: 'restricted:latest' },
  { name: 'label removed under a baseline default: baseline:latest, from restricted:latest (relaxed)', old: { [ENFORCE]: 'restricted' }, next: {}, defaults: { enforce: 'baseline' }, want: undefined },
  { name: 'the same labels under a restricted default: unchanged', old: { app: 'a' }, next: { app: 'b' }, defaults: { enforce: 'restricted' }, want: undefined },
];

describe('namespaceDryRunLevel', () => {
  for (const row of dryRunRows) {
    it(row.name, () => {
      const got = namespaceDryRunLevel(policyToEvaluate(row.next, row.defaults).policy, policyToEvaluate(row.old, row.defaults).policy);
      assert.equal(got && formatLevelVersion(got), row.want);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// The real checks: the reasons-only texts of upstream's namespace warnings.

const owner = (uid: string, controller?: boolean): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, ...(controller === undefined ? {} : { controller }) });
const realPod = (name: string, spec: Partial<Pod['spec']> & Record<string, unknown> = {}, ownerReferences?: OwnerReference[]): Pod => ({
  metadata: { name, ...(ownerReferences ? { ownerReferences } : {}) },
  spec: { containers: [{ name: 'nginx', image: 'nginx' }], ...spec } as Pod['spec'],
});
const hardened = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };
const hardenedContainer = { name: 'app', image: 'busybox', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } };

const realRows: { name: string; level: string; pods: Pod[]; want: string[] }[] = [
  { name: 'three replicas of a bare nginx Deployment under restricted', level: 'restricted',
    pods: ['nginx-7d8f-b', 'nginx-7d8f-a', 'nginx-7d8f'].map((n) => realPod(n, {}, [owner('rs1', true)])),
    want: [
      'existing pods in namespace "demo" violate the new PodSecurity enforce level "restricted:latest"',
      'nginx-7d8f (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ] },
  { name: 'distinct results each get a line, sorted; compliant pods none', level: 'restricted',
    pods: [
      realPod('web', { hostNetwork: true, volumes: [{ name: 'h', hostPath: { path: '/' } }] }),
      realPod('ok', { ...hardened, containers: [hardenedContainer] }),
      realPod('almost', { securityContext: { runAsNonRoot: true }, containers: [hardenedContainer] }),
      realPod('two', { containers: [{ name: 'a', image: 'x', securityContext: { privileged: true } }] }),
    ],
    want: [
      'existing pods in namespace "demo" violate the new PodSecurity enforce level "restricted:latest"',
      'almost: seccompProfile',
      'two: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'web: host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile',
    ] },
  { name: 'baseline: (and 1 other pod)', level: 'baseline',
    pods: [
      realPod('kube-proxy-b', { hostNetwork: true, containers: [{ name: 'p', image: 'x', securityContext: { privileged: true } }], volumes: [{ name: 'h', hostPath: { path: '/' } }] }),
      realPod('kube-proxy-a', { hostNetwork: true, containers: [{ name: 'p', image: 'x', securityContext: { privileged: true } }], volumes: [{ name: 'h', hostPath: { path: '/' } }] }),
      realPod('nginx'),
    ],
    want: [
      'existing pods in namespace "demo" violate the new PodSecurity enforce level "baseline:latest"',
      'kube-proxy-a (and 1 other pod): host namespaces, hostPath volumes, privileged',
    ] },
  { name: 'no violations: no warnings at all', level: 'baseline', pods: [realPod('nginx')], want: [] },
  { name: 'no pods: no warnings', level: 'restricted', pods: [], want: [] },
];

describe('evaluatePodsInNamespace with the Pod Security checks', () => {
  for (const row of realRows) {
    it(row.name, () => {
      assert.deepEqual(evaluatePodsInNamespace('demo', { level: row.level as 'baseline', version: 'latest' }, row.pods), row.want);
    });
  }

  it('a failed list is the only warning', () => {
    assert.deepEqual(evaluatePodsInNamespace('demo', { level: 'restricted', version: 'latest' }, new Error('etcd down')), [LIST_PODS_FAILED_WARNING]);
  });

  it('at most 3000 pods are evaluated by default, with upstream\'s text for the rest', () => {
    const pods = Array.from({ length: 3001 }, (_, i) => pod(`p${String(i).padStart(4, '0')}`, 'm'));
    const { evaluate } = testEvaluator();
    assert.deepEqual(evaluatePodsInNamespace('demo', { level: 'restricted', version: 'latest' }, pods, { evaluate }), [
      'new PodSecurity enforce level only checked against the first 3000 of 3001 existing pods',
      'existing pods in namespace "demo" violate the new PodSecurity enforce level "restricted:latest"',
      'p0000 (and 2999 other pods): m',
    ]);
  });

  it('a clock that expires at the last pod reports no cut-off', () => {
    const { evaluate } = testEvaluator();
    let n = 0;
    const got = evaluatePodsInNamespace('demo', { level: 'restricted', version: 'latest' }, [pod('a', 'm'), pod('b', 'm')], { evaluate: (l, m, s) => (n++, evaluate(l, m, s)), expired: () => n >= 2 });
    assert.deepEqual(got, ['existing pods in namespace "demo" violate the new PodSecurity enforce level "restricted:latest"', 'a (and 1 other pod): m']);
  });
});

// ---------------------------------------------------------------------------------------------
// prioritizePods (upstream TestPrioritizePods asserts the same with random owners).

const names = (pods: readonly NamespacePod[]) => pods.map((p) => p.metadata?.name);
const prioritizeRows: { name: string; pods: Pod[]; exempt?: string[]; want: string[] }[] = [
  { name: 'the first pod of each controller, and pods without one, before further replicas',
    pods: [realPod('a1', {}, [owner('a', true)]), realPod('a2', {}, [owner('a', true)]), realPod('b1', {}, [owner('b', true)]), realPod('solo'), realPod('a3', {}, [owner('a', true)]), realPod('b2', {}, [owner('b', true)])],
    want: ['a1', 'b1', 'solo', 'a2', 'a3', 'b2'] },
  { name: 'an owner that is not the controller does not count',
    pods: [realPod('x1', {}, [owner('x')]), realPod('x2', {}, [owner('x', false)]), realPod('x3', {}, [owner('x')])], want: ['x1', 'x2', 'x3'] },
  { name: 'the controller is the first owner reference with controller: true',
    pods: [realPod('m1', {}, [owner('other'), owner('m', true)]), realPod('m2', {}, [owner('m', true)])], want: ['m1', 'm2'] },
  { name: 'exempt runtime classes are dropped; an empty class name is never exempt',
    pods: [realPod('k', { runtimeClassName: 'kata' }), realPod('n'), realPod('e', { runtimeClassName: '' })], exempt: ['kata', ''], want: ['n', 'e'] },
];

describe('prioritizePods', () => {
  for (const row of prioritizeRows) it(row.name, () => assert.deepEqual(names(prioritizePods(row.pods, row.exempt)), row.want));
});
