// Guided input for `transfer send` and `enquiry`: what the command line left out is asked for at a
// terminal (account number, a searchable bank picker, amount, narration), each answer checked as it is
// typed with the same rules as the flags. Without a terminal, everything missing is named in one exit-2
// error: a script learns all of it in one run, and nothing waits for an answer.
import type { Context } from '../context.js';
import type { Bank } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { aliasesOf, BANK_ALIASES } from '../transfers/bank-aliases.js';
import { loadBanks, matchBanks, resolveBank, suggestBanks } from '../transfers/banks.js';
import { AmountError, parseNairaInput, type Kobo } from '../money/kobo.js';
import { MAX_NARRATION_LENGTH, parseNarration } from '../transfers/transfer.js';
import { parseAccountNumber, parseAmountOption } from '../common/validate.js';

export type AskedField = 'accountNumber' | 'bank' | 'amount' | 'narration';

export interface TransferFields {
  accountNumber: string | undefined;
  bank: string | undefined;
  /** In kobo: parsed once, by the option spec or where it is typed here. */
  amount: Kobo | undefined;
  narration: string | undefined;
}

const describe: Record<AskedField, string> = {
  accountNumber: 'the account number',
  bank: '--bank',
  amount: '--amount',
  narration: '--narration',
};

/**
 * `fields` with every one of `wanted` that is missing asked for (at a terminal) or named in one
 * UsageError (without one). Given values are left as they are: the command validates them as before.
 */
export async function askForMissing(
  ctx: Context,
  fields: TransferFields,
  wanted: readonly AskedField[],
  usage: string,
  /**
   * Called once the account number and the bank are known and something is still to be asked: the guided
   * send runs the name enquiry here, so a wrong account is found before the amount and narration are typed.
   */
  onAccountKnown?: (fields: TransferFields) => Promise<void>,
): Promise<TransferFields> {
  const missing = wanted.filter((field) => fields[field] === undefined);
  if (missing.length === 0) return fields;
  if (!ctx.prompt.interactive) {
    const names = missing.map((field) => describe[field]);
    const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    throw new UsageError(
      `missing ${list}; nothing was sent`,
      `give ${missing.length === 1 ? 'it' : 'them'} on the command line (${usage}), or run it at a terminal to be asked`,
    );
  }
  const answers = await checkGiven(ctx, fields);
  let told = false;
  for (const field of missing) {
    if (!told && onAccountKnown && answers.accountNumber !== undefined && answers.bank !== undefined) {
      told = true;
      await onAccountKnown(answers);
    }
    if (field === 'amount') answers.amount = await askAmount(ctx);
    else answers[field] = await ask(ctx, field);
  }
  return answers;
}

/**
 * What the command line did give, checked before the first question: a mistyped --bank or --amount is
 * refused at once (exit 2), not after the person has typed the rest. The bank is resolved here, once (an
 * ambiguous name is asked about here), and its institution code stands for it from then on.
 */
async function checkGiven(ctx: Context, fields: TransferFields): Promise<TransferFields> {
  if (fields.accountNumber !== undefined) parseAccountNumber(fields.accountNumber);
  if (fields.narration !== undefined) parseNarration(fields.narration);
  const bank = fields.bank === undefined ? undefined : (await resolveBank(ctx, fields.bank)).institutionCode;
  return { ...fields, bank };
}

/** The amount, read into kobo as it is typed: what the person confirmed is the value used. */
async function askAmount(ctx: Context): Promise<Kobo> {
  let amount: Kobo | undefined;
  const typed = await ctx.prompt.input('Amount in naira (e.g. 1500 or 1,500.50):', {
    validate: (value) => {
      try {
        amount = parseNairaInput(value);
        return true;
      } catch (error) {
        if (error instanceof AmountError) return error.message;
        throw error;
      }
    },
  });
  // A prompt that did not run the check (none of fsapi's) has its answer read the same way, once.
  return amount ?? parseAmountOption(typed);
}

async function ask(ctx: Context, field: Exclude<AskedField, 'amount'>): Promise<string> {
  switch (field) {
    case 'accountNumber':
      return (
        await ctx.prompt.input('Account number (10 digits):', {
          validate: (value) => (/^[0-9]{10}$/.test(value.trim()) ? true : 'an account number is exactly 10 digits'),
        })
      ).trim();
    case 'bank':
      return (await pickBank(ctx)).institutionCode;
    case 'narration':
      return (
        await ctx.prompt.input('Narration (what the transfer is for):', {
          validate: (value) => {
            const text = value.trim();
            if (text === '') return 'say what the transfer is for, e.g. Invoice 42';
            if (text.length > MAX_NARRATION_LENGTH) return `at most ${MAX_NARRATION_LENGTH} characters (this is ${text.length})`;
            return true;
          },
        })
      ).trim();
  }
}

/**
 * The bank picker: type a code, part of a name, or a brand name (GTBank, OPay); common banks come first.
 * A word lists the banks `--bank` would take it for (matchBanks), in the same order, so Enter on a word
 * picks what `--bank <word>` means; a word that matches none lists the banks it may be a typo of.
 */
export async function pickBank(ctx: Context): Promise<Bank> {
  const banks = await loadBanks(ctx);
  const common = BANK_ALIASES.map((entry) => banks.find((bank) => bank.institutionCode === entry.code)).filter((bank): bank is Bank => bank !== undefined);
  const ordered = [...common, ...banks.filter((bank) => !common.includes(bank))];
  return ctx.prompt.search('Bank (type a name, brand or code):', (term) => {
    if (term.trim() === '') return ordered.map((bank) => choice(bank));
    const matches = matchBanks(banks, term);
    if (matches.length > 0) return matches.map((bank) => choice(bank));
    return suggestBanks(banks, term).map((bank) => choice(bank, `no bank matches "${term.trim()}": did you mean this one?`));
  });
}

function choice(bank: Bank, description?: string) {
  const aliases = aliasesOf(bank);
  return {
    name: `${bank.institutionName} (${bank.institutionCode})`,
    value: bank,
    description: description ?? (aliases.length > 0 ? `also: ${aliases.slice(0, 3).join(', ')}` : undefined),
  };
}
