// metrics-server's scraper (pkg/scraper/scraper.go) inside the API server: every resolution
// (--metric-resolution, 15 s) every Node's agent is asked for /metrics/resource (through the one
// AgentConnector, as pods/log reaches it), each answer decoded (resourcemetricsdecode.ts), and
// the batch of all nodes stored (metricsstorage.ts), from which metrics.k8s.io answers. A node
// that fails to answer within the timeout (90% of the resolution, as metrics-server's) is left
// out of that batch, so its points, and its pods', go until it answers again. Nodes that are not
// Ready, or that report no address, are not asked at all (nothing is there to answer: a node
// whose agent stopped, or a KWOK-style Node object with no agent behind it). A node's failing is
// logged when it starts and when it answers again, not on every resolution.

import type { Node } from '../api/types.js';
import { preferredAddressTypes, type AgentConnector } from './nodeconnection.js';
import { MetricsStorage } from './metricsstorage.js';
import { decodeResourceMetrics, type MetricsBatch } from './resourcemetricsdecode.js';

export const defaultMetricResolutionMs = 15_000;

/**
 * Why `node` is not scraped, or undefined when it is: its Ready condition is not True, or it
 * reports no address of a type the server dials (kube-apiserver's preferred address types).
 */
export function skipScrape(node: Node): string | undefined {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  if (ready !== 'True') return `not Ready (${ready ?? 'no Ready condition'})`;
  if (!(node.status?.addresses ?? []).some((a) => a.address && preferredAddressTypes.includes(a.type))) return 'no address';
  return undefined;
}

export interface MetricsScraperOptions {
  agents: AgentConnector;
  nodes(): Promise<Node[]>;
  resolutionMs?: number;
  now?: () => number;
  log?: (msg: string) => void;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class MetricsScraper {
  readonly storage: MetricsStorage;
  readonly resolutionMs: number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly now: () => number;
  /** The nodes whose last scrape failed: a failing node is logged when it starts failing, once. */
  private readonly failing = new Set<string>();

  constructor(private readonly o: MetricsScraperOptions) {
    this.resolutionMs = o.resolutionMs ?? defaultMetricResolutionMs;
    this.storage = new MetricsStorage(this.resolutionMs);
    this.now = o.now ?? Date.now;
  }

  start(): void {
    const tick = () => {
      this.running ??= this.scrape()
        .catch((e: unknown) => this.o.log?.(`metrics scrape: ${errText(e)}`))
        .finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(tick, this.resolutionMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One scrape of every node, stored as one batch. */
  async scrape(): Promise<void> {
    const nodes = (await this.o.nodes()).filter((n) => skipScrape(n) === undefined);
    // A node that is skipped now starts afresh: failing again after it comes back is news.
    const asked = new Set(nodes.map((n) => n.metadata.name ?? ''));
    for (const name of this.failing) if (!asked.has(name)) this.failing.delete(name);
    const batch: MetricsBatch = { nodes: new Map(), pods: new Map() };
    const results = await Promise.all(nodes.map((n) => this.scrapeNode(n)));
    for (const r of results) {
      if (!r) continue;
      for (const [k, v] of r.nodes) batch.nodes.set(k, v);
      for (const [k, v] of r.pods) if (!batch.pods.has(k)) batch.pods.set(k, v);
    }
    this.storage.store(batch);
  }

  private async scrapeNode(node: Node): Promise<MetricsBatch | undefined> {
    const name = node.metadata.name ?? '';
    try {
      const url = this.o.agents.location(node);
      url.pathname = '/metrics/resource';
      const started = this.now();
      const text = await this.get(url, Math.floor(this.resolutionMs * 0.9));
      const batch = decodeResourceMetrics(text, started, name);
      if (this.failing.delete(name)) this.o.log?.(`metrics scrape of node ${name}: answering again`);
      return batch;
    } catch (e) {
      if (!this.failing.has(name)) this.o.log?.(`metrics scrape of node ${name}: ${errText(e)}`);
      this.failing.add(name);
      return undefined;
    }
  }

  private get(url: URL, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = this.o.agents.request(url, { headers: { Accept: 'text/plain' } });
      const t = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (e) => {
        clearTimeout(t);
        reject(e);
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          clearTimeout(t);
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`request failed, status: "${res.statusCode}"`));
          else resolve(body);
        });
      });
      req.end();
    });
  }
}
