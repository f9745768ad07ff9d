// The kubelet's /metrics/resource (pkg/kubelet/metrics/collectors/resource_metrics.go) rendered
// from a Summary (summary.ts): the STABLE node, pod and container CPU and working-set series
// with the kubelet's names, help texts and labels, each sample stamped with the time of its
// reading (milliseconds), container_start_time_seconds, and resource_scrape_error. This is what
// metrics-server scrapes, and what the API server's metrics.k8s.io reads. Text exposition format
// 0.0.4 as client_golang writes it: families sorted by name, label pairs by name, values as Go's
// strconv.FormatFloat(v, 'g', -1, 64). Swap series are not reported (no swap accounting here).

import type { Summary } from './summary.js';

export const resourceMetricsContentType = 'text/plain; version=0.0.4; charset=utf-8';

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: { labels: Record<string, string>; value: number; timestamp?: number }[];
}

/**
 * Go's strconv.FormatFloat(v, 'g', -1, 64): the shortest digits, in exponent form when the
 * exponent is below −4 or at least 6 (Go's rule for the shortest precision), exponent two digits
 * at least: 12345678 → 1.2345678e+07, 123456 → 123456.
 */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return '0';
  const [mant, ex] = v.toExponential().split('e') as [string, string];
  const e = Number(ex);
  if (e < -4 || e >= 6) return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(v);
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function renderFamily(f: Family): string {
  const lines = [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`];
  const rows = f.samples.map((s) => {
    const keys = Object.keys(s.labels).sort();
    const labels = keys.length ? `{${keys.map((k) => `${k}="${escapeLabel(s.labels[k]!)}"`).join(',')}}` : '';
    return { labels, text: `${f.name}${labels} ${goFloat(s.value)}${s.timestamp !== undefined ? ` ${Math.floor(s.timestamp)}` : ''}` };
  });
  rows.sort((a, b) => (a.labels < b.labels ? -1 : a.labels > b.labels ? 1 : 0));
  return [...lines, ...rows.map((r) => r.text)].join('\n');
}

/** The /metrics/resource text of a Summary; `scrapeError` when the Summary could not be had (then only that series). */
export function renderResourceMetrics(s: Summary | undefined): string {
  const fam = (name: string, type: Family['type'], help: string): Family => ({ name, type, help: `[STABLE] ${help}`, samples: [] });
  const nodeCPU = fam('node_cpu_usage_seconds_total', 'counter', 'Cumulative cpu time consumed by the node in core-seconds');
  const nodeMem = fam('node_memory_working_set_bytes', 'gauge', 'Current working set of the node in bytes');
  const ctrStart = fam('container_start_time_seconds', 'gauge', 'Start time of the container since unix epoch in seconds');
  const ctrCPU = fam('container_cpu_usage_seconds_total', 'counter', 'Cumulative cpu time consumed by the container in core-seconds');
  const ctrMem = fam('container_memory_working_set_bytes', 'gauge', 'Current working set of the container in bytes');
  const podCPU = fam('pod_cpu_usage_seconds_total', 'counter', 'Cumulative cpu time consumed by the pod in core-seconds');
  const podMem = fam('pod_memory_working_set_bytes', 'gauge', 'Current working set of the pod in bytes');
  const scrapeErr = fam('resource_scrape_error', 'gauge', '1 if there was an error while getting container metrics, 0 otherwise');
  scrapeErr.samples.push({ labels: {}, value: s ? 0 : 1 });
  if (s) {
    const n = s.node;
    if (n.cpu?.usageCoreNanoSeconds !== undefined) nodeCPU.samples.push({ labels: {}, value: n.cpu.usageCoreNanoSeconds / 1e9, timestamp: n.cpu.time });
    if (n.memory?.workingSetBytes !== undefined) nodeMem.samples.push({ labels: {}, value: n.memory.workingSetBytes, timestamp: n.memory.time });
    for (const p of s.pods) {
      const podLabels = { pod: p.podRef.name, namespace: p.podRef.namespace };
      for (const c of p.containers) {
        const labels = { container: c.name, ...podLabels };
        if (c.startTime > 0) ctrStart.samples.push({ labels, value: c.startTime / 1000 });
        if (c.cpu?.usageCoreNanoSeconds !== undefined) ctrCPU.samples.push({ labels, value: c.cpu.usageCoreNanoSeconds / 1e9, timestamp: c.cpu.time });
        if (c.memory?.workingSetBytes !== undefined) ctrMem.samples.push({ labels, value: c.memory.workingSetBytes, timestamp: c.memory.time });
      }
      if (p.cpu?.usageCoreNanoSeconds !== undefined) podCPU.samples.push({ labels: podLabels, value: p.cpu.usageCoreNanoSeconds / 1e9, timestamp: p.cpu.time });
      if (p.memory?.workingSetBytes !== undefined) podMem.samples.push({ labels: podLabels, value: p.memory.workingSetBytes, timestamp: p.memory.time });
    }
  }
  // client_golang leaves out a family with no samples, and sorts the rest by name.
  const families = [nodeCPU, nodeMem, ctrStart, ctrCPU, ctrMem, podCPU, podMem, scrapeErr].filter((f) => f.samples.length).sort((a, b) => (a.name < b.name ? -1 : 1));
  return families.map(renderFamily).join('\n') + '\n';
}
