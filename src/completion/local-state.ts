// Read-only views of fsapi's local files, for the places that must never change anything or touch the
// network: shell completion (run on every Tab press) and the first-run overview. The real profile store
// (src/auth/profile-store.ts) creates and narrows the config dir when it opens; these readers only read,
// and a missing or unreadable file is simply "nothing saved".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isRecord } from '../common/is-record.js';
import { readPayeeNames } from '../store/payee-names.js';

export interface SavedProfile {
  name: string;
  env: string;
  baseUrl: string | undefined;
  hasToken: boolean;
  tokenExpiresAt: number | undefined;
}

export interface SavedProfiles {
  defaultName: string | undefined;
  profiles: SavedProfile[];
  /** Set when profiles.json exists but cannot be read; completion ignores it, the overview mentions it. */
  problem: string | undefined;
}

export function readSavedProfiles(configDir: string): SavedProfiles {
  const file = path.join(configDir, 'profiles.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { defaultName: undefined, profiles: [], problem: undefined };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { defaultName: undefined, profiles: [], problem: `${file} is not valid JSON` };
  }
  if (!isRecord(data)) return { defaultName: undefined, profiles: [], problem: `${file} is not a profiles file` };
  const stored = isRecord(data.profiles) ? data.profiles : {};
  const profiles = Object.entries(stored)
    .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]))
    .map(([name, value]) => ({
      name,
      env: typeof value.env === 'string' ? value.env : 'unknown',
      baseUrl: typeof value.baseUrl === 'string' ? value.baseUrl : undefined,
      hasToken: typeof value.token === 'string' && value.token !== '',
      tokenExpiresAt: typeof value.tokenExpiresAt === 'number' ? value.tokenExpiresAt : undefined,
    }));
  return { defaultName: typeof data.default === 'string' ? data.default : undefined, profiles, problem: undefined };
}

export interface CachedBank {
  code: string;
  name: string;
}

/**
 * The bank list cached by src/transfers/banks.ts for a profile (<dataDir>/cache/banks-<profile>.json), however
 * old: for completion a stale name is still a good suggestion, and the command re-checks it. When that
 * profile has no cache yet, another profile's cache is used: bank codes are the same institutions everywhere.
 */
export function readCachedBanks(dataDir: string, profileName: string): CachedBank[] {
  const cacheDir = path.join(dataDir, 'cache');
  const own = `banks-${encodeURIComponent(profileName)}.json`;
  const fromOwn = readBankFile(path.join(cacheDir, own));
  if (fromOwn) return fromOwn;
  let others: string[];
  try {
    others = readdirSync(cacheDir)
      .filter((name) => /^banks-.+\.json$/.test(name) && name !== own)
      .sort();
  } catch {
    return [];
  }
  for (const name of others) {
    const banks = readBankFile(path.join(cacheDir, name));
    if (banks) return banks;
  }
  return [];
}

function readBankFile(file: string): CachedBank[] | undefined {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isRecord(data) || !Array.isArray(data.banks)) return undefined;
    return data.banks
      .filter(isRecord)
      .filter((bank) => typeof bank.institutionCode === 'string' && typeof bank.institutionName === 'string')
      .map((bank) => ({ code: bank.institutionCode as string, name: bank.institutionName as string }));
  } catch {
    return undefined;
  }
}

/**
 * The saved payees of a profile (src/store/controls.ts), read with one query and nothing else: no table
 * is created and nothing is written. A missing database, or one without payees yet, is "none".
 */
export function readSavedPayees(dataDir: string, profileName: string): Array<{ alias: string; name: string }> {
  return readPayeeNames(path.join(dataDir, 'fsapi.db'), profileName);
}
