// The API's timestamps are epoch integers in milliseconds almost everywhere, but in seconds in the client
// list. Anything below 10^11 cannot be a millisecond time after 1973, so it is read as seconds.
const SECONDS_THRESHOLD = 1e11;

export function epochToMillis(value: number): number {
  return value < SECONDS_THRESHOLD ? value * 1000 : value;
}

/** An epoch time in ms or s; numeric text (`"1732280000000"`) is read too, since the API may send it so. */
export function epochToDate(value: number | string | null | undefined): Date | undefined {
  const number = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) return undefined;
  return new Date(epochToMillis(number));
}

/** `2026-11-22 14:05` in the user's local time zone: what people read in a table. */
export function formatDateTime(value: number | string | null | undefined): string {
  const date = epochToDate(value);
  if (!date) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
