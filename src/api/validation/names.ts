// String-format checks with apimachinery's messages (pkg/util/validation and
// pkg/api/validate/content). Each returns the list of problems, empty when the value is valid,
// so that callers can wrap every message in a field error exactly as upstream does.
//
// v1.32 has one length wording, MaxLenError's "must be no more than N characters", for names,
// label keys and label values alike, though Go's len() counts bytes (pkg/api/validate/content,
// whose helpers say "bytes", came later).

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import { isIPv6Address, parseIPv4 } from '../servicerange.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

export const DNS1123LabelMaxLength = 63;
export const DNS1123SubdomainMaxLength = 253;

const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyMaxLength = 63;
const labelKeyRe = new RegExp(`^${labelKeyFmt}$`);

const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LabelValueMaxLength = 63;
const labelValueRe = new RegExp(`^${labelValueFmt}$`);

/**
 * Strings a check found valid, so that the next check of the same string is a lookup: the same
 * names, label keys and values recur across thousands of objects, and the checks are pure.
 * Only valid strings are kept (an invalid one is checked again, for its messages); bounded.
 */
class ValidStrings {
  private readonly valid = new Set<string>();
  check(value: string, problems: (value: string) => string[]): string[] {
    if (this.valid.has(value)) return [];
    const errs = problems(value);
    if (errs.length === 0) {
      if (this.valid.size >= 8192) this.valid.clear();
      this.valid.add(value);
    }
    return errs;
  }
}

/** Go's len(): UTF-8 bytes. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Go's len(s) > max. A UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair, two units, is 4),
 * so a string of at most max/3 units needs no count: names and label values are short.
 */
export function longerThan(s: string, max: number): boolean {
  return s.length * 3 > max && byteLength(s) > max;
}

/** pkg/util/validation MaxLenError. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** RegexError: `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')` (the double space is upstream's). */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) s += ' or ';
    s += `'${e}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number | bigint, hi: number | bigint): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** IsDNS1123Label. */
const dns1123LabelProblemsValid = new ValidStrings();
export function isDNS1123Label(value: string): string[] {
  return dns1123LabelProblemsValid.check(value, dns1123LabelProblems);
}

function dns1123LabelProblems(value: string): string[] {
  const errs: string[] = [];
  if (longerThan(value, DNS1123LabelMaxLength)) errs.push(maxLenError(DNS1123LabelMaxLength));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/**
 * IsDNS1123Subdomain (pkg/util/validation wording). Not remembered: it checks object names,
 * which are mostly seen once, and a length test and one regular expression cost less than
 * remembering them.
 */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (longerThan(value, DNS1123SubdomainMaxLength)) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/** IsQualifiedName: optional DNS-subdomain prefix and '/', then a name of at most 63 bytes ("characters" in the message). */
const qualifiedNameProblemsValid = new ValidStrings();
export function isQualifiedName(value: string): string[] {
  return qualifiedNameProblemsValid.check(value, qualifiedNameProblems);
}

function qualifiedNameProblems(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  switch (parts.length) {
    case 1:
      name = parts[0]!;
      break;
    case 2: {
      const prefix = parts[0]!;
      name = parts[1]!;
      if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
      else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
      break;
    }
    default:
      return [
        `a qualified name ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (longerThan(name, labelKeyMaxLength)) errs.push(`name part ${maxLenError(labelKeyMaxLength)}`);
  if (!labelKeyRe.test(name)) errs.push(`name part ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** IsValidLabelValue. */
const labelValueProblemsValid = new ValidStrings();
export function isValidLabelValue(value: string): string[] {
  return labelValueProblemsValid.check(value, labelValueProblems);
}

function labelValueProblems(value: string): string[] {
  const errs: string[] = [];
  if (longerThan(value, LabelValueMaxLength)) errs.push(maxLenError(LabelValueMaxLength));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 && Number.isInteger(port) ? [] : [inclusiveRangeError(1, 65535)];
}

const portNameCharsetRe = /^[-a-z0-9]+$/;
const portNameOneLetterRe = /[a-z]/;

/** IsValidPortName (IANA_SVC_NAME). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (longerThan(port, 15)) errs.push(maxLenError(15));
  if (!portNameCharsetRe.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!portNameOneLetterRe.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** maxUserID / maxGroupID: math.MaxInt32 ("in libcontainer UID/GID limits is 0 ~ 1<<31 - 1"). */
const maxUnixID = 2147483647;

/** IsValidUserID / IsValidGroupID: 0..2147483647. */
export function isValidUnixID(id: number): string[] {
  return Number.isInteger(id) && id >= 0 && id <= maxUnixID ? [] : [inclusiveRangeError(0, maxUnixID)];
}

/** maskTrailingDash: a generateName prefix may end in '-' (the random suffix follows it). */
function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, name.length - 2)}a`;
  return name;
}

/** A ValidateNameFunc: `prefix` is true when validating a generateName. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/** NameIsDNSSubdomain (pods, quotas, limit ranges, service accounts, priority classes, nodes). */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** NameIsDNSLabel (namespaces). */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);

/** IsDNS1035Label. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (longerThan(value, DNS1123LabelMaxLength)) errs.push(maxLenError(DNS1123LabelMaxLength));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/** NameIsDNS1035Label (services). */
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** IsValidIP's message (pkg/util/validation, v1.32). */
export const validIPMsg = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** netutils.ParseIPSloppy: IPv4 with leading zeros allowed, or IPv6. */
export function isSloppyIP(s: string): boolean {
  return parseIPv4(s) !== undefined || isIPv6Address(s);
}

/** IsValidIP (v1.32: sloppy parsing, so `010.0.0.1` passes): `<path>: Invalid value: "<ip>": must be a valid IP address, …`. */
export function validateIP(value: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!isSloppyIP(value)) errs.push(fieldError.invalid(path, value, validIPMsg));
  return errs;
}
