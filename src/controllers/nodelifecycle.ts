// The node lifecycle controller (kube-controller-manager's pkg/controller/nodelifecycle,
// monitorNodeHealth): every --node-monitor-period it looks at each node's Ready heartbeat and
// its Lease in kube-node-lease; a node not heard from within --node-monitor-grace-period gets
// its kubelet conditions set Unknown ("Kubelet stopped posting node status."), the pods on it
// marked not Ready, and, from the next pass (the Ready status it observes), the unreachable or
// not-ready NoExecute taint, which the taint eviction controller (tainteviction.ts) acts on. A
// node Ready again has both removed. New taints are rate limited per zone (one node every 10 s
// by default, none in a small zone where most nodes are down); when every node of every zone
// is not Ready the control plane is the likelier fault: no node is tainted and the taints go
// (upstream's full disruption mode). The decisions are src/policy/nodehealth.ts's; the NoSchedule condition taints are the
// API server's (src/api/nodetaints.ts), applied on the status write this controller makes.
// A node seen for the first time, or gone since the last pass, gets upstream's RegisteredNode
// or RemovingNode event (RecordNodeEvent: "Node <name> event: …", on the Node by its UID, which
// `kubectl describe node` lists).

import type { Lease, Node, Pod } from '../api/types.js';
import { computeZoneState, defaultZoneRates, noExecuteTaintFor, nodeHealthVerdict, observeNodeHealth, podNotReadyConditions, TaintNodeNotReady, TaintNodeUnreachable, withNoExecuteTaint, ZoneLimiter, zoneKey, zoneTaintRate, type GracePeriods, type NodeHealth, type ZoneRates, type ZoneState } from '../policy/nodehealth.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { leasesRef, nodesRef, podsRef } from '../client/resources.js';

export const nodeLifecycleControllerName = 'node-controller';
export const nodeLeaseNamespace = 'kube-node-lease';

export interface NodeLifecycleOptions {
  /** --node-monitor-period (upstream 5 s). */
  monitorPeriodMs?: number;
  /** --node-monitor-grace-period (upstream 50 s). */
  gracePeriodMs?: number;
  /** --node-startup-grace-period (upstream 1 m). */
  startupGracePeriodMs?: number;
  /** --node-eviction-rate, --secondary-node-eviction-rate, --unhealthy-zone-threshold, --large-cluster-size-threshold. */
  zoneRates?: Partial<ZoneRates>;
  /** The controller's clock in ms (tests inject one and call monitor() themselves). */
  now?: () => number;
  events?: EventRecorder;
  log?: (msg: string) => void;
}

export const defaultNodeMonitorPeriodMs = 5_000;
export const defaultNodeMonitorGracePeriodMs = 50_000;
export const defaultNodeStartupGracePeriodMs = 60_000;

