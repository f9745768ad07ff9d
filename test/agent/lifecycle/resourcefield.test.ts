// The downward API's resourceFieldRef value (src/agent/lifecycle/resourcefield.ts). Rows ported
// from upstream's tables (read, not copied): kubernetes/kubernetes pkg/api/v1/resource
// helpers_test.go TestExtractResourceValue (every row, app container "foo" and init container
// "init-foo" of getPod) and TestConvertQuantityToStringBounds; plus the rule of helpers.go
// MergeContainerResourceLimits (an unset or zero cpu/memory/ephemeral-storage limit is the node's
// allocatable; hugepages never are), which upstream has no table for.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ceilRatio, containerResourceValue, ResourceFieldError, type ResourceFieldRef } from '../../../src/agent/lifecycle/resourcefield.js';
import { mustParse } from '../../../src/api/quantity.js';
import type { Pod, ResourceList } from '../../../src/api/types.js';

const MAX_INT64 = '9223372036854775807';

/** getPod of the upstream test: app container "foo" and init container "init-foo", same resources. */
function getPod(r: { cpuRequest?: string; cpuLimit?: string; memoryRequest?: string; memoryLimit?: string }): Pod {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  if (r.cpuLimit) limits.cpu = r.cpuLimit;
  if (r.memoryLimit) limits.memory = r.memoryLimit;
  if (r.cpuRequest) requests.cpu = r.cpuRequest;
  if (r.memoryRequest) requests.memory = r.memoryRequest;
  return {
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'foo', resources: { requests, limits } }], initContainers: [{ name: 'init-foo', resources: { requests, limits } }] },
  };
}

describe('containerResourceValue: upstream TestExtractResourceValue rows', () => {
  const base: [string, ResourceFieldRef, Pod, string][] = [
    ['limits.cpu 9 is "9" cores', { resource: 'limits.cpu' }, getPod({ cpuLimit: '9' }), '9'],
    ['an unset requests.cpu is "0"', { resource: 'requests.cpu' }, getPod({}), '0'],
    ['requests.cpu 8 is "8"', { resource: 'requests.cpu' }, getPod({ cpuRequest: '8' }), '8'],
    ['requests.cpu 100m rounds up to "1" core', { resource: 'requests.cpu' }, getPod({ cpuRequest: '100m' }), '1'],
    ['requests.cpu 1200m with divisor 100m is "12"', { resource: 'requests.cpu', divisor: '100m' }, getPod({ cpuRequest: '1200m' }), '12'],
    ['requests.memory 100Mi is bytes', { resource: 'requests.memory' }, getPod({ memoryRequest: '100Mi' }), '104857600'],
    ['requests.memory 100Mi with divisor 1Mi is "100" (the limit does not matter)', { resource: 'requests.memory', divisor: '1Mi' }, getPod({ memoryRequest: '100Mi', memoryLimit: '1Gi' }), '100'],
    ['limits.memory 100Mi is bytes (the request does not matter)', { resource: 'limits.memory' }, getPod({ memoryRequest: '10Mi', memoryLimit: '100Mi' }), '104857600'],
  ];
  const rows: [string, ResourceFieldRef, Pod, string][] = [
    ...base.map(([n, ref, p, want]): [string, ResourceFieldRef, Pod, string] => [`container "foo": ${n}`, { ...ref, containerName: 'foo' }, p, want]),
    ...base.map(([n, ref, p, want]): [string, ResourceFieldRef, Pod, string] => [`init container "init-foo": ${n}`, { ...ref, containerName: 'init-foo' }, p, want]),
    // The rows added with convertQuantityToString: the ratio is exact, not millicores over millicores.
    ['divisor 1n: requests.cpu 1m is "1000000"', { containerName: 'foo', resource: 'requests.cpu', divisor: '1n' }, getPod({ cpuRequest: '1m' }), '1000000'],
    ['divisor 1u: requests.cpu 1m is "1000"', { containerName: 'foo', resource: 'requests.cpu', divisor: '1u' }, getPod({ cpuRequest: '1m' }), '1000'],
    ['divisor "0" counts as 1: requests.memory 100Mi is bytes', { containerName: 'foo', resource: 'requests.memory', divisor: '0' }, getPod({ memoryRequest: '100Mi' }), '104857600'],
  ];
  for (const [name, ref, p, want] of rows) it(name, () => assert.equal(containerResourceValue(p, ref, {}), want));
});

