// Label and field selectors in apimachinery's string syntax, with its error wording.
//   labels (pkg/labels/selector.go): `app=web,tier!=db,env in (a,b),env notin (c),has-key,!no-key,
//     n>1,n<5`, parsed by its lexer and parser; a requirement is checked as NewRequirement does.
//   fields (pkg/fields/selector.go): `metadata.name=web,status.phase!=Running`, only =, == and !=,
//     with `\`, `,` and `=` escaped by a backslash in values.

import type { LabelSelector } from './types.js';
import { errorString, fieldError, goQuote, type FieldError } from './fielderrors.js';
import { parseGoInt64 } from './queryparams.js';
import { isQualifiedName, isValidLabelValue } from './validation/names.js';

export type LabelRequirement =
  | { key: string; op: '=' | '==' | '!=' | 'gt' | 'lt'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!' };

export class SelectorParseError extends Error {}

export type Labels = Record<string, string> | undefined;

/** strconv.ParseInt(s, 10, 64), or undefined where it fails. */
function goInt64(s: string): bigint | undefined {
  try {
    parseGoInt64(s);
    return BigInt(s);
  } catch {
    return undefined;
  }
}

export function matchesRequirement(r: LabelRequirement, labels: Labels): boolean {
  const has = !!labels && Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = has ? labels![r.key] : undefined;
  switch (r.op) {
    case '=':
    case '==':
      return has && v === r.value;
    case '!=':
      return !has || v !== r.value;
    case 'in':
      return has && r.values.includes(v!);
    case 'notin':
      return !has || !r.values.includes(v!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has) return false;
      const have = goInt64(v!);
      const want = goInt64(r.value);
      if (have === undefined || want === undefined) return false;
      return r.op === 'gt' ? have > want : have < want;
    }
  }
}

export function matchesLabels(reqs: readonly LabelRequirement[], labels: Labels): boolean {
  return reqs.every((r) => matchesRequirement(r, labels));
}

