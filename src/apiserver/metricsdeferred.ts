// The API server's request metrics (metrics.ts, on prom-client) loaded after the server listens:
// prom-client and its default collectors took about a tenth of a start. Requests served before
// it has loaded are counted once it has, in the order they came; /metrics waits for it.

import type { ApiMetrics } from './metrics.js';

type Recorder = Pick<ApiMetrics, 'observe' | 'watcherTerminated' | 'render'>;

export function deferredMetrics(load: () => Promise<ApiMetrics>): Recorder & { loaded: Promise<void> } {
  let metrics: ApiMetrics | undefined;
  const pending: ((m: ApiMetrics) => void)[] = [];
  const ready = load().then((m) => {
    metrics = m;
    for (const f of pending.splice(0)) f(m);
    return m;
  });
  const record = (f: (m: ApiMetrics) => void) => (metrics ? f(metrics) : pending.push(f));
  return {
    loaded: ready.then(() => undefined),
    observe: (verb, resource, code, seconds) => record((m) => m.observe(verb, resource, code, seconds)),
    watcherTerminated: (group, resource) => record((m) => m.watcherTerminated(group, resource)),
    render: async () => (await ready).render(),
  };
}
