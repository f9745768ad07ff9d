import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  nameIsDNSSubdomain,
} from '../../../src/api/validation/names.js';
import { dnsLabelMsg, dnsSubdomainMsg, labelValueMsg, namePartMsg } from './messages.js';

type Row = { name: string; value: string; want: string[] };

function table(title: string, fn: (v: string) => string[], rows: Row[]): void {
  describe(title, () => {
    for (const r of rows) test(r.name, () => assert.deepEqual(fn(r.value), r.want));
  });
}

table('IsDNS1123Label', isDNS1123Label, [
  { name: 'lowercase word is a label', value: 'web', want: [] },
  { name: 'digits and inner dashes are allowed', value: '123-abc', want: [] },
  { name: '63 characters is the longest label', value: 'a'.repeat(63), want: [] },
  { name: 'uppercase is refused with the regex message', value: 'Web', want: [dnsLabelMsg] },
  { name: 'leading dash is refused', value: '-web', want: [dnsLabelMsg] },
  { name: 'a valid subdomain gets "must not contain dots"', value: 'a.b', want: ['must not contain dots'] },
  { name: '64 characters is too long (characters wording)', value: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
  { name: 'empty fails the regex', value: '', want: [dnsLabelMsg] },
]);

table('IsDNS1123Subdomain', isDNS1123Subdomain, [
  { name: 'dotted lowercase name is a subdomain', value: 'a.b-c.d', want: [] },
  { name: 'underscore is refused', value: 'a_b', want: [dnsSubdomainMsg] },
  { name: '254 characters is too long and still matches the regex', value: 'a'.repeat(254), want: ['must be no more than 253 characters'] },
]);

table('IsQualifiedName (label keys, resource names)', isQualifiedName, [
  { name: 'plain name', value: 'MyName', want: [] },
  { name: 'prefixed name', value: 'example.com/my_name', want: [] },
  { name: 'empty prefix', value: '/simple', want: ['prefix part must be non-empty'] },
  { name: 'bad prefix gets each subdomain message prefixed', value: 'Example.com/x', want: [`prefix part ${dnsSubdomainMsg}`] },
  { name: 'empty name part: non-empty and regex messages', value: 'example.com/', want: ['name part must be non-empty', namePartMsg] },
  { name: 'name part over 63 bytes (MaxLenError says characters)', value: 'a'.repeat(64), want: ['name part must be no more than 63 characters'] },
  { name: 'prefix over 253 bytes', value: `${'a'.repeat(254)}/x`, want: ['prefix part must be no more than 253 characters'] },
  { name: 'trailing underscore fails the regex', value: 'my.favorite.app.co/12345_', want: [namePartMsg] },
  {
    name: 'two slashes give the single whole-key message',
    value: 'kubernetes.io/will/not/work/',
    want: [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  },
]);

table('IsValidLabelValue', isValidLabelValue, [
  { name: 'empty value is valid', value: '', want: [] },
  { name: 'dots, dashes and underscores inside', value: 'a.b-c_d', want: [] },
  { name: 'space is refused', value: 'a b', want: [labelValueMsg] },
  { name: 'over 63 bytes', value: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
  { name: 'length counts bytes: 32 two-byte runes are too long', value: '\u00e9'.repeat(32), want: ['must be no more than 63 characters', labelValueMsg] },
]);

table('IsValidPortName', isValidPortName, [
  { name: 'lowercase name', value: 'http', want: [] },
  { name: 'digits only', value: '8080', want: ['must contain at least one letter (a-z)'] },
  { name: 'uppercase', value: 'HTTP', want: ['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)', 'must contain at least one letter (a-z)'] },
  { name: 'double hyphen', value: 'a--b', want: ['must not contain consecutive hyphens'] },
  { name: 'trailing hyphen', value: 'web-', want: ['must not begin or end with a hyphen'] },
  { name: 'longer than 15', value: 'abcdefghijklmnop', want: ['must be no more than 15 characters'] },
]);

table('NameIsDNSSubdomain with prefix (generateName)', (v) => nameIsDNSSubdomain(v, true), [
  { name: 'a trailing dash is allowed in a prefix', value: 'web-', want: [] },
  { name: 'a prefix must still be lowercase', value: 'Web-', want: [dnsSubdomainMsg] },
]);
