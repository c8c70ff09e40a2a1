// The fields of `clients create individual|corporate` (spec 4.2 and 4.3): one kebab-case flag each,
// checked locally before anything is sent, asked for on a terminal when missing.
//
// Choices where the spec is silent (docs/transfers.md, "Creating client accounts"):
// - dates are typed as YYYY-MM-DD or YYYY/MM/DD, must be real calendar dates, not in the future and not
//   before 1900 ("today" in Nigerian time); dateOfBirth is sent as YYYY/MM/DD (the spec's format), incorporationDate as ISO 8601
//   at midnight UTC (2015-06-01T00:00:00.000Z);
// - phone numbers are Nigerian mobile numbers: 0803 123 4567, 08031234567, +2348031234567 or
//   2348031234567 (spaces and dashes ignored); they are sent in the 11-digit local form 08031234567;
// - BVN and NIN are 11 digits; the corporate bvn is sent as a number (spec 4.3), so a BVN starting with 0,
//   which a number cannot carry, is refused rather than silently changed;
// - rcNumber is sent as a number; "RC 1234567" and "RC1234567" are accepted;
// - --metadata is a JSON object (not an array or a scalar) of at most 10,000 characters.
import type { Context } from '../context.js';
import type { CorporateClientRequest, IndividualClientRequest } from '../api/schemas.js';
import { CancelledError, UsageError } from '../errors.js';
import { shownText } from '../common/shown.js';
import { longName, optionKey } from '../common/option-names.js';

/** A field's text is wrong: the message says why, without the flag name (the caller adds it). */
export class FieldError extends Error {}

export interface FieldSpec<Key extends string = string> {
  /** Key in the request body. */
  key: Key;
  /** The kebab-case flag, e.g. --date-of-birth. */
  flag: string;
  /** commander's camelCase name for the flag. */
  option: string;
  /** What a person is asked. */
  label: string;
  required: boolean;
  /** Offer these on a terminal (a list to pick from). */
  choices?: readonly string[];
  /** Text -> the value to send. Throws FieldError. `now` is epoch ms, for "not in the future". */
  parse(text: string, now: number): unknown;
}

// ---- single values -------------------------------------------------------------------------------------

const MAX_TEXT = 200;

export function parseText(text: string): string {
  const value = text.trim();
  if (value === '') throw new FieldError('is empty');
  if (value.length > MAX_TEXT) throw new FieldError(`is ${value.length} characters long; at most ${MAX_TEXT} are allowed`);
  return value;
}

export function parseElevenDigits(text: string): string {
  const value = text.trim();
  if (!/^[0-9]{11}$/.test(value)) throw new FieldError(`must be 11 digits, not ${JSON.stringify(text)}`);
  return value;
}

export function parseEmail(text: string): string {
  const value = text.trim();
  if (value.length > 254 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value)) {
    throw new FieldError(`${JSON.stringify(text)} is not an e-mail address like name@example.com`);
  }
  return value;
}

/** Nigerian mobile numbers (070, 080, 081, 090, 091...), local or international form -> 08031234567. */
export function parseNigerianPhone(text: string): string {
  const compact = text.trim().replace(/[\s-]/g, '');
  const match = /^(?:\+?234|0)([789][01][0-9]{8})$/.exec(compact);
  if (!match) throw new FieldError(`${JSON.stringify(text)} is not a Nigerian mobile number like 08031234567 or +2348031234567`);
  return `0${match[1]}`;
}

/** YYYY-MM-DD or YYYY/MM/DD, a real date between 1900-01-01 and today (in Nigeria). Returns [year, month, day]. */
export function parsePastDate(text: string, now: number): [number, number, number] {
  const match = /^([0-9]{4})[-/]([0-9]{2})[-/]([0-9]{2})$/.exec(text.trim());
  if (!match || text.trim()[4] !== text.trim()[7]) throw new FieldError(`${JSON.stringify(text)} is not a date written YYYY-MM-DD or YYYY/MM/DD`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new FieldError(`${text.trim()} is not a calendar date`);
  }
  if (year < 1900) throw new FieldError(`${text.trim()} is before 1900`);
  // "Today" is Nigerian time (WAT, UTC+1 all year), the API's home, whatever the machine's time zone.
  const lagos = new Date(now + 60 * 60 * 1000);
  const today = Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth(), lagos.getUTCDate());
  if (date.getTime() > today) throw new FieldError(`${text.trim()} is in the future`);
  return [year, month, day];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function toSlashDate(text: string, now: number): string {
  const [year, month, day] = parsePastDate(text, now);
  return `${pad(year, 4)}/${pad(month)}/${pad(day)}`;
}

export function toIsoDate(text: string, now: number): string {
  const [year, month, day] = parsePastDate(text, now);
  return new Date(Date.UTC(year, month - 1, day)).toISOString();
}