/** aggregate.Error(): one message alone, several deduplicated inside `[…]`. */
function aggregateMessage(errs: FieldError[]): string {
  const msgs = [...new Set(errs.map(errorString))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/** validateLabelKey: the key's problems as one field error at `path` (`<nil>` from the parser). */
function labelKeyError(key: string, path: string): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? fieldError.invalid(path, key, errs.join('; ')) : undefined;
}

type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

/** selection.Operator values, in validRequirementOperators order. */
const validOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

/**
 * labels.NewRequirement with no path option: the key, the operator's value count, integer values
 * for gt and lt, and every value as a label value (values[i][key]); the errors aggregated.
 */
export function newRequirement(key: string, op: string, values: readonly string[]): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErr = labelKeyError(key, 'key');
  if (keyErr) errs.push(keyErr);
  switch (op) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(fieldError.invalid('values', [...values], "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(fieldError.invalid('values', [...values], 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(fieldError.invalid('values', [...values], 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(fieldError.invalid('values', [...values], "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (goInt64(v) === undefined) errs.push(fieldError.invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(fieldError.notSupported('operator', op, validOperators));
  }
  values.forEach((v, i) => {
    const problems = isValidLabelValue(v);
    if (problems.length) errs.push(fieldError.invalid(`values[${i}][${key}]`, v, problems.join('; ')));
  });
  if (errs.length) throw new SelectorParseError(aggregateMessage(errs));
  switch (op as Operator) {
    case 'in':
    case 'notin':
      return { key, op: op as 'in' | 'notin', values: [...values] };
    case 'exists':
    case '!':
      return { key, op: op as 'exists' | '!' };
    default:
      return { key, op: op as '=' | '==' | '!=' | 'gt' | 'lt', value: values[0]! };
  }
}

// The lexer (Lexer.Lex): identifiers run until whitespace or a special symbol; special symbols
// form the longest run that is still a token; a NUL byte reads as the end of the string.
type Token = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

const string2token: Record<string, Token> = {
  ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', in: 'in', '<': '<', '!=': '!=', notin: 'notin', '(': '(',
};
const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';

export interface ScannedItem {
  tok: Token;
  lit: string;
}

class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++]!;
    return '\0';
  }

  private unread(): void {
    this.pos--;
  }

  private scanIDOrKeyword(): ScannedItem {
    let buf = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buf += ch;
    }
    return { tok: Object.hasOwn(string2token, buf) ? string2token[buf]! : 'id', lit: buf };
  }

  private scanSpecialSymbol(): ScannedItem {
    let last: ScannedItem | undefined;
    let buf = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buf += ch;
      if (Object.hasOwn(string2token, buf)) last = { tok: string2token[buf]!, lit: buf };
      else if (last) {
        this.unread();
        break;
      }
    }
    return last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` };
  }

  lex(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '\0') return { tok: 'eos', lit: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIDOrKeyword();
  }
}

/** The tokens of a selector up to and including the end of the string (Parser.scan). */
export function lexLabelSelector(s: string): ScannedItem[] {
  const l = new Lexer(s);
  const out: ScannedItem[] = [];
  for (;;) {
    const item = l.lex();
    out.push(item);
    if (item.tok === 'eos') return out;
  }
}

type Context = 'keyAndOperator' | 'values';

/** The recursive-descent parser of labels.Parse, with its error texts. */
class Parser {
  private position = 0;
  constructor(private readonly items: ScannedItem[]) {}

  /** In the values context `in` and `notin` are identifiers (`value in (in)`). */
  private lookahead(ctx: Context): ScannedItem {
    const it = this.items[this.position]!;
    return ctx === 'values' && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }

  private consume(ctx: Context): ScannedItem {
    const it = this.lookahead(ctx);
    this.position++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead('values');
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.parseRequirement());
      } catch (e) {
        if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const next = this.consume('values');
      if (next.tok === 'eos') return reqs;
      if (next.tok !== ',') throw new SelectorParseError(`found '${next.lit}', expected: ',' or 'end of string'`);
      const after = this.lookahead('values');
      if (after.tok !== 'id' && after.tok !== '!') throw new SelectorParseError(`found '${after.lit}', expected: identifier after ','`);
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, op } = this.parseKeyAndInferOperator();
    if (op === 'exists' || op === '!') return newRequirement(key, op, []);
    const operator = this.parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, operator, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; op?: 'exists' | '!' } {
    let op: 'exists' | '!' | undefined;
    let it = this.consume('values');
    if (it.tok === '!') {
      op = '!';
      it = this.consume('values');
    }
    if (it.tok !== 'id') throw new SelectorParseError(`found '${it.lit}', expected: identifier`);
    const keyErr = labelKeyError(it.lit, '<nil>');
    if (keyErr) throw new SelectorParseError(errorString(keyErr));
    const next = this.lookahead('values').tok;
    if ((next === 'eos' || next === ',') && op !== '!') op = 'exists';
    return { key: it.lit, op };
  }

  private parseOperator(): Operator {
    const { tok, lit } = this.consume('keyAndOperator');
    switch (tok) {
      case 'in':
      case 'notin':
      case '=':
      case '==':
      case '!=':
        return tok;
      case '>':
        return 'gt';
      case '<':
        return 'lt';
      default:
        throw new SelectorParseError(`found '${lit}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  /** `(a,b)`: the set of values; `()` is the set of the empty string. */
  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.tok !== '(') throw new SelectorParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead('values');
    if (tok === ')') {
      this.consume('values');
      return new Set(['']);
    }
    if (tok !== 'id' && tok !== ',') throw new SelectorParseError(`found '${lit}', expected: ',', ')' or identifier`);
    const s = this.parseIdentifiersList();
    if (this.consume('values').tok !== ')') throw new SelectorParseError(`found '${lit}', expected: ')'`);
    return s;
  }

  /** A comma-separated list of possibly empty identifiers, up to `)`. */
  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume('values');
      if (tok === 'id') {
        s.add(lit);
        const next = this.lookahead('values');
        if (next.tok === ',') continue;
        if (next.tok === ')') return s;
        throw new SelectorParseError(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok !== ',') throw new SelectorParseError(`found '${lit}', expected: ',', or identifier`);
      if (s.size === 0) s.add(''); // "(,"
      const next = this.lookahead('values').tok;
      if (next === ')') {
        s.add(''); // ",)"
        return s;
      }
      if (next === ',') s.add(''); // ",,"
    }
  }

  /** The one value of `=`, `==`, `!=`, `>` and `<`; nothing before `,` or the end is "". */
  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').tok;
    if (next === 'eos' || next === ',') return new Set(['']);
    const { tok, lit } = this.consume('values');
    if (tok === 'id') return new Set([lit]);
    throw new SelectorParseError(`found '${lit}', expected: identifier`);
  }
}

