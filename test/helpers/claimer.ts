// A claim on the journal in a process of its own (test/fixtures/journal-claim.ts), paced by the test through
// its stdin and stdout, so a test can put two processes' claims at the store's transaction in a chosen
// order, or keep one inside its transaction (as a process stopped there would be) for as long as it likes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ClaimerOptions {
  dataDir: string;
  reference: string;
  amountKobo: number;
  maxKobo: number;
  /** The claim's clock (ms). */
  now: number;
  role: 'holder' | 'second';
  /** Added to the environment (FSAPI_STORE and PGPASSWORD: the journal in a team store). */
  env?: Record<string, string>;
}

/** A claimer (test/fixtures/journal-claim.ts) and the lines it says, each awaited with a bound. */
export function claimer({ dataDir, reference, amountKobo, maxKobo, now, role, env = {} }: ClaimerOptions) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve('test/fixtures/journal-claim.ts'), dataDir, reference, String(amountKobo), String(maxKobo), String(now), role],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  child.stdin.on('error', () => undefined); // a word to a process that already ended
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  const waiting: Array<() => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiting.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    tell: (word: string) => child.stdin.write(`${word}\n`),
    /** The next line, once said; fails when the process ends first or after 30 s. */
    async next(): Promise<string> {
      const deadline = Date.now() + 30_000;
      let ended = false;
      void exited.then(() => {
        ended = true;
        for (const wake of waiting.splice(0)) wake();
      });
      for (;;) {
        const line = lines.shift();
        if (line !== undefined) return line;
        if (ended) throw new Error(`${role} ended without a word: ${stderr}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${role} said nothing in 30 s: ${stderr}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    exited,
    stderr: () => stderr,
    /**
     * Resolves once the process waits for the store's write lock. After `claiming` it runs without
     * waiting for anything until the store answers it busy; then it waits for its timer (the next try)
     * in its event loop, so its main thread is seen in epoll_wait or epoll_pwait (Linux
     * /proc/<pid>/syscall; x86-64 232 and 281, arm64 22 and 441). By then it has done whatever it does
     * before the lock. Where /proc cannot tell, resolves at once: the outcome is the same, only less of
     * the interleaving is shown.
     */
    async waitingForTheLock(): Promise<void> {
      const file = `/proc/${child.pid}/syscall`;
      const sleeping = process.arch === 'arm64' ? ['22', '441'] : ['232', '281'];
      const deadline = Date.now() + 30_000;
      for (;;) {
        let now: string;
        try {
          now = readFileSync(file, 'utf8').split(' ')[0]!;
        } catch {
          return;
        }
        if (sleeping.includes(now)) return;
        if (Date.now() > deadline) throw new Error(`${role} never waited for the lock (${now}): ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
  };
}
