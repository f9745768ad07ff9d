import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bulkhead, node16Gi } from './run.js';
import { runPlan, type HostFacts } from '../../src/cli/plan.js';
import { defaultEvictionHard } from '../../src/policy/eviction.js';

function planJSON(args: string[], input?: string) {
  const r = bulkhead(['plan', ...args, ...node16Gi, '-o', 'json'], input);
  assert.ok(r.stdout.length > 0, `no output; stderr: ${r.stderr}`);
  return { ...r, json: JSON.parse(r.stdout) };
}

const noStackTrace = (s: string) => assert.doesNotMatch(s, /\n\s+at /, `stack trace in output:\n${s}`);

describe('bulkhead plan: exit status', () => {
  const cases: { name: string; args: string[]; input?: string; code: number; stderr?: RegExp }[] = [
    { name: 'every bundled example is admitted: exit 0', args: ['examples/'], code: 0 },
    { name: 'a refused pod gives exit 1', args: ['examples/quota-scopes.yaml', 'examples/refused/quota-scopes-overflow.yaml'], code: 1 },
    { name: 'a missing file is unreadable input: exit 2 naming the path', args: ['nope.yaml'], code: 2, stderr: /^error: the path "nope.yaml" does not exist\n$/ },
    { name: 'broken YAML names the file and the document', args: ['-'], input: 'apiVersion: v1\nkind: Pod\n---\nkind: Pod\n  bad: [\n', code: 2, stderr: /^error: <stdin>: document 2: invalid YAML: .*line \d+, column \d+/ },
    { name: 'an unknown kind names the file and document', args: ['-'], input: 'apiVersion: v1\nkind: Endpoints\nmetadata: {name: d}\n', code: 2, stderr: /^error: <stdin>: document 1: unknown kind "Endpoints"/ },
    { name: 'a Service is understood: exit 0', args: ['-'], input: 'apiVersion: v1\nkind: Service\nmetadata: {name: d}\nspec: {ports: [{port: 80}]}\n', code: 0 },
    { name: 'an invalid Service is refused as the server refuses it: exit 1', args: ['-'], input: 'apiVersion: v1\nkind: Service\nmetadata: {name: d}\nspec: {ports: [{port: 0}]}\n', code: 1 },
    { name: 'RBAC objects beside a pod are understood (checkKinds takes the four kinds): exit 0', args: ['-'], input: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\nrules: [{apiGroups: [""], resources: [pods], verbs: [get]}]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: r}\nsubjects: [{kind: User, name: bob}]\nroleRef: {kind: Role, name: r}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: c}\nrules: [{nonResourceURLs: [/healthz], verbs: [get]}]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: c}\nsubjects: [{kind: Group, name: ops}]\nroleRef: {kind: ClusterRole, name: c}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: busybox}]}\n', code: 0 },
    { name: 'an invalid Role is refused as the server refuses it: exit 1', args: ['-'], input: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\nrules: [{verbs: [get], nonResourceURLs: [/x]}]\n', code: 1 },
    { name: 'a PriorityClass document is understood and resolves a pod\'s class: exit 0', args: ['-'], input: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {priorityClassName: high, containers: [{name: c, image: busybox}]}\n', code: 0 },
    { name: 'a pod naming an unknown PriorityClass is refused as the server refuses it: exit 1', args: ['-'], input: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {priorityClassName: foo, containers: [{name: c, image: busybox}]}\n', code: 1 },
    { name: 'a PriorityClass in the wrong version is refused', args: ['-'], input: 'apiVersion: v1\nkind: PriorityClass\nmetadata: {name: p}\nvalue: 1\n', code: 2, stderr: /no matches for kind "PriorityClass" in version "v1" \(expected apiVersion "scheduling.k8s.io\/v1"\)/ },
    { name: 'a wrong apiVersion for a known kind is refused', args: ['-'], input: 'apiVersion: v2\nkind: Pod\nmetadata: {name: p}\n', code: 2, stderr: /no matches for kind "Pod" in version "v2"/ },
    { name: 'a document without kind', args: ['-'], input: 'apiVersion: v1\nmetadata: {name: p}\n', code: 2, stderr: /document 1: Object 'Kind' is missing/ },
    { name: 'a bad flag value is one line and exit 2', args: ['examples/', '--cgroup-version', '3'], code: 2, stderr: /^error: invalid value "3" for --cgroup-version: must be 1 or 2\n$/ },
    { name: 'an unknown flag is exit 2', args: ['examples/', '--no-such-flag'], code: 2, stderr: /unknown option '--no-such-flag'/ },
    { name: 'an unknown feature gate uses component-base wording', args: ['examples/', '--feature-gates', 'Nope=true'], code: 2, stderr: /unrecognized feature gate: Nope/ },
    { name: 'an invalid node memory quantity', args: ['examples/', '--node-memory', '16GB'], code: 2, stderr: /^error: invalid value "16GB" for --node-memory: quantities must match the regular expression/ },
    { name: 'singleProcessOOMKill=false on cgroup v1 is a configuration error', args: ['examples/', '--cgroup-version', '1', '--single-process-oom-kill=false'], code: 2, stderr: /singleProcessOOMKill must not be explicitly set to false when using cgroup v1/ },
    { name: 'a bad pod security level', args: ['examples/', '--pod-security', 'strict'], code: 2, stderr: /must be one of privileged, baseline, restricted/ },
    { name: 'an admission control config file that is not there', args: ['examples/', '--admission-control-config-file', 'nope.yaml'], code: 2,
      stderr: /^error: --admission-control-config-file nope.yaml: unable to read admission control configuration from "nope.yaml" \[ENOENT: no such file or directory, open 'nope.yaml'\]\n$/ },
    { name: 'an admission control config file that is no AdmissionConfiguration', args: ['examples/', '--admission-control-config-file', 'examples/app.yaml'], code: 2,
      stderr: /^error: --admission-control-config-file examples\/app.yaml: error converting YAML to JSON: expected a single document in the stream, but found more\n$/ },
    { name: '--pod-security with an admission control config file', args: ['examples/', '--pod-security', 'baseline', '--admission-control-config-file', 'examples/admission/pod-security.yaml'], code: 2,
      stderr: /^error: --pod-security and --admission-control-config-file cannot be used together: set defaults.enforce \(and enforce-version\) in the PodSecurity configuration instead\n$/ },
    { name: 'a malformed eviction threshold', args: ['examples/', '--eviction-hard', 'memory.available=100Mi'], code: 2, stderr: /malformed pair, expect string<string/ },
    { name: 'no manifests at all', args: [], code: 2, stderr: /no manifests given/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const node = c.args.includes('--node-memory') ? [] : ['--node-memory', '16Gi', '--node-cpu', '4'];
      const r = bulkhead(['plan', ...c.args, ...node], c.input);
      assert.equal(r.code, c.code, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
      if (c.stderr) assert.match(r.stderr, c.stderr);
      noStackTrace(r.stderr);
    });
  }
});

