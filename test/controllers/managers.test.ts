// Who kube-apiserver records in managedFields for the control plane's own writes: without a
// fieldManager the manager is the User-Agent's first segment, so upstream's resourcequota
// controller is "kube-controller-manager" and the scheduler "kube-scheduler" (its status write of
// PodScheduled); a binding goes around the field manager and records nothing.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bindPod } from '../../src/apiserver/binding.js';
import type { RequestInfo } from '../../src/apiserver/rest.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import type { KubeObject, ManagedFieldsEntry, Pod } from '../../src/api/types.js';
import { node, pod } from '../scheduler/helpers.js';

const admin: RequestInfo = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldManager: 'admin', fieldValidation: 'Ignore', warnings: [] };
const managers = (o: KubeObject): string[][] => ((o.metadata?.managedFields ?? []) as ManagedFieldsEntry[]).map((m) => [m.manager ?? '', m.operation ?? '', m.subresource ?? '']).sort();

describe('managedFields managers of the control plane\'s writes', () => {
  let s: RunningServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-managers-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, quotaResyncSeconds: 3600 });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows: { name: string; run: () => Promise<KubeObject>; want: string[][] }[] = [
    {
      name: 'the resourcequota controller writes status as kube-controller-manager',
      run: async () => {
        const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '5' } } };
        await s.api.create(s.api.def('resourcequotas'), 'default', quota as KubeObject, { ...admin, warnings: [] });
        await s.quota!.syncNamespace('default');
        return s.api.get(s.api.def('resourcequotas'), 'default', 'q');
      },
      want: [['admin', 'Update', ''], ['kube-controller-manager', 'Update', 'status']],
    },
    {
      name: 'the scheduler writes PodScheduled as kube-scheduler',
      run: async () => {
        await s.api.create(s.api.def('pods'), 'default', { ...pod('unschedulable', { memory: '10Mi' }), metadata: { name: 'unschedulable' } } as KubeObject, { ...admin, warnings: [] });
        await s.scheduler!.idle();
        return s.api.get(s.api.def('pods'), 'default', 'unschedulable');
      },
      want: [['admin', 'Update', ''], ['kube-scheduler', 'Update', 'status']],
    },
    {
      name: 'a binding records no manager (upstream assignPod bypasses the field manager)',
      run: async () => {
        await s.api.create(s.api.def('nodes'), undefined, node('n1') as unknown as KubeObject, { ...admin, warnings: [] });
        // Another scheduler's pod: the in-process default-scheduler leaves it alone.
        const p0 = pod('bound', undefined, { schedulerName: 'elsewhere' });
        await s.api.create(s.api.def('pods'), 'default', { ...p0, metadata: { name: 'bound' } } as KubeObject, { ...admin, warnings: [] });
        const p = await bindPod(s.api, 'default', 'bound', 'n1', { ...admin, fieldManager: undefined, warnings: [] });
        assert.equal((p as Pod).spec.nodeName, 'n1');
        return p;
      },
      want: [['admin', 'Update', '']],
    },
  ];
  for (const r of rows) it(r.name, async () => assert.deepEqual(managers(await r.run()), r.want));
});
