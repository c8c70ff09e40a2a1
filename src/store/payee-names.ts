// The saved payees' names for shell completion (src/completion/local-state.ts), read on a connection of
// their own with one query: no table is created, nothing is migrated or written, and only the SQLite
// seam is loaded (the local store, src/store/database.ts, would create and migrate what is missing).
import { existsSync } from 'node:fs';
import { openDatabase } from './sqlite.js';

/**
 * The payees of a profile (any base address) in the database `file`, by alias. A missing file, or one
 * without payees yet, is "none".
 */
export function readPayeeNames(file: string, profileName: string): Array<{ alias: string; name: string }> {
  if (!existsSync(file)) return [];
  try {
    // The driver itself loads on this first open: a Tab anywhere else never loads SQLite.
    const db = openDatabase(file);
    try {
      return db
        .prepare('SELECT DISTINCT alias, account_name FROM payees WHERE profile = ? ORDER BY alias')
        .all(profileName)
        .map((row) => ({ alias: String(row.alias), name: String(row.account_name) }));
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}
