// Label and field selectors against apimachinery's own tables: pkg/labels/selector_test.go,
// pkg/fields/selector_test.go and pkg/apis/meta/v1/helpers_test.go (TestLabelSelectorAsSelector).
// Error texts not in those tables follow pkg/labels/selector.go's parser and NewRequirement.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  escapeFieldValue,
  labelSelectorMatcher,
  labelSelectorRequirements,
  labelSelectorString,
  lexLabelSelector,
  matchesFields,
  matchesLabels,
  newRequirement,
  parseFieldSelector,
  parseLabelSelector,
  splitFieldTerm,
  splitFieldTerms,
  unescapeFieldValue,
  type LabelRequirement,
} from '../../src/api/selectors.js';
import { selectsNode } from '../../src/apiserver/authorizer.js';
import { listedName } from '../../src/apiserver/request.js';

const labelKeyRegexMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueRegexMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector: labels TestSelectorParse (restring without spaces)', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5']) {
    it(`good ${JSON.stringify(s)}`, () => assert.equal(labelSelectorString(parseLabelSelector(s)), s.replace(/ /g, '')));
  }
  for (const s of ['x=a||y=b', 'x==a==b', '!x=a', 'x<a']) {
    it(`bad ${JSON.stringify(s)}`, () => assert.throws(() => parseLabelSelector(s)));
  }
});

describe('parseLabelSelector: TestDeterministicParse', () => {
  it('x=a,a=x and a=x,x=a print alike', () => assert.equal(labelSelectorString(parseLabelSelector('x=a,a=x')), labelSelectorString(parseLabelSelector('a=x,x=a'))));
});

describe('matchesLabels: labels TestSelectorMatches and TestEverything', () => {
  const fooBaz = { foo: 'bar', baz: 'blah' };
  const rows: { sel: string; labels: Record<string, string>; want: boolean }[] = [
    { sel: '', labels: { x: 'y' }, want: true },
    { sel: 'x=y', labels: { x: 'y' }, want: true },
    { sel: 'x=y,z=w', labels: { x: 'y', z: 'w' }, want: true },
    { sel: 'x!=y,z!=w', labels: { x: 'z', z: 'a' }, want: true },
    { sel: 'notin=in', labels: { notin: 'in' }, want: true },
    { sel: 'x', labels: { x: 'z' }, want: true },
    { sel: '!x', labels: { y: 'z' }, want: true },
    { sel: 'x>1', labels: { x: '2' }, want: true },
    { sel: 'x<1', labels: { x: '0' }, want: true },
    { sel: 'x=z', labels: {}, want: false },
    { sel: 'x=y', labels: { x: 'z' }, want: false },
    { sel: 'x=y,z=w', labels: { x: 'w', z: 'w' }, want: false },
    { sel: 'x!=y,z!=w', labels: { x: 'z', z: 'w' }, want: false },
    { sel: 'x', labels: { y: 'z' }, want: false },
    { sel: '!x', labels: { x: 'z' }, want: false },
    { sel: 'x>1', labels: { x: '0' }, want: false },
    { sel: 'x<1', labels: { x: '2' }, want: false },
    { sel: 'foo=bar', labels: fooBaz, want: true },
    { sel: 'baz=blah', labels: fooBaz, want: true },
    { sel: 'foo=bar,baz=blah', labels: fooBaz, want: true },
    { sel: 'foo=blah', labels: fooBaz, want: false },
    { sel: 'baz=bar', labels: fooBaz, want: false },
    { sel: 'foo=bar,foobar=bar,baz=blah', labels: fooBaz, want: false },
  ];
  for (const r of rows) {
    it(`${JSON.stringify(r.sel)} on ${JSON.stringify(r.labels)} is ${r.want}`, () => assert.equal(matchesLabels(parseLabelSelector(r.sel), r.labels), r.want));
  }
});

