import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { applyLayer, removeTree } from '../../../src/agent/images/layer.js';
import { ImageNotFoundError, ImageStore, type ImageRecord } from '../../../src/agent/images/store.js';
import { dir, file, hardlink, type LayerSpec, packDir, sha256, symlink, tarBuffer, writeDockerArchive, writeOciLayout } from './fixtures.js';

const amd64 = { os: 'linux', architecture: 'amd64' };

const base: LayerSpec['entries'] = [
  dir('etc/'),
  file('etc/keep', 'v1'),
  file('etc/gone', 'bye'),
  dir('data/'),
  file('data/old1', 'old'),
  dir('data/sub/'),
  file('data/sub/old2', 'old'),
  dir('bin/'),
  file('bin/tool', '#!/bin/sh\necho tool\n', 0o755),
  symlink('bin/link', 'tool'),
  hardlink('bin/hard', 'bin/tool'),
  dir('usr/'),
  dir('usr/lib/'),
  symlink('lib', '/usr/lib'),
  dir('ro/', 0o555),
  file('ro/f', 'f'),
];
const top: LayerSpec['entries'] = [
  file('etc/keep', 'v2'),
  file('etc/.wh.gone', ''),
  // Before the opaque marker on purpose: the marker only hides what lower layers made.
  file('data/new', 'new'),
  file('data/.wh..wh..opq', ''),
  file('lib/libx.so', 'elf'),
  file('ro/g', 'g'),
];
const config = { Env: ['PATH=/bin', 'FOO=bar'], Entrypoint: ['/bin/tool'], Cmd: ['--flag'], WorkingDir: '/data', User: '1000:1000' };

let tmp: string;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bulkhead-images-test-'));
});
after(async () => {
  await removeTree(tmp);
});
let n = 0;
const fresh = (label: string): string => {
  const p = join(tmp, `${label}-${n++}`);
  mkdirSync(p);
  return p;
};

/** Every image format the store takes, built with the same two layers. */
const formats: { name: string; build: (d: string) => string; ref: string }[] = [
  {
    name: 'OCI layout directory (gzip then plain layer)',
    ref: 'docker.io/library/fixture:1.0',
    build: (d) => {
      writeOciLayout(d, { layers: [{ entries: base, gzip: true }, { entries: top }], config, name: 'docker.io/library/fixture:1.0' });
      return d;
    },
  },
  {
    name: 'OCI layout tar (plain then gzip layer)',
    ref: 'docker.io/library/fixture:1.0',
    build: (d) => {
      writeOciLayout(join(d, 'layout'), { layers: [{ entries: base }, { entries: top, gzip: true }], config, name: 'fixture:1.0' });
      packDir(join(d, 'layout'), join(d, 'image.tar'));
      return join(d, 'image.tar');
    },
  },
  {
    name: 'OCI layout with an image index (arm64 first, amd64 taken)',
    ref: 'registry.example/team/fixture:2',
    build: (d) => {
      writeOciLayout(d, {
        layers: [{ entries: base, gzip: true }, { entries: top, gzip: true }],
        otherArch: [{ entries: [file('etc/keep', 'arm64')] }],
        config,
        name: 'registry.example/team/fixture:2',
      });
      return d;
    },
  },
  {
    name: 'docker-archive tar (gzip then plain layer)',
    ref: 'docker.io/library/fixture:1.0',
    build: (d) => {
      writeDockerArchive(join(d, 'archive'), { layers: [{ entries: base, gzip: true }, { entries: top }], config, repoTags: ['fixture:1.0', 'fixture:latest'] });
      packDir(join(d, 'archive'), join(d, 'image.tar'));
      return join(d, 'image.tar');
    },
  },
  {
    name: 'docker-archive directory (plain layers)',
    ref: 'docker.io/library/fixture:1.0',
    build: (d) => {
      writeDockerArchive(d, { layers: [{ entries: base }, { entries: top }], config, repoTags: ['fixture:1.0'] });
      return d;
    },
  },
];

