// The business's clock of a run: the zone every local time fsapi shows a person and every day it counts
// are in (tables, records, notes, `--since today`), whatever TZ the machine has. It is the zone of the
// profile's payment policy (`policy set --time-zone`, the zone of the daily maximum's day), else
// Africa/Lagos (WAT): a list read on a server in UTC says what the same list says on a laptop in Lagos.
// `--json` keeps instants as the API gave them (or ISO 8601 UTC for fsapi's own records): no zone there.
//
// Statements and receipts read the same zone through businessTimeZone (src/controls/policy.ts) and refuse
// a store they cannot read, as every document does. A list or a record shown on a terminal does not: when
// the policy cannot be read (an unreachable team store, a data dir this user may not read, a store the
// profile does not recognise) its times are shown in Africa/Lagos, named as such, with a note saying why.
// The commands that need the store for their own records fail on it by themselves.
import type { Context } from '../context.js';
import type { Profile } from '../auth/types.js';
import { recordsScope } from '../auth/records-owner.js';
import { FsapiError } from '../errors.js';
import { permissionErrorOf } from '../common/permission.js';
import { DEFAULT_POLICY_TIME_ZONE, zoneLabel } from '../common/time-zone.js';

const zones = new WeakMap<Context, Promise<string>>();

/** The business's clock of this run's profile (an IANA zone), read once a run. */
export function businessClock(ctx: Context): Promise<string> {
  let zone = zones.get(ctx);
  if (!zone) {
    // A profile that cannot be resolved fails the command as it would without the clock.
    zone = ctx.profile().then((profile) => profileClock(ctx, profile));
    zones.set(ctx, zone);
  }
  return zone;
}

/** The business's clock of `profile` (`auth login`: the profile it has just saved). */
export async function profileClock(ctx: Context, profile: Profile): Promise<string> {
  try {
    // The profile's records as they are kept (src/auth/records-owner.ts), read without opening the API.
    // The store's code is loaded only here: a run under --json, or one that shows no time, never starts it
    // (the light engine's start-up, docs/startup.md).
    const { businessTimeZone } = await import('../transfers/limits.js');
    return await businessTimeZone(ctx, recordsScope(ctx, profile, profile.baseUrl ?? 'local'));
  } catch (error) {
    return fallBack(ctx, error);
  }
}

/** A policy that could not be read: Africa/Lagos, said on stderr with the cause; anything but an fsapi error is thrown. */
function fallBack(ctx: Context, error: unknown): string {
  const named = permissionErrorOf(error);
  if (!(named instanceof FsapiError)) throw error;
  const label = zoneLabel(DEFAULT_POLICY_TIME_ZONE, ctx.clock.now());
  ctx.io.note(`note: times are in ${label} (${DEFAULT_POLICY_TIME_ZONE}): the payment policy, whose zone they follow, could not be read: ${named.message}`);
  return DEFAULT_POLICY_TIME_ZONE;
}

/**
 * The zone of the local times this run shows: the business's clock, except under `--json`, which shows
 * none (its times are the API's or ISO 8601 UTC) and so does not read the store for it.
 */
export function shownTimeZone(ctx: Context): Promise<string> {
  return ctx.globals.json ? Promise.resolve(DEFAULT_POLICY_TIME_ZONE) : businessClock(ctx);
}
