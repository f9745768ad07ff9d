// The CLI's V8 code cache (src/cli/compilecache.ts): a cache is used only for the same script
// bytes, runtime and command, and whatever is wrong with it (missing, damaged, not V8's, made
// under other flags, unwritable) the script is compiled and runs as without one. Each load runs
// in its own process, as each command does (a process's own compilation cache would answer a
// second load of the same source before the file is looked at).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cacheFileName, maxCacheFiles } from '../../src/cli/compilecache.js';

const moduleUrl = new URL('../../src/cli/compilecache.js', import.meta.url).href;
const root = mkdtempSync(join(tmpdir(), 'bulkhead-compilecache-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Load {
  state: string;
  value: number;
  saved: boolean;
}

/** Loads `file` with the cache in `cacheDir` in a new process, calls its function with 6 and saves the cache. */
function load(file: string, cacheDir: string, opts: { flagsBeforeSave?: string } = {}): Load {
  const code = `
    import { runCached } from ${JSON.stringify(moduleUrl)};
    import { setFlagsFromString } from 'node:v8';
    const r = runCached(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, 'plan');
    const value = r.value(6);
    ${opts.flagsBeforeSave ? `setFlagsFromString(${JSON.stringify(opts.flagsBeforeSave)});` : ''}
    console.log(JSON.stringify({ state: r.state, value, saved: r.save() }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Load;
}

let n = 0;
/**
 * A script of its own (a process-wide name: no two rows share a source) and an empty cache dir;
 * `padBytes` of comment make it as large as the CLI's (whose cache is read into its bytes' buffer,
 * and whose string Node keeps outside V8's heap from 1 MiB on).
 */
function fixture(body = 'n * 7', padBytes = 0): { file: string; dir: string } {
  const d = join(root, String(++n));
  const file = join(d, 'script.cjs');
  const dir = join(d, 'cache');
  // A few functions, so that the cache holds more than the top level.
  const helpers = Array.from({ length: 20 }, (_, i) => `function f${i}(x) { return x + ${i} - ${i}; }`).join('\n');
  mkdirSync(d, { recursive: true });
  writeFileSync(file, `(function (n) { ${helpers}\n return f0(f1(${body})); /* row ${n} ${Math.random()} ${'x'.repeat(padBytes)} */ })`);
  return { file, dir };
}

/** The one cache file in `dir`. */
function cacheFile(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.v8'));
  assert.equal(files.length, 1, `cache files: ${files.join(' ')}`);
  return join(dir, files[0]!);
}

describe('compile cache: used only when it is for these bytes, and never needed', () => {
  it('no cache: compiled, runs, and the cache is written; the next process takes it', () => {
    const { file, dir } = fixture();
    assert.deepEqual(load(file, dir), { state: 'none', value: 42, saved: true });
    assert.deepEqual(load(file, dir), { state: 'accepted', value: 42, saved: false });
  });

  it('a script of the CLI\'s size (2 MiB), its cache read into the buffer its bytes were read into: taken, runs', () => {
    const { file, dir } = fixture('n * 7', 2 << 20);
    assert.deepEqual(load(file, dir), { state: 'none', value: 42, saved: true });
    assert.deepEqual(load(file, dir), { state: 'accepted', value: 42, saved: false });
    // The bytes are the script's: a changed one is a new script, and its cache is its own.
    writeFileSync(file, readFileSync(file, 'latin1').replace('n * 7', 'n * 8'));
    assert.deepEqual(load(file, dir), { state: 'none', value: 48, saved: true });
    assert.deepEqual(load(file, dir), { state: 'accepted', value: 48, saved: false });
  });

  const damaged: [string, (data: Buffer) => Buffer][] = [
    ['a payload byte changed (its sha256 no longer holds)', (d) => Buffer.concat([d.subarray(0, d.length - 1), Buffer.from([d[d.length - 1]! ^ 0xff])])],
    ['cut short', (d) => d.subarray(0, d.length >> 1)],
    ['shorter than its checksum', (d) => d.subarray(0, 10)],
    ['empty', () => Buffer.alloc(0)],
  ];
  for (const [what, damage] of damaged) {
    it(`a damaged cache file (${what}) is not given to V8: compiled, runs, written again`, () => {
      const { file, dir } = fixture();
      load(file, dir);
      const path = cacheFile(dir);
      writeFileSync(path, damage(readFileSync(path)));
      assert.deepEqual(load(file, dir), { state: 'none', value: 42, saved: true });
      assert.deepEqual(load(file, dir), { state: 'accepted', value: 42, saved: false });
    });
  }

  it('a file whose checksum holds but whose payload is not V8\'s: V8 refuses it, compiled, runs, written again', () => {
    const { file, dir } = fixture();
    load(file, dir);
    const junk = Buffer.from('not a code cache '.repeat(100));
    writeFileSync(cacheFile(dir), Buffer.concat([createHash('sha256').update(junk).digest(), junk]));
    assert.deepEqual(load(file, dir), { state: 'rejected', value: 42, saved: true });
    assert.deepEqual(load(file, dir), { state: 'accepted', value: 42, saved: false });
  });

  it('a cache made after the flags changed (as server and plan change the heap\'s growth): not taken, compiled, runs', () => {
    const { file, dir } = fixture();
    load(file, dir, { flagsBeforeSave: '--heap-growing-percent=30' });
    // V8 makes no code under flags other than the script's (an empty payload: 'none') or
    // refuses what it made ('rejected'); either way the script is compiled.
    const { state, ...rest } = load(file, dir);
    assert.notEqual(state, 'accepted');
    assert.deepEqual(rest, { value: 42, saved: true });
    assert.deepEqual(load(file, dir), { state: 'accepted', value: 42, saved: false });
  });

  it('the script changed (same length, other bytes): the old cache is not looked at, the new script runs', () => {
    const { file, dir } = fixture('n * 7');
    load(file, dir);
    const before = readFileSync(file, 'latin1');
    const after = before.replace('n * 7', 'n * 8');
    assert.equal(after.length, before.length);
    writeFileSync(file, after);
    assert.deepEqual(load(file, dir), { state: 'none', value: 48, saved: true });
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.v8')).length, 2);
  });

  it('an unwritable cache directory (a file in its place): compiled, runs, nothing saved, no error', () => {
    const { file, dir } = fixture();
    writeFileSync(dir, 'a file, not a directory');
    assert.deepEqual(load(file, dir), { state: 'none', value: 42, saved: false });
    assert.deepEqual(load(file, dir), { state: 'none', value: 42, saved: false });
  });

  it('a save leaves no temporary file behind', () => {
    const { file, dir } = fixture();
    load(file, dir);
    assert.deepEqual(readdirSync(dir).filter((f) => !f.endsWith('.v8')), []);
  });

  it('a save keeps at most maxCacheFiles, removing the least recently written (each way of running adds one)', () => {
    const { file, dir } = fixture();
    mkdirSync(dir, { recursive: true });
    const stale = Array.from({ length: maxCacheFiles + 3 }, (_, i) => join(dir, `plan-stale${String(i).padStart(2, '0')}.v8`));
    stale.forEach((f, i) => {
      writeFileSync(f, 'old');
      const t = new Date(Date.UTC(2026, 0, 1, 0, i));
      utimesSync(f, t, t);
    });
    writeFileSync(join(dir, 'notes.txt'), 'not a cache file');
    assert.equal(load(file, dir).saved, true);
    const left = readdirSync(dir).filter((f) => f.endsWith('.v8'));
    assert.equal(left.length, maxCacheFiles);
    assert.equal(left.filter((f) => !f.startsWith('plan-stale')).length, 1, `the new cache is kept: ${left.join(' ')}`);
    // The newest stale files stay, the oldest go.
    assert.deepEqual(left.filter((f) => f.startsWith('plan-stale')).sort(), stale.slice(-(maxCacheFiles - 1)).map((f) => f.slice(dir.length + 1)));
    assert.ok(readdirSync(dir).includes('notes.txt'), 'only cache files are pruned');
  });
});

describe('compile cache file name: the script\'s bytes, the runtime and the command', () => {
  const src = Buffer.from('(function () { return 1; })');
  const rows: [string, string, string][] = [
    ['other bytes of the same length', cacheFileName(src, 'plan', 'v20 x64'), cacheFileName(Buffer.from('(function () { return 2; })'), 'plan', 'v20 x64')],
    ['another Node.js version, architecture or flags', cacheFileName(src, 'plan', 'v20 x64'), cacheFileName(src, 'plan', 'v20 x64 --max-semi-space-size=8')],
    ['another command', cacheFileName(src, 'plan', 'v20 x64'), cacheFileName(src, 'server', 'v20 x64')],
  ];
  for (const [what, a, b] of rows) it(`differs for ${what}`, () => assert.notEqual(a, b));
  it('is the same for the same bytes, runtime and command', () => assert.equal(cacheFileName(Buffer.from(src), 'plan', 'v20 x64'), cacheFileName(src, 'plan', 'v20 x64')));
  it('names the command, or "other" for what is no command name', () => {
    assert.match(cacheFileName(src, 'plan-help', 'r'), /^plan-help-[0-9a-f]{40}\.v8$/);
    assert.match(cacheFileName(src, '--version', 'r'), /^other-[0-9a-f]{40}\.v8$/);
    assert.match(cacheFileName(src, '../../etc', 'r'), /^other-/);
  });
});
