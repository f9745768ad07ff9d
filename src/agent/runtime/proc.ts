// Process liveness from /proc, for the processes the agent does not parent (conmon, a
// container's init): a zombie counts as dead, since its reaper may be slow.

import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a live (not zombie) process, and, when `comm` is given, has that name (a
 * guard against pid reuse after a reboot or a long downtime). conmon is reparented to PID 1,
 * which on some hosts reaps late, so a zombie counts as dead.
 */
export function processAlive(pid: number, comm?: string): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const name = stat.slice(open + 1, close);
  const state = stat.slice(close + 2, close + 3);
  if (state === 'Z' || state === 'X') return false;
  return comm === undefined || name === comm;
}
