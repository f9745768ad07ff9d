// The check registry, as upstream `policy/registry.go` builds it: for every policy version from
// v1.0 up to the maximum, the baseline list (baseline variants active at that version) and the
// restricted list (restricted variants plus the baseline variants no active restricted variant
// overrides), each in the fixed order "baseline IDs sorted, then restricted IDs sorted".

import type { Check, CheckID, CheckPodFn, VersionedCheck } from './check.js';
import { DEFAULT_CHECKS } from './checks/index.js';
import { formatVersion, isLatest, type Level, type LevelVersion, type Version } from './levels.js';

export interface ActiveCheck {
  readonly id: CheckID;
  /** The minor version the active variant starts at. */
  readonly variantMinor: number;
  readonly checkPod: CheckPodFn;
}

export interface RegistryOptions {
  /**
   * The API server's emulated version: when older than the newest check variant, it becomes the
   * maximum, so `latest` means "the policy as of the emulated minor". A `latest` value is ignored.
   */
  readonly emulationVersion?: Version;
}

/** Go's slices.Sort on strings (byte order); check IDs are ASCII, so code unit order is the same. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Throws on a malformed check list (programming errors, mirroring upstream validateChecks). */
export function validateChecks(checks: readonly Check[]): void {
  const ids = new Map<CheckID, Level>();
  for (const check of checks) {
    if (ids.has(check.id)) throw new Error(`multiple checks registered for ID ${check.id}`);
    ids.set(check.id, check.level);
    if (check.level !== 'baseline' && check.level !== 'restricted') {
      throw new Error(`check ${check.id}: invalid level ${check.level}`);
    }
    if (check.versions.length === 0) throw new Error(`check ${check.id}: empty`);
    let last = -1;
    for (const variant of check.versions) {
      const v = variant.minimumVersion;
      if (isLatest(v)) throw new Error(`check ${check.id}: version cannot be 'latest'`);
      if (!Number.isInteger(v.minor) || v.minor < 0) throw new Error(`check ${check.id}: undefined version found`);
      if (v.minor === last) throw new Error(`check ${check.id}: duplicate version ${formatVersion(v)}`);
      if (v.minor < last) throw new Error(`check ${check.id}: versions must be strictly increasing`);
      last = v.minor;
    }
  }
  for (const check of checks) {
    for (const variant of check.versions) {
      if (!variant.overrideCheckIDs || variant.overrideCheckIDs.length === 0) continue;
      if (check.level !== 'restricted') throw new Error(`check ${check.id}: only restricted checks may set overrides`);
      for (const override of variant.overrideCheckIDs) {
        const level = ids.get(override);
        if (level !== undefined && level !== 'baseline') {
          throw new Error(`check ${check.id}: overrides ${level} check ${override}`);
        }
      }
    }
  }
}

const minorOf = (variant: VersionedCheck) => (variant.minimumVersion as { minor: number }).minor;

export class CheckRegistry {
  /** The highest minor version evaluated; newer pinned versions and `latest` resolve to it. */
  readonly maxMinor: number;
  private readonly baseline: ActiveCheck[][] = [];
  private readonly restricted: ActiveCheck[][] = [];

  constructor(checks: readonly Check[] = DEFAULT_CHECKS, options: RegistryOptions = {}) {
    validateChecks(checks);
    let max = 0;
    for (const c of checks) max = Math.max(max, minorOf(c.versions[c.versions.length - 1]!));

    const baselineIDs = checks.filter((c) => c.level === 'baseline').map((c) => c.id).sort(byteOrder);
    const restrictedIDs = checks.filter((c) => c.level === 'restricted').map((c) => c.id).sort(byteOrder);
    const orderedIDs = [...baselineIDs, ...restrictedIDs];

    for (let minor = 0; minor <= max; minor++) {
      const baselineActive = new Map<CheckID, VersionedCheck>();
      const restrictedActive = new Map<CheckID, VersionedCheck>();
      for (const c of checks) {
        const variant = activeVariant(c, minor);
        if (variant) (c.level === 'baseline' ? baselineActive : restrictedActive).set(c.id, variant);
      }
      const overridden = new Set<CheckID>();
      for (const variant of restrictedActive.values()) for (const id of variant.overrideCheckIDs ?? []) overridden.add(id);

      const restrictedAll = new Map(restrictedActive);
      for (const [id, variant] of baselineActive) if (!overridden.has(id)) restrictedAll.set(id, variant);

      const ordered = (active: Map<CheckID, VersionedCheck>): ActiveCheck[] =>
        orderedIDs.filter((id) => active.has(id)).map((id) => {
          const variant = active.get(id)!;
          return { id, variantMinor: minorOf(variant), checkPod: variant.checkPod };
        });
      this.baseline.push(ordered(baselineActive));
      this.restricted.push(ordered(restrictedAll));
    }

    const emu = options.emulationVersion;
    this.maxMinor = emu !== undefined && !isLatest(emu) && emu.minor < max ? emu.minor : max;
  }

  /** The minor version a policy version is evaluated as. */
  resolveMinor(version: Version): number {
    const minor = isLatest(version) ? NaN : (version as { minor?: unknown } | undefined)?.minor;
    // Anything that is not a usable number (latest, or a malformed object) reads as latest.
    if (typeof minor !== 'number' || !Number.isFinite(minor) || minor > this.maxMinor) return this.maxMinor;
    return Math.max(0, Math.floor(minor));
  }

  /**
   * The checks that run for a level/version, in evaluation order: none for privileged, the
   * baseline list for baseline, and (as upstream) the restricted list for anything else.
   */
  activeChecks(lv: LevelVersion): readonly ActiveCheck[] {
    if (lv.level === 'privileged') return [];
    const minor = this.resolveMinor(lv.version);
    return (lv.level === 'baseline' ? this.baseline : this.restricted)[minor] ?? [];
  }
}

/** The variant of a check active at a minor version, if any. */
function activeVariant(check: Check, minor: number): VersionedCheck | undefined {
  let active: VersionedCheck | undefined;
  for (const variant of check.versions) {
    if (minorOf(variant) <= minor) active = variant;
    else break;
  }
  return active;
}

let defaultRegistry: CheckRegistry | undefined;

/** The registry of DEFAULT_CHECKS (upstream checks plus Bulkhead's `ulimits`), built once. */
export function getDefaultRegistry(): CheckRegistry {
  return (defaultRegistry ??= new CheckRegistry());
}
