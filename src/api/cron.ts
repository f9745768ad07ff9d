// Cron schedules as CronJob reads them: the standard five-field syntax, the @-macros and
// `@every <duration>`, with the parse errors of github.com/robfig/cron/v3's ParseStandard
// (parser.go: normalizeFields, getRange, mustParseInt, parseDescriptor), which
// pkg/apis/batch/validation reports verbatim; and the next activation after an instant in an
// IANA time zone (spec.go SpecSchedule.Next, constantdelay.go), computed through Intl so no
// tz database is bundled. Pure: no clock, the caller passes the instant.

export interface CronField {
  /** The allowed values, as a set. */
  readonly values: ReadonlySet<number>;
  /** The field was `*` or `?` (matters for the day-of-month/day-of-week rule). */
  readonly star: boolean;
}

export type CronSchedule =
  | { kind: 'spec'; minute: CronField; hour: CronField; dom: CronField; month: CronField; dow: CronField; timeZone?: string }
  | { kind: 'every'; seconds: number };

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const months: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const days: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const bounds: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: months },
  { min: 0, max: 6, names: days },
];

/** The macros ParseStandard accepts, as the five fields they stand for. */
const macros: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export class CronParseError extends Error {}

/** Go's strconv.Atoi error wording for mustParseInt. */
function parseIntStrict(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new CronParseError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = Number(expr);
  if (n < 0) throw new CronParseError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function intOrName(expr: string, names?: Record<string, number>): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? parseIntStrict(expr);
}

/** One comma-separated part: `*`, `?`, `N`, `N-M`, each optionally `/step`. */
function parseRange(expr: string, b: Bounds, out: Set<number>): boolean {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const single = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
    star = true;
  } else {
    start = intOrName(lowAndHigh[0]!, b.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = intOrName(lowAndHigh[1]!, b.names);
    else throw new CronParseError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseIntStrict(rangeAndStep[1]!);
    // `N/step` means N through the maximum.
    if (single) end = b.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) throw new CronParseError(`too many slashes: ${expr}`);
  if (start < b.min) throw new CronParseError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronParseError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronParseError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronParseError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) out.add(v);
  return star;
}

function parseField(field: string, b: Bounds): CronField {
  const values = new Set<number>();
  let star = false;
  for (const part of field.split(',')) star = parseRange(part, b, values) || star;
  return { values, star };
}

/** Go's time.ParseDuration for the units a schedule uses (h, m, s, ms, us, ns), in seconds; µ spelled \u00b5 in the patterns, which the linked CLI keeps ASCII (scripts/bundle.mjs). */
function parseGoDuration(s: string): number {
  const m = /^((\d+(\.\d+)?)(h|m|s|ms|us|\u00b5s|ns))+$/.test(s) ? s.match(/(\d+(?:\.\d+)?)(h|ms|m|s|us|\u00b5s|ns)/g) : null;
  if (!m) throw new CronParseError(`failed to parse duration @every ${s}: time: invalid duration ${JSON.stringify(s)}`);
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 };
  let total = 0;
  for (const part of m) {
    const [, num, u] = part.match(/^(\d+(?:\.\d+)?)(h|ms|m|s|us|\u00b5s|ns)$/)!;
    total += Number(num) * unit[u!]!;
  }
  return total;
}

/** ParseStandard: `[TZ=zone|CRON_TZ=zone] <5 fields | @macro | @every d>`. Throws CronParseError. */
export function parseCronSchedule(spec: string): CronSchedule {
  if (spec.length === 0) throw new CronParseError('empty spec string');
  let rest = spec;
  let timeZone: string | undefined;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const i = rest.indexOf(' ');
    timeZone = rest.slice(rest.indexOf('=') + 1, i < 0 ? undefined : i);
    if (!isTimeZone(timeZone)) throw new CronParseError(`provided bad location ${timeZone}: unknown time zone ${timeZone}`);
    rest = i < 0 ? '' : rest.slice(i).trim();
  }
  if (rest.startsWith('@')) {
    if (rest.startsWith('@every ')) return { kind: 'every', seconds: Math.max(1, Math.floor(parseGoDuration(rest.slice(7)))) };
    const expanded = macros[rest];
    if (!expanded) throw new CronParseError(`unrecognized descriptor: ${rest}`);
    rest = expanded;
  }
  const fields = rest.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new CronParseError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [minute, hour, dom, month, dow] = fields.map((f, i) => parseField(f, bounds[i]!)) as [CronField, CronField, CronField, CronField, CronField];
  return { kind: 'spec', minute, hour, dom, month, dow, ...(timeZone ? { timeZone } : {}) };
}

/** The parse error's text, or undefined when the schedule parses. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    parseCronSchedule(spec);
    return undefined;
  } catch (e) {
    if (e instanceof CronParseError) return e.message;
    throw e;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether Intl knows this IANA zone (time.LoadLocation's test, through the runtime's tz data). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
}

function wallClock(ms: number, zone: string): WallClock {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', month: 'numeric', day: 'numeric', weekday: 'short', hour: 'numeric', minute: 'numeric' });
    formatters.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return { month: Number(parts.month), day: Number(parts.day), weekday: days[parts.weekday!.toLowerCase()]!, hour: Number(parts.hour), minute: Number(parts.minute) };
}

/** dayMatches: with either day field a star, both must match; otherwise either may. */
function dayMatches(s: Extract<CronSchedule, { kind: 'spec' }>, w: WallClock): boolean {
  const dom = s.dom.values.has(w.day);
  const dow = s.dow.values.has(w.weekday);
  return s.dom.star || s.dow.star ? dom && dow : dom || dow;
}

const minuteMs = 60_000;

/**
 * The first activation strictly after `afterMs` (epoch ms), read in `zone` (the schedule's own
 * TZ= wins; 'UTC' when neither is given), or undefined when none comes within five years
 * (SpecSchedule.Next's give-up horizon, e.g. `0 0 30 2 *`).
 */
export function nextCronTime(s: CronSchedule, afterMs: number, zone = 'UTC'): number | undefined {
  if (s.kind === 'every') {
    // ConstantDelaySchedule: whole seconds after t, the sub-second part dropped.
    return Math.floor(afterMs / 1000) * 1000 + s.seconds * 1000;
  }
  const tz = s.timeZone ?? zone;
  // Start at the next whole minute after t.
  let t = Math.floor(afterMs / minuteMs) * minuteMs + minuteMs;
  const horizon = t + 5 * 366 * 24 * 60 * minuteMs;
  while (t <= horizon) {
    const w = wallClock(t, tz);
    if (!s.month.values.has(w.month) || !dayMatches(s, w)) {
      // To the next local midnight (DST shifts are corrected on the next pass).
      t += (24 * 60 - (w.hour * 60 + w.minute)) * minuteMs;
      continue;
    }
    if (!s.hour.values.has(w.hour)) {
      t += (60 - w.minute) * minuteMs;
      continue;
    }
    if (!s.minute.values.has(w.minute)) {
      t += minuteMs;
      continue;
    }
    return t;
  }
  return undefined;
}