/** What every format must give, one row per rule. */
const rootfsRules: { rule: string; check: (rootfs: string) => void }[] = [
  { rule: 'upper layer replaces a file', check: (r) => assert.equal(readFileSync(join(r, 'etc/keep'), 'utf8'), 'v2') },
  { rule: '.wh.<name> deletes a lower file', check: (r) => assert.equal(existsSync(join(r, 'etc/gone')), false) },
  { rule: 'opaque directory hides lower children', check: (r) => assert.deepEqual(readdirSync(join(r, 'data')).sort(), ['new']) },
  { rule: 'whiteout files are not written', check: (r) => assert.equal(existsSync(join(r, 'etc/.wh.gone')) || existsSync(join(r, 'data/.wh..wh..opq')), false) },
  { rule: 'file mode kept', check: (r) => assert.equal(statSync(join(r, 'bin/tool')).mode & 0o7777, 0o755) },
  { rule: 'symlink kept as a link', check: (r) => assert.equal(readlinkSync(join(r, 'bin/link')), 'tool') },
  { rule: 'hard link shares the inode', check: (r) => assert.equal(statSync(join(r, 'bin/hard')).ino, statSync(join(r, 'bin/tool')).ino) },
  {
    rule: 'absolute symlink followed inside the rootfs',
    check: (r) => {
      assert.equal(readFileSync(join(r, 'usr/lib/libx.so'), 'utf8'), 'elf');
      assert.equal(lstatSync(join(r, 'lib')).isSymbolicLink(), true);
    },
  },
  {
    rule: 'read-only directory mode applied after all layers',
    check: (r) => {
      assert.equal(statSync(join(r, 'ro')).mode & 0o777, 0o555);
      assert.deepEqual(readdirSync(join(r, 'ro')).sort(), ['f', 'g']);
    },
  },
];

const configRules: { rule: string; check: (img: ImageRecord) => void }[] = [
  { rule: 'Env', check: (i) => assert.deepEqual(i.config.env, ['PATH=/bin', 'FOO=bar']) },
  { rule: 'Entrypoint', check: (i) => assert.deepEqual(i.config.entrypoint, ['/bin/tool']) },
  { rule: 'Cmd', check: (i) => assert.deepEqual(i.config.cmd, ['--flag']) },
  { rule: 'WorkingDir', check: (i) => assert.equal(i.config.workingDir, '/data') },
  { rule: 'User', check: (i) => assert.equal(i.config.user, '1000:1000') },
  { rule: 'id is sha256 of the config', check: (i) => assert.match(i.id, /^sha256:[a-f0-9]{64}$/) },
  { rule: 'two diff IDs', check: (i) => assert.equal(i.diffIds.length, 2) },
  { rule: 'size counts the rootfs', check: (i) => assert.ok(i.size > 0) },
  { rule: 'architecture', check: (i) => assert.equal(i.architecture, 'amd64') },
];

for (const f of formats) {
  describe(`import: ${f.name}`, () => {
    let img: ImageRecord;
    let store: ImageStore;
    before(async () => {
      const d = fresh('fmt');
      store = new ImageStore(join(d, 'store'));
      const imported = await store.import(f.build(fresh('src')), { platform: amd64 });
      assert.equal(imported.length, 1);
      img = imported[0]!;
    });
    for (const r of rootfsRules) it(`rootfs: ${r.rule}`, () => r.check(img.rootfs));
    for (const r of configRules) it(`config: ${r.rule}`, () => r.check(img));
    it('is found by its reference', async () => {
      assert.ok(img.references.includes(f.ref), `${img.references.join(', ')} lacks ${f.ref}`);
      assert.equal((await store.resolve(f.ref))?.id, img.id);
    });
    it('leaves no temporary files', () => {
      assert.deepEqual(readdirSync(join(store.root, '.tmp')), []);
    });
  });
}

describe('refused layers', () => {
  const rows: { rule: string; entries: LayerSpec['entries']; error: RegExp }[] = [
    { rule: '".." entry', entries: [file('../evil', 'x')], error: /path traversal/ },
    { rule: '".." inside a path', entries: [dir('a/'), file('a/../../evil', 'x')], error: /path traversal/ },
    { rule: 'absolute path', entries: [file('/evil', 'x')], error: /absolute path/ },
    { rule: 'write through a symlink that climbs out', entries: [symlink('esc', '../../..'), file('esc/evil', 'x')], error: /escapes the image root/ },
    { rule: 'write through a nested climbing symlink', entries: [dir('a/'), symlink('a/up', '../..'), file('a/up/evil', 'x')], error: /escapes the image root/ },
    { rule: 'hard link to outside', entries: [hardlink('h', '../../etc/passwd')], error: /path traversal/ },
    { rule: 'hard link to an absolute path', entries: [hardlink('h', '/etc/passwd')], error: /absolute path/ },
    { rule: 'whiteout of ".."', entries: [dir('x/'), file('x/.wh...', '')], error: /no file name/ },
  ];
  for (const r of rows) {
    it(`refuses ${r.rule}`, async () => {
      const d = fresh('bad');
      const src = join(d, 'src');
      writeDockerArchive(src, { layers: [{ entries: [file('ok', 'ok')] }, { entries: r.entries, gzip: true }], config: {}, repoTags: ['bad:1'] });
      const store = new ImageStore(join(d, 'store'));
      await assert.rejects(store.import(src), (err: Error) => {
        assert.match(err.message, r.error);
        assert.match(err.message, /layer 2\/2/);
        return true;
      });
      assert.deepEqual(await store.list(), [], 'no image visible');
      assert.equal(await store.resolve('bad:1'), undefined);
      assert.deepEqual(readdirSync(join(store.root, '.tmp')), [], 'temporary unpack removed');
      assert.equal(existsSync(join(d, 'evil')) || existsSync(join(tmp, 'evil')), false, 'nothing written outside');
    });
  }

  it('an absolute symlink is resolved in the rootfs, never on the host', async () => {
    const d = fresh('abs');
    writeDockerArchive(join(d, 'src'), { layers: [{ entries: [symlink('hostetc', '/etc'), dir('etc/'), file('hostetc/bulkhead-marker', 'm')] }], config: {} });
    const store = new ImageStore(join(d, 'store'));
    const [img] = await store.import(join(d, 'src'));
    assert.equal(readFileSync(join(img!.rootfs, 'etc/bulkhead-marker'), 'utf8'), 'm');
    assert.equal(existsSync('/etc/bulkhead-marker'), false);
  });
});

