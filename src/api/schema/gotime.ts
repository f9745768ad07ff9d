// Go's time.Parse for the two layouts metav1.Time and metav1.MicroTime decode with, returning
// Go's error text (time.ParseError) or undefined when Go would accept the value.

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339Micro = '2006-01-02T15:04:05.000000Z07:00';

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac6' | 'tz';
const CHUNKS: Record<string, readonly (readonly [prefix: string, std: Std, stdstr: string])[]> = {
  [RFC3339]: [
    ['', 'year', '2006'],
    ['-', 'month', '01'],
    ['-', 'day', '02'],
    ['T', 'hour', '15'],
    [':', 'minute', '04'],
    [':', 'second', '05'],
    ['', 'tz', 'Z07:00'],
  ],
  [RFC3339Micro]: [
    ['', 'year', '2006'],
    ['-', 'month', '01'],
    ['-', 'day', '02'],
    ['T', 'hour', '15'],
    [':', 'minute', '04'],
    [':', 'second', '05'],
    ['', 'frac6', '.000000'],
    ['', 'tz', 'Z07:00'],
  ],
};

/** Go's time.quote: ASCII printable kept (with \" and \\ escaped), other bytes as \xNN. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}

const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) {
    if (fixed) return undefined;
    return [s.charCodeAt(0) - 48, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

/** Go's time.atoi: optional sign, then digits only. */
function atoi(s: string): number | undefined {
  let neg = false;
  if (s.length > 0 && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s.length === 0 || !/^[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return neg ? -n : n;
}

/** parseNanoseconds: '.' or ',' then digits; returns [ok, rangeError]. */
function parseFrac(value: string, nbytes: number): { bad?: true; range?: string } {
  if (value[0] !== '.' && value[0] !== ',') return { bad: true };
  if (nbytes > 10) nbytes = 10;
  const ns = atoi(value.slice(1, nbytes));
  if (ns === undefined) return { bad: true };
  if (ns < 0) return { range: 'fractional second' };
  return {};
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** time.Parse(layout, value) for RFC3339 or RFC3339Micro: Go's error message, or undefined if accepted. */
export function goTimeParseError(layout: typeof RFC3339 | typeof RFC3339Micro, avalue: string): string | undefined {
  const chunks = CHUNKS[layout]!;
  const cannot = (valueElem: string, layoutElem: string) =>
    `parsing time ${goTimeQuote(avalue)} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(valueElem)} as ${goTimeQuote(layoutElem)}`;
  const withMsg = (msg: string) => `parsing time ${goTimeQuote(avalue)}${msg}`;
  let value = avalue;
  let year = 0;
  let month = -1;
  let day = -1;
  for (let ci = 0; ci < chunks.length; ci++) {
    const [prefix, std, stdstr] = chunks[ci]!;
    for (const pc of prefix) {
      if (value.length === 0 || value[0] !== pc) return cannot(value, prefix);
      value = value.slice(1);
    }
    const hold = value;
    let bad = false;
    let range = '';
    switch (std) {
      case 'year': {
        if (value.length < 4 || !isDigit(value, 0)) {
          bad = true;
          break;
        }
        const y = atoi(value.slice(0, 4));
        value = value.slice(4);
        if (y === undefined) bad = true;
        else year = y;
        break;
      }
      case 'month': {
        const r = getnum(value, true);
        if (!r) {
          bad = true;
          break;
        }
        [month, value] = r;
        if (month <= 0 || month > 12) range = 'month';
        break;
      }
      case 'day': {
        const r = getnum(value, true);
        if (!r) {
          bad = true;
          break;
        }
        [day, value] = r;
        break;
      }
      case 'hour': {
        const r = getnum(value, false);
        if (!r) {
          bad = true;
          break;
        }
        let hour: number;
        [hour, value] = r;
        if (hour >= 24) range = 'hour';
        break;
      }
      case 'minute': {
        const r = getnum(value, true);
        if (!r) {
          bad = true;
          break;
        }
        let min: number;
        [min, value] = r;
        if (min >= 60) range = 'minute';
        break;
      }
      case 'second': {
        const r = getnum(value, true);
        if (!r) {
          bad = true;
          break;
        }
        let sec: number;
        [sec, value] = r;
        if (sec >= 60) {
          range = 'second';
          break;
        }
        if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
          if (chunks[ci + 1]?.[1] === 'frac6') break; // the layout has its own fraction
          let n = 2;
          while (n < value.length && isDigit(value, n)) n++;
          const fr = parseFrac(value, n);
          if (fr.bad) bad = true;
          if (fr.range) range = fr.range;
          value = value.slice(n);
        }
        break;
      }
      case 'frac6': {
        const ndigit = 7;
        if (value.length < ndigit) {
          bad = true;
          break;
        }
        const fr = parseFrac(value, ndigit);
        if (fr.bad) bad = true;
        if (fr.range) range = fr.range;
        value = value.slice(ndigit);
        break;
      }
      case 'tz': {
        if (value.length >= 1 && value[0] === 'Z') {
          value = value.slice(1);
          break;
        }
        if (value.length < 6 || value[3] !== ':') {
          bad = true;
          break;
        }
        const sign = value[0]!;
        const hh = getnum(value.slice(1, 3), true);
        const mm = hh ? getnum(value.slice(4, 6), true) : undefined;
        value = value.slice(6);
        if (!hh || !mm) {
          bad = true;
          break;
        }
        if (hh[0] > 24) range = 'time zone offset hour';
        if (mm[0] > 60) range = 'time zone offset minute';
        if (sign !== '+' && sign !== '-') bad = true;
        break;
      }
    }
    if (range) return withMsg(`: ${range} out of range`);
    if (bad) return cannot(hold, stdstr);
  }
  if (value.length > 0) return withMsg(`: extra text: ${goTimeQuote(value)}`);
  if (day < 1 || day > daysIn(month, year)) return withMsg(': day out of range');
  return undefined;
}