describe('ceilRatio: upstream TestConvertQuantityToStringBounds rows', () => {
  const rows: [string, string, string, string][] = [
    ['"huge exponent saturates instead of expanding"', '1e1000000', '1', MAX_INT64],
    ['"huge exponent against a huge divisor of the same magnitude"', '1e1000000', '1e1000000', '1'],
    ['"divisor dwarfs the value": a positive ratio rounds up to 1', '1', '1e1000000', '1'],
    ['"value just past int64 saturates"', '100E', '1', MAX_INT64],
    ['"ordinary ratio is unaffected"', '100Mi', '1Mi', '100'],
    ['"ordinary ceiling is unaffected"', '1500m', '1', '2'],
    ['"one past int64 saturates"', '9223372036854775808', '1', MAX_INT64],
    ['"10E saturates"', '10E', '1', MAX_INT64],
    ['"below the shortcut but past int64"', '7e19', '1', MAX_INT64],
    ['"above the shortcut and past int64"', '8e19', '1', MAX_INT64],
    ['"scale too wide for a 32 bit int"', '8e2147483647', '1', MAX_INT64],
    // Not upstream rows: the edges of the same function.
    ['int64\'s maximum itself is exact', MAX_INT64, '1', MAX_INT64],
    ['2^53+1 bytes is exact (no float rounding)', '9007199254740993', '1', '9007199254740993'],
    ['a zero value is "0"', '0', '1Mi', '0'],
    ['a negative divisor gives "0"', '1', '-1', '0'],
  ];
  for (const [name, v, d, want] of rows) it(`${name}: ${v} / ${d} -> ${want}`, () => assert.equal(ceilRatio(mustParse(v), mustParse(d)), want));
});

describe('containerResourceValue: MergeContainerResourceLimits (pkg/api/v1/resource/helpers.go)', () => {
  const alloc = { cpu: '4', memory: '8Gi', 'ephemeral-storage': '100Gi', 'hugepages-2Mi': '1Gi' };
  const pod = (limits: ResourceList): Pod => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', resources: { limits } }] } });
  const rows: [string, ResourceList, string, string | undefined, string][] = [
    ['an unset limits.cpu is the node allocatable', {}, 'limits.cpu', '1m', '4000'],
    ['a zero limits.cpu is the node allocatable too (`!exists || quantity.IsZero()`)', { cpu: '0' }, 'limits.cpu', '1m', '4000'],
    ['a zero limits.memory is the node allocatable', { memory: '0' }, 'limits.memory', '1Gi', '8'],
    ['a zero limits.ephemeral-storage is the node allocatable', { 'ephemeral-storage': '0' }, 'limits.ephemeral-storage', '1Gi', '100'],
    ['a set limit is kept', { cpu: '500m' }, 'limits.cpu', '1m', '500'],
    ['hugepages are never merged: an unset hugepages limit is "0"', {}, 'limits.hugepages-2Mi', '1Mi', '0'],
    ['hugepages are never merged: a zero hugepages limit stays "0"', { 'hugepages-2Mi': '0' }, 'limits.hugepages-2Mi', '1Mi', '0'],
  ];
  for (const [name, limits, resource, divisor, want] of rows) {
    it(name, () => assert.equal(containerResourceValue(pod(limits), { containerName: 'c', resource, ...(divisor ? { divisor } : {}) }, alloc), want));
  }
  it('a zero limit the node has no allocatable for stays "0"', () => assert.equal(containerResourceValue(pod({ cpu: '0' }), { containerName: 'c', resource: 'limits.cpu' }, {}), '0'));
  it('an unknown container is upstream\'s "container x not found"', () => {
    assert.throws(() => containerResourceValue(getPod({}), { containerName: 'nope', resource: 'limits.cpu' }, {}), (e: unknown) => e instanceof ResourceFieldError && e.message === 'container nope not found');
  });
});
