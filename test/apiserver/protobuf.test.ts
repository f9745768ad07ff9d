import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobufBody } from '../../src/apiserver/protobuf.js';
import { StatusError } from '../../src/apiserver/status.js';

// A minimal encoder for the test: length-delimited fields only.
const varint = (n: number): Buffer => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
};
const field = (no: number, value: Buffer | string): Buffer => {
  const v = typeof value === 'string' ? Buffer.from(value) : value;
  return Buffer.concat([varint((no << 3) | 2), varint(v.length), v]);
};
const envelope = (apiVersion: string, kind: string, raw: Buffer): Buffer =>
  Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(1, Buffer.concat([field(1, apiVersion), field(2, kind)])), field(2, raw)]);
const mapEntry = (k: string, v: Buffer | string) => Buffer.concat([field(1, k), field(2, v)]);

describe('protobuf request bodies', () => {
  it('a Namespace with labels decodes to its JSON form', () => {
    const meta = Buffer.concat([field(1, 'typed'), field(11, mapEntry('team', 'a'))]);
    assert.deepEqual(decodeProtobufBody(envelope('v1', 'Namespace', field(1, meta)), 'application/vnd.kubernetes.protobuf'), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'typed', labels: { team: 'a' } },
    });
  });

  it('a ResourceQuota decodes hard quantities, scopes and a scope selector', () => {
    const spec = Buffer.concat([
      field(1, mapEntry('pods', field(1, '3'))),
      field(2, 'NotTerminating'),
      field(3, field(1, Buffer.concat([field(1, 'PriorityClass'), field(2, 'In'), field(3, 'high')]))),
    ]);
    assert.deepEqual(decodeProtobufBody(envelope('v1', 'ResourceQuota', Buffer.concat([field(1, field(1, 'q')), field(2, spec)])), 'application/vnd.kubernetes.protobuf'), {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { pods: '3' }, scopes: ['NotTerminating'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } },
    });
  });

  it('a PriorityClass decodes value (a negative int32 too), globalDefault, description and preemptionPolicy', () => {
    // Varint fields: a negative int32 is the 10-byte varint of its 64-bit two's complement.
    const varintField = (no: number, v: bigint): Buffer => {
      const out: number[] = [(no << 3) | 0];
      let n = BigInt.asUintN(64, v);
      do {
        let b = Number(n & 0x7fn);
        n >>= 7n;
        if (n) b |= 0x80;
        out.push(b);
      } while (n);
      return Buffer.from(out);
    };
    const raw = Buffer.concat([field(1, field(1, 'low')), varintField(2, -5n), varintField(3, 1n), field(4, 'x'), field(5, 'Never')]);
    assert.deepEqual(decodeProtobufBody(envelope('scheduling.k8s.io/v1', 'PriorityClass', raw), 'application/vnd.kubernetes.protobuf'), {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'low' },
      value: -5,
      globalDefault: true,
      description: 'x',
      preemptionPolicy: 'Never',
    });
  });

  it('a Job as kubectl create job sends it: empty strings and false left out, the template decoded', () => {
    const container = Buffer.concat([field(1, 'j'), field(2, 'busybox'), field(3, 'echo'), field(3, 'hi'), field(5, ''), field(8, Buffer.alloc(0)), varint(16 << 3), Buffer.from([0])]);
    const template = Buffer.concat([field(1, field(1, '')), field(2, Buffer.concat([field(2, container), field(3, 'Never'), field(6, '')]))]);
    const raw = Buffer.concat([field(1, Buffer.concat([field(1, 'j'), field(2, '')])), field(2, field(6, template))]);
    assert.deepEqual(decodeProtobufBody(envelope('batch/v1', 'Job', raw), 'application/vnd.kubernetes.protobuf'), {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j' },
      spec: { template: { metadata: {}, spec: { containers: [{ name: 'j', image: 'busybox', command: ['echo', 'hi'], resources: {} }], restartPolicy: 'Never' } } },
    });
  });

  it('a CronJob with its schedule and job template', () => {
    const jobTemplate = Buffer.concat([field(1, field(1, 'c')), field(2, field(6, field(2, field(3, 'OnFailure'))))]);
    const raw = Buffer.concat([field(1, field(1, 'c')), field(2, Buffer.concat([field(1, '*/1 * * * *'), field(3, ''), field(5, jobTemplate)]))]);
    assert.deepEqual(decodeProtobufBody(envelope('batch/v1', 'CronJob', raw), 'application/vnd.kubernetes.protobuf'), {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: { schedule: '*/1 * * * *', jobTemplate: { metadata: { name: 'c' }, spec: { template: { spec: { restartPolicy: 'OnFailure' } } } } },
    });
  });

  const vfield = (no: number, v: number): Buffer => Buffer.concat([varint(no << 3), varint(v)]);

  it('a Deployment as kubectl create deployment sends it: replicas kept, zero minReadySeconds and the empty strategy and status read past', () => {
    const labels = field(11, mapEntry('app', 'd'));
    const container = Buffer.concat([field(1, 'busybox'), field(2, 'busybox'), field(6, vfield(3, 80)), field(8, Buffer.alloc(0))]);
    const template = Buffer.concat([field(1, labels), field(2, field(2, container))]);
    const spec = Buffer.concat([vfield(1, 2), field(2, field(1, mapEntry('app', 'd'))), field(3, template), field(4, Buffer.alloc(0)), vfield(5, 0)]);
    const raw = Buffer.concat([field(1, Buffer.concat([field(1, 'd'), labels])), field(2, spec), field(3, Buffer.alloc(0))]);
    assert.deepEqual(decodeProtobufBody(envelope('apps/v1', 'Deployment', raw), 'application/vnd.kubernetes.protobuf'), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { app: 'd' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'busybox', image: 'busybox', ports: [{ containerPort: 80 }], resources: {} }] } },
        strategy: {},
      },
    });
  });

  it('intstr fields: an int (type 0) and a percent string (type 1)', () => {
    const intstr = (v: number | string) => (typeof v === 'number' ? vfield(2, v) : Buffer.concat([vfield(1, 1), field(3, v)]));
    const rolling = Buffer.concat([field(1, intstr(1)), field(2, intstr('30%'))]);
    const spec = field(4, Buffer.concat([field(1, 'RollingUpdate'), field(2, rolling)]));
    const got = decodeProtobufBody(envelope('apps/v1', 'Deployment', Buffer.concat([field(1, field(1, 'd')), field(2, spec)])), 'application/vnd.kubernetes.protobuf');
    assert.deepEqual(got.spec, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '30%' } } });
  });

  it('a core/v1 Service as kubectl create service nodeport sends it: ports with an intstr targetPort and a nodePort, the selector', () => {
    const port = Buffer.concat([field(1, '5678-8080'), field(2, 'TCP'), vfield(3, 5678), field(4, vfield(2, 8080)), vfield(5, 30080)]);
    const spec = Buffer.concat([field(1, port), field(2, mapEntry('app', 'n1')), field(4, 'NodePort')]);
    const raw = Buffer.concat([field(1, Buffer.concat([field(1, 'n1'), field(11, mapEntry('app', 'n1'))])), field(2, spec), field(3, Buffer.alloc(0))]);
    assert.deepEqual(decodeProtobufBody(envelope('v1', 'Service', raw), 'application/vnd.kubernetes.protobuf'), {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'n1', labels: { app: 'n1' } },
      spec: { ports: [{ name: '5678-8080', protocol: 'TCP', port: 5678, targetPort: 8080, nodePort: 30080 }], selector: { app: 'n1' }, type: 'NodePort' },
    });
  });

  it('an autoscaling/v1 Scale decodes its replicas', () => {
    const raw = Buffer.concat([field(1, field(1, 'd')), field(2, vfield(1, 4))]);
    assert.deepEqual(decodeProtobufBody(envelope('autoscaling/v1', 'Scale', raw), 'application/vnd.kubernetes.protobuf'), { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd' }, spec: { replicas: 4 } });
  });

  it('a LocalSubjectAccessReview (and a SubjectAccessReview) decode SubjectAccessReviewSpec: attributes 1, user 3, groups 4, extra 5, uid 6', () => {
    const spec = Buffer.concat([
      field(1, Buffer.concat([field(1, 'team'), field(2, 'list'), field(5, 'pods')])),
      field(3, 'bob'),
      field(4, 'ops'),
      field(4, 'system:authenticated'),
      field(5, mapEntry('scopes', field(1, 'a'))),
      field(6, 'u-1'),
    ]);
    const want = { resourceAttributes: { namespace: 'team', verb: 'list', resource: 'pods' }, user: 'bob', groups: ['ops', 'system:authenticated'], extra: { scopes: ['a'] }, uid: 'u-1' };
    for (const kind of ['LocalSubjectAccessReview', 'SubjectAccessReview']) {
      assert.deepEqual(decodeProtobufBody(envelope('authorization.k8s.io/v1', kind, Buffer.concat([field(1, field(3, 'team')), field(2, spec)])), 'application/vnd.kubernetes.protobuf'), {
        apiVersion: 'authorization.k8s.io/v1',
        kind,
        metadata: { namespace: 'team' },
        spec: want,
      });
    }
  });

  const refusals: { name: string; body: Buffer; code: number }[] = [
    { name: 'a Job field Bulkhead does not decode is 400, never dropped', body: envelope('batch/v1', 'Job', field(2, field(6, field(2, field(1, field(1, 'vol')))))), code: 400 },
    { name: 'a StatefulSet\'s volumeClaimTemplates (not decoded) are 400', body: envelope('apps/v1', 'StatefulSet', field(2, field(4, field(1, field(1, 'data'))))), code: 400 },
    { name: 'a kind Bulkhead does not decode is 415', body: envelope('v1', 'Endpoints', Buffer.alloc(0)), code: 415 },
    { name: 'a body without the k8s envelope is 400', body: Buffer.from('{"kind":"Namespace"}'), code: 400 },
    { name: 'a truncated message is 400', body: Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from([0x0a, 0x50, 0x01])]), code: 400 },
  ];
  for (const r of refusals) {
    it(r.name, () => {
      assert.throws(() => decodeProtobufBody(r.body, 'application/vnd.kubernetes.protobuf'), (e: unknown) => e instanceof StatusError && e.code === r.code);
    });
  }
});
