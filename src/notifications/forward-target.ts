// Where `webhook listen --forward-to` last sent a profile's events, so `webhook events resend` can send
// one there again without being told. A small JSON file in the data dir (0600), written at each start.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function file(dataDir: string): string {
  return path.join(dataDir, 'webhook-forward-targets.json');
}

function read(dataDir: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(readFileSync(file(dataDir), 'utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

export function rememberForwardTarget(dataDir: string, profile: string, target: URL): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const targets = { ...read(dataDir), [profile]: target.href };
    const temporary = `${file(dataDir)}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(targets, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file(dataDir));
  } catch {
    // Only a convenience for resend (which then asks for --forward-to): never a reason not to listen.
  }
}

export function lastForwardTarget(dataDir: string, profile: string): string | undefined {
  return read(dataDir)[profile];
}
