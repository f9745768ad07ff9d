// kube-apiserver's health endpoints (k8s.io/apiserver/pkg/server/healthz): /healthz, /livez and
// /readyz run their checks and answer `ok`, or with `?verbose` one line a check and
// `<name> check passed`; a failed check makes the answer 500 with every check's line (the reason
// withheld: the endpoints are public) and `<name> check failed`; `?exclude=<check>` skips one.
// Each check is also served alone at /<endpoint>/<check> (authenticated; not public), where a
// failure shows its reason.

import type { Store } from '../storage/index.js';
import { currentDeadline, deadlineExceededMessage, earliest, withDeadline } from '../storage/deadline.js';
import { StoreUnavailableError } from '../storage/store.js';

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; rejects with the reason otherwise. */
  check(): Promise<void>;
}

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export type HealthChecks = Record<HealthEndpoint, readonly HealthCheck[]>;

export interface HealthAnswer {
  code: 200 | 500;
  body: string;
}

/** --etcd-healthcheck-timeout and --etcd-readycheck-timeout: 2 s each. */
export const storeCheckTimeoutMs = 2000;

function withTimeout(what: string, ms: number, p: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  // Not unref'd: it is cleared as soon as the check settles, and until then it is what ends it.
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} timed out after ${ms / 1000}s`)), ms);
  });
  // The store's call ends at the same instant with the context's error: the same timeout.
  const read = p.then(
    () => undefined,
    (e: unknown) => {
      throw e instanceof StoreUnavailableError && e.message === deadlineExceededMessage ? new Error(`${what} timed out after ${ms / 1000}s`) : e;
    },
  );
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

/** healthz.LogHealthz's period: the log is flushed once a minute, and blocked after two without a flush. */
export const logFlushPeriodMs = 60_000;
export const logBlockedAfterMs = 2 * logFlushPeriodMs;

export interface LogCheckClock {
  /** Flushes the log: resolves once what was written before has gone out (klog.Flush). */
  flush(): Promise<void>;
  now(): number;
  /** Runs `fn` once after `ms` (the next turn of wait.Forever). */
  after(fn: () => void, ms: number): void;
}

/** The process's own: stderr, where the server logs, flushed by a write that completes after the ones before it. */
const processLog: LogCheckClock = {
  flush: () => new Promise<void>((ok) => process.stderr.write('', () => ok())),
  now: () => Date.now(),
  after: (fn, ms) => void setTimeout(fn, ms).unref(),
};

/**
 * healthz.LogHealthz: `log` passes unless logging is blocked. The first check starts a loop that
 * flushes the log, notes the time, waits a minute and again; the check fails with `logging
 * blocked` once two minutes passed since the last flush finished (a flush that never returns,
 * as on a stderr nobody reads).
 */
export function logHealthCheck(clock: LogCheckClock = processLog): HealthCheck {
  let lastVerified: number | undefined;
  const loop = (): void => {
    void clock.flush().then(() => {
      lastVerified = clock.now();
      clock.after(loop, logFlushPeriodMs);
    });
  };
  return {
    name: 'log',
    check: async () => {
      if (lastVerified === undefined) {
        lastVerified = clock.now();
        loop();
      }
      if (clock.now() - lastVerified >= logBlockedAfterMs) throw new Error('logging blocked');
    },
  };
}

/** One per process, as upstream's package variable: the log it watches is the process's. */
let processLogCheck: HealthCheck | undefined;
const logHealthz = (): HealthCheck => (processLogCheck ??= logHealthCheck());

/**
 * A post-start hook's check (postStartHookHealthz), `poststarthook/<name>`: `not finished` until
 * the hook's work is done.
 */
export class PostStartHook implements HealthCheck {
  readonly name: string;
  private done = false;
  constructor(hook: string) {
    this.name = `poststarthook/${hook}`;
  }
  finished(): void {
    this.done = true;
  }
  async check(): Promise<void> {
    if (!this.done) throw new Error('not finished');
  }
}

/**
 * The checks kube-apiserver installs that Bulkhead has a counterpart of, in its order: `ping`
 * and `log` (the defaults), `etcd` (the store answers a read: etcd's current revision, or
 * SQLite's), then the post-start hooks, on all three; on /readyz also `etcd-readiness` (the same
 * read) and `informer-sync` (the server's caches list before it listens, so they have synced
 * once it answers) before the hooks, and `shutdown` (fails once the server stops) last.
 */
export function serverHealthChecks(
  store: Pick<Store, 'currentRevision'>,
  state: { readonly shuttingDown: boolean },
  timeoutMs = storeCheckTimeoutMs,
  extra: { log?: HealthCheck; postStartHooks?: readonly HealthCheck[] } = {},
): HealthChecks {
  const ping: HealthCheck = { name: 'ping', check: async () => undefined };
  const log = extra.log ?? logHealthz();
  const hooks = extra.postStartHooks ?? [];
  // The read carries the check's deadline too (kube's etcd check gives clientv3 a context with
  // the timeout), so the etcd call is cancelled with it, not left waiting on a silent member.
  const storeRead = (name: string): HealthCheck => ({
    name,
    check: () => withTimeout(`${name} check`, timeoutMs, withDeadline(earliest([currentDeadline(), { at: Date.now() + timeoutMs }]), () => store.currentRevision())),
  });
  const etcd = storeRead('etcd');
  return {
    healthz: [ping, log, etcd, ...hooks],
    livez: [ping, log, etcd, ...hooks],
    readyz: [
      ping,
      log,
      etcd,
      storeRead('etcd-readiness'),
      { name: 'informer-sync', check: async () => undefined },
      ...hooks,
      {
        name: 'shutdown',
        check: async () => {
          if (state.shuttingDown) throw new Error('process is shutting down');
        },
      },
    ],
  };
}

/** handleRootHealth: every check but the excluded ones, in order. */
export async function rootHealth(endpoint: HealthEndpoint, checks: readonly HealthCheck[], query: URLSearchParams): Promise<HealthAnswer> {
  const excluded = new Set(query.getAll('exclude'));
  const outcomes = await Promise.all(
    checks.map(async (c) => {
      if (excluded.delete(c.name)) return `[+]${c.name} excluded: ok\n`;
      try {
        await c.check();
        return `[+]${c.name} ok\n`;
      } catch {
        return `[-]${c.name} failed: reason withheld\n`;
      }
    }),
  );
  let lines = outcomes.join('');
  if (excluded.size > 0) lines += `warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((n) => JSON.stringify(n)).join(',')}\n`;
  // http.Error's body ends with a newline.
  if (outcomes.some((o) => o.startsWith('[-]'))) return { code: 500, body: `${lines}${endpoint} check failed\n` };
  if (!query.has('verbose')) return { code: 200, body: 'ok' };
  return { code: 200, body: `${lines}${endpoint} check passed\n` };
}

/** adaptCheckToHandler: one check, its reason shown. */
export async function singleHealth(check: HealthCheck): Promise<HealthAnswer> {
  try {
    await check.check();
    return { code: 200, body: 'ok' };
  } catch (e) {
    return { code: 500, body: `internal server error: ${e instanceof Error ? e.message : String(e)}\n` };
  }
}

/** `/readyz` → readyz; `/readyz/etcd` → readyz and etcd; anything else undefined. */
export function parseHealthPath(pathname: string): { endpoint: HealthEndpoint; check?: string } | undefined {
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(pathname);
  if (!m) return undefined;
  return { endpoint: m[1] as HealthEndpoint, ...(m[2] !== undefined ? { check: m[2] } : {}) };
}
