// busybox:latest from the host's static busybox (Debian busybox-static), for nodes that cannot
// pull: the rootfs of src/agent/runtime/rootfs.ts (/bin/busybox, one /bin symlink per applet of
// `busybox --list`, the mount points) plus /etc/passwd and /etc/group, packed as one
// deterministic layer in an OCI layout and imported like any other image. Tagged
// busybox:<version>, busybox:<major.minor> (from the first line of `busybox --help`) and
// busybox:latest. Idempotent: the same host binary gives the same image ID, and a store that
// already has it is only re-tagged.

import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { access, chmod, constants, lstat, mkdir, mkdtemp, readFile, readdir, readlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Header } from 'tar';
import { buildBusyboxRootfs, defaultBusyboxPath, isStaticElf } from '../runtime/rootfs.js';
import { removeTree } from './layer.js';
import { hostPlatform, type ImageRecord, type ImageStore } from './store.js';

const execFileP = promisify(execFile);

export const busyboxSourceLabel = 'io.bulkhead.image.source';
export const busyboxHashLabel = 'io.bulkhead.busybox.sha256';
const epoch = new Date(0);

export interface EnsureBusyboxOptions {
  /** The busybox binary to use (default /bin/busybox). */
  busybox?: string;
}

/** "BusyBox v1.36.1 (Debian 1:1.36.1-9) multi-call binary." -> "1.36.1" (undefined if absent). */
export function parseBusyboxVersion(helpFirstLine: string): string | undefined {
  return /^BusyBox v(\d+\.\d+(?:\.\d+)?)/.exec(helpFirstLine.trim())?.[1];
}

/** The tags busybox images get: busybox:<x.y.z>, busybox:<x.y>, busybox:latest. */
export function busyboxTags(version: string | undefined): string[] {
  const tags = ['busybox:latest'];
  if (version) {
    tags.unshift(`busybox:${version}`);
    const mm = /^(\d+\.\d+)\.\d+$/.exec(version)?.[1];
    if (mm) tags.splice(1, 0, `busybox:${mm}`);
  }
  return tags;
}

async function busyboxVersion(busybox: string): Promise<string | undefined> {
  // `busybox --help` prints the banner and exits 0 on Debian; some builds exit 1: read it anyway.
  const out = await execFileP(busybox, ['--help'], { encoding: 'utf8' }).catch((err: { stdout?: string; stderr?: string }) => ({
    stdout: err.stdout ?? '',
    stderr: err.stderr ?? '',
  }));
  const first = `${out.stdout}\n${out.stderr}`.split('\n').find((l) => l.startsWith('BusyBox')) ?? '';
  return parseBusyboxVersion(first);
}

/** Build (or find) the host busybox image in `store`. Throws when /bin/busybox is missing or dynamic. */
export async function ensureBusyboxImage(store: ImageStore, opts: EnsureBusyboxOptions = {}): Promise<ImageRecord> {
  const busybox = opts.busybox ?? defaultBusyboxPath;
  try {
    await access(busybox, constants.X_OK);
  } catch {
    throw new Error(`cannot build the busybox image: ${busybox} is missing or not executable (install busybox-static: apt-get install busybox-static)`);
  }
  if (!isStaticElf(busybox)) {
    throw new Error(`cannot build the busybox image: ${busybox} is not a static binary (install busybox-static, not busybox)`);
  }
  const hash = createHash('sha256').update(await readFile(busybox)).digest('hex');
  const tags = busyboxTags(await busyboxVersion(busybox));

  // Already built from this very binary: make sure every tag points at it.
  const existing = await store.resolve(tags[0]!);
  if (existing && existing.config.labels[busyboxHashLabel] === hash) {
    let img = existing;
    for (const t of tags) if ((await store.resolve(t))?.id !== existing.id) img = await store.tag(existing.id, t);
    return img;
  }

  const work = await mkdtemp(join(tmpdir(), 'bulkhead-busybox-'));
  try {
    const rootfs = join(work, 'rootfs');
    await mkdir(rootfs);
    buildBusyboxRootfs(rootfs, busybox);
    await writeFile(join(rootfs, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n');
    await writeFile(join(rootfs, 'etc', 'group'), 'root:x:0:\nnogroup:x:65534:\n');
    const paths = await listTree(rootfs);
    for (const p of paths) {
      const st = await lstat(join(rootfs, p));
      if (st.isSymbolicLink()) continue;
      const mode = st.isDirectory() ? (p === 'tmp' ? 0o1777 : p === 'root' ? 0o700 : 0o755) : p === 'bin/busybox' ? 0o755 : 0o644;
      await chmod(join(rootfs, p), mode);
    }

    const layout = join(work, 'layout');
    const blobs = join(layout, 'blobs', 'sha256');
    await mkdir(blobs, { recursive: true });
    const layerBytes = await layerTar(rootfs, paths);
    const layerDigest = sha256(layerBytes);
    const platform = hostPlatform();
    const config = {
      created: epoch.toISOString(),
      architecture: platform.architecture,
      os: platform.os,
      config: {
        Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
        Cmd: ['sh'],
        WorkingDir: '/',
        Labels: { [busyboxSourceLabel]: 'host-busybox', [busyboxHashLabel]: hash },
      },
      rootfs: { type: 'layers', diff_ids: [layerDigest] },
      history: [{ created: epoch.toISOString(), created_by: `bulkhead: host ${busybox} (sha256 ${hash})` }],
    };
    const configBytes = Buffer.from(JSON.stringify(config));
    const manifest = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(configBytes), size: configBytes.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: layerDigest, size: layerBytes.length }],
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest));
    for (const b of [layerBytes, configBytes, manifestBytes]) await writeFile(join(blobs, sha256(b).slice(7)), b);
    await writeFile(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
    await writeFile(
      join(layout, 'index.json'),
      JSON.stringify({
        schemaVersion: 2,
        manifests: [{ mediaType: manifest.mediaType, digest: sha256(manifestBytes), size: manifestBytes.length, platform }],
      }),
    );
    const [img] = await store.import(layout, { references: tags, platform });
    return img!;
  } finally {
    await removeTree(work);
  }
}

/**
 * A reproducible layer: `paths` in the given order, owned by root, mtime 0, modes as on disk.
 * (tar's own packer takes owners and times from the disk, and its `portable` mode drops the
 * group/other write bits, which /tmp needs; so the entries are framed here with tar's Header.)
 */
async function layerTar(rootfs: string, paths: string[]): Promise<Buffer> {
  const blocks: Buffer[] = [];
  for (const p of paths) {
    const full = join(rootfs, p);
    const st = await lstat(full);
    const common = { uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: epoch, mode: st.mode & 0o7777 };
    let header: Header;
    let body: Buffer | undefined;
    if (st.isDirectory()) header = new Header({ ...common, path: `${p}/`, type: 'Directory', size: 0 });
    else if (st.isSymbolicLink()) header = new Header({ ...common, path: p, type: 'SymbolicLink', linkpath: await readlink(full), size: 0 });
    else if (st.isFile()) {
      body = await readFile(full);
      header = new Header({ ...common, path: p, type: 'File', size: body.length });
    } else continue;
    const block = Buffer.alloc(512);
    if (header.encode(block, 0)) throw new Error(`busybox layer: path too long for a ustar header: ${p}`);
    blocks.push(block);
    if (body && body.length > 0) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function sha256(b: Buffer): string {
  return `sha256:${createHash('sha256').update(b).digest('hex')}`;
}

/** Every path under `dir`, relative, sorted, parents before children. */
async function listTree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory()) out.push(...(await listTree(dir, rel)));
  }
  return out;
}
