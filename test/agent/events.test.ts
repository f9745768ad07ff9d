// The agent's event recorder against a fake client that refuses every create: an event whose
// namespace is being terminated is dropped quietly (client-go's recordToSink drops it at V(5));
// every other refusal is still logged.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRecorder } from '../../src/agent/events.js';
import { KubeError, type KubeClient } from '../../src/agent/kubeclient.js';
import type { Pod, Status } from '../../src/api/types.js';

const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'demo', uid: 'u1' }, spec: { containers: [] } };

function status(code: number, reason: string, message: string, causes?: { reason?: string; message?: string; field?: string }[]): Status {
  return { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason, code, ...(causes ? { details: { kind: 'events', causes } } : {}) } as Status;
}

const terminatingMessage = 'events "web.1" is forbidden: unable to create new content in namespace demo because it is being terminated';

const rows: { name: string; error: KubeError; logged: boolean }[] = [
  {
    name: 'namespace terminating, as kube-apiserver says it (403 with the NamespaceTerminating cause): dropped quietly',
    error: new KubeError(403, status(403, 'Forbidden', terminatingMessage, [{ reason: 'NamespaceTerminating', message: 'namespace demo is being terminated', field: 'metadata.namespace' }]), ''),
    logged: false,
  },
  { name: 'namespace terminating, from a server that sends only the lifecycle message: dropped quietly', error: new KubeError(403, status(403, 'Forbidden', terminatingMessage), ''), logged: false },
  { name: 'another 403 (not allowed to create events) is logged', error: new KubeError(403, status(403, 'Forbidden', 'events is forbidden: User "system:node:n1" cannot create resource "events" in API group "" in the namespace "demo"'), ''), logged: true },
  { name: 'a 404 (the namespace is gone) is logged', error: new KubeError(404, status(404, 'NotFound', 'namespaces "demo" not found'), ''), logged: true },
  { name: 'a 500 is logged', error: new KubeError(500, undefined, 'boom'), logged: true },
];

describe('EventRecorder: refused events', () => {
  for (const r of rows) {
    it(r.name, async () => {
      const client = {
        create: async () => {
          throw r.error;
        },
      } as unknown as KubeClient;
      const logs: string[] = [];
      const debug: string[] = [];
      const rec = new EventRecorder(client, { component: 'kubelet', host: 'n1' }, (m) => logs.push(m), () => new Date('2026-11-26T00:00:00Z'), (m) => debug.push(m));
      rec.record(pod, 'Normal', 'Killing', 'Stopping container web');
      await rec.flush();
      if (r.logged) {
        assert.deepEqual(logs, [`event Killing for demo/web: ${r.error.message}`]);
        assert.deepEqual(debug, []);
      } else {
        assert.deepEqual(logs, []);
        assert.deepEqual(debug, [`event Killing for demo/web: ${terminatingMessage} (dropped)`]);
      }
    });
  }
});
