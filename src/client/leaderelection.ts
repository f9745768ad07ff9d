// Lease-based leader election (client-go tools/leaderelection with resourcelock.LeaseLock), so
// that of several API servers on one store one runs the controllers (Lease
// kube-system/kube-controller-manager) and one the scheduler (kube-system/kube-scheduler).
// A candidate retries every retryPeriod (with client-go's jitter) until it holds the Lease; the
// leader renews every retryPeriod and gives up leadership when it could not renew for
// renewDeadline. A Lease is held while its holder is non-empty and leaseDurationSeconds have not
// passed since this candidate saw the record change (client-go's observedTime: clocks are not
// compared). One deviation: a record seen for the first time counts from its renewTime when
// that is earlier, so a server restarted after a crash takes over a Lease that has already
// expired at once instead of waiting a full duration. On stop the leader releases the Lease
// (ReleaseOnCancel: holder emptied, duration 1 s), so a clean restart is not delayed either.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Lease } from '../api/types.js';
import { isStatus } from './errors.js';
import type { KubeClient } from './interface.js';
import { leasesRef } from './resources.js';
import { microTime } from '../api/metatime.js';

export interface LeaderElectionTimings {
  /** --leader-elect-lease-duration (15 s). */
  leaseDurationMs: number;
  /** --leader-elect-renew-deadline (10 s). */
  renewDeadlineMs: number;
  /** --leader-elect-retry-period (2 s). */
  retryPeriodMs: number;
}

export const defaultLeaderElectionTimings: LeaderElectionTimings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** client-go's JitterFactor for the acquire loop. */
const jitterFactor = 1.2;

/** The identity kube-controller-manager and kube-scheduler use: hostname_uuid. */
export function leaderIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/** What a candidate remembers of the record it last saw (observedRecord, observedTime). */
export interface Observed {
  record: string;
  holder: string;
  durationMs: number;
  at: number;
}

