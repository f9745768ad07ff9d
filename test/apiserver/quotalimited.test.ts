// The ResourceQuota plugin's limitedResources over HTTPS (and through the real kubectl when it is
// installed), on a server configured from an admission control configuration file read as
// `--admission-control-config-file` reads it: pods of PriorityClass "cluster-services" need a
// quota selecting that class, and a load balancer Service needs a quota limiting
// services.loadbalancers. As upstream's plugin (k8s.io/apiserver resourcequota controller.go
// CheckRequest) answers: an uncovered scope is a plain error (500, no reason, the bare message),
// uncovered consumption a 403; once a quota with that scope exists in the namespace, the pod is
// admitted (and charged, once the quota controller has given the quota its status).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resourceQuotaFromFlags } from '../../src/cli/admissionconfig.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';
import { kubectlFound, kubectlSkip, waitForQuotaStatus } from './kubectlserver.js';

const admissionConfiguration = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ResourceQuota
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - resource: pods
      matchScopes:
      - scopeName: PriorityClass
        operator: In
        values: [cluster-services]
    - resource: services
      matchContains: [services.loadbalancers]
`;

const pod = (name: string, priorityClassName?: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { ...(priorityClassName ? { priorityClassName } : {}), containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
});
const service = (name: string, type: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, selector: { app: name }, ports: [{ port: 80 }] } });
const scopesMessage = 'insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]';
/** responsewriters.ErrorToAPIStatus of an error that is no API status. */
const plainError = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: scopesMessage, code: 500 };

describe('ResourceQuota limitedResources from the admission configuration', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-quotalimited-'));
    const file = join(dir, 'admission.yaml');
    writeFileSync(file, admissionConfiguration);
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false, workloadControllers: false, resourceQuota: resourceQuotaFromFlags({ admissionControlConfigFile: file }) });
    admin = new Client(s.url, s.caCert, s.adminToken);
    for (const name of ['team', 'other']) {
      assert.equal((await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })).status, 201);
    }
    const pc = await admin.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'cluster-services' }, value: 1000000 });
    assert.equal(pc.status, 201, pc.text);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows: { name: string; path: string; body: object; status: number; json?: object; message?: string }[] = [
    { name: 'a cluster-services pod without a quota of that scope: a plain error, 500', path: '/api/v1/namespaces/team/pods', body: pod('critical', 'cluster-services'), status: 500, json: plainError },
    { name: 'so is its dry run', path: '/api/v1/namespaces/team/pods?dryRun=All', body: pod('critical', 'cluster-services'), status: 500, json: plainError },
    { name: 'a pod of no class is not limited', path: '/api/v1/namespaces/team/pods', body: pod('plain'), status: 201 },
    { name: 'a load balancer without a quota limiting it: 403', path: '/api/v1/namespaces/team/services', body: service('lb', 'LoadBalancer'), status: 403,
      message: 'services "lb" is forbidden: insufficient quota to consume: services.loadbalancers' },
    { name: 'a ClusterIP Service consumes no load balancer', path: '/api/v1/namespaces/team/services', body: service('web', 'ClusterIP'), status: 201 },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const res = await admin.request('POST', r.path, r.body);
      assert.equal(res.status, r.status, res.text);
      if (r.json) assert.deepEqual(res.json(), r.json);
      if (r.message) assert.deepEqual([res.json().reason, res.json().message], ['Forbidden', r.message]);
    });
  }

  it('a quota selecting the scope admits the pod, and the quota controller\'s status charges it', async () => {
    const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'critical' }, spec: { hard: { pods: '2' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] } } };
    assert.equal((await admin.request('POST', '/api/v1/namespaces/team/resourcequotas', quota)).status, 201);
    await waitForQuotaStatus(admin, 'team', 'critical');
    const created = await admin.request('POST', '/api/v1/namespaces/team/pods', pod('critical', 'cluster-services'));
    assert.equal(created.status, 201, created.text);
    const q = await admin.request('GET', '/api/v1/namespaces/team/resourcequotas/critical');
    assert.deepEqual(q.json().status.used, { pods: '1' });
    // Another namespace has no such quota.
    const elsewhere = await admin.request('POST', '/api/v1/namespaces/other/pods', pod('critical', 'cluster-services'));
    assert.deepEqual([elsewhere.status, elsewhere.json()], [500, plainError]);
  });

  it('a quota limiting services.loadbalancers admits the load balancer', async () => {
    const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'lbs' }, spec: { hard: { 'services.loadbalancers': '1' } } };
    assert.equal((await admin.request('POST', '/api/v1/namespaces/team/resourcequotas', quota)).status, 201);
    await waitForQuotaStatus(admin, 'team', 'lbs');
    const created = await admin.request('POST', '/api/v1/namespaces/team/services', service('lb', 'LoadBalancer'));
    assert.equal(created.status, 201, created.text);
  });

  it('kubectl: the cluster-services pod refused where no quota selects the class, created where one does', { skip: kubectlFound ? false : kubectlSkip }, async () => {
    const manifest = join(dir, 'pod.yaml');
    writeFileSync(manifest, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: kubectl-critical\nspec:\n  priorityClassName: cluster-services\n  containers:\n  - name: c\n    image: busybox\n');
    const kubectl = (...args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
    const refused = await kubectl('apply', '-n', 'other', '-f', manifest);
    assert.deepEqual([refused.code, refused.stdout, refused.stderr], [1, '', `Error from server: error when creating "${manifest}": ${scopesMessage}\n`]);
    const created = await kubectl('apply', '-n', 'team', '-f', manifest);
    assert.deepEqual([created.code, created.stdout, created.stderr], [0, 'pod/kubectl-critical created\n', '']);
  });
});
