// A V8 code cache for the linked CLI (dist/bin/bulkhead.cjs, scripts/bundle.mjs): the script is
// compiled through vm.Script with the code V8 produced for it on an earlier run of the same
// command, so that neither its top level nor the functions that run was compiled then are
// parsed and compiled again. Node 20 has no module.enableCompileCache and ES modules no public
// code-cache API, hence one CommonJS script.
//
// V8's own check of a cache is weak: it compares the source's length, not its content, and a
// damaged payload may crash the deserializer. So a cache file is named for the sha256 of the
// script's bytes, the Node.js version and architecture, the process's flags and the command
// (each command runs other functions), and carries the sha256 of its payload, checked before V8
// sees it. Anything wrong with the cache (missing, damaged, refused by V8, unwritable) only
// means the script is compiled as without one; nothing here ever fails the command.

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';

/** What became of the cache at load: none found, V8 took it, or it was not usable. */
export type CacheState = 'none' | 'accepted' | 'rejected';

export interface CachedScript {
  /** The completion value of the script (bulkhead.cjs: its wrapper function). */
  readonly value: unknown;
  readonly state: CacheState;
  /** The cache file's path. */
  readonly cacheFile: string;
  /**
   * Writes the code V8 holds for the script now (the functions compiled so far with it) unless
   * the cache it was loaded with was taken; true when a file was written. Never throws.
   */
  save(): boolean;
}

const digestBytes = 32;

/**
 * The most cache files kept in a directory: each way of running a command (its flags; a
 * benchmark's preloaded hook has a path of its own each run) makes a file of 1-2 MB, so older
 * ones are removed, least recently written first, when a new one is saved.
 */
export const maxCacheFiles = 12;

/** Removes the least recently written cache files of `cacheDir` beyond `keep`; never throws. */
export function pruneCacheDir(cacheDir: string, keep = maxCacheFiles): void {
  try {
    const files = readdirSync(cacheDir)
      .filter((f) => f.endsWith('.v8'))
      .map((f) => ({ f, t: statSync(join(cacheDir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of files.slice(keep)) rmSync(join(cacheDir, f), { force: true });
  } catch {
    // A cache that cannot be listed or pruned is only larger than it needs to be.
  }
}

/** The cache file's name for this script's bytes, this process and `command`. */
export function cacheFileName(source: Buffer, command: string, runtime = `${process.version} ${process.arch} ${process.execArgv.join(' ')}`): string {
  const key = createHash('sha256').update(source).update('\0').update(runtime).update('\0').update(command).digest('hex').slice(0, 40);
  return `${/^[a-z][a-z0-9-]{0,30}$/.test(command) ? command : 'other'}-${key}.v8`;
}

/**
 * The whole of `file`, read into `spare` when it fits there (else into a buffer of its own), or
 * undefined when it cannot be read.
 */
function readInto(file: string, spare: Buffer): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const data = size <= spare.length ? spare.subarray(0, size) : Buffer.allocUnsafe(size);
    let n = 0;
    for (let got = -1; n < size && got !== 0; n += got) got = readSync(fd, data, n, size - n, null);
    // A file that shrank while it was read is taken as it was at its end.
    return data.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The payload of a cache file whose checksum holds, else undefined; read into `spare` when it fits. */
function verifiedPayload(file: string, spare: Buffer): Buffer | undefined {
  const data = readInto(file, spare);
  if (data === undefined || data.length <= digestBytes) return undefined;
  const payload = data.subarray(digestBytes);
  return createHash('sha256').update(payload).digest().equals(data.subarray(0, digestBytes)) ? payload : undefined;
}

/**
 * Compiles and runs the script in `file` (bytes all ASCII: read as Latin-1, a one-byte string)
 * with the cache of `command` in `cacheDir`.
 */
export function runCached(file: string, cacheDir: string, command: string): CachedScript {
  const source = readFileSync(file);
  const cacheFile = join(cacheDir, cacheFileName(source, command));
  const code = source.toString('latin1');
  // The cache is read into the script's bytes, unused once they are a string: memory that is
  // touched for the first time costs a page fault a page, ~20 µs each in a VM (2.2 MB of
  // script, 1.7 MB of server cache: ~400 faults, ~8 ms of CPU of every start).
  const cachedData = verifiedPayload(cacheFile, source);
  const script = new Script(code, { filename: file, cachedData });
  const state: CacheState = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const value = script.runInThisContext();
  let saved = state === 'accepted';
  return {
    value,
    state,
    cacheFile,
    save() {
      if (saved) return false;
      saved = true;
      // Written whole under another name and renamed: a reader never sees half a file, and
      // commands started together each write their own.
      const tmp = `${cacheFile}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
      try {
        const payload = script.createCachedData();
        mkdirSync(cacheDir, { recursive: true });
        writeFileSync(tmp, Buffer.concat([createHash('sha256').update(payload).digest(), payload]));
        renameSync(tmp, cacheFile);
        pruneCacheDir(cacheDir);
        return true;
      } catch {
        try {
          rmSync(tmp, { force: true });
        } catch {
          // nothing was written there
        }
        return false;
      }
    },
  };
}
