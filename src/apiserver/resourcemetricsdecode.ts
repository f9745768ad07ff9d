// metrics-server's decoding of a kubelet's /metrics/resource scrape
// (pkg/scraper/client/resource/decode.go): the node's cumulative CPU and working set, and each
// container's, with their sample timestamps (the scrape's time when a sample has none) and the
// containers' start times. A node point missing either value, or a pod with a container missing
// either, is dropped, as upstream drops them. Pure.

/** storage.MetricsPoint. Times in ms since the epoch; CPU in nanocore-seconds. */
export interface MetricsPoint {
  startTime: number;
  timestamp: number;
  cumulativeCPUUsed: bigint;
  memoryUsage: bigint;
}

export interface MetricsBatch {
  nodes: Map<string, MetricsPoint>;
  /** By `namespace/name`; containers by name. */
  pods: Map<string, Map<string, MetricsPoint>>;
}

const emptyPoint = (): MetricsPoint => ({ startTime: 0, timestamp: 0, cumulativeCPUUsed: 0n, memoryUsage: 0n });

function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
  return out;
}

/** One sample line: `name{labels} value [timestamp]`. */
function parseSample(line: string): { name: string; labels: Record<string, string>; value: number; timestamp?: number } | undefined {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(?:\s+(-?\d+))?\s*$/.exec(line);
  if (!m) return undefined;
  const value = Number(m[3]!.replace(/^\+Inf$/, 'Infinity').replace(/^-Inf$/, '-Infinity'));
  if (Number.isNaN(value) && m[3] !== 'NaN') return undefined;
  const out: { name: string; labels: Record<string, string>; value: number; timestamp?: number } = { name: m[1]!, labels: parseLabels(m[2] ?? ''), value };
  if (m[4] !== undefined) out.timestamp = Number(m[4]);
  return out;
}

/** A float of seconds as integer nanoseconds, as uint64(value * 1e9). */
function nanos(seconds: number): bigint {
  const n = seconds * 1e9;
  return Number.isFinite(n) && n > 0 ? BigInt(Math.floor(n)) : 0n;
}

function bytes(v: number): bigint {
  return Number.isFinite(v) && v > 0 ? BigInt(Math.floor(v)) : 0n;
}

export function decodeResourceMetrics(text: string, scrapeTime: number, nodeName: string): MetricsBatch {
  const node = emptyPoint();
  const pods = new Map<string, Map<string, MetricsPoint>>();
  const containerPoint = (labels: Record<string, string>): MetricsPoint => {
    const key = `${labels.namespace ?? ''}/${labels.pod ?? ''}`;
    let pod = pods.get(key);
    if (!pod) pods.set(key, (pod = new Map()));
    const name = labels.container ?? '';
    let p = pod.get(name);
    if (!p) pod.set(name, (p = emptyPoint()));
    return p;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const s = parseSample(line);
    if (!s) throw new Error(`failed parsing metrics: ${JSON.stringify(line.slice(0, 80))}`);
    const ts = s.timestamp ?? scrapeTime;
    switch (s.name) {
      case 'node_cpu_usage_seconds_total':
        node.cumulativeCPUUsed = nanos(s.value);
        node.timestamp = ts;
        break;
      case 'node_memory_working_set_bytes':
        node.memoryUsage = bytes(s.value);
        node.timestamp = ts;
        break;
      case 'container_cpu_usage_seconds_total': {
        const p = containerPoint(s.labels);
        p.cumulativeCPUUsed = nanos(s.value);
        p.timestamp = ts;
        break;
      }
      case 'container_memory_working_set_bytes': {
        const p = containerPoint(s.labels);
        p.memoryUsage = bytes(s.value);
        p.timestamp = ts;
        break;
      }
      case 'container_start_time_seconds':
        containerPoint(s.labels).startTime = Math.floor(s.value * 1000);
        break;
    }
  }
  const batch: MetricsBatch = { nodes: new Map(), pods: new Map() };
  if (node.timestamp !== 0 && node.cumulativeCPUUsed !== 0n && node.memoryUsage !== 0n) batch.nodes.set(nodeName, node);
  for (const [key, containers] of pods) {
    // checkContainerMetrics: one incomplete container drops the pod's point.
    const complete = [...containers.values()].every((c) => c.cumulativeCPUUsed !== 0n && c.memoryUsage !== 0n);
    if (containers.size && complete) batch.pods.set(key, containers);
  }
  return batch;
}
