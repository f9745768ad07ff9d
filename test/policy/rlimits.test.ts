// Per-container ulimits -> process rlimits, from the ulimits design
// (designs/004_e1541c61a2fb52e5.txt, "Kubelet and Runtime Implementation", "Ulimit Representation
// in Shell Environments" tables) and DESIGN.md ("Hosts that cannot grant a value"): -1 maps to
// RLIM_INFINITY, any other negative to 0, nofile is clamped to the kernel's nr_open, and `ulimit -a`
// scales bytes to kilobytes for core, memlock and stack.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  RLIM_INFINITY,
  defaultNrOpen,
  formatRlimitValue,
  isUlimitName,
  shellDisplay,
  shellDisplayDivisor,
  ulimitRlimitTypes,
  ulimitsToRlimits,
  type Rlimit,
  type RlimitHost,
  type UlimitName,
} from '../../src/policy/rlimits.js';
import type { Ulimit } from '../../src/api/types.js';

describe('constants', () => {
  it('RLIM_INFINITY is the unsigned 64-bit -1 (^uint64(0))', () => assert.equal(RLIM_INFINITY, 18446744073709551615n));
  it('the default nr_open (and the validation cap on nofile) is 1048576', () => assert.equal(defaultNrOpen, 1048576n));
});

describe('isUlimitName: the design\'s allowlist', () => {
  const rows: [string, boolean][] = [
    ['nofile', true], ['memlock', true], ['core', true], ['nice', true], ['rtprio', true], ['stack', true],
    ['nproc', false], ['as', false], ['cpu', false], ['data', false], ['fsize', false], ['locks', false],
    ['msgqueue', false], ['rss', false], ['rttime', false], ['sigpending', false], ['NOFILE', false], ['', false], ['toString', false],
  ];
  for (const [name, ok] of rows) it(`${JSON.stringify(name)} is ${ok ? '' : 'not '}supported`, () => assert.equal(isUlimitName(name), ok));
  it('maps each name to its kernel constant', () => {
    assert.deepEqual(ulimitRlimitTypes, { core: 'RLIMIT_CORE', memlock: 'RLIMIT_MEMLOCK', nice: 'RLIMIT_NICE', nofile: 'RLIMIT_NOFILE', rtprio: 'RLIMIT_RTPRIO', stack: 'RLIMIT_STACK' });
  });
});

describe('ulimitsToRlimits: runtime conversion', () => {
  const rows: [string, Ulimit[], RlimitHost, Rlimit[]][] = [
    ['nofile 65535/65535 (design story 1) passes through', [{ name: 'nofile', soft: 65535, hard: 65535 }], {}, [{ type: 'RLIMIT_NOFILE', soft: 65535n, hard: 65535n }]],
    ['-1 means unlimited: RLIM_INFINITY for memlock', [{ name: 'memlock', soft: -1, hard: -1 }], {}, [{ type: 'RLIMIT_MEMLOCK', soft: RLIM_INFINITY, hard: RLIM_INFINITY }]],
    ['-1 for core and stack is RLIM_INFINITY', [{ name: 'core', soft: -1, hard: -1 }, { name: 'stack', soft: 8388608, hard: -1 }], {}, [{ type: 'RLIMIT_CORE', soft: RLIM_INFINITY, hard: RLIM_INFINITY }, { type: 'RLIMIT_STACK', soft: 8388608n, hard: RLIM_INFINITY }]],
    ['nofile -1 is clamped to the default nr_open 1048576 (setrlimit would EPERM above it)', [{ name: 'nofile', soft: -1, hard: -1 }], {}, [{ type: 'RLIMIT_NOFILE', soft: 1048576n, hard: 1048576n }]],
    ['nofile -1 is clamped to the host\'s nr_open', [{ name: 'nofile', soft: -1, hard: -1 }], { nrOpen: 524288n }, [{ type: 'RLIMIT_NOFILE', soft: 524288n, hard: 524288n }]],
    ['nofile above nr_open is clamped, below it is kept', [{ name: 'nofile', soft: 1024, hard: 2000000 }], { nrOpen: 1048576n }, [{ type: 'RLIMIT_NOFILE', soft: 1024n, hard: 1048576n }]],
    ['other negatives become 0', [{ name: 'core', soft: -2, hard: -100 }], {}, [{ type: 'RLIMIT_CORE', soft: 0n, hard: 0n }]],
    ['a negative other than -1 on nofile becomes 0, not nr_open', [{ name: 'nofile', soft: -5, hard: -1 }], {}, [{ type: 'RLIMIT_NOFILE', soft: 0n, hard: 1048576n }]],
    ['nice and rtprio pass through', [{ name: 'nice', soft: 10, hard: 20 }, { name: 'rtprio', soft: 0, hard: 99 }], {}, [{ type: 'RLIMIT_NICE', soft: 10n, hard: 20n }, { type: 'RLIMIT_RTPRIO', soft: 0n, hard: 99n }]],
    ['names outside the allowlist are skipped (validation rejects them earlier)', [{ name: 'nproc', soft: 1024, hard: 2048 }, { name: 'nofile', soft: 1, hard: 2 }], {}, [{ type: 'RLIMIT_NOFILE', soft: 1n, hard: 2n }]],
    ['the order of the pod spec is kept', [{ name: 'stack', soft: 1, hard: 1 }, { name: 'core', soft: 2, hard: 2 }], {}, [{ type: 'RLIMIT_STACK', soft: 1n, hard: 1n }, { type: 'RLIMIT_CORE', soft: 2n, hard: 2n }]],
  ];
  for (const [name, ulimits, host, want] of rows) {
    it(name, () => {
      const { rlimits, adjustments } = ulimitsToRlimits(ulimits, host);
      assert.deepEqual(rlimits, want);
      assert.deepEqual(adjustments, []);
    });
  }
  it('no ulimits gives no rlimits', () => assert.deepEqual(ulimitsToRlimits(undefined), { rlimits: [], adjustments: [] }));
});

