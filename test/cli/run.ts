// Runs the compiled `bulkhead` command as a user would, from the repository root.

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const repoRoot = process.cwd();
export const mainJs = resolve(repoRoot, 'dist/bin/main.js');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function bulkhead(args: string[], input?: string, timeoutMs?: number): RunResult {
  const r = spawnSync(process.execPath, [mainJs, ...args], { cwd: repoRoot, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs, killSignal: 'SIGKILL' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A fixed node, so outputs do not depend on the machine the tests run on. */
export const node16Gi = ['--node-memory', '16Gi', '--node-cpu', '4', '--cgroup-version', '2', '--nr-open', '1048576'];
