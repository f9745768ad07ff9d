// metrics.k8s.io/v1beta1 as metrics-server serves it. Pure rows: the decoding of a kubelet's
// /metrics/resource scrape, the two-point storage (usage formula, fresh containers, restarts,
// incomplete pods) and the quantities and durations as Go renders them. Then the API over an
// in-process server whose node's agent is played by a small HTTPS server (with the node serving
// certificate the server issues) answering
// /metrics/resource with scripted samples (timestamps in the text, so the figures are exact),
// read with the real kubectl: discovery, `kubectl top node`, `kubectl top pod --containers`,
// get/list, label selectors, NotFound wording, and who may read it.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { decodeResourceMetrics, type MetricsPoint } from '../../src/apiserver/resourcemetricsdecode.js';
import { MetricsStorage, resourceUsage, usageQuantities } from '../../src/apiserver/metricsstorage.js';
import { goDuration } from '../../src/apiserver/metricsapi.js';
import { kubectlAvailable, startCluster, type TestCluster } from '../e2e/cluster.js';

const point = (timestamp: number, cpuSeconds: number, memory: bigint, startTime = 0): MetricsPoint => ({ startTime, timestamp, cumulativeCPUUsed: BigInt(cpuSeconds * 1e9), memoryUsage: memory });

describe('decodeResourceMetrics: a /metrics/resource scrape as metrics-server decodes it', () => {
  const text = `# HELP node_cpu_usage_seconds_total [STABLE] x
# TYPE node_cpu_usage_seconds_total counter
node_cpu_usage_seconds_total 11.5 1700000010000
node_memory_working_set_bytes 1.073741824e+09 1700000010000
container_cpu_usage_seconds_total{container="c",namespace="ns",pod="p"} 0.5 1700000010000
container_memory_working_set_bytes{container="c",namespace="ns",pod="p"} 6.7108864e+07 1700000010000
container_start_time_seconds{container="c",namespace="ns",pod="p"} 1.7e+09
container_cpu_usage_seconds_total{container="a",namespace="ns",pod="half"} 0.5 1700000010000
resource_scrape_error 0
`;
  const b = decodeResourceMetrics(text, 1, 'n1');
  it('the node point: CPU in nanocore-seconds, the working set, the sample timestamp', () => assert.deepEqual(b.nodes.get('n1'), { startTime: 0, timestamp: 1700000010000, cumulativeCPUUsed: 11_500_000_000n, memoryUsage: 1073741824n }));
  it('a container point with its start time', () => assert.deepEqual(b.pods.get('ns/p')?.get('c'), { startTime: 1_700_000_000_000, timestamp: 1700000010000, cumulativeCPUUsed: 500_000_000n, memoryUsage: 67108864n }));
  it('a pod with a container missing its memory is dropped (checkContainerMetrics)', () => assert.equal(b.pods.has('ns/half'), false));
  it('a sample without a timestamp takes the scrape\'s time', () => assert.equal(decodeResourceMetrics('node_cpu_usage_seconds_total 1\nnode_memory_working_set_bytes 1\n', 42, 'n').nodes.get('n')?.timestamp, 42));
  it('a node without memory is no point', () => assert.equal(decodeResourceMetrics('node_cpu_usage_seconds_total 1 5\n', 42, 'n').nodes.size, 0));
  it('a line that is not a sample fails the scrape', () => assert.throws(() => decodeResourceMetrics('what is this\n', 0, 'n'), /failed parsing metrics/));
});

describe('usage quantities as metrics-server renders them (nanocores DecimalSI, bytes BinarySI)', () => {
  const rows: [bigint, bigint, string, string][] = [
    [1_234_567n, 12_345n, '1234567n', '12345'],
    [5_000_000n, 64n << 20n, '5m', '64Mi'],
    [1_234_000n, 1536n << 10n, '1234u', '1536Ki'],
    [2_000_000_000n, 1n << 30n, '2', '1Gi'],
    [0n, 0n, '0', '0'],
    // Go's CanonicalizeBytes: a BinarySI value below 1024 is written as DecimalSI.
    [1n, 1000n, '1n', '1k'],
  ];
  for (const [cpu, mem, wantCPU, wantMem] of rows) it(`${cpu}n, ${mem} B → ${wantCPU}, ${wantMem}`, () => assert.deepEqual(usageQuantities(cpu, mem), { cpu: wantCPU, memory: wantMem }));
});