describe('ulimitsToRlimits: hosts without CAP_SYS_RESOURCE apply the nearest value and report it', () => {
  it('a hard limit above the agent\'s own ceiling is lowered to it, soft kept when it fits', () => {
    const { rlimits, adjustments } = ulimitsToRlimits([{ name: 'nofile', soft: 1024, hard: 65536 }], { hardCeilings: { RLIMIT_NOFILE: 4096n } });
    assert.deepEqual(rlimits, [{ type: 'RLIMIT_NOFILE', soft: 1024n, hard: 4096n }]);
    assert.deepEqual(adjustments, [
      { type: 'RLIMIT_NOFILE', requested: { soft: 1024n, hard: 65536n }, applied: { soft: 1024n, hard: 4096n }, reason: "hard limit 65536 is above the node's ceiling 4096 (no CAP_SYS_RESOURCE)" },
    ]);
  });
  it('the soft limit follows the lowered hard limit', () => {
    const { rlimits, adjustments } = ulimitsToRlimits([{ name: 'memlock', soft: -1, hard: -1 }], { hardCeilings: { RLIMIT_MEMLOCK: 65536n } });
    assert.deepEqual(rlimits, [{ type: 'RLIMIT_MEMLOCK', soft: 65536n, hard: 65536n }]);
    assert.equal(adjustments[0]!.reason, "hard limit unlimited is above the node's ceiling 65536 (no CAP_SYS_RESOURCE)");
  });
  it('a hard limit at or below the ceiling is untouched', () => {
    const { rlimits, adjustments } = ulimitsToRlimits([{ name: 'core', soft: 0, hard: 4096 }], { hardCeilings: { RLIMIT_CORE: 4096n } });
    assert.deepEqual(rlimits, [{ type: 'RLIMIT_CORE', soft: 0n, hard: 4096n }]);
    assert.deepEqual(adjustments, []);
  });
  it('the nofile nr_open clamp happens before the ceiling check', () => {
    const { rlimits, adjustments } = ulimitsToRlimits([{ name: 'nofile', soft: -1, hard: -1 }], { nrOpen: 1048576n, hardCeilings: { RLIMIT_NOFILE: 1048576n } });
    assert.deepEqual(rlimits, [{ type: 'RLIMIT_NOFILE', soft: 1048576n, hard: 1048576n }]);
    assert.deepEqual(adjustments, []);
  });
});

describe('shellDisplay: what `ulimit -a` prints (design "Value Mapping Table")', () => {
  const divisors: [UlimitName, bigint][] = [['core', 1024n], ['memlock', 1024n], ['stack', 1024n], ['nice', 1n], ['nofile', 1n], ['rtprio', 1n]];
  for (const [name, d] of divisors) it(`${name} is shown divided by ${d}`, () => assert.equal(shellDisplayDivisor[name], d));
  const rows: [string, UlimitName, bigint, string][] = [
    ['memlock 65536 bytes shows as 64 (Kbytes)', 'memlock', 65536n, '64'],
    ['stack 8388608 bytes shows as 8192', 'stack', 8388608n, '8192'],
    ['core 1000 bytes shows as 0 (integer division)', 'core', 1000n, '0'],
    ['nofile 65535 shows as 65535', 'nofile', 65535n, '65535'],
    ['rtprio 99 shows as 99', 'rtprio', 99n, '99'],
    ['RLIM_INFINITY shows as unlimited', 'memlock', RLIM_INFINITY, 'unlimited'],
    ['nofile set to -1 shows nr_open, not unlimited (the runtime clamped it)', 'nofile', ulimitsToRlimits([{ name: 'nofile', soft: -1, hard: -1 }]).rlimits[0]!.hard, '1048576'],
  ];
  for (const [name, u, v, want] of rows) it(name, () => assert.equal(shellDisplay(u, v), want));
  it('formatRlimitValue prints unlimited for RLIM_INFINITY and the number otherwise', () => {
    assert.equal(formatRlimitValue(RLIM_INFINITY), 'unlimited');
    assert.equal(formatRlimitValue(0n), '0');
  });
});