describe('lexLabelSelector: TestLexer, TestLexerSequence, TestParserLookahead', () => {
  const single: [string, string][] = [
    ['', 'eos'], [',', ','], ['notin', 'notin'], ['in', 'in'], ['=', '='], ['==', '=='], ['>', '>'], ['<', '<'],
    ['!', '!'], ['!=', '!='], ['(', '('], [')', ')'], ['~', 'id'], ['||', 'id'],
  ];
  for (const [s, tok] of single) {
    it(`${JSON.stringify(s)} is one ${tok} token`, () => {
      const [first] = lexLabelSelector(s);
      assert.deepEqual(first, { tok, lit: s });
    });
  }
  const sequences: [string, string[]][] = [
    ['key in ( value )', ['id', 'in', '(', 'id', ')']],
    ['key notin ( value )', ['id', 'notin', '(', 'id', ')']],
    ['key in ( value1, value2 )', ['id', 'in', '(', 'id', ',', 'id', ')']],
    ['key', ['id']],
    ['!key', ['!', 'id']],
    ['()', ['(', ')']],
    ['', []],
    ['x in (),y', ['id', 'in', '(', ')', ',', 'id']],
    ['== != (), = notin', ['==', '!=', '(', ')', ',', '=', 'notin']],
    ['key>2', ['id', '>', 'id']],
    ['key<1', ['id', '<', 'id']],
  ];
  for (const [s, toks] of sequences) {
    it(`${JSON.stringify(s)} lexes as ${toks.join(' ') || 'nothing'}, then the end`, () => assert.deepEqual(lexLabelSelector(s).map((t) => t.tok), [...toks, 'eos']));
  }
});

describe('newRequirement: TestRequirementConstructor with NewRequirement error texts', () => {
  const rows: { key: string; op: string; values: string[]; error?: string }[] = [
    { key: 'x1', op: 'in', values: [], error: `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty` },
    { key: 'x2', op: 'notin', values: [], error: `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty` },
    { key: 'x3', op: 'in', values: ['foo'] },
    { key: 'x4', op: 'notin', values: ['foo'] },
    { key: 'x5', op: '=', values: ['bar', 'foo'], error: `values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value` },
    { key: 'x6', op: 'exists', values: [] },
    { key: 'x7', op: '!', values: [] },
    { key: 'x8', op: 'exists', values: ['foo'], error: `values: Invalid value: ["foo"]: values set must be empty for exists and does not exist` },
    { key: 'x9', op: 'in', values: ['bar'] },
    { key: 'x11', op: 'gt', values: ['1'] },
    { key: 'x12', op: 'lt', values: ['6'] },
    { key: 'x13', op: 'gt', values: [], error: `values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required` },
    { key: 'x14', op: 'gt', values: ['bar'], error: `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer` },
    { key: 'x15', op: 'lt', values: ['bar'], error: `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer` },
    { key: 'x16', op: '=', values: ['a'.repeat(254)], error: `values[0][x16]: Invalid value: "${'a'.repeat(254)}": must be no more than 63 characters` },
    { key: 'x17', op: '=', values: ['a b'], error: `values[0][x17]: Invalid value: "a b": ${labelValueRegexMsg}` },
    { key: 'x18', op: 'unsupportedOp', values: [], error: `operator: Unsupported value: "unsupportedOp": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"` },
    { key: '1foo', op: 'in', values: ['bar'] },
    { key: '1234', op: 'in', values: ['bar'] },
    { key: 'a'.repeat(254), op: 'exists', values: [], error: `key: Invalid value: "${'a'.repeat(254)}": name part must be no more than 63 characters` },
    // Two errors aggregate as [e1, e2].
    { key: 'x', op: 'gt', values: ['a.'], error: `[values[0]: Invalid value: "a.": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "a.": ${labelValueRegexMsg}]` },
  ];
  for (const r of rows) {
    it(`${r.key.slice(0, 20)} ${r.op} ${JSON.stringify(r.values).slice(0, 20)} ${r.error ? 'fails' : 'is valid'}`, () => {
      if (r.error) assert.throws(() => newRequirement(r.key, r.op, r.values), { message: r.error });
      else assert.doesNotThrow(() => newRequirement(r.key, r.op, r.values));
    });
  }
});

