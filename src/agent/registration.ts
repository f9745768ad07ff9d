// Node registration and heartbeats over the API: create the Node (or take over the existing
// one), write its status every period, and renew its Lease in kube-node-lease, as the kubelet
// does. Failures are retried on the next beat; nothing here throws after start(). It writes
// through the one client (src/client), with the node's own identity (system:node:<name>), and
// records the kubelet's events about its Node (nodeevents.ts) once each status write is through.

import type { Lease, Node, NodeCondition } from '../api/types.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { leasesRef, nodesRef } from '../client/resources.js';
import { buildNode, type NodeFacts, type NodeHealth } from './nodeobject.js';
import { stableJSON } from '../api/stablejson.js';
import { metaTime, microTime } from '../api/metatime.js';
import type { EventRecorder } from '../client/recorder.js';
import { conditionEvents, nodeRef, nodeStatusMessage, schedulableEvent, startingKubeletMessage } from './nodeevents.js';

export const leaseNamespace = 'kube-node-lease';
export const leaseDurationSeconds = 40;

export interface RegistrationOptions {
  client: KubeClient;
  facts: NodeFacts;
  /** The node's health at each beat (pressure conditions come from the eviction manager). */
  health: () => NodeHealth;
  periodMs?: number;
  now?: () => Date;
  log?: (msg: string) => void;
  /** Where the kubelet's Node events go (none recorded when absent). */
  events?: Pick<EventRecorder, 'record'>;
}

export class NodeRegistration {
  private timer?: NodeJS.Timeout;
  private node?: Node;
  private stopped = false;
  /** The kubelet's lastNodeUnschedulable: what spec.unschedulable was when last looked at. */
  private lastUnschedulable = false;

  constructor(private readonly opts: RegistrationOptions) {}

  private get now(): Date {
    return (this.opts.now ?? (() => new Date()))();
  }

  /** Registers the node and renews its lease once; then keeps beating until stop(). */
  async start(): Promise<Node> {
    this.opts.events?.record(nodeRef(this.opts.facts.name), 'Normal', 'Starting', '', startingKubeletMessage);
    await this.beat();
    this.timer = setInterval(() => {
      void this.beat().catch((e: unknown) => this.opts.log?.(`node heartbeat failed: ${e instanceof Error ? e.message : String(e)}`));
    }, this.opts.periodMs ?? 10_000);
    this.timer.unref();
    return this.node!;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  async beat(): Promise<void> {
    if (this.stopped) return;
    await this.syncNode();
    await this.renewLease();
  }

  private async syncNode(): Promise<void> {
    const c = this.opts.client;
    const name = this.opts.facts.name;
    let current: Node | undefined;
    try {
      current = await c.get<Node>(nodesRef, undefined, name);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
    const desired = buildNode(this.opts.facts, this.opts.health(), current, metaTime(this.now));
    // A Node created here had no conditions before (the setters ran on the initial node, upstream).
    let previousConditions = current?.status?.conditions;
    if (!current) {
      try {
        current = await c.create<Node>(nodesRef, undefined, { ...desired, metadata: { ...desired.metadata, resourceVersion: undefined } });
      } catch (e) {
        if (!isStatus(e, 409)) throw e;
        current = await c.get<Node>(nodesRef, undefined, name);
        previousConditions = current.status?.conditions;
      }
    }
    // Labels and annotations go through the main resource, the rest through status. The spec is
    // not the agent's after registration (its taints are the server's, the rest an admin's).
    const metaChanged =
      stableJSON(current.metadata.labels) !== stableJSON(desired.metadata.labels) ||
      stableJSON(current.metadata.annotations) !== stableJSON(desired.metadata.annotations);
    if (metaChanged) {
      current = await c.update<Node>(nodesRef, undefined, { ...desired, metadata: { ...desired.metadata, resourceVersion: current.metadata.resourceVersion }, spec: current.spec, status: current.status });
    }
    this.node = await c.update<Node>(nodesRef, undefined, { ...current, status: desired.status }, { subresource: 'status' });
    this.recordStatusEvents(previousConditions, current, desired);
  }

  /** The setters' events for what this write moved: conditions, then schedulability. */
  private recordStatusEvents(previousConditions: readonly NodeCondition[] | undefined, current: Node, desired: Node): void {
    const events = this.opts.events;
    if (!events) return;
    const name = this.opts.facts.name;
    const reasons = conditionEvents(previousConditions, desired.status?.conditions ?? []);
    const unschedulable = current.spec?.unschedulable === true;
    const schedulable = schedulableEvent(this.lastUnschedulable, unschedulable);
    this.lastUnschedulable = unschedulable;
    if (schedulable) reasons.push(schedulable);
    for (const reason of reasons) events.record(nodeRef(name), 'Normal', reason, '', nodeStatusMessage(name, reason));
  }

  private async renewLease(): Promise<void> {
    const c = this.opts.client;
    const name = this.opts.facts.name;
    const spec = { holderIdentity: name, leaseDurationSeconds, renewTime: microTime(this.now) };
    try {
      const lease = await c.get<Lease>(leasesRef, leaseNamespace, name);
      await c.update<Lease>(leasesRef, leaseNamespace, { ...lease, spec: { ...lease.spec, ...spec } });
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
      await c.create<Lease>(leasesRef, leaseNamespace, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name },
        spec: { ...spec, acquireTime: microTime(this.now) },
      });
    }
  }
}
