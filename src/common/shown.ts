// Fields the API may leave out, send as null, or send as a number where the spec shows text (see the
// tolerant reading in src/api/schemas.ts). fsapi only shows them: blank when absent, else as given.

export function shownText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}
