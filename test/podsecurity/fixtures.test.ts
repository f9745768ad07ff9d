// Conformance against the upstream pod-security-admission fixtures
// (../shared/conformance/psa: 4,537 pods, one per check/variant, for every level and version).
// Each fixture is evaluated at its directory's level and pinned version: pass fixtures must yield
// no violation; fail fixtures must yield one whose aggregate contains expectErrorSubstring and
// never `unknown forbidden reason`. One test per level/version directory collects mismatches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import type { Pod } from '../../src/api/types.js';
import {
  aggregateReasons, CheckRegistry, defaultPodForPodSecurity, evaluatePod, isLevel, parseVersion,
  UNKNOWN_FORBIDDEN_REASON, UPSTREAM_CHECKS, type CheckFailure, type LevelVersion,
} from '../../src/podsecurity/index.js';

// Tests run with cwd = repo root; CI places shared/ beside the repo clone.
const psaDir = path.resolve(process.cwd(), '..', 'shared', 'conformance', 'psa');
const indexPath = path.join(psaDir, 'index.json');

interface FixtureEntry {
  file: string;
  level: string;
  version: string;
  expect: 'allowed' | 'denied';
  check: string | null;
  variant: number | null;
  expectErrorSubstring?: string;
  needsDefaulting?: string;
  apiValidationAlsoRejects?: boolean;
}

// Baseline checks that a restricted check replaces from some version on (reference §3): a
// restricted fixture generated for the baseline check is denied by the replacement instead.
const overriddenBy: Record<string, { by: string; fromMinor: number }> = {
  capabilities_baseline: { by: 'capabilities_restricted', fromMinor: 22 },
  seccompProfile_baseline: { by: 'seccompProfile_restricted', fromMinor: 19 },
  hostPathVolumes: { by: 'restrictedVolumes', fromMinor: 0 },
  procMount: { by: 'procMount_restricted', fromMinor: 35 },
};

function loadIndex(): FixtureEntry[] {
  if (!existsSync(indexPath)) {
    throw new Error(`PSA conformance fixtures not found at ${indexPath} (expected shared/ beside the repo; cwd=${process.cwd()})`);
  }
  return JSON.parse(readFileSync(indexPath, 'utf8')) as FixtureEntry[];
}

function loadPod(entry: FixtureEntry): Pod {
  return load(readFileSync(path.join(psaDir, entry.file), 'utf8')) as Pod;
}

function levelVersionOf(entry: FixtureEntry): LevelVersion {
  assert.ok(isLevel(entry.level), `${entry.file}: bad level ${entry.level}`);
  const parsed = parseVersion(entry.version);
  assert.equal(parsed.error, undefined, `${entry.file}: bad version ${entry.version}`);
  return { level: entry.level, version: parsed.version };
}

function evaluateFixture(entry: FixtureEntry, registry?: CheckRegistry): CheckFailure[] {
  const pod = defaultPodForPodSecurity(loadPod(entry));
  return evaluatePod(levelVersionOf(entry), pod.metadata, pod.spec, registry);
}

/** Why a fixture's outcome is wrong, or undefined when it conforms. */
function mismatch(entry: FixtureEntry, failures: CheckFailure[]): string | undefined {
  const agg = aggregateReasons(failures);
  if (entry.expect === 'allowed') {
    return failures.length === 0 ? undefined : `expected allowed, got: ${agg}`;
  }
  if (failures.length === 0) return `expected denial containing ${JSON.stringify(entry.expectErrorSubstring)}, got allowed`;
  if (agg.includes(UNKNOWN_FORBIDDEN_REASON)) return `aggregate contains "${UNKNOWN_FORBIDDEN_REASON}": ${agg}`;
  if (!agg.includes(entry.expectErrorSubstring ?? '\u0000')) {
    return `expected substring ${JSON.stringify(entry.expectErrorSubstring)}, got: ${agg}`;
  }
  if (entry.check !== null) {
    const minor = Number(entry.version.slice(3));
    const o = overriddenBy[entry.check];
    const want = entry.level === 'restricted' && o && minor >= o.fromMinor ? o.by : entry.check;
    if (!failures.some((f) => f.id === want)) {
      return `expected check ${want} to fail, failing checks: ${failures.map((f) => f.id).join(', ')}`;
    }
  }
  return undefined;
}

const entries = (() => {
  try {
    return loadIndex();
  } catch (e) {
    return e as Error;
  }
})();

test('fixture index is present and complete (4,537 fixtures, 38 versions per level)', () => {
  if (entries instanceof Error) assert.fail(entries.message);
  assert.equal(entries.length, 4537);
  assert.equal(entries.filter((e) => e.expect === 'allowed').length, 1051);
  assert.equal(entries.filter((e) => e.expect === 'denied').length, 3486);
  const dirs = new Set(entries.map((e) => `${e.level}/${e.version}`));
  assert.equal(dirs.size, 76);
  for (const e of entries) {
    if (e.expect === 'denied') assert.ok(e.expectErrorSubstring, `${e.file}: denied fixture without substring`);
  }
});

if (!(entries instanceof Error)) {
  const groups = new Map<string, FixtureEntry[]>();
  for (const e of entries) {
    const key = `${e.level}/${e.version}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(e);
  }
  const byMinor = ([a]: [string, FixtureEntry[]], [b]: [string, FixtureEntry[]]) => {
    const [la, va] = a.split('/');
    const [lb, vb] = b.split('/');
    return la! < lb! ? -1 : la! > lb! ? 1 : Number(va!.slice(3)) - Number(vb!.slice(3));
  };

  for (const [dir, group] of [...groups].sort(byMinor)) {
    test(`fixtures ${dir}: every pass fixture allowed, every fail fixture denied with the expected text`, () => {
      const problems: string[] = [];
      for (const entry of group) {
        let why: string | undefined;
        try {
          why = mismatch(entry, evaluateFixture(entry));
        } catch (e) {
          why = `threw: ${String(e)}`;
        }
        if (why !== undefined) problems.push(`${entry.file}: ${why}`);
      }
      assert.deepEqual(problems, [], `${problems.length} of ${group.length} fixtures in ${dir} do not conform:\n${problems.join('\n')}`);
    });
  }

  test('fixtures: the upstream-only check list gives the same aggregate text as Bulkhead\'s (ulimits never fires on them)', () => {
    const upstream = new CheckRegistry(UPSTREAM_CHECKS);
    const diffs: string[] = [];
    for (const entry of entries) {
      const a = aggregateReasons(evaluateFixture(entry));
      const b = aggregateReasons(evaluateFixture(entry, upstream));
      if (a !== b) diffs.push(`${entry.file}: ${a} <> ${b}`);
    }
    assert.deepEqual(diffs, []);
  });

  test('fixtures: source-less-volume defaulting flips exactly the needsDefaulting fixtures', () => {
    const flipped: string[] = [];
    for (const entry of entries) {
      const raw = loadPod(entry);
      const rawAgg = aggregateReasons(evaluatePod(levelVersionOf(entry), raw.metadata, raw.spec));
      const defAgg = aggregateReasons(evaluateFixture(entry));
      if (rawAgg !== defAgg) flipped.push(entry.file);
      if (entry.needsDefaulting) {
        assert.equal(rawAgg, 'restricted volume types (volume "volume0" uses restricted volume type "unknown")', entry.file);
        assert.equal(defAgg, '', entry.file);
      }
    }
    assert.deepEqual(flipped, entries.filter((e) => e.needsDefaulting).map((e) => e.file));
    assert.equal(flipped.length, 38);
  });
}
