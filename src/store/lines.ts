// Reading a JSON Lines file of fsapi before the store (journal.jsonl, events.jsonl) a chunk at a time, so
// carrying a long one over never holds it whole. Each line is handed to a visitor that may wait (it writes
// the line's record in the import's one write transaction) before the next line is read.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

const CHUNK_BYTES = 256 * 1024;

/** A line as `text.split('\n')` gives it; `terminated` is false only for a last line with no newline. */
export type LineVisitor = (line: string, number: number, terminated: boolean) => void | Promise<void>;

/**
 * Calls `visit` for each line of `file`, in order, and returns the file's size in bytes; undefined when
 * there is no such file (or it is not a regular file). UTF-8 is decoded across chunk boundaries.
 */
export async function forEachLine(file: string, visit: LineVisitor): Promise<number | undefined> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let bytes = 0;
    let number = 0;
    let rest = '';
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      const text = read > 0 ? rest + decoder.write(chunk.subarray(0, read)) : rest + decoder.end();
      bytes += read;
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        await visit(text.slice(start, end), (number += 1), true);
        start = end + 1;
      }
      rest = text.slice(start);
      if (read === 0) break;
    }
    if (rest !== '') await visit(rest, number + 1, false);
    return bytes;
  } finally {
    closeSync(fd);
  }
}
