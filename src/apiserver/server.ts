// Assembles a running API server: the store, certificates and tokens in the data directory,
// the registry with its strategies, the HTTPS listener and an admin kubeconfig that the real
// kubectl can use. The controllers are not part of it: src/server/start.ts composes them on top,
// as clients. pods/log is proxied to the agent of the pod's node, as
// kube-apiserver proxies it to the kubelet.

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultFeatureGates, type FeatureGates } from '../api/featuregates.js';
import type { PodSecurityDefaults, PodSecurityExemptions } from '../admission/podsecurity.js';
import type { ResourceQuotaConfiguration } from '../quota/config.js';
import type { DefaultTolerationSeconds } from '../admission/defaulttolerationseconds.js';
import { openStore, type OpenStoreOptions } from '../storage/index.js';
import type { Store } from '../storage/store.js';
import { LogStore } from '../storage/engine.js';
import { withImpersonation } from './impersonation.js';
import { adminUser, mastersGroup, NodeAwareAuthorizer, nodesGroup, nodeUserPrefix, requestAuthenticator, tokenAuthenticator, TokenFile } from './auth.js';
import { bootstrapTokenNamespace, bootstrapTokenSecretType } from '../api/bootstraptoken.js';
import { createHandler, type HandlerOptions } from './handler.js';
import { ensureNodeServingCert, ensurePKI, ensureServiceAccountKey } from './pki.js';
import { claimedObjectsFrom, serviceAccountAuthenticator, ServiceAccountTokenSigner, tokenRequestHandler } from './serviceaccounttokens.js';
import { apiAudiences } from './accessreviews.js';
import { refuseLostDatabase } from './datadir.js';
import { Api, type RequestInfo } from './rest.js';
import { defaultServiceRanges, installStrategies } from './strategies.js';
import { ensureKubernetesService, type ServiceRanges } from './services.js';
import { KubernetesEndpointsReconciler } from './kubernetesendpoints.js';
import { advertiseAddress } from '../policy/apiserverendpoints.js';
import { releaseStaleClaims } from './serviceallocations.js';
import { ensureSystemPriorityClasses } from './priorityclasses.js';
import { ensureBootstrapRBAC } from './rbacbootstrap.js';
import { RBACIndex, rbacResources, setRBACIndex } from './rbacindex.js';
import { StatusError } from './status.js';
import { deferredMetrics } from './metricsdeferred.js';
import type { ClusterRole, ClusterRoleBinding, Node, Pod, Role, RoleBinding, Secret } from '../api/types.js';
import { withoutManagedFields } from '../api/cachetransforms.js';
import { ObjectCache, type HeldList } from './cache.js';
import { PostStartHook, serverHealthChecks } from './healthz.js';
import { Cacher } from './watchcache.js';
import type { KeyValue } from '../storage/store.js';
import { decodeRequestObject } from './decode.js';
import { patchResource, trackUpdate } from './patching.js';
import { podSubresources } from './subresources.js';
import { agentConnector, type AgentConnector } from './nodeconnection.js';
import { nodeProxyHandler } from './nodeproxy.js';
import { streamingSubresources } from './streaming/proxy.js';
import { serveUpgrades } from './streaming/upgrade.js';
import { appsSubresources } from './scale.js';
import { defaultBookmarkIntervalMs, defaultWatchBufferBytes } from './watchstream.js';
import { accessReviewHandlers } from './accessreviews.js';
import { metricsAPIHandlers } from './metricsapi.js';
import { MetricsScraper } from './metricsscraper.js';
import type { MetricsStorage } from './metricsstorage.js';
import { guardTransport, transportServerOptions, upstreamTransportLimits, type TransportLimits } from './transport.js';
import { StartTurns } from './startturns.js';
import { renderKubeconfig } from '../api/kubeconfig.js';

