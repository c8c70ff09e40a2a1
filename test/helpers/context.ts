// The parts of a test Context (src/context.ts): a captured terminal, a clock that never waits on the real
// one, and prompts answered from a script. src/runtime.ts's createContext puts them together exactly as it
// does the process's own (test/helpers/in-process.ts runs whole commands on them).
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import type { Clock, IO, Prompt } from '../../src/context.js';
import type { Terminal } from '../../src/ui/io.js';
import { wrapWords } from '../../src/common/text-width.js';

/** A stream that keeps what is written to it, as text. */
export class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    done();
  }
}

export interface TerminalOptions {
  /** stdin, stdout and stderr are terminals (a person at the keyboard). */
  tty?: boolean;
  /** Terminal width (tty only); 160 unless given, as test/helpers/cli.ts's pseudo-terminal. */
  columns?: number;
  /** What stdin holds (read to its end). */
  input?: string;
}

export function captureTerminal(options: TerminalOptions = {}): Terminal & { stdout: Capture; stderr: Capture } {
  const tty = options.tty ?? false;
  const columns = tty ? (options.columns ?? 160) : undefined;
  // On a terminal stdout and stderr are one screen: one capture keeps them in the order they were shown.
  const stdout = new Capture();
  return {
    stdout,
    stderr: tty ? stdout : new Capture(),
    stdin: Readable.from(options.input === undefined || options.input === '' ? [] : [Buffer.from(options.input)]),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    stdoutColumns: columns,
    stderrColumns: columns,
  };
}

/**
 * A clock that never waits on the real one. By default (`skipWaits`) it keeps the real time, plus every
 * wait it skipped: `sleep(ms)` moves it on by ms at once (after the current turn, as a timer would), so
 * a retry's back-off or a poll's interval costs no real time while a served simulator's clock, which is
 * the real one, still agrees with it. Made with a `start`, time is fixed and moves only by `advance(ms)`,
 * which wakes the sleepers then due. Not for code that races a sleep against an event as a time-out
 * (the event would always lose): give such runs the system clock.
 */
export class FakeClock implements Clock {
  private time: number;
  private readonly manual: boolean;
  private sleepers: Array<{ until: number; wake(): void }> = [];
  /** Every sleep asked for, in milliseconds. */
  readonly slept: number[] = [];

  constructor(start?: number) {
    this.manual = start !== undefined;
    this.time = start ?? 0;
  }

  // Arrow functions: the code hands `ctx.clock.now` and `ctx.clock.sleep` around detached from the clock.
  now = (): number => (this.manual ? this.time : Date.now() + this.time);

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.slept.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const sleeper = {
        until: this.time + ms,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((other) => other !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      if (!this.manual) setImmediate(() => this.advance(Math.max(0, sleeper.until - this.time)));
    });
  };

  /** Moves time on by `ms` and wakes every sleeper due by then. */
  advance = (ms: number): void => {
    this.time += ms;
    const due = this.sleepers.filter((sleeper) => sleeper.until <= this.time);
    this.sleepers = this.sleepers.filter((sleeper) => sleeper.until > this.time);
    for (const sleeper of due) sleeper.wake();
  };

  /** How many sleeps wait for time to move. */
  get waiting(): number {
    return this.sleepers.length;
  }
}

/** One scripted answer: the question it is for (a part of its text) and what the person answers. */
export interface ScriptedAnswer {
  prompt: string | RegExp;
  /**
   * confirm: a boolean; input and password: the text typed; select and search: a part of the chosen
   * choice's name (search types it as the term).
   */
  answer: boolean | string;
  /**
   * What happens in the world while the person reads the question, before the answer is typed (another
   * member deciding the same request, say): awaited, then the answer is given.
   */
  meanwhile?: () => Promise<void>;
}

/**
 * Prompts answered from `script`, in order. A question the script does not expect, an answer that fails
 * the question's own validation, or an answer never asked for fails the run (see `verify`).
 */
