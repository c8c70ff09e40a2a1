// The body `webhook listen` forwards for a verified event: the notification's own shape, and only what came.
// Its top-level fields are the notification's, with the same names and in the same order: none added (a
// handler that refuses fields its schema does not list still takes it; a field the sender left out is not
// made up with an empty value), none left out. Each value is the API's wherever fsapi learnt it (the
// caller's `fromApi`); every other field keeps the notification's own value and is named in `unverified`
// (the X-Fsapi-Unverified-Fields header). Used for collections (src/notifications/verify.ts) and for
// payouts and reversals (src/notifications/payout-event.ts).

export interface ForwardBody {
  body: Record<string, unknown>;
  /** The fields whose value is the notification's own, in the body's order. */
  unverified: string[];
}

/**
 * `said` is the notification as received (a field given as `undefined` counts as absent, as in JSON);
 * `fromApi(field)` is the API's value of that field, or undefined when the API does not say it.
 */
export function inOwnShape(said: Readonly<Record<string, unknown>>, fromApi: (field: string) => unknown): ForwardBody {
  const unverified: string[] = [];
  const entries: Array<[string, unknown]> = [];
  for (const [field, value] of Object.entries(said)) {
    if (value === undefined) continue;
    const truth = fromApi(field);
    if (truth === undefined) unverified.push(field);
    entries.push([field, truth === undefined ? value : truth]);
  }
  // fromEntries defines own properties: a field named __proto__ stays a field, never the prototype.
  return { body: Object.fromEntries(entries), unverified };
}

/** Text the API gave, trimmed; undefined when it gave none (empty counts as none: the spec's "may be empty"). */
export function apiText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}