describe('bulkhead plan: JSON contract', () => {
  const { json, code } = planJSON(['examples/oom-kill-modes.yaml', 'examples/elasticsearch-nofile.yaml', 'examples/qos-trio.yaml']);
  it('exits 0 when all pods are admitted', () => assert.equal(code, 0));
  it('lists every pod with the contract fields', () => {
    assert.deepEqual(json.pods.map((p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`), [
      'shop/web-and-db', 'search/elasticsearch', 'qos/guaranteed', 'qos/burstable', 'qos/besteffort',
    ]);
    for (const p of json.pods) {
      for (const k of ['namespace', 'name', 'admitted', 'errors', 'rejections', 'warnings', 'object', 'qosClass', 'podCgroup', 'sandbox', 'containers']) {
        assert.ok(k in p, `pod ${p.name} lacks ${k}`);
      }
      assert.equal(p.sandbox.oomScoreAdj, -998);
      assert.equal(p.object.status.qosClass, p.qosClass);
    }
    assert.ok(Array.isArray(json.quotas));
  });
  it('computes QoS, oom_score_adj and the pod cgroup of the trio', () => {
    const byName = Object.fromEntries(json.pods.map((p: { name: string }) => [p.name, p]));
    assert.equal(byName.guaranteed.qosClass, 'Guaranteed');
    assert.equal(byName.guaranteed.containers[0].oomScoreAdj, -997);
    assert.match(byName.guaranteed.podCgroup.path, /^\/kubepods\/pod[0-9a-f-]{36}$/);
    assert.equal(byName.burstable.qosClass, 'Burstable');
    // 1000 - 1000*512Mi/16Gi = 1000 - 31 = 969
    assert.equal(byName.burstable.containers[0].oomScoreAdj, 969);
    assert.match(byName.burstable.podCgroup.path, /^\/kubepods\/burstable\/pod/);
    assert.equal(byName.besteffort.qosClass, 'BestEffort');
    assert.equal(byName.besteffort.containers[0].oomScoreAdj, 1000);
    assert.deepEqual(byName.besteffort.podCgroup.values, { 'cpu.weight': '1' });
    assert.deepEqual(byName.guaranteed.podCgroup.values, { 'cpu.weight': '20', 'cpu.max': '50000 100000', 'memory.max': '268435456' });
  });
  it('gives each container its OOM kill mode with the source of the decision', () => {
    const web = json.pods[0];
    assert.deepEqual(web.containers.map((c: { name: string; oomKillMode: string; oomKillModeSource: string; cgroup: Record<string, string> }) => [c.name, c.oomKillMode, c.oomKillModeSource, c.cgroup['memory.oom.group']]), [
      ['web', 'Single', 'container', '0'],
      ['database', 'Group', 'default', '1'],
    ]);
  });
  it('turns ulimits into rlimits, -1 as "unlimited"', () => {
    const es = json.pods[1];
    assert.deepEqual(es.containers[0].rlimits, [
      { type: 'RLIMIT_NOFILE', soft: 65535, hard: 65535 },
      { type: 'RLIMIT_MEMLOCK', soft: 'unlimited', hard: 'unlimited' },
    ]);
  });
  it('stores canonical quantities and defaults requests from limits', () => {
    const g = json.pods[2].object.spec.containers[0].resources;
    assert.deepEqual(g, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '500m', memory: '256Mi' } });
  });
});

describe('bulkhead plan: -f/--filename as kubectl', () => {
  const podsOf = (args: string[]) => planJSON(args).json.pods.map((p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`);
  const trio = ['qos/guaranteed', 'qos/burstable', 'qos/besteffort'];
  const es = ['search/elasticsearch'];
  const cases: { name: string; args: string[]; input?: string; pods: string[] }[] = [
    { name: '-f reads a file', args: ['-f', 'examples/qos-trio.yaml'], pods: trio },
    { name: '--filename reads a file', args: ['--filename', 'examples/qos-trio.yaml'], pods: trio },
    { name: '--filename=PATH reads a file', args: ['--filename=examples/qos-trio.yaml'], pods: trio },
    { name: '-f is repeatable, in order', args: ['-f', 'examples/elasticsearch-nofile.yaml', '-f', 'examples/qos-trio.yaml'], pods: [...es, ...trio] },
    { name: '-f takes comma-separated paths', args: ['-f', 'examples/elasticsearch-nofile.yaml,examples/qos-trio.yaml'], pods: [...es, ...trio] },
    { name: 'positional paths come before -f paths', args: ['examples/qos-trio.yaml', '-f', 'examples/elasticsearch-nofile.yaml'], pods: [...trio, ...es] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(podsOf(c.args), c.pods));
  it('-f - reads standard input', () => {
    const r = bulkhead(['plan', '-f', '-', ...node16Gi, '-o', 'json'], 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: busybox}]}\n');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).pods.map((p: { name: string }) => p.name), ['p']);
  });
  it('-f of a missing file names it, exit 2', () => {
    const r = bulkhead(['plan', '-f', 'nope.yaml', ...node16Gi]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: the path "nope.yaml" does not exist\n$/);
  });
});

describe('bulkhead plan: admission', () => {
  it('charges quotas in input order and names the quota that refuses', () => {
    const { json, code } = planJSON(['examples/quota-scopes.yaml', 'examples/refused/quota-scopes-overflow.yaml']);
    assert.equal(code, 1);
    const verdicts = json.pods.map((p: { name: string; admitted: boolean; rejections: { by: string; message: string }[] }) => [p.name, p.admitted, p.rejections[0]?.message ?? '']);
    assert.deepEqual(verdicts, [
      ['scratch-1', true, ''],
      ['build-1', true, ''],
      ['web-1', true, ''],
      ['scratch-2', true, ''],
      ['scratch-3', false, 'pods "scratch-3" is forbidden: exceeded quota: quota-best-effort, requested: pods=1, used: pods=2, limited: pods=2'],
      ['build-2', false, 'pods "build-2" is forbidden: exceeded quota: quota-terminating, requested: limits.memory=768Mi, used: limits.memory=512Mi, limited: limits.memory=1Gi'],
      ['web-2', false, 'pods "web-2" is forbidden: failed quota: quota-longrunning: must specify limits.cpu for: web; limits.memory for: web'],
    ]);
    const quota = json.quotas.find((q: { name: string }) => q.name === 'quota');
    assert.deepEqual(quota.used, { pods: '4' });
  });
  it('refuses ulimits under Pod Security baseline with the design message', () => {
    const { json, code } = planJSON(['examples/refused/ulimits-baseline.yaml']);
    assert.equal(code, 1);
    assert.deepEqual(json.pods[0].rejections, [{
      by: 'PodSecurity',
      message: 'pods "elasticsearch" is forbidden: violates PodSecurity "baseline:latest": ulimits (container "elasticsearch" must not set securityContext.ulimits)',
    }]);
  });
  it('admits the same pod in a namespace the admission configuration exempts, saying why', () => {
    const { json, code } = planJSON(['examples/refused/ulimits-baseline.yaml', '--admission-control-config-file', 'examples/admission/pod-security.yaml']);
    assert.equal(code, 0);
    assert.equal(json.pods[0].admitted, true);
    assert.equal(json.pods[0].podSecurityExempt, 'namespace');
    assert.deepEqual(json.objectWarnings, [{
      kind: 'Namespace', name: 'search-baseline', source: { file: 'examples/refused/ulimits-baseline.yaml', document: 1 },
      message: 'namespace "search-baseline" is exempt from Pod Security, and the policy (enforce=baseline:latest) will be ignored',
    }]);
  });
  it("the ResourceQuota configuration's limitedResources refuse a pod no quota covers, and say so", () => {
    const { json, code } = planJSON(['examples/refused/limited-priority.yaml', '--admission-control-config-file', 'examples/admission/resource-quota.yaml']);
    assert.equal(code, 1);
    assert.deepEqual(json.pods.map((p: { namespace: string; admitted: boolean; rejections: unknown[] }) => [p.namespace, p.admitted, p.rejections]), [
      ['kube-ops', true, []],
      ['team', false, [{ by: 'ResourceQuota', message: 'insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]', limitedResources: true }]],
    ]);
    assert.deepEqual(json.quotas, [{ namespace: 'kube-ops', name: 'cluster-services', hard: { pods: '2' }, used: { pods: '1' } }]);
  });
  it('limitedResources apply to the other kinds a plan charges: a LoadBalancer Service, a ConfigMap', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-plan-rq-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const config = join(dir, 'admission.yaml');
    writeFileSync(config, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: ResourceQuotaConfiguration\n    limitedResources:\n    - {resource: services, matchContains: [loadbalancers]}\n    - {resource: configmaps, matchContains: [count/]}\n');
    const input = [
      'apiVersion: v1\nkind: Service\nmetadata: {name: lb}\nspec: {type: LoadBalancer, ports: [{port: 80}]}',
      'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}',
    ].join('\n---\n');
    const { json, code } = planJSON(['-', '--admission-control-config-file', config], input);
    assert.equal(code, 1);
    assert.deepEqual(json.rejectedObjects.map((o: { kind: string; name: string; message: string }) => [o.kind, o.name, o.message]), [
      ['Service', 'lb', 'services "lb" is forbidden: insufficient quota to consume: services.loadbalancers'],
      ['ConfigMap', 'settings', 'configmaps "settings" is forbidden: insufficient quota to consume: count/configmaps'],
    ]);
  });
  it("the configuration's defaults govern namespaces without labels, and only those", () => {
    const input = [
      'apiVersion: v1\nkind: Pod\nmetadata: {name: root, namespace: unlabelled}\nspec: {containers: [{name: c, image: busybox, securityContext: {privileged: true}}]}',
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: open, labels: {pod-security.kubernetes.io/enforce: privileged}}',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: root, namespace: open}\nspec: {containers: [{name: c, image: busybox, securityContext: {privileged: true}}]}',
    ].join('\n---\n');
    const { json, code } = planJSON(['-', '--admission-control-config-file', 'examples/admission/pod-security.yaml'], input);
    assert.equal(code, 1);
    assert.deepEqual(json.pods.map((p: { namespace: string; admitted: boolean; podSecurityExempt?: string }) => [p.namespace, p.admitted, p.podSecurityExempt]), [['unlabelled', false, undefined], ['open', true, undefined]]);
    assert.match(json.pods[0].rejections[0].message, /violates PodSecurity "baseline:latest": privileged/);
  });
  it('reports validation errors with field paths and Kubernetes wording', () => {
    const { json, code } = planJSON(['examples/refused/invalid.yaml']);
    assert.equal(code, 1);
    const pod = json.pods[0];
    assert.equal(pod.admitted, false);
    assert.equal(pod.rejections[0].by, 'Validation');
    assert.match(pod.rejections[0].message, /^Pod "bad-resources" is invalid: \[/);
    const fields = pod.errors.map((e: { field: string }) => e.field);
    assert.ok(fields.includes('spec.containers[0].resources.requests'), fields.join(','));
    assert.ok(fields.includes('spec.containers[0].oomKillMode'), fields.join(','));
    assert.ok(fields.some((f: string) => f.startsWith('spec.containers[0].securityContext.ulimits[0]')), fields.join(','));
    const quota = json.rejectedObjects.find((o: { kind: string }) => o.kind === 'ResourceQuota');
    assert.ok(quota.errors.some((e: { message: string }) => e.message.includes('limits.memory')), JSON.stringify(quota.errors));
  });
  it('an invalid quantity in a pod names the field, not a stack trace', () => {
    const r = planJSON(['-'], 'apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  containers:\n  - name: a\n    image: busybox\n    resources: {limits: {cpu: lots}}\n');
    assert.equal(r.code, 1);
    assert.deepEqual(r.json.pods[0].errors.map((e: { field: string }) => e.field), ['spec.containers[0].resources.limits[cpu]']);
    assert.match(r.json.pods[0].rejections[0].message, /^Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression/);
  });
  it('a decoding error is printed whole, as the API server words it, with the field it is about', () => {
    const input = 'apiVersion: v1\nkind: Pod\nmetadata: {name: d}\nspec:\n  containers:\n  - {name: a, image: busybox, ports: [{containerPort: "80"}], bogus: 1}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: u}\nspec:\n  containers:\n  - {name: a, image: busybox, bogus: 1}\n';
    const r = bulkhead(['plan', '-', ...node16Gi], input);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stdout.includes([
      '    refused by Validation: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
      '      at spec.containers[0].ports[0].containerPort',
    ].join('\n')), r.stdout);
    assert.ok(r.stdout.includes('    refused by Validation: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"\n'), r.stdout);
  });
  it('a ulimit without soft is refused by validation, as the server does (422)', () => {
    const r = planJSON(['-'], 'apiVersion: v1\nkind: Pod\nmetadata: {name: u}\nspec:\n  containers:\n  - name: a\n    image: busybox\n    securityContext: {ulimits: [{name: nofile, hard: 10}]}\n');
    assert.equal(r.code, 1);
    assert.deepEqual(r.json.pods[0].rejections, [{ by: 'Validation', message: 'Pod "u" is invalid: spec.containers[0].securityContext.ulimits[0].soft: Required value' }]);
    assert.deepEqual(r.json.pods[0].errors, [{ field: 'spec.containers[0].securityContext.ulimits[0].soft', type: 'FieldValueRequired', message: 'Required value' }]);
  });
  it('refuses bad affinity and topology spread as the server does (422), with every field error', () => {
    const r = planJSON(['-'], [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: spread, labels: {app: web}}',
      'spec:',
      '  containers: [{name: a, image: busybox}]',
      '  affinity:',
      '    nodeAffinity:',
      '      preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, preference: {matchFields: [{key: metadata.name, operator: In, values: [a, b]}]}}]',
      '    podAntiAffinity:',
      '      requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [app]}]',
      '  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 2}]',
      '',
    ].join('\n'));
    assert.equal(r.code, 1);
    assert.deepEqual(r.json.pods[0].errors, [
      { field: 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight', type: 'FieldValueInvalid', message: 'Invalid value: 0: must be in the range 1-100' },
      { field: 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].values', type: 'FieldValueRequired', message: "Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector" },
      { field: 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]', type: 'FieldValueInvalid', message: 'Invalid value: "app": exists in both matchLabelKeys and labelSelector' },
      { field: 'spec.topologySpreadConstraints[0].minDomains', type: 'FieldValueInvalid', message: 'Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway' },
    ]);
    assert.equal(r.json.pods[0].rejections[0].by, 'Validation');
    assert.match(r.json.pods[0].rejections[0].message, /^Pod "spread" is invalid: \[spec\.affinity\.nodeAffinity\./);
  });
  it('drops a disabled field with a warning', () => {
    const r = planJSON(['examples/oom-kill-modes.yaml', '--feature-gates', 'ContainerOOMKillMode=false']);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json.pods[0].warnings, ['spec.containers[0].oomKillMode: field dropped because the ContainerOOMKillMode feature gate is disabled']);
    assert.equal(r.json.pods[0].containers[0].oomKillModeSource, 'default');
    assert.equal('oomKillMode' in r.json.pods[0].object.spec.containers[0], false);
  });
  it('Group on a cgroup v1 node is a container creation error, and emulation lifts it', () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: g}\nspec:\n  containers:\n  - {name: db, image: busybox, oomKillMode: Group}\n';
    const v1 = bulkhead(['plan', '-', '--node-memory', '4Gi', '--cgroup-version', '1', '-o', 'json'], pod);
    const c = JSON.parse(v1.stdout).pods[0].containers[0];
    assert.equal(c.oomKillModeError, 'oomKillMode=Group requires cgroup v2 support on the node (run the node agent with --oom-group-emulation, or schedule the pod to a cgroup v2 node)');
    const em = bulkhead(['plan', '-', '--node-memory', '4Gi', '--cgroup-version', '1', '--oom-group-emulation', '-o', 'json'], pod);
    const ce = JSON.parse(em.stdout).pods[0].containers[0];
    assert.equal(ce.oomKillModeError, undefined);
    assert.equal(ce.oomKillModeEmulated, true);
  });
  it('ranks pods for eviction from --usage', () => {
    const r = planJSON(['examples/qos-trio.yaml', '--usage', 'examples/usage/qos-trio.yaml']);
    // burstable uses more than it requests; then priority (all 0); then usage above request
    assert.deepEqual(r.json.evictionOrder, ['qos/burstable', 'qos/besteffort', 'qos/guaranteed']);
  });
  it('reads a List document and standard input', () => {
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    ] });
    const r = planJSON(['-'], list);
    assert.deepEqual(r.json.pods.map((p: { name: string; source: { item: number } }) => [p.name, p.source.item]), [['a', 0], ['b', 1]]);
  });
});