export function scriptedPrompt(script: readonly ScriptedAnswer[]): { prompt: (io: IO) => Prompt; asked: string[]; verify(): void } {
  let io: IO | undefined;
  /**
   * The question and the answer on stderr, where a person sees them (a password's answer stays hidden),
   * broken at words to the terminal's width as @inquirer/core's screen manager breaks a prompt's lines.
   */
  const show = (message: string, answer: string) => {
    const line = `? ${message} ${answer}`;
    io?.stderr.write(`${(io.stderrColumns ? wrapWords(line, io.stderrColumns) : [line]).join('\n')}\n`);
  };
  const queue = [...script];
  const asked: string[] = [];
  const problems: string[] = [];
  const next = (kind: string, message: string): ScriptedAnswer => {
    asked.push(message);
    const answer = queue.shift();
    const matches = answer !== undefined && (typeof answer.prompt === 'string' ? message.includes(answer.prompt) : answer.prompt.test(message));
    if (!matches) {
      const problem = `unexpected ${kind} prompt ${JSON.stringify(message)}${answer ? `; the script expected ${String(answer.prompt)}` : '; the script has no answer left'}`;
      problems.push(problem);
      throw new Error(problem);
    }
    return answer;
  };
  const text = (kind: string, message: string, answer: ScriptedAnswer): string => {
    if (typeof answer.answer === 'string') return answer.answer;
    const problem = `the ${kind} prompt ${JSON.stringify(message)} needs a text answer, the script gave ${String(answer.answer)}`;
    problems.push(problem);
    throw new Error(problem);
  };
  const choose = <T>(kind: string, message: string, choices: ReadonlyArray<{ name: string; value: T }>): T => {
    const answer = next(kind, message);
    const wanted = text(kind, message, answer);
    const choice = choices.find((c) => c.name.includes(wanted));
    show(message, choice?.name ?? wanted);
    if (choice) return choice.value;
    const problem = `no choice of ${JSON.stringify(message)} names ${JSON.stringify(wanted)} (choices: ${choices.map((c) => c.name).join(' | ')})`;
    problems.push(problem);
    throw new Error(problem);
  };
  const prompt: Prompt = {
    interactive: true,
    async confirm(message) {
      const answer = next('confirm', message);
      await answer.meanwhile?.();
      show(message, answer.answer === true ? 'Yes' : answer.answer === false ? 'No' : '');
      if (typeof answer.answer === 'boolean') return answer.answer;
      const problem = `the confirm prompt ${JSON.stringify(message)} needs true or false, the script gave ${JSON.stringify(answer.answer)}`;
      problems.push(problem);
      throw new Error(problem);
    },
    async select(message, choices) {
      return choose('select', message, choices);
    },
    async input(message, options) {
      const typed = text('input', message, next('input', message));
      show(message, typed);
      const valid = options?.validate?.(typed) ?? true;
      if (valid !== true) {
        const problem = `the answer ${JSON.stringify(typed)} to ${JSON.stringify(message)} was refused: ${valid}`;
        problems.push(problem);
        throw new Error(problem);
      }
      return typed === '' ? (options?.defaultValue ?? '') : typed;
    },
    async password(message) {
      const answer = next('password', message);
      await answer.meanwhile?.();
      const typed = text('password', message, answer);
      show(message, '');
      return typed;
    },
    async search(message, source) {
      const answer = next('search', message);
      const term = text('search', message, answer);
      const choices = source(term);
      const choice = choices.find((c) => c.name.includes(term)) ?? choices[0];
      show(message, choice?.name ?? term);
      if (choice) return choice.value;
      const problem = `the search ${JSON.stringify(message)} found nothing for ${JSON.stringify(term)}`;
      problems.push(problem);
      throw new Error(problem);
    },
  };
  return {
    prompt: (runIO) => {
      io = runIO;
      return prompt;
    },
    asked,
    verify() {
      assert.deepEqual(problems, [], problems.join('\n'));
      assert.deepEqual(
        queue.map((answer) => String(answer.prompt)),
        [],
        `answers the run never asked for: ${queue.map((answer) => String(answer.prompt)).join(', ')}`,
      );
    },
  };
}
