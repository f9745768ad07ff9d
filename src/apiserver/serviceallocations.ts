// Cluster IP and node port claims of Services, kept in the store next to them, as upstream's
// MultiCIDRServiceAllocator keeps one IPAddress object per allocated IP: a claim is a key
// (/registry/ranges/serviceips/<ip>, /registry/ranges/servicenodeports/<port>) written in the
// same transaction as the Service that takes the value, guarded by its revision (absent, or the
// revision a stale claim was read at). Two creates can never commit the same value, on one server
// or several on one store, and a restart finds every claim where it was. A claim counts only while
// the Service it names (namespace, name, uid) still holds the value: deleting a Service, or an
// update that drops a port, releases its values with no further write (the next claimant
// replaces the stale key), whatever path removed it (DELETE, namespace deletion, finalizers);
// releaseStaleClaims deletes such keys at start and every 3 minutes.

import type { Service } from '../api/servicetypes.js';
import { ipAt, ipIndex, parseIPv4, portInRange, scanOrder, type NodePortRange, type ServiceIPRange } from '../api/servicerange.js';
import type { KeyValue } from '../storage/store.js';
import type { Api, CreateBatch, GuardedWrite } from './rest.js';
import { storageKey } from './resources.js';

export const serviceIPClaimPrefix = '/registry/ranges/serviceips/';
export const nodePortClaimPrefix = '/registry/ranges/servicenodeports/';

interface Owner {
  namespace: string;
  name: string;
  uid: string;
}

/** Every value a Service holds: its cluster IPs, node ports and health check node port. */
export function heldIPs(svc: Service | undefined): string[] {
  return (svc?.spec?.clusterIPs ?? []).filter((ip) => ip && ip !== 'None');
}

export function heldPorts(svc: Service | undefined): number[] {
  const ports = (svc?.spec?.ports ?? []).map((p) => p?.nodePort ?? 0);
  if (svc?.spec?.healthCheckNodePort) ports.push(svc.spec.healthCheckNodePort);
  return [...new Set(ports.filter((p) => p > 0))];
}

/** Whether the claim stored at `kv` still counts: its Service exists, is the same one, and holds the value. */
async function claimLive(api: Api, kv: KeyValue, holds: (svc: Service) => boolean): Promise<boolean> {
  let owner: Owner;
  try {
    owner = (JSON.parse(kv.value) as { metadata: Owner }).metadata;
  } catch {
    return false;
  }
  const stored = await api.store.get(storageKey(api.def('services'), owner.namespace, owner.name));
  if (!stored) return false;
  const svc = JSON.parse(stored.value) as Service;
  return svc.metadata?.uid === owner.uid && holds(svc);
}

/**
 * The repair controllers' sweep (upstream's repairip and portallocator repair, every 3 minutes):
 * claims whose Service is gone, replaced or no longer holds the value are deleted, each guarded by
 * the revision it was read at (a claim taken over meanwhile stays). Allocation never needs this:
 * it replaces a stale claim itself; the sweep keeps the store from collecting them.
 */
export async function releaseStaleClaims(api: Api): Promise<number> {
  const sameIP = (a: string, b: string) => (parseIPv4(a) ?? a) === (parseIPv4(b) ?? b);
  const kinds: [string, (svc: Service, value: string) => boolean][] = [
    [serviceIPClaimPrefix, (svc, ip) => heldIPs(svc).some((x) => sameIP(x, ip))],
    [nodePortClaimPrefix, (svc, port) => heldPorts(svc).includes(Number(port))],
  ];
  let released = 0;
  for (const [prefix, holds] of kinds) {
    for (const kv of (await api.store.list(prefix)).items) {
      const value = kv.key.slice(prefix.length);
      if (await claimLive(api, kv, (svc) => holds(svc, value))) continue;
      if ((await api.store.txn([{ key: kv.key, modRevision: kv.modRevision }], [{ op: 'delete', key: kv.key }])).succeeded) released++;
    }
  }
  return released;
}

/** The claims one create or update makes, collected for its transaction (or its batch). */
export class ServiceClaims {
  readonly writes: GuardedWrite[] = [];
  private readonly listed = new Map<string, Map<string, KeyValue>>();

