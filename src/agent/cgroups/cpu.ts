// CPU time of a cgroup as cAdvisor reads it for the kubelet (runc libcontainer/cgroups fs
// cpuacct.go and fs2 cpu.go): v1 cpuacct.usage, nanoseconds of the cgroup and its descendants;
// v2 cpu.stat usage_usec, microseconds, hierarchical too (present in every cgroup, the root
// included, without the cpu controller). Pure parsers; the managers read the files.

/** v1 cpuacct.usage: a decimal count of nanoseconds. */
export function parseCpuacctUsage(text: string, path: string): bigint {
  const t = text.trim();
  if (!/^\d+$/.test(t)) throw new Error(`${path}: not a nanosecond count: ${JSON.stringify(t.slice(0, 40))}`);
  return BigInt(t);
}

/** v2 cpu.stat's usage_usec, as nanoseconds. */
export function parseCPUStatUsage(text: string, path: string): bigint {
  const m = /^usage_usec (\d+)$/m.exec(text);
  if (!m) throw new Error(`${path}: no usage_usec line`);
  return BigInt(m[1]!) * 1000n;
}

/**
 * The root cgroup of a v2 host has no memory.current: usage is MemTotal − MemFree of
 * /proc/meminfo, as runc's fs2 rootStatsFromMeminfo gives cAdvisor for the node.
 */
export function rootUsageFromMeminfo(text: string): bigint {
  const kb = (key: string): bigint => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(text);
    if (!m) throw new Error(`/proc/meminfo: no ${key}`);
    return BigInt(m[1]!) * 1024n;
  };
  return kb('MemTotal') - kb('MemFree');
}
