// The service environment variables of containers: upstream's TestFromServices
// (pkg/kubelet/envvars/envvars_test.go, index commit 00bdb3fa) whole, and the rules of
// getServiceEnvVarMap and makeEnvironmentVariables (pkg/kubelet/kubelet_pods.go) one row each.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Service } from '../../../src/api/servicetypes.js';
import type { Pod } from '../../../src/api/types.js';
import { containerEnv } from '../../../src/agent/lifecycle/containerconfig.js';
import { fromServices, serviceEnv } from '../../../src/agent/lifecycle/serviceenv.js';

const svc = (name: string, clusterIP: string, ports: { name?: string; port: number; protocol?: string }[], namespace?: string): Service =>
  ({ metadata: { name, ...(namespace ? { namespace } : {}) }, spec: { selector: { bar: 'baz' }, clusterIP, ports } }) as Service;

describe('envvars.FromServices (upstream TestFromServices)', () => {
  test('TestFromServices', () => {
    const sl = [
      svc('foo-bar', '1.2.3.4', [{ port: 8080, protocol: 'TCP' }]),
      svc('abc-123', '5.6.7.8', [{ name: 'u-d-p', port: 8081, protocol: 'UDP' }, { name: 't-c-p', port: 8081, protocol: 'TCP' }]),
      svc('q-u-u-x', '9.8.7.6', [{ port: 8082, protocol: 'TCP' }, { name: '8083', port: 8083, protocol: 'TCP' }]),
      svc('svrc-clusterip-none', 'None', [{ port: 8082, protocol: 'TCP' }]),
      svc('svrc-clusterip-empty', '', [{ port: 8082, protocol: 'TCP' }]),
    ];
    assert.deepEqual(fromServices(sl), [
      ['FOO_BAR_SERVICE_HOST', '1.2.3.4'],
      ['FOO_BAR_SERVICE_PORT', '8080'],
      ['FOO_BAR_PORT', 'tcp://1.2.3.4:8080'],
      ['FOO_BAR_PORT_8080_TCP', 'tcp://1.2.3.4:8080'],
      ['FOO_BAR_PORT_8080_TCP_PROTO', 'tcp'],
      ['FOO_BAR_PORT_8080_TCP_PORT', '8080'],
      ['FOO_BAR_PORT_8080_TCP_ADDR', '1.2.3.4'],
      ['ABC_123_SERVICE_HOST', '5.6.7.8'],
      ['ABC_123_SERVICE_PORT', '8081'],
      ['ABC_123_SERVICE_PORT_U_D_P', '8081'],
      ['ABC_123_SERVICE_PORT_T_C_P', '8081'],
      ['ABC_123_PORT', 'udp://5.6.7.8:8081'],
      ['ABC_123_PORT_8081_UDP', 'udp://5.6.7.8:8081'],
      ['ABC_123_PORT_8081_UDP_PROTO', 'udp'],
      ['ABC_123_PORT_8081_UDP_PORT', '8081'],
      ['ABC_123_PORT_8081_UDP_ADDR', '5.6.7.8'],
      ['ABC_123_PORT_8081_TCP', 'tcp://5.6.7.8:8081'],
      ['ABC_123_PORT_8081_TCP_PROTO', 'tcp'],
      ['ABC_123_PORT_8081_TCP_PORT', '8081'],
      ['ABC_123_PORT_8081_TCP_ADDR', '5.6.7.8'],
      ['Q_U_U_X_SERVICE_HOST', '9.8.7.6'],
      ['Q_U_U_X_SERVICE_PORT', '8082'],
      ['Q_U_U_X_SERVICE_PORT_8083', '8083'],
      ['Q_U_U_X_PORT', 'tcp://9.8.7.6:8082'],
      ['Q_U_U_X_PORT_8082_TCP', 'tcp://9.8.7.6:8082'],
      ['Q_U_U_X_PORT_8082_TCP_PROTO', 'tcp'],
      ['Q_U_U_X_PORT_8082_TCP_PORT', '8082'],
      ['Q_U_U_X_PORT_8082_TCP_ADDR', '9.8.7.6'],
      ['Q_U_U_X_PORT_8083_TCP', 'tcp://9.8.7.6:8083'],
      ['Q_U_U_X_PORT_8083_TCP_PROTO', 'tcp'],
      ['Q_U_U_X_PORT_8083_TCP_PORT', '8083'],
      ['Q_U_U_X_PORT_8083_TCP_ADDR', '9.8.7.6'],
    ]);
  });

  test('an IPv6 cluster IP is bracketed in the URLs (net.JoinHostPort); a port without protocol is TCP', () => {
    assert.deepEqual(fromServices([svc('v6', 'fd00::1', [{ port: 80 }])]).filter(([n]) => n === 'V6_PORT' || n === 'V6_PORT_80_TCP_PROTO'), [['V6_PORT', 'tcp://[fd00::1]:80'], ['V6_PORT_80_TCP_PROTO', 'tcp']]);
  });
});

