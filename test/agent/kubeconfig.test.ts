// The agent reads the kubeconfig `bulkhead server` writes (server, CA, bearer token) and the one a joined node writes (client certificate) and says
// in one line what is missing from one it cannot use.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubeconfig } from '../../src/server/start.js';
import { certKubeconfig, KubeconfigError, readKubeconfig } from '../../src/agent/kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'bulkhead-kubeconfig-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('readKubeconfig', () => {
  it('reads what bulkhead server writes', () => {
    const c = readKubeconfig(file('ok', kubeconfig('https://127.0.0.1:6443', ca, 'system:node:n1', 'tok')));
    assert.deepEqual(c, { server: 'https://127.0.0.1:6443', ca, token: 'tok' });
  });
  it('reads the client certificate a node that joined writes', () => {
    const c = readKubeconfig(file('cert', certKubeconfig('https://10.0.0.1:6443', ca, 'system:node:n2', 'CERT', 'KEY')));
    assert.deepEqual(c, { server: 'https://10.0.0.1:6443', ca, cert: 'CERT', key: 'KEY' });
  });
  const bad: [string, string, RegExp][] = [
    ['no current context', 'apiVersion: v1\nkind: Config\n', /no current-context/],
    ['a context that does not exist', 'current-context: x\ncontexts: []\n', /no context named "x"/],
    ['a user without a token', kubeconfig('https://h:1', ca, 'u', 'tok').replace(/    token: tok\n/, '    username: u\n'), /user "u" has neither a token nor a client certificate and key/],
    ['not YAML', ':\n  - [', /cannot read kubeconfig|not a kubeconfig/],
  ];
  for (const [name, text, re] of bad) {
    it(`refuses ${name} in one line`, () => {
      assert.throws(() => readKubeconfig(file(name.replace(/\W/g, '_'), text)), (e: unknown) => e instanceof KubeconfigError && re.test((e as Error).message) && !(e as Error).message.includes('\n'));
    });
  }
  it('refuses a missing file', () => {
    assert.throws(() => readKubeconfig(join(dir, 'absent')), /cannot read kubeconfig .*absent: ENOENT/);
  });
});