export class NodeLifecycleController {
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly leases: SharedIndexInformer<Lease>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly health = new Map<string, NodeHealth>();
  /** knownNodeSet: the nodes of the last pass, by name (a removed node's event needs its UID). */
  private readonly known = new Map<string, Node>();
  /** Nodes whose pods still need marking not Ready (a failed MarkPodsNotReady is retried). */
  private readonly retryPods = new Set<string>();
  private readonly events: EventRecorder;
  private readonly grace: GracePeriods;
  private readonly now: () => number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  /** Whether every zone was in full disruption on the last pass. */
  private allFullyDisrupted = false;
  /** Each zone's tainting limiter, made anew when the zone's state changes. */
  private readonly limiters = new Map<string, { state: string; limiter: ZoneLimiter }>();
  private readonly rates: ZoneRates;
  /** Passes completed (for tests that wait for the controller to have looked again). */
  passes = 0;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: NodeLifecycleOptions = {}) {
    this.nodes = informers.informerFor<Node>(nodesRef);
    this.leases = informers.informerFor<Lease>(leasesRef, { namespace: nodeLeaseNamespace }, 'node-leases');
    this.pods = informers.informerFor<Pod>(podsRef);
    this.events = opts.events ?? new EventRecorder(client, { component: nodeLifecycleControllerName });
    this.grace = { monitorMs: opts.gracePeriodMs ?? defaultNodeMonitorGracePeriodMs, startupMs: opts.startupGracePeriodMs ?? defaultNodeStartupGracePeriodMs };
    this.now = opts.now ?? (() => client.now().getTime());
    this.rates = { ...defaultZoneRates, ...opts.zoneRates };
  }

  async start(): Promise<void> {
    await Promise.all([this.nodes.start(), this.leases.start(), this.pods.start()]);
    if (this.opts.now) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.monitor()
        .catch((e: unknown) => this.opts.log?.(`node lifecycle: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => (this.running = undefined));
    }, this.opts.monitorPeriodMs ?? defaultNodeMonitorPeriodMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.events.stop();
  }

  /** classifyNodes' added and deleted nodes, each with its event. */
  private classifyNodes(nodes: readonly Node[], names: ReadonlySet<string>): void {
    for (const n of nodes) {
      const name = n.metadata.name!;
      if (this.known.has(name)) continue;
      this.known.set(name, n);
      this.recordNodeEvent(n, 'RegisteredNode', `Registered Node ${name} in Controller`);
    }
    for (const [name, n] of this.known) {
      if (names.has(name)) continue;
      this.known.delete(name);
      this.recordNodeEvent(n, 'RemovingNode', `Removing Node ${name} from Controller`);
    }
  }

  private recordNodeEvent(node: Node, reason: string, event: string): void {
    this.events.record(node, 'Normal', reason, '', `Node ${node.metadata.name} event: ${event}`);
  }

  /** One monitorNodeHealth pass. */
  async monitor(): Promise<void> {
    const nodes = this.nodes.lister.list();
    const names = new Set(nodes.map((n) => n.metadata.name!));
    for (const name of this.health.keys()) if (!names.has(name)) this.health.delete(name);
    this.classifyNodes(nodes, names);
    const results: { node: Node; observed: string; current: string }[] = [];
    for (const n of nodes) {
      if (this.stopped) return;
      const r = await this.updateHealth(n);
      if (r) results.push(r);
    }
    const zones = new Map<string, string[]>();
    for (const r of results) {
      if (r.node.metadata.labels?.['node.kubernetes.io/exclude-disruption'] !== undefined) continue;
      const k = zoneKey(r.node);
      zones.set(k, [...(zones.get(k) ?? []), r.current]);
    }
    const states = new Map<string, ZoneState>([...zones].map(([k, v]) => [k, computeZoneState(v, this.rates.unhealthyZoneThreshold)]));
    const allFull = states.size > 0 && [...states.values()].every((s) => s === 'FullDisruption');
    if (this.allFullyDisrupted && !allFull) {
      // Leaving full disruption: every node gets a fresh grace period.
      const now = this.now();
      for (const [k, h] of this.health) this.health.set(k, { ...h, probeTimestamp: now });
    }
    this.allFullyDisrupted = allFull;
    for (const k of this.limiters.keys()) if (!states.has(k)) this.limiters.delete(k);
    const now = this.now();
    for (const [k, state] of states) {
      const signature = allFull ? 'AllFullDisruption' : state;
      if (this.limiters.get(k)?.state === signature) continue;
      this.limiters.set(k, { state: signature, limiter: new ZoneLimiter(allFull ? 0 : zoneTaintRate(state, zones.get(k)!.length, this.rates), now) });
    }
    for (const { node, observed, current } of results) {
      if (this.stopped) return;
      const name = node.metadata.name!;
      await this.setNoExecuteTaint(name, allFull || observed === 'True' ? undefined : this.taintToAdd(node, observed));
      const transitioned = current !== 'True' && observed === 'True';
      if (transitioned) this.events.record(node, 'Normal', 'NodeNotReady', '', `Node ${name} status is now: NodeNotReady`);
      if (transitioned || (this.retryPods.has(name) && observed !== 'True')) {
        if (!(await this.markPodsNotReady(name))) {
          this.retryPods.add(name);
          continue;
        }
      }
      this.retryPods.delete(name);
    }
    this.passes++;
  }

  /** The NoExecute taint for a node not Ready: a swap at once, a new taint when its zone's limiter allows. */
  private taintToAdd(node: Node, observed: string): string | undefined {
    const want = noExecuteTaintFor(observed);
    const tainted = (node.spec?.taints ?? []).some((t) => t.effect === 'NoExecute' && (t.key === TaintNodeNotReady || t.key === TaintNodeUnreachable));
    if (tainted) return want;
    const k = zoneKey(node);
    let zone = this.limiters.get(k);
    if (!zone) {
      // A zone of excluded nodes only: the healthy rate.
      zone = { state: 'Normal', limiter: new ZoneLimiter(this.rates.evictionRate, this.now()) };
      this.limiters.set(k, zone);
    }
    return zone.limiter.tryAccept(this.now()) ? want : 'keep';
  }

  /** tryUpdateNodeHealth with its retries: the node's Ready status before and after this pass. */
  private async updateHealth(cached: Node): Promise<{ node: Node; observed: string; current: string } | undefined> {
    let node = cached;
    const name = node.metadata.name!;
    for (let attempt = 0; attempt < 5; attempt++) {
      const health = observeNodeHealth(this.health.get(name), node, this.leases.lister.get(nodeLeaseNamespace, name), this.now());
      this.health.set(name, health);
      const verdict = nodeHealthVerdict(node, health, this.now(), this.grace);
      if (!verdict.conditions) return { node, observed: verdict.observedReady, current: verdict.currentReady };
      try {
        const updated = await this.client.update<Node>(nodesRef, undefined, { ...node, status: { ...node.status, conditions: verdict.conditions } }, { subresource: 'status' });
        this.health.set(name, { ...health, ready: updated.status?.conditions?.find((c) => c.type === 'Ready') });
        return { node: updated, observed: verdict.observedReady, current: verdict.currentReady };
      } catch (e) {
        if (isStatus(e, 404)) return undefined;
        if (!isStatus(e, 409)) throw e;
        try {
          node = await this.client.get<Node>(nodesRef, undefined, name);
        } catch (e2) {
          if (isStatus(e2, 404)) return undefined;
          throw e2;
        }
      }
    }
    return undefined;
  }

  /** SwapNodeControllerTaint: the node's NoExecute taint brought to `want` (undefined: none; keep: as it is). */
  private async setNoExecuteTaint(name: string, want: string | undefined): Promise<void> {
    if (want === 'keep') return;
    for (let attempt = 0; attempt < 5; attempt++) {
      const node = attempt === 0 ? this.nodes.lister.get(undefined, name) : await this.client.get<Node>(nodesRef, undefined, name).catch((e: unknown) => (isStatus(e, 404) ? undefined : Promise.reject(e)));
      if (!node) return;
      // A retry reads the node again: a Ready node's taint may have gone meanwhile.
      const taints = withNoExecuteTaint(node.spec?.taints, want, this.now());
      if (!taints) return;
      try {
        await this.client.update<Node>(nodesRef, undefined, { ...node, spec: { ...node.spec, taints } });
        return;
      } catch (e) {
        if (isStatus(e, 404)) return;
        if (!isStatus(e, 409)) throw e;
      }
    }
  }

  /** MarkPodsNotReady: true when every pod of the node was written. */
  private async markPodsNotReady(nodeName: string): Promise<boolean> {
    let ok = true;
    for (const pod of this.pods.lister.list()) {
      if (pod.spec?.nodeName !== nodeName) continue;
      const conditions = podNotReadyConditions(pod, this.now());
      if (!conditions) continue;
      try {
        await this.client.update<Pod>(podsRef, pod.metadata.namespace, { ...pod, status: { ...pod.status, conditions } }, { subresource: 'status' });
        this.events.record(pod, 'Warning', 'NodeNotReady', '', 'Node is not ready');
      } catch (e) {
        if (isStatus(e, 404)) continue;
        ok = false;
      }
    }
    return ok;
  }
}
