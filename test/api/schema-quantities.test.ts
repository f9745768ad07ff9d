// Decoding writes every resource.Quantity as kube-apiserver's Go round trip does
// (ParseQuantity, then String()), whatever the kind: one row per field shape.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeObject } from '../../src/api/schema/index.js';

const decode = (obj: Record<string, unknown>) => {
  const [group, version] = String(obj['apiVersion']).includes('/') ? String(obj['apiVersion']).split('/') : ['', String(obj['apiVersion'])];
  const d = decodeObject(obj, { group: group!, version: version!, kind: String(obj['kind']) }, 'Strict');
  assert.ok(d.ok, d.ok ? '' : d.message);
  return d.object as unknown as Record<string, unknown>;
};

describe('quantities after decoding', () => {
  test('a standalone quantity field (an emptyDir sizeLimit) is written canonically', () => {
    const pod = decode({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'v', emptyDir: { sizeLimit: '1024Mi' } }] } });
    assert.deepEqual((pod['spec'] as { volumes: unknown[] }).volumes[0], { name: 'v', emptyDir: { sizeLimit: '1Gi' } });
  });
  test('map values of a resource list (container resources) too', () => {
    const pod = decode({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1000m', memory: '512Mi' } } }] } });
    assert.deepEqual((pod['spec'] as { containers: { resources: unknown }[] }).containers[0]!.resources, { limits: { cpu: '1', memory: '512Mi' } });
  });
  test('another group\'s kind (an autoscaling/v2 HPA target) too', () => {
    const hpa = decode({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1024Mi' } } }] } });
    assert.equal(((hpa['spec'] as { metrics: { resource: { target: { averageValue: string } } }[] }).metrics[0]!.resource.target.averageValue), '1Gi');
  });
  test('null as a resource list value is a zero Quantity (UnmarshalJSON of null), written back as "0"', () => {
    const quota = decode({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { cpu: null, pods: '2' } } });
    assert.deepEqual(quota['spec'], { hard: { cpu: '0', pods: '2' } });
    const pod = decode({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { memory: null } } }] } });
    assert.deepEqual((pod['spec'] as { containers: { resources: unknown }[] }).containers[0]!.resources, { requests: { memory: '0' } });
  });
  test('null as a standalone quantity field stays null (a nil *Quantity: the field is unset)', () => {
    const pod = decode({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'v', emptyDir: { sizeLimit: null } }] } });
    assert.deepEqual((pod['spec'] as { volumes: unknown[] }).volumes[0], { name: 'v', emptyDir: { sizeLimit: null } });
  });
  test('a text upstream keeps at parse time stays as sent', () => {
    const pod = decode({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '500m', memory: '100Mi' } } }] } });
    assert.deepEqual((pod['spec'] as { containers: { resources: unknown }[] }).containers[0]!.resources, { requests: { cpu: '500m', memory: '100Mi' } });
  });
  test('the decoded input is never changed (a copy carries the rewrite)', () => {
    const input = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'v', emptyDir: { sizeLimit: '2048Mi' } }] } };
    const out = decode(input);
    assert.equal(input.spec.volumes[0]!.emptyDir.sizeLimit, '2048Mi');
    assert.notEqual(out, input);
  });
  test('nothing to rewrite: the object itself, no copy', () => {
    const input = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1000m' } };
    assert.equal(decode(input), input);
  });
});