const master = svc('kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }], 'default');
const names = (m: Map<string, string>) => [...m.keys()].filter((k) => k.endsWith('_SERVICE_HOST')).sort();

describe('getServiceEnvVarMap', () => {
  const rows: { rule: string; services: Service[]; namespace: string; links: boolean; hosts: string[]; kubernetesHost?: string }[] = [
    { rule: 'the master service of default is there for every pod, links or not', services: [master, svc('db', '10.96.0.5', [{ port: 5432 }], 'shop')], namespace: 'shop', links: false, hosts: ['KUBERNETES_SERVICE_HOST'] },
    { rule: 'with enableServiceLinks the pod\'s own namespace\'s services are there too', services: [master, svc('db', '10.96.0.5', [{ port: 5432 }], 'shop')], namespace: 'shop', links: true, hosts: ['DB_SERVICE_HOST', 'KUBERNETES_SERVICE_HOST'] },
    { rule: 'services of other namespaces are not', services: [master, svc('db', '10.96.0.5', [{ port: 5432 }], 'other')], namespace: 'shop', links: true, hosts: ['KUBERNETES_SERVICE_HOST'] },
    { rule: 'a headless service (clusterIP None) gives nothing', services: [master, svc('headless', 'None', [{ port: 80 }], 'shop')], namespace: 'shop', links: true, hosts: ['KUBERNETES_SERVICE_HOST'] },
    { rule: 'a service named kubernetes in the pod\'s namespace takes the master\'s place', services: [master, svc('kubernetes', '10.96.0.9', [{ port: 443 }], 'shop')], namespace: 'shop', links: true, hosts: ['KUBERNETES_SERVICE_HOST'], kubernetesHost: '10.96.0.9' },
    { rule: 'without links it does not', services: [svc('kubernetes', '10.96.0.9', [{ port: 443 }], 'shop'), master], namespace: 'shop', links: false, hosts: ['KUBERNETES_SERVICE_HOST'], kubernetesHost: '10.96.0.1' },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const m = serviceEnv(row.services, row.namespace, row.links);
      assert.deepEqual(names(m), row.hosts);
      if (row.kubernetesHost) assert.equal(m.get('KUBERNETES_SERVICE_HOST'), row.kubernetesHost);
    });
  }
});

describe('makeEnvironmentVariables with service variables', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { containers: [] } } as unknown as Pod;
  const objects = { configMaps: new Map(), secrets: new Map(), serviceEnv: serviceEnv([master], 'default', true) };
  test('the service variables come after the container\'s own, which win over one of the same name', () => {
    const env = containerEnv(pod, { name: 'c', env: [{ name: 'KUBERNETES_SERVICE_PORT', value: '1' }, { name: 'A', value: 'a' }] }, undefined, objects);
    assert.deepEqual(env.slice(0, 2), [['KUBERNETES_SERVICE_PORT', '1'], ['A', 'a']]);
    assert.equal(env.filter(([n]) => n === 'KUBERNETES_SERVICE_PORT').length, 1);
    assert.deepEqual(env.find(([n]) => n === 'KUBERNETES_PORT'), ['KUBERNETES_PORT', 'tcp://10.96.0.1:443']);
  });
  test('$(VAR) in a value can name a service variable', () => {
    const env = containerEnv(pod, { name: 'c', env: [{ name: 'API', value: 'https://$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)' }] }, undefined, objects);
    assert.deepEqual(env[0], ['API', 'https://10.96.0.1:443']);
  });
});
