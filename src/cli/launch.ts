#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1 node --max-semi-space-size=8
// The `bulkhead` command as installed (dist/bin/main.js, scripts/bundle.mjs): runs the linked
// CLI, dist/bin/bulkhead.cjs, with its V8 code cache (compilecache.ts) in dist/bin/compile-cache,
// and writes the cache once the command has done what it does before it waits (`plan` its
// output; `server` and `up` their start, at the banner) when the one it was loaded with was
// missing or not taken.

import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runCached } from './compilecache.js';
import { applyStartupHeapSettings } from './nodeflags.js';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
// Before the script is compiled: V8 takes a cache only under the flags it was made with, and
// `server`, `up` and `plan` change one when they start.
applyStartupHeapSettings(argv);
const bundle = join(here, 'bulkhead.cjs');
// A cache per command and way of running it: the functions a run compiles are those it runs
// (help compiles none of plan's engine; --usage adds its own).
const cacheName = [argv[0] ?? 'help', argv.some((a) => a === '--help' || a === '-h') && 'help', argv.some((a) => /^--usage(=|$)/.test(a)) && 'usage'].filter(Boolean).join('-');
const loaded = runCached(bundle, join(here, 'compile-cache'), cacheName);
const module = { exports: {} as { done?: Promise<boolean> } };
(loaded.value as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void)(module.exports, createRequire(bundle), module, bundle, here);
// Only after a command that ran through (main.ts): one that stopped early ran little of its code.
void module.exports.done?.then((ranThrough) => ranThrough && loaded.save());
