// A path fsapi may not use because of its permissions is said as such: which path stops it (the file, or a
// directory on the way to it), who owns that path and with what mode, and which OS user fsapi runs as. It
// is never taken for a missing or empty file: the advice for those (restore a backup, start afresh) would
// destroy records that are still there, only out of reach.
import { accessSync, constants, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ExitCode, FsapiError } from '../errors.js';

/** The OS denied fsapi a path it needs. Exit 1; what was there is untouched. */
export class PermissionDeniedError extends FsapiError {
  constructor(
    message: string,
    hint: string,
    /** The path that stops fsapi: the one asked for, or a directory on the way to it. */
    readonly blocker: string,
    cause?: unknown,
  ) {
    super(message, { exitCode: ExitCode.failed, hint, cause, code: 'permission_denied' });
  }
}

/** An error of the OS refusing access (EACCES, EPERM). */
export function isPermissionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM';
}

export interface PermissionQuestion {
  /** What the path is, for the reader: "the store", "the data dir", "the profiles file". */
  what: string;
  target: string;
  /** `read`: reading is enough (a report); `write`: fsapi must also write there (and create it if missing). */
  access: 'read' | 'write';
  /** What is still there, said in the hint so nobody "repairs" it away, e.g. "the records are still there". */
  kept?: string;
  cause?: unknown;
}

/**
 * The permission problem that keeps this process from `target`, found by checking each directory on the
 * way and then the target itself; undefined when the permissions let it through (the failure was another).
 */
export function permissionProblem(question: PermissionQuestion): PermissionDeniedError | undefined {
  const target = path.resolve(question.target);
  const deny = (blocker: string, stats: Stats | undefined, needs: string) => deniedError(question, target, blocker, stats, needs);
  // The directories from the root down to the target's: each must be searchable.
  const dirs: string[] = [];
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  let deepest = dirs[0]!;
  for (const dir of dirs) {
    const answer = accessOf(dir, constants.X_OK);
    if (answer === 'missing')
      return question.access === 'write' && !can(deepest, constants.W_OK) ? deny(deepest, statOf(deepest), 'create files in') : undefined;
    if (answer === 'denied') return deny(dir, statOf(dir), 'enter');
    deepest = dir;
  }
  const stats = statOf(target);
  if (stats === undefined) {
    // Not there: writing means creating it in its directory.
    return question.access === 'write' && !can(deepest, constants.W_OK) ? deny(deepest, statOf(deepest), 'create files in') : undefined;
  }
  const directory = stats.isDirectory();
  const mode =
    question.access === 'read'
      ? directory
        ? constants.R_OK | constants.X_OK
        : constants.R_OK
      : directory
        ? constants.R_OK | constants.W_OK | constants.X_OK
        : constants.R_OK | constants.W_OK;
  if (can(target, mode)) return undefined;
  return deny(target, stats, question.access === 'read' ? 'read' : 'read and write');
}

/** Whether `file` exists; a path this process may not look at is a PermissionDeniedError, never "no". */
export function existsOrDenied(question: PermissionQuestion): boolean {
  try {
    return statSync(question.target, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    if (!isPermissionError(error)) throw error;
    throw permissionProblem({ ...question, cause: error }) ?? error;
  }
}

/**
 * An error from the file system as fsapi's words when it is a permission problem: the path it names, and
 * the OS user; anything else comes back as it was.
 */
export function permissionErrorOf(error: unknown, what = 'a file fsapi needs'): unknown {
  if (error instanceof FsapiError || !isPermissionError(error)) return error;
  const target = (error as { path?: unknown }).path;
  if (typeof target !== 'string' || target === '') return error;
  return permissionProblem({ what, target, access: 'write', cause: error }) ?? error;
}

function deniedError(question: PermissionQuestion, target: string, blocker: string, stats: Stats | undefined, needs: string): PermissionDeniedError {
  const me = currentUser();
  const owner = stats === undefined ? undefined : { uid: stats.uid, name: userName(stats.uid) };
  const whose = owner === undefined ? 'owner unknown' : `owned by ${owner.name ?? `uid ${owner.uid}`}`;
  const mode = stats === undefined ? '' : `, mode ${(stats.mode & 0o777).toString(8).padStart(3, '0')}`;
  const running = `fsapi, running as OS user ${me.text}`;
  const message =
    blocker === target
      ? `permission denied: ${running}, may not ${needs} ${question.what} ${target} (${whose}${mode})`
      : `permission denied: ${running}, may not ${needs} ${blocker} (${whose}${mode}), so it cannot ${question.access === 'read' ? 'read' : 'read or write'} ${question.what} ${target}`;
  const fix = stats?.isDirectory() ? (needs === 'read' ? 'u+rx' : 'u+rwx') : needs === 'read' ? 'u+r' : 'u+rw';
  const kept = question.kept ? `; ${question.kept}` : '';
  const myName = me.name ?? `uid ${me.uid}`;
  let hint: string;
  if (owner !== undefined && owner.uid === me.uid) hint = `${myName} owns it: chmod ${fix} ${blocker} gives the access back${kept}`;
  else if (owner !== undefined) {
    const them = owner.name ?? `uid ${owner.uid}`;
    hint = `run fsapi as ${them}, who owns it, or have ${owner.uid === 0 ? 'root' : `${them} or root`} give ${myName} access${kept}`;
  } else hint = `give ${myName} access to ${blocker}, or run fsapi as the user who owns it${kept}`;
  return new PermissionDeniedError(message, hint, blocker, question.cause);
}

function accessOf(file: string, mode: number): 'ok' | 'denied' | 'missing' {
  try {
    accessSync(file, mode);
    return 'ok';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'denied';
  }
}

function can(file: string, mode: number): boolean {
  return accessOf(file, mode) === 'ok';
}

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** os.userInfo, loaded only to word an error: node:os is not on every command's way. */
function userInfo(): { username: string } {
  return process.getBuiltinModule('node:os').userInfo();
}

/** The OS user this process runs as: its name when the system has one for it, and its uid. */
function currentUser(): { uid: number | undefined; name: string | undefined; text: string } {
  const uid = process.getuid?.();
  let name: string | undefined;
  try {
    name = safeName(userInfo().username);
  } catch {
    name = uid === undefined ? undefined : userName(uid);
  }
  const text = name !== undefined && uid !== undefined ? `${name} (uid ${uid})` : (name ?? (uid !== undefined ? `uid ${uid}` : 'this user'));
  return { uid, name, text };
}

/** The name of `uid` in /etc/passwd, when it has a plain one; read only to word an error. */
function userName(uid: number): string | undefined {
  if (uid === process.getuid?.()) {
    try {
      return safeName(userInfo().username);
    } catch {
      // no name for this user: looked up below
    }
  }
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id !== undefined && Number(id) === uid && /^[0-9]+$/.test(id)) return safeName(name ?? '');
    }
  } catch {
    // no passwd file (Windows, a minimal container): the uid is said instead
  }
  return undefined;
}

/** A user name as text fsapi prints: plain characters only, else none (the uid is said instead). */
function safeName(name: string): string | undefined {
  return /^[A-Za-z0-9._][A-Za-z0-9._-]{0,31}$/.test(name) ? name : undefined;
}
