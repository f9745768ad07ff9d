// The attach session's rules (streaming/attach.ts attachProcess), on a fake runtime input and a
// log file in a temporary directory: which sessions get the container's stdin, what a runtime
// without stdin does, how the session's end reaches the input, and who gets terminal sizes.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import type { ContainerInput, RunningInstance } from '../../../src/agent/runtime/runtime.js';
import { attachProcess, type AttachHost } from '../../../src/agent/streaming/attach.js';

const dir = mkdtempSync(join(tmpdir(), 'bulkhead-attach-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Fake {
  host: AttachHost;
  inputs: { id: string; closed: boolean; input: ContainerInput }[];
  resizes: string[];
  stop(): void;
}

function fake(o: { input?: boolean; attachFails?: string } = {}): Fake {
  let alive = true;
  const f: Fake = {
    inputs: [],
    resizes: [],
    stop: () => void (alive = false),
    host: {
      running: () => alive,
      resizeTerminal: (id, w, h) => void f.resizes.push(`${id} ${w}x${h}`),
    },
  };
  if (o.input !== false) {
    f.host.attachInput = (id) => {
      const rec = { id, closed: false, input: undefined as unknown as ContainerInput };
      const stdin = new PassThrough();
      stdin.resume();
      rec.input = {
        stdin,
        attached: o.attachFails ? Promise.reject(new Error(o.attachFails)) : Promise.resolve(),
        inputDone: new Promise<void>((resolve) => stdin.once('end', resolve)),
        close: () => void (rec.closed = true),
      };
      rec.input.attached.catch(() => undefined);
      f.inputs.push(rec);
      return rec.input;
    };
  }
  return f;
}

let seq = 0;
function inst(extra: Partial<RunningInstance> = {}): RunningInstance {
  const logPath = join(dir, `c${++seq}.log`);
  writeFileSync(logPath, '');
  return { id: `c${seq}`, logPath, ...extra };
}

describe('attach sessions (streaming/attach.ts)', () => {
  const rows: { rule: string; inst: Partial<RunningInstance>; clientStdin: boolean; runtimeInput?: boolean; stdin: boolean; inputs: number }[] = [
    { rule: 'a container started with stdin: the client\'s stdin goes to the runtime\'s input', inst: { stdin: 'once' }, clientStdin: true, stdin: true, inputs: 1 },
    { rule: 'stdin left open (no stdinOnce) is attached the same way', inst: { stdin: 'open' }, clientStdin: true, stdin: true, inputs: 1 },
    { rule: 'a container without stdin: the client\'s stdin is dropped, as the CRI runtimes drop it', inst: {}, clientStdin: true, stdin: false, inputs: 0 },
    { rule: 'a client that sends no stdin does not attach to it (stdinOnce is not spent)', inst: { stdin: 'once' }, clientStdin: false, stdin: false, inputs: 0 },
  ];
  for (const row of rows) {
    it(row.rule, async () => {
      const f = fake();
      const p = attachProcess(inst(row.inst), f.host, { stdin: row.clientStdin });
      assert.equal(p.stdin !== undefined, row.stdin);
      assert.equal(f.inputs.length, row.inputs);
      if (row.inputs) assert.equal(p.stdin, f.inputs[0]!.input.stdin);
      f.stop();
      assert.equal(await p.exited, 0);
      assert.ok(f.inputs.every((i) => i.closed), 'the container ended: the input is closed');
    });
  }

  const eofRows: { rule: string; inst: Partial<RunningInstance>; ends: boolean }[] = [
    { rule: 'stdin left open, no terminal: the session ends at the client\'s EOF (CRI-O\'s AttachContainer)', inst: { stdin: 'open' }, ends: true },
    { rule: 'stdinOnce: the session goes on after the client\'s EOF, until the container ends', inst: { stdin: 'once' }, ends: false },
    { rule: 'stdin left open with a terminal: the session goes on after the client\'s EOF', inst: { stdin: 'open', tty: true }, ends: false },
  ];
  for (const row of eofRows) {
    it(row.rule, { timeout: 30_000 }, async () => {
      const f = fake();
      const p = attachProcess(inst(row.inst), f.host, { stdin: true });
      p.stdin!.end('last\n');
      await f.inputs[0]!.input.inputDone;
      await new Promise((r) => setImmediate(r));
      // Ending is decided when the EOF has been passed on: the input is closed then, or not.
      assert.equal(f.inputs[0]!.closed, row.ends);
      if (!row.ends) f.stop();
      assert.equal(await p.exited, 0);
    });
  }

  it('the client going away closes the input (conmon then closes a stdinOnce container\'s stdin)', async () => {
    const f = fake();
    const p = attachProcess(inst({ stdin: 'once' }), f.host, { stdin: true });
    p.kill();
    assert.equal(f.inputs[0]!.closed, true);
    assert.equal(await p.exited, 0);
  });

  it('a runtime without attach input fails the session of a stdin container, saying so', async () => {
    const f = fake({ input: false });
    const p = attachProcess(inst({ stdin: 'once' }), f.host, { stdin: true });
    await assert.rejects(p.exited, /this node's container runtime does not serve stdin to attach sessions/);
    const out = attachProcess(inst({ stdin: 'once' }), f.host, { stdin: false });
    f.stop();
    assert.equal(await out.exited, 0, 'an output-only session needs no input');
  });

  it('an input that cannot attach fails the session with its reason', async () => {
    const f = fake({ attachFails: 'attaching stdin needs perl on the node' });
    const p = attachProcess(inst({ stdin: 'open' }), f.host, { stdin: true });
    await assert.rejects(p.exited, /attaching stdin needs perl on the node/);
  });

  it('terminal sizes (the first, then each resize) reach a tty container only', async () => {
    const f = fake();
    const tty = attachProcess(inst({ stdin: 'once', tty: true }), f.host, { stdin: true, size: { width: 100, height: 30 } });
    tty.resize(120, 40);
    const plain = attachProcess(inst({ stdin: 'once' }), f.host, { stdin: true, size: { width: 100, height: 30 } });
    plain.resize(120, 40);
    assert.deepEqual(f.resizes, [`c${seq - 1} 100x30`, `c${seq - 1} 120x40`]);
    f.stop();
    await Promise.all([tty.exited, plain.exited]);
  });
});
