// Flag values shared by several commands, turned into settings or a one-line UsageError.

import type { Command } from 'commander';
import type { DefaultTolerationSeconds } from '../admission/defaulttolerationseconds.js';
import { parsePodSecurityDefault, type PodSecurityDefaults } from '../admission/podsecurity.js';
import { FeatureGateError, parseFeatureGates, type FeatureGates } from '../api/featuregates.js';
import { UsageError } from './errors.js';
import { DurationError, parseGoDuration } from './goduration.js';

export function featureGatesFlag(value: string | undefined): FeatureGates {
  try {
    return parseFeatureGates(value ?? '');
  } catch (e) {
    if (e instanceof FeatureGateError) throw new UsageError(`invalid value "${value}" for --feature-gates: ${e.message}`);
    throw e;
  }
}

export function podSecurityFlag(value: string): PodSecurityDefaults {
  try {
    return parsePodSecurityDefault(value);
  } catch (e) {
    throw new UsageError(`invalid value "${value}" for --pod-security: ${(e as Error).message}`);
  }
}

/** A Go duration flag (kube-apiserver's spelling) as seconds; never negative. */
export function durationFlag(flag: string, value: string): number {
  try {
    const seconds = parseGoDuration(value);
    if (seconds < 0) throw new DurationError('must not be negative');
    return seconds;
  } catch (e) {
    if (e instanceof DurationError) throw new UsageError(`invalid value "${value}" for ${flag}: ${e.message}`);
    throw e;
  }
}

export interface DefaultTolerationSecondsFlags {
  /** Absent: 300, the flag's default. */
  defaultNotReadyTolerationSeconds?: string;
  defaultUnreachableTolerationSeconds?: string;
}

/** kube-apiserver's DefaultTolerationSeconds flags, for `server`, `up` and `plan` alike. */
export function addDefaultTolerationSecondsFlags(c: Command): Command {
  return c
    .option('--default-not-ready-toleration-seconds <seconds>', 'tolerationSeconds of the not-ready:NoExecute toleration added to every pod that has none (DefaultTolerationSeconds admission)', '300')
    .option('--default-unreachable-toleration-seconds <seconds>', 'tolerationSeconds of the unreachable:NoExecute toleration added to every pod that has none: how long its pods outlive an unreachable node', '300');
}

/** A non-negative whole number of seconds (kube-apiserver's int64 flags). */
function secondsFlag(flag: string, v: string): number {
  if (!/^\d+$/.test(v)) throw new UsageError(`invalid value "${v}" for ${flag}: expected a whole number of seconds`);
  return Number(v);
}

export function defaultTolerationSecondsFlags(f: DefaultTolerationSecondsFlags): DefaultTolerationSeconds {
  return {
    notReady: secondsFlag('--default-not-ready-toleration-seconds', f.defaultNotReadyTolerationSeconds ?? '300'),
    unreachable: secondsFlag('--default-unreachable-toleration-seconds', f.defaultUnreachableTolerationSeconds ?? '300'),
  };
}