const req = (key: string, op: string, values: string[]): LabelRequirement => newRequirement(key, op, values);

describe('labelSelectorString: TestToString', () => {
  const rows: { reqs: LabelRequirement[]; want: string }[] = [
    { reqs: [req('x', 'in', ['abc', 'def']), req('y', 'notin', ['jkl']), req('z', 'exists', [])], want: 'x in (abc,def),y notin (jkl),z' },
    { reqs: [req('x', 'notin', ['abc', 'def']), req('y', '!=', ['jkl']), req('z', '!', [])], want: 'x notin (abc,def),y!=jkl,!z' },
    { reqs: [req('x', 'notin', ['abc']), req('y', 'in', ['jkl', 'mno']), req('z', 'notin', [''])], want: 'x notin (abc),y in (jkl,mno),z notin ()' },
    { reqs: [req('x', '=', ['abc']), req('y', '==', ['jkl']), req('z', '!=', ['a']), req('z', 'exists', [])], want: 'x=abc,y==jkl,z!=a,z' },
    { reqs: [req('x', 'gt', ['2']), req('y', 'lt', ['8']), req('z', 'exists', [])], want: 'x>2,y<8,z' },
  ];
  for (const r of rows) it(r.want, () => assert.equal(labelSelectorString(r.reqs), r.want));
});

describe('matchesLabels: TestRequirementSelectorMatching', () => {
  const rows: { labels: Record<string, string>; reqs: LabelRequirement[]; want: boolean }[] = [
    { labels: { x: 'foo', y: 'baz' }, reqs: [req('x', 'in', ['foo']), req('y', 'notin', ['alpha'])], want: true },
    { labels: { x: 'foo', y: 'baz' }, reqs: [req('x', 'in', ['foo']), req('y', 'in', ['alpha'])], want: false },
    { labels: { y: '' }, reqs: [req('x', 'notin', ['']), req('y', 'exists', [])], want: true },
    { labels: { y: '' }, reqs: [req('x', '!', []), req('y', 'exists', [])], want: true },
    { labels: { y: '' }, reqs: [req('x', 'notin', ['']), req('y', '!', [])], want: false },
    { labels: { y: 'baz' }, reqs: [req('x', 'in', [''])], want: false },
    { labels: { z: '2' }, reqs: [req('z', 'gt', ['1'])], want: true },
    { labels: { z: 'v2' }, reqs: [req('z', 'gt', ['1'])], want: false },
  ];
  for (const r of rows) it(`${labelSelectorString(r.reqs)} on ${JSON.stringify(r.labels)} is ${r.want}`, () => assert.equal(matchesLabels(r.reqs, r.labels), r.want));
});

