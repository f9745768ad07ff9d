// Pod Security exemptions on pods and pod controllers, after upstream pod-security-admission
// (v1.32) admission/admission_test.go TestValidatePodAndController: its configuration exempts
// namespace "exempt-ns", user "exempt-user" and runtime class "exempt-runtimeclass"; its pod
// rows "exempt namespace", "exempt user" and "exempt runtimeClass" (and their "deployment:"
// twins), next to rows pinning the order of the checks (namespace, user, the privileged
// short-circuit, then the runtime class) and what a request without a user (a plan) gets.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitPodCreate } from '../../src/admission/pod.js';
import { evaluatePodControllerSecurity, evaluatePodSecurity, type PodSecurityRequest, type PodTemplate } from '../../src/admission/podsecurity.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod, PodSpec, ResourceQuota } from '../../src/api/types.js';

const exemptions = { namespaces: ['exempt-ns'], usernames: ['exempt-user'], runtimeClasses: ['exempt-runtimeclass'] };
const level = (enforce?: string, warn?: string, audit?: string): Record<string, string> => ({
  ...(enforce ? { 'pod-security.kubernetes.io/enforce': enforce } : {}),
  ...(warn ? { 'pod-security.kubernetes.io/warn': warn } : {}),
  ...(audit ? { 'pod-security.kubernetes.io/audit': audit } : {}),
});
/** upstream's testNamespaceGetter, the namespaces these rows use. */
const namespaces: Record<string, Record<string, string>> = {
  'exempt-ns': level('restricted', 'restricted', 'restricted'),
  'implicit-ns': {},
  'baseline-warn-ns': level(undefined, 'baseline'),
  'restricted-ns': level('restricted', 'restricted', 'restricted'),
};

const privilegedSpec = (runtimeClassName?: string): PodSpec =>
  ({ ...(runtimeClassName ? { runtimeClassName } : {}), containers: [{ name: 'c', image: 'registry.k8s.io/pause', securityContext: { privileged: true } }] }) as PodSpec;
const pod = (namespace: string, spec: PodSpec): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'test-pod', namespace, labels: { foo: 'bar' } }, spec });
const privilegedReasons = 'privileged (container "c" must not set securityContext.privileged=true)';
const restrictedDenial = /^violates PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext\.privileged=true\), allowPrivilegeEscalation != false/;

interface Row {
  name: string;
  namespace: string;
  /** upstream's attributes carry "test-user" unless the row names another; undefined: no user (a plan). */
  username?: string | null;
  runtimeClassName?: string;
  /** For the pod: denied (matching), or allowed with these warnings and this exemption. */
  denied?: RegExp;
  warnings?: string[];
  exempt?: string;
  /** For the Deployment with the pod as its template (never denied). */
  deploymentWarnings: string[];
}

const rows: Row[] = [
  // upstream's rows
  { name: 'exempt namespace', namespace: 'exempt-ns', warnings: [], exempt: 'namespace', deploymentWarnings: [] },
  { name: 'exempt user', namespace: 'restricted-ns', username: 'exempt-user', warnings: [], exempt: 'user', deploymentWarnings: [] },
  { name: 'exempt runtimeClass', namespace: 'restricted-ns', runtimeClassName: 'exempt-runtimeclass', warnings: [], exempt: 'runtimeClass', deploymentWarnings: [] },
  { name: 'enforce deny (the same pod, nothing exempt)', namespace: 'restricted-ns', denied: restrictedDenial,
    deploymentWarnings: [`would violate PodSecurity "restricted:latest": ${privilegedReasons}, allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`] },
  // the order of the checks
  { name: 'an exempt user in an exempt namespace: the namespace is asked first', namespace: 'exempt-ns', username: 'exempt-user', warnings: [], exempt: 'namespace', deploymentWarnings: [] },
  { name: 'an exempt user with an exempt runtime class: the user is asked first', namespace: 'restricted-ns', username: 'exempt-user', runtimeClassName: 'exempt-runtimeclass', warnings: [], exempt: 'user', deploymentWarnings: [] },
  { name: 'an exempt runtime class in a fully privileged namespace: allowed as privileged, before the runtime class is asked', namespace: 'implicit-ns', runtimeClassName: 'exempt-runtimeclass', warnings: [], deploymentWarnings: [] },
  { name: 'an exempt runtime class skips warn mode too', namespace: 'baseline-warn-ns', runtimeClassName: 'exempt-runtimeclass', warnings: [], exempt: 'runtimeClass', deploymentWarnings: [] },
  { name: 'a runtime class not listed is evaluated', namespace: 'baseline-warn-ns', runtimeClassName: 'kata', warnings: [`would violate PodSecurity "baseline:latest": ${privilegedReasons}`],
    deploymentWarnings: [`would violate PodSecurity "baseline:latest": ${privilegedReasons}`] },
  // a plan has no requesting user
  { name: 'no user: a usernames exemption cannot apply', namespace: 'restricted-ns', username: null, denied: restrictedDenial, deploymentWarnings: [`would violate PodSecurity "restricted:latest": ${privilegedReasons}, allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`] },
  { name: 'no user: the namespace is still exempt', namespace: 'exempt-ns', username: null, warnings: [], exempt: 'namespace', deploymentWarnings: [] },
];

