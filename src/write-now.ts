// What the command tree itself prints (help, the version, usage errors, completion answers, the error
// lines of src/main.ts) goes straight to file descriptor 1 or 2. Making process.stdout or process.stderr
// loads Node's stream modules, about 4 ms that `fsapi --help` would otherwise spend to write 3 KB
// (bench/startup.mjs). Commands write through process.stdout (src/ui/io.ts), which handles back-pressure
// for long output.
import { fstatSync, statSync, writeSync, type Stats } from 'node:fs';

let handedToStreams = false;

/** Whether something went through process.stdout or process.stderr from here, so main waits for them. */
export function handedToNodeStreams(): boolean {
  return handedToStreams;
}

/** Writes `text` to stdout (1) or stderr (2) before returning. */
export function writeNow(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        // A full pipe that another program made non-blocking: Node's stream waits for it to drain.
        handedToStreams = true;
        (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(offset));
        return;
      }
      // `fsapi --help | head -1`: the reader left, which is not an error of ours. Stop quietly.
      if (code === 'EPIPE') {
        if (fd === 1) process.exit(process.exitCode ?? 0);
        return;
      }
      throw error;
    }
  }
}

/** Whether stdout (1) or stderr (2) is a terminal, asked without making the stream. */
export function isTerminal(fd: 1 | 2): boolean {
  // A pipe or a file is never one, and fstat costs nothing; nor is /dev/null, the character device output
  // is most often thrown away to (cron jobs, scripts), told by its device number. node:tty, which loads
  // node:net and the stream modules (about 2 ms, docs/startup.md), is asked only about another one.
  let device: Stats;
  try {
    device = fstatSync(fd);
  } catch {
    return false;
  }
  if (!device.isCharacterDevice() || device.rdev === statSync('/dev/null', { throwIfNoEntry: false })?.rdev) return false;
  return process.getBuiltinModule('node:tty').isatty(fd);
}
