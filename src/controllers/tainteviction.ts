// The taint eviction controller (kube-controller-manager's pkg/controller/tainteviction, the
// NoExecute taint manager): it watches nodes' NoExecute taints and the pods bound to them, and
// deletes a pod once its toleration of every such taint has run out (at once for a taint it
// does not tolerate), after setting its DisruptionTarget condition (reason
// DeletionByTaintManager), so its controller replaces it elsewhere. A taint removed in time, or
// the pod gone, cancels the eviction. The per-pod decision is src/scheduler/tainteviction.ts's;
// here are the timers and the writes.

import { setLongTimeout, type LongTimer } from './longtimer.js';
import type { Node, Pod, PodCondition, Taint } from '../api/types.js';
import { evictionDecision, noExecuteTaints, type ScheduledEviction } from '../scheduler/tainteviction.js';
import { stableJSON } from '../api/stablejson.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { nodesRef, podsRef } from '../client/resources.js';
import { metaTime } from '../api/metatime.js';

export const taintEvictionControllerName = 'taint-eviction-controller';

export const reasonDeletionByTaintManager = 'DeletionByTaintManager';
export const messageDeletionByTaintManager = 'Taint manager: deleting due to NoExecute taint';

export interface TaintEvictionOptions {
  /** The clock in ms (the client's by default). */
  now?: () => number;
  events?: EventRecorder;
  log?: (msg: string) => void;
}

interface Pending extends ScheduledEviction {
  timer: LongTimer;
}

const podKey = (namespace: string, name: string) => `${namespace}/${name}`;

export class TaintEvictionController {
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly pods: SharedIndexInformer<Pod>;
  /** NoExecute taints by node name (nodes without any are absent). */
  private readonly tainted = new Map<string, Taint[]>();
  private readonly pending = new Map<string, Pending>();
  private readonly events: EventRecorder;
  private readonly now: () => number;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: TaintEvictionOptions = {}) {
    this.nodes = informers.informerFor<Node>(nodesRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.events = opts.events ?? new EventRecorder(client, { component: taintEvictionControllerName });
    this.now = opts.now ?? (() => client.now().getTime());
  }

  async start(): Promise<void> {
    this.unsubscribe.push(
      this.nodes.addEventHandler({
        add: (n) => this.nodeChanged(n),
        update: (old, n) => {
          if (stableJSON(noExecuteTaints(old.spec?.taints)) !== stableJSON(noExecuteTaints(n.spec?.taints))) this.nodeChanged(n);
        },
        delete: (n) => this.tainted.delete(n.metadata.name!),
      }),
      this.pods.addEventHandler({
        add: (p) => this.podChanged(p),
        update: (old, p) => {
          if (old.spec?.nodeName !== p.spec?.nodeName || stableJSON(old.spec?.tolerations) !== stableJSON(p.spec?.tolerations)) this.podChanged(p);
        },
        delete: (p) => this.cancel(p.metadata.namespace!, p.metadata.name!),
      }),
    );
    await Promise.all([this.nodes.start(), this.pods.start()]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribe) u();
    for (const p of this.pending.values()) p.timer.clear();
    this.pending.clear();
    await Promise.all([...this.inflight]);
    await this.events.stop();
  }

  /** The evictions scheduled now, by namespace/name (for tests and diagnostics). */
  scheduled(): Map<string, ScheduledEviction> {
    return new Map([...this.pending].map(([k, p]) => [k, { createdAt: p.createdAt, fireAt: p.fireAt }]));
  }

  private nodeChanged(node: Node): void {
    const name = node.metadata.name!;
    const taints = noExecuteTaints(node.spec?.taints);
    if (taints.length) this.tainted.set(name, taints);
    else this.tainted.delete(name);
    const now = this.now();
    for (const pod of this.pods.lister.list()) {
      if (pod.spec?.nodeName !== name) continue;
      this.process(pod, taints, now);
    }
  }

  private podChanged(pod: Pod): void {
    const node = pod.spec?.nodeName;
    if (!node) return;
    const taints = this.tainted.get(node);
    if (!taints) return;
    this.process(pod, taints, this.now());
  }

  private process(pod: Pod, taints: Taint[], now: number): void {
    const ns = pod.metadata.namespace!;
    const name = pod.metadata.name!;
    const key = podKey(ns, name);
    const d = evictionDecision(taints, pod.spec?.tolerations, now, this.pending.get(key));
    if (d.action === 'keep') return;
    this.cancel(ns, name, d.action === 'cancel');
    if (d.action === 'cancel') return;
    // A toleration of 25 days or more is past what one setTimeout keeps.
    const timer = setLongTimeout(() => this.fire(ns, name), d.fireAt - this.now());
    this.pending.set(key, { createdAt: d.createdAt, fireAt: d.fireAt, timer });
  }

  private cancel(namespace: string, name: string, withEvent = true): void {
    const key = podKey(namespace, name);
    const p = this.pending.get(key);
    if (!p) return;
    p.timer.clear();
    this.pending.delete(key);
    const pod = this.pods.lister.get(namespace, name);
    if (withEvent && pod) this.events.record(pod, 'Normal', 'TaintManagerEviction', '', `Cancelling deletion of Pod ${key}`);
  }

  private fire(namespace: string, name: string): void {
    this.pending.delete(podKey(namespace, name));
    if (this.stopped) return;
    const pod = this.pods.lister.get(namespace, name);
    if (pod) this.events.record(pod, 'Normal', 'TaintManagerEviction', '', `Marking for deletion Pod ${podKey(namespace, name)}`);
    const work = this.evict(namespace, name)
      .catch((e: unknown) => this.opts.log?.(`taint eviction of pod ${namespace}/${name}: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => this.inflight.delete(work));
    this.inflight.add(work);
  }

  /** addConditionAndDeletePod, retried as upstream's deletePodHandler (5 tries). */
  private async evict(namespace: string, name: string): Promise<void> {
    let last: unknown;
    for (let i = 0; i < 5 && !this.stopped; i++) {
      try {
        await this.conditionAndDelete(namespace, name);
        return;
      } catch (e) {
        if (isStatus(e, 404)) return;
        last = e;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    if (last) throw last;
  }

  private async conditionAndDelete(namespace: string, name: string): Promise<void> {
    const pod = await this.client.get<Pod>(podsRef, namespace, name);
    const conditions = pod.status?.conditions ?? [];
    const old = conditions.find((c) => c.type === 'DisruptionTarget');
    const want: PodCondition = { type: 'DisruptionTarget', status: 'True', reason: reasonDeletionByTaintManager, message: messageDeletionByTaintManager };
    if (!old || old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
      const stamp = metaTime(this.now());
      const next = { ...want, lastProbeTime: null, lastTransitionTime: old && old.status === want.status ? old.lastTransitionTime : stamp };
      const list = old ? conditions.map((c) => (c === old ? next : c)) : [...conditions, next];
      await this.client.update<Pod>(podsRef, namespace, { ...pod, status: { ...pod.status, conditions: list } }, { subresource: 'status' });
    }
    await this.client.delete(podsRef, namespace, name);
  }
}
