// Feature gates, parsed from `--feature-gates Name=bool,…` with component-base's wording.
//
// Bulkhead exists to implement the OOM kill mode and ulimits designs, so their gates are on
// by default here (upstream would start them off as alpha); switching one off makes the API
// drop the field from new objects with a warning.

export const featureGateDefaults = {
  /** OOM kill mode design: `oomKillMode` on containers. */
  ContainerOOMKillMode: true,
  /** Ulimits design: `securityContext.ulimits`. */
  ContainerUlimits: true,
  /** Pod-level `spec.resources` (upstream beta, on by default since 1.34). */
  PodLevelResources: true,
  /** In-place resize, upstream alpha and off in v1.32: only validation reads it (containers' `resizePolicy`). */
  InPlacePodVerticalScaling: false,
} as const;

export type FeatureGateName = keyof typeof featureGateDefaults;
export type FeatureGates = Readonly<Record<FeatureGateName, boolean>>;

export const defaultFeatureGates: FeatureGates = Object.freeze({ ...featureGateDefaults });

export class FeatureGateError extends Error {}

const goTrue = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const goFalse = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** strconv.ParseBool. */
export function parseGoBool(v: string): boolean | undefined {
  if (goTrue.has(v)) return true;
  if (goFalse.has(v)) return false;
  return undefined;
}

export function isFeatureGateName(name: string): name is FeatureGateName {
  return Object.prototype.hasOwnProperty.call(featureGateDefaults, name);
}

/** Parses `A=true,B=false` on top of `base`. Throws FeatureGateError with component-base's messages. */
export function parseFeatureGates(spec: string, base: FeatureGates = defaultFeatureGates): FeatureGates {
  const out: Record<string, boolean> = { ...base };
  for (const item of spec.split(',')) {
    if (item.length === 0) continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim();
    if (eq < 0) throw new FeatureGateError(`missing bool value for ${name}`);
    const raw = item.slice(eq + 1).trim();
    const value = parseGoBool(raw);
    if (value === undefined) {
      throw new FeatureGateError(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    }
    if (!isFeatureGateName(name)) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
    out[name] = value;
  }
  return Object.freeze(out) as FeatureGates;
}
