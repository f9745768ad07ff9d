// The service evaluator (src/quota/services.ts, after quota/v1/evaluator/core/services.go): the
// usage of a Service, the create and update decisions with upstream's messages, the recount.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceQuota, Service, ServiceSpec } from '../../src/api/types.js';
import { decideServiceQuota, serviceQuotaUsage, serviceUsage } from '../../src/quota/services.js';

const quota = (hard: Record<string, string>, used?: Record<string, string>, scopes?: string[]): ResourceQuota =>
  ({ metadata: { name: 'q', namespace: 'n' }, spec: { hard, ...(scopes ? { scopes } : {}) }, status: { hard, ...(used ? { used } : {}) } }) as ResourceQuota;
const svc = (spec: Partial<ServiceSpec>): Service => ({ metadata: { name: 's', namespace: 'n' }, spec: { ports: [{ port: 80 }, { port: 81 }], ...spec } });
/** A stored Service: it has a resourceVersion, so an update from it is charged the delta. */
const stored = (spec: Partial<ServiceSpec>): Service => ({ ...svc(spec), metadata: { name: 's', namespace: 'n', resourceVersion: '1' } });

describe('service quota usage', () => {
  const rows: { name: string; svc: Service; want: Record<string, number> }[] = [
    { name: 'a ClusterIP service counts 1, no node ports, no load balancer', svc: svc({ type: 'ClusterIP' }), want: { 'count/services': 1, services: 1, 'services.loadbalancers': 0, 'services.nodeports': 0 } },
    { name: 'a NodePort service counts its ports as node ports', svc: svc({ type: 'NodePort' }), want: { 'count/services': 1, services: 1, 'services.loadbalancers': 0, 'services.nodeports': 2 } },
    { name: 'a LoadBalancer counts 1 load balancer and its ports', svc: svc({ type: 'LoadBalancer' }), want: { 'count/services': 1, services: 1, 'services.loadbalancers': 1, 'services.nodeports': 2 } },
    {
      name: 'a LoadBalancer without node port allocation counts only the ports that name one',
      svc: svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80, nodePort: 30080 }, { port: 81 }] }),
      want: { 'count/services': 1, services: 1, 'services.loadbalancers': 1, 'services.nodeports': 1 },
    },
    { name: 'an ExternalName service counts 1', svc: svc({ type: 'ExternalName', ports: [] }), want: { 'count/services': 1, services: 1, 'services.loadbalancers': 0, 'services.nodeports': 0 } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(serviceUsage(r.svc), r.want));
});

// pkg/quota/v1/evaluator/core/services_test.go TestServiceEvaluatorUsage, one row per upstream
// case (same names); upstream's usage has no zero-free form, so every key is compared.
describe('serviceUsage: services_test.go TestServiceEvaluatorUsage', () => {
  const lb = (ports: { port: number; nodePort?: number }[], allocate?: boolean): Service => ({
    metadata: { name: 's', namespace: 'n' },
    spec: { type: 'LoadBalancer', ...(ports.length > 0 ? { ports } : {}), ...(allocate !== undefined ? { allocateLoadBalancerNodePorts: allocate } : {}) },
  });
  const np = (ports: number[]): Service => ({ metadata: { name: 's', namespace: 'n' }, spec: { type: 'NodePort', ports: ports.map((port) => ({ port })) } });
  const use = (nodeports: number, loadbalancers: number) => ({ 'count/services': 1, services: 1, 'services.loadbalancers': loadbalancers, 'services.nodeports': nodeports });
  const rows: { name: string; svc: Service; want: Record<string, number> }[] = [
    { name: 'loadbalancer', svc: lb([]), want: use(0, 1) },
    { name: 'loadbalancer_ports', svc: lb([{ port: 27443 }]), want: use(1, 1) },
    { name: 'loadbalancer_2_ports', svc: lb([{ port: 27443 }, { port: 27444 }]), want: use(2, 1) },
    { name: 'clusterip', svc: { metadata: { name: 's', namespace: 'n' }, spec: { type: 'ClusterIP' } }, want: use(0, 0) },
    { name: 'nodeports', svc: np([27443]), want: use(1, 0) },
    { name: 'multi-nodeports', svc: np([27443, 27444]), want: use(2, 0) },
    { name: 'nodeports-disabled', svc: lb([{ port: 27443 }, { port: 27444 }], false), want: use(0, 1) },
    { name: 'nodeports-default-enabled', svc: lb([{ port: 27443, nodePort: 32001 }, { port: 27444, nodePort: 32002 }]), want: use(2, 1) },
    { name: 'nodeports-explicitly-enabled', svc: lb([{ port: 27443 }, { port: 27444 }], true), want: use(2, 1) },
    { name: 'nodeports-disabled-but-specified', svc: lb([{ port: 27443, nodePort: 32001 }, { port: 27444, nodePort: 32002 }], false), want: use(2, 1) },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(serviceUsage(r.svc), r.want));
});

// services_test.go TestServiceEvaluatorMatchesResources: of configmaps, cpu and the three service
// names a quota limits, the service evaluator tracks only the service names. (TestServiceConstraintsFunc
// has no row to port: the service evaluator's Constraints never fails, and Bulkhead has none.)
describe('serviceQuotaUsage: services_test.go TestServiceEvaluatorMatchesResources', () => {
  it('TestServiceEvaluatorMatchesResources', () => {
    const q = quota({ configmaps: '9', cpu: '9', services: '9', 'services.nodeports': '9', 'services.loadbalancers': '9' });
    assert.deepEqual(Object.keys(serviceQuotaUsage(q, [])).sort(), ['services', 'services.loadbalancers', 'services.nodeports']);
  });
});

