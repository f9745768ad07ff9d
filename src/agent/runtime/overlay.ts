// A container's writable root: an overlayfs over the (shared, read-only) image rootfs, with the
// upper and work directories under the agent's run directory. mount(8)/umount(8) from
// util-linux, as Node has no mount syscall.

import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export class OverlayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OverlayError';
  }
}

/** overlayfs parses its options on ',' and ':' and '\\': paths holding them are refused rather than escaped. */
function checkPath(p: string): void {
  if (!p.startsWith('/') || /[,:\\\n]/.test(p)) throw new OverlayError(`overlay path ${JSON.stringify(p)} must be absolute and free of ',' ':' '\\'`);
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** Mount points of this process's mount namespace (from /proc/self/mountinfo). */
export function mountPoints(): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const f = line.split(' ');
    if (f.length > 4) out.add(unescapeMount(f[4]!));
  }
  return out;
}

export async function mountOverlay(lower: string, upper: string, work: string, target: string): Promise<void> {
  for (const p of [lower, upper, work, target]) checkPath(p);
  for (const d of [upper, work, target]) mkdirSync(d, { recursive: true });
  try {
    await run('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${lower},upperdir=${upper},workdir=${work}`, target]);
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new OverlayError(`mounting the container root at ${target}: ${(err.stderr ?? '').trim() || err.message}`);
  }
}

/** Unmounts `target` when it is a mount point; a no-op otherwise. */
export async function unmountIfMounted(target: string): Promise<void> {
  if (!mountPoints().has(target)) return;
  try {
    await run('umount', [target]);
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    if (!mountPoints().has(target)) return;
    throw new OverlayError(`unmounting ${target}: ${(err.stderr ?? '').trim() || err.message}`);
  }
}