describe('parseLabelSelector: TestSetSelectorParser', () => {
  // want: the parsed selector's string form, or undefined where parsing must fail.
  const rows: { in: string; want?: string }[] = [
    { in: '', want: '' },
    { in: '\rx', want: 'x' },
    { in: 'this-is-a-dns.domain.com/key-with-dash', want: 'this-is-a-dns.domain.com/key-with-dash' },
    { in: 'this-is-another-dns.domain.com/key-with-dash in (so,what)', want: 'this-is-another-dns.domain.com/key-with-dash in (so,what)' },
    { in: '0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', want: '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)' },
    { in: 'foo  in\t (abc)', want: 'foo in (abc)' },
    { in: 'x notin\n (abc)', want: 'x notin (abc)' },
    { in: 'x  notin\t\t\t(abc,def)', want: 'x notin (abc,def)' },
    { in: 'x in (abc,def)', want: 'x in (abc,def)' },
    { in: 'x in (abc,)', want: 'x in (,abc)' },
    { in: 'x in ()', want: 'x in ()' },
    { in: 'x notin (abc,,def),bar,z in (),w', want: 'bar,w,x notin (,abc,def),z in ()' },
    { in: 'x,y in (a)', want: 'x,y in (a)' },
    { in: 'x=a', want: 'x=a' },
    { in: 'x>1', want: 'x>1' },
    { in: 'x<7', want: 'x<7' },
    { in: 'x=a,y!=b', want: 'x=a,y!=b' },
    { in: 'x=a,y!=b,z in (h,i,j)', want: 'x=a,y!=b,z in (h,i,j)' },
    { in: 'x=a||y=b' },
    { in: 'x,,y' },
    { in: ',x,y' },
    { in: 'x nott in (y)' },
    { in: 'x notin ( )', want: 'x notin ()' },
    { in: 'x notin (, a)', want: 'x notin (,a)' },
    { in: 'a in (xyz),' },
    { in: 'a in (xyz)b notin ()' },
    { in: 'a ', want: 'a' },
    { in: 'a in (x,y,notin, z,in)', want: 'a in (in,notin,x,y,z)' },
    { in: 'a in (xyz abc)' },
    { in: 'a notin(' },
    { in: 'a (' },
    { in: '(' },
  ];
  for (const r of rows) {
    it(`${JSON.stringify(r.in)} ${r.want === undefined ? 'fails' : `is ${r.want}`}`, () => {
      if (r.want === undefined) assert.throws(() => parseLabelSelector(r.in));
      else assert.equal(labelSelectorString(parseLabelSelector(r.in)), r.want);
    });
  }
});

describe('parseLabelSelector: error texts of selector.go (the 400 message of a list)', () => {
  const rows: { in: string; error: string }[] = [
    { in: 'x=a b', error: "found 'b', expected: ',' or 'end of string'" },
    { in: 'x,,y', error: "found ',', expected: identifier after ','" },
    { in: ',x', error: "found ',', expected: !, identifier, or 'end of string'" },
    { in: 'a in (xyz),', error: "found '', expected: identifier after ','" },
    { in: 'x nott in (y)', error: "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt" },
    { in: 'a (', error: "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt" },
    { in: 'a in x', error: "unable to parse requirement: found 'x' expected: '('" },
    { in: 'a in (xyz abc)', error: "unable to parse requirement: found 'abc', expected: ',' or ')'" },
    { in: 'a notin(', error: "unable to parse requirement: found '', expected: ',', ')' or identifier" },
    { in: 'a in (x=', error: "unable to parse requirement: found '=', expected: ',' or ')'" },
    { in: 'a in (,=', error: "unable to parse requirement: found '=', expected: ',', or identifier" },
    { in: 'x==(', error: "unable to parse requirement: found '(', expected: identifier" },
    { in: '!=x', error: "found '!=', expected: !, identifier, or 'end of string'" },
    { in: '! =x', error: "unable to parse requirement: found '=', expected: identifier" },
    { in: '!x=a', error: "found '=', expected: ',' or 'end of string'" },
    { in: '-x', error: `unable to parse requirement: <nil>: Invalid value: "-x": ${labelKeyRegexMsg}` },
    { in: 'x=a b c', error: "found 'b', expected: ',' or 'end of string'" },
    { in: 'x=-a', error: `unable to parse requirement: values[0][x]: Invalid value: "-a": ${labelValueRegexMsg}` },
    { in: 'x<a', error: `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer` },
  ];
  for (const r of rows) it(JSON.stringify(r.in), () => assert.throws(() => parseLabelSelector(r.in), { message: r.error }));
});

