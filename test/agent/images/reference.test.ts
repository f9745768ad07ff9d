import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { familiarReference, InvalidReferenceError, normalizeReference, parseReference } from '../../../src/agent/images/reference.js';

const d64 = 'a'.repeat(64);

describe('image reference normalisation', () => {
  const rows: { input: string; normalized: string; familiar: string; rule: string }[] = [
    { rule: 'default registry, namespace and tag', input: 'busybox', normalized: 'docker.io/library/busybox:latest', familiar: 'busybox:latest' },
    { rule: 'explicit tag kept', input: 'busybox:1.36', normalized: 'docker.io/library/busybox:1.36', familiar: 'busybox:1.36' },
    { rule: 'fully qualified is a fixed point', input: 'docker.io/library/busybox:1.36', normalized: 'docker.io/library/busybox:1.36', familiar: 'busybox:1.36' },
    { rule: 'official namespace without registry', input: 'library/busybox', normalized: 'docker.io/library/busybox:latest', familiar: 'busybox:latest' },
    { rule: 'user namespace on docker.io', input: 'user/app:v1', normalized: 'docker.io/user/app:v1', familiar: 'user/app:v1' },
    { rule: 'legacy index.docker.io is docker.io', input: 'index.docker.io/library/busybox', normalized: 'docker.io/library/busybox:latest', familiar: 'busybox:latest' },
    { rule: 'other registry: no library/ added', input: 'registry.example/x/y:tag', normalized: 'registry.example/x/y:tag', familiar: 'registry.example/x/y:tag' },
    { rule: 'registry with one path component', input: 'registry.example/y', normalized: 'registry.example/y:latest', familiar: 'registry.example/y:latest' },
    { rule: 'registry with port is not a tag', input: 'localhost:5000/foo', normalized: 'localhost:5000/foo:latest', familiar: 'localhost:5000/foo:latest' },
    { rule: 'localhost is a registry', input: 'localhost/foo:1', normalized: 'localhost/foo:1', familiar: 'localhost/foo:1' },
    { rule: 'digest: no default tag', input: `busybox@sha256:${d64}`, normalized: `docker.io/library/busybox@sha256:${d64}`, familiar: `busybox@sha256:${d64}` },
    { rule: 'tag and digest both kept', input: `busybox:1.36@sha256:${d64}`, normalized: `docker.io/library/busybox:1.36@sha256:${d64}`, familiar: `busybox:1.36@sha256:${d64}` },
    { rule: 'separators in path components', input: 'my-org/my_app.x__y:1.0-rc.1', normalized: 'docker.io/my-org/my_app.x__y:1.0-rc.1', familiar: 'my-org/my_app.x__y:1.0-rc.1' },
  ];
  for (const r of rows) {
    it(`${r.rule}: ${r.input}`, () => {
      assert.equal(normalizeReference(r.input), r.normalized);
      assert.equal(familiarReference(r.input), r.familiar);
      assert.equal(normalizeReference(r.normalized), r.normalized, 'normalising is idempotent');
    });
  }

  it('splits into parts', () => {
    assert.deepEqual(parseReference('registry.example:5000/x/y:tag'), { domain: 'registry.example:5000', path: 'x/y', tag: 'tag' });
  });

  const invalid: { input: string; error: RegExp; rule: string }[] = [
    { rule: 'empty', input: '', error: /empty/ },
    { rule: 'uppercase repository', input: 'BusyBox', error: /must be lowercase/ },
    { rule: 'empty tag', input: 'busybox:', error: /malformed tag/ },
    { rule: 'tag with bad characters', input: 'busybox:a/b', error: /malformed/ },
    { rule: 'short digest', input: 'busybox@sha256:abc', error: /malformed digest/ },
    { rule: 'unsupported digest algorithm', input: `busybox@sha512:${'a'.repeat(128)}`, error: /only sha256/ },
    { rule: 'no name', input: ':latest', error: /missing repository name/ },
    { rule: 'empty path component', input: 'a//b', error: /malformed repository path component/ },
    { rule: 'bare 64-hex is an ID', input: d64, error: /image ID/ },
    { rule: 'leading separator', input: '-busybox', error: /malformed repository path component/ },
  ];
  for (const r of invalid) {
    it(`refuses ${r.rule}: ${JSON.stringify(r.input)}`, () => {
      assert.throws(() => parseReference(r.input), (err: unknown) => err instanceof InvalidReferenceError && r.error.test(err.message));
    });
  }
});
