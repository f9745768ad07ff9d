// V8 and glibc settings the `bulkhead` process runs with. Every API request allocates many
// short-lived objects (decoded bodies, defaulted copies, field sets); the young generation's
// two semi-spaces are committed memory, though: at 32 MiB each, bench:api measured ~3% less
// CPU per create than at 16 MiB (V8's default here), for 32 MB more RSS. ./bulkhead and the
// shebang of main.js pass the same flags and environment; keep the three in step.
export const nodeFlags = ['--max-semi-space-size=16'];

/**
 * glibc's malloc reads its tunables once, at process start, so they are set in the environment
 * rather than by the program. By default the mmap threshold rises after the first large block
 * is freed, and later large blocks (a LIST's TLS buffers: megabytes) come from the brk heap,
 * which a free does not shrink past a block still in use: 60 MB of brk heap after bench:api's
 * LISTs, 25 MB with a fixed 128 KiB threshold and trim threshold. Two arenas serve libuv's and
 * V8's worker threads (up to 8 per core otherwise, each holding its own free memory).
 */
export const nodeEnv = { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2' };
