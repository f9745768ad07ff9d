// JSON with object keys sorted, for comparing objects whose key order may differ.

export function stableJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJSON).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${stableJSON(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
