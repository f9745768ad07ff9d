// Create/Update/PatchOptions as apimachinery's pkg/apis/meta/v1/validation judges them
// (ValidateCreateOptions, ValidateUpdateOptions, ValidatePatchOptions, ValidateFieldManager).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../../src/api/fielderrors.js';
import { validateWriteOptions, type WriteOptionsInput } from '../../../src/api/validation/options.js';

type Kind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

describe('write options', () => {
  const rows: { name: string; kind: Kind; opts: WriteOptionsInput; errors: string[] }[] = [
    { name: 'nothing set is valid', kind: 'CreateOptions', opts: { dryRun: [] }, errors: [] },
    { name: 'every fieldValidation directive is valid', kind: 'UpdateOptions', opts: { dryRun: [], fieldValidation: 'Ignore' }, errors: [] },
    { name: 'an empty fieldValidation is the default, valid', kind: 'CreateOptions', opts: { dryRun: [], fieldValidation: '' }, errors: [] },
    { name: 'an unknown fieldValidation is NotSupported with the four values', kind: 'CreateOptions', opts: { dryRun: [], fieldValidation: 'strict' }, errors: ['fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"'] },
    { name: 'dryRun other than All is NotSupported', kind: 'UpdateOptions', opts: { dryRun: ['None'] }, errors: ['dryRun: Unsupported value: ["None"]: supported values: "All"'] },
    { name: 'force on a non-apply patch is Forbidden', kind: 'PatchOptions', opts: { dryRun: [], forceSet: true }, errors: ['force: Forbidden: may not be specified for non-apply patch'] },
    { name: 'an apply patch needs a fieldManager', kind: 'PatchOptions', opts: { dryRun: [], applyPatch: true }, errors: ['fieldManager: Required value: is required for apply patch'] },
    { name: 'an apply patch may set force', kind: 'PatchOptions', opts: { dryRun: [], applyPatch: true, forceSet: true, fieldManager: 'm' }, errors: [] },
    { name: 'a fieldManager over 128 bytes is TooLong', kind: 'CreateOptions', opts: { dryRun: [], fieldManager: 'm'.repeat(129) }, errors: ['fieldManager: Too long: may not be more than 128 bytes'] },
    { name: 'a fieldManager of 128 bytes is valid', kind: 'CreateOptions', opts: { dryRun: [], fieldManager: 'm'.repeat(128) }, errors: [] },
    { name: 'a control character in fieldManager is Invalid, with its position', kind: 'PatchOptions', opts: { dryRun: [], fieldManager: 'a\u0000b' }, errors: ['fieldManager: Invalid value: "a\\x00b": invalid character U+0000 (at position 1)'] },
    { name: 'a non-ASCII printable fieldManager is valid', kind: 'CreateOptions', opts: { dryRun: [], fieldManager: 'kübectl' }, errors: [] },
    {
      name: 'errors come in upstream\'s order: force or fieldManager, then dryRun, then fieldValidation',
      kind: 'PatchOptions',
      opts: { dryRun: ['x'], fieldValidation: 'no', forceSet: true },
      errors: ['force: Forbidden: may not be specified for non-apply patch', 'dryRun: Unsupported value: ["x"]: supported values: "All"', 'fieldValidation: Unsupported value: "no": supported values: "", "Ignore", "Strict", "Warn"'],
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(validateWriteOptions(r.kind, r.opts).map(errorString), r.errors));
});
