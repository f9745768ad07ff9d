// Pod Security exemptions over HTTPS (and through the real kubectl when it is installed), on a
// server configured as `--admission-control-config-file` would configure it: defaults enforce
// and warn restricted; exempt namespaces "exempt" and "fresh", user "alice", runtime class "kata". As
// upstream's PodSecurity plugin answers: a privileged pod the restricted default refuses is
// created in the exempt namespace, by the exempt user (impersonated, as kube-apiserver reads the
// user after impersonation), or with the exempt runtime class; pod controllers there get no
// warning; the exempt namespace is never dry-run, and is warned that its labels are ignored.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client, type Response } from './client.js';
import { kubectlFound, kubectlSkip } from './kubectlserver.js';

/** The texts of the response's `Warning: 299 - "<text>"` headers, in order. */
function warnings(r: Response): string[] {
  const h = r.headers.warning;
  const all = Array.isArray(h) ? h.join(', ') : h ?? '';
  return [...all.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string);
}

const privileged = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { ...extra, containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
});
const deployment = (name: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: privileged(name).spec } },
});
const restrictedReasons = 'privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
const asAlice = { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters' };
const asBob = { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' };

describe('Pod Security exemptions from the admission configuration', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-psaexempt-'));
    s = await startServer({
      dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false, workloadControllers: false,
      podSecurityDefaults: { enforce: 'restricted', warn: 'restricted' },
      podSecurityExemptions: { namespaces: ['exempt', 'fresh'], usernames: ['alice'], runtimeClasses: ['kata'] },
    });
    admin = new Client(s.url, s.caCert, s.adminToken);
    for (const name of ['plain', 'exempt']) {
      assert.equal((await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })).status, 201);
    }
    const rc = await admin.request('POST', '/apis/node.k8s.io/v1/runtimeclasses', { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' });
    assert.equal(rc.status, 201, rc.text);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const podRows: { name: string; namespace: string; pod: object; headers?: Record<string, string>; status: number; message?: string }[] = [
    { name: 'the restricted default refuses a privileged pod', namespace: 'plain', pod: privileged('denied'), status: 403,
      message: `pods "denied" is forbidden: violates PodSecurity "restricted:latest": ${restrictedReasons}` },
    { name: 'in the exempt namespace it is created, without a warning', namespace: 'exempt', pod: privileged('in-exempt-ns'), status: 201 },
    { name: 'the exempt user (impersonated) creates it', namespace: 'plain', pod: privileged('by-alice'), headers: asAlice, status: 201 },
    { name: 'another impersonated user does not', namespace: 'plain', pod: privileged('by-bob'), headers: asBob, status: 403,
      message: `pods "by-bob" is forbidden: violates PodSecurity "restricted:latest": ${restrictedReasons}` },
    { name: 'with the exempt runtime class it is created', namespace: 'plain', pod: privileged('on-kata', { runtimeClassName: 'kata' }), status: 201 },
  ];
  for (const r of podRows) {
    it(`pod: ${r.name}`, async () => {
      const res = await admin.request('POST', `/api/v1/namespaces/${r.namespace}/pods`, r.pod, r.headers);
      assert.equal(res.status, r.status, res.text);
      if (r.message) assert.equal(res.json().message, r.message);
      assert.deepEqual(warnings(res), []);
    });
  }

  const deploymentRows: { name: string; namespace: string; headers?: Record<string, string>; warnings: string[] }[] = [
    { name: 'a privileged template is warned of under the restricted warn default', namespace: 'plain', warnings: [`would violate PodSecurity "restricted:latest": ${restrictedReasons}`] },
    { name: 'not in the exempt namespace', namespace: 'exempt', warnings: [] },
    { name: 'not for the exempt user', namespace: 'plain', headers: asAlice, warnings: [] },
  ];
  deploymentRows.forEach((r, i) => {
    it(`deployment: ${r.name}`, async () => {
      const res = await admin.request('POST', `/apis/apps/v1/namespaces/${r.namespace}/deployments`, deployment(`web-${i}`), r.headers);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(warnings(res), r.warnings);
    });
  });

  const smp = { 'Content-Type': 'application/strategic-merge-patch+json' };
  const labelRows: { name: string; namespace: string; labels: Record<string, string>; warnings: string[] }[] = [
    { name: 'a tighter enforce version on the exempt namespace: no dry run, the labels are ignored', namespace: 'exempt', labels: { 'pod-security.kubernetes.io/enforce-version': 'v1.20' },
      warnings: ['namespace "exempt" is exempt from Pod Security, and the policy (enforce=restricted:v1.20) will be ignored'] },
    { name: 'the same on another namespace dry-runs its pods, but not the exempt runtime class\'s', namespace: 'plain', labels: { 'pod-security.kubernetes.io/enforce-version': 'v1.20' },
      warnings: [
        'existing pods in namespace "plain" violate the new PodSecurity enforce level "restricted:v1.20"',
        // restricted:v1.20 predates capabilities_restricted (v1.22)
        'by-alice: privileged, allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile',
      ] },
  ];
  for (const r of labelRows) {
    it(`namespace: ${r.name}`, async () => {
      const res = await admin.request('PATCH', `/api/v1/namespaces/${r.namespace}?dryRun=All`, { metadata: { labels: r.labels } }, smp);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(warnings(res), r.warnings);
    });
  }

  const createRows: { name: string; namespace: string; warnings: string[] }[] = [
    { name: 'an exempt namespace created with labels is warned that they will be ignored', namespace: 'fresh',
      warnings: ['namespace "fresh" is exempt from Pod Security, and the policy (enforce=baseline:latest) will be ignored'] },
    { name: 'any other is not', namespace: 'stale', warnings: [] },
  ];
  for (const r of createRows) {
    it(`namespace: ${r.name}`, async () => {
      const res = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: r.namespace, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(warnings(res), r.warnings);
    });
  }

  it('kubectl: the privileged pod refused in one namespace is created in the exempt one', { skip: kubectlFound ? false : kubectlSkip }, async () => {
    const manifest = join(dir, 'pod.yaml');
    writeFileSync(manifest, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: root\nspec:\n  containers:\n  - name: c\n    image: busybox\n    securityContext:\n      privileged: true\n');
    const kubectl = (...args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
    const refused = await kubectl('apply', '-n', 'plain', '-f', manifest);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `Error from server (Forbidden): error when creating "${manifest}": pods "root" is forbidden: violates PodSecurity "restricted:latest": ${restrictedReasons}\n`);
    const created = await kubectl('apply', '-n', 'exempt', '-f', manifest);
    assert.deepEqual([created.code, created.stdout, created.stderr], [0, 'pod/root created\n', '']);
    const asAliceToo = await kubectl('apply', '-n', 'plain', '-f', manifest, '--as', 'alice', '--as-group', 'system:masters');
    assert.deepEqual([asAliceToo.code, asAliceToo.stdout, asAliceToo.stderr], [0, 'pod/root created\n', '']);
  });
});
