// conmon as the per-container monitor. The parser tests are pure; the others run real
// containers under conmon + runc on this kernel. They need root, conmon, runc, /bin/busybox
// (scripts/install-host-deps.sh) and a cgroup v1 memory hierarchy; otherwise they skip and say
// why on stderr. Every cgroup lives below /<hierarchy>/bulkhead-test-<random>/ and is removed in
// `after`, with the bundles, runc state, logs and exit files under one os.tmpdir() directory.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { buildBusyboxRootfs } from '../../../src/agent/runtime/rootfs.js';
import { adaptToHost, ociSpec, serializeSpec, type AdaptedContainer } from '../../../src/agent/runtime/ocispec.js';
import { probeCgroups, probeHost } from '../../../src/agent/runtime/hostprobe.js';
import { realKernelSkipReason, removeTestCgroups } from '../cgrouptrees.js';
import { Runc, RuncError } from '../../../src/agent/runtime/runc.js';
import {
  adopt, formatLogs, kubeTimestamp, MonitorError, monitorDir, NotStartedError, parseK8sFileLog, processAlive, readExit, readLogLines, readLogs, startMonitored, stopContainer, waitExit,
} from '../../../src/agent/monitor/conmon.js';
import { attachInput, resizeTerminal } from '../../../src/agent/monitor/attachsocket.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('k8s-file log parsing (pure)', () => {
  const text = [
    '2026-11-22T05:40:26.395786010+00:00 stdout F out1',
    '2026-11-22T05:40:26.395786010+00:00 stdout P partial',
    '2026-11-22T05:40:26.395893820+00:00 stderr F err1',
    '2026-11-22T05:40:26.597181895+00:00 stdout F  more',
    '2026-11-22T05:40:26.600000000+00:00 stderr F ',
    '2026-11-22T05:40:26.700000000+00:00 stdout P no end yet',
    '2026-11-22T05:40:26.800000000+00:00 stdout F being writ',
  ].join('\n');

  it('joins P fragments with the same stream\'s next F, keeps order of first fragments, drops the unterminated record', () => {
    assert.deepEqual(parseK8sFileLog(text), [
      { time: '2026-11-22T05:40:26.395786010+00:00', stream: 'stdout', text: 'out1', partial: false },
      { time: '2026-11-22T05:40:26.395786010+00:00', stream: 'stdout', text: 'partial more', partial: false },
      { time: '2026-11-22T05:40:26.395893820+00:00', stream: 'stderr', text: 'err1', partial: false },
      { time: '2026-11-22T05:40:26.600000000+00:00', stream: 'stderr', text: '', partial: false },
      { time: '2026-11-22T05:40:26.700000000+00:00', stream: 'stdout', text: 'no end yet', partial: true },
    ]);
  });

  it('formats like kubectl logs: --tail, --timestamps (Go RFC3339Nano, UTC), a partial last line without newline', () => {
    const lines = parseK8sFileLog(text);
    assert.equal(formatLogs(lines), 'out1\npartial more\nerr1\n\nno end yet');
    assert.equal(formatLogs(lines, { tailLines: 2 }), '\nno end yet');
    assert.equal(formatLogs(lines, { tailLines: 0 }), '');
    assert.equal(formatLogs(lines.slice(0, 1), { timestamps: true }), '2026-11-22T05:40:26.39578601Z out1\n');
    assert.equal(kubeTimestamp('2026-11-22T05:40:26.000000000+00:00'), '2026-11-22T05:40:26Z');
    assert.equal(kubeTimestamp('2026-11-22T07:40:26.5+02:00'), '2026-11-22T05:40:26.5Z');
  });

  it('a message with tabs or " F " inside survives; foreign lines are skipped', () => {
    const t = 'garbage\n2026-11-22T05:40:26.1+00:00 stdout F a\tb stdout F c\n';
    assert.deepEqual(parseK8sFileLog(t).map((l) => l.text), ['a\tb stdout F c']);
  });
});