  constructor(
    private readonly api: Api,
    private readonly owner: Owner,
    private readonly batch?: CreateBatch,
    private readonly random: () => number = Math.random,
  ) {}

  private value(): string {
    return JSON.stringify({ apiVersion: 'v1', kind: 'ServiceClaim', metadata: { ...this.owner } });
  }

  private taken(key: string): boolean {
    return this.writes.some((w) => w.key === key) || !!this.batch?.pending.has(key);
  }

  private live(kv: KeyValue, holds: (svc: Service) => boolean): Promise<boolean> {
    return claimLive(this.api, kv, holds);
  }

  private record(key: string, modRevision: number): void {
    const value = this.value();
    if (this.batch) this.batch.pending.set(key, { modRevision, obj: JSON.parse(value) });
    else this.writes.push({ key, modRevision, value });
  }

  /** Claims `key` if it is free: true when claimed, false when another Service holds it. */
  private async claim(key: string, holds: (svc: Service) => boolean): Promise<boolean> {
    if (this.taken(key)) return false;
    const kv = await this.api.store.get(key);
    if (kv && (await this.live(kv, holds))) return false;
    this.record(key, kv?.modRevision ?? 0);
    return true;
  }

  private async claimsUnder(prefix: string): Promise<Map<string, KeyValue>> {
    let m = this.listed.get(prefix);
    if (!m) {
      m = new Map((await this.api.store.list(prefix)).items.map((kv) => [kv.key, kv]));
      this.listed.set(prefix, m);
    }
    return m;
  }

  /** A free value of a range: unclaimed ones first, in the allocators' scan order, then stale claims. */
  private async next(prefix: string, size: number, offset: number, keyAt: (i: number) => string, holds: (i: number) => (svc: Service) => boolean): Promise<number | undefined> {
    const claims = await this.claimsUnder(prefix);
    for (const i of scanOrder(size, offset, this.random)) {
      const key = keyAt(i);
      if (claims.has(key) || this.taken(key)) continue;
      this.record(key, 0);
      return i;
    }
    for (const i of scanOrder(size, offset, this.random)) {
      const kv = claims.get(keyAt(i));
      if (!kv || this.taken(kv.key) || (await this.live(kv, holds(i)))) continue;
      this.record(kv.key, kv.modRevision);
      return i;
    }
    return undefined;
  }

  /** Allocate(ip): 'ok', or why not. */
  async claimIP(range: ServiceIPRange, ip: string): Promise<'ok' | 'allocated' | 'not-in-range'> {
    if (ipIndex(range, ip) === undefined) return 'not-in-range';
    const canonical = ipAt(range, ipIndex(range, ip)!);
    return (await this.claim(serviceIPClaimPrefix + canonical, (svc) => heldIPs(svc).some((x) => ipIndex(range, x) === ipIndex(range, ip)))) ? 'ok' : 'allocated';
  }

  /** AllocateNext for an IP: the address, or undefined when the range is full. */
  async nextIP(range: ServiceIPRange): Promise<string | undefined> {
    const i = await this.next(serviceIPClaimPrefix, range.size, range.offset, (i) => serviceIPClaimPrefix + ipAt(range, i), (i) => (svc) => heldIPs(svc).some((x) => ipIndex(range, x) === i));
    return i === undefined ? undefined : ipAt(range, i);
  }

  /** Allocate(port) for a node port: 'ok', or why not. */
  async claimPort(range: NodePortRange, port: number): Promise<'ok' | 'allocated' | 'not-in-range'> {
    if (!portInRange(range, port)) return 'not-in-range';
    return (await this.claim(nodePortClaimPrefix + port, (svc) => heldPorts(svc).includes(port))) ? 'ok' : 'allocated';
  }

  /** AllocateNext for a node port: the port, or undefined when the range is full. */
  async nextPort(range: NodePortRange): Promise<number | undefined> {
    const i = await this.next(nodePortClaimPrefix, range.size, range.offset, (i) => nodePortClaimPrefix + (range.base + i), (i) => (svc) => heldPorts(svc).includes(range.base + i));
    return i === undefined ? undefined : range.base + i;
  }
}
