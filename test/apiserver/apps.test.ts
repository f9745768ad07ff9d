// apps/v1 through the real HTTP API (pkg/registry/apps/*): the defaults a create stores, 422s
// with upstream's wording, the status subresource, generation, selector immutability, the
// DaemonSet's template generation, the scale subresource and the object-count quota; then the
// real kubectl: create deployment (a protobuf body), get deploy,rs and the other kinds' columns,
// scale, set image, rollout restart, get all, api-resources, apply and an invalid Deployment's
// message (skipped when no kubectl is installed). No controller runs here: only the stored
// objects change.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Client } from './client.js';
import { kubectlFound, kubectlSkip, tableRows, useTestServer, waitForQuotaStatus } from './kubectlserver.js';

const apps = '/apis/apps/v1/namespaces/default';
const template = (labels: Record<string, string> = { app: 'web' }, spec: Record<string, unknown> = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const workload = (kind: string, name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
const strategicPatch = { 'Content-Type': 'application/strategic-merge-patch+json' };

describe('apps/v1 over HTTP', () => {
  const t = useTestServer('bulkhead-apps-');
  let admin: Client;
  before(() => {
    admin = t.admin();
  });

  it('a created Deployment is stored defaulted, with the pod template defaults and an empty status', async () => {
    const r = await admin.request('POST', `${apps}/deployments`, workload('Deployment', 'web'));
    assert.equal(r.status, 201, r.text);
    const d = r.json();
    assert.deepEqual(
      [d.spec.replicas, d.spec.strategy, d.spec.revisionHistoryLimit, d.spec.progressDeadlineSeconds],
      [1, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, 10, 600],
    );
    const pod = d.spec.template.spec;
    assert.deepEqual([pod.restartPolicy, pod.dnsPolicy, pod.schedulerName, pod.terminationGracePeriodSeconds], ['Always', 'ClusterFirst', 'default-scheduler', 30]);
    assert.deepEqual([pod.containers[0].imagePullPolicy, pod.containers[0].terminationMessagePath], ['Always', '/dev/termination-log']);
    assert.equal(pod.enableServiceLinks, undefined);
    assert.deepEqual(d.status, {});
    assert.equal(d.metadata.generation, 1);
  });

  it('defaults of the other kinds: ReplicaSet, StatefulSet, DaemonSet', async () => {
    const rs = (await admin.request('POST', `${apps}/replicasets`, workload('ReplicaSet', 'rs'))).json();
    assert.equal(rs.spec.replicas, 1);
    const sts = await admin.request('POST', `${apps}/statefulsets`, workload('StatefulSet', 'db', { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] }));
    assert.equal(sts.status, 201, sts.text);
    const ss = sts.json().spec;
    assert.deepEqual(
      [ss.replicas, ss.podManagementPolicy, ss.updateStrategy, ss.revisionHistoryLimit, ss.persistentVolumeClaimRetentionPolicy],
      [1, 'OrderedReady', { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, 10, { whenDeleted: 'Retain', whenScaled: 'Retain' }],
    );
    assert.deepEqual(
      [ss.volumeClaimTemplates[0].apiVersion, ss.volumeClaimTemplates[0].kind, ss.volumeClaimTemplates[0].spec.volumeMode, ss.volumeClaimTemplates[0].status],
      ['v1', 'PersistentVolumeClaim', 'Filesystem', { phase: 'Pending' }],
    );
    const ds = (await admin.request('POST', `${apps}/daemonsets`, workload('DaemonSet', 'agent'))).json();
    assert.deepEqual([ds.spec.updateStrategy, ds.spec.revisionHistoryLimit], [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, 10]);
    assert.equal(ds.metadata.annotations['deprecated.daemonset.template.generation'], '1');
  });

  const refusals: { name: string; kind?: string; body: unknown; message: string }[] = [
    {
      name: 'a selector that does not match the template labels',
      body: workload('Deployment', 'a', { template: template({ app: 'other' }) }),
      message: 'Deployment.apps "a" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
    },
    {
      name: 'no selector: required, and so nothing matches the labels',
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'b' }, spec: { template: template() } },
      message: 'Deployment.apps "b" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`]',
    },
    {
      name: 'restartPolicy other than Always',
      body: workload('Deployment', 'c', { template: template({ app: 'web' }, { restartPolicy: 'Never' }) }),
      message: 'Deployment.apps "c" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    },
    { name: 'negative replicas', body: workload('Deployment', 'd', { replicas: -1 }), message: 'Deployment.apps "d" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' },
    {
      name: 'maxUnavailable and maxSurge both 0',
      body: workload('Deployment', 'e', { strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }),
      message: 'Deployment.apps "e" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    },
    {
      name: 'a percentage over 100%',
      body: workload('Deployment', 'f', { strategy: { rollingUpdate: { maxUnavailable: '150%' } } }),
      message: 'Deployment.apps "f" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    },
    {
      name: 'a container without an image (the pod spec rules apply to the template)',
      kind: 'replicasets',
      body: workload('ReplicaSet', 'g', { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } } }),
      message: 'ReplicaSet.apps "g" is invalid: spec.template.spec.containers[0].image: Required value',
    },
    {
      name: 'a StatefulSet name that is not a DNS label',
      kind: 'statefulsets',
      body: workload('StatefulSet', 'db.x'),
      message: 'StatefulSet.apps "db.x" is invalid: metadata.name: Invalid value: "db.x": must not contain dots',
    },
    {
      name: 'a DaemonSet with maxSurge and maxUnavailable both set',
      kind: 'daemonsets',
      body: workload('DaemonSet', 'h', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } }),
      message: 'DaemonSet.apps "h" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
    },
  ];
  for (const r of refusals) {
    it(`422: ${r.name}`, async () => {
      const res = await admin.request('POST', `${apps}/${r.kind ?? 'deployments'}`, r.body);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.json().message, r.message);
      assert.equal(res.json().details.group, 'apps');
    });
  }

  it('spec writes keep status and bump generation; annotations bump a Deployment\'s too; the selector is immutable', async () => {
    const scaled = await admin.request('PATCH', `${apps}/deployments/web`, { spec: { replicas: 3 }, status: { replicas: 9 } }, mergePatch);
    assert.equal(scaled.status, 200, scaled.text);
    assert.deepEqual([scaled.json().spec.replicas, scaled.json().metadata.generation, scaled.json().status], [3, 2, {}]);
    const annotated = await admin.request('PATCH', `${apps}/deployments/web`, { metadata: { annotations: { note: 'x' } } }, mergePatch);
    assert.equal(annotated.json().metadata.generation, 3);
    const labelled = await admin.request('PATCH', `${apps}/deployments/web`, { metadata: { labels: { tier: 'x' } } }, mergePatch);
    assert.equal(labelled.json().metadata.generation, 3);
    const sel = await admin.request('PATCH', `${apps}/deployments/web`, { spec: { selector: { matchLabels: { app: 'web', v: '2' } }, template: { metadata: { labels: { app: 'web', v: '2' } } } } }, mergePatch);
    assert.equal(sel.status, 422);
    assert.equal(
      sel.json().message,
      'Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });

  it('kubectl rollout restart\'s patch: a template annotation through a strategic merge patch, a new generation', async () => {
    const r = await admin.request('PATCH', `${apps}/deployments/web`, { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' } } } } }, strategicPatch);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt'], '2026-01-01T00:00:00Z');
    assert.deepEqual(r.json().spec.template.metadata.labels, { app: 'web' });
    assert.equal(r.json().metadata.generation, 4);
    const img = await admin.request('PATCH', `${apps}/deployments/web`, { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'c' }], containers: [{ name: 'c', image: 'nginx:1.27' }] } } } }, strategicPatch);
    assert.equal(img.status, 200, img.text);
    assert.deepEqual(img.json().spec.template.spec.containers.map((c: { name: string; image: string }) => [c.name, c.image]), [['c', 'nginx:1.27']]);
  });

  it('the status subresource writes status only (and a Deployment\'s labels stay), and checks the counters', async () => {
    const ok = await admin.request('PATCH', `${apps}/deployments/web/status`, { metadata: { labels: { hacked: 'yes' } }, status: { replicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 5 }, spec: { replicas: 7 } }, mergePatch);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual([ok.json().status.replicas, ok.json().spec.replicas, ok.json().metadata.labels.hacked], [3, 3, undefined]);
    const bad = await admin.request('PATCH', `${apps}/deployments/web/status`, { status: { availableReplicas: 3 } }, mergePatch);
    assert.equal(bad.status, 422);
    assert.equal(bad.json().message, 'Deployment.apps "web" is invalid: status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas');
    const rs = await admin.request('PATCH', `${apps}/replicasets/rs/status`, { status: { replicas: 1, readyReplicas: 2 } }, mergePatch);
    assert.equal(rs.status, 422);
    assert.equal(rs.json().message, 'ReplicaSet.apps "rs" is invalid: status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas');
  });

  it('a StatefulSet update may change only replicas, template, updateStrategy and a few others', async () => {
    const ok = await admin.request('PATCH', `${apps}/statefulsets/db`, { spec: { replicas: 2 } }, mergePatch);
    assert.equal(ok.status, 200, ok.text);
    const bad = await admin.request('PATCH', `${apps}/statefulsets/db`, { spec: { serviceName: 'other' } }, mergePatch);
    assert.equal(bad.status, 422);
    assert.equal(
      bad.json().message,
      "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
  });

  it('a DaemonSet\'s template generation moves with its template, whatever the client writes', async () => {
    const same = await admin.request('PATCH', `${apps}/daemonsets/agent`, { metadata: { annotations: { 'deprecated.daemonset.template.generation': '9' } }, spec: { minReadySeconds: 5 } }, mergePatch);
    assert.equal(same.status, 200, same.text);
    assert.deepEqual([same.json().metadata.annotations['deprecated.daemonset.template.generation'], same.json().metadata.generation], ['1', 2]);
    const changed = await admin.request('PATCH', `${apps}/daemonsets/agent`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } } }, strategicPatch);
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.json().metadata.annotations['deprecated.daemonset.template.generation'], changed.json().metadata.generation], ['2', 3]);
  });

  it('a ControllerRevision needs data, and its data never changes', async () => {
    const cr = (name: string, data?: unknown) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, ...(data === undefined ? {} : { data }), revision: 1 });
    const none = await admin.request('POST', `${apps}/controllerrevisions`, cr('none'));
    assert.equal(none.status, 422);
    assert.equal(none.json().message, 'ControllerRevision.apps "none" is invalid: data: Required value: data is mandatory');
    assert.equal((await admin.request('POST', `${apps}/controllerrevisions`, cr('r1', { spec: { template: {} } }))).status, 201);
    const changed = await admin.request('PATCH', `${apps}/controllerrevisions/r1`, { data: { other: 1 } }, mergePatch);
    assert.equal(changed.status, 422);
    assert.match(changed.json().message, /^ControllerRevision\.apps "r1" is invalid: data: Invalid value: .*: field is immutable$/);
  });

  it('scale subresource: GET is the autoscaling/v1 Scale with the selector as a label query', async () => {
    const r = await admin.request('GET', `${apps}/deployments/web/scale`);
    assert.equal(r.status, 200, r.text);
    const sc = r.json();
    assert.deepEqual([sc.apiVersion, sc.kind, sc.metadata.name, sc.spec, sc.status], ['autoscaling/v1', 'Scale', 'web', { replicas: 3 }, { replicas: 3, selector: 'app=web' }]);
    const d = (await admin.request('GET', `${apps}/deployments/web`)).json();
    assert.deepEqual([sc.metadata.uid, sc.metadata.resourceVersion], [d.metadata.uid, d.metadata.resourceVersion]);
  });

  it('scale subresource: as a Table, printScale\'s NAME DESIRED AVAILABLE AGE (kubectl get --subresource=scale)', async () => {
    const r = await admin.request('GET', `${apps}/deployments/web/scale`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    assert.equal(r.status, 200, r.text);
    const t = r.json();
    assert.deepEqual([t.kind, t.columnDefinitions.map((c: { name: string }) => c.name)], ['Table', ['Name', 'Desired', 'Available', 'Age']]);
    assert.deepEqual(t.rows[0].cells.slice(0, 3), ['web', 3, 3]);
  });

  const scaleWrites: { name: string; method: string; body: unknown; headers?: Record<string, string>; replicas: number }[] = [
    { name: 'a merge patch (kubectl scale)', method: 'PATCH', body: { spec: { replicas: 5 } }, headers: mergePatch, replicas: 5 },
    { name: 'a strategic merge patch', method: 'PATCH', body: { spec: { replicas: 4 } }, headers: strategicPatch, replicas: 4 },
    { name: 'a JSON patch', method: 'PATCH', body: [{ op: 'replace', path: '/spec/replicas', value: 2 }], headers: { 'Content-Type': 'application/json-patch+json' }, replicas: 2 },
    { name: 'a PUT of the Scale without resourceVersion', method: 'PUT', body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 3 } }, replicas: 3 },
  ];
  for (const w of scaleWrites) {
    it(`scale subresource: ${w.name} sets spec.replicas through the Deployment's strategy`, async () => {
      const before = (await admin.request('GET', `${apps}/deployments/web`)).json();
      const r = await admin.request(w.method, `${apps}/deployments/web/scale`, w.body, w.headers);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.json().kind, r.json().spec.replicas], ['Scale', w.replicas]);
      const after = (await admin.request('GET', `${apps}/deployments/web`)).json();
      assert.deepEqual([after.spec.replicas, after.metadata.generation], [w.replicas, before.metadata.generation + 1]);
      assert.equal(r.json().metadata.resourceVersion, after.metadata.resourceVersion);
    });
  }

  it('scale subresource: negative replicas are 422 for the Scale, a stale resourceVersion 409, a missing object 404', async () => {
    const neg = await admin.request('PATCH', `${apps}/replicasets/rs/scale`, { spec: { replicas: -1 } }, mergePatch);
    assert.equal(neg.status, 422, neg.text);
    assert.equal(neg.json().message, 'Scale.autoscaling "rs" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const stale = await admin.request('PUT', `${apps}/statefulsets/db/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'db', resourceVersion: '1' }, spec: { replicas: 3 } });
    assert.equal(stale.status, 409, stale.text);
    const ok = await admin.request('PUT', `${apps}/statefulsets/db/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'db' }, spec: { replicas: 3 } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await admin.request('GET', `${apps}/statefulsets/db`)).json().spec.replicas, 3);
    const missing = await admin.request('GET', `${apps}/deployments/nope/scale`);
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'deployments.apps "nope" not found');
    assert.equal((await admin.request('GET', `${apps}/daemonsets/agent/scale`)).status, 404);
  });

  it('count/deployments.apps: the create over the quota is 403 with the quota\'s message', async () => {
    await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'q' } });
    const q = await admin.request('POST', '/api/v1/namespaces/q/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { 'count/deployments.apps': '1' } } });
    assert.equal(q.status, 201, q.text);
    await waitForQuotaStatus(admin, 'q', 'q');
    assert.equal((await admin.request('POST', '/apis/apps/v1/namespaces/q/deployments', workload('Deployment', 'one'))).status, 201);
    const over = await admin.request('POST', '/apis/apps/v1/namespaces/q/deployments', workload('Deployment', 'two'));
    assert.equal(over.status, 403, over.text);
    assert.equal(over.json().message, 'deployments.apps "two" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
  });

  // Upstream pod-security-admission ValidatePodController (admission_test.go TestValidatePodAndController,
  // the "deployment:" cases): a pod template that violates the namespace's warn level is stored
  // with the warning as a Warning header; controllers are never denied, subresources never checked.
  describe('Pod Security on pod templates', () => {
    const ns = 'psa-apps';
    const nsApps = `/apis/apps/v1/namespaces/${ns}`;
    const restrictedSC = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
    const privileged = (kind: string, name: string) => workload(kind, name, { template: template({ app: 'web' }, { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] }) });
    const restrictedText =
      'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
    // The header is Go-quoted: inner quotes escaped.
    const restrictedHeader = `299 - ${JSON.stringify(restrictedText)}`;
    const privilegedHeader = `299 - ${JSON.stringify(restrictedText.replace('": allowPrivilegeEscalation', '": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation'))}`;
    before(async () => {
      // enforce=restricted alone: warn follows it; a controller is still never denied.
      const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
      assert.equal(r.status, 201, r.text);
      assert.equal((await admin.request('POST', `${nsApps}/deployments`, workload('Deployment', 'patched'))).status, 201);
    });
    const rows: { name: string; method: string; path: string; body: unknown; headers?: Record<string, string>; status: number; warning?: string }[] = [
      { name: 'a Deployment is created (201) with the restricted warning', method: 'POST', path: `${nsApps}/deployments`, body: workload('Deployment', 'web'), status: 201, warning: restrictedHeader },
      { name: 'a ReplicaSet too', method: 'POST', path: `${nsApps}/replicasets`, body: workload('ReplicaSet', 'rs'), status: 201, warning: restrictedHeader },
      { name: 'a StatefulSet too', method: 'POST', path: `${nsApps}/statefulsets`, body: workload('StatefulSet', 'sts'), status: 201, warning: restrictedHeader },
      { name: 'a DaemonSet too', method: 'POST', path: `${nsApps}/daemonsets`, body: workload('DaemonSet', 'ds'), status: 201, warning: restrictedHeader },
      { name: 'a privileged template: every failing check, baseline ones first, still created', method: 'POST', path: `${nsApps}/deployments`, body: privileged('Deployment', 'priv'), status: 201, warning: privilegedHeader },
      { name: 'a dry-run create is admitted and warned alike', method: 'POST', path: `${nsApps}/deployments?dryRun=All`, body: workload('Deployment', 'dry'), status: 201, warning: restrictedHeader },
      {
        name: 'a template that meets restricted: no warning',
        method: 'POST',
        path: `${nsApps}/deployments`,
        body: workload('Deployment', 'ok', { template: template({ app: 'web' }, { containers: [{ name: 'c', image: 'busybox', securityContext: restrictedSC }] }) }),
        status: 201,
      },
      { name: 'an invalid Deployment is refused by validation first: no warning', method: 'POST', path: `${nsApps}/deployments`, body: workload('Deployment', 'bad', { template: template({ app: 'other' }) }), status: 422 },
      { name: 'an unlabelled namespace (privileged defaults): no warning', method: 'POST', path: `${apps}/deployments`, body: workload('Deployment', 'psa-default'), status: 201 },
      // Upstream: "Updates aren't special cased for controller resources".
      { name: 'an update that leaves the template alone is checked again', method: 'PATCH', path: `${nsApps}/deployments/patched`, body: { spec: { replicas: 2 } }, headers: mergePatch, status: 200, warning: restrictedHeader },
      { name: 'a label change too', method: 'PATCH', path: `${nsApps}/deployments/patched`, body: { metadata: { labels: { x: 'y' } } }, headers: mergePatch, status: 200, warning: restrictedHeader },
      { name: 'the scale subresource is not checked', method: 'PATCH', path: `${nsApps}/deployments/patched/scale`, body: { spec: { replicas: 3 } }, headers: mergePatch, status: 200 },
      { name: 'the status subresource is not checked', method: 'PATCH', path: `${nsApps}/deployments/patched/status`, body: { status: { observedGeneration: 1 } }, headers: mergePatch, status: 200 },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        const r = await admin.request(row.method, row.path, row.body, row.headers ?? {});
        assert.equal(r.status, row.status, r.text);
        assert.equal(r.headers['warning'], row.warning);
      });
    }
  });
});

if (!kubectlFound) it('apps/v1 with the real kubectl', { skip: kubectlSkip }, () => {});
else {
  describe('apps/v1 with the real kubectl', () => {
    const { kubectl, dir } = useTestServer('bulkhead-apps-kubectl-');
    const rows = tableRows;
    const jsonpath = async (what: string, path: string) => (await kubectl('get', what, '-o', `jsonpath=${path}`)).stdout;

    it('kubectl create deployment --replicas=2 (a protobuf body) stores the defaulted Deployment', async () => {
      const r = await kubectl('create', 'deployment', 'd', '--image=busybox', '--replicas=2');
      assert.equal(r.stdout, 'deployment.apps/d created\n', r.stderr);
      assert.equal(
        await jsonpath('deploy/d', '{.spec.replicas} {.spec.selector.matchLabels.app} {.spec.strategy.type} {.spec.template.spec.containers[0].image} {.spec.template.spec.restartPolicy}'),
        '2 d RollingUpdate busybox Always',
      );
    });

    it('kubectl get deploy,rs prints the Deployment columns; -o wide adds containers, images and the selector', async () => {
      const get = await kubectl('get', 'deploy,rs');
      assert.equal(get.code, 0, get.stderr);
      const lines = rows(get.stdout);
      assert.deepEqual(lines[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      assert.deepEqual(lines[1]?.slice(0, 4), ['deployment.apps/d', '0/2', '0', '0']);
      const wide = rows((await kubectl('get', 'deploy', 'd', '-o', 'wide')).stdout);
      assert.deepEqual(wide[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(wide[1]?.slice(-3), ['busybox', 'busybox', 'app=d']);
    });

    it('kubectl scale deployment d --replicas=3 (a merge patch of the scale subresource)', async () => {
      const r = await kubectl('scale', 'deployment', 'd', '--replicas=3');
      assert.equal(r.stdout, 'deployment.apps/d scaled\n', r.stderr);
      assert.equal(await jsonpath('deploy/d', '{.spec.replicas} {.metadata.generation}'), '3 2');
    });

    it('kubectl set image and kubectl rollout restart change the template (strategic merge patches)', async () => {
      const set = await kubectl('set', 'image', 'deployment/d', 'busybox=busybox:1.36');
      assert.equal(set.stdout, 'deployment.apps/d image updated\n', set.stderr);
      const restart = await kubectl('rollout', 'restart', 'deployment/d');
      assert.equal(restart.stdout, 'deployment.apps/d restarted\n', restart.stderr);
      const got = await jsonpath('deploy/d', '{.spec.template.spec.containers[0].image} {.spec.template.metadata.labels.app} {.metadata.generation}');
      assert.equal(got, 'busybox:1.36 d 4');
      assert.match(await jsonpath('deploy/d', '{.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it('kubectl apply of the other kinds, then their columns and kubectl get all', async () => {
      const tpl = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
      const list = {
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs1' }, spec: { replicas: 2, selector: { matchLabels: { app: 'rs1' } }, template: tpl('rs1') } },
          { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: tpl('db') } },
          { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { ...tpl('agent'), spec: { ...tpl('agent').spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } } } },
        ],
      };
      const file = join(dir(), 'others.json');
      writeFileSync(file, JSON.stringify(list));
      const r = await kubectl('apply', '-f', file);
      assert.equal(r.stdout, 'replicaset.apps/rs1 created\nstatefulset.apps/db created\ndaemonset.apps/agent created\n', r.stderr);
      const again = await kubectl('apply', '-f', file);
      assert.equal(again.stdout, 'replicaset.apps/rs1 unchanged\nstatefulset.apps/db unchanged\ndaemonset.apps/agent unchanged\n', again.stderr);
      const all = await kubectl('get', 'all');
      assert.equal(all.code, 0, all.stderr);
      const lines = rows(all.stdout);
      const header = (first: string) => lines.find((l) => l[0] === 'NAME' && l[1] === first);
      assert.ok(lines.some((l) => l.join(' ') === 'NAME READY UP-TO-DATE AVAILABLE AGE'), all.stdout);
      assert.deepEqual(lines.find((l) => l[0] === 'deployment.apps/d')?.slice(0, 4), ['deployment.apps/d', '0/3', '0', '0']);
      assert.deepEqual(lines.find((l) => l[0] === 'replicaset.apps/rs1')?.slice(0, 4), ['replicaset.apps/rs1', '2', '0', '0']);
      assert.deepEqual(lines.find((l) => l[0] === 'statefulset.apps/db')?.slice(0, 2), ['statefulset.apps/db', '0/1']);
      assert.deepEqual(lines.find((l) => l[0] === 'daemonset.apps/agent')?.slice(0, 7), ['daemonset.apps/agent', '0', '0', '0', '0', '0', 'kubernetes.io/os=linux']);
      assert.deepEqual(header('DESIRED'), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
      assert.ok(lines.some((l) => l.join(' ') === 'NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE'), all.stdout);
      assert.ok(lines.some((l) => l.join(' ') === 'NAME READY AGE'), all.stdout);
      const scaled = await kubectl('scale', 'statefulset', 'db', '--replicas=4');
      assert.equal(scaled.stdout, 'statefulset.apps/db scaled\n', scaled.stderr);
      assert.equal(await jsonpath('sts/db', '{.spec.replicas}'), '4');
    });

    it('kubectl get controllerrevisions names the controller as kind.group/name', async () => {
      const uid = await jsonpath('sts/db', '{.metadata.uid}');
      const file = join(dir(), 'cr.json');
      const ownerReferences = [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid, controller: true }];
      writeFileSync(file, JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'db-1', ownerReferences }, data: { spec: {} }, revision: 3 }));
      assert.equal((await kubectl('create', '-f', file)).code, 0);
      const got = rows((await kubectl('get', 'controllerrevisions')).stdout);
      assert.deepEqual(got[0], ['NAME', 'CONTROLLER', 'REVISION', 'AGE']);
      assert.deepEqual(got[1]?.slice(0, 3), ['db-1', 'statefulset.apps/db', '3']);
    });

    it('kubectl api-resources lists the apps/v1 resources with their short names', async () => {
      const ar = await kubectl('api-resources', '--api-group=apps', '--no-headers');
      const row = (n: string) => ar.stdout.split('\n').map((l) => l.trim().split(/\s+/)).find((l) => l[0] === n);
      assert.deepEqual(row('deployments'), ['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
      assert.deepEqual(row('replicasets'), ['replicasets', 'rs', 'apps/v1', 'true', 'ReplicaSet']);
      assert.deepEqual(row('statefulsets'), ['statefulsets', 'sts', 'apps/v1', 'true', 'StatefulSet']);
      assert.deepEqual(row('daemonsets'), ['daemonsets', 'ds', 'apps/v1', 'true', 'DaemonSet']);
      assert.deepEqual(row('controllerrevisions'), ['controllerrevisions', 'apps/v1', 'true', 'ControllerRevision']);
    });

    it('an invalid Deployment is refused with the exact message', async () => {
      const file = join(dir(), 'bad.json');
      writeFileSync(file, JSON.stringify(workload('Deployment', 'bad', { template: template({ app: 'other' }) })));
      const r = await kubectl('create', '-f', file);
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr, 'The Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`\n');
    });
  });
}
