// A minimal container image built from the host's static busybox (Debian busybox-static):
// <dir>/bin/busybox plus one symlink per applet (`busybox --list`), and the empty mount
// points an OCI runtime expects. Idempotent: running it again over the same directory only
// fills in what is missing and never replaces a file that is already there.

import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, existsSync, lstatSync, mkdirSync, openSync, readSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export const defaultBusyboxPath = '/bin/busybox';

export interface BusyboxRootfsResult {
  /** The rootfs directory (the bundle's root.path). */
  dir: string;
  /** Applet names linked to /bin/busybox. */
  applets: string[];
  /** How many entries this call created (0 when the rootfs was already complete). */
  created: number;
}

/** The applets a busybox binary offers, one name per line of `busybox --list`. */
export function busyboxApplets(busybox: string = defaultBusyboxPath): string[] {
  const out = execFileSync(busybox, ['--list'], { encoding: 'utf8' });
  return out.split('\n').map((s) => s.trim()).filter((s) => s !== '' && !s.includes('/'));
}

/** Whether `path` is an ELF binary without a PT_INTERP program header (i.e. statically linked). */
export function isStaticElf(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const h = Buffer.alloc(64);
    if (readSync(fd, h, 0, 64, 0) < 64) return false;
    if (h.readUInt32BE(0) !== 0x7f454c46) return false;
    const is64 = h[4] === 2;
    const le = h[5] === 1;
    const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
    const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
    const phoff = is64 ? Number(le ? h.readBigUInt64LE(32) : h.readBigUInt64BE(32)) : u32(h, 28);
    const phentsize = u16(h, is64 ? 54 : 42);
    const phnum = u16(h, is64 ? 56 : 44);
    const ph = Buffer.alloc(phentsize * phnum);
    readSync(fd, ph, 0, ph.length, phoff);
    for (let i = 0; i < phnum; i++) if (u32(ph, i * phentsize) === 3 /* PT_INTERP */) return false;
    return true;
  } finally {
    closeSync(fd);
  }
}

/** Directories every bundle rootfs gets (mount points and writable scratch). */
const skeleton = ['bin', 'dev', 'etc', 'proc', 'sys', 'tmp', 'root', 'usr/bin', 'sbin', 'usr/sbin'];

/** Build (or complete) a busybox rootfs in `dir`. Throws when busybox is missing or dynamic. */
export function buildBusyboxRootfs(dir: string, busybox: string = defaultBusyboxPath): BusyboxRootfsResult {
  if (!existsSync(busybox)) throw new Error(`${busybox} not found (install the Debian package busybox-static)`);
  if (!isStaticElf(busybox)) throw new Error(`${busybox} is not a static binary; a container rootfs needs busybox-static`);
  let created = 0;
  for (const d of skeleton) {
    const p = join(dir, d);
    if (!existsSync(p)) {
      mkdirSync(p, { recursive: true });
      created++;
    }
  }
  chmodSync(join(dir, 'tmp'), 0o1777);
  const target = join(dir, 'bin', 'busybox');
  if (!existsSync(target) || statSync(target).size !== statSync(busybox).size) {
    copyFileSync(busybox, target);
    chmodSync(target, 0o755);
    created++;
  }
  const applets = busyboxApplets(busybox);
  for (const name of applets) {
    if (name === 'busybox') continue;
    const link = join(dir, 'bin', name);
    let present = false;
    try {
      const st = lstatSync(link);
      // Keep whatever is there: a previous link, or a file a caller put in on purpose.
      present = st.isSymbolicLink() ? readlinkSync(link) !== '' : true;
    } catch {
      present = false;
    }
    if (!present) {
      symlinkSync('busybox', link);
      created++;
    }
  }
  return { dir, applets, created };
}