describe('goDuration: metav1.Duration as Go prints it', () => {
  const rows: [number, string][] = [[0, '0s'], [15_000, '15s'], [15_009, '15.009s'], [10_500, '10.5s'], [999, '999ms'], [61_000, '1m1s'], [3_600_000, '1h0m0s']];
  for (const [ms, want] of rows) it(`${ms} ms → ${want}`, () => assert.equal(goDuration(ms), want));
});

describe('resourceUsage and the two-point storage (metrics-server pkg/storage)', () => {
  it('usage = Δcpu / Δt, the last working set; window and timestamp of the last point', () => {
    assert.deepEqual(resourceUsage(point(20_000, 6, 100n), point(10_000, 1, 50n)), { usage: { cpu: '500m', memory: '100' }, time: { timestamp: 20_000, windowMs: 10_000 } });
  });
  const errRows: [string, MetricsPoint, MetricsPoint, RegExp][] = [
    ['a decreasing CPU counter', point(20_000, 1, 1n), point(10_000, 2, 1n), /decrease in cumulative CPU usage/],
    ['a decreasing start time', point(20_000, 3, 1n, 5), point(10_000, 2, 1n, 9), /decrease in startTime/],
  ];
  for (const [name, last, prev, re] of errRows) it(`no usage: ${name}`, () => assert.match((resourceUsage(last, prev) as { error: string }).error, re));

  const batch = (t: number, nodeCPU: number, pods: [string, string, number, number][]) => ({
    nodes: new Map([['n', point(t, nodeCPU, 1000n)]]),
    pods: new Map(pods.map(([pod, c, cpu, start]) => [pod, new Map([[c, point(t, cpu, 2048n, start)]])])),
  });
  it('one scrape: nothing yet; two: the rate', () => {
    const s = new MetricsStorage(15_000);
    s.store(batch(100_000, 10, [['ns/p', 'c', 1, 0]]));
    assert.deepEqual(s.nodeMetrics(['n']), []);
    assert.deepEqual(s.podMetrics([{ namespace: 'ns', name: 'p' }]), []);
    s.store(batch(115_000, 13, [['ns/p', 'c', 2.5, 0]]));
    assert.deepEqual(s.nodeMetrics(['n']), [{ name: 'n', usage: { cpu: '200m', memory: '1k' }, time: { timestamp: 115_000, windowMs: 15_000 } }]);
    assert.deepEqual(s.podMetrics([{ namespace: 'ns', name: 'p' }]), [{ namespace: 'ns', name: 'p', containers: [{ name: 'c', usage: { cpu: '100m', memory: '2Ki' } }], time: { timestamp: 115_000, windowMs: 15_000 } }]);
  });
  it('a container started 10 s–1 resolution before its first point: a synthetic point at its start with zero CPU', () => {
    const s = new MetricsStorage(15_000);
    s.store(batch(100_000, 10, [['ns/p', 'c', 1.2, 88_000]]));
    assert.deepEqual(s.podMetrics([{ namespace: 'ns', name: 'p' }]), [{ namespace: 'ns', name: 'p', containers: [{ name: 'c', usage: { cpu: '100m', memory: '2Ki' } }], time: { timestamp: 100_000, windowMs: 12_000 } }]);
  });
  it('a container restarted since the stored point starts over', () => {
    const s = new MetricsStorage(15_000);
    s.store(batch(100_000, 10, [['ns/p', 'c', 5, 0]]));
    s.store(batch(130_000, 13, [['ns/p', 'c', 0.1, 125_000]]));
    assert.deepEqual(s.podMetrics([{ namespace: 'ns', name: 'p' }]), []);
  });
  it('a pod one of whose containers has a single point is left out', () => {
    const s = new MetricsStorage(15_000);
    s.store(batch(100_000, 10, [['ns/p', 'c', 1, 0]]));
    const b = batch(115_000, 13, [['ns/p', 'c', 2, 0]]);
    b.pods.get('ns/p')!.set('new', point(115_000, 1, 1n, 0));
    s.store(b);
    assert.deepEqual(s.podMetrics([{ namespace: 'ns', name: 'p' }]), []);
  });
});

