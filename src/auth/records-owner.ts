// Whose records a run reads and writes. In the data dir's own store they are the profile's: its name and
// base address, as always. In a team store (src/store/postgres.ts) they are the API account's, the same for
// every operator's profile of it on every machine: the base address (normalised, so spellings do not
// split an account) and a hash of the consumer key (never the key), so that the journal, the duplicate
// guard, the daily maximum, payees, policy and held requests are one for the whole team.
import type { AuthContext } from './types.js';
import { UsageError } from '../errors.js';
import { teamChoice } from '../store/team-choice.js';
import type { Profile } from './types.js';

export interface RecordsScope {
  profile: string;
  baseUrl: string;
}

/** The owner of the records of `profile` at `baseUrl` in this run's store. */
export function recordsScope(ctx: AuthContext, profile: Profile, baseUrl: string): RecordsScope {
  // The in-process simulator (`local`) is no API account: its records stay the profile's.
  if (!teamChoice(ctx.paths.dataDir) || !/^https?:\/\//i.test(baseUrl)) return { profile: profile.name, baseUrl };
  const consumerKey = ctx.env.FSAPI_CONSUMER_KEY?.trim() || profile.consumerKey;
  if (!consumerKey) {
    throw new UsageError(
      `profile "${profile.name}" uses a team store, which keeps records by API account (base address and consumer key), and fsapi does not know this profile's consumer key; nothing was sent or changed`,
      'set FSAPI_CONSUMER_KEY, or log in again with fsapi auth login --save-credentials (docs/team.md)',
      'account_unknown',
    );
  }
  return { profile: accountOf(consumerKey), baseUrl: normalAddress(baseUrl) };
}

/**
 * The owner of `scope`'s records in words: `profile "ops"`, or in a team store the account every operator's
 * profile shares, `account-85d0… in the team store`: the profile's name there would be one operator's.
 */
export function ownerWords(scope: RecordsScope): string {
  return ownedByAccount(scope) ? `${scope.profile} in the team store` : `profile "${scope.profile}"`;
}

/** Whether `scope` is an API account's records in a team store (recordsScope), not one profile's. */
export function ownedByAccount(scope: RecordsScope): boolean {
  return teamChoice() !== undefined && scope.profile.startsWith('account-');
}

/** `account-` and the first 16 hex digits of the consumer key's SHA-256: names the account, reveals nothing. */
export function accountOf(consumerKey: string): string {
  // node:crypto loaded here, for a team store's run alone: it takes about 3 ms (src/common/random.ts).
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `account-${createHash('sha256').update(consumerKey).digest('hex').slice(0, 16)}`;
}

function normalAddress(baseUrl: string): string {
  if (!/^https?:\/\//i.test(baseUrl)) return baseUrl;
  try {
    return new URL(baseUrl).href.replace(/\/+$/, '');
  } catch {
    return baseUrl;
  }
}