describe('integrity and formats', () => {
  it('refuses a zstd layer with a clear error', async () => {
    const d = fresh('zstd');
    writeDockerArchive(join(d, 'src'), { layers: [{ entries: [file('a', 'a')] }], config: {} });
    writeFileSync(join(d, 'src/layer0/layer.tar'), Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(60)]));
    await assert.rejects(new ImageStore(join(d, 'store')).import(join(d, 'src')), /zstd-compressed layers are not supported/);
  });

  it('refuses an OCI blob whose content does not match its digest', async () => {
    const d = fresh('corrupt');
    writeOciLayout(d, { layers: [{ entries: [file('a', 'a')], gzip: true }], config: {}, name: 'corrupt:1' });
    const index = JSON.parse(readFileSync(join(d, 'index.json'), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(d, 'blobs/sha256', index.manifests[0].digest.slice(7)), 'utf8'));
    writeFileSync(join(d, 'blobs/sha256', manifest.layers[0].digest.slice(7)), tarBuffer([file('a', 'tampered')]));
    await assert.rejects(new ImageStore(join(d, 'store')).import(d), /digest mismatch/);
  });

  it('refuses a docker-archive layer that does not match the config diff ID', async () => {
    const d = fresh('diffid');
    const wrong = Buffer.from(JSON.stringify({ os: 'linux', architecture: 'amd64', config: {}, rootfs: { type: 'layers', diff_ids: [sha256(Buffer.from('x'))] } }));
    writeDockerArchive(join(d, 'src'), { layers: [{ entries: [file('a', 'a')] }], config: {}, configOverride: wrong });
    await assert.rejects(new ImageStore(join(d, 'store')).import(join(d, 'src')), /diff ID mismatch/);
  });

  it('says which platforms an index has when the wanted one is missing', async () => {
    const d = fresh('plat');
    writeOciLayout(d, { layers: [{ entries: [file('a', 'a')] }], otherArch: [{ entries: [file('b', 'b')] }], config: {}, name: 'multi:1' });
    await assert.rejects(new ImageStore(join(d, 'store')).import(d, { platform: { os: 'linux', architecture: 's390x' } }), /no linux\/s390x manifest \(it has: linux\/arm64\/v8, linux\/amd64\)/);
  });

  it('refuses a directory that is neither format', async () => {
    const d = fresh('neither');
    await assert.rejects(new ImageStore(join(d, 'store')).import(fresh('empty')), /neither an OCI image layout/);
  });
});

describe('layer files', () => {
  const full = tarBuffer([file('a', 'x'.repeat(5000)), file('b', 'y')]);
  const rows: { rule: string; bytes: Buffer; error?: RegExp; entries?: string[] }[] = [
    { rule: 'plain tar', bytes: full, entries: ['a', 'b'] },
    { rule: 'gzip tar (magic bytes, not the name)', bytes: gzipSync(full), entries: ['a', 'b'] },
    { rule: 'empty layer: no bytes', bytes: Buffer.alloc(0), entries: [] },
    { rule: 'empty layer: end-of-archive blocks only', bytes: Buffer.alloc(1024), entries: [] },
    { rule: 'empty layer: gzip of zero blocks', bytes: gzipSync(Buffer.alloc(10240)), entries: [] },
    { rule: 'truncated tar refused', bytes: full.subarray(0, 1500), error: /Truncated input/ },
    { rule: 'truncated gzip refused', bytes: gzipSync(full).subarray(0, 40), error: /unexpected end of file/ },
    { rule: 'garbage refused', bytes: Buffer.from('not a tar archive '.repeat(40)), error: /TAR_ENTRY_INVALID|TAR_BAD_ARCHIVE/ },
    { rule: 'xz refused by name', bytes: Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 0]), error: /xz-compressed layers are not supported/ },
  ];
  for (const r of rows) {
    it(r.rule, async () => {
      const d = fresh('layerfile');
      writeFileSync(join(d, 'layer'), r.bytes);
      mkdirSync(join(d, 'rootfs'));
      const run = applyLayer(join(d, 'rootfs'), join(d, 'layer'), { dirModes: new Map() });
      if (r.error) {
        await assert.rejects(run, r.error);
        return;
      }
      const res = await run;
      assert.equal(res.digest, sha256(r.bytes));
      assert.deepEqual(readdirSync(join(d, 'rootfs')).sort(), r.entries);
    });
  }
});

