// Prompts go to stderr (stdout is for data) and need a person at a terminal. Without one they refuse with
// exit 2 so a script never hangs waiting for an answer; Ctrl-C at a prompt is a cancellation (exit 4).
import type { IO, Prompt } from '../context.js';
import { CancelledError, UsageError } from '../errors.js';
import { terminalText } from '../common/sanitize.js';

export function createPrompt(io: IO): Prompt {
  // stderr first: when it is no terminal, stdin is not asked (src/ui/io.ts loads node:tty for that).
  const interactive = io.stderrIsTTY && io.stdinIsTTY;
  const context = () => ({ input: io.stdin, output: io.stderr, clearPromptOnDone: false });

  async function ask<T>(run: (prompts: typeof import('@inquirer/prompts')) => Promise<T>): Promise<T> {
    if (!interactive)
      throw new UsageError('this needs an answer at a terminal, and stdin is not one', 'pass the values as flags (and --yes to skip confirmations)');
    const prompts = await import('@inquirer/prompts');
    try {
      return await run(prompts);
    } catch (error) {
      if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) throw new CancelledError();
      throw error;
    }
  }

  // Questions and choices often quote the API (the verified name, a bank's name): shown as text, never as
  // terminal commands (src/common/sanitize.ts).
  const safeChoices = <C extends { name?: string; description?: string }>(choices: readonly C[]) =>
    choices.map((choice) => ({
      ...choice,
      ...(choice.name === undefined ? {} : { name: terminalText(choice.name) }),
      ...(choice.description === undefined ? {} : { description: terminalText(choice.description) }),
    }));

  return {
    interactive,
    confirm: (message, options) => ask((p) => p.confirm({ message: terminalText(message), default: options?.defaultValue ?? false }, context())),
    select: (message, choices) => ask((p) => p.select({ message: terminalText(message), choices: safeChoices(choices) }, context())),
    input: (message, options) =>
      ask((p) => p.input({ message: terminalText(message), default: options?.defaultValue, validate: options?.validate }, context())),
    // No mask character: not even the length of a secret shows on the screen.
    password: (message) => ask((p) => p.password({ message: terminalText(message) }, context())),
    search: (message, source) =>
      ask((p) => p.search({ message: terminalText(message), pageSize: 10, source: (term) => safeChoices(source(term ?? '')) }, context())),
  };
}
