// The layering check (scripts/check-layers.mjs over .dependency-cruiser.cjs): the real src/ keeps
// the layers of docs/architecture.md, and each rule catches its violation in a tiny tree that
// breaks only it, so a rule that silently matches nothing cannot pass here.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const repo = process.cwd();
const check = (root: string) => spawnSync(process.execPath, [join(repo, 'scripts', 'check-layers.mjs'), root], { encoding: 'utf8' });

/** The files the rows import: leaves that import nothing, so they break no rule themselves. */
const targets = ['src/quota/names.ts', 'src/policy/qos.ts', 'src/storage/store.ts', 'src/apiserver/rest.ts', 'src/agent/agent.ts', 'src/controllers/quota.ts', 'src/cli/main.ts', 'src/client/interface.ts', 'src/server/start.ts'];
const imports = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;

// [rule it pins, the importing file (one per row), its text, the rule expected to report it or
// undefined when the import is allowed]. One tree holds every row, so the checker runs once.
const rows: [string, string, string, string | undefined][] = [
  ['pure rules import no I/O module', 'src/policy/io.ts', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n", 'pure-no-io'],
  ['pure rules may hash (node:crypto)', 'src/plan/hash.ts', "import { createHash } from 'node:crypto';\nexport const h = createHash;\n", undefined],
  ['pure rules import no npm package', 'src/quota/sqlite.ts', "import Database from 'better-sqlite3';\nexport const d = Database;\n", 'pure-no-packages'],
  ['api imports no other layer (validation does not import quota)', 'src/api/validation/names.ts', imports('../../quota/names.js'), 'api-is-the-bottom'],
  ['a type-only import counts', 'src/quota/usage.ts', "import type { x } from '../storage/store.js';\nexport type S = typeof x;\n", 'pure-not-above'],
  ['quota may import policy', 'src/quota/scopes.ts', imports('../policy/qos.js'), undefined],
  ['plan imports only pure layers', 'src/plan/engine.ts', imports('../apiserver/rest.js'), 'plan-on-pure'],
  ['storage imports no API server', 'src/storage/sqlite.ts', imports('../apiserver/rest.js'), 'storage-below-server'],
  ['the API server imports no agent', 'src/apiserver/logs.ts', imports('../agent/agent.js'), 'apiserver-no-agent-cli'],
  ['no part of the API server composes controllers (the old exception is gone)', 'src/apiserver/server.ts', imports('../controllers/quota.js'), 'apiserver-no-controllers'],
  ['the API server imports no client', 'src/apiserver/handler.ts', imports('../client/interface.js'), 'apiserver-no-controllers'],
  ['controllers use the client interface', 'src/controllers/queue.ts', imports('../client/interface.js'), undefined],
  ['controllers import no API server code', 'src/controllers/quota2.ts', imports('../apiserver/rest.js'), 'controllers-through-client'],
  ['controllers do not pick the loopback client', 'src/controllers/namespace2.ts', imports('../client/loopback.js'), 'controllers-through-client'],
  ['only the loopback client reaches into the API server', 'src/client/informer.ts', imports('../apiserver/rest.js'), 'client-loopback-only'],
  ['the loopback client may reach into the API server', 'src/client/loopback.ts', imports('../apiserver/rest.js'), undefined],
  ['the client knows no controller', 'src/client/recorder.ts', imports('../controllers/quota.js'), 'client-below-controllers'],
  ['the agent sits on the client (its interface, HTTP client, informers, recorder)', 'src/agent/connect.ts', imports('../client/interface.js'), undefined],
  ['the agent does not take the loopback client', 'src/agent/setup.ts', imports('../client/loopback.js'), 'agent-is-a-client'],
  ['the scheduler imports no API server code (the last exception is gone)', 'src/controllers/scheduler.ts', imports('../apiserver/rest.js'), 'controllers-through-client'],
  ['only the command imports the composition', 'src/controllers/serviceaccounts.ts', imports('../server/start.js'), 'server-composes'],
  ['the command composes', 'src/cli/server.ts', imports('../server/start.js'), undefined],
  ['the rest of the API server imports no controller', 'src/apiserver/strategies.ts', imports('../controllers/quota.js'), 'apiserver-no-controllers'],
  ['controllers import no agent', 'src/controllers/recorder.ts', imports('../agent/agent.js'), 'controllers-no-agent-cli'],
  ['the agent imports no API server code', 'src/agent/podworker.ts', imports('../apiserver/rest.js'), 'agent-is-a-client'],
  ['nothing imports cli (a dynamic import too)', 'src/controllers/namespace.ts', "export const y = () => import('../cli/main.js');\n", 'nothing-imports-cli'],
];

describe('layers: the real tree', () => {
  it('src/ breaks no layering rule', () => {
    const r = check(repo);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /no dependency violations found/);
  });
});

describe('layers: each rule catches its violation', () => {
  const root = mkdtempSync(join(tmpdir(), 'bulkhead-layers-'));
  let report = '';
  let status: number | null = null;
  before(() => {
    const files: [string, string][] = [...targets.map((t): [string, string] => [t, 'export const x = 1;\n']), ...rows.map(([, file, text]): [string, string] => [file, text])];
    for (const [file, text] of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    // The npm package row needs a resolvable package.
    symlinkSync(resolve(repo, 'node_modules'), join(root, 'node_modules'));
    const r = check(root);
    report = `${r.stdout}\n${r.stderr}`;
    status = r.status;
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a tree with violations fails the check', () => assert.notEqual(status, 0, report));
  for (const [name, file, , rule] of rows) {
    it(name, () => {
      const reported = [...report.matchAll(/^\s*error ([\w-]+): (\S+) →/gm)].filter((m) => m[2] === file).map((m) => m[1]);
      // A violation may break a broader rule too (controllers → cli also breaks controllers-no-agent-cli).
      if (rule === undefined) assert.deepEqual(reported, [], report);
      else assert.ok(reported.includes(rule), `${file}: expected ${rule}, reported [${reported.join(', ')}]\n${report}`);
    });
  }
});
