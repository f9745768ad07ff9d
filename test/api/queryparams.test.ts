// Query parameter conversions as apimachinery's runtime/conversion.go does them.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoInt64, queryBool } from '../../src/api/queryparams.js';

describe('queryBool: Convert_Slice_string_To_bool', () => {
  const rows: { value: string | null; want: boolean }[] = [
    { value: null, want: false },
    { value: 'false', want: false },
    { value: 'False', want: false },
    { value: 'FALSE', want: false },
    { value: 'fAlSe', want: false },
    { value: '0', want: false },
    { value: 'true', want: true },
    { value: 'True', want: true },
    { value: '1', want: true },
    { value: 't', want: true },
    { value: 'f', want: true },
    { value: 'yes', want: true },
    { value: '', want: true },
  ];
  for (const r of rows) it(`${JSON.stringify(r.value)} is ${r.want}`, () => assert.equal(queryBool(r.value), r.want));
});

describe('parseGoInt64: strconv.ParseInt(s, 10, 64)', () => {
  const rows: { value: string; want?: number; error?: string }[] = [
    { value: '500', want: 500 },
    { value: '+7', want: 7 },
    { value: '-3', want: -3 },
    { value: '007', want: 7 },
    { value: '9223372036854775807', want: 9223372036854775807 },
    { value: '9223372036854775808', error: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' },
    { value: '-9223372036854775809', error: 'strconv.ParseInt: parsing "-9223372036854775809": value out of range' },
    { value: '1e400', error: 'strconv.ParseInt: parsing "1e400": invalid syntax' },
    { value: '1.5', error: 'strconv.ParseInt: parsing "1.5": invalid syntax' },
    { value: ' 1', error: 'strconv.ParseInt: parsing " 1": invalid syntax' },
    { value: '0x10', error: 'strconv.ParseInt: parsing "0x10": invalid syntax' },
    { value: '', error: 'strconv.ParseInt: parsing "": invalid syntax' },
  ];
  for (const r of rows) {
    it(JSON.stringify(r.value), () => {
      if (r.error) assert.throws(() => parseGoInt64(r.value), { message: r.error });
      else assert.equal(parseGoInt64(r.value), r.want);
    });
  }
});
