// One decoder for `bulkhead plan` and the API server: each row is a manifest with one mistake,
// sent to a real server (POST, fieldValidation as kubectl sends it) and planned offline through
// plan(); both must answer with the same message, which is kube-apiserver's.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { plan, type PlanOptions } from '../../src/plan/engine.js';
import { defaultEvictionHard, parseEvictionThresholds } from '../../src/policy/eviction.js';
import { Client } from './client.js';

type Obj = Record<string, unknown>;
type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

const container = (extra: Obj = {}): Obj => ({ name: 'c', image: 'busybox', ...extra });
const pod = (spec: Obj, metadata: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...metadata }, spec: { containers: [container()], ...spec } });
const quota = (spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec });
const limitRange = (spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec });
const namespace = (extra: Obj): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns-parity' }, ...extra });

const cannot = (kind: string) => `${kind} in version "v1" cannot be handled as a ${kind}: `;
const regexpMsg = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

interface Row {
  name: string;
  obj: Obj;
  fieldValidation?: FieldValidation;
  code: number;
  /** The Status message (and plan's refusal); absent when the object is accepted. */
  message?: string;
  /** Warnings both give when the object is accepted. */
  warnings?: string[];
}

const rows: Row[] = [
  { name: 'an unknown field is a strict decoding error', obj: pod({ foo: 1 }), code: 400, message: `${cannot('Pod')}strict decoding error: unknown field "spec.foo"` },
  {
    name: 'unknown fields are listed in document order, nested ones with their index',
    obj: pod({ containers: [container({ bogus: true })], foo: 1 }),
    code: 400,
    message: `${cannot('Pod')}strict decoding error: unknown field "spec.containers[0].bogus", unknown field "spec.foo"`,
  },
  { name: 'an unknown field under fieldValidation=Warn is dropped with a warning', obj: pod({ foo: 1 }), fieldValidation: 'Warn', code: 201, warnings: ['unknown field "spec.foo"'] },
  { name: 'an unknown field under fieldValidation=Ignore is dropped silently', obj: pod({ foo: 1 }), fieldValidation: 'Ignore', code: 201, warnings: [] },
  {
    name: 'a string where a list of containers belongs',
    obj: pod({ containers: 'web' }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`,
  },
  {
    name: 'a string where a list of strings belongs',
    obj: pod({ containers: [container({ command: 'sh' })] }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal string into Go struct field Container.spec.containers.command of type []string`,
  },
  {
    name: 'a string in an int32 field names the Go type int32',
    obj: pod({ containers: [container({ ports: [{ containerPort: '80' }] })] }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`,
  },
  {
    name: 'a fraction in an int64 field shows the number',
    obj: pod({ terminationGracePeriodSeconds: 1.5 }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64`,
  },
  {
    name: 'a whole number in a string map is "number", without the value',
    obj: pod({}, { labels: { app: 5 } }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`,
  },
  {
    name: 'a boolean is "bool" in Go\'s wording',
    obj: pod({ containers: [container({ image: true })] }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal bool into Go struct field Container.spec.containers.image of type string`,
  },
  {
    name: 'a named Go string type keeps its name',
    obj: pod({ restartPolicy: 1 }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy`,
  },
  { name: 'a bad quantity in a pod', obj: pod({ containers: [container({ resources: { limits: { cpu: 'lots' } } })] }), code: 400, message: `${cannot('Pod')}${regexpMsg}` },
  {
    name: 'a quantity error stops decoding and wins over an earlier type error',
    obj: pod({ hostNetwork: 'yes', containers: [container({ resources: { requests: { memory: '1GB' } } })] }),
    code: 400,
    message: `${cannot('Pod')}${regexpMsg}`,
  },
  {
    name: 'a type error wins over unknown fields',
    obj: pod({ foo: 1, hostNetwork: 'yes' }),
    code: 400,
    message: `${cannot('Pod')}json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool`,
  },
  {
    name: 'a timestamp that is not RFC 3339',
    obj: pod({}, { creationTimestamp: 'yesterday' }),
    code: 400,
    message: `${cannot('Pod')}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
  },
  {
    name: 'a ulimit without soft is a field error (422), not a decoding error',
    obj: pod({ containers: [container({ securityContext: { ulimits: [{ name: 'nofile', hard: 10 }] } })] }),
    code: 422,
    message: 'Pod "p" is invalid: spec.containers[0].securityContext.ulimits[0].soft: Required value',
  },
  { name: 'a bad quantity in a ResourceQuota', obj: quota({ hard: { cpu: 'lots' } }), code: 400, message: `${cannot('ResourceQuota')}${regexpMsg}` },
  { name: 'an unknown field in a ResourceQuota', obj: quota({ hardd: { cpu: '1' } }), code: 400, message: `${cannot('ResourceQuota')}strict decoding error: unknown field "spec.hardd"` },
  {
    name: 'a scope list that is a string',
    obj: quota({ hard: { pods: '1' }, scopes: 'BestEffort' }),
    code: 400,
    message: `${cannot('ResourceQuota')}json: cannot unmarshal string into Go struct field ResourceQuotaSpec.spec.scopes of type []v1.ResourceQuotaScope`,
  },
  {
    name: 'LimitRange limits that are an object, not a list',
    obj: limitRange({ limits: { type: 'Container' } }),
    code: 400,
    message: `${cannot('LimitRange')}json: cannot unmarshal object into Go struct field LimitRangeSpec.spec.limits of type []v1.LimitRangeItem`,
  },
  { name: 'an unknown field in a Namespace under fieldValidation=Warn is a warning', obj: namespace({ spec: { foo: [] } }), fieldValidation: 'Warn', code: 201, warnings: ['unknown field "spec.foo"'] },
  { name: 'an unknown field in a Namespace', obj: namespace({ spec: { foo: [] } }), code: 400, message: `${cannot('Namespace')}strict decoding error: unknown field "spec.foo"` },
  {
    name: 'Namespace finalizers that are not a list',
    obj: namespace({ spec: { finalizers: 'kubernetes' } }),
    code: 400,
    message: `${cannot('Namespace')}json: cannot unmarshal string into Go struct field NamespaceSpec.spec.finalizers of type []v1.FinalizerName`,
  },
];

function collectionPath(obj: Obj): string {
  const kind = obj.kind as string;
  if (kind === 'Namespace') return '/api/v1/namespaces';
  return `/api/v1/namespaces/default/${kind === 'Pod' ? 'pods' : kind === 'ResourceQuota' ? 'resourcequotas' : 'limitranges'}`;
}

const planOptions = (fieldValidation: FieldValidation): PlanOptions => ({
  node: { memoryBytes: 16n << 30n, milliCPU: 4000n, cgroupVersion: 2, cgroupDriver: 'cgroupfs' },
  gates: defaultFeatureGates,
  podSecurity: {},
  evictionHard: parseEvictionThresholds(defaultEvictionHard),
  now: new Date('2026-01-01T00:00:00Z'),
  fieldValidation,
});

/** plan()'s answer for one object: its refusal message, or its warnings when accepted. */
function planAnswer(obj: Obj, fieldValidation: FieldValidation): { message?: string; warnings: string[] } {
  const result = plan([{ object: structuredClone(obj) as KubeObject, source: { file: 'parity.yaml', document: 1 } }], planOptions(fieldValidation));
  const refused = result.rejectedObjects[0];
  if (refused) return { message: refused.message, warnings: [] };
  const p = result.pods[0];
  if (p && p.rejections.length > 0) return { message: p.rejections[0]!.message, warnings: p.warnings };
  return { warnings: p?.warnings ?? result.objectWarnings?.map((w) => w.message) ?? [] };
}

describe('plan and the API server decode a manifest alike', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-parity-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  rows.forEach((r, i) => {
    it(r.name, async () => {
      const fv = r.fieldValidation ?? 'Strict';
      const body = structuredClone(r.obj);
      (body.metadata as Obj).name = `${(body.metadata as Obj).name as string}-${i}`;
      const res = await admin.request('POST', `${collectionPath(body)}?fieldValidation=${fv}`, body);
      assert.equal(res.status, r.code, res.text);
      const served = res.json();
      const planned = planAnswer(body, fv);
      if (r.message !== undefined) {
        const want = r.message.replace(/"(p|q|lr|ns-parity)"/, `"$1-${i}"`);
        assert.equal(served.message, want);
        assert.equal(planned.message, want, 'plan');
      } else {
        assert.equal(planned.message, undefined, 'plan refused an object the server accepted');
        const warnings = String(res.headers.warning ?? '').match(/299 - "(?:[^"\\]|\\.)*"/g)?.map((w) => JSON.parse(w.slice(6)) as string) ?? [];
        const want = r.warnings ?? [];
        assert.deepEqual(warnings, want, 'server warnings');
        assert.deepEqual(planned.warnings.filter((w) => w.startsWith('unknown field')), want, 'plan warnings');
        assert.equal(JSON.stringify(served.spec).includes('"foo"'), false, 'the server stored an unknown field');
      }
    });
  });
});
