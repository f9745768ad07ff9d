// Endpoints and EndpointSlices end to end: `bulkhead up` driven by the real kubectl. A Service in
// front of a hostNetwork pod (the only kind of pod with a pod IP on a Bulkhead node: its node's)
// whose container port is named: once the pod is Ready, `kubectl get endpoints` and `kubectl
// describe svc` show the node's IP with the resolved port, the Service's EndpointSlice lists it
// ready; deleting the pod empties both. The kubernetes Service's Endpoints name the API server.
// `bulkhead up`'s node IP is 127.0.0.1 unless told, which no endpoint may be (validation refuses
// loopback, as upstream's), so the node registers this host's first non-loopback IPv4 address
// (--node-ip; the agent still listens on loopback). Needs root, runc, conmon, busybox-static,
// kubectl and such an address; anywhere else the suite skips and says why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { defaultNodeIP } from '../../src/agent/setup.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const nodeIP = defaultNodeIP();
const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable() ?? (nodeIP === '127.0.0.1' ? 'this host has no non-loopback IPv4 address for the node' : undefined);
if (reason) console.error(`test/e2e/endpoints.test: SKIPPING Endpoints end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

const manifests = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: http}
---
apiVersion: v1
kind: Pod
metadata: {name: web-0, labels: {app: web}}
spec:
  hostNetwork: true
  terminationGracePeriodSeconds: 1
  containers:
  - name: c
    image: busybox
    command: ["sleep", "3600"]
    ports:
    - {name: http, containerPort: 18080}
`;

describe('Endpoints and EndpointSlices against bulkhead up', skip, () => {
  let c: UpCluster;
  let podIP = '';

  before(async () => {
    c = await startUp(['--node-ip', nodeIP]);
    await c.ok(['apply', '-f', c.file('web.yaml', manifests)]);
    podIP = await c.until('web-0 Ready with a pod IP', async () => {
      const p = await c.pod('web-0');
      const st = p.status as { podIP?: string; conditions?: { type: string; status: string }[] };
      return st.podIP && st.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') ? st.podIP : undefined;
    }, 90_000);
  });

  after(async () => {
    await c?.stop();
  });

  it('kubectl get endpoints and describe svc show the pod\'s IP with the named port resolved', async () => {
    const line = await c.until('the Endpoints of web', async () => {
      const out = await c.ok(['get', 'endpoints', 'web', '--no-headers']);
      return out.includes(`${podIP}:18080`) ? out : undefined;
    }, 30_000);
    assert.match(line, new RegExp(`^web\\s+${podIP.replace(/\./g, '\\.')}:18080\\s`));
    assert.match(await c.ok(['describe', 'svc', 'web']), new RegExp(`^Endpoints:\\s+${podIP.replace(/\./g, '\\.')}:18080$`, 'm'));
  });

  it('kubectl get endpointslices: the Service\'s slice, IPv4, port 18080, the pod ready', async () => {
    const out = await c.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '--no-headers']);
    assert.match(out, new RegExp(`^web-[a-z0-9]{5}\\s+IPv4\\s+18080\\s+${podIP.replace(/\./g, '\\.')}\\s`));
    const slice = JSON.parse(await c.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'json'])) as { items: { endpoints: { conditions: unknown; nodeName?: string }[] }[] };
    assert.deepEqual(slice.items[0]!.endpoints[0]!.conditions, { ready: true, serving: true, terminating: false });
    assert.equal(slice.items[0]!.endpoints[0]!.nodeName, c.nodeName);
  });

  it('the kubernetes Service\'s Endpoints name the API server\'s port', async () => {
    const ep = JSON.parse(await c.ok(['get', 'endpoints', 'kubernetes', '-n', 'default', '-o', 'json'])) as { subsets?: { addresses: { ip: string }[]; ports: { name: string; port: number }[] }[] };
    const server = new URL((await c.ok(['config', 'view', '--minify', '-o', 'jsonpath={.clusters[0].cluster.server}'])).trim());
    assert.equal(ep.subsets?.[0]?.ports[0]?.name, 'https');
    assert.equal(ep.subsets?.[0]?.ports[0]?.port, Number(server.port));
  });

  it('deleting the pod empties the Endpoints and the slice', async () => {
    await c.ok(['delete', 'pod', 'web-0', '--wait=false']);
    await c.until('no endpoints for web', async () => ((await c.ok(['get', 'endpoints', 'web', '--no-headers'])).includes('<none>') ? true : undefined), 60_000);
    await c.until('the slice empty', async () => ((await c.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '--no-headers'])).includes('<unset>') ? true : undefined), 90_000);
  });
});