const missing = kubectlAvailable();
if (missing) console.error(`\n*** SKIPPING metrics.k8s.io kubectl tests: ${missing} ***\n`);

describe('metrics.k8s.io/v1beta1 served from the agents\' /metrics/resource, read by kubectl top', { skip: missing }, () => {
  let c: TestCluster;
  let agent: Server;
  let scrapes = 0;
  const t0 = Date.UTC(2026, 0, 1, 0, 0, 0);

  // Each scrape is 10 s later in the samples' own time: 0.5 core for c1, 0.1 for c2, 1 for the node.
  const scrapeText = (): string => {
    const i = scrapes++;
    const t = t0 + i * 10_000;
    return [
      `node_cpu_usage_seconds_total ${100 + i * 10} ${t}`,
      `node_memory_working_set_bytes ${1024 * 1024 * 1024} ${t}`,
      `container_cpu_usage_seconds_total{container="c1",namespace="default",pod="p1"} ${1 + i * 5} ${t}`,
      `container_memory_working_set_bytes{container="c1",namespace="default",pod="p1"} ${64 * 1024 * 1024} ${t}`,
      `container_cpu_usage_seconds_total{container="c2",namespace="default",pod="p1"} ${1 + i} ${t}`,
      `container_memory_working_set_bytes{container="c2",namespace="default",pod="p1"} ${3 * 1024 * 1024} ${t}`,
      `container_start_time_seconds{container="c1",namespace="default",pod="p1"} ${(t0 - 3_600_000) / 1000}`,
      `container_cpu_usage_seconds_total{container="c",namespace="other",pod="p2"} ${2 + i * 2} ${t}`,
      `container_memory_working_set_bytes{container="c",namespace="other",pod="p2"} ${10 * 1024 * 1024} ${t}`,
      'resource_scrape_error 0',
      '',
    ].join('\n');
  };

  const clients = new Set<string>();

  before(async () => {
    c = await startCluster({ metricResolutionSeconds: 1 });
    const tls = await c.server.nodeServingCert('worker', ['127.0.0.1']);
    agent = createServer({ ...tls, ca: c.server.caCert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      clients.add(socket.authorized ? String(socket.getPeerCertificate().subject.CN) : 'unauthenticated');
      if (req.url === '/metrics/resource') res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end(scrapeText());
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', () => r()));
    const port = (agent.address() as AddressInfo).port;
    const api = c.server.api;
    const admin = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore' as const, warnings: [] };
    await api.create(api.def('nodes'), undefined, {
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker', labels: { 'kubernetes.io/hostname': 'worker', tier: 'a' } },
      status: { capacity: { cpu: '2', memory: '2Gi', pods: '110' }, allocatable: { cpu: '2', memory: '2Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } },
    } as never, { ...admin, warnings: [] });
    await api.create(api.def('namespaces'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } } as never, { ...admin, warnings: [] });
    const pod = (ns: string, name: string, containers: string[], labels: Record<string, string>) =>
      api.create(api.def('pods'), ns, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName: 'worker', containers: containers.map((n) => ({ name: n, image: 'busybox' })) } } as never, { ...admin, warnings: [] });
    await pod('default', 'p1', ['c1', 'c2'], { app: 'one' });
    await pod('other', 'p2', ['c'], { app: 'two' });
    await pod('default', 'nometrics', ['c'], { app: 'none' });
    // Two scrapes at least, so every pod has its two points.
    for (let i = 0; i < 600 && scrapes < 3; i++) await new Promise((r) => setTimeout(r, 100));
  });

  after(async () => {
    await c?.stop();
    agent?.close();
  });

  it('the scraper calls the agent as kube-apiserver does, with its kubelet client certificate', () => assert.deepEqual([...clients], ['kube-apiserver-kubelet-client']));

  it('discovery lists nodes and pods of metrics.k8s.io with get and list', async () => {
    const r = await c.kubectl(['api-resources', '--api-group=metrics.k8s.io', '-o', 'wide']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^nodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics\s+get,list/m);
    assert.match(r.stdout, /^pods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics\s+get,list/m);
  });

  it('kubectl explain reads the kinds from the OpenAPI documents', async () => {
    const r = await c.kubectl(['explain', 'pods.containers', '--api-version=metrics.k8s.io/v1beta1']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^GROUP:\s+metrics\.k8s\.io\nKIND:\s+PodMetrics\nVERSION:\s+v1beta1\n/);
    assert.match(r.stdout, /^ {2}usage\t<map\[string\]\w+> -required-$/m);
  });

  it('kubectl top node: 1 core of 2 (50%), 1024Mi of 2Gi (50%)', async () => {
    const r = await c.kubectl(['top', 'node']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^worker\s+1000m\s+50%\s+1024Mi\s+50%\s*$/m);
  });

  it('kubectl top pod --containers: each container\'s rate and working set', async () => {
    const r = await c.kubectl(['top', 'pod', 'p1', '--containers']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^p1\s+c1\s+500m\s+64Mi\s*$/m);
    assert.match(r.stdout, /^p1\s+c2\s+100m\s+3Mi\s*$/m);
  });

  it('kubectl top pod -A: every namespace, sorted; a pod without metrics is not listed', async () => {
    const r = await c.kubectl(['top', 'pod', '-A']);
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/).slice(0, 2).join('/'));
    assert.deepEqual(rows, ['default/p1', 'other/p2']);
  });

  it('label selectors pick the pods and nodes whose metrics are listed', async () => {
    const pods = JSON.parse((await c.kubectl(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/pods?labelSelector=app%3Dtwo'])).stdout);
    assert.equal(pods.kind, 'PodMetricsList');
    assert.deepEqual(pods.items.map((p: { metadata: { namespace: string; name: string } }) => `${p.metadata.namespace}/${p.metadata.name}`), ['other/p2']);
    const nodes = JSON.parse((await c.kubectl(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes?labelSelector=tier%3Db'])).stdout);
    assert.deepEqual(nodes.items, []);
  });

  it('a PodMetrics: usage per container, window and timestamp of the samples, the pod\'s labels', async () => {
    const pm = JSON.parse((await c.kubectl(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/p1'])).stdout);
    assert.equal(pm.apiVersion, 'metrics.k8s.io/v1beta1');
    assert.deepEqual(pm.metadata.labels, { app: 'one' });
    assert.equal(pm.window, '10s');
    assert.match(pm.timestamp, /^2026-01-01T00:\d\d:\d\dZ$/);
    assert.deepEqual(pm.containers, [{ name: 'c1', usage: { cpu: '500m', memory: '64Mi' } }, { name: 'c2', usage: { cpu: '100m', memory: '3Mi' } }]);
  });

  it('NotFound as metrics-server words it', async () => {
    const rows: [string, RegExp][] = [
      ['/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nometrics', /podmetrics\.metrics\.k8s\.io "default\/nometrics" not found/],
      ['/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/ghost', /pods "ghost" not found/],
      ['/apis/metrics.k8s.io/v1beta1/nodes/ghost', /node "ghost" not found/],
    ];
    for (const [path, re] of rows) {
      const r = await c.kubectl(['get', '--raw', path]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, re, path);
    }
  });

  it('a server-side table: Name, cpu, memory, Window', async () => {
    const r = await c.kubectl(['get', 'podmetrics.metrics.k8s.io', '-n', 'default']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^NAME\s+CPU\s+MEMORY\s+WINDOW\s*\np1\s+600m\s+67Mi\s+10s/);
  });

  it('authorization: a node\'s identity may not read metrics.k8s.io; create is not allowed for anyone', async () => {
    const r = await c.kubectl(['--token', c.server.nodeToken('worker'), 'get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /nodes\.metrics\.k8s\.io is forbidden: User "system:node:worker" cannot list resource "nodes" in API group "metrics\.k8s\.io" at the cluster scope/);
    const w = await c.kubectl(['create', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes', '-f', c.file('nm.json', '{}')]);
    assert.notEqual(w.code, 0);
    assert.match(w.stderr, /the server does not allow this method on the requested resource/);
    const watch = await c.kubectl(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes?watch=true']);
    assert.match(watch.stderr, /watch is not supported on resources of kind "nodes\.metrics\.k8s\.io"/);
  });
});
