import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { bulkhead } from './run.js';
import { dir, file, writeDockerArchive } from '../agent/images/fixtures.js';

describe('bulkhead image', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'bulkhead-cli-image-'));
  const dataDir = join(tmp, 'data');
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('imports a docker-archive, lists it, removes it', () => {
    const archive = join(tmp, 'app');
    writeDockerArchive(archive, {
      layers: [{ entries: [dir('app/'), file('app/run.sh', 'echo hi\n', 0o755)] }],
      config: { Cmd: ['/app/run.sh'] },
      repoTags: ['example.com/team/app:1.0'],
    });
    const imp = bulkhead(['image', 'import', archive, '--data-dir', dataDir]);
    assert.equal(imp.code, 0, imp.stderr);
    assert.match(imp.stdout, /^imported example\.com\/team\/app:1\.0 \(sha256:[0-9a-f]{12}, /);
    const ls = bulkhead(['image', 'ls', '--data-dir', dataDir]);
    assert.match(ls.stdout, /^IMAGE\s+ID\s+SIZE\s+SOURCE\nexample\.com\/team\/app:1\.0\s+[0-9a-f]{12}\s+\S+\s+docker-archive\n$/);
    const json = JSON.parse(bulkhead(['image', 'ls', '--data-dir', dataDir, '-o', 'json']).stdout);
    assert.deepEqual(json[0].config.cmd, ['/app/run.sh']);
    assert.ok(existsSync(join(json[0].rootfs, 'app', 'run.sh')));
    const rm = bulkhead(['image', 'rm', 'example.com/team/app:1.0', '--data-dir', dataDir]);
    assert.match(rm.stdout, /^untagged: example\.com\/team\/app:1\.0\ndeleted: sha256:[0-9a-f]{64}\n$/);
  });

  const bad = [
    { name: 'a missing archive', args: ['image', 'import', 'nope.tar'], stderr: /^bulkhead: importing nope\.tar…\nerror: cannot import image from nope\.tar: no such file or directory\n$/ },
    { name: 'an unknown image', args: ['image', 'rm', 'nothing:here'], stderr: /^error: .*nothing:here/ },
    { name: 'a bad platform', args: ['image', 'import', 'x.tar', '--platform', 'linux'], stderr: /^error: invalid value "linux" for --platform: expected OS\/ARCH, e.g. linux\/amd64\n$/ },
  ];
  for (const c of bad) {
    it(`${c.name} is one line and exit 2`, () => {
      const r = bulkhead([...c.args, '--data-dir', dataDir]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, c.stderr);
    });
  }
});