const reason = realKernelSkipReason(['runc', 'conmon']);
if (reason) console.error(`test/agent/monitor/conmon.test: SKIPPING real-kernel conmon tests: ${reason}`);
const opts = reason ? { skip: reason } : {};
const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;


describe('conmon monitor on this host (real kernel)', opts, () => {
  let base = '';
  let rootfs = '';
  let stateDir = '';
  let exitDir = '';
  let runc: Runc;
  let adapted: AdaptedContainer;
  const ids: string[] = [];
  let seq = 0;

  before(async () => {
    if (reason) return;
    base = mkdtempSync(join(tmpdir(), 'bulkhead-monitor-test-'));
    rootfs = join(base, 'rootfs');
    stateDir = join(base, 'state');
    exitDir = join(base, 'exits');
    buildBusyboxRootfs(rootfs);
    adapted = adaptToHost({ oomScoreAdj: 500, rlimits: [] }, await probeHost());
    runc = new Runc({ root: stateDir });
    console.error(`monitor test: ${execFileSync('conmon', ['--version'], { encoding: 'utf8' }).split('\n')[0]}, ${await runc.version()}, top ${top}`);
  });

  after(async () => {
    if (reason) return;
    const problems: string[] = [];
    for (const id of ids) {
      // Our own containers only: kill, wait for our conmon to record the exit, delete.
      try {
        const st = await runc.state(id);
        if (st.status !== 'stopped') {
          await runc.kill(id, 'KILL').catch(() => undefined);
          await waitExit(exitDir, id, 5000);
        }
        await runc.delete(id, { force: true });
      } catch (e) {
        if (!(e instanceof RuncError && /does not exist/.test(e.message))) problems.push(`delete ${id}: ${(e as Error).message}`);
      }
      const pidFile = join(monitorDir(join(base, id)), 'conmon.pid');
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
      if (pid > 0 && processAlive(pid, 'conmon')) {
        // conmon exits right after writing the exit file; give it a moment before acting.
        for (let i = 0; i < 1500 && processAlive(pid, 'conmon'); i++) await new Promise((r) => setTimeout(r, 20));
        if (processAlive(pid, 'conmon')) {
          problems.push(`conmon ${pid} for ${id} still alive; killed`);
          process.kill(pid, 'SIGKILL');
        }
      }
    }
    problems.push(...removeTestCgroups(top));
    if (base) rmSync(base, { recursive: true, force: true });
    if (problems.length) throw new Error(`cleanup incomplete: ${problems.join('; ')}`);
  });

  function bundle(args: string[], oomScoreAdj = adapted.oomScoreAdj, terminal = false): { id: string; dir: string; logPath: string } {
    const id = `${top}-${++seq}`;
    const dir = join(base, id);
    mkdirSync(dir);
    const spec = ociSpec({ args, rootfs, cgroupsPath: `/${top}/${id}`, cgroupVersion: 1, oomScoreAdj, rlimits: adapted.rlimits, resources: { memory: { limit: 64n * 1024n * 1024n } }, pidsLimit: 64n });
    spec.process.terminal = terminal;
    writeFileSync(join(dir, 'config.json'), serializeSpec(spec));
    ids.push(id);
    return { id, dir, logPath: join(base, 'logs', `${id}.log`) };
  }

  it('stdout and stderr lines in order with their stream, exit code 3 from the exit file', async () => {
    // conmon reads each pipe on its own: writes to the two streams closer together than one
    // event-loop turn may be logged in either order (seen: "out1" and "part" before "err1"
    // written between them), so the script pauses at each switch of stream.
    const b = bundle(['sh', '-c', 'echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; printf "part"; sleep 0.1; echo "ial"; sleep 0.05; echo err2 >&2; exit 3']);
    const t0 = Date.now();
    const s = await startMonitored({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath });
    const tStart = Date.now() - t0;
    assert.ok(s.containerPid > 0 && s.conmonPid > 0);
    const code = await waitExit(exitDir, b.id, 5000);
    console.error(`monitor test: start ${tStart} ms, start→exit file ${Date.now() - t0} ms`);
    assert.equal(code, 3);
    assert.equal(readFileSync(join(exitDir, b.id), 'utf8'), '3', 'conmon writes the bare decimal code, no newline');
    assert.equal(readFileSync(join(monitorDir(b.dir), 'exit'), 'utf8'), '3', 'and the same into --persist-dir/exit');
    const lines = readLogLines(b.logPath);
    assert.deepEqual(lines.map((l) => [l.stream, l.text, l.partial]), [
      ['stdout', 'out1', false],
      ['stderr', 'err1', false],
      ['stdout', 'partial', false],
      ['stderr', 'err2', false],
    ]);
    for (const l of lines) assert.match(l.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}\+00:00$/);
    assert.equal(readLogs(b.logPath), 'out1\nerr1\npartial\nerr2\n');
    assert.equal(readLogs(b.logPath, { tailLines: 1 }), 'err2\n');
    assert.match(readFileSync(b.logPath, 'utf8'), / stdout P part\n.* stdout F ial\n/, 'the raw file has the P fragment');
    assert.deepEqual(await adopt(stateDir, exitDir, b.id), { state: 'exited', exitCode: 3, bundle: b.dir });
  });

  it('a create failure rejects with runc\'s message and leaves no exit file', async () => {
    const b = bundle(['true'], -5);
    await assert.rejects(startMonitored({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath }), (e: unknown) => {
      assert.ok(e instanceof MonitorError);
      assert.match(e.message, /failed to update \/proc\/self\/oom_score_adj: Permission denied/);
      return true;
    });
    assert.equal(readExit(exitDir, b.id), undefined);
  });

  it('startAfter: created at once, started when it resolves true; on false never started, deleted, conmon gone (NotStartedError)', async () => {
    const go = bundle(['sh', '-c', 'echo ran; exec sleep 30']);
    let release!: (v: boolean) => void;
    const started = startMonitored({ id: go.id, bundle: go.dir, stateDir, exitDir, logPath: go.logPath, startAfter: new Promise<boolean>((r) => (release = r)) });
    // Created (runc says so), the program not yet run.
    const runc = new Runc({ root: stateDir });
    for (let i = 0; i < 3000 && (await runc.state(go.id).catch(() => undefined))?.status !== 'created'; i++) await sleep(10);
    assert.equal((await runc.state(go.id)).status, 'created');
    await sleep(100);
    assert.equal(readLogs(go.logPath), '', 'nothing ran before startAfter resolved');
    release(true);
    const s = await started;
    assert.ok(s.containerPid > 0);
    assert.equal((await runc.state(go.id)).status, 'running');
    for (let i = 0; i < 3000 && readLogs(go.logPath) === ''; i++) await sleep(10);
    assert.equal(readLogs(go.logPath), 'ran\n');
    assert.equal(await stopContainer(runc, go.id, 0, { exitDir }), 137);

    const no = bundle(['sh', '-c', 'echo ran; exec sleep 30']);
    await assert.rejects(startMonitored({ id: no.id, bundle: no.dir, stateDir, exitDir, logPath: no.logPath, startAfter: Promise.resolve(false) }), (e: unknown) => e instanceof NotStartedError);
    assert.equal(readLogs(no.logPath), '', 'never ran');
    await assert.rejects(runc.state(no.id), /does not exist/);
    const conmonPid = Number(readFileSync(join(monitorDir(no.dir), 'conmon.pid'), 'utf8'));
    assert.equal(processAlive(conmonPid), false, 'conmon has ended');
  });

  it('survives an agent restart: started by a Node process that exits, adopted, SIGTERM → the shell exits 143', async () => {
    const b = bundle(['sh', '-c', 'trap "echo got TERM; exit 143" TERM; echo started; sleep 1000 & wait']);
    const mod = pathToFileURL(join(import.meta.dirname, '../../../src/agent/monitor/conmon.js')).href;
    const code = `const m = await import(${JSON.stringify(mod)}); const s = await m.startMonitored(${JSON.stringify({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath })}); console.log(JSON.stringify({ ...s, agentPid: process.pid }));`;
    const t0 = Date.now();
    const agent = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    agent.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    agent.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exit = await new Promise<number | null>((r) => agent.once('close', (c) => r(c)));
    console.error(`monitor test: "agent" process started the container and exited in ${Date.now() - t0} ms`);
    assert.equal(exit, 0, err);
    const s = JSON.parse(out) as { containerPid: number; conmonPid: number; agentPid: number };
    assert.equal(processAlive(s.agentPid), false);
    // conmon is not a child of the dead agent and not of this process.
    const ppid = Number(readFileSync(`/proc/${s.conmonPid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    assert.notEqual(ppid, s.agentPid);
    assert.notEqual(ppid, process.pid);

    const a = await adopt(stateDir, exitDir, b.id);
    assert.deepEqual(a, { state: 'running', containerPid: s.containerPid, conmonPid: s.conmonPid, bundle: b.dir });
    for (let i = 0; i < 3000 && !readLogs(b.logPath).includes('started'); i++) await new Promise((r) => setTimeout(r, 10));
    const t1 = Date.now();
    const code143 = await stopContainer(runc, b.id, 5, { exitDir });
    console.error(`monitor test: SIGTERM → exit file in ${Date.now() - t1} ms`);
    assert.equal(code143, 143);
    assert.equal(readLogs(b.logPath), 'started\ngot TERM\n');
    assert.deepEqual(await adopt(stateDir, exitDir, b.id), { state: 'exited', exitCode: 143, bundle: b.dir });
    // Starting again is refused: the monitor files say it was started before.
    await assert.rejects(startMonitored({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath }), /was started before/);
  });

  it('a container that ignores SIGTERM is SIGKILLed after a 1 s grace: 137', async () => {
    const b = bundle(['sh', '-c', "trap '' TERM; echo ready; sleep 100"]);
    await startMonitored({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath });
    for (let i = 0; i < 3000 && !readLogs(b.logPath).includes('ready'); i++) await new Promise((r) => setTimeout(r, 10));
    const t0 = Date.now();
    const code = await stopContainer(runc, b.id, 1, { exitDir });
    const ms = Date.now() - t0;
    console.error(`monitor test: TERM ignored, SIGKILL after grace, exit file after ${ms} ms`);
    assert.equal(code, 137);
    assert.ok(ms >= 1000, `${ms} ms: SIGKILL came before the 1 s grace was over`);
    assert.equal(await stopContainer(runc, b.id, 1, { exitDir }), 137, 'stopping an exited container yields its code');
  });

  it('adopt of an unknown id is absent', async () => {
    assert.deepEqual(await adopt(stateDir, exitDir, `${top}-none`), { state: 'absent' });
  });

  /** Waits (bounded) until the container's log includes `text`. */
  async function logged(logPath: string, text: string): Promise<string> {
    for (let i = 0; i < 3000 && !readLogs(logPath).includes(text); i++) await sleep(10);
    return readLogs(logPath);
  }

  // The container's stdin through conmon's attach socket (attachsocket.ts), one row per rule.
  const loop = 'while read l; do echo "got $l"; done; echo eof';
  const stdinRows: { name: string; args: string[]; once: boolean; sessions: { send: string; end: 'eof' | 'close' }[]; log: string; running: boolean }[] = [
    { name: 'stdinOnce: what the first session sends, then its EOF closes the container\'s stdin', args: ['sh', '-c', 'cat; echo done'], once: true, sessions: [{ send: 'hi\n', end: 'eof' }], log: 'hi\ndone\n', running: false },
    { name: 'stdinOnce: a session that goes away without EOF closes it too', args: ['sh', '-c', loop], once: true, sessions: [{ send: 'one\n', end: 'close' }], log: 'got one\neof\n', running: false },
    { name: 'without stdinOnce: stdin stays open across sessions, each one\'s input arrives', args: ['sh', '-c', loop], once: false, sessions: [{ send: 'one\n', end: 'eof' }, { send: 'two\n', end: 'close' }], log: 'got one\ngot two\n', running: true },
  ];
  for (const row of stdinRows) {
    it(`attach stdin: ${row.name}`, async () => {
      const b = bundle(row.args);
      await startMonitored({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath, stdin: { once: row.once } });
      let expected = '';
      for (const sess of row.sessions) {
        const a = attachInput(b.dir);
        await a.attached;
        a.stdin.write(sess.send);
        expected += sess.send.replace(/^(.*)\n$/, row.args.includes(loop) ? 'got $1\n' : '$1\n');
        await logged(b.logPath, expected);
        if (sess.end === 'eof') {
          a.stdin.end();
          await a.inputDone;
        } else a.close();
        if (sess.end === 'close') await a.ended;
      }
      if (!row.running) {
        assert.equal(await waitExit(exitDir, b.id, 10000), 0);
        assert.equal(readLogs(b.logPath), row.log);
      } else {
        // The loop has not read EOF: it still runs, and has printed no "eof".
        assert.equal(readExit(exitDir, b.id), undefined);
        assert.equal(await logged(b.logPath, row.log), row.log);
        assert.equal(await stopContainer(runc, b.id, 0, { exitDir }), 137);
        assert.equal(readLogs(b.logPath), row.log);
      }
    });
  }

  it('attach stdin never stalls the container\'s output: a container that stops reading its stdin while a client sends more', async () => {
    const b = bundle(['sh', '-c', 'read l; yes "out $l" | head -n 300000; echo finished; exec sleep 1000']);
    await startMonitored({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath, stdin: { once: false } });
    const a = attachInput(b.dir);
    await a.attached;
    a.stdin.write('go\n');
    // 4 MiB the container never reads: its pipe fills, conmon stops reading the socket, the
    // socket fills; meanwhile the 300000 lines of output must still reach the log.
    const junk = Buffer.alloc(1 << 16, 0x78);
    for (let i = 0; i < 64; i++) a.stdin.write(junk);
    let log = '';
    for (let i = 0; i < 6000 && !log.includes('finished'); i++) {
      await sleep(10);
      log = readFileSync(b.logPath, 'utf8').slice(-200);
    }
    assert.match(log, /finished/);
    a.close();
    await a.ended;
    assert.equal(await stopContainer(runc, b.id, 0, { exitDir }), 137);
  });

  it('attach stdin with a terminal: input reaches the pty, the size set through conmon\'s ctl FIFO is the one the command sees', async () => {
    const b = bundle(['sh', '-c', 'read l; stty size; echo "got $l"'], adapted.oomScoreAdj, true);
    await startMonitored({ id: b.id, bundle: b.dir, stateDir, exitDir, logPath: b.logPath, stdin: { once: true }, tty: true });
    assert.equal(resizeTerminal(b.dir, 100, 30), true);
    const a = attachInput(b.dir);
    await a.attached;
    a.stdin.write('x\n');
    assert.equal(await waitExit(exitDir, b.id, 10000), 0);
    a.close();
    const log = readLogs(b.logPath).replace(/\r/g, '');
    assert.match(log, /^30 100$/m);
    assert.match(log, /^got x$/m);
  });

  it('attach stdin fails clearly: no attach socket, no perl', async () => {
    await assert.rejects(attachInput(base).attached, /attach to the container's stdin failed: connect attach: No such file or directory/);
    await assert.rejects(attachInput(base, { perl: join(base, 'no-perl') }).attached, /attaching stdin needs perl on the node \(Debian's perl-base\)/);
    assert.equal(resizeTerminal(base, 80, 24), false);
  });
});