describe('labelSelectorRequirements: TestLabelSelectorAsSelector and TestSetMatches', () => {
  const baz = { key: 'baz', operator: 'In', values: ['qux', 'norf'] };
  const rows: { name: string; sel: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] }; want?: string; error?: string }[] = [
    { name: 'empty selects everything', sel: {}, want: '' },
    { name: 'matchLabels', sel: { matchLabels: { foo: 'bar' } }, want: 'foo=bar' },
    { name: 'matchExpressions', sel: { matchExpressions: [baz] }, want: 'baz in (norf,qux)' },
    { name: 'both, sorted by key', sel: { matchLabels: { foo: 'bar' }, matchExpressions: [baz] }, want: 'baz in (norf,qux),foo=bar' },
    { name: 'Exists with values is an error', sel: { matchExpressions: [{ key: 'baz', operator: 'Exists', values: ['qux', 'norf'] }] }, error: 'values: Invalid value: ["qux","norf"]: values set must be empty for exists and does not exist' },
    { name: 'NotIn without values is an error', sel: { matchExpressions: [{ key: 'baz', operator: 'NotIn' }] }, error: "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty" },
    { name: 'an unknown operator is an error', sel: { matchExpressions: [{ key: 'baz', operator: 'Gt', values: ['1'] }] }, error: '"Gt" is not a valid label selector operator' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error) assert.throws(() => labelSelectorRequirements(r.sel), { message: r.error });
      else assert.equal(labelSelectorString(labelSelectorRequirements(r.sel)), r.want);
    });
  }
  it('a selector that does not convert matches nothing', () => assert.equal(labelSelectorMatcher({ matchExpressions: [{ key: 'baz', operator: 'NotIn' }] })({ a: 'b' }), false));
  const labelset = { foo: 'bar', baz: 'blah' };
  for (const set of [{}, { foo: 'bar' }, { baz: 'blah' }, { foo: 'bar', baz: 'blah' }] as Record<string, string>[]) {
    it(`SelectorFromSet ${JSON.stringify(set)} matches ${JSON.stringify(labelset)}`, () => assert.equal(labelSelectorMatcher({ matchLabels: set })(labelset), true));
  }
});

// hasTerm.String / notHasTerm.String joined by commas: the field, = or !=, the escaped value.
const fieldString = (s: string) => parseFieldSelector(s).map((r) => `${r.field}${r.op}${escapeFieldValue(r.value)}`).join(',');

describe('splitFieldTerms: fields TestSplitTerms', () => {
  const rows: [string, string[]][] = [
    ['a', ['a']],
    ['a=avalue', ['a=avalue']],
    ['a=avalue,b=bvalue', ['a=avalue', 'b=bvalue']],
    ['a=avalue,b==bvalue,c!=cvalue', ['a=avalue', 'b==bvalue', 'c!=cvalue']],
    ['', []],
    ['a=a,', ['a=a', '']],
    [',a=a', ['', 'a=a']],
    ['k=\\,,k2=v2', ['k=\\,', 'k2=v2']],
    ['k=\\\\,k2=v2', ['k=\\\\', 'k2=v2']],
    ['k=\\\\\\,,k2=v2', ['k=\\\\\\,', 'k2=v2']],
    ['k=\\a\\b\\', ['k=\\a\\b\\']],
    ['k=\\', ['k=\\']],
    ['함=수,목=록', ['함=수', '목=록']],
  ];
  for (const [s, want] of rows) it(JSON.stringify(s), () => assert.deepEqual(splitFieldTerms(s), want));
});

describe('splitFieldTerm: fields TestSplitTerm', () => {
  const rows: [string, { lhs: string; op: string; rhs: string } | undefined][] = [
    ['a=value', { lhs: 'a', op: '=', rhs: 'value' }],
    ['b==value', { lhs: 'b', op: '==', rhs: 'value' }],
    ['c!=value', { lhs: 'c', op: '!=', rhs: 'value' }],
    ['', undefined],
    ['a', undefined],
    ['k=\\,', { lhs: 'k', op: '=', rhs: '\\,' }],
    ['k=\\=', { lhs: 'k', op: '=', rhs: '\\=' }],
    ['k=\\\\\\a\\b\\=\\,\\', { lhs: 'k', op: '=', rhs: '\\\\\\a\\b\\=\\,\\' }],
    ['함=수', { lhs: '함', op: '=', rhs: '수' }],
  ];
  for (const [s, want] of rows) it(JSON.stringify(s), () => assert.deepEqual(splitFieldTerm(s), want));
});

