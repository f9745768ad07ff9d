// Pod Security levels and policy versions, as upstream pod-security-admission `api/helpers.go`
// defines them: the three levels, `latest` or `v1.<minor>` versions, and the parsers whose error
// texts appear in namespace label validation.

export type Level = 'privileged' | 'baseline' | 'restricted';

export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** `latest`, or a pinned `v1.<minor>` (the major is always 1). */
export type Version = 'latest' | { readonly minor: number };

export const LATEST: Version = 'latest';

export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

/**
 * The highest policy version at which any upstream check variant starts (the new safe sysctls of
 * v1.37, Kubernetes master as of 2026-07-01). `latest` and any newer pinned version evaluate as
 * this one. The registry computes the same value from the check list; this constant documents it.
 */
export const MAX_KNOWN_MINOR = 37;

export const LEVEL_ERROR = 'must be one of privileged, baseline, restricted';
export const VERSION_ERROR = 'must be "latest" or "v1.x"';

/** A pinned version `v1.<minor>`. */
export function v1(minor: number): Version {
  return { minor };
}

export function isLatest(v: Version): v is 'latest' {
  return v === 'latest';
}

export function isLevel(value: unknown): value is Level {
  return value === 'privileged' || value === 'baseline' || value === 'restricted';
}

/**
 * ParseLevel: an unknown value is an error and yields `restricted` (so a caller that ignores the
 * error fails closed, which is what the enforce mode does).
 */
export function parseLevel(value: unknown): { level: Level; error?: string } {
  if (isLevel(value)) return { level: value };
  return { level: 'restricted', error: LEVEL_ERROR };
}

const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;
// Go's strconv.Atoi on a 64-bit int: larger minors are a parse error.
const maxInt64 = 9223372036854775807n;

/**
 * ParseVersion: exactly `latest` or `v1.` plus a minor without leading zeros. Errors yield
 * `latest`. (Minors above 2^53 parse but lose precision as JS numbers; they all evaluate as the
 * maximum known version anyway, only their printed form could differ.)
 */
export function parseVersion(value: unknown): { version: Version; error?: string } {
  if (value === 'latest') return { version: 'latest' };
  if (typeof value !== 'string') return { version: 'latest', error: VERSION_ERROR };
  const m = versionPattern.exec(value);
  if (!m) return { version: 'latest', error: VERSION_ERROR };
  const digits = m[1]!;
  if (BigInt(digits) > maxInt64) return { version: 'latest', error: VERSION_ERROR };
  return { version: { minor: Number(digits) } };
}

export function formatVersion(v: Version): string {
  return v === 'latest' ? 'latest' : `v1.${v.minor}`;
}

/** `level:version`, e.g. `restricted:latest`, `baseline:v1.30` (the unresolved version). */
export function formatLevelVersion(lv: LevelVersion): string {
  return `${lv.level}:${formatVersion(lv.version)}`;
}

/** Go's Version.Older: `latest` is newer than every pinned version, even future ones. */
export function versionOlder(a: Version, b: Version): boolean {
  if (a === 'latest') return false;
  if (b === 'latest') return true;
  return a.minor < b.minor;
}

export function versionEqual(a: Version, b: Version): boolean {
  if (a === 'latest' || b === 'latest') return a === b;
  return a.minor === b.minor;
}

/** CompareLevels: privileged < baseline < restricted; returns -1, 0 or 1. */
export function compareLevels(a: Level, b: Level): number {
  const rank = (l: Level) => (l === 'privileged' ? 0 : l === 'baseline' ? 1 : 2);
  return Math.sign(rank(a) - rank(b));
}

/** LevelVersion.Equivalent: two privileged policies are equivalent whatever their versions. */
export function levelVersionEquivalent(a: LevelVersion, b: LevelVersion): boolean {
  return (a.level === 'privileged' && b.level === 'privileged') ||
    (a.level === b.level && versionEqual(a.version, b.version));
}

/**
 * Convenience constructor: `levelVersion('restricted', 'v1.30')`. A version string is parsed with
 * parseVersion, so an invalid one silently becomes `latest` (use parseVersion to see the error).
 */
export function levelVersion(level: Level, version: Version | string = 'latest'): LevelVersion {
  return { level, version: typeof version === 'string' ? parseVersion(version).version : version };
}
