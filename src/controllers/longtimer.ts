// setTimeout for any delay: Node keeps at most 2^31-1 ms (about 24.8 days) and fires a longer
// timer after 1 ms, so a Job's TTL or a toleration of 30 days would act at once. A longer delay
// is waited out in steps of at most that much.

/** The longest delay setTimeout keeps (a signed 32-bit count of milliseconds). */
export const maxTimerMs = 2 ** 31 - 1;

export interface LongTimer {
  clear(): void;
}

/** Calls `fn` after `ms` (unref'd: a pending timer does not keep the process alive). */
export function setLongTimeout(fn: () => void, ms: number): LongTimer {
  let timer: NodeJS.Timeout;
  const arm = (left: number) => {
    timer = left > maxTimerMs ? setTimeout(() => arm(left - maxTimerMs), maxTimerMs) : setTimeout(fn, Math.max(0, left));
    timer.unref();
  };
  arm(ms);
  return { clear: () => clearTimeout(timer) };
}