export interface ApiServerOptions {
  dataDir: string;
  /** `sqlite:PATH` (default `sqlite:<dataDir>/bulkhead.db`), `memory:` or `etcd://HOST:PORT[,…]`. */
  store?: string;
  /** etcd's TLS material and key prefix. */
  storeOptions?: OpenStoreOptions;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  gates?: FeatureGates;
  /** The PodSecurity configuration's defaults (each privileged / latest when absent). */
  podSecurityDefaults?: PodSecurityDefaults;
  /** The PodSecurity configuration's exempt usernames, namespaces and runtime classes (none when absent). */
  podSecurityExemptions?: PodSecurityExemptions;
  /** The ResourceQuota configuration: what it limits by default (nothing when absent). */
  resourceQuota?: ResourceQuotaConfiguration;
  /** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (300 each). */
  defaultTolerationSeconds?: DefaultTolerationSeconds;
  /** Extra names or addresses for the serving certificate. */
  advertise?: string[];
  /** Seconds between store compactions (history older than one to two intervals goes); 0: never. */
  compactionSeconds?: number;
  /** --request-timeout in seconds: the deadline of every request that is not long-running (timeout.ts); default 60. */
  requestTimeoutSeconds?: number;
  /** Most bytes of events a watch may have waiting for a slow client before it is cut off. */
  watchBufferBytes?: number;
  /** Seconds between BOOKMARK events on watches that allow them (upstream: one minute). */
  watchBookmarkSeconds?: number;
  extend?: (opts: HandlerOptions) => void;
  /** metrics.k8s.io's scrape period of the agents (metrics-server's --metric-resolution); default 15 s. */
  metricResolutionSeconds?: number;
  /** --service-cluster-ip-range and --service-node-port-range, parsed (servicerange.ts); kube-apiserver's defaults otherwise. */
  serviceRanges?: ServiceRanges;
  /** --service-account-issuer; https://kubernetes.default.svc.cluster.local by default. */
  serviceAccountIssuer?: string;
  /** Connection limits; kube-apiserver's by default (tests shorten the timeouts). */
  transport?: Partial<TransportLimits>;
}

export interface RunningApiServer {
  url: string;
  api: Api;
  store: Store;
  caCert: string;
  adminToken: string;
  kubeconfigPath: string;
  tokens: TokenFile;
  /** How the server reaches nodes' agents (for handlers added by `extend`). */
  agents: AgentConnector;
  /** The token of a node identity, created on first use. */
  nodeToken(node: string): string;
  /** A node's serving certificate for its agent endpoint, signed by the cluster CA, for `hosts`. */
  nodeServingCert(node: string, hosts: string[]): Promise<{ cert: string; key: string }>;
  /** The metrics.k8s.io storage PodMetrics are served from: the horizontal pod autoscaler reads it directly. */
  podMetrics: Pick<MetricsStorage, 'podMetrics'>;
  /** Awaited between the steps of what starts after the server listens (startturns.ts): the controllers' too. */
  startTurn(): Promise<void>;
  close(): Promise<void>;
}

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** The small, hot objects admission reads from memory (each has an ObjectCache that also feeds its watch cache). */
const admissionCaches = ['namespaces', 'limitranges', 'resourcequotas', 'priorityclasses', 'runtimeclasses', 'serviceaccounts'];