describe('bulkhead plan: output formats', () => {
  it('prints a readable table with the verdict, QoS and container details', () => {
    const r = bulkhead(['plan', 'examples/quota-scopes.yaml', 'examples/refused/quota-scopes-overflow.yaml', ...node16Gi]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /quota-demo\/scratch-3\s+BestEffort\s+REFUSED/);
    assert.match(r.stdout, /refused by ResourceQuota: pods "scratch-3" is forbidden: exceeded quota: quota-best-effort/);
    assert.match(r.stdout, /CONTAINER\s+KIND\s+OOM_SCORE_ADJ\s+OOM KILL MODE/);
    assert.match(r.stdout, /7 pods: 4 admitted, 3 refused/);
  });
  it('YAML output carries the same data as JSON', async () => {
    const { load } = await import('js-yaml');
    const y = bulkhead(['plan', 'examples/qos-trio.yaml', ...node16Gi, '-o', 'yaml']);
    const j = bulkhead(['plan', 'examples/qos-trio.yaml', ...node16Gi, '-o', 'json']);
    const strip = (v: unknown) => JSON.parse(JSON.stringify(v));
    assert.deepEqual(strip(load(y.stdout)), JSON.parse(j.stdout));
  });
});

describe('bulkhead --help', () => {
  for (const args of [['--help'], ['plan', '--help'], []]) {
    it(`bulkhead ${args.join(' ')} prints usage and exits 0`, () => {
      const r = bulkhead(args);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Usage: bulkhead/);
    });
  }
  it('bulkhead plan --help says that usernames exemptions do not apply to a plan', () => {
    const r = bulkhead(['plan', '--help']);
    assert.match(r.stdout.replace(/\s+/g, ' '), /--admission-control-config-file <file> an AdmissionConfiguration .* A plan has no requesting user: exemptions\.usernames never apply \(namespaces and runtimeClasses do\)/);
  });
});

