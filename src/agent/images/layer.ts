// Reading image layers (tar or tar.gz, told apart by their magic bytes) and applying them to a
// rootfs directory with OCI whiteout semantics, refusing any entry that would land outside it.
//
// A layer is read twice: the first pass checks every path, hashes the blob (digest) and its
// uncompressed tar (diff ID), and collects the whiteouts; the whiteouts are then applied to what
// the lower layers left; the second pass writes the entries. So a refused layer changes
// nothing, and a whiteout only ever removes what lower layers made, wherever it sits in the tar.
//
// Paths are resolved inside the rootfs the way the container will see them: an absolute
// symlink met on the way (lib -> /usr/lib) is followed from the rootfs root, a relative one is
// followed unless it climbs above the root, which is refused. The final component of an entry
// is never followed: an existing file, link or directory there is replaced.

import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, chown, lchown, link, lstat, lutimes, mkdir, open, readdir, readlink, rm, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';

export class UnsafeLayerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeLayerError';
  }
}

export type Compression = 'none' | 'gzip';

/** Tell a layer's compression from its first bytes; throws for formats this store cannot read. */
export function detectCompression(head: Buffer): Compression {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x28b52ffd) throw new Error('zstd-compressed layers are not supported (only tar and tar+gzip)');
  if (head.length >= 6 && head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) {
    throw new Error('xz-compressed layers are not supported (only tar and tar+gzip)');
  }
  if (head.length >= 3 && head.subarray(0, 3).toString('latin1') === 'BZh') throw new Error('bzip2-compressed layers are not supported (only tar and tar+gzip)');
  return 'none';
}

async function readHead(file: string, n: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

class HashTap extends Transform {
  /** Whether any byte so far was not zero (an empty layer is 0 bytes or only zero blocks). */
  nonZero = false;
  constructor(readonly hash: Hash) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.hash.update(chunk);
    if (!this.nonZero) this.nonZero = chunk.some((b) => b !== 0);
    cb(null, chunk);
  }
}

export interface TarDigests {
  /** sha256 of the file as stored (an OCI layer descriptor's digest). */
  digest: string;
  /** sha256 of the uncompressed tar (the config's rootfs.diff_ids entry). */
  diffId: string;
  compression: Compression;
}

/**
 * Stream every entry of a tar or tar.gz file to `onEntry`, one at a time (the next entry comes
 * after the handler's promise settles). The handler must consume or resume the entry's data.
 */
export async function readTar(file: string, onEntry: (entry: ReadEntry) => Promise<void>): Promise<TarDigests> {
  const compression = detectCompression(await readHead(file, 6));
  const rawHash = createHash('sha256');
  const tarHash = createHash('sha256');
  let failure: unknown;
  let chain: Promise<void> = Promise.resolve();
  const parser = new Parser({
    strict: true,
    noResume: true,
    onReadEntry: (entry: ReadEntry) => {
      chain = chain.then(async () => {
        if (failure !== undefined) {
          entry.resume();
          return;
        }
        try {
          await onEntry(entry);
        } catch (err) {
          failure ??= err;
          entry.resume();
        }
      });
    },
  });
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('end', () => resolve());
    parser.on('error', (err: unknown) => reject(err));
  });
  parsed.catch(() => {});
  const feed = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      if (failure !== undefined) throw failure;
      if (!parser.write(chunk)) {
        await new Promise<void>((resolve, reject) => {
          parser.once('drain', resolve);
          parsed.catch(reject);
        });
      }
    }
    parser.end();
  };
  const tarTap = new HashTap(tarHash);
  try {
    if (compression === 'gzip') {
      await pipeline(createReadStream(file), new HashTap(rawHash), createGunzip(), tarTap, feed);
    } else {
      await pipeline(createReadStream(file), new HashTap(rawHash), tarTap, feed);
    }
    await parsed;
    await chain;
  } catch (err) {
    failure ??= err;
  }
  await chain.catch(() => {});
  // An empty layer (no bytes, or only the end-of-archive zero blocks) is valid; tar's parser
  // calls it an unrecognized format.
  const emptyLayer = !tarTap.nonZero && (failure as { code?: string } | undefined)?.code === 'TAR_BAD_ARCHIVE';
  if (failure !== undefined && !emptyLayer) throw failure;
  return { digest: `sha256:${rawHash.digest('hex')}`, diffId: `sha256:${tarHash.digest('hex')}`, compression };
}

/**
 * Split a path from a tar entry into components, dropping "." and empty ones. Throws
 * UnsafeLayerError for absolute paths and for any ".." component. [] is the root itself.
 */