const bootstrap: RequestInfo = { user: { name: 'system:apiserver', groups: [mastersGroup] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };

/** A kubeconfig whose user is a bearer token, in the default namespace (the admin's; a node's on `up`). */
export function kubeconfig(server: string, caCert: string, user: string, token: string, context = 'bulkhead'): string {
  return renderKubeconfig({ server, ca: caCert, user, credentials: { token }, namespace: 'default', context });
}

export async function startApiServer(opts: ApiServerOptions): Promise<RunningApiServer> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const storeSpec = opts.store ?? `sqlite:${join(dataDir, 'bulkhead.db')}`;
  refuseLostDatabase(dataDir, storeSpec);
  const store = await openStore(storeSpec, opts.storeOptions);
  const api = new Api({ store, gates: opts.gates ?? defaultFeatureGates, resourceQuota: opts.resourceQuota });
  const serviceRanges = opts.serviceRanges ?? defaultServiceRanges();
  installStrategies(api, { defaults: opts.podSecurityDefaults ?? {}, exemptions: opts.podSecurityExemptions ?? {} }, opts.defaultTolerationSeconds, serviceRanges);
  api.trackWrite = trackUpdate;
  // kube-apiserver's post-start hooks Bulkhead has the work of, in the order /livez lists them:
  // each check passes once that work is done (the first two before the server listens).
  const hooks = {
    namespaces: new PostStartHook('start-system-namespaces-controller'),
    rbac: new PostStartHook('rbac/bootstrap-roles'),
    priorityClasses: new PostStartHook('scheduling/bootstrap-system-priority-classes'),
    kubernetesService: new PostStartHook('bootstrap-controller'),
  };
  for (const name of systemNamespaces) {
    // As upstream's system-namespaces controller: Get, and create only what is missing (a
    // create that ends in 409 would pay for admission and managed fields on every start).
    if (await api.tryGet(api.def('namespaces'), undefined, name)) continue;
    try {
      await api.create(api.def('namespaces'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { ...bootstrap, warnings: [] });
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 409)) throw e;
    }
  }
  hooks.namespaces.finished();
  await ensureSystemPriorityClasses(api, bootstrap);
  hooks.priorityClasses.finished();
  for (const resource of [...admissionCaches, ...rbacResources]) {
    const cache = new ObjectCache(store, api.def(resource));
    await cache.start();
    api.caches.set(resource, cache);
  }
  const host = opts.host ?? '127.0.0.1';
  const pki = await ensurePKI(join(dataDir, 'pki'), [host, ...(opts.advertise ?? [])].filter((h) => h !== '0.0.0.0' && h !== '::'));
  const tokens = new TokenFile(join(dataDir, 'tokens.json'));
  const adminToken = tokens.ensure(adminUser, [mastersGroup]);
  // The bootstrap token authenticator reads its Secrets from a cache, as upstream's from an informer.
  const bootstrapTokens = new ObjectCache<Secret>(store, api.def('secrets'), { keep: (s) => s.type === bootstrapTokenSecretType && s.metadata?.namespace === bootstrapTokenNamespace });
  await bootstrapTokens.start();
  api.caches.set('bootstraptokens', bootstrapTokens as unknown as ObjectCache);
  // Service account tokens: signed with the data directory's key, for the issuer and audiences
  // kube-apiserver is given in a k3s-like single binary (see src/api/serviceaccounttoken.ts).
  const serviceAccountSigner = new ServiceAccountTokenSigner(ensureServiceAccountKey(join(dataDir, 'pki')).privateKey, opts.serviceAccountIssuer);
  const serviceAccounts = serviceAccountAuthenticator({ signer: serviceAccountSigner, apiAudiences, lookup: claimedObjectsFrom(api), now: () => api.now() });
  const authenticateToken = tokenAuthenticator(tokens, (ns, name) => bootstrapTokens.get(ns, name)?.obj, undefined, serviceAccounts);
  // Loaded once the server listens (below), off the path to the first answer.
  let loadMetrics!: () => void;
  const metrics = deferredMetrics(() => new Promise<void>((r) => (loadMetrics = r)).then(async () => new (await import('./metrics.js')).ApiMetrics()));
  // Agents are reached over HTTPS: their certificates chain to the cluster CA, and they take the
  // server for kube-apiserver-kubelet-client by its client certificate (see src/agent/endpoint.ts).
  const agents = agentConnector({ ca: pki.caCert, cert: pki.kubeletClientCert, key: pki.kubeletClientKey });
  // The node authorizer's graph: the pods bound to each node (what they refer to is read from
  // them on each request), as kube-apiserver's graph populator keeps it from a pod informer.
  // Its objects are the pods' watch cache's where that has them (started first, so that it has
  // each event's object before this cache sees the event): one decoded copy of each pod.
  const cacher = new Cacher(store, { deliversOnCommit: store instanceof LogStore });
  api.cacher = cacher;
  // The admission caches watched the store first: their objects serve the watch caches too.
  for (const resource of [...admissionCaches, ...rbacResources]) {
    const cache = api.caches.get(resource)!;
    cacher.shareDecoded(cache.def, (kv) => cache.decodedAt(kv.key, kv.modRevision));
  }
  await cacher.start(api.def('pods'));
  // It starts from the watch cache's objects and revision, not a second list of every pod.
  const boundPods = new ObjectCache<Pod>(store, api.def('pods'), {
    keep: (p) => !!p.spec?.nodeName,
    transform: withoutManagedFields,
    decoded: cacher.decoded(api.def('pods')) as (kv: KeyValue) => Pod | undefined,
    initial: () => cacher.snapshot(api.def('pods')) as HeldList<Pod> | undefined,
  });
  await boundPods.start();
  boundPods.addIndex('nodeName', (p) => p.spec?.nodeName);
  api.caches.set('boundpods', boundPods as unknown as ObjectCache);
  // RBAC decides from the stored roles and bindings, indexed by subject (rbacindex.ts).
  const rbacIndex = new RBACIndex(
    api.caches.get('clusterroles') as ObjectCache<ClusterRole>,
    api.caches.get('clusterrolebindings') as unknown as ObjectCache<ClusterRoleBinding>,
    api.caches.get('roles') as ObjectCache<Role>,
    api.caches.get('rolebindings') as unknown as ObjectCache<RoleBinding>,
  );
  setRBACIndex(api, rbacIndex);
  // One authorizer: what the handler enforces is what the access reviews report.
  const authorizer = new NodeAwareAuthorizer((node) => boundPods.byIndex('nodeName', node).values(), rbacIndex);
  // metrics.k8s.io: metrics-server's scraper and storage, in the server.
  const metricsScraper = new MetricsScraper({
    agents,
    nodes: async () => (await api.list(api.def('nodes'), undefined)).items as Node[],
    ...(opts.metricResolutionSeconds !== undefined ? { resolutionMs: opts.metricResolutionSeconds * 1000 } : {}),
    log: (m) => process.stderr.write(`bulkhead: ${m}\n`),
  });
  const lifecycle = { shuttingDown: false };
  const handlerOpts: HandlerOptions = {
    api,
    cacher,
    health: serverHealthChecks(store, lifecycle, undefined, { postStartHooks: Object.values(hooks) }),
    // WithImpersonation after WithAuthentication: from here on the request is the impersonated user's.
    authenticate: withImpersonation(requestAuthenticator(authenticateToken), (a) => authorizer.decide(a)),
    authorizer,
    createOnly: accessReviewHandlers(authorizer, {
      authenticateToken,
    }),
    served: metricsAPIHandlers(metricsScraper),
    serverAddress: `${host}:${opts.port ?? 6443}`,
    metrics: () => metrics.render(),
    decode: decodeRequestObject,
    patch: patchResource,
    subresources: {
      ...podSubresources({ agents }),
      ...appsSubresources,
      proxy: nodeProxyHandler(agents),
      ...streamingSubresources({ agents }),
      token: tokenRequestHandler({ signer: serviceAccountSigner, apiAudiences }),
    },
    // Loaded and built on the first OpenAPI request, once per process (~0.1–0.2 s; the modules
    // and zlib ~4 ms of loading): not on every start's path.
    openapi: async () => (await import('./openapidocs.js')).openAPIDocs(),
    onRequest: (verb, resource, code, seconds) => metrics.observe(verb, resource, code, seconds),
    ...(opts.requestTimeoutSeconds !== undefined ? { requestTimeoutMs: opts.requestTimeoutSeconds * 1000 } : {}),
    watch: {
      bufferBytes: opts.watchBufferBytes ?? defaultWatchBufferBytes,
      bookmarkIntervalMs: (opts.watchBookmarkSeconds ?? defaultBookmarkIntervalMs / 1000) * 1000,
      onEnd: (end) => {
        if (end.terminated) metrics.watcherTerminated(end.group, end.resource);
      },
    },
  };
  opts.extend?.(handlerOpts);
  const handler = createHandler(handlerOpts);
  const server: Server = createServer({
    // The serving certificate with the CA behind it, so that a joining node can pin the CA by
    // its hash (kubeadm's --discovery-token-ca-cert-hash) before it trusts the server; client
    // certificates of the cluster CA are asked for, not required (the x509 authenticator).
    cert: pki.serverCert + pki.caCert,
    key: pki.serverKey,
    ca: pki.caCert,
    requestCert: true,
    rejectUnauthorized: false,
    ...transportServerOptions({ ...upstreamTransportLimits, ...opts.transport }) }, handler);
  guardTransport(server);
  serveUpgrades(server, handler);
  const turns = new StartTurns(server);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 6443, host, () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `https://${urlHost}:${port}`;
  handlerOpts.serverAddress = `${urlHost}:${port}`;
  // The kubernetes service controller: the Service that names the API server, its ports put right
  // at start, put back every 10 s when deleted (upstream's interval).
  let reportedKubernetesService = '';
  const reconcileKubernetesService = (updatePorts: boolean) =>
    ensureKubernetesService(api, serviceRanges, port, bootstrap, updatePorts).then(
      () => (reportedKubernetesService = ''),
      (e: unknown) => {
        const why = e instanceof StatusError ? (e.status.message ?? '') : String(e);
        if (why !== reportedKubernetesService && !lifecycle.shuttingDown) process.stderr.write(`bulkhead: cannot create the kubernetes Service in default: ${why}\n`);
        reportedKubernetesService = why;
      },
    );
  await reconcileKubernetesService(true);
  // Its first pass is over (a failure is reported and retried every 10 s, as upstream's controller).
  hooks.kubernetesService.finished();
  // From here on the requests that come in are served between the steps of the start (startturns.ts).
  await turns.turn();
  // rbac/bootstrap-roles: on a restart whose policy is current, comparisons in memory only.
  await ensureBootstrapRBAC(api, bootstrap, () => turns.turn());
  hooks.rbac.finished();
  // The endpoint reconciler: the kubernetes Service's Endpoints and EndpointSlice name this
  // server's advertised address (its lease) beside those of the other servers on the store.
  const interfaceIPv4 = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => a.address));
  const endpointReconciler = new KubernetesEndpointsReconciler(api, advertiseAddress(host, opts.advertise ?? [], interfaceIPv4), port, bootstrap);
  let reportedEndpoints = '';
  const reconcileEndpoints = (updatePort: boolean, between?: () => Promise<void>) =>
    endpointReconciler.reconcile(updatePort, between).then(
      () => (reportedEndpoints = ''),
      (e: unknown) => {
        const why = e instanceof StatusError ? (e.status.message ?? '') : String(e);
        if (why !== reportedEndpoints && !lifecycle.shuttingDown) process.stderr.write(`bulkhead: cannot write the kubernetes Endpoints in default: ${why}\n`);
        reportedEndpoints = why;
      },
    );
  await reconcileEndpoints(true, () => turns.turn());
  const kubernetesServiceTimer = setInterval(() => {
    void reconcileKubernetesService(false);
    void reconcileEndpoints(false);
  }, 10_000);
  kubernetesServiceTimer.unref();
  // The repair controllers: claims of Services that went, swept at start and every 3 minutes.
  const sweepClaims = () =>
    releaseStaleClaims(api).catch((e: unknown) => {
      if (!lifecycle.shuttingDown) process.stderr.write(`bulkhead: releasing stale service allocations failed: ${e instanceof Error ? e.message : String(e)}\n`);
    });
  await turns.turn();
  void sweepClaims();
  const claimSweeper = setInterval(() => void sweepClaims(), 180_000);
  claimSweeper.unref();
  loadMetrics();
  metricsScraper.start();

  // As kube-apiserver does with etcd: every interval, compact history up to the revision seen
  // one interval earlier, so watches can resume from any point of the last interval or two.
  let compactAt = await store.currentRevision();
  const compactionMs = (opts.compactionSeconds ?? 300) * 1000;
  const compactor = compactionMs <= 0 ? undefined : setInterval(() => {
    void (async () => {
      const target = compactAt;
      compactAt = await store.currentRevision();
      if (target > (await store.compactRevision())) await store.compact(target);
    })().catch((e: unknown) => process.stderr.write(`bulkhead: compaction failed: ${e instanceof Error ? e.message : String(e)}\n`));
  }, compactionMs);
  compactor?.unref();

  const kubeconfigPath = join(dataDir, 'kubeconfig');
  writeFileSync(kubeconfigPath, kubeconfig(url, pki.caCert, adminUser, adminToken), { mode: 0o600 });

  return {
    url,
    api,
    store,
    caCert: pki.caCert,
    adminToken,
    kubeconfigPath,
    tokens,
    agents,
    nodeToken: (node) => tokens.ensure(`${nodeUserPrefix}${node}`, [nodesGroup]),
    nodeServingCert: (node, hosts) => ensureNodeServingCert(join(dataDir, 'pki'), node, hosts),
    podMetrics: metricsScraper.storage,
    startTurn: () => turns.turn(),
    async close() {
      lifecycle.shuttingDown = true;
      clearInterval(compactor);
      clearInterval(kubernetesServiceTimer);
      clearInterval(claimSweeper);
      await endpointReconciler.remove().catch(() => undefined);
      await metricsScraper.stop();
      for (const c of api.caches.values()) c.stop();
      cacher.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await store.close();
    },
  };
}
