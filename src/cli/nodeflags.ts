// V8 and glibc settings the `bulkhead` process runs with. Every API request allocates many
// short-lived objects (decoded bodies, defaulted copies, field sets), but the young generation's
// two semi-spaces are committed memory once grown: 8 MiB each (V8's default here is 16). With
// the in-process informers sharing the watch cache's objects and LIST bodies written as UTF-8
// pieces, bench:api on a quiet machine, three alternating runs each: RSS with 5,100 pods 147-149
// MB at 16 MiB, 125-129 at 8; creates 1,009-1,282/s vs 1,232-1,319; LIST median 79-89 ms vs
// 64-92. `plan` measured the same at both sizes. ./bulkhead and the shebang of main.js (launch.ts)
// pass the same flags and environment; keep the three in step.
import { setFlagsFromString } from 'node:v8';

export const nodeFlags = ['--max-semi-space-size=8'];

/**
 * The API server's old generation grows by this percentage over what a full GC left, instead of
 * V8's own factor (up to 4x on a heap that collects fast): right after a burst of creates V8's
 * choice kept 25-35 MiB of garbage above ~50 MiB live, a fifth of the server's RSS. bench:api,
 * four alternating runs each: RSS with 5,100 pods 165-172 MB with V8's factor, 141-147 MB at 30%,
 * for ~5% fewer creates/s. V8 reads the flag at each full GC, so the server sets it when it
 * starts (and `plan` its own, planHeapGrowingPercent).
 */
export const serverHeapGrowingPercent = 30;

/** Sets the server's heap growing factor (serverHeapGrowingPercent) in this process. */
export function applyServerHeapSettings(): void {
  setFlagsFromString(`--heap-growing-percent=${serverHeapGrowingPercent}`);
}

/**
 * `plan`'s old generation, likewise: a plan holds about 11 MiB live however many pods stream
 * through it, but V8's own factor let the heap reach 60 MiB of garbage between full GCs on a
 * long List, so the peak RSS grew with the number of pods (10,000 / 100,000 / 200,000 pods:
 * 116 / 139-156 / 159 MiB; at 30%: 116 / 122-126 / 130). Full GCs of an 11 MiB heap are cheap:
 * 5 of them in a 100,000-pod plan with V8's factor, 6 at 30%. Not with --usage, which keeps
 * every admitted pod: there 30% took 7 full GCs of a heap growing to 170 MiB (1.2 s) against 3
 * (0.4 s) at 100,000 pods, for 300 MiB of RSS against 310-317.
 */
export const planHeapGrowingPercent = 30;

/** Sets plan's heap growing factor (planHeapGrowingPercent) in this process. */
export function applyPlanHeapSettings(): void {
  setFlagsFromString(`--heap-growing-percent=${planHeapGrowingPercent}`);
}

/**
 * The heap setting the command in `argv` makes when it starts (`server` and `up`
 * applyServerHeapSettings, `plan` without --usage applyPlanHeapSettings), made before the CLI's
 * script is compiled (launch.ts): V8 refuses a code cache made under other flags, and the cache
 * is written after the command changed them. A guess wrong here (an abbreviated option) costs
 * only a cache that is made again.
 */
export function applyStartupHeapSettings(argv: readonly string[]): void {
  if (argv[0] === 'server' || argv[0] === 'up') applyServerHeapSettings();
  else if (argv[0] === 'plan' && !argv.some((a) => /^--usage(=|$)/.test(a))) applyPlanHeapSettings();
}

/**
 * glibc's malloc reads its tunables once, at process start, so they are set in the environment
 * rather than by the program. By default the mmap threshold rises after the first large block
 * is freed, and later large blocks (a LIST's TLS buffers: megabytes) come from the brk heap,
 * which a free does not shrink past a block still in use: 60 MB of brk heap after bench:api's
 * LISTs, 25 MB with a fixed 128 KiB threshold and trim threshold. Two arenas serve libuv's and
 * V8's worker threads (up to 8 per core otherwise, each holding its own free memory). malloc's
 * memory is asked for transparent huge pages (madvise; where the kernel's THP mode is `never`
 * nothing changes): a start fills some MB of the brk heap, one page fault per 4 KiB page
 * otherwise, and a fault costs ~20 µs of CPU in a VM (4 MiB of a started server's heap are then
 * huge pages, its RSS the same). A restart's first
 * 200 on /readyz, 8 alternating runs each: 6,050 → 5,479 page faults, CPU 290 → 270 ms (median).
 */
export const nodeEnv = { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1' };
