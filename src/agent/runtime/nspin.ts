// A pod's shared namespaces (network, IPC, UTS), pinned to files before anything of the pod
// runs, as CRI-O's pinns does: the sandbox and the pod's first containers then join the same
// paths and can be created at the same time, instead of the containers waiting for the
// sandbox's runc to finish (~40 ms of every pod start, bench:startup). unshare(1) makes the
// namespaces and bind-mounts them onto the files; busybox's `ip` brings up loopback in the new
// network namespace (runc does that only for a network namespace it creates itself).
// The pins are bind mounts in the agent's mount namespace: unpinNamespaces unmounts them.

import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mountPoints } from './overlay.js';
import { defaultBusyboxPath } from './rootfs.js';

const run = promisify(execFile);

export type PinnedKind = 'network' | 'ipc' | 'uts';

/** unshare(1)'s option per OCI namespace type. */
const unshareFlag: Record<PinnedKind, string> = { network: '--net', ipc: '--ipc', uts: '--uts' };

export class NamespacePinError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NamespacePinError';
  }
}

/** New namespaces of `kinds`, each pinned at <dir>/<kind>; returns the paths to join. */
export async function pinNamespaces(dir: string, kinds: readonly PinnedKind[], busybox: string = defaultBusyboxPath): Promise<Partial<Record<PinnedKind, string>>> {
  const out: Partial<Record<PinnedKind, string>> = {};
  if (!kinds.length) return out;
  mkdirSync(dir, { recursive: true });
  const args: string[] = [];
  for (const k of kinds) {
    const p = join(dir, k);
    // The bind mount needs a file to cover.
    writeFileSync(p, '', { flag: 'a' });
    args.push(`${unshareFlag[k]}=${p}`);
    out[k] = p;
  }
  const then = kinds.includes('network') ? [busybox, 'ip', 'link', 'set', 'lo', 'up'] : [busybox, 'true'];
  try {
    await run('unshare', [...args, '--', ...then]);
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    await unpinNamespaces(dir).catch(() => undefined);
    throw new NamespacePinError(`creating the pod's namespaces: ${(err.stderr ?? '').trim() || err.message}`);
  }
  return out;
}

/** Unmounts the pins in `dir` and removes it; a no-op for a directory that is not there. */
export async function unpinNamespaces(dir: string): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const mounted = mountPoints();
  const pins = names.map((n) => join(dir, n));
  const busy = pins.filter((p) => mounted.has(p));
  if (busy.length) {
    try {
      await run('umount', busy);
    } catch (e) {
      const still = busy.filter((p) => mountPoints().has(p));
      if (still.length) throw new NamespacePinError(`unmounting ${still.join(', ')}: ${((e as { stderr?: string }).stderr ?? '').trim() || (e as Error).message}`);
    }
  }
  // Plain files once unmounted; never rm -r, which would follow into a pin still mounted.
  for (const p of pins) rmSync(p, { force: true });
  rmdirSync(dir);
}
