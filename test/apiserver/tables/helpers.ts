// Shared by the Table tests of test/apiserver/tables/: upstream's printers_test.go rows take
// time.Now() and offsets from it; here a fixed instant stands for it, and the cells are compared as
// the server sends them (always wide, as the registry's TableConvertor asks printers for) or
// projected on the priority-0 columns for upstream's rows without GenerateOptions{Wide: true}.

import type { KubeObject } from '../../../src/api/types.js';
import { tableCells, tableColumns } from '../../../src/apiserver/tables.js';

export const NOW = Date.parse('2026-01-01T00:00:00Z');

/** The timestamp `ms` before NOW (negative: after it), as the API serializes it. */
export const ago = (ms: number): string => new Date(NOW - ms).toISOString().replace('.000Z', 'Z');

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** time.Now().Add(1.9e9): a creation 1.9 s in the future, printed 0s. */
export const SOON = ago(-1.9 * SECOND);

/** All cells, as the server sends them (upstream's GenerateOptions{Wide: true}). */
export const wideCells = (resource: string, obj: unknown): unknown[] => tableCells(resource, obj as KubeObject, NOW);

/** The cells of the priority-0 columns: what upstream's printer gives without Wide. */
export function cells(resource: string, obj: unknown): unknown[] {
  const columns = tableColumns(resource);
  return wideCells(resource, obj).filter((_, i) => columns[i]!.priority === 0);
}
