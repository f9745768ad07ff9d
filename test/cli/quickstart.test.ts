// The quick start: `./bulkhead up` as root does all the set-up. The wrapper and
// scripts/install-host-deps.sh (the one list of host packages) run here in a scratch copy of
// the checkout on a PATH of fakes: `id` says who we are, `apt-get` "installs" a package by
// putting a command of that name on the PATH, `node` prints what it was asked to run.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot } from './run.js';

const realTools = ['bash', 'env', 'dirname', 'find'];
const hostCommands = ['runc', 'crun', 'busybox', 'conmon', 'unshare', 'mount'];

function which(cmd: string): string {
  const r = spawnSync('bash', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} not found`);
  return r.stdout.trim();
}

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

const scratch = mkdtempSync(join(tmpdir(), 'bulkhead-quickstart-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A checkout whose npm install and build are up to date, so the wrapper goes straight to node. */
function checkout(): string {
  const dir = mkdtempSync(join(scratch, 'repo-'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'node_modules'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'dist/bin'), { recursive: true });
  copyFileSync(join(repoRoot, 'bulkhead'), join(dir, 'bulkhead'));
  copyFileSync(join(repoRoot, 'scripts/install-host-deps.sh'), join(dir, 'scripts/install-host-deps.sh'));
  chmodSync(join(dir, 'scripts/install-host-deps.sh'), 0o755);
  writeFileSync(join(dir, 'package-lock.json'), '{}');
  utimesSync(join(dir, 'package-lock.json'), new Date(1e12), new Date(1e12));
  writeFileSync(join(dir, 'node_modules/.package-lock.json'), '{}');
  writeFileSync(join(dir, 'dist/bin/main.js'), '');
  return dir;
}

/** A PATH directory with the real shell tools, the given host commands, and the fakes. */
function fakePath(opts: { uid: number; present: readonly string[]; aptInstalls: boolean }): { bin: string; aptLog: string } {
  const bin = mkdtempSync(join(scratch, 'bin-'));
  for (const t of realTools) symlinkSync(which(t), join(bin, t));
  for (const c of opts.present) script(join(bin, c), 'exit 0');
  script(join(bin, 'id'), `echo ${opts.uid}`);
  script(join(bin, 'node'), 'echo "node ran: $*"');
  const aptLog = join(bin, 'apt-get.log');
  // Package names equal command names for the packages the rows leave out (runc, crun, conmon).
  script(
    join(bin, 'apt-get'),
    `echo "$*" >> ${aptLog}\n${opts.aptInstalls ? `if [ "$1" = install ]; then shift; for p in "$@"; do case "$p" in -*) ;; *) printf '#!/bin/sh\\n' > ${bin}/$p; ${which('chmod')} +x ${bin}/$p ;; esac; done; fi` : ''}`,
  );
  return { bin, aptLog };
}

function bash(path: string, args: readonly string[], bin: string) {
  const r = spawnSync(which('bash'), [path, ...args], { encoding: 'utf8', env: { PATH: bin } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/install-host-deps.sh --check lists the missing host packages, in the list\'s order', () => {
  const rows: { name: string; present: string[]; code: number; stdout: string }[] = [
    { name: 'every command on PATH: nothing missing', present: hostCommands, code: 0, stdout: '' },
    { name: 'no runc on PATH: runc', present: hostCommands.filter((c) => c !== 'runc'), code: 1, stdout: 'runc\n' },
    { name: 'no busybox on PATH: the package busybox-static', present: hostCommands.filter((c) => c !== 'busybox'), code: 1, stdout: 'busybox-static\n' },
    { name: 'no crun on PATH: crun', present: hostCommands.filter((c) => c !== 'crun'), code: 1, stdout: 'crun\n' },
    { name: 'a fresh machine (only unshare and mount): runc crun busybox-static conmon', present: ['unshare', 'mount'], code: 1, stdout: 'runc crun busybox-static conmon\n' },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const { bin } = fakePath({ uid: 0, present: row.present, aptInstalls: false });
      const r = bash(join(repoRoot, 'scripts/install-host-deps.sh'), ['--check'], bin);
      assert.equal(r.stdout, row.stdout, r.stderr);
      assert.equal(r.code, row.code);
    });
  }
});

describe('./bulkhead checks root and the host packages before it runs the node agent', () => {
  const withoutRuncConmon = hostCommands.filter((c) => c !== 'runc' && c !== 'conmon');
  const rows: {
    name: string;
    args: string[];
    uid: number;
    present: readonly string[];
    aptInstalls?: boolean;
    code: number;
    ran: boolean;
    stderr: RegExp;
    apt?: string;
  }[] = [
    { name: 'up as root with every package: runs, installs nothing', args: ['up'], uid: 0, present: hostCommands, code: 0, ran: true, stderr: /^$/ },
    {
      name: 'up as root without runc and conmon: says so, installs them, then runs',
      args: ['up'],
      uid: 0,
      present: withoutRuncConmon,
      aptInstalls: true,
      code: 0,
      ran: true,
      stderr: /^bulkhead: installing the host packages the node agent needs \(first run\): runc conmon…\n/,
      apt: 'update\ninstall -y runc conmon\n',
    },
    {
      name: 'agent as root when apt-get cannot install: one line naming what is missing, no start',
      args: ['agent', '--kubeconfig', 'k'],
      uid: 0,
      present: withoutRuncConmon,
      aptInstalls: false,
      code: 1,
      ran: false,
      apt: 'update\ninstall -y runc conmon\n',
      stderr: /\nbulkhead: the node agent needs runc conmon, which scripts\/install-host-deps.sh could not install \(see above\); install them and run again\n$/,
    },
    {
      name: 'up as a user: one line saying it needs root, nothing installed',
      args: ['up'],
      uid: 1000,
      present: [],
      code: 1,
      ran: false,
      stderr: /^bulkhead: `bulkhead up` needs root: its node agent creates cgroups and runs containers with runc \(run it as root; `bulkhead server` runs the API server alone\)\n$/,
    },
    { name: 'up --help as a user: help needs neither root nor packages', args: ['up', '--help'], uid: 1000, present: [], code: 0, ran: true, stderr: /^$/ },
    { name: 'plan as a user: no node agent, no checks', args: ['plan', 'examples/'], uid: 1000, present: [], code: 0, ran: true, stderr: /^$/ },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const repo = checkout();
      const { bin, aptLog } = fakePath({ uid: row.uid, present: row.present, aptInstalls: row.aptInstalls ?? false });
      const r = bash(join(repo, 'bulkhead'), row.args, bin);
      assert.match(r.stderr, row.stderr);
      assert.equal(r.code, row.code, r.stderr);
      assert.equal(r.stdout.includes(`node ran: --max-semi-space-size=8 ${repo}/dist/bin/main.js ${row.args.join(' ')}`), row.ran, r.stdout);
      assert.equal(existsSync(aptLog) ? readFileSync(aptLog, 'utf8') : '', row.apt ?? '');
    });
  }
});

describe('the README quick start is the two commands, as root', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
  const rows: { name: string; pattern: RegExp; present: boolean }[] = [
    { name: 'says as root', pattern: /as root/i, present: true },
    { name: 'no sudo (the user is root; there may be no sudo)', pattern: /sudo/, present: false },
    { name: 'starts the cluster with ./bulkhead up', pattern: /^\.\/bulkhead up\b/m, present: true },
    { name: 'points kubectl at it and applies the examples', pattern: /^export KUBECONFIG=\$PWD\/\.bulkhead\/kubeconfig\nkubectl apply -f examples\//m, present: true },
    { name: 'runs the suite with ./run-tests', pattern: /^\.\/run-tests\b/m, present: true },
  ];
  for (const row of rows) it(row.name, () => assert.equal(row.pattern.test(quick), row.present, quick));
});
