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
