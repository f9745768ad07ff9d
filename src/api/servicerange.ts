// The service cluster IP range and node port range, as kube-apiserver's allocators see them
// (pkg/registry/core/service/ipallocator bitmap.go and portallocator allocator.go): which
// addresses and ports a range holds, the lower band kept for static requests
// (calculateRangeOffset, KEP-3070/3668: dynamic allocation takes the upper band first), and
// the allocators' error texts. Pure; the API server claims values in the store
// (apiserver/serviceallocations.ts). IPv4 only: Bulkhead serves single-stack IPv4 clusters.

export interface ServiceIPRange {
  /** The CIDR as given, normalized (`10.96.0.0/12`): the ValidRange of ErrNotInRange. */
  cidr: string;
  /** The network address as an unsigned 32-bit number. */
  network: number;
  /** Usable addresses: the network and broadcast addresses are never handed out. */
  size: number;
  /** Addresses below this offset are allocated dynamically only once the upper band is full. */
  offset: number;
}

export interface NodePortRange {
  base: number;
  size: number;
  offset: number;
}

export const defaultServiceClusterIPRange = '10.96.0.0/12';
export const defaultServiceNodePortRange = '30000-32767';

/** The allocators' errors (ipallocator.ErrAllocated/ErrFull/ErrNotInRange, portallocator's). */
export const ipAllocatedMessage = 'provided IP is already allocated';
export const portAllocatedMessage = 'provided port is already allocated';
export const rangeFullMessage = 'range is full';
export const ipNotInRangeMessage = (ip: string, r: ServiceIPRange) => `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${r.cidr}`;
export const portNotInRangeMessage = (r: NodePortRange) => `provided port is not in the valid range. The range of valid ports is ${nodePortRangeString(r)}`;

/** net.ParseIPSloppy for IPv4 (leading zeros read as decimal); undefined for anything else. */
export function parseIPv4(s: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const o = Number(m[i]);
    if (o > 255) return undefined;
    n = n * 256 + o;
  }
  return n;
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** calculateRangeOffset: a sixteenth of the range, at least `min`, at most `max`; none for ranges under `min`. */
function rangeOffset(size: number, min: number, max: number, step: number): number {
  if (size < min) return 0;
  return Math.min(max, Math.max(min, Math.floor(size / step)));
}

/** --service-cluster-ip-range: an IPv4 CIDR of at least four addresses; throws a message naming what is wrong. */
export function parseServiceIPRange(spec: string): ServiceIPRange {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(spec.trim());
  const ip = m ? parseIPv4(m[1]!) : undefined;
  if (!m || ip === undefined) throw new Error(`${JSON.stringify(spec)} is not an IPv4 CIDR (e.g. ${defaultServiceClusterIPRange}); Bulkhead serves single-stack IPv4 services`);
  const prefix = Number(m[2]);
  if (prefix > 30) throw new Error(`${JSON.stringify(spec)} holds no usable service IP: the prefix must be at most /30`);
  if (prefix < 8) throw new Error(`${JSON.stringify(spec)} is too large: the prefix must be at least /8`);
  const total = 2 ** (32 - prefix);
  const network = Math.floor(ip / total) * total;
  return { cidr: `${formatIPv4(network)}/${prefix}`, network, size: total - 2, offset: rangeOffset(total, 16, 256, 16) };
}

/** --service-node-port-range: `30000-32767`, or `30000+2767` (base and size, as net.ParsePortRange reads it). */
export function parseNodePortRange(spec: string): NodePortRange {
  const m = /^\s*(\d+)\s*([-+])\s*(\d+)\s*$/.exec(spec) ?? /^\s*(\d+)\s*$/.exec(spec);
  if (!m) throw new Error(`${JSON.stringify(spec)} is not a port range (e.g. ${defaultServiceNodePortRange})`);
  const base = Number(m[1]);
  const size = m[2] === '+' ? Number(m[3]) + 1 : m[2] === '-' ? Number(m[3]) - base + 1 : 1;
  if (base < 1 || base + size - 1 > 65535 || size < 1) throw new Error(`${JSON.stringify(spec)} is not a port range within 1-65535`);
  return { base, size, offset: rangeOffset(size, 16, 128, 32) };
}

export function nodePortRangeString(r: NodePortRange): string {
  return `${r.base}-${r.base + r.size - 1}`;
}

/** The IP at index `i` of the range (index 0 is the first usable address). */
export function ipAt(r: ServiceIPRange, i: number): string {
  return formatIPv4(r.network + 1 + i);
}

/** The index of `ip` in the range, or undefined when it is outside (network and broadcast included). */
export function ipIndex(r: ServiceIPRange, ip: string): number | undefined {
  const n = parseIPv4(ip);
  if (n === undefined) return undefined;
  const i = n - r.network - 1;
  return i >= 0 && i < r.size ? i : undefined;
}

/** The kubernetes Service's address: the first of the range (GetIndexedIP(range, 1)). */
export function kubernetesServiceIP(r: ServiceIPRange): string {
  return ipAt(r, 0);
}

export function portInRange(r: NodePortRange, port: number): boolean {
  return port >= r.base && port < r.base + r.size;
}

/**
 * The order in which a dynamic allocation tries indexes of a range of `size` with a lower band
 * of `offset`: from a random start in the upper band to its end and round, then the lower band
 * the same way (randomScanStrategyWithOffset). `random` is in [0, 1).
 */
export function* scanOrder(size: number, offset: number, random: () => number): Generator<number> {
  const bands: [number, number][] = offset > 0 && offset < size ? [[offset, size], [0, offset]] : [[0, size]];
  for (const [lo, hi] of bands) {
    const n = hi - lo;
    const start = Math.floor(random() * n);
    for (let k = 0; k < n; k++) yield lo + ((start + k) % n);
  }
}

/** Whether `s` is an IPv6 address as net.ParseIP reads one (hex groups, one `::`, an IPv4 tail). */
export function isIPv6Address(s: string): boolean {
  if (!s.includes(':')) return false;
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = (part: string): number | undefined => {
    if (part === '') return 0;
    const gs = part.split(':');
    let n = 0;
    for (const [i, g] of gs.entries()) {
      if (i === gs.length - 1 && g.includes('.')) {
        if (parseIPv4(g) === undefined) return undefined;
        n += 2;
      } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) n += 1;
      else return undefined;
    }
    return n;
  };
  const counts = halves.map(groups);
  if (counts.some((c) => c === undefined)) return false;
  const total = counts.reduce((a, b) => a! + b!, 0)!;
  if (halves.length === 1) return total === 8;
  // An IPv4 tail may only end the address.
  if (halves[0]!.includes('.')) return false;
  return total <= 7;
}
