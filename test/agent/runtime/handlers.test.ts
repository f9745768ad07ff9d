// HandlerRuntimes (src/agent/runtime/handlers.ts): which runtime each call goes to, one row per
// rule, over two recording stand-ins. Creation follows the bundle's handler annotation (none: the
// default), later calls the runtime that created the id, and after a restart (nothing
// remembered) the runtime whose state directory holds the id.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HandlerRuntimes, runtimeHandlerAnnotation, type HandlerRuntime } from '../../../src/agent/runtime/handlers.js';
import type { ContainerInput, ContainerRuntime } from '../../../src/agent/runtime/runtime.js';

function recorder(name: string, log: string[], exitDir: string): ContainerRuntime {
  const rec = (op: string) => async (id: string) => void log.push(`${name} ${op} ${id}`);
  return {
    exitDir,
    version: async () => `${name} version 1`,
    runDetached: async (id) => (log.push(`${name} runDetached ${id}`), 1),
    startMonitored: async (id, _b, _l, opts) => (log.push(`${name} startMonitored ${id}${opts?.tty ? ' tty' : ''}`), { containerPid: 1 }),
    kill: rec('kill'),
    delete: rec('delete'),
    state: async (id) => (log.push(`${name} state ${id}`), undefined),
    list: async () => [{ id: `${name}-c`, pid: 1, status: 'running', bundle: '', created: '' }],
    monitorAlive: () => false,
    readExit: () => undefined,
    exec: () => {
      throw new Error('not here');
    },
    attachInput: (id) => (log.push(`${name} attachInput ${id}`), {} as ContainerInput),
    resizeTerminal: (id, _b, w, h) => (log.push(`${name} resizeTerminal ${id} ${w}x${h}`), true),
  };
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-handlers-'));
  const log: string[] = [];
  const exitDir = join(dir, 'exits');
  const runc: HandlerRuntime = { runtime: recorder('runc', log, exitDir), stateRoot: join(dir, 'runc') };
  const crun: HandlerRuntime = { runtime: recorder('crun', log, exitDir), stateRoot: join(dir, 'crun') };
  const bundle = (id: string, handler?: string) => {
    const b = join(dir, 'bundles', id);
    mkdirSync(b, { recursive: true });
    writeFileSync(join(b, 'config.json'), JSON.stringify({ annotations: handler ? { [runtimeHandlerAnnotation]: handler } : {} }));
    return b;
  };
  const make = () => new HandlerRuntimes(new Map([['', runc], ['runc', runc], ['crun', crun]]), '');
  return { dir, log, runc, crun, bundle, make };
}

describe('HandlerRuntimes', () => {
  const rows: { rule: string; run(s: ReturnType<typeof setup>): Promise<string[]> | string[]; want: string[] }[] = [
    {
      rule: 'a bundle naming crun is created by crun, and later calls for its id go there too',
      run: async (s) => {
        const rt = s.make();
        await rt.runDetached('a', s.bundle('a', 'crun'), { pidFile: '', logPath: '' });
        await rt.kill('a', 'KILL');
        await rt.state('a');
        return s.log;
      },
      want: ['crun runDetached a', 'crun kill a', 'crun state a'],
    },
    {
      rule: 'attach and terminal resizes of a crun container go to crun, with the start options passed through',
      run: async (s) => {
        const rt = s.make();
        const b = s.bundle('t', 'crun');
        await rt.startMonitored('t', b, '', { tty: true, stdin: { once: false } });
        rt.attachInput('t', b);
        rt.resizeTerminal('t', b, 80, 24);
        return s.log;
      },
      want: ['crun startMonitored t tty', 'crun attachInput t', 'crun resizeTerminal t 80x24'],
    },
    {
      rule: 'a bundle naming no handler goes to the default runtime',
      run: async (s) => {
        await s.make().startMonitored('b', s.bundle('b'), '');
        return s.log;
      },
      want: ['runc startMonitored b'],
    },
    {
      rule: 'a handler outside the set is refused before any runtime is called',
      run: async (s) => {
        await assert.rejects(s.make().runDetached('c', s.bundle('c', 'kata'), { pidFile: '', logPath: '' }), /no runtime for "kata" is configured/);
        return s.log;
      },
      want: [],
    },
    {
      rule: 'after a restart an id is found by the state directory that holds it',
      run: async (s) => {
        mkdirSync(join(s.crun.stateRoot, 'd'), { recursive: true });
        const rt = s.make();
        await rt.delete('d', { force: true });
        await rt.kill('unknown', 'KILL');
        return s.log;
      },
      want: ['crun delete d', 'runc kill unknown'],
    },
    {
      rule: 'list merges every runtime\'s containers, each runtime listed once',
      run: async (s) => (await s.make().list()).map((c) => c.id),
      want: ['runc-c', 'crun-c'],
    },
  ];
  for (const r of rows) {
    it(r.rule, async () => {
      const s = setup();
      try {
        assert.deepEqual(await r.run(s), r.want);
      } finally {
        rmSync(s.dir, { recursive: true, force: true });
      }
    });
  }
});
