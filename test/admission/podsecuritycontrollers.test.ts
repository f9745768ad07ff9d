// Pod Security on pod controllers, as upstream pod-security-admission admission/admission.go does
// it: DefaultPodSpecExtractor (which resources carry a pod template, and where) and
// ValidatePodController with EvaluatePod(enforce=false): the template against the namespace's
// warn level, never a denial. Rows after upstream admission_test.go TestValidatePodAndController
// (its "deployment:" cases), with the whole warning texts pinned.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluatePodControllerSecurity, evaluatePodSecurity, isPodController, podControllerTemplate, type PodTemplate } from '../../src/admission/podsecurity.js';
import type { KubeObject, Pod, PodSpec } from '../../src/api/types.js';

const spec = (securityContext?: Record<string, unknown>): PodSpec => ({ containers: [{ name: 'app', image: 'busybox', ...(securityContext ? { securityContext } : {}) }] }) as PodSpec;
const tmpl = (s: PodSpec, annotations?: Record<string, string>): PodTemplate => ({ metadata: { labels: { app: 'web' }, ...(annotations ? { annotations } : {}) }, spec: s });

describe('podControllerTemplate (DefaultPodSpecExtractor)', () => {
  const template = { metadata: { labels: { app: 'web' }, annotations: { a: 'b' } }, spec: spec() };
  const rows: { name: string; group: string; resource: string; obj: Record<string, unknown>; want: PodTemplate | null }[] = [
    { name: 'Deployment: spec.template', group: 'apps', resource: 'deployments', obj: { spec: { template } }, want: template },
    { name: 'ReplicaSet: spec.template', group: 'apps', resource: 'replicasets', obj: { spec: { template } }, want: template },
    { name: 'StatefulSet: spec.template', group: 'apps', resource: 'statefulsets', obj: { spec: { template } }, want: template },
    { name: 'DaemonSet: spec.template', group: 'apps', resource: 'daemonsets', obj: { spec: { template } }, want: template },
    { name: 'Job: spec.template', group: 'batch', resource: 'jobs', obj: { spec: { template } }, want: template },
    { name: 'CronJob: spec.jobTemplate.spec.template', group: 'batch', resource: 'cronjobs', obj: { spec: { jobTemplate: { spec: { template } } } }, want: template },
    { name: 'ReplicationController: spec.template', group: '', resource: 'replicationcontrollers', obj: { spec: { template } }, want: template },
    { name: 'PodTemplate: template', group: '', resource: 'podtemplates', obj: { template }, want: template },
    // A Go struct is never absent: the empty template is evaluated (and passes every level).
    { name: 'a Deployment without a template: the empty template', group: 'apps', resource: 'deployments', obj: { spec: {} }, want: { metadata: {}, spec: {} as PodSpec } },
    { name: 'a CronJob without a job template: the empty template', group: 'batch', resource: 'cronjobs', obj: {}, want: { metadata: {}, spec: {} as PodSpec } },
    // ReplicationController's spec.template is a pointer: without one upstream skips the object.
    { name: 'a ReplicationController without a template: none', group: '', resource: 'replicationcontrollers', obj: { spec: {} }, want: null },
    { name: 'a template with metadata only: the empty spec', group: 'apps', resource: 'deployments', obj: { spec: { template: { metadata: { labels: { a: 'b' } } } } }, want: { metadata: { labels: { a: 'b' } }, spec: {} as PodSpec } },
    // Pods are ValidatePod's, not a pod controller; other kinds carry no pod template.
    { name: 'pods: none', group: '', resource: 'pods', obj: { spec: spec() }, want: null },
    { name: 'a ConfigMap: none', group: '', resource: 'configmaps', obj: { data: {} }, want: null },
    { name: 'deployments of another group: none', group: 'extensions', resource: 'deployments', obj: { spec: { template } }, want: null },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.deepEqual(podControllerTemplate(r.group, r.resource, r.obj as KubeObject), r.want);
      assert.equal(isPodController(r.group, r.resource), !['pods', 'configmaps'].includes(r.resource) && r.group !== 'extensions');
    });
  }
});

const restrictedReasons =
  'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
