// openStore: the `--store` spec.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/storage/index.js';
import { MemoryStore } from '../../src/storage/memory.js';
import { SqliteStore } from '../../src/storage/sqlite.js';
import { tempDir } from './backends.js';

describe('openStore', () => {
  it('memory: opens an in-process store', async () => {
    const s = await openStore('memory:');
    assert.ok(s instanceof MemoryStore);
    await s.close();
  });

  it('sqlite:PATH and a bare PATH open the SQLite store at PATH', async () => {
    const dir = tempDir('spec');
    try {
      const a = await openStore(`sqlite:${join(dir, 'a.db')}`);
      assert.ok(a instanceof SqliteStore);
      assert.equal(a.path, join(dir, 'a.db'));
      await a.close();
      const b = await openStore(join(dir, 'b.db'));
      assert.ok(b instanceof SqliteStore);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const refused: [spec: string, message: RegExp][] = [
    ['etcd:https://10.0.0.1:2379,https://10.0.0.2:2379', /names no etcd member; use etcd:\/\/HOST:PORT\[,HOST:PORT…\]/],
    ['etcd://', /names no etcd member/],
    ['etcd://10.0.0.1:2379,10.0.0.2', /"10.0.0.2" is not HOST:PORT/],
    ['etcd://10.0.0.1:99999', /"10.0.0.1:99999" is not HOST:PORT/],
    ['postgres://db/bulkhead', /storage engine "postgres" is not available; supported: sqlite:PATH, memory:, etcd:\/\/HOST:PORT/],
    ['sqlite:', /names no file/],
    ['memory:extra', /takes no argument/],
    ['', /empty store spec; supported: sqlite:PATH, memory:, etcd:/],
  ];
  for (const [spec, message] of refused) {
    it(`refuses ${JSON.stringify(spec)}`, async () => {
      await assert.rejects(openStore(spec), message);
    });
  }
});
