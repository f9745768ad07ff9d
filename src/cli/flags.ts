// Flag values shared by several commands, turned into settings or a one-line UsageError.

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
