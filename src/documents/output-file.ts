// The FILE of `--pdf FILE`: checked before anything is asked of the API, so a typo in a folder name is
// bad input (exit 2) rather than a failure after a long statement has been read.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

export function parsePdfPath(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') throw new UsageError('--pdf needs a file name', 'for example --pdf statement.pdf');
  const path = resolve(text);
  const folder = statSync(dirname(path), { throwIfNoEntry: false });
  if (!folder?.isDirectory()) throw new UsageError(`--pdf: the folder ${dirname(path)} does not exist`, 'create it first, or write the PDF elsewhere');
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--pdf: ${path} is a folder`, 'give a file name, for example --pdf statement.pdf');
  return path;
}