function parseTime(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const ms = Date.parse(s.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(ms) ? undefined : ms;
}

/** The record's identity for change detection (LeaderElectionRecord equality). */
function recordOf(lease: Lease): string {
  const s = lease.spec ?? {};
  return JSON.stringify([s.holderIdentity ?? '', s.leaseDurationSeconds ?? 0, s.acquireTime ?? '', s.renewTime ?? '', s.leaseTransitions ?? 0]);
}

/** The observation after reading `lease` at `now`. */
export function observe(prev: Observed | undefined, lease: Lease, now: number): Observed {
  const record = recordOf(lease);
  if (prev && prev.record === record) return prev;
  const renew = parseTime(lease.spec?.renewTime);
  const at = !prev && renew !== undefined && renew < now ? renew : now;
  return { record, holder: lease.spec?.holderIdentity ?? '', durationMs: (lease.spec?.leaseDurationSeconds ?? 0) * 1000, at };
}

/**
 * tryAcquireOrRenew's decision on the Lease as read: the spec to write, or why not (the Lease
 * is held by another candidate and has not expired).
 */
export function nextLeaseSpec(lease: Lease, observed: Observed, identity: string, now: number, leaseDurationMs: number): { spec: NonNullable<Lease['spec']> } | { heldBy: string } {
  const old = lease.spec ?? {};
  const leader = observed.holder === identity;
  if (observed.holder !== '' && observed.at + observed.durationMs > now && !leader) return { heldBy: observed.holder };
  return {
    spec: {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(leaseDurationMs / 1000),
      acquireTime: leader ? old.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: leader ? old.leaseTransitions ?? 0 : (old.leaseTransitions ?? 0) + 1,
    },
  };
}

export interface LeaderElectorOptions {
  client: KubeClient;
  namespace?: string;
  name: string;
  identity: string;
  timings?: Partial<LeaderElectionTimings>;
  onStartedLeading: () => Promise<void> | void;
  onStoppedLeading: () => Promise<void> | void;
  /** The clock in ms (default: Date.now). */
  now?: () => number;
  log?: (msg: string) => void;
}

export class LeaderElector {
  private readonly timings: LeaderElectionTimings;
  private readonly now: () => number;
  private observed?: Observed;
  private lease?: Lease;
  private leading = false;
  private lastRenew = 0;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private step?: Promise<void>;
  private transition: Promise<void> = Promise.resolve();

  constructor(private readonly opts: LeaderElectorOptions) {
    this.timings = { ...defaultLeaderElectionTimings, ...opts.timings };
    this.now = opts.now ?? Date.now;
  }

  get namespace(): string {
    return this.opts.namespace ?? 'kube-system';
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Runs the election: resolves after the first attempt (and, when it won, after
   * onStartedLeading), so a lone server starts its controllers before it serves.
   */
  async run(): Promise<void> {
    await this.tick();
    await this.transition;
  }

  /** Stops campaigning; a leader stops leading and releases the Lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.step;
    await this.transition;
    if (!this.leading) return;
    this.leading = false;
    await this.opts.onStoppedLeading();
    await this.release().catch((e: unknown) => this.opts.log?.(`failed to release lease ${this.namespace}/${this.opts.name}: ${e instanceof Error ? e.message : String(e)}`));
  }

  private schedule(): void {
    if (this.stopped) return;
    const base = this.timings.retryPeriodMs;
    const delay = this.leading ? base : base * (1 + Math.random() * jitterFactor);
    this.timer = setTimeout(() => void this.tick(), delay);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    this.step = this.attempt();
    await this.step;
    this.step = undefined;
    this.schedule();
  }

  private async attempt(): Promise<void> {
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
    } catch (e) {
      this.opts.log?.(`error retrieving resource lock ${this.namespace}/${this.opts.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const now = this.now();
    if (ok) {
      this.lastRenew = now;
      if (!this.leading && !this.stopped) {
        this.leading = true;
        this.opts.log?.(`successfully acquired lease ${this.namespace}/${this.opts.name}`);
        this.transition = this.transition.then(() => this.opts.onStartedLeading());
      }
    } else if (this.leading && now - this.lastRenew > this.timings.renewDeadlineMs) {
      this.leading = false;
      this.opts.log?.(`failed to renew lease ${this.namespace}/${this.opts.name}: timed out waiting for the condition`);
      this.transition = this.transition.then(() => this.opts.onStoppedLeading());
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const c = this.opts.client;
    const now = this.now();
    let lease: Lease;
    try {
      lease = await c.get<Lease>(leasesRef, this.namespace, this.opts.name);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
      const created = await c.create<Lease>(leasesRef, this.namespace, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.opts.name, namespace: this.namespace },
        spec: { holderIdentity: this.opts.identity, leaseDurationSeconds: Math.ceil(this.timings.leaseDurationMs / 1000), acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: 0 },
      });
      this.lease = created;
      this.observed = observe(undefined, created, now);
      this.observed = { ...this.observed, at: now };
      return true;
    }
    this.observed = observe(this.observed, lease, now);
    const next = nextLeaseSpec(lease, this.observed, this.opts.identity, now, this.timings.leaseDurationMs);
    if ('heldBy' in next) return false;
    try {
      this.lease = await c.update<Lease>(leasesRef, this.namespace, { ...lease, spec: next.spec });
    } catch (e) {
      if (isStatus(e, 409)) return false;
      throw e;
    }
    this.observed = { ...observe(undefined, this.lease, now), at: now };
    return true;
  }

  /** client-go's release: the holder emptied, so the next candidate need not wait. */
  private async release(): Promise<void> {
    const lease = await this.opts.client.get<Lease>(leasesRef, this.namespace, this.opts.name);
    if (lease.spec?.holderIdentity !== this.opts.identity) return;
    const now = this.now();
    await this.opts.client.update<Lease>(leasesRef, this.namespace, {
      ...lease,
      spec: { holderIdentity: undefined, leaseDurationSeconds: 1, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: lease.spec?.leaseTransitions ?? 0 },
    });
  }
}
