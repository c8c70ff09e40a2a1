// The names of a command-line option, read from commander's flags (`-y, --yes`, `--amount <naira>`,
// `--no-verify`): the long name a person types and the key commander keeps it under. Shared by the command
// specs (src/commands/spec.ts) and the forms that ask for the same fields (src/clients/create.ts).

/** `--amount` for `--amount <naira>`, `--yes` for `-y, --yes`. */
export function longName(flags: string): string {
  return /--[a-z0-9-]+/i.exec(flags)?.[0] ?? flags;
}

/** The key commander keeps an option under: `waitTimeout` for `--wait-timeout`, `verify` for `--no-verify`. */
export function optionKey(flags: string): string {
  return longName(flags)
    .replace(/^--(no-)?/, '')
    .replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Whether the flag is the negation (`--no-verify`): given, its key is false. */
