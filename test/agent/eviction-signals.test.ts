// Memory signals from cgroup v1 files, as cAdvisor computes them for the kubelet
// (container/libcontainer/handler.go setMemoryStats on v1: working set = usage_in_bytes −
// total_inactive_file, floored at 0; cadvisor's isMemoryUnlimited: a limit above 2^62 is none),
// read through an injected reader so no kernel is needed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMemoryStat, readMemcg, readUsage, workingSet } from '../../src/agent/eviction/memcg.js';
import { fakeReader } from './eviction-fakes.js';

const Mi = 1n << 20n;

const statText = (inactive: bigint | undefined) =>
  ['cache 1000', 'rss 2000', 'inactive_file 7', ...(inactive === undefined ? [] : [`total_inactive_file ${inactive}`]), 'total_active_file 5', ''].join('\n');

describe('parseMemoryStat', () => {
  const rows: [string, string, [string, bigint][]][] = [
    ['key/value lines', 'cache 10\nrss 20\n', [['cache', 10n], ['rss', 20n]]],
    ['hierarchical totals are kept under their own names', 'inactive_file 1\ntotal_inactive_file 99\n', [['inactive_file', 1n], ['total_inactive_file', 99n]]],
    ['64-bit values stay exact', 'hierarchical_memory_limit 9223372036854771712\n', [['hierarchical_memory_limit', 9223372036854771712n]]],
    ['blank and malformed lines are skipped', '\nfoo\nbar -1\nbaz 1 2\nok 3\n', [['ok', 3n]]],
  ];
  for (const [name, text, want] of rows) it(name, () => assert.deepEqual([...parseMemoryStat(text)], want));
});

describe('workingSet: usage − total_inactive_file, floored at 0', () => {
  const rows: [string, bigint, bigint | undefined, bigint][] = [
    ['page cache on the inactive list does not count', 300n * Mi, 100n * Mi, 200n * Mi],
    ['no total_inactive_file: the whole usage', 300n * Mi, undefined, 300n * Mi],
    ['inactive above usage (racy reads): 0, not negative', 10n * Mi, 11n * Mi, 0n],
    ['the non-hierarchical inactive_file is ignored', 300n * Mi, 0n, 300n * Mi],
  ];
  for (const [name, usage, inactive, want] of rows) it(name, () => assert.equal(workingSet(usage, parseMemoryStat(statText(inactive))), want));
});

describe('readMemcg through a reader', () => {
  const files = new Map<string, string>([
    ['/m/node/memory.usage_in_bytes', `${300n * Mi}\n`],
    ['/m/node/memory.stat', statText(100n * Mi)],
    ['/m/node/memory.limit_in_bytes', `${Mi * 1024n}\n`],
    ['/m/root/memory.usage_in_bytes', `${300n * Mi}\n`],
    ['/m/root/memory.stat', statText(0n)],
    ['/m/root/memory.limit_in_bytes', '9223372036854771712\n'],
    ['/m/bad/memory.usage_in_bytes', 'max\n'],
    ['/m/bad/memory.stat', ''],
  ]);
  const read = fakeReader(files);
  it('usage, working set and total_inactive_file', () => {
    assert.deepEqual(readMemcg('/m/node', read), { usageBytes: 300n * Mi, workingSetBytes: 200n * Mi, inactiveFileBytes: 100n * Mi });
  });
  it('with the limit: a finite memory.limit_in_bytes is reported', () => assert.equal(readMemcg('/m/node', read, true)?.limitBytes, 1024n * Mi));
  it('with the limit: the v1 "unlimited" value (2^63 rounded to a page) is no limit', () => assert.equal(readMemcg('/m/root', read, true)?.limitBytes, undefined));
  it('a cgroup that does not exist has no stats', () => assert.equal(readMemcg('/m/gone', read), undefined));
  it('a file that is not a byte count is an error naming the file', () => assert.throws(() => readMemcg('/m/bad', read), /\/m\/bad\/memory.usage_in_bytes: not a byte count/));
  it('readUsage reads memory.usage_in_bytes alone', () => assert.equal(readUsage('/m/node', read), 300n * Mi));
});