describe('bulkhead plan --this-host: a pod asking for hard ulimits above the host\'s ceilings', () => {
  // The host of ../shared/reference/linux-host.md: no CAP_SYS_RESOURCE, so its own hard limits are ceilings.
  const host: HostFacts = {
    memoryVersion: 1,
    minOomScoreAdj: 0,
    hardRlimitCeilings: { RLIMIT_NOFILE: 20000n, RLIMIT_MEMLOCK: 8388608n, RLIMIT_NICE: 0n, RLIMIT_RTPRIO: 0n },
  };
  const flags = { nodeMemory: '16Gi', nodeCpu: '4', cgroupDriver: 'cgroupfs', podSecurity: 'privileged:latest', evictionHard: defaultEvictionHard, output: 'table', nrOpen: '1048576', defaultNotReadyTolerationSeconds: '300', defaultUnreachableTolerationSeconds: '300' };
  const podWith = (ulimits: string, resources = '{requests: {cpu: 100m, memory: 64Mi}}') =>
    `apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    resources: ${resources}\n    securityContext: {ulimits: ${ulimits}}\n`;
  const planHere = (paths: string[], input?: string) => {
    let out = '';
    const code = runPlan(paths, flags, { stdout: (s) => (out += s), readStdin: () => input ?? '' }, host);
    return { code, out };
  };
  const rows: { name: string; paths: string[]; input?: string; has: string[]; hasNot: RegExp[] }[] = [
    {
      name: 'the elasticsearch example: would not schedule, naming each limit and ceiling; the rlimits shown are what it asks',
      paths: ['examples/elasticsearch-nofile.yaml'],
      has: [
        "    warning: the scheduler would not place this pod on this node: node(s) cannot grant the Pod's hard ulimits (nofile hard 65535 > node ceiling 20000, memlock hard unlimited > node ceiling 8388608)\n",
        'nofile=65535:65535 memlock=unlimited:unlimited\n',
      ],
      hasNot: [/applied/, /\(host: /, /host: container/],
    },
    {
      name: 'nice above the ceiling 0: no "applied as 0/0" for a pod that never runs here',
      paths: ['-'],
      input: podWith('[{name: nice, soft: 10, hard: 10}]'),
      has: ["node(s) cannot grant the Pod's hard ulimits (nice hard 10 > node ceiling 0)\n"],
      hasNot: [/applied/, /\(host: /],
    },
    {
      name: 'within the ceilings: scheduled, and the host\'s adjustments are shown as applied',
      paths: ['-'],
      input: podWith('[{name: nofile, soft: 1024, hard: 4096}]', '{requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}'),
      has: ['-997 (host: 0)', 'nofile=1024:4096'],
      hasNot: [/would not place/],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const { code, out } = planHere(row.paths, row.input);
      assert.equal(code, 0, out);
      for (const s of row.has) assert.ok(out.includes(s), `missing ${JSON.stringify(s)} in:\n${out}`);
      for (const re of row.hasNot) assert.doesNotMatch(out, re);
    });
  }
});

describe('bulkhead plan: the containers\' swap files, offline and with --this-host', () => {
  const flags = { nodeMemory: '16Gi', nodeCpu: '4', cgroupDriver: 'cgroupfs', podSecurity: 'privileged:latest', evictionHard: defaultEvictionHard, nrOpen: '1048576', defaultNotReadyTolerationSeconds: '300', defaultUnreachableTolerationSeconds: '300' };
  const input = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers:\n  - {name: limited, image: busybox, resources: {limits: {memory: 64Mi}}}\n  - {name: unlimited, image: busybox}\n';
  const host = (memoryVersion: 1 | 2, swapControllerAvailable?: boolean): HostFacts => ({ memoryVersion, minOomScoreAdj: -1000, hardRlimitCeilings: {}, ...(swapControllerAvailable !== undefined ? { swapControllerAvailable } : {}) });
  // [name, --cgroup-version, host facts (--this-host), each container's cgroup files whose names hold "swap" or "memsw"]
  const rows: [string, '1' | '2', HostFacts | undefined, Record<string, string>[]][] = [
    ['offline, v1: memsw = the memory limit; none without a limit', '1', undefined, [{ 'memory.memsw.limit_in_bytes': '67108864' }, {}]],
    ['offline, v2: memory.swap.max 0 for both', '2', undefined, [{ 'memory.swap.max': '0' }, { 'memory.swap.max': '0' }]],
    ['--this-host, v1 with swap accounting', '1', host(1, true), [{ 'memory.memsw.limit_in_bytes': '67108864' }, {}]],
    ['--this-host, v1 without swap accounting: nothing set', '1', host(1, false), [{}, {}]],
    ['--this-host, v2 without memory.swap.max in the agent\'s cgroup: nothing set', '2', host(2, false), [{}, {}]],
  ];
  for (const [name, cgroupVersion, h, want] of rows) {
    it(name, () => {
      let out = '';
      const code = runPlan(['-'], { ...flags, cgroupVersion, output: 'json' }, { stdout: (s) => (out += s), readStdin: () => input }, h);
      assert.equal(code, 0, out);
      const containers = (JSON.parse(out) as { pods: { containers: { cgroup: Record<string, string> }[] }[] }).pods[0]!.containers;
      assert.deepEqual(containers.map((c) => Object.fromEntries(Object.entries(c.cgroup).filter(([k]) => /swap|memsw/.test(k)))), want);
    });
  }
  it('the table shows the memsw limit beside the memory limit it equals', () => {
    let out = '';
    runPlan(['-'], { ...flags, cgroupVersion: '1', output: 'table' }, { stdout: (s) => (out += s), readStdin: () => input }, undefined);
    assert.match(out, /^ {4}limited +container .* memory\.limit_in_bytes=67108864 \(64Mi\) memory\.memsw\.limit_in_bytes=67108864 \(64Mi\) /m);
  });
});