export function entryComponents(path: string, what = 'entry'): string[] {
  if (path.includes('\0')) throw new UnsafeLayerError(`refusing ${what} ${JSON.stringify(path)}: NUL in path`);
  if (path.startsWith('/')) throw new UnsafeLayerError(`refusing ${what} ${JSON.stringify(path)}: absolute path`);
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new UnsafeLayerError(`refusing ${what} ${JSON.stringify(path)}: path traversal ("..")`);
  return parts;
}

const maxSymlinkHops = 40;

/**
 * The host path of directory `components` inside `rootfs`, following symlinks in the rootfs's
 * scope. Missing directories are created (mode 0755) when `create` is set, otherwise the result
 * is undefined. `entry` is only used in error messages.
 */
export async function resolveDirInRoot(rootfs: string, components: string[], create: boolean, entry: string): Promise<string | undefined> {
  const stack: string[] = [];
  const pending = [...components];
  let hops = 0;
  while (pending.length > 0) {
    const comp = pending.shift()!;
    if (comp === '' || comp === '.') continue;
    if (comp === '..') {
      if (stack.length === 0) throw new UnsafeLayerError(`refusing entry ${JSON.stringify(entry)}: it goes through a symlink that escapes the image root`);
      stack.pop();
      continue;
    }
    const p = join(rootfs, ...stack, comp);
    const st = await lstat(p).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (st === undefined) {
      if (!create) return undefined;
      await mkdir(p, { mode: 0o755 });
      stack.push(comp);
    } else if (st.isDirectory()) {
      stack.push(comp);
    } else if (st.isSymbolicLink()) {
      if (++hops > maxSymlinkHops) throw new UnsafeLayerError(`refusing entry ${JSON.stringify(entry)}: too many levels of symbolic links`);
      const target = await readlink(p);
      if (target.startsWith('/')) stack.length = 0;
      pending.unshift(...target.split('/'));
    } else {
      throw new UnsafeLayerError(`refusing entry ${JSON.stringify(entry)}: /${[...stack, comp].join('/')} is not a directory`);
    }
  }
  return join(rootfs, ...stack);
}

/** Modes of the directories a rootfs got, applied once every layer is in (see finishRootfs). */
export type DirModes = Map<string, number>;

export interface ApplyLayerOptions {
  /** Expected blob digest ("sha256:..."); a mismatch is an error. */
  digest?: string;
  /** Expected diff ID ("sha256:..."); a mismatch is an error. */
  diffId?: string;
  /** Shared across the layers of one image; pass the same map to finishRootfs. */
  dirModes: DirModes;
  /** chown entries to their uid/gid (default: when running as root). */
  preserveOwner?: boolean;
}

export interface ApplyLayerResult extends TarDigests {
  /** Entries that were not created (device nodes, FIFOs, unknown types), for the caller to report. */
  skipped: string[];
}

const whiteoutPrefix = '.wh.';
const opaqueMarker = '.wh..wh..opq';
const fileTypes = new Set(['File', 'OldFile', 'ContiguousFile']);

