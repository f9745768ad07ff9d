import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { busyboxTags, ensureBusyboxImage, parseBusyboxVersion } from '../../../src/agent/images/busybox.js';
import { removeTree } from '../../../src/agent/images/layer.js';
import { ImageStore } from '../../../src/agent/images/store.js';
import { isStaticElf } from '../../../src/agent/runtime/rootfs.js';

describe('busybox version and tags', () => {
  const rows: { line: string; version: string | undefined; tags: string[] }[] = [
    { line: 'BusyBox v1.36.1 (Debian 1:1.36.1-9) multi-call binary.', version: '1.36.1', tags: ['busybox:1.36.1', 'busybox:1.36', 'busybox:latest'] },
    { line: 'BusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1) multi-call binary.', version: '1.35.0', tags: ['busybox:1.35.0', 'busybox:1.35', 'busybox:latest'] },
    { line: 'BusyBox v1.37 multi-call binary.', version: '1.37', tags: ['busybox:1.37', 'busybox:latest'] },
    { line: 'something else', version: undefined, tags: ['busybox:latest'] },
  ];
  for (const r of rows) {
    it(JSON.stringify(r.line), () => {
      assert.equal(parseBusyboxVersion(r.line), r.version);
      assert.deepEqual(busyboxTags(r.version), r.tags);
    });
  }
});

const hostBusybox = '/bin/busybox';
const skipReason = !existsSync(hostBusybox)
  ? `${hostBusybox} is absent (apt-get install busybox-static)`
  : !isStaticElf(hostBusybox)
    ? `${hostBusybox} is not static (apt-get install busybox-static)`
    : undefined;
if (skipReason) console.error(`SKIPPING the host busybox image test: ${skipReason}`);

describe('ensureBusyboxImage', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'bulkhead-busybox-test-'));
  after(() => removeTree(tmp));

  it('says what to install when busybox is missing', async () => {
    await assert.rejects(ensureBusyboxImage(new ImageStore(join(tmp, 'none')), { busybox: join(tmp, 'no-busybox') }), /install busybox-static/);
  });

  it('builds busybox:latest from the host busybox, idempotently', { skip: skipReason ?? false }, async () => {
    const store = new ImageStore(join(tmp, 'store'));
    const img = await ensureBusyboxImage(store);
    const r = img.rootfs;
    assert.equal(readlinkSync(join(r, 'bin/sh')), 'busybox');
    assert.equal(statSync(join(r, 'bin/busybox')).mode & 0o777, 0o755);
    const applets = execFileSync(hostBusybox, ['--list'], { encoding: 'utf8' }).split('\n').filter((a) => a !== '' && a !== 'busybox');
    const missing = applets.filter((a) => !lstatSync(join(r, 'bin', a), { throwIfNoEntry: false })?.isSymbolicLink());
    assert.deepEqual(missing, []);
    for (const d of ['proc', 'sys', 'dev', 'tmp']) assert.ok(statSync(join(r, d)).isDirectory(), d);
    assert.equal(statSync(join(r, 'tmp')).mode & 0o7777, 0o1777);
    assert.match(readFileSync(join(r, 'etc/passwd'), 'utf8'), /^root:x:0:0:/);
    assert.match(readFileSync(join(r, 'etc/group'), 'utf8'), /^root:x:0:/);
    assert.deepEqual(img.config.cmd, ['sh']);
    assert.ok(img.config.env.some((e) => e.startsWith('PATH=') && e.includes('/bin')));
    assert.equal(img.source, 'built');
    const version = parseBusyboxVersion(execFileSync(hostBusybox, ['--help'], { encoding: 'utf8' }).split('\n')[0]!);
    for (const t of busyboxTags(version)) assert.equal((await store.resolve(t))?.id, img.id, t);
    assert.equal((await store.resolve('docker.io/library/busybox'))?.id, img.id);
    assert.equal(execFileSync(join(r, 'bin/busybox'), ['echo', 'hello'], { encoding: 'utf8' }), 'hello\n');

    const again = await ensureBusyboxImage(store);
    assert.equal(again.id, img.id, 'same host binary, same image');
    assert.equal((await store.list()).length, 1);
    // A fresh store builds the very same image ID (deterministic layer and config).
    const other = await ensureBusyboxImage(new ImageStore(join(tmp, 'store2')));
    assert.equal(other.id, img.id);
  });
});