export function parseRcNumber(text: string): number {
  const value = text.trim().replace(/^RC\s*/i, '');
  if (!/^[0-9]{1,12}$/.test(value) || Number(value) <= 0)
    throw new FieldError(`must be a company registration number like 1234567 or RC1234567, not ${JSON.stringify(text)}`);
  return Number(value);
}

/** The corporate bvn goes as a JSON number (spec 4.3): a leading 0 would be lost, so it is refused. */
export function parseBvnAsNumber(text: string): number {
  const value = parseElevenDigits(text);
  if (value.startsWith('0')) throw new FieldError(`${value} starts with 0, which the API's numeric bvn field cannot carry; check the BVN`);
  return Number(value);
}

export function parseMetadata(text: string): Record<string, unknown> {
  if (text.length > 10_000) throw new FieldError('is longer than 10,000 characters');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FieldError(`is not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FieldError('must be a JSON object, like {"customerId":"42"}');
  return value as Record<string, unknown>;
}

type IndividualKey =
  | 'firstname'
  | 'lastname'
  | 'middlename'
  | 'phoneNumber'
  | 'emailAddress'
  | 'address'
  | 'bvn'
  | 'nin'
  | 'gender'
  | 'dateOfBirth'
  | 'metadata';
type CorporateKey = 'rcNumber' | 'businessName' | 'emailAddress' | 'phoneNumber' | 'address' | 'bvn' | 'incorporationDate' | 'dateOfBirth' | 'metadata';

// ---- the two forms -------------------------------------------------------------------------------------

/**
 * A field of a form: its flag, commander's name for it and whether it is required come from the command's
 * spec (src/commands/clients/create-*.spec.ts), so the flags are defined once; the label and check are here.
 */
/** What a form needs of a command's option: its flags, and whether it is required or has choices. */
export interface FlagOption {
  readonly flags: string;
  readonly required?: boolean;
  readonly choices?: readonly string[];
}

const field = <Options extends Record<string, FlagOption>, Key extends keyof Options & string>(
  options: Options,
  key: Key,
  label: string,
  parse: FieldSpec['parse'],
): FieldSpec<Key> => {
  const option = options[key]!;
  return { key, flag: longName(option.flags), option: optionKey(option.flags), label, required: option.required === true, choices: option.choices, parse };
};
/** The fields of `clients create individual`, from its spec's options (src/commands/clients/create-individual.spec.ts). */
export const individualFields = <Options extends Record<IndividualKey, FlagOption>>(individual: Options) =>
  [
    field(individual, 'firstname', 'First name', parseText),
    field(individual, 'lastname', 'Last name', parseText),
    field(individual, 'middlename', 'Middle name', parseText),
    field(individual, 'phoneNumber', 'Phone number (e.g. 08031234567)', parseNigerianPhone),
    field(individual, 'emailAddress', 'E-mail address', parseEmail),
    field(individual, 'address', 'Address', parseText),
    field(individual, 'bvn', 'BVN (11 digits)', parseElevenDigits),
    field(individual, 'nin', 'NIN (11 digits)', parseElevenDigits),
    field(individual, 'gender', 'Gender', (text) => {
      const value = text.trim().toLowerCase();
      if (value !== 'male' && value !== 'female') throw new FieldError(`must be male or female, not ${JSON.stringify(text)}`);
      return value;
    }),
    field(individual, 'dateOfBirth', 'Date of birth (YYYY-MM-DD)', toSlashDate),
    field(individual, 'metadata', 'Metadata (JSON object)', parseMetadata),
  ] as const;

/** The fields of `clients create corporate`, from its spec's options (src/commands/clients/create-corporate.spec.ts). */
export const corporateFields = <Options extends Record<CorporateKey, FlagOption>>(corporate: Options) =>
  [
    field(corporate, 'rcNumber', 'RC number', parseRcNumber),
    field(corporate, 'businessName', 'Business name', parseText),
    field(corporate, 'emailAddress', 'E-mail address', parseEmail),
    field(corporate, 'phoneNumber', 'Phone number (e.g. 08031234567)', parseNigerianPhone),
    field(corporate, 'address', 'Address', parseText),
    field(corporate, 'bvn', "Director's BVN (11 digits)", parseBvnAsNumber),
    field(corporate, 'incorporationDate', 'Incorporation date (YYYY-MM-DD)', toIsoDate),
    field(corporate, 'dateOfBirth', "Director's date of birth (YYYY-MM-DD)", toSlashDate),
    field(corporate, 'metadata', 'Metadata (JSON object)', parseMetadata),
  ] as const;

// ---- collecting ----------------------------------------------------------------------------------------

/**
 * The request body from the flags: every given flag is checked first (all problems in one exit 2);
 * then the missing required ones are asked for on a terminal, each validated as it is typed, or,
 * without a terminal, listed together in one exit 2. Optional fields are never asked for.
 */
export async function collectFields(ctx: Context, specs: readonly FieldSpec[], options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const now = ctx.clock.now();
  const body: Record<string, unknown> = {};
  const problems: string[] = [];
  const missing: FieldSpec[] = [];
  for (const spec of specs) {
    const given = options[spec.option];
    if (given === undefined) {
      if (spec.required) missing.push(spec);
      continue;
    }
    try {
      body[spec.key] = spec.parse(String(given), now);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      problems.push(`${spec.flag} ${error.message}`);
    }
  }
  if (problems.length > 0) {
    const also = missing.length > 0 ? `; missing ${missing.map((spec) => spec.flag).join(', ')}` : '';
    throw new UsageError(`${problems.join('; ')}${also}; nothing was sent`);
  }
  if (missing.length === 0) return body;
  if (!ctx.prompt.interactive) {
    throw new UsageError(
      `missing ${missing.map((spec) => spec.flag).join(', ')}; nothing was sent`,
      'give every required flag, or run it on a terminal to be asked for them',
    );
  }
  for (const spec of missing) {
    if (spec.choices) {
      const picked = await ctx.prompt.select(
        spec.label,
        spec.choices.map((choice) => ({ name: choice, value: choice })),
      );
      body[spec.key] = spec.parse(picked, now);
      continue;
    }
    const answer = await ctx.prompt.input(spec.label, {
      validate: (text) => {
        try {
          spec.parse(text, now);
          return true;
        } catch (error) {
          if (error instanceof FieldError) return promptMessage(spec, error.message);
          throw error;
        }
      },
    });
    body[spec.key] = spec.parse(answer, now);
  }
  return body;
}

/** "is empty" needs its subject ("Address is empty"); "1990-02-30 is not a calendar date" already has one. */
function promptMessage(spec: FieldSpec, message: string): string {
  const name = spec.label.replace(/\s*\(.*\)$/, '');
  return /^(is|must) /.test(message) ? `${name} ${message}` : message;
}

export async function collectIndividualClient(ctx: Context, fields: readonly FieldSpec[], options: Record<string, unknown>): Promise<IndividualClientRequest> {
  return (await collectFields(ctx, fields, options)) as IndividualClientRequest;
}

export async function collectCorporateClient(ctx: Context, fields: readonly FieldSpec[], options: Record<string, unknown>): Promise<CorporateClientRequest> {
  return (await collectFields(ctx, fields, options)) as CorporateClientRequest;
}

// ---- review and the account's bank ---------------------------------------------------------------------

/** The fields as a person checks them before the account is made: label and the value to be sent. */
export function reviewRows(specs: readonly FieldSpec[], body: Record<string, unknown>): Array<[string, string]> {
  return specs
    .filter((spec) => body[spec.key] !== undefined)
    .map((spec) => [spec.label.replace(/\s*\(.*\)$/, ''), typeof body[spec.key] === 'object' ? JSON.stringify(body[spec.key]) : String(body[spec.key])]);
}

/**
 * Whether anyone can answer the review: --yes skips it; without a terminal and without --yes it is exit 2
 * before anything is sent (the same rule as a transfer's confirmation).
 */
export function requireReviewer(ctx: Context, yes: boolean): void {
  if (!yes && !ctx.prompt.interactive) {
    throw new UsageError(
      'there is no terminal to review this client account on; nothing was sent',
      'check the details and add --yes to create it without asking',
    );
  }
}

/** The review's question, default No; No is exit 4 with nothing sent. */
export async function confirmCreate(ctx: Context, what: string): Promise<void> {
  if (!(await ctx.prompt.confirm(`Create this ${what} client account?`, { defaultValue: false }))) throw new CancelledError();
}

/**
 * The bank a client account receives money at: the business's own bank, since client accounts are
 * opened under the primary account (spec 1). No endpoint names it, so it is read from the latest
 * transactions, whose own side carries the bank (a credit's destination, a debit's source). Undefined
 * when no transaction names it yet, or the list cannot be read: the account was made either way.
 */
export async function clientAccountBank(ctx: Context): Promise<{ name: string; code: string } | undefined> {
  try {
    const api = await ctx.api();
    for (const tx of await api.listTransactions({ page: 1, limit: 10 })) {
      const credit = String(tx.type ?? '').toLowerCase() === 'credit';
      const name = shownText(credit ? tx.destinationBankName : tx.sourceBankName).trim();
      const code = shownText(credit ? tx.destinationBankCode : tx.sourceBankCode).trim();
      if (name !== '') return { name, code };
    }
  } catch {
    // Only a label for the result; the account exists.
  }
  return undefined;
}

/** "Bell Microfinance Bank (090672)", or a plain note when no transaction names the bank yet. */
export function bankLabel(bank: { name: string; code: string } | undefined): string {
  if (!bank) return "the business's own bank (no transaction names it yet)";
  return bank.code === '' ? bank.name : `${bank.name} (${bank.code})`;
}
