// validateWatchOptions: the watch rules of apimachinery's ValidateListOptions, one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../../src/api/fielderrors.js';
import { validateWatchOptions, type WatchOptions } from '../../../src/api/validation/watchoptions.js';

describe('validateWatchOptions (validateWatchOptions with WatchList on)', () => {
  const rows: { name: string; opts: WatchOptions; errors: string[] }[] = [
    { name: 'a legacy watch has nothing to check', opts: {}, errors: [] },
    { name: 'sendInitialEvents=true with NotOlderThan is valid', opts: { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, errors: [] },
    { name: 'sendInitialEvents=false with NotOlderThan is valid', opts: { sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' }, errors: [] },
    { name: 'sendInitialEvents needs resourceVersionMatch=NotOlderThan', opts: { sendInitialEvents: false }, errors: ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'] },
    { name: 'resourceVersionMatch needs sendInitialEvents', opts: { resourceVersionMatch: 'NotOlderThan' }, errors: ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'] },
    {
      name: 'only NotOlderThan is supported',
      opts: { sendInitialEvents: true, resourceVersionMatch: 'Exact' },
      errors: ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"'],
    },
    { name: 'resourceVersionMatch is forbidden with continue', opts: { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', continue: 'x' }, errors: ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(validateWatchOptions(r.opts).map(errorString), r.errors));
});