describe('escapeFieldValue and unescapeFieldValue: fields TestEscapeValue', () => {
  const rows: [string, string][] = [['', ''], ['a', 'a'], ['=', '\\='], [',', '\\,'], ['\\', '\\\\'], ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\']];
  for (const [plain, escaped] of rows) {
    it(`${JSON.stringify(plain)} escapes to ${JSON.stringify(escaped)} and back`, () => {
      assert.equal(escapeFieldValue(plain), escaped);
      assert.equal(unescapeFieldValue(escaped), plain);
    });
  }
  const invalid: [string, string][] = [
    ['\\', 'invalid field selector: invalid escape sequence: \\'],
    ['\\\\\\', 'invalid field selector: invalid escape sequence: \\'],
    ['\\a', 'invalid field selector: invalid escape sequence: \\a'],
    ['a=b', 'invalid field selector: unescaped character in value: 61'],
    ['a,b', 'invalid field selector: unescaped character in value: 44'],
  ];
  for (const [v, error] of invalid) it(`${JSON.stringify(v)} fails`, () => assert.throws(() => unescapeFieldValue(v), { message: error }));
});

describe('parseFieldSelector: fields TestSelectorParse and TestDeterministicParse', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a||y\\=b', 'x=a\\=\\=b']) {
    it(`good ${JSON.stringify(s)}`, () => assert.equal(fieldString(s), s));
  }
  const bad: [string, string][] = [
    ['x=a||y=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a,b', "invalid selector: 'x=a,b'; can't understand 'b'"],
    ['x in (a)', "invalid selector: 'x in (a)'; can't understand 'x in (a)'"],
    ['x in (a,b,c)', "invalid selector: 'x in (a,b,c)'; can't understand 'b'"],
    ['x', "invalid selector: 'x'; can't understand 'x'"],
  ];
  for (const [s, error] of bad) it(`bad ${JSON.stringify(s)}`, () => assert.throws(() => parseFieldSelector(s), { message: error }));
  it('x=a,a=x and a=x,x=a parse alike', () => assert.equal(fieldString('x=a,a=x'), fieldString('a=x,x=a')));
  // Not trimmed, empty terms skipped (splitTerms, parseSelector).
  it('spaces stay in the field and the value', () => assert.deepEqual(parseFieldSelector('a = b'), [{ field: 'a ', op: '=', value: ' b' }]));
  it('empty terms are skipped', () => assert.deepEqual(parseFieldSelector('a=b,'), [{ field: 'a', op: '=', value: 'b' }]));
});

