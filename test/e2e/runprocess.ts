// A command of an end-to-end test (kubectl, bulkhead) run to its end: its exit code and what it
// printed. Killed after 90 s so that a hung child fails the test instead of stalling the run.

import { spawn } from 'node:child_process';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export function runProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, input = ''): Promise<Result> {
  return new Promise((resolve) => {
    const c = spawn(cmd, args, { env });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => c.kill('SIGKILL'), 90_000);
    // kubectl may exit before reading its stdin (a command that takes none): not the test's error.
    c.stdin.on('error', () => undefined);
    c.stdin.end(input);
    c.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
