// Request metrics in the Prometheus text format (prom-client), named as kube-apiserver names
// them, and the process's memory as Node's conventional gauges (kube-apiserver's Go collector
// exposes process_resident_memory_bytes and go_memstats_*; these are their Node counterparts,
// named as prom-client's default metrics name them). Each server has its own registry so that
// several servers in one process (tests) do not share counters.

import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, resource and HTTP response code.',
    labelNames: ['verb', 'resource', 'code'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb and resource.',
    labelNames: ['verb', 'resource'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
    registers: [this.registry],
  });

  private readonly terminatedWatchers = new Counter({
    name: 'apiserver_terminated_watchers_total',
    help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
    labelNames: ['group', 'resource'],
    registers: [this.registry],
  });

  constructor() {
    memoryGauges(this.registry);
  }

  watcherTerminated(group: string, resource: string): void {
    this.terminatedWatchers.inc({ group, resource });
  }

  observe(verb: string, resource: string, code: number, seconds: number): void {
    this.requests.inc({ verb: verb.toUpperCase(), resource, code: String(code) });
    if (verb !== 'watch') this.duration.observe({ verb: verb.toUpperCase(), resource }, seconds);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}

/** Gauges read when /metrics is scraped: where the resident memory is (V8's heap spaces, buffers, the rest). */
function memoryGauges(registry: Registry): void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', () => process.memoryUsage.rss());
  gauge('nodejs_heap_size_total_bytes', 'Process heap size from Node.js in bytes.', () => process.memoryUsage().heapTotal);
  gauge('nodejs_heap_size_used_bytes', 'Process heap size used from Node.js in bytes.', () => process.memoryUsage().heapUsed);
  gauge('nodejs_external_memory_bytes', 'Node.js external memory size in bytes.', () => process.memoryUsage().external);
  gauge('nodejs_array_buffers_bytes', 'Memory allocated for ArrayBuffers and Buffers, in bytes (part of the external memory).', () => process.memoryUsage().arrayBuffers);
  gauge('nodejs_malloced_memory_bytes', 'Memory V8 itself has allocated with malloc, in bytes.', () => getHeapStatistics().malloced_memory);
  const spaces = (name: string, help: string, field: 'space_size' | 'space_used_size' | 'space_available_size') =>
    new Gauge({
      name,
      help,
      labelNames: ['space'],
      registers,
      collect() {
        for (const s of getHeapSpaceStatistics()) this.set({ space: s.space_name.replace(/_space$/, '') }, s[field]);
      },
    });
  spaces('nodejs_heap_space_size_total_bytes', 'Process heap space size total from Node.js in bytes.', 'space_size');
  spaces('nodejs_heap_space_size_used_bytes', 'Process heap space size used from Node.js in bytes.', 'space_used_size');
  spaces('nodejs_heap_space_size_available_bytes', 'Process heap space size available from Node.js in bytes.', 'space_available_size');
}