describe('store operations', () => {
  let store: ImageStore;
  let src: string;
  before(() => {
    store = new ImageStore(join(fresh('ops'), 'store'));
    src = fresh('ops-src');
    writeDockerArchive(src, { layers: [{ entries: base }, { entries: top }], config, repoTags: ['fixture:1.0'] });
  });

  it('re-import is idempotent: same ID, one image, rootfs not unpacked again', async () => {
    const [first] = await store.import(src);
    writeFileSync(join(first!.rootfs, 'marker'), 'kept');
    const [second] = await store.import(src, { references: ['registry.example/x/y:tag'] });
    assert.equal(second!.id, first!.id);
    assert.equal(readFileSync(join(second!.rootfs, 'marker'), 'utf8'), 'kept');
    rmSync(join(first!.rootfs, 'marker'));
    assert.equal((await store.list()).length, 1);
    assert.deepEqual(second!.references, ['docker.io/library/fixture:1.0', 'registry.example/x/y:tag']);
  });

  const resolveRows: { input: string; found: boolean }[] = [
    { input: 'fixture:1.0', found: true },
    { input: 'library/fixture:1.0', found: true },
    { input: 'docker.io/library/fixture:1.0', found: true },
    { input: 'registry.example/x/y:tag', found: true },
    { input: 'fixture', found: false },
    { input: 'fixture:2.0', found: false },
    { input: 'other/fixture:1.0', found: false },
  ];
  for (const r of resolveRows) {
    it(`resolve ${r.input} -> ${r.found ? 'the image' : 'nothing'}`, async () => {
      assert.equal((await store.resolve(r.input)) !== undefined, r.found);
    });
  }

  it('resolves by ID, bare hex, a 12-digit prefix and name@<id>', async () => {
    const [img] = await store.list();
    const hex = img!.id.slice(7);
    for (const q of [img!.id, hex, hex.slice(0, 12), `fixture@${img!.id}`]) assert.equal((await store.resolve(q))?.id, img!.id, q);
  });

  it('tags an image', async () => {
    const img = await store.tag('fixture:1.0', 'fixture');
    assert.ok(img.references.includes('docker.io/library/fixture:latest'));
  });

  it('remove of one of several tags only untags', async () => {
    const r = await store.remove('registry.example/x/y:tag');
    assert.deepEqual(r, { untagged: ['registry.example/x/y:tag'] });
    assert.equal(await store.resolve('registry.example/x/y:tag'), undefined);
    assert.equal((await store.list()).length, 1);
  });

  it('remove by ID deletes the image and every reference', async () => {
    const [img] = await store.list();
    const r = await store.remove(img!.id);
    assert.equal(r.deleted, img!.id);
    assert.deepEqual(r.untagged.sort(), ['docker.io/library/fixture:1.0', 'docker.io/library/fixture:latest']);
    assert.deepEqual(await store.list(), []);
    assert.equal(existsSync(img!.rootfs), false);
    assert.equal(await store.resolve('fixture:1.0'), undefined);
  });

  it('remove of the last tag deletes the image', async () => {
    const [img] = await store.import(src);
    const r = await store.remove('fixture:1.0');
    assert.equal(r.deleted, img!.id);
    assert.deepEqual(await store.list(), []);
  });

  it('remove of an unknown image is ImageNotFoundError', async () => {
    await assert.rejects(store.remove('nope:1'), ImageNotFoundError);
  });

  it('a new store over the same root sees the images and clears stale temporaries', async () => {
    const [img] = await store.import(src);
    mkdirSync(join(store.root, '.tmp', 'import-stale'), { recursive: true });
    const reopened = new ImageStore(store.root);
    assert.equal((await reopened.resolve('fixture:1.0'))?.id, img!.id);
    assert.deepEqual(readdirSync(join(store.root, '.tmp')), []);
  });
});