describe('decideServiceQuota', () => {
  const rows: { name: string; svc: Service; old?: Service; quotas: ResourceQuota[]; want: ReturnType<typeof decideServiceQuota> }[] = [
    { name: 'no quotas: allowed', svc: svc({ type: 'NodePort' }), quotas: [], want: { allowed: true, charges: [] } },
    {
      name: 'a create is charged under every service name the quota limits',
      svc: svc({ type: 'NodePort' }),
      quotas: [quota({ services: '5', 'services.nodeports': '5' }, { services: '1', 'services.nodeports': '0' })],
      want: { allowed: true, charges: [{ name: 'q', used: { services: '2', 'services.nodeports': '2' } }] },
    },
    {
      name: 'too many node ports: exceeded quota names only what is over',
      svc: svc({ type: 'NodePort' }),
      quotas: [quota({ services: '5', 'services.nodeports': '2' }, { services: '1', 'services.nodeports': '1' })],
      want: { allowed: false, quota: 'q', message: 'exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=1, limited: services.nodeports=2' },
    },
    {
      name: 'a load balancer over a zero limit',
      svc: svc({ type: 'LoadBalancer' }),
      quotas: [quota({ 'services.loadbalancers': '0' }, { 'services.loadbalancers': '0' })],
      want: { allowed: false, quota: 'q', message: 'exceeded quota: q, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0' },
    },
    {
      name: 'count/services counts like services',
      svc: svc({ type: 'ClusterIP' }),
      quotas: [quota({ 'count/services': '1' }, { 'count/services': '1' })],
      want: { allowed: false, quota: 'q', message: 'exceeded quota: q, requested: count/services=1, used: count/services=1, limited: count/services=1' },
    },
    { name: 'status not yet computed: status unknown', svc: svc({}), quotas: [quota({ services: '1' })], want: { allowed: false, quota: 'q', message: 'status unknown for quota: q, resources: services' } },
    { name: 'a scoped quota never matches', svc: svc({}), quotas: [quota({ services: '0' }, { services: '0' }, ['BestEffort'])], want: { allowed: true, charges: [] } },
    {
      name: 'an update that adds nothing is allowed at the limit and charges nothing',
      svc: svc({ type: 'ClusterIP', selector: { a: 'b' } }),
      old: stored({ type: 'ClusterIP' }),
      quotas: [quota({ services: '1' }, { services: '1' })],
      want: { allowed: true, charges: [] },
    },
    {
      name: 'an update to NodePort is charged its node ports',
      svc: svc({ type: 'NodePort' }),
      old: stored({ type: 'ClusterIP' }),
      quotas: [quota({ services: '1', 'services.nodeports': '1' }, { services: '1', 'services.nodeports': '0' })],
      want: { allowed: false, quota: 'q', message: 'exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1' },
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(decideServiceQuota(r.svc, r.old, r.quotas), r.want));
});

// plugin/pkg/admission/resourcequota/admission_test.go, the Service update cases (a quota of 10
// each, used services 1, load balancers 1, node ports 0; a LoadBalancer becomes a NodePort).
describe('decideServiceQuota: admission_test.go TestAdmitHandles*', () => {
  const lbQuota = () => {
    const hard = { services: '10', 'services.loadbalancers': '10', 'services.nodeports': '10' };
    return { metadata: { name: 'quota', namespace: 'test', resourceVersion: '124' }, status: { hard, used: { services: '1', 'services.loadbalancers': '1', 'services.nodeports': '0' } } } as ResourceQuota;
  };
  const named = (type: ServiceSpec['type'], ports: number[], resourceVersion?: string): Service => ({
    metadata: { name: 'service', namespace: 'test', ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
    spec: { type, ...(ports.length > 0 ? { ports: ports.map((port) => ({ port })) } : {}) },
  });
  const rows: { name: string; old: Service; used: Record<string, string> }[] = [
    {
      name: 'TestAdmitHandlesOldObjects: the delta is charged, the load balancer given up never goes negative',
      old: named('LoadBalancer', [], '1'),
      used: { services: '1', 'services.loadbalancers': '1', 'services.nodeports': '1' },
    },
    {
      name: 'TestAdmitHandlesCreatingUpdates: an old object without resourceVersion is a create, billed in full',
      old: named('LoadBalancer', [], ''),
      used: { services: '2', 'services.loadbalancers': '1', 'services.nodeports': '1' },
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = decideServiceQuota(named('NodePort', [1234]), r.old, [lbQuota()]);
      assert.equal(d.allowed, true);
      if (!d.allowed) return;
      assert.equal(d.charges.length, 1);
      for (const [k, v] of Object.entries(r.used)) assert.equal(d.charges[0]!.used[k], v, k);
    });
  }
});

describe('serviceQuotaUsage', () => {
  it('sums the namespace\'s services under the names the quota limits', () => {
    const q = quota({ services: '9', 'services.nodeports': '9', 'services.loadbalancers': '9', pods: '9' });
    assert.deepEqual(serviceQuotaUsage(q, [svc({ type: 'NodePort' }), svc({ type: 'LoadBalancer' }), svc({ type: 'ClusterIP' })]), { services: '3', 'services.loadbalancers': '1', 'services.nodeports': '4' });
  });
  it('a scoped quota tracks nothing', () => {
    assert.deepEqual(serviceQuotaUsage(quota({ services: '9' }, undefined, ['BestEffort']), [svc({})]), {});
  });
});
