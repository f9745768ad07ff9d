// Request metrics in the Prometheus text format (prom-client), named as kube-apiserver names
// them. Each server has its own registry so that several servers in one process (tests) do
// not share counters.

import { Counter, Histogram, Registry } from 'prom-client';

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
