// metrics.k8s.io/v1beta1 as metrics-server serves it (pkg/api: node.go, pod.go, table.go):
// `nodes` (NodeMetrics, cluster-scoped) and `pods` (PodMetrics, namespaced), get and list only.
// A list reads the Nodes (or the namespace's Pods) with the request's label and field
// selectors and answers the metrics of those that have them, sorted by name (pods: namespace,
// then name); a get of an object without metrics yet is NotFound of nodemetrics/podmetrics
// (`podmetrics.metrics.k8s.io "ns/name" not found`), of an unknown object the lister's NotFound
// (`node "x" not found`, `pods "x" not found`). The figures come from the scraper's storage
// (metricsscraper.ts). Tables as metrics-server's: Name, each usage column, Window.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject, Node, Pod } from '../api/types.js';
import type { Verb } from './handler.js';
import type { MetricsScraper } from './metricsscraper.js';
import { type NodeMetricsValue, type PodMetricsValue, type Usage, usageQuantities } from './metricsstorage.js';
import type { ResourcePath } from './request.js';
import { sendJSON } from './request.js';
import { negotiateOutput, notAcceptable, tableIncludeObject } from './negotiate.js';
import { rememberOutput } from './responsewriter.js';
import type { Api, ListOptions } from './rest.js';
import type { ResourceDef } from './resources.js';
import { statusErrors } from './status.js';
import { Quantity } from '../api/quantity.js';
import { metaTime } from '../api/metatime.js';

export const metricsGroupVersion = 'metrics.k8s.io/v1beta1';

/** A handler for a resource the store does not hold, after authentication and authorization. */
export type ServedResourceHandler = (api: Api, def: ResourceDef, path: ResourcePath, verb: Verb, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => Promise<void>;

/** Go's time.Duration.String() of a whole number of milliseconds. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let v = Math.abs(Math.round(ms));
  if (v < 1000) return `${neg ? '-' : ''}${v}ms`;
  const h = Math.floor(v / 3_600_000);
  v -= h * 3_600_000;
  const m = Math.floor(v / 60_000);
  v -= m * 60_000;
  const s = Math.floor(v / 1000);
  const frac = v % 1000 ? `.${String(v % 1000).padStart(3, '0').replace(/0+$/, '')}` : '';
  return `${neg ? '-' : ''}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}${frac}s`;
}

function meta(name: string, labels: Record<string, string> | undefined, now: Date, namespace?: string): Record<string, unknown> {
  return { name, ...(namespace !== undefined ? { namespace } : {}), creationTimestamp: metaTime(now), ...(labels && Object.keys(labels).length ? { labels } : {}) };
}

export function nodeMetricsObject(v: NodeMetricsValue, labels: Record<string, string> | undefined, now: Date): KubeObject {
  return { kind: 'NodeMetrics', apiVersion: metricsGroupVersion, metadata: meta(v.name, labels, now), timestamp: metaTime(new Date(v.time.timestamp)), window: goDuration(v.time.windowMs), usage: v.usage } as unknown as KubeObject;
}

export function podMetricsObject(v: PodMetricsValue, labels: Record<string, string> | undefined, now: Date): KubeObject {
  return {
    kind: 'PodMetrics',
    apiVersion: metricsGroupVersion,
    metadata: meta(v.name, labels, now, v.namespace),
    timestamp: metaTime(new Date(v.time.timestamp)),
    window: goDuration(v.time.windowMs),
    containers: v.containers,
  } as unknown as KubeObject;
}

/** The sum of usages, as Quantity.Add sums them. */
function sumUsage(usages: Usage[]): Usage {
  let cpu = 0n;
  let memory = 0n;
  for (const u of usages) {
    cpu += Quantity.parse(u.cpu).scaledValue(-9);
    memory += Quantity.parse(u.memory).scaledValue(0);
  }
  return usageQuantities(cpu, memory);
}

/** addNodeMetricsToTable / addPodMetricsToTable. */
export function metricsTable(items: { name: string; usage: Usage; windowMs: number; object: KubeObject }[], include: string): unknown {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {},
    columnDefinitions: items.length
      ? [
          { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
          { name: 'cpu', type: 'string', format: 'quantity', description: '', priority: 0 },
          { name: 'memory', type: 'string', format: 'quantity', description: '', priority: 0 },
          { name: 'Window', type: 'string', format: 'duration', description: '', priority: 0 },
        ]
      : [],
    rows: items.map((i) => ({
      cells: [i.name, i.usage.cpu, i.usage.memory, goDuration(i.windowMs)],
      object: include === 'None' ? undefined : include === 'Object' ? i.object : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: i.object.metadata },
    })),
  };
}

/**
 * A verb these resources do not have: a watch is the list handler's MethodNotSupported; a write
 * has no route at all, go-restful's 405.
 */
