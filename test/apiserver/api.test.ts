// REST semantics of the API server over HTTPS: status codes and Status bodies, selectors,
// paging, watch framing and 410 after compaction, subresources, authentication and the node
// authorizer.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const pod = (name: string, extra: Record<string, unknown> = {}, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...extra },
});

describe('API server REST semantics', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-api-'));
    // REST semantics only: no scheduler writing conditions and events into the watches below.
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    for (const [name, labels] of [['a', { app: 'web', tier: 'fe' }], ['b', { app: 'web', tier: 'be' }], ['c', { app: 'db' }]] as const) {
      assert.equal((await admin.request('POST', '/api/v1/namespaces/default/pods', pod(name, {}, labels))).status, 201);
    }
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: { name: string; method: string; path: string; body?: unknown; status: number; reason?: string; message?: string | RegExp; names?: string[] }[] = [
    { name: 'get of a missing pod is 404 NotFound with the resource in details', method: 'GET', path: '/api/v1/namespaces/default/pods/nope', status: 404, reason: 'NotFound', message: 'pods "nope" not found' },
    { name: 'create in a missing namespace is 404 for the namespace', method: 'POST', path: '/api/v1/namespaces/missing/pods', body: pod('x'), status: 404, reason: 'NotFound', message: 'namespaces "missing" not found' },
    { name: 'a body namespace that differs from the URL is 400', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { ...pod('x'), metadata: { name: 'x', namespace: 'kube-system' } }, status: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' },
    { name: 'a kind that does not match the resource is 400', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }, status: 400, reason: 'BadRequest', message: /does not match the kind of the request/ },
    { name: 'label selector with set syntax', method: 'GET', path: '/api/v1/namespaces/default/pods?labelSelector=app%20in%20(web),tier!=be', status: 200, names: ['a'] },
    { name: 'label selector existence', method: 'GET', path: '/api/v1/namespaces/default/pods?labelSelector=tier', status: 200, names: ['a', 'b'] },
    { name: 'field selector metadata.name', method: 'GET', path: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dc', status: 200, names: ['c'] },
    { name: 'field selector status.phase!=', method: 'GET', path: '/api/v1/pods?fieldSelector=status.phase!%3DRunning,spec.nodeName%3D', status: 200, names: ['a', 'b', 'c'] },
    // Field labels go through the kind's conversion func (pkg/apis/core/v1/conversion.go).
    { name: 'an unknown pod field selector is 400 (the pod conversion func)', method: 'GET', path: '/api/v1/namespaces/default/pods?fieldSelector=spec.bogus%3D1', status: 400, reason: 'BadRequest', message: 'field label not supported: spec.bogus' },
    { name: 'spec.host selects spec.nodeName (old v1 clients)', method: 'GET', path: '/api/v1/pods?fieldSelector=spec.host%3D', status: 200, names: ['a', 'b', 'c'] },
    { name: 'nodes do not select by metadata.namespace', method: 'GET', path: '/api/v1/nodes?fieldSelector=metadata.namespace%3D', status: 400, reason: 'BadRequest', message: 'field label not supported: metadata.namespace' },
    { name: 'a kind without a conversion func names metadata.name and metadata.namespace', method: 'GET', path: '/api/v1/namespaces/default/configmaps?fieldSelector=data.x%3D1', status: 400, reason: 'BadRequest', message: '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"' },
    // apps/v1 registers no field label conversion for StatefulSet (the appsv1beta1/appsv1beta2 funcs and their words are gone): the default's.
    { name: 'statefulsets have the default conversion', method: 'GET', path: '/apis/apps/v1/namespaces/default/statefulsets?fieldSelector=status.successful%3D1', status: 400, reason: 'BadRequest', message: '"status.successful" is not a known field selector: only "metadata.name", "metadata.namespace"' },
    { name: 'jobs refuse in batchv1.Job words', method: 'GET', path: '/apis/batch/v1/namespaces/default/jobs?fieldSelector=spec.x%3D1', status: 400, reason: 'BadRequest', message: 'field label "spec.x" not supported for batchv1.Job' },
    // Parse errors are labels.Parse's and fields.ParseSelector's texts as they are, labels first.
    { name: 'a label selector syntax error is 400 with the parser text', method: 'GET', path: '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb%20db', status: 400, reason: 'BadRequest', message: "found 'db', expected: ',' or 'end of string'" },
    { name: 'a bad label key is 400 with the field error at <nil>', method: 'GET', path: '/api/v1/namespaces/default/pods?labelSelector=-x', status: 400, reason: 'BadRequest', message: /^unable to parse requirement: <nil>: Invalid value: "-x": name part must consist of/ },
    { name: 'a field selector term without an operator is 400', method: 'GET', path: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name', status: 400, reason: 'BadRequest', message: "invalid selector: 'metadata.name'; can't understand 'metadata.name'" },
    { name: 'the label selector is decoded before the field selector', method: 'GET', path: '/api/v1/namespaces/default/pods?labelSelector=%2C&fieldSelector=spec.bogus%3D1', status: 400, reason: 'BadRequest', message: "found ',', expected: !, identifier, or 'end of string'" },
    { name: 'label selector gt', method: 'GET', path: '/api/v1/namespaces/default/pods?labelSelector=n%3E1', status: 200, names: [] },
    { name: 'an unknown resource is a 404 Status', method: 'GET', path: '/api/v1/widgets', status: 404, reason: 'NotFound' },
    { name: 'a pod update that changes a container resource is forbidden by validation', method: 'PATCH', path: '/api/v1/namespaces/default/pods/a', body: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] } }, status: 422, reason: 'Invalid', message: /^Pod "a" is invalid: spec: Forbidden: pod updates may not change fields other than/ },
    { name: 'binding without a target is 422', method: 'POST', path: '/api/v1/namespaces/default/pods/c/binding', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'c' }, target: {} }, status: 422, reason: 'Invalid', message: 'Binding "c" is invalid: target.name: Required value' },
    { name: 'binding whose name differs from the URL\'s is 400 (BindingREST)', method: 'POST', path: '/api/v1/namespaces/default/pods/c/binding', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'other' }, target: { name: 'node-1' } }, status: 400, reason: 'BadRequest', message: 'name in URL does not match name in Binding object' },
    { name: 'binding to something other than a Node is 422 (ValidatePodBinding)', method: 'POST', path: '/api/v1/namespaces/default/pods/c/binding', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'c' }, target: { kind: 'Pod', name: 'x' } }, status: 422, reason: 'Invalid', message: 'Binding "c" is invalid: target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"' },
    { name: 'binding with a stale uid precondition is 409', method: 'POST', path: '/api/v1/namespaces/default/pods/c/binding', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'c', uid: 'not-its-uid' }, target: { name: 'node-1' } }, status: 409, reason: 'Conflict', message: /^Operation cannot be fulfilled on pods "c": Precondition failed: UID in precondition: not-its-uid, UID in object meta: / },
    { name: 'a pod update cannot set spec.nodeName (only the binding can)', method: 'PATCH', path: '/api/v1/namespaces/default/pods/a', body: { spec: { nodeName: 'node-1' } }, status: 422, reason: 'Invalid', message: /^Pod "a" is invalid: spec: Forbidden: pod updates may not change fields other than/ },
    { name: 'a pod PUT without spec is 422 (the zero spec is an update of immutable fields), not 500', method: 'PUT', path: '/api/v1/namespaces/default/pods/a', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'default' } }, status: 422, reason: 'Invalid', message: /^Pod "a" is invalid: spec: Forbidden: pod updates may not change fields other than/ },
    { name: 'a POST to an object\'s own path is 405 and creates nothing (only the collection creates)', method: 'POST', path: '/api/v1/namespaces/default/pods/named-by-path', body: pod('named-by-body'), status: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' },
    { name: 'a POST to a pod\'s status is 405', method: 'POST', path: '/api/v1/namespaces/default/pods/a/status', body: pod('a'), status: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' },
    { name: 'a create-only resource has no object paths: a POST below the collection is 404', method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x', body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }, status: 404, reason: 'NotFound', message: 'the server could not find the requested resource' },
    // spec.affinity and spec.topologySpreadConstraints (validateAffinity, validateTopologySpreadConstraints), with upstream's paths.
    { name: 'a pod affinity term without topologyKey is 422: required, and not a qualified name', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('aff', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } } }] } } }), status: 422, reason: 'Invalid', message: 'Pod "aff" is invalid: [spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty, spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty, spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')]' },
    { name: 'a node affinity without terms is 422', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('naff', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } }), status: 422, reason: 'Invalid', message: 'Pod "naff" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term' },
    { name: 'a matchLabelKeys key also in the selector is 422 once merged with the pod\'s label (PrepareForCreate)', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('mlk', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app'] }] } } }, { app: 'web' }), status: 422, reason: 'Invalid', message: 'Pod "mlk" is invalid: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector' },
    { name: 'a topology spread constraint with an unknown whenUnsatisfiable is 422 with the supported values', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('tsc', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'Maybe' }] }), status: 422, reason: 'Invalid', message: 'Pod "tsc" is invalid: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"' },
    { name: 'two topology spread constraints on the same key and action are 422 (Duplicate)', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('tsc2', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }, { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] }), status: 422, reason: 'Invalid', message: 'Pod "tsc2" is invalid: spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"' },
    // Security contexts, OS fields, gates and the pod-specific annotations (v1.32's ValidatePodSpec and ValidatePodCreate).
    { name: 'a net sysctl beside hostNetwork is 422 (validateSysctls)', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('sy', { hostNetwork: true, securityContext: { sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }] } }), status: 422, reason: 'Invalid', message: 'Pod "sy" is invalid: spec.securityContext.sysctls[0].name: Invalid value: "net.ipv4.ip_forward": may not be specified when \'hostNetwork\' is true' },
    { name: 'a seccomp annotation that contradicts the field is 422 on create', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { ...pod('sc', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }), metadata: { name: 'sc', annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } } }, status: 422, reason: 'Invalid', message: 'Pod "sc" is invalid: spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match' },
    { name: 'an AppArmor annotation for no container, with a bad profile, is 422 with both errors', method: 'POST', path: '/api/v1/namespaces/default/pods', body: { ...pod('aa'), metadata: { name: 'aa', annotations: { 'container.apparmor.security.beta.kubernetes.io/x': 'bad' } } }, status: 422, reason: 'Invalid', message: 'Pod "aa" is invalid: [metadata.annotations[container.apparmor.security.beta.kubernetes.io/x]: Invalid value: "x": container not found, metadata.annotations[container.apparmor.security.beta.kubernetes.io/x]: Invalid value: "bad": invalid AppArmor profile name: "bad"]' },
    { name: 'a gated pod that names its node is 422', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('gt', { nodeName: 'node-1', schedulingGates: [{ name: 'example.com/wait' }] }), status: 422, reason: 'Invalid', message: 'Pod "gt" is invalid: spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared' },
    { name: 'a Windows pod with hostPID is 422 (validateWindows)', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('wi', { os: { name: 'windows' }, hostPID: true }), status: 422, reason: 'Invalid', message: 'Pod "wi" is invalid: spec.hostPID: Forbidden: cannot be set for a windows pod' },
    { name: 'a Localhost seccomp profile without its path is 422', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('sl', { containers: [{ name: 'c', image: 'busybox', securityContext: { seccompProfile: { type: 'Localhost' } } }] }), status: 422, reason: 'Invalid', message: 'Pod "sl" is invalid: spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost' },
    { name: 'a ulimit without soft is 422 (soft is required)', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('u', { containers: [{ name: 'c', image: 'busybox', securityContext: { ulimits: [{ name: 'nofile', hard: 10 }] } }] }), status: 422, reason: 'Invalid', message: 'Pod "u" is invalid: spec.containers[0].securityContext.ulimits[0].soft: Required value' },
    { name: 'a Binding body goes through the strict decoder: unknown field (400)', method: 'POST', path: '/api/v1/namespaces/default/pods/c/binding?fieldValidation=Strict', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'c' }, target: { kind: 'Node', name: 'node-1', bogus: 1 } }, status: 400, reason: 'BadRequest', message: 'Binding in version "v1" cannot be handled as a Binding: strict decoding error: unknown field "target.bogus"' },
    { name: 'a Binding body goes through the strict decoder: wrong type (400, not 422)', method: 'POST', path: '/api/v1/namespaces/default/pods/c/binding', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'c' }, target: { kind: 'Node', name: 5 } }, status: 400, reason: 'BadRequest', message: 'Binding in version "v1" cannot be handled as a Binding: json: cannot unmarshal number into Go struct field ObjectReference.target.name of type string' },
    { name: 'an Eviction body goes through the strict decoder: wrong type (400)', method: 'POST', path: '/api/v1/namespaces/default/pods/nope/eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'nope' }, deleteOptions: { gracePeriodSeconds: 'now' } }, status: 400, reason: 'BadRequest', message: 'Eviction in version "v1" cannot be handled as a Eviction: json: cannot unmarshal string into Go struct field DeleteOptions.deleteOptions.gracePeriodSeconds of type int64' },
    { name: 'deleting the default namespace is forbidden', method: 'DELETE', path: '/api/v1/namespaces/default', status: 403, reason: 'Forbidden', message: 'namespaces "default" is forbidden: this namespace may not be deleted' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await admin.request(c.method, c.path, c.body, c.method === 'PATCH' ? { 'Content-Type': 'application/strategic-merge-patch+json' } : {});
      assert.equal(r.status, c.status, r.text);
      const body = r.json();
      if (c.reason) {
        assert.equal(body.kind, 'Status');
        assert.equal(body.reason, c.reason);
        assert.equal(body.code, c.status);
      }
      if (typeof c.message === 'string') assert.equal(body.message, c.message);
      else if (c.message) assert.match(body.message, c.message);
      if (c.names) assert.deepEqual(body.items.map((p: { metadata: { name: string } }) => p.metadata.name), c.names);
    });
  }

  // Upstream pod-security-admission admission/admission_test.go TestValidatePodAndController, the
  // pod update cases: only a significant update (here a container image change) is evaluated, and
  // against the namespace's current labels.
  describe('Pod Security on pod updates', () => {
    const ns = 'psa-update';
    const nsPods = `/api/v1/namespaces/${ns}/pods`;
    const restrictedSC = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
    const smp = { 'Content-Type': 'application/strategic-merge-patch+json' };
    before(async () => {
      assert.equal((await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
      for (const [name, securityContext] of [['priv', { privileged: true }], ['restr', restrictedSC]] as const) {
        const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', securityContext }] } };
        assert.equal((await admin.request('POST', nsPods, body)).status, 201);
      }
      const label = { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } };
      assert.equal((await admin.request('PATCH', `/api/v1/namespaces/${ns}`, label, smp)).status, 200);
    });
    const rows: { name: string; pod: string; patch: unknown; status: number; message?: RegExp }[] = [
      { name: 'insignificant update (tolerations added) of a violating pod is allowed', pod: 'priv',
        patch: { spec: { tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }] } }, status: 200 },
      { name: 'an update of labels only of a violating pod is allowed', pod: 'priv', patch: { metadata: { labels: { x: 'y' } } }, status: 200 },
      { name: 'significant update denied: a new image for a violating pod is 403 with the enforce message', pod: 'priv',
        patch: { spec: { containers: [{ name: 'c', image: 'example.com/a-different-image' }] } }, status: 403,
        message: /^pods "priv" is forbidden: violates PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext\.privileged=true\), allowPrivilegeEscalation != false/ },
      { name: 'significant update allowed: a new image for a conforming pod', pod: 'restr',
        patch: { spec: { containers: [{ name: 'c', image: 'example.com/a-different-image' }] } }, status: 200 },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        const r = await admin.request('PATCH', `${nsPods}/${row.pod}`, row.patch, smp);
        assert.equal(r.status, row.status, r.text);
        if (row.message) {
          assert.equal(r.json().reason, 'Forbidden');
          assert.match(r.json().message, row.message);
        }
      });
    }
  });

  // EvaluatePod adds warn-mode warnings to any allowed request it evaluates, pod updates included
  // (upstream has no exception for updates): a significant update of a pod that violates the warn
  // level is warned, an insignificant one is not evaluated at all.
  describe('Pod Security warnings on pod updates', () => {
    const ns = 'psa-update-warn';
    const nsPods = `/api/v1/namespaces/${ns}/pods`;
    const smp = { 'Content-Type': 'application/strategic-merge-patch+json' };
    const text =
      'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)';
    before(async () => {
      assert.equal((await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
      const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'priv' }, spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] } };
      assert.equal((await admin.request('POST', nsPods, body)).status, 201);
      const label = { metadata: { labels: { 'pod-security.kubernetes.io/warn': 'baseline' } } };
      assert.equal((await admin.request('PATCH', `/api/v1/namespaces/${ns}`, label, smp)).status, 200);
    });
    const rows: { name: string; patch: unknown; warning?: string }[] = [
      { name: 'an insignificant update (labels): not evaluated, no warning', patch: { metadata: { labels: { x: 'y' } } } },
      { name: 'a significant update (a new image): allowed with the warning', patch: { spec: { containers: [{ name: 'c', image: 'example.com/a-different-image' }] } }, warning: `299 - ${JSON.stringify(text)}` },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        const r = await admin.request('PATCH', `${nsPods}/priv`, row.patch, smp);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers['warning'], row.warning);
      });
    }
  });

  // kube-apiserver's warning recorder sets each Warning header as it is added, so a warning from
  // an admission plugin that allowed the request reaches the client with a later plugin's error;
  // Pod Security's own enforce refusal carries no warn-level warning (EvaluatePod adds none to a
  // request it denies).
  describe('warnings on error responses', () => {
    const ns = 'warn-then-refused';
    const nsPods = `/api/v1/namespaces/${ns}/pods`;
    const warnText = 'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)';
    const privileged = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] } });
    before(async () => {
      const labels = { 'pod-security.kubernetes.io/warn': 'baseline' };
      assert.equal((await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } })).status, 201);
      const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'one-pod' }, spec: { hard: { pods: '1' } } };
      assert.equal((await admin.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota)).status, 201);
    });
    it('allowed: 201 with the warn-level warning', async () => {
      const r = await admin.request('POST', nsPods, privileged('first'));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers['warning'], `299 - ${JSON.stringify(warnText)}`);
    });
    it('then refused by the quota: the 403 carries the same warning', async () => {
      const r = await admin.request('POST', nsPods, privileged('second'));
      assert.equal(r.status, 403, r.text);
      assert.match(r.json().message, /exceeded quota: one-pod/);
      assert.equal(r.headers['warning'], `299 - ${JSON.stringify(warnText)}`);
    });
    it('refused by Pod Security enforce itself: no warn-level warning', async () => {
      const enforce = { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
      assert.equal((await admin.request('PATCH', `/api/v1/namespaces/${ns}`, enforce, { 'Content-Type': 'application/strategic-merge-patch+json' })).status, 200);
      const r = await admin.request('POST', nsPods, privileged('third'));
      assert.equal(r.status, 403, r.text);
      assert.match(r.json().message, /violates PodSecurity "baseline:latest"/);
      assert.equal(r.headers['warning'], undefined);
    });
  });

  it('paging with limit and continue returns every item once', async () => {
    const first = (await admin.request('GET', '/api/v1/namespaces/default/pods?limit=2')).json();
    assert.equal(first.items.length, 2);
    assert.ok(first.metadata.continue);
    const second = (await admin.request('GET', `/api/v1/namespaces/default/pods?limit=2&continue=${first.metadata.continue}`)).json();
    assert.deepEqual([...first.items, ...second.items].map((p: { metadata: { name: string } }) => p.metadata.name), ['a', 'b', 'c']);
    assert.equal(second.metadata.continue, undefined);
  });

  it('binding assigns the node once, with the Binding\'s annotations and PodScheduled=True in the same write; a second binding conflicts', async () => {
    const bind = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b', annotations: { 'example.com/bound-by': 'test' } }, target: { kind: 'Node', name: 'node-1' } };
    const r = await admin.request('POST', '/api/v1/namespaces/default/pods/b/binding', bind);
    assert.equal(r.status, 201, r.text);
    const bound = (await admin.request('GET', '/api/v1/namespaces/default/pods/b')).json();
    assert.equal(bound.spec.nodeName, 'node-1');
    assert.equal(bound.metadata.annotations['example.com/bound-by'], 'test');
    const scheduled = bound.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
    assert.equal(scheduled.status, 'True');
    assert.match(scheduled.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const again = await admin.request('POST', '/api/v1/namespaces/default/pods/b/binding', bind);
    assert.equal(again.status, 409);
    assert.equal(again.json().message, 'Operation cannot be fulfilled on pods/binding "b": pod b is already assigned to node "node-1"');
  });

  it('deleting a bound pod is graceful: deletionTimestamp and grace period, the pod stays', async () => {
    const r = await admin.request('DELETE', '/api/v1/namespaces/default/pods/b', { gracePeriodSeconds: 30 });
    assert.equal(r.status, 200, r.text);
    const p = r.json();
    assert.equal(p.metadata.deletionGracePeriodSeconds, 30);
    assert.ok(p.metadata.deletionTimestamp);
    const table = (await admin.request('GET', '/api/v1/namespaces/default/pods/b', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json();
    assert.equal(table.kind, 'Table');
    assert.equal(table.rows[0].cells[2], 'Terminating');
    const force = await admin.request('DELETE', '/api/v1/namespaces/default/pods/b', { gracePeriodSeconds: 0 });
    assert.equal(force.status, 200);
    assert.equal((await admin.request('GET', '/api/v1/namespaces/default/pods/b')).status, 404);
  });

  it('the POST to an object path created nothing under either name', async () => {
    for (const name of ['named-by-path', 'named-by-body']) assert.equal((await admin.request('GET', `/api/v1/namespaces/default/pods/${name}`)).status, 404);
  });

  it('a create in a terminating namespace is 403 with the NamespaceTerminating cause, as the NamespaceLifecycle plugin answers', async () => {
    await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ending' } });
    // A pod bound to a node goes gracefully, so the namespace stays Terminating while it is there.
    const bound = { ...pod('held'), spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } };
    assert.equal((await admin.request('POST', '/api/v1/namespaces/ending/pods', bound)).status, 201);
    assert.equal((await admin.request('DELETE', '/api/v1/namespaces/ending')).status, 200);
    const r = await admin.request('POST', '/api/v1/namespaces/ending/pods', pod('late'));
    assert.equal(r.status, 403, r.text);
    const why = 'unable to create new content in namespace ending because it is being terminated';
    assert.equal(r.json().message, `pods "late" is forbidden: ${why}`);
    assert.deepEqual(r.json().details.causes, [{ reason: 'NamespaceTerminating', message: why, field: 'metadata.namespace' }]);
    await admin.request('DELETE', '/api/v1/namespaces/ending/pods/held', { gracePeriodSeconds: 0 });
  });

  it('a Binding with an unknown field under fieldValidation=Warn binds, with a warning', async () => {
    assert.equal((await admin.request('POST', '/api/v1/namespaces/default/pods', pod('warned'))).status, 201);
    const bind = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'warned' }, target: { kind: 'Node', name: 'node-1', bogus: 1 } };
    const r = await admin.request('POST', '/api/v1/namespaces/default/pods/warned/binding?fieldValidation=Warn', bind);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.warning, '299 - "unknown field \\"target.bogus\\""');
    assert.equal((await admin.request('GET', '/api/v1/namespaces/default/pods/warned')).json().spec.nodeName, 'node-1');
  });

  it('without fieldValidation an unknown field is a warning (handlers/rest.go defaults to Warn; kubectl sends Strict itself)', async () => {
    for (const q of ['', '?fieldValidation=']) {
      const name = `default-warn${q ? '-empty' : ''}`;
      const body = { ...pod(name), spec: { containers: [{ name: 'c', image: 'busybox' }], bogus: 1 } };
      const r = await admin.request('POST', `/api/v1/namespaces/default/pods${q}`, body);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.warning, '299 - "unknown field \\"spec.bogus\\""');
    }
  });

  it('eviction deletes an unscheduled pod and answers 201 Success', async () => {
    assert.equal((await admin.request('POST', '/api/v1/namespaces/default/pods', pod('evictee'))).status, 201);
    const r = await admin.request('POST', '/api/v1/namespaces/default/pods/evictee/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evictee' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().status, 'Success');
    assert.equal((await admin.request('GET', '/api/v1/namespaces/default/pods/evictee')).status, 404);
  });

  it('a stale resourceVersion on update is 409 Conflict', async () => {
    const cur = (await admin.request('GET', '/api/v1/namespaces/default/pods/a')).json();
    const stale = { ...cur, metadata: { ...cur.metadata, resourceVersion: '1' } };
    const r = await admin.request('PUT', '/api/v1/namespaces/default/pods/a', stale);
    assert.equal(r.status, 409);
    assert.equal(r.json().message, 'Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again');
  });

  it('watch streams newline-delimited events from a resourceVersion', async () => {
    const list = (await admin.request('GET', '/api/v1/namespaces/default/pods')).json();
    const events: { type: string; object: { metadata: { name: string } } }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const req = request(new URL(`/api/v1/namespaces/default/pods?watch=true&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=2`, s.url), { ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}` } }, (res) => {
        let buf = '';
        res.on('data', (d: Buffer) => {
          buf += d.toString();
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            events.push(JSON.parse(buf.slice(0, i)));
            buf = buf.slice(i + 1);
          }
        });
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
    await new Promise((r) => setTimeout(r, 200));
    await admin.request('POST', '/api/v1/namespaces/default/pods', pod('watched'));
    await admin.request('DELETE', '/api/v1/namespaces/default/pods/watched', {});
    await done;
    assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'watched'], ['DELETED', 'watched']]);
  });

  it('a watch from a compacted revision gets an ERROR event with 410 Expired', async () => {
    const rev = await s.store.currentRevision();
    await admin.request('POST', '/api/v1/namespaces/default/pods', pod('compact-me'));
    await s.store.compact(await s.store.currentRevision());
    const r = await admin.request('GET', `/api/v1/namespaces/default/pods?watch=true&resourceVersion=${rev - 1}`);
    const ev = JSON.parse(r.text.trim().split('\n')[0]!);
    assert.equal(ev.type, 'ERROR');
    assert.equal(ev.object.code, 410);
    assert.equal(ev.object.reason, 'Expired');
    assert.match(ev.object.message, /^too old resource version: \d+ \(\d+\)$/);
  });

  it('the server compacts history on its interval; a watch from before it gets 410', async () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'bulkhead-compact-'));
    const s2 = await startServer({ dataDir: join(dir2, 'data'), store: 'memory:', port: 0, compactionSeconds: 0.2 });
    try {
      const before = await s2.store.currentRevision();
      const c2 = new Client(s2.url, s2.caCert, s2.adminToken);
      await c2.request('POST', '/api/v1/namespaces/default/pods', pod('later'));
      const deadline = Date.now() + 5000;
      while ((await s2.store.compactRevision()) <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok((await s2.store.compactRevision()) > before, 'no compaction happened');
      const r = await c2.request('GET', `/api/v1/namespaces/default/pods?watch=true&resourceVersion=${before - 1}`);
      assert.equal(JSON.parse(r.text.trim().split('\n')[0]!).object.code, 410);
      c2.close();
    } finally {
      await s2.close();
      rmSync(dir2, { recursive: true, force: true });
    }
  });

  it('anonymous callers reach version and health only', async () => {
    const anon = new Client(s.url, s.caCert);
    try {
      assert.equal((await anon.request('GET', '/version')).status, 200);
      assert.equal((await anon.request('GET', '/readyz')).text, 'ok');
      const r = await anon.request('GET', '/api/v1/pods');
      assert.equal(r.status, 401);
      assert.equal(r.json().reason, 'Unauthorized');
      const bad = new Client(s.url, s.caCert, 'not-a-token');
      assert.equal((await bad.request('GET', '/version')).status, 401);
      bad.close();
    } finally {
      anon.close();
    }
  });

  it('a node may list only its own pods, touch only pods bound to it, and not create pods', async () => {
    const node = new Client(s.url, s.caCert, s.nodeToken('node-9'));
    try {
      const all = await node.request('GET', '/api/v1/pods');
      assert.equal(all.status, 403);
      assert.match(all.json().message, /^pods is forbidden: User "system:node:node-9" cannot list resource "pods" in API group "" at the cluster scope/);
      assert.equal((await node.request('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-9')).status, 200);
      const other = await node.request('GET', '/api/v1/namespaces/default/pods/a');
      assert.equal(other.status, 403);
      assert.match(other.json().message, /no relationship found between node 'node-9' and this object/);
      assert.equal((await node.request('POST', '/api/v1/namespaces/default/pods', pod('sneaky'))).status, 403);
      const ownNode = await node.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-9' } });
      assert.equal(ownNode.status, 201, ownNode.text);
      assert.equal((await admin.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-9x' } })).status, 201);
      const otherNode = await node.request('PATCH', '/api/v1/nodes/node-9x', { metadata: { labels: { x: 'y' } } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(otherNode.status, 403);
      assert.equal(otherNode.json().message, 'nodes "node-9x" is forbidden: node "node-9" is not allowed to modify node "node-9x"');
    } finally {
      node.close();
    }
  });
});
