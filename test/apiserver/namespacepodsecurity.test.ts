// Pod Security on namespace label changes over HTTPS, as kube-apiserver's PodSecurity plugin
// answers them (pod-security-admission ValidateNamespace): an update that tightens the enforce
// policy is made, with one Warning header per line of the dry run of the pods already there;
// an update that does not tighten it, and every create, has none; a bad label is a 422.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client, type Response } from './client.js';

const ENFORCE = 'pod-security.kubernetes.io/enforce';
const ENFORCE_VERSION = 'pod-security.kubernetes.io/enforce-version';
const smp = { 'Content-Type': 'application/strategic-merge-patch+json' };

/** The texts of the response's `Warning: 299 - "<text>"` headers, in order (Node joins them with ", "). */
function warnings(r: Response): string[] {
  const h = r.headers.warning;
  const all = Array.isArray(h) ? h.join(', ') : h ?? '';
  return [...all.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string);
}

describe('Pod Security dry run on namespace label changes', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  const ns = 'demo';
  const nsPath = `/api/v1/namespaces/${ns}`;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-psans-'));
    // The ReplicaSet is there to own the pods (so the garbage collector keeps them); no controller makes pods.
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false, workloadControllers: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    assert.equal((await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
    const rs = await admin.request('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'nginx-7d8f' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } },
    });
    assert.equal(rs.status, 201, rs.text);
    const ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'nginx-7d8f', uid: rs.json().metadata.uid, controller: true, blockOwnerDeletion: true }];
    const pods = [
      ...['nginx-7d8f-x2', 'nginx-7d8f-a9', 'nginx-7d8f-k4'].map((name) => ({ metadata: { name, labels: { app: 'nginx' }, ownerReferences }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } })),
      { metadata: { name: 'debug' }, spec: { hostPID: true, containers: [{ name: 'sh', image: 'busybox', securityContext: { privileged: true } }] } },
    ];
    for (const p of pods) {
      const r = await admin.request('POST', `${nsPath}/pods`, { apiVersion: 'v1', kind: 'Pod', ...p });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const restrictedWarnings = [
    'existing pods in namespace "demo" violate the new PodSecurity enforce level "restricted:latest"',
    'debug: host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'nginx-7d8f-a9 (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
  ];

  // Server-side dry runs first (kubectl label --dry-run=server): the namespace stays unlabelled.
  const dryRows: { name: string; labels: Record<string, string | null>; status: number; warnings: string[]; message?: string }[] = [
    { name: 'privileged → restricted: the header, then one line per distinct result, sorted', labels: { [ENFORCE]: 'restricted' }, status: 200, warnings: restrictedWarnings },
    { name: 'privileged → baseline: only the pod baseline refuses', labels: { [ENFORCE]: 'baseline' }, status: 200,
      warnings: ['existing pods in namespace "demo" violate the new PodSecurity enforce level "baseline:latest"', 'debug: host namespaces, privileged'] },
    { name: 'the version as written: restricted:v1.22', labels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'v1.22' }, status: 200,
      warnings: [
        'existing pods in namespace "demo" violate the new PodSecurity enforce level "restricted:v1.22"',
        'debug: host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
        'nginx-7d8f-a9 (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      ] },
    { name: 'only a version label: privileged is never dry-run', labels: { [ENFORCE_VERSION]: 'v1.22' }, status: 200, warnings: [] },
    { name: 'warn and audit labels do not dry-run', labels: { 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'restricted' }, status: 200, warnings: [] },
    { name: 'an invalid level is 422, no warnings', labels: { [ENFORCE]: 'strict' }, status: 422, warnings: [],
      message: 'Namespace "demo" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted' },
  ];
  for (const row of dryRows) {
    it(`dry run: ${row.name}`, async () => {
      const r = await admin.request('PATCH', `${nsPath}?dryRun=All`, { metadata: { labels: row.labels } }, smp);
      assert.equal(r.status, row.status, r.text);
      if (row.message) assert.equal(r.json().message, row.message);
      assert.deepEqual(warnings(r), row.warnings);
    });
  }

  it('the Warning headers carry the Go-quoted texts', async () => {
    const r = await admin.request('PATCH', `${nsPath}?dryRun=All`, { metadata: { labels: { [ENFORCE]: 'restricted' } } }, smp);
    assert.equal(r.status, 200);
    const h = r.headers.warning;
    assert.ok(String(h).startsWith('299 - "existing pods in namespace \\"demo\\" violate the new PodSecurity enforce level \\"restricted:latest\\"", 299 - "debug: '), String(h));
  });

  // Then real writes, in order: each row starts from the labels the one before left.
  const writeRows: { name: string; method: 'PATCH' | 'PUT'; labels: Record<string, string>; warnings: string[] }[] = [
    { name: 'PATCH to restricted is made, with the warnings', method: 'PATCH', labels: { [ENFORCE]: 'restricted' }, warnings: restrictedWarnings },
    { name: 'PUT of the same labels: unchanged, no warnings', method: 'PUT', labels: { [ENFORCE]: 'restricted' }, warnings: [] },
    { name: 'an explicit latest is the same policy: no warnings', method: 'PATCH', labels: { [ENFORCE]: 'restricted', [ENFORCE_VERSION]: 'latest' }, warnings: [] },
    { name: 'relaxing the level at the same version: no warnings', method: 'PUT', labels: { [ENFORCE]: 'baseline', [ENFORCE_VERSION]: 'latest' }, warnings: [] },
    { name: 'PUT back to restricted: the warnings again', method: 'PUT', labels: { [ENFORCE]: 'restricted' }, warnings: restrictedWarnings },
  ];
  for (const row of writeRows) {
    it(`write: ${row.name}`, async () => {
      let r: Response;
      if (row.method === 'PATCH') {
        r = await admin.request('PATCH', nsPath, { metadata: { labels: row.labels } }, smp);
      } else {
        const cur = (await admin.request('GET', nsPath)).json();
        cur.metadata.labels = { 'kubernetes.io/metadata.name': ns, ...row.labels };
        r = await admin.request('PUT', nsPath, cur);
      }
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(warnings(r), row.warnings);
      const labels = r.json().metadata.labels;
      for (const [k, v] of Object.entries(row.labels)) assert.equal(labels[k], v);
    });
  }

  it('a namespace created with enforce=restricted has no dry run (create only validates the labels)', async () => {
    const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh', labels: { [ENFORCE]: 'restricted' } } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), []);
  });
});
