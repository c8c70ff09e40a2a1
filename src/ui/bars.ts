// Small horizontal bars of Unicode blocks for per-day charts on a terminal (no colour needed): a value
// is drawn in eighths of a character, so two nearly equal days still look different.
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of at most `width` characters for `value` out of `max`; any non-zero value shows at least ▏. */
export function bar(value: number, max: number, width: number): string {
  if (value <= 0 || max <= 0 || width <= 0) return '';
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
}