describe('matchesFields: fields TestSelectorMatches and TestOneTermEqualSelector', () => {
  const fieldset = { foo: 'bar', baz: 'blah', complex: '=value\\,\\' };
  const rows: { sel: string; fields: Record<string, string>; want: boolean }[] = [
    { sel: '', fields: { x: 'y' }, want: true },
    { sel: 'x=y', fields: { x: 'y' }, want: true },
    { sel: 'x=y,z=w', fields: { x: 'y', z: 'w' }, want: true },
    { sel: 'x!=y,z!=w', fields: { x: 'z', z: 'a' }, want: true },
    { sel: 'notin=in', fields: { notin: 'in' }, want: true },
    { sel: 'x=y', fields: { x: 'z' }, want: false },
    { sel: 'x=y,z=w', fields: { x: 'w', z: 'w' }, want: false },
    { sel: 'x!=y,z!=w', fields: { x: 'z', z: 'w' }, want: false },
    { sel: 'foo=bar', fields: fieldset, want: true },
    { sel: 'baz=blah', fields: fieldset, want: true },
    { sel: 'foo=bar,baz=blah', fields: fieldset, want: true },
    { sel: 'foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\', fields: fieldset, want: true },
    { sel: 'foo=blah', fields: fieldset, want: false },
    { sel: 'baz=bar', fields: fieldset, want: false },
    { sel: 'foo=bar,foobar=bar,baz=blah', fields: fieldset, want: false },
    // A field the set lacks reads as "" (Set.Get).
    { sel: 'foobar=', fields: fieldset, want: true },
  ];
  for (const r of rows) it(`${JSON.stringify(r.sel)} is ${r.want}`, () => assert.equal(matchesFields(parseFieldSelector(r.sel), r.fields), r.want));
});

// What the authorizers read of a list's field selector, through the one parser: requestinfo.go's
// RequiresExactMatch("metadata.name") (a parse error leaves no name) and the node authorizer's
// spec.nodeName requirement of authorizePod (a parse error leaves no requirements).
describe('listedName: requestinfo.go names a list or watch by its field selector', () => {
  const rows: { name: string; sel: string | null; want: string | undefined }[] = [
    { name: 'no selector', sel: null, want: undefined },
    { name: 'empty selector', sel: '', want: undefined },
    { name: '=', sel: 'metadata.name=web', want: 'web' },
    { name: '==', sel: 'metadata.name==web', want: 'web' },
    { name: '!= names nothing', sel: 'metadata.name!=web', want: undefined },
    { name: 'an escaped comma is part of the name', sel: 'metadata.name=a\\,b', want: 'a,b' },
    { name: 'an escaped equals sign is part of the name', sel: 'metadata.name=a\\=b', want: 'a=b' },
    { name: 'a space before the field makes another field', sel: ' metadata.name=web', want: undefined },
    { name: 'a space after the operator stays in the name', sel: 'metadata.name= web', want: ' web' },
    { name: 'a trailing space stays in the name', sel: 'metadata.name=web ', want: 'web ' },
    { name: 'among several terms', sel: 'spec.nodeName=n1,metadata.name=web', want: 'web' },
    { name: 'two names: the first after sorting the terms', sel: 'metadata.name=b,metadata.name=a', want: 'a' },
    { name: 'a != term does not hide an = term', sel: 'metadata.name!=a,metadata.name=b', want: 'b' },
    { name: 'a term without an operator is a parse error', sel: 'metadata.name=web,junk', want: undefined },
    { name: 'an unknown escape is a parse error', sel: 'metadata.name=w\\eb', want: undefined },
    { name: 'an unescaped = in the value is a parse error', sel: 'metadata.name=a=b', want: undefined },
    { name: 'an empty name is none', sel: 'metadata.name=', want: undefined },
    { name: '".." is not a path segment', sel: 'metadata.name=..', want: undefined },
    { name: '"/" is not allowed in a path segment', sel: 'metadata.name=a/b', want: undefined },
    { name: '"%" is not allowed in a path segment', sel: 'metadata.name=a%b', want: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.equal(listedName(r.sel), r.want));
});

describe('selectsNode: authorizePod lets a node list the pods with its spec.nodeName', () => {
  const rows: { name: string; sel: string | undefined; node?: string; want: boolean }[] = [
    { name: 'no selector', sel: undefined, want: false },
    { name: '=', sel: 'spec.nodeName=n1', want: true },
    { name: '==', sel: 'spec.nodeName==n1', want: true },
    { name: '!= is not the node', sel: 'spec.nodeName!=n1', want: false },
    { name: 'another node', sel: 'spec.nodeName=n2', want: false },
    { name: 'any matching term among several', sel: 'spec.nodeName=n2,spec.nodeName=n1', want: true },
    { name: 'with other fields', sel: 'status.phase=Running,spec.nodeName=n1', want: true },
    { name: 'a space before the field makes another field', sel: ' spec.nodeName=n1', want: false },
    { name: 'a space in the value is kept', sel: 'spec.nodeName= n1', want: false },
    { name: 'an escaped value', sel: 'spec.nodeName=a\\,b', node: 'a,b', want: true },
    { name: 'a parse error leaves no requirements', sel: 'spec.nodeName=n1,junk', want: false },
    { name: 'a bad escape elsewhere leaves no requirements', sel: 'spec.nodeName=n1,x=\\q', want: false },
  ];
  for (const r of rows) it(r.name, () => assert.equal(selectsNode(r.sel, r.node ?? 'n1'), r.want));
});
