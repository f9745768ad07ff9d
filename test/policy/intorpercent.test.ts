// intstr.GetScaledValueFromIntOrPercent (src/policy/intorpercent.ts), one row per rule, errors
// word for word.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { IntOrString } from '../../src/api/types.js';
import { scaledValue } from '../../src/policy/intorpercent.js';

describe('GetScaledValueFromIntOrPercent', () => {
  const rows: { name: string; v: IntOrString | undefined; total: number; roundUp: boolean; want: number | string }[] = [
    { name: 'an int is itself', v: 3, total: 10, roundUp: true, want: 3 },
    { name: 'a percent rounds up', v: '25%', total: 10, roundUp: true, want: 3 },
    { name: 'a percent rounds down', v: '25%', total: 10, roundUp: false, want: 2 },
    { name: '0% is 0 either way', v: '0%', total: 10, roundUp: true, want: 0 },
    { name: 'a percent of 0 is 0', v: '50%', total: 0, roundUp: true, want: 0 },
    { name: 'a signed percent is what strconv.Atoi reads', v: '+10%', total: 10, roundUp: true, want: 1 },
    { name: 'a negative percent is scaled too (validation refuses it first)', v: '-10%', total: 10, roundUp: false, want: -1 },
    { name: 'a string without % is not a percentage', v: '5', total: 10, roundUp: true, want: 'invalid value for IntOrString: invalid type: string is not a percentage' },
    { name: 'any other string without % is not a percentage either', v: 'abc', total: 10, roundUp: true, want: 'invalid value for IntOrString: invalid type: string is not a percentage' },
    { name: 'a % after no number is strconv.Atoi\'s error', v: 'x%', total: 10, roundUp: true, want: 'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax' },
    { name: 'a missing value is an error (callers default it: ValueOrDefault)', v: undefined, total: 10, roundUp: true, want: 'nil value for IntOrString' },
  ];
  for (const r of rows) {
    test(r.name, () => {
      if (typeof r.want === 'number') assert.equal(scaledValue(r.v, r.total, r.roundUp), r.want);
      else assert.throws(() => scaledValue(r.v, r.total, r.roundUp), { message: r.want });
    });
  }
});