const privilegedReason = 'privileged (container "app" must not set securityContext.privileged=true)';
const restrictedSpec = spec({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
const level = (enforce?: string, warn?: string, audit?: string): Record<string, string> => ({
  ...(enforce ? { 'pod-security.kubernetes.io/enforce': enforce } : {}),
  ...(warn ? { 'pod-security.kubernetes.io/warn': warn } : {}),
  ...(audit ? { 'pod-security.kubernetes.io/audit': audit } : {}),
});

describe('evaluatePodControllerSecurity (ValidatePodController)', () => {
  const rows: { name: string; labels: Record<string, string>; defaults?: Record<string, string>; template: PodTemplate; want: string[] }[] = [
    { name: 'implicit namespace (no labels, privileged defaults): nothing', labels: {}, template: tmpl(spec({ privileged: true })), want: [] },
    { name: 'privileged enforce, warn and audit: nothing', labels: level('privileged', 'privileged', 'privileged'), template: tmpl(spec({ privileged: true })), want: [] },
    {
      name: 'baseline enforce, warn and audit: the warning, never a denial',
      labels: level('baseline', 'baseline', 'baseline'),
      template: tmpl(spec({ privileged: true })),
      want: [`would violate PodSecurity "baseline:latest": ${privilegedReason}`],
    },
    { name: 'baseline warn only: the warning', labels: level(undefined, 'baseline'), template: tmpl(spec({ privileged: true })), want: [`would violate PodSecurity "baseline:latest": ${privilegedReason}`] },
    // Audit has no sink in Bulkhead (no audit log): its violation is not a warning.
    { name: 'baseline audit only: nothing', labels: level(undefined, undefined, 'baseline'), template: tmpl(spec({ privileged: true })), want: [] },
    {
      name: 'restricted enforce, warn and audit: every failing check, baseline ones first',
      labels: level('restricted', 'restricted', 'restricted'),
      template: tmpl(spec({ privileged: true })),
      want: [`would violate PodSecurity "restricted:latest": ${privilegedReason}, ${restrictedReasons}`],
    },
    { name: 'restricted: a template that meets it passes', labels: level('restricted', 'restricted', 'restricted'), template: tmpl(restrictedSpec), want: [] },
    { name: 'an enforce label alone sets warn to its level', labels: level('restricted'), template: tmpl(spec()), want: [`would violate PodSecurity "restricted:latest": ${restrictedReasons}`] },
    {
      name: 'enforce with a version: warn takes its version too',
      labels: { ...level('restricted'), 'pod-security.kubernetes.io/enforce-version': 'v1.24' },
      template: tmpl(spec()),
      want: [`would violate PodSecurity "restricted:v1.24": ${restrictedReasons}`],
    },
    {
      name: 'the level:version as the labels spell it (a future version is latest)',
      labels: { ...level(undefined, 'restricted'), 'pod-security.kubernetes.io/warn-version': 'v1.99' },
      template: tmpl(spec()),
      want: [`would violate PodSecurity "restricted:v1.99": ${restrictedReasons}`],
    },
    // upstream "invalid namespace labels": enforce fails closed (restricted) but, unparsed, does not set warn; controllers are never enforced.
    { name: 'an invalid enforce level: nothing', labels: level('not-a-valid-level'), template: tmpl(spec({ privileged: true })), want: [] },
    { name: 'an invalid warn level fails open: nothing', labels: level('baseline', 'not-a-valid-level'), template: tmpl(spec({ privileged: true })), want: [] },
    {
      name: 'an invalid warn version is latest',
      labels: { ...level(undefined, 'baseline'), 'pod-security.kubernetes.io/warn-version': 'v2.0' },
      template: tmpl(spec({ privileged: true })),
      want: [`would violate PodSecurity "baseline:latest": ${privilegedReason}`],
    },
    // --pod-security sets the enforce default only; upstream's defaults.warn stays privileged.
    { name: 'an unlabelled namespace under --pod-security restricted: nothing', labels: {}, defaults: { enforce: 'restricted' }, template: tmpl(spec({ privileged: true })), want: [] },
    {
      name: 'an unlabelled namespace under a warn default: the warning',
      labels: {},
      defaults: { warn: 'baseline' },
      template: tmpl(spec({ privileged: true })),
      want: [`would violate PodSecurity "baseline:latest": ${privilegedReason}`],
    },
    {
      name: "the template's annotations are the pod's (AppArmor)",
      labels: level(undefined, 'baseline'),
      template: tmpl(spec(), { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' }),
      want: ['would violate PodSecurity "baseline:latest": forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/app="unconfined"")'],
    },
    // upstream "no pod template": the empty template passes even restricted.
    { name: 'the empty template passes restricted', labels: level('restricted', 'restricted', 'restricted'), template: { metadata: {}, spec: {} as PodSpec }, want: [] },
  ];
  for (const r of rows) {
    it(r.name, () => assert.deepEqual(evaluatePodControllerSecurity(r.labels, r.defaults ?? {}, r.template), r.want));
  }

  it('one outcome cache with pods: a pod denied by enforce, then its template only warned', () => {
    const labels = level('baseline');
    const s = spec({ privileged: true });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: s } as Pod;
    assert.equal(evaluatePodSecurity(labels, {}, pod).denied, `violates PodSecurity "baseline:latest": ${privilegedReason}`);
    assert.deepEqual(evaluatePodControllerSecurity(labels, {}, tmpl(s)), [`would violate PodSecurity "baseline:latest": ${privilegedReason}`]);
    assert.equal(evaluatePodSecurity(labels, {}, pod).denied, `violates PodSecurity "baseline:latest": ${privilegedReason}`);
  });

  it('a caller may add to the warnings it gets: the next caller\'s are as evaluated', () => {
    const labels = level(undefined, 'baseline');
    const first = evaluatePodControllerSecurity(labels, {}, tmpl(spec({ privileged: true })));
    first.push('x');
    assert.deepEqual(evaluatePodControllerSecurity(labels, {}, tmpl(spec({ privileged: true }))), [`would violate PodSecurity "baseline:latest": ${privilegedReason}`]);
  });
});