describe('Pod Security exemptions (upstream TestValidatePodAndController)', () => {
  for (const r of rows) {
    const request: PodSecurityRequest = { exemptions, namespace: r.namespace, ...(r.username === null ? {} : { username: r.username ?? 'test-user' }) };
    const spec = privilegedSpec(r.runtimeClassName);
    it(`pod: ${r.name}`, () => {
      const out = evaluatePodSecurity(namespaces[r.namespace]!, {}, pod(r.namespace, spec), request);
      if (r.denied) {
        assert.match(out.denied ?? '', r.denied);
        assert.deepEqual(out.warnings, []);
      } else {
        assert.equal(out.denied, undefined);
        assert.deepEqual(out.warnings, r.warnings);
      }
      assert.equal(out.exempt, r.exempt);
    });
    it(`deployment: ${r.name}`, () => {
      const template: PodTemplate = { metadata: { name: 'test-pod', labels: { foo: 'bar' } }, spec };
      assert.deepEqual(evaluatePodControllerSecurity(namespaces[r.namespace]!, {}, template, request), r.deploymentWarnings);
    });
  }

  it("a pod's namespace is the request's when none is given", () => {
    assert.equal(evaluatePodSecurity(namespaces['exempt-ns']!, {}, pod('exempt-ns', privilegedSpec()), { exemptions }).exempt, 'namespace');
  });
});

describe('admitPodCreate: an exempt pod still goes through every other plugin', () => {
  const base = { limitRanges: [], priorityClasses: [], quotas: [] as ResourceQuota[], gates: defaultFeatureGates, podSecurityDefaults: { enforce: 'restricted' }, podSecurityExemptions: exemptions, now: new Date(0) };
  const quota: ResourceQuota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'exempt-ns' }, spec: { hard: { pods: '0' } }, status: { hard: { pods: '0' }, used: { pods: '0' } } };
  const rows: { name: string; namespace: string; username?: string; quotas?: ResourceQuota[]; rejectedBy?: string; exempt?: string }[] = [
    { name: 'the restricted default refuses the privileged pod', namespace: 'default', rejectedBy: 'PodSecurity' },
    { name: 'in an exempt namespace it is admitted, and says why', namespace: 'exempt-ns', exempt: 'namespace' },
    { name: 'for an exempt user it is admitted', namespace: 'default', username: 'exempt-user', exempt: 'user' },
    { name: 'a quota refuses it all the same', namespace: 'exempt-ns', quotas: [quota], rejectedBy: 'ResourceQuota', exempt: 'namespace' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const result = admitPodCreate({ ...base, pod: pod(r.namespace, privilegedSpec()), namespaceLabels: {}, quotas: r.quotas ?? [], ...(r.username ? { username: r.username } : {}) });
      assert.equal(result.rejection?.by, r.rejectedBy);
      assert.equal(result.podSecurityExempt, r.exempt);
    });
  }
});