/** ByKey. */
const byKey = (a: LabelRequirement, b: LabelRequirement) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** labels.Parse: the requirements sorted by key (a stable sort, as Go's for up to 12 terms). */
export function parseLabelSelector(s: string): LabelRequirement[] {
  const reqs = new Parser(lexLabelSelector(s)).parse();
  return reqs.sort(byKey);
}

/** Requirement.String joined by commas (internalSelector.String): set values sorted. */
export function labelSelectorString(reqs: readonly LabelRequirement[]): string {
  return reqs
    .map((r) => {
      switch (r.op) {
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.op} (${[...r.values].sort().join(',')})`;
        case 'gt':
          return `${r.key}>${r.value}`;
        case 'lt':
          return `${r.key}<${r.value}`;
        default:
          return `${r.key}${r.op}${r.value}`;
      }
    })
    .join(',');
}

/**
 * metav1.LabelSelectorAsSelector's requirements: matchLabels as `=`, matchExpressions by their
 * operator, each checked by NewRequirement (so NotIn without values, Exists with values or an
 * invalid key or value is an error, not a requirement).
 */
export function labelSelectorRequirements(sel: LabelSelector | undefined): LabelRequirement[] {
  if (!sel) return [];
  const out: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) out.push(newRequirement(k, '=', [v]));
  for (const e of sel.matchExpressions ?? []) {
    const op = selectorOperators[e.operator];
    if (!op) throw new SelectorParseError(`${goQuote(String(e.operator))} is not a valid label selector operator`);
    out.push(newRequirement(e.key, op, e.values ?? []));
  }
  return out.sort(byKey);
}

const selectorOperators: Record<string, Operator | undefined> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector as a predicate, the way the controllers use it: a missing
 * selector is labels.Nothing() (matches nothing), one with no requirements labels.Everything(),
 * and one that does not convert (a bad operator, or a requirement NewRequirement refuses) matches
 * nothing (the controller logs and skips it).
 */
export function labelSelectorMatcher(sel: LabelSelector | undefined): (labels: Labels) => boolean {
  if (!sel) return () => false;
  try {
    const reqs = labelSelectorRequirements(sel);
    return (labels) => matchesLabels(reqs, labels);
  } catch {
    return () => false;
  }
}

/** selector.Empty() of LabelSelectorAsSelector: present and without requirements (it selects everything). */
export function selectsEverything(sel: LabelSelector | undefined): boolean {
  return !!sel && Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0;
}

/**
 * How a controller finds the owners of an orphan (GetPodReplicaSets, GetPodStatefulSets,
 * getDaemonSetsForPod, getDeploymentsForReplicaSet): a selector that converts, is not empty, and
 * matches the labels.
 */
export function selectsOrphan(sel: LabelSelector | undefined, labels: Labels): boolean {
  return !selectsEverything(sel) && labelSelectorMatcher(sel)(labels);
}

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/** fields.splitTerms: commas not escaped by a backslash separate the terms. */
export function splitFieldTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** fields.splitTerm: the first `!=`, `==` or `=` (in that order at each position) splits a term. */
export function splitFieldTerm(term: string): { lhs: string; op: '!=' | '==' | '='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.EscapeValue: `\`, `,` and `=` behind a backslash. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue, with InvalidEscapeSequence and UnescapedRune's texts (a rune prints as its number). */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/**
 * fields.ParseSelector: terms sorted, empty terms skipped, no whitespace trimmed (a field is what
 * precedes the operator, spaces included), values unescaped.
 */
export function parseFieldSelector(s: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  for (const part of splitFieldTerms(s).sort()) {
    if (part === '') continue;
    const t = splitFieldTerm(part);
    if (!t) throw new SelectorParseError(`invalid selector: '${s}'; can't understand '${part}'`);
    out.push({ field: t.lhs, op: t.op === '!=' ? '!=' : '=', value: unescapeFieldValue(t.rhs) });
  }
  return out;
}

/** hasTerm and notHasTerm: a field the object does not have reads as "". */
export function matchesFields(reqs: readonly FieldRequirement[], fields: Record<string, string>): boolean {
  return reqs.every((r) => ((fields[r.field] ?? '') === r.value) === (r.op === '='));
}

/**
 * What an authorizer reads of a request's field selector (GetAuthorizerAttributes, and
 * requestinfo.go for the name): fields.ParseSelector's terms, none where it fails to parse.
 */
export function authorizationFieldTerms(s: string | undefined): FieldRequirement[] {
  try {
    return parseFieldSelector(s ?? '');
  } catch (e) {
    if (e instanceof SelectorParseError) return [];
    throw e;
  }
}

/**
 * Selector.RequiresExactMatch: the value of the first `=` or `==` term on the field, the terms
 * in ParseSelector's sorted order (`!=` terms never count); undefined where none.
 */
export function requiresExactMatch(reqs: readonly FieldRequirement[], field: string): string | undefined {
  return reqs.find((r) => r.field === field && r.op === '=')?.value;
}
