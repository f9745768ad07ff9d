// Waiting for a cluster to get somewhere: `check` is asked again every `intervalMs` until it
// gives a value (not undefined). A check that throws is asked again too; past `timeoutMs` the
// wait fails with the last error and what `context` says about the cluster (its logs). The
// deadline only bounds a broken run: nothing is asserted about how long the wait took.

export async function pollUntil<T>(what: string, check: () => Promise<T | undefined>, opts: { timeoutMs: number; intervalMs: number; context: () => string }): Promise<T> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > opts.timeoutMs) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}\n${opts.context()}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
}