/** Apply one layer file (tar or tar.gz) on top of `rootfs`. */
export async function applyLayer(rootfs: string, file: string, opts: ApplyLayerOptions): Promise<ApplyLayerResult> {
  const preserveOwner = opts.preserveOwner ?? process.getuid?.() === 0;
  const whiteouts: string[][] = [];
  const opaque: string[][] = [];

  // Pass 1: check every path, collect whiteouts, hash.
  const digests = await readTar(file, async (entry) => {
    const parts = entryComponents(entry.path);
    if (entry.type === 'Link' || entry.type === 'SymbolicLink') {
      if (entry.linkpath === undefined || entry.linkpath === '') throw new UnsafeLayerError(`refusing entry ${JSON.stringify(entry.path)}: link without a target`);
      if (entry.type === 'Link') entryComponents(entry.linkpath, `hard link target of ${JSON.stringify(entry.path)}:`);
    }
    const base = parts[parts.length - 1];
    if (base === opaqueMarker) opaque.push(parts.slice(0, -1));
    else if (base?.startsWith(whiteoutPrefix)) {
      const name = base.slice(whiteoutPrefix.length);
      if (name === '' || name === '.' || name === '..') throw new UnsafeLayerError(`refusing whiteout ${JSON.stringify(entry.path)}: no file name`);
      whiteouts.push([...parts.slice(0, -1), name]);
    }
    entry.resume();
  });
  if (opts.digest !== undefined && opts.digest !== digests.digest) {
    throw new Error(`layer ${file}: digest mismatch (expected ${opts.digest}, got ${digests.digest})`);
  }
  if (opts.diffId !== undefined && opts.diffId !== digests.diffId) {
    throw new Error(`layer ${file}: diff ID mismatch (expected ${opts.diffId}, got ${digests.diffId})`);
  }

  // Whiteouts remove what the lower layers made.
  for (const dir of opaque) {
    const p = await resolveDirInRoot(rootfs, dir, false, [...dir, opaqueMarker].join('/'));
    if (p === undefined) continue;
    for (const child of await readdir(p)) await rm(join(p, child), { recursive: true, force: true });
  }
  for (const parts of whiteouts) {
    const p = await resolveDirInRoot(rootfs, parts.slice(0, -1), false, parts.join('/'));
    if (p !== undefined) await rm(join(p, parts[parts.length - 1]!), { recursive: true, force: true });
  }

  // Pass 2: write the entries.
  const skipped: string[] = [];
  await readTar(file, async (entry) => {
    const parts = entryComponents(entry.path);
    const base = parts[parts.length - 1];
    if (base === undefined) {
      // The root directory itself ("./").
      if (entry.type === 'Directory') opts.dirModes.set(rootfs, entry.mode ?? 0o755);
      entry.resume();
      return;
    }
    if (base.startsWith(whiteoutPrefix)) {
      entry.resume();
      return;
    }
    const parent = (await resolveDirInRoot(rootfs, parts.slice(0, -1), true, entry.path))!;
    const target = join(parent, base);
    const existing = await lstat(target).catch(() => undefined);
    const mode = (entry.mode ?? 0o644) & 0o7777;
    const uid = entry.uid ?? 0;
    const gid = entry.gid ?? 0;
    if (entry.type === 'Directory') {
      entry.resume();
      if (existing && !existing.isDirectory()) await rm(target, { recursive: true, force: true });
      if (!existing || !existing.isDirectory()) await mkdir(target, { mode: 0o755 });
      if (preserveOwner) await chown(target, uid, gid);
      opts.dirModes.set(target, mode);
      return;
    }
    if (existing) await rm(target, { recursive: true, force: true });
    if (fileTypes.has(entry.type)) {
      await pipeline(entry, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
      if (preserveOwner) await chown(target, uid, gid);
      await chmod(target, mode);
      if (entry.mtime) await utimes(target, entry.mtime, entry.mtime);
    } else if (entry.type === 'SymbolicLink') {
      entry.resume();
      await symlink(entry.linkpath!, target);
      if (preserveOwner) await lchown(target, uid, gid);
      if (entry.mtime) await lutimes(target, entry.mtime, entry.mtime).catch(() => {});
    } else if (entry.type === 'Link') {
      entry.resume();
      const lparts = entryComponents(entry.linkpath!);
      const ldir = await resolveDirInRoot(rootfs, lparts.slice(0, -1), false, entry.linkpath!);
      const source = ldir === undefined || lparts.length === 0 ? undefined : join(ldir, lparts[lparts.length - 1]!);
      const st = source === undefined ? undefined : await lstat(source).catch(() => undefined);
      if (!st || st.isDirectory()) throw new Error(`layer ${file}: hard link ${JSON.stringify(entry.path)} -> ${JSON.stringify(entry.linkpath)}: target missing or a directory`);
      await link(source!, target);
    } else {
      entry.resume();
      skipped.push(`${entry.path} (${entry.type})`);
    }
  });
  return { ...digests, skipped };
}

/** Apply the directory modes collected while applying layers (deepest first). */
export async function finishRootfs(dirModes: DirModes): Promise<void> {
  const dirs = [...dirModes.keys()].sort((a, b) => b.length - a.length);
  for (const d of dirs) {
    const st = await lstat(d).catch(() => undefined);
    if (st?.isDirectory()) await chmod(d, dirModes.get(d)!);
  }
}

/** Bytes used by the files under `dir` (hard links counted once). */
export async function treeSize(dir: string): Promise<number> {
  const seen = new Set<string>();
  let total = 0;
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const st = await lstat(p);
      if (st.isDirectory()) {
        await walk(p);
        continue;
      }
      const key = `${st.dev}:${st.ino}`;
      if (st.nlink > 1) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      total += st.size;
    }
  };
  await walk(dir);
  return total;
}

/**
 * rm -rf that also works without root on trees holding read-only directories (an unpacked
 * rootfs often has some): on EACCES/EPERM it gives the owner write access to every directory
 * under `path` (symlinks untouched) and tries again.
 */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw err;
  }
  const open = async (d: string): Promise<void> => {
    const st = await lstat(d).catch(() => undefined);
    if (!st?.isDirectory()) return;
    await chmod(d, (st.mode & 0o7777) | 0o700).catch(() => {});
    for (const e of await readdir(d, { withFileTypes: true })) if (e.isDirectory()) await open(join(d, e.name));
  };
  await open(path);
  await rm(path, { recursive: true, force: true });
}
