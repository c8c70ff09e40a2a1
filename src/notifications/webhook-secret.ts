// The secret `webhook listen` signs its forwards with, one per profile, so the app can tell a forward from
// a body anyone who reaches it could post:
//   X-Fsapi-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
// (the shape Stripe's webhook signatures made familiar). The secret lives in the data dir,
// webhook-secrets/<profile>, mode 0600 in a 0700 dir: created with O_EXCL (two listeners starting at once
// cannot each write their own) and read with O_NOFOLLOW (a link planted in its place is refused, never
// followed). `fsapi webhook secret` prints it; `--rotate` replaces it.
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, FsapiError } from '../errors.js';

/** Prefix of every secret: tells it apart from the API's credentials at a glance. */
const PREFIX = 'fsapi_whsec_';

export function signatureHeader(secret: Buffer | string, unixSeconds: number, body: Uint8Array | string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.`).update(body).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

function secretFile(dataDir: string, profile: string): string {
  // Profile names are checked when made; anything else here would be a path, so it is refused.
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(profile) || profile.includes('..')) {
    throw new FsapiError(`profile name ${JSON.stringify(profile)} cannot name a secret file`, { exitCode: ExitCode.usage });
  }
  return path.join(dataDir, 'webhook-secrets', profile);
}

function readSecret(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP')
      throw new FsapiError(`${file} is a symbolic link; refusing to read a signing secret through it`, {
        exitCode: ExitCode.failed,
        hint: 'remove it; fsapi makes a new secret',
      });
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new FsapiError(`${file} is not a file`, { exitCode: ExitCode.failed });
    const buffer = Buffer.alloc(256);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString('utf8').trim();
    if (!text.startsWith(PREFIX) || text.length < PREFIX.length + 32) {
      throw new FsapiError(`${file} does not hold a webhook secret`, { exitCode: ExitCode.failed, hint: 'fsapi webhook secret --rotate makes a new one' });
    }
    return text;
  } finally {
    closeSync(fd);
  }
}

/** Writes a new secret at `file` with O_EXCL: fails with EEXIST when another process made it first. */
function writeExclusive(file: string, secret: string): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${secret}\n`);
  } finally {
    closeSync(fd);
  }
}

function newSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('hex')}`;
}

/** The profile's signing secret, made on first use. */
export function webhookSecret(dataDir: string, profile: string): string {
  const file = secretFile(dataDir, profile);
  const existing = readSecret(file);
  if (existing) return existing;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeExclusive(file, newSecret());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Whoever won the race, everyone signs with what is in the file.
  return readSecret(file)!;
}

/**
 * Replaces the profile's secret: written beside it with O_EXCL, then renamed over it, so a reader sees the
 * old secret or the new one, never half of one. A running listener keeps signing with the one it read.
 */
export function rotateWebhookSecret(dataDir: string, profile: string): string {
  const file = secretFile(dataDir, profile);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.new`;
  const secret = newSecret();
  writeExclusive(temporary, secret);
  try {
    renameSync(temporary, file);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
  return secret;
}
