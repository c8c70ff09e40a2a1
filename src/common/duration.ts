// Durations typed on the command line: `30s`, `10m`, `2h`, `3d` (a whole number and one unit; `ms` for
// tests and scripts). Anything else is a usage error (exit 2) naming the option.
import { UsageError } from '../errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string, option: string): number {
  const match = /^(\d{1,9})\s*(ms|s|m|h|d)$/.exec(text.trim().toLowerCase());
  if (!match) throw new UsageError(`${option} ${JSON.stringify(text)} is not a duration`, 'give it as 30s, 10m, 2h or 3d');
  const ms = Number(match[1]) * UNITS[match[2]!]!;
  if (ms <= 0) throw new UsageError(`${option} must be longer than 0`);
  if (ms > 90 * UNITS.d!) throw new UsageError(`${option} is at most 90d`);
  return ms;
}

/**
 * A span as a person says it, rounded to one unit: `40 s`, `12 min`, `23 h`, `3 d`. For a time said relative
 * to now (a token's expiry), which needs no clock's zone.
 */
export function spanText(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 120_000) return `${Math.round(abs / 1000)} s`;
  if (abs < 7_200_000) return `${Math.round(abs / 60_000)} min`;
  if (abs < 172_800_000) return `${Math.round(abs / 3_600_000)} h`;
  return `${Math.round(abs / 86_400_000)} d`;
}