function unsupported(def: ResourceDef, verb: Verb): Error {
  return verb === 'watch' ? statusErrors.methodNotSupported({ group: def.group, resource: def.resource }, 'watch') : statusErrors.methodNotAllowed();
}

/**
 * The request's negotiated form (metrics-server's apiserver negotiates as kube-apiserver's
 * does, 406 when nothing fits): whether it asked for a Table.
 */
function asTable(req: IncomingMessage): boolean {
  const media = negotiateOutput(req.headersDistinct['accept']?.[0], 'resource');
  if (!media) throw notAcceptable();
  rememberOutput(req, media);
  return media.convert?.kind === 'Table';
}

function selectors(q: URLSearchParams): ListOptions {
  return { labelSelector: q.get('labelSelector') ?? undefined, fieldSelector: q.get('fieldSelector') ?? undefined };
}

export function metricsAPIHandlers(scraper: MetricsScraper): Record<string, ServedResourceHandler> {
  const nodes: ServedResourceHandler = async (api, def, path, verb, req, res, q) => {
    const now = api.now();
    const table = asTable(req);
    const include = table ? tableIncludeObject(q) : 'Metadata';
    if (verb === 'get') {
      const node = await api.tryGet<Node>(api.def('nodes'), undefined, path.name!);
      if (!node) throw statusErrors.notFound({ group: '', resource: 'node' }, path.name!);
      const [m] = scraper.storage.nodeMetrics([path.name!]);
      if (!m) throw statusErrors.notFound({ group: def.group, resource: 'nodemetrics' }, path.name!);
      const obj = nodeMetricsObject(m, node.metadata.labels, now);
      return sendJSON(res, 200, table ? metricsTable([{ name: m.name, usage: m.usage, windowMs: m.time.windowMs, object: obj }], include) : obj);
    }
    if (verb !== 'list') throw unsupported(def, verb);
    const list = (await api.list(api.def('nodes'), undefined, selectors(q))).items as Node[];
    const labels = new Map(list.map((n) => [n.metadata.name ?? '', n.metadata.labels]));
    const ms = scraper.storage.nodeMetrics([...labels.keys()]).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const items = ms.map((m) => nodeMetricsObject(m, labels.get(m.name), now));
    if (table) return sendJSON(res, 200, metricsTable(ms.map((m, i) => ({ name: m.name, usage: m.usage, windowMs: m.time.windowMs, object: items[i]! })), include));
    return sendJSON(res, 200, { kind: 'NodeMetricsList', apiVersion: metricsGroupVersion, metadata: {}, items });
  };
  const pods: ServedResourceHandler = async (api, def, path, verb, req, res, q) => {
    const now = api.now();
    const table = asTable(req);
    const include = table ? tableIncludeObject(q) : 'Metadata';
    const ns = path.namespace;
    if (verb === 'get') {
      const pod = await api.tryGet<Pod>(api.def('pods'), ns, path.name!);
      if (!pod) throw statusErrors.notFound({ group: '', resource: 'pods' }, path.name!);
      const [m] = scraper.storage.podMetrics([{ namespace: ns ?? '', name: path.name! }]);
      if (!m) throw statusErrors.notFound({ group: def.group, resource: 'podmetrics' }, `${ns ?? ''}/${path.name!}`);
      const obj = podMetricsObject(m, pod.metadata.labels, now);
      return sendJSON(res, 200, table ? metricsTable([{ name: m.name, usage: sumUsage(m.containers.map((c) => c.usage)), windowMs: m.time.windowMs, object: obj }], include) : obj);
    }
    if (verb !== 'list') throw unsupported(def, verb);
    const list = (await api.list(api.def('pods'), ns, selectors(q))).items as Pod[];
    const key = (p: { namespace?: string; name?: string }) => `${p.namespace ?? ''}/${p.name ?? ''}`;
    const labels = new Map(list.map((p) => [key(p.metadata), p.metadata.labels]));
    const ms = scraper.storage
      .podMetrics(list.map((p) => ({ namespace: p.metadata.namespace ?? '', name: p.metadata.name ?? '' })))
      .sort((a, b) => (a.namespace !== b.namespace ? (a.namespace < b.namespace ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const items = ms.map((m) => podMetricsObject(m, labels.get(key(m)), now));
    if (table) return sendJSON(res, 200, metricsTable(ms.map((m, i) => ({ name: m.name, usage: sumUsage(m.containers.map((c) => c.usage)), windowMs: m.time.windowMs, object: items[i]! })), include));
    return sendJSON(res, 200, { kind: 'PodMetricsList', apiVersion: metricsGroupVersion, metadata: {}, items });
  };
  return { 'metrics.k8s.io/nodes': nodes, 'metrics.k8s.io/pods': pods };
}
