// Sending money exactly once (docs/cli-contract.md, "Transfers: pay the right person, exactly once").
//
// The pieces, in the order `transfer send` uses them:
//   parseSendRequest      local validation: nothing has been asked of the API yet (exit 2 on bad input)
//   prepareTransfer       the business prefix and the reference, the bank, the name enquiry, --expect-name,
//                         the journal scope and the duplicate guard's findings; still nothing sent
//   executeTransfer       ONE verified, confirmed transfer: intent in the journal -> one POST -> outcome in
//                         the journal; when the answer is lost or proves nothing, reconciliation by lookup
//   waitForSettlement     polls the status until successful (bounded)
//   checkTransferStatus   `transfer status`: one lookup, recorded in the journal when the reference is ours
// The interactive parts (summary, confirmation) are the command's: this module never prompts or prints,
// except through callbacks it is given. `transfer batch` calls executeTransfer for each row it has verified
// and confirmed itself; it is safe to run many at once (the journal queues appends).
import { recordsScope } from '../auth/records-owner.js';
import type { Context } from '../context.js';
import type { TransactionRecord, TransferRequest, TransferResult } from '../api/schemas.js';
import type { Bank } from '../api/schemas.js';
import { ApiError, AuthError, ExitCode, FsapiError, NotSentError, OutcomeUnknownError, TransportError, UsageError } from '../errors.js';
import { resolveBank } from './banks.js';
import { checkClaim, DuplicateClaimError, ReferenceTakenError, runId, type ClaimRules } from './claim.js';
import { Journal, type ClaimView, type JournalRecord, type LookupsAhead, type SendCheck, type TransferState } from './journal.js';
import { ensurePrivateDir, NotPrivateError, StoreBusyError } from '../store/database.js';
import { checkObservation, isRefusal, type TransferIntent } from './lookup.js';
import { afterRateLimit, errorProvesNothingMoved, isRateLimitAnswer } from './refusal-proof.js';
import { PermissionDeniedError } from '../common/permission.js';
import { formatNaira, koboToApiNumber, parseApiAmount, type Kobo } from '../money/kobo.js';
import { namesMatch } from './names.js';
import { operatorName } from './asker.js';
import { hardLimits, PolicyLimitError } from './limits.js';
import { viaJson, viaOf } from './asker.js';
import { makeReference, parseReferenceOption, referencePrefix, referenceToSend } from '../api/reference.js';
import { characterCount, controlCharacterProblem, parseAccountNumber } from '../common/validate.js';
import { describeWait, outcomeNow, statusKind, withOutcomeNow, type TransferWithOutcome } from './outcome.js';
import { shownText } from '../common/shown.js';
import { Backoff, LOST_ANSWER_LOOKUPS, type RetrySchedule } from '../common/retry.js';
import type { SendRequest, VerifiedTransfer } from './types.js';
export type { SendRequest, VerifiedTransfer } from './types.js';

export const MAX_NARRATION_LENGTH = 100;
export const MAX_SENDER_NAME_LENGTH = 100;

export const WAIT_TIMEOUT_MS = 5 * 60 * 1000;
export const WAIT_INTERVAL_MS = 2500;

// ---- local validation --------------------------------------------------------------------------------

export function parseNarration(text: string): string {
  const control = controlCharacterProblem(text, '--narration');
  if (control) throw new UsageError(control, 'write the narration on one line, without tabs or other control characters');
  const narration = text.trim();
  if (narration === '') throw new UsageError('--narration is empty', 'say what the transfer is for, e.g. --narration "Invoice 42"');
  if (characterCount(narration) > MAX_NARRATION_LENGTH) {
    throw new UsageError(`--narration is ${characterCount(narration)} characters long; at most ${MAX_NARRATION_LENGTH} are allowed`);
  }
  return narration;
}

function parseOptionalText(value: unknown, option: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  const control = controlCharacterProblem(String(value), option);
  if (control) throw new UsageError(control);
  const text = String(value).trim();
  if (text === '') throw new UsageError(`${option} is empty`, `leave ${option} out instead`);
  if (characterCount(text) > max) throw new UsageError(`${option} is ${characterCount(text)} characters long; at most ${max} are allowed`);
  return text;
}

/** What a send is given: text as typed, the amount already in kobo (parsed once, where it was typed). */
export interface SendInput {
  bank?: string | undefined;
  amountKobo: Kobo | undefined;
  narration?: string | undefined;
  reference?: string | undefined;
  senderName?: string | undefined;
  expectName?: string | undefined;
}

/** Every check that needs no request. Throws UsageError (exit 2): nothing has been sent. */
export function parseSendRequest(accountNumber: string | undefined, input: SendInput): SendRequest {
  if (input.amountKobo === undefined) throw new UsageError('missing --amount; nothing was sent', 'give naira like 1500, 1500.50 or 1,500.50');
  return {
    accountNumber: parseAccountNumber(accountNumber ?? ''),
    bankQuery: input.bank ?? '',
    amountKobo: input.amountKobo,
    narration: parseNarration(input.narration ?? ''),
    ...parseSendExtras(input),
  };
}

/**
 * The options of a send that are never asked for (--reference, --sender-name, --expect-name), checked on
 * their own: the guided send checks them before its first question, so a bad one is refused at once.
 */
export function parseSendExtras(
  options: Pick<SendInput, 'reference' | 'senderName' | 'expectName'>,
): Pick<SendRequest, 'reference' | 'senderName' | 'expectName'> {
  return {
    reference: options.reference === undefined ? undefined : parseReferenceOption(String(options.reference)),
    senderName: parseOptionalText(options.senderName, '--sender-name', MAX_SENDER_NAME_LENGTH),
    expectName: parseOptionalText(options.expectName, '--expect-name', 200),
  };
}

// ---- preparation: who are we paying? -------------------------------------------------------------------

/** Which account a transfer belongs to in the journal. */
export interface TransferScope {
  profile: string;
  env: string;
  /** The API's base address, `local` for the in-process simulator. */
  baseUrl: string;
}

export async function transferScope(ctx: Context): Promise<TransferScope> {
  const [profile, api] = await Promise.all([ctx.profile(), ctx.api()]);
  return { ...recordsScope(ctx, profile, api.baseUrl), env: profile.env };
}

/**
 * The journal of this data dir. The data dir is made private (0700) first, before the command writes
 * anything there (the bank list cache, the local simulator's state): see src/store/database.ts.
 */
export function openJournal(ctx: Context): Journal {
  ensurePrivateDir(ctx.paths.dataDir);
  return Journal.inDataDir(ctx.paths.dataDir, (line) => ctx.io.note(`note: ${line}`));
}

export interface SourceAccount {
  accountName: string;
  accountNumber: string;
  /** The available balance when it was read, if the API's answer had a readable one. */
  availableKobo?: Kobo | undefined;
  /** The first word of the business name: every reference starts with `PREFIX-`. */
  prefix: string;
}

/** The business account money leaves from (GET /v1/account), and the reference prefix it implies. */
export async function sourceAccount(ctx: Context): Promise<SourceAccount> {
  const account = await (await ctx.api()).getAccount();
  let availableKobo: Kobo | undefined;
  try {
    availableKobo = parseApiAmount(account.availableBalance);
  } catch {
    availableKobo = undefined; // shown as unknown; the API refuses an amount above it anyway
  }
  return { accountName: account.accountName, accountNumber: shownText(account.accountNumber), prefix: referencePrefix(account.accountName), availableKobo };
}

/** The verified holder name of an account (POST /v1/transfer/name-enquiry), checked against --expect-name. */
export async function verifyAccountName(
  ctx: Context,
  bank: Bank,
  accountNumber: string,
  expectName: string | undefined,
  /** What did not happen, in the refusal: a payee being saved says "nothing was saved". */
  nothingDone = 'nothing was sent',
): Promise<string> {
  const api = await ctx.api();
  let result: Awaited<ReturnType<typeof api.nameEnquiry>>;
  try {
    result = await api.nameEnquiry(bank.institutionCode, accountNumber);
  } catch (error) {
    if (isRefusal(error)) {
      throw new ApiError(
        `the name enquiry for account ${accountNumber} at ${bank.institutionName} was refused (HTTP ${error.status}${error.apiMessage ? `: ${error.apiMessage}` : ''}); ${nothingDone}`,
        {
          status: error.status,
          apiMessage: error.apiMessage,
          hint: 'check the account number and the bank (fsapi enquiry <account> --bank <bank> asks again)',
        },
      );
    }
    throw error;
  }
  const accountName = result.accountName.trim();
  if (accountName === '') {
    throw new ApiError(`the name enquiry for ${accountNumber} at ${bank.institutionName} returned no account name; ${nothingDone}`);
  }
  if (expectName !== undefined && !namesMatch(accountName, expectName)) throw new NameMismatchError(accountName, expectName, accountNumber, bank, nothingDone);
  return accountName;
}

/** --expect-name did not match the verified name: exit 1, nothing sent (or saved). */
export class NameMismatchError extends FsapiError {
  readonly bankCode: string;
  constructor(
    readonly verifiedName: string,
    readonly expectedName: string,
    readonly accountNumber: string,
    bank: Bank,
    nothingDone = 'nothing was sent',
  ) {
    super(`account ${accountNumber} at ${bank.institutionName} belongs to "${verifiedName}", not "${expectedName}"; ${nothingDone}`, {
      exitCode: ExitCode.failed,
      hint: 'check the account number and bank; --expect-name ignores case, spacing and punctuation only',
      code: 'name_mismatch',
    });
    this.bankCode = bank.institutionCode;
  }
}

/**
 * The same amount went to the same account less than 10 minutes ago, and nobody said a second payment is
 * meant (--allow-duplicate, or yes at a terminal). Exit 2, nothing sent. Its own class so an agent's tool
 * can say it in its own words (an agent cannot pass the guard: src/agents/send.ts).
 */
export class DuplicateTransferError extends UsageError {}

/** A name enquiry made before the rest of the transfer was known. */
export interface EarlyEnquiry {
  accountNumber: string;
  bankQuery: string;
  bank: Bank;
  accountName: string;
}

/**
 * The name enquiry as soon as the account and bank are known (before the amount is asked). --expect-name is
 * compared later, in prepareTransfer, once every option has passed its checks.
 */
export async function enquireEarly(ctx: Context, accountNumber: string, bankQuery: string): Promise<EarlyEnquiry> {
  const account = parseAccountNumber(accountNumber);
  const bank = await resolveBank(ctx, bankQuery);
  const accountName = await verifyAccountName(ctx, bank, account, undefined);
  return { accountNumber: account, bankQuery, bank, accountName };
}

export interface PreparedTransfer {
  transfer: VerifiedTransfer;
  source: SourceAccount;
  scope: TransferScope;
  bank: Bank;
  /** Transfers of the same amount to the same account in the last 10 minutes (not refused ones). */
  duplicates: TransferWithOutcome[];
  /** Earlier (refused) attempts of the same reference: the claim checks that nobody added one since. */
  earlierAttempts: number;
}

/**
 * Steps 2, 3, 5 and 9 of the contract: everything up to the confirmation. The reference is made here, so
 * the person confirming sees the reference that will be sent and looked up.
 */
export async function prepareTransfer(
  ctx: Context,
  request: SendRequest,
  journal: Journal,
  /** The bank and verified name already learnt for this account and bank query (the guided send asks early). */
  early?: EarlyEnquiry,
): Promise<PreparedTransfer> {
  const source = await sourceAccount(ctx);
  let reference: string;
  if (request.reference !== undefined) {
    const given = referenceToSend(request.reference, source.prefix);
    if (given.changed)
      ctx.io.note(`note: --reference ${request.reference} is sent as ${given.reference}: the API expects the prefix ${source.prefix}- in capitals`);
    reference = given.reference;
  } else {
    reference = makeReference(source.prefix);
  }
  const scope = await transferScope(ctx);
  // By index: what the journal knows of this reference, whatever the size of the history.
  const claimScope = { ...scope, reference };
  const { reused, earlierAttempts, outcome } = await journal.snapshot(async (view) => {
    const state = await view.stateOf(claimScope);
    return {
      reused: state,
      earlierAttempts: (await view.attempts(claimScope))?.intents ?? 0,
      outcome: state && state.state !== 'rejected' ? await outcomeNow(view, state) : undefined,
    };
  });
  if (reused && reused.state !== 'rejected') {
    throw new UsageError(
      `reference ${reference} was already used on ${reused.sentAt} (${outcome}); a reference pays once`,
      `fsapi transfer status ${reused.reference} shows what happened to it`,
    );
  }
  const reuse = early !== undefined && early.accountNumber === request.accountNumber && early.bankQuery === request.bankQuery;
  const bank = reuse ? early.bank : await resolveBank(ctx, request.bankQuery);
  const accountName = reuse ? early.accountName : await verifyAccountName(ctx, bank, request.accountNumber, request.expectName);
  // The early enquiry ran before the options were checked: --expect-name is compared here, as always.
  if (reuse && request.expectName !== undefined && !namesMatch(accountName, request.expectName)) {
    throw new NameMismatchError(accountName, request.expectName, request.accountNumber, bank);
  }
  const transfer: VerifiedTransfer = {
    reference,
    accountNumber: request.accountNumber,
    bankCode: bank.institutionCode,
    bankName: bank.institutionName,
    accountName,
    amountKobo: request.amountKobo,
    narration: request.narration,
    senderName: request.senderName,
  };
  const duplicates = await journal.snapshot(async (view) =>
    withOutcomeNow(
      view,
      await view.duplicates({ ...scope, accountNumber: transfer.accountNumber, bankCode: transfer.bankCode, amountKobo: transfer.amountKobo }, ctx.clock.now()),
    ),
  );
  return { transfer, source, scope, bank, duplicates, earlierAttempts };
}

/**
 * An amount above the available balance would only be refused by the API: refused here, before the
 * confirmation, exit 1, nothing sent. (Charges come on top; the API still has the last word.)
 */
export function checkAvailable(prepared: PreparedTransfer): void {
  const available = prepared.source.availableKobo;
  const amount = prepared.transfer.amountKobo;
  if (available === undefined || amount <= available) return;
  throw new ApiError(`${formatNaira(amount)} is more than the available balance of ${formatNaira(available)}; nothing was sent`, {
    hint: 'fund the account or send less (the charge comes on top of the amount); fsapi account shows the balance',
    code: 'insufficient_balance',
  });
}

// ---- sending: once ------------------------------------------------------------------------------------

export type TransferOutcome =
  /** The API answered and took the transfer. `result` is the API's `data`, exactly as returned. */
  | { kind: 'accepted'; reference: string; status: string; message: string; result: TransferResult }
  /** The answer was lost; the lookup by reference found the transfer. `transaction` is the looked-up record. */
  | { kind: 'reconciled'; reference: string; status: string; transaction: TransactionRecord; lostBecause: string }
  /** An answer proved a refusal, or the POST never left (src/transfers/refusal-proof.ts); nothing moved. */
  | { kind: 'rejected'; reference: string; httpStatus: number | undefined; message: string; error: FsapiError }
  /** Sent, and nobody knows what happened: do not resend. */
  | { kind: 'unknown'; reference: string; detail: string };

/**
 * What one attempt (executeTransfer) can end with: an outcome, or `rate-limited`: answered 429, and the
 * lookup since answered that the API holds no such reference, so the same reference may be sent again
 * (src/transfers/rate-limit.ts decides whether). Its journal state is unknown until then.
 */
export type AttemptOutcome = TransferOutcome | { kind: 'rate-limited'; reference: string; detail: string; retryAfterMs?: number | undefined };

export interface ExecuteOptions {
  /** Written in the intent: `send`, or e.g. `batch payroll.csv row 3`. */
  origin?: string;
  /** The reconciliation lookups (default: reconcileSchedule(ctx.env)). */
  schedule?: RetrySchedule;
  /** Called once when the answer is lost, before reconciliation starts. */
  onUnknown?: (detail: string) => void | Promise<void>;
  /** Called (and awaited) before each reconciliation lookup, 1-based. */
  onLookup?: (attempt: number, of: number) => void | Promise<void>;
  /** What the claim checks in the claim's transaction (default: a new reference, no duplicate guard). */
  claim?: ClaimRules;
}

export function transferBody(transfer: VerifiedTransfer): TransferRequest {
  const body: TransferRequest = {
    beneficiaryBankCode: transfer.bankCode,
    beneficiaryAccountNumber: transfer.accountNumber,
    narration: transfer.narration,
    amount: koboToApiNumber(transfer.amountKobo),
    reference: transfer.reference,
  };
  if (transfer.senderName !== undefined) body.senderName = transfer.senderName;
  return body;
}

/**
 * Sends one verified, confirmed transfer: the intent is fsync-ed to the journal, the POST goes out once
 * and is never retried, the outcome is journalled. A lost answer (timeout, dropped connection, 5xx,
 * unreadable body), and any answer that does not prove a refusal (src/transfers/refusal-proof.ts: a 401/403,
 * a 3xx, a 400 to a reference sent before, a 429), is reconciled by looking the reference up on a bounded
 * schedule; after a 429 the first definite answer ends the lookups (`rate-limited` when the API holds no
 * such reference). Throws only when the intent cannot be journalled, or (a team store) when the POST could
 * not leave within its send window after the claim (NotSentError): nothing was sent then; every other
 * ending is a returned outcome.
 */
export async function executeTransfer(
  ctx: Context,
  journal: Journal,
  scope: TransferScope,
  transfer: VerifiedTransfer,
  options: ExecuteOptions = {},
): Promise<AttemptOutcome> {
  const api = await ctx.api();
  const body = transferBody(transfer);
  const { reference } = transfer;
  const stamp = () => ({ reference, profile: scope.profile, baseUrl: scope.baseUrl, time: new Date(ctx.clock.now()).toISOString() });
  const record = (entry: JournalRecord) => recordOutcome(ctx, journal, entry);

  const rules: ClaimRules = options.claim ?? { earlierAttempts: 0, duplicates: undefined };
  const candidate = { ...scope, reference, accountNumber: transfer.accountNumber, bankCode: transfer.bankCode, amountKobo: transfer.amountKobo };
  let mayLeave: SendCheck;
  try {
    // The claim: the duplicate guard and the reference's owner checked again, and the intent written, as
    // one step for every fsapi process sharing this data dir (src/transfers/claim.ts).
    const intent: JournalRecord = {
      type: 'intent',
      ...stamp(),
      env: scope.env,
      request: { ...body, reference },
      amountKobo: transfer.amountKobo,
      bankName: transfer.bankName,
      accountName: transfer.accountName,
      origin: options.origin,
      pid: process.pid,
      run: runId(),
      operator: operatorName(ctx.env),
      ...withVia(viaJson(viaOf(ctx))),
    };
    // The policy's hard limits (src/controls/policy.ts), read in the claim's transaction: the policy as it is
    // when the intent is written, whoever changed it meanwhile (over the per-transfer maximum refuses the
    // claim; the daily maximum is counted against every process's transfers).
    // The claim's moment, as the intent's time is: what it counts the duplicate window and the day from.
    const now = ctx.clock.now();
    // What the claim reads, asked together: with BEGIN on a team store, one round trip inside the writer's lock.
    const ahead: LookupsAhead = {
      references: [candidate],
      duplicates: rules.duplicates ? [{ candidate, now, windowMs: rules.duplicates.windowMs }] : [],
      policy: scope,
    };
    const check = async (current: ClaimView) => {
      await current.expect(ahead);
      await checkClaim(current, candidate, { ...rules, ...hardLimits(await current.policy(scope), scope.profile, transfer.amountKobo) }, now);
    };
    mayLeave = await journal.claim(
      intent,
      check,
      { requestTimeoutMs: ctx.globals.timeoutMs, lookupsMs: scheduleSpanMs(options.schedule ?? reconcileSchedule(ctx.env)) },
      ahead,
    );
  } catch (error) {
    if (
      error instanceof ReferenceTakenError ||
      error instanceof DuplicateClaimError ||
      error instanceof PolicyLimitError ||
      error instanceof StoreBusyError ||
      error instanceof NotPrivateError ||
      // The team store: unreachable, busy, login refused, or an account it cannot name (said as they are).
      (error instanceof FsapiError && /^(store_|account_unknown)/.test(error.code))
    )
      throw error;
    const cause = withoutNothingDone((error as Error).message);
    // A permission problem keeps its own words for the fix (whose the path is) and its code.
    const denied = error instanceof PermissionDeniedError ? error : undefined;
    const fix = denied?.hint ?? 'free disk space or fix the permissions of the data dir';
    // A resend: this attempt did not leave, but an earlier one of the same reference did.
    if (rules.earlierAttempts > 0) {
      throw new FsapiError(`cannot write the journal ${journal.file}: ${cause}; this attempt of ${reference} was not sent, but an earlier one was`, {
        exitCode: ExitCode.failed,
        hint: `fsapi transfer status ${reference} says what became of it; ${fix}`,
        cause: error,
        code: denied?.code,
      });
    }
    throw new FsapiError(`cannot write the journal ${journal.file}: ${cause}; nothing was sent`, {
      exitCode: ExitCode.failed,
      hint: denied ? fix : `fsapi records every transfer before sending it; ${fix}`,
      cause: error,
      code: denied?.code,
    });
  }

  const intent: TransferIntent = { reference, amountKobo: transfer.amountKobo, accountNumber: transfer.accountNumber, bankCode: transfer.bankCode };
  let lostBecause: string;
  try {
    const response = await api.sendTransfer(body, { mayLeave });
    const verdict = checkObservation(intent, response.data);
    if (verdict.matches) {
      const status = response.data.status;
      const message = shownText(response.message);
      await record({ type: 'accepted', ...stamp(), status, message });
      return { kind: 'accepted', reference, status, message, result: response.data };
    }
    // An answer about another transfer says nothing about this one: settled by looking our own reference up.
    lostBecause = `the answer to the transfer was not about it: ${verdict.detail}`;
  } catch (error) {
    // Held past its send window since the claim (a team store: src/store/run-lease.ts): it never left. Said
    // in the journal only while this attempt is still the reference's last (another member may have settled
    // it since); thrown as the claim's failures are, so a batch stops here.
    if (error instanceof NotSentError) {
      const own = { run: runId(), intents: rules.earlierAttempts + 1 };
      await journal.appendToOwnAttempt({ type: 'rejected', ...stamp(), message: `not sent: ${error.message}` }, own).catch(() => false);
      throw error;
    }
    // The one decision of what proves a refusal (src/transfers/refusal-proof.ts): only then "no money moved".
    if (errorProvesNothingMoved(error, { firstSend: rules.earlierAttempts === 0 })) {
      const refusal = error as FsapiError;
      const httpStatus = refusal instanceof ApiError ? refusal.status : undefined;
      const message = refusal instanceof ApiError && refusal.apiMessage ? refusal.apiMessage : refusal.message;
      await record({ type: 'rejected', ...stamp(), httpStatus, message });
      return { kind: 'rejected', reference, httpStatus, message, error: refusal };
    }
    if (isRateLimitAnswer(error)) return settleRateLimited(ctx, intent, error, rules.earlierAttempts > 0, options, record, stamp);
    lostBecause = describeFailure(error, rules.earlierAttempts > 0);
  }

  // The request may or may not have been carried out. Never send it again: find out.
  await record({ type: 'unknown', ...stamp(), error: lostBecause });
  await options.onUnknown?.(lostBecause);
  const schedule = options.schedule ?? reconcileSchedule(ctx.env);
  const lookup = await lookUpReference(ctx, intent, schedule, options.onLookup);
  if (lookup.found) {
    const status = lookup.found.status;
    await record({ type: 'reconciled', ...stamp(), status });
    return { kind: 'reconciled', reference, status, transaction: lookup.found, lostBecause };
  }
  const detail = `${lostBecause}; ${lookup.detail}`;
  await record({ type: 'unknown', ...stamp(), error: lookup.detail });
  return { kind: 'unknown', reference, detail };
}

/**
 * A 429 to the POST (src/transfers/refusal-proof.ts): it proves nothing, so the transfer is journalled
 * as unknown and its reference looked up before anything else is done or said. Found: reconciled. The API
 * holding no such reference: `rate-limited`, which the caller may send again under the same reference
 * (src/transfers/rate-limit.ts). No answer: unknown, it may have been paid.
 */
async function settleRateLimited(
  ctx: Context,
  intent: TransferIntent,
  error: ApiError,
  resend: boolean,
  options: ExecuteOptions,
  record: (entry: JournalRecord) => Promise<void>,
  stamp: () => { reference: string; profile: string; baseUrl: string; time: string },
): Promise<AttemptOutcome> {
  const { reference } = intent;
  const answered = `${resend ? 'the resend' : 'the transfer'} was answered HTTP 429 (rate limited)${error.apiMessage ? `: ${error.apiMessage}` : ''}, which does not prove it was not taken`;
  await record({ type: 'unknown', ...stamp(), error: answered });
  const lookup = await lookUpReference(ctx, intent, options.schedule ?? reconcileSchedule(ctx.env), options.onLookup, { untilAnswered: true });
  const next = afterRateLimit(lookup.found ? 'found' : lookup.absent ? 'absent' : 'no-answer');
  if (next === 'settled' && lookup.found) {
    const status = lookup.found.status;
    await record({ type: 'reconciled', ...stamp(), status });
    return { kind: 'reconciled', reference, status, transaction: lookup.found, lostBecause: answered };
  }
  if (next === 'send-again') {
    const detail = `${answered}; the lookup by reference does not find it`;
    await record({ type: 'unknown', ...stamp(), error: detail });
    return { kind: 'rate-limited', reference, detail, retryAfterMs: error.retryAfterMs };
  }
  const detail = `${answered}: it may have been paid; ${lookup.detail}`;
  await record({ type: 'unknown', ...stamp(), error: detail });
  return { kind: 'unknown', reference, detail };
}

function describeFailure(error: unknown, resend: boolean): string {
  if (error instanceof ApiError && !(error instanceof TransportError) && error.status !== undefined) {
    // An answer that is not proof (src/transfers/refusal-proof.ts): named as it came, and why it proves nothing.
    const { status } = error;
    const redirect = status >= 300 && status < 400;
    const answer = redirect ? error.message : `HTTP ${status}${error.apiMessage ? `: ${error.apiMessage}` : ''}`;
    const why = resend
      ? 'an answer to a reference sent before proves nothing: an earlier attempt may have gone through'
      : redirect || status === 401 || status === 403
        ? 'it does not prove the API did not take the transfer'
        : 'not an answer that proves the transfer was not taken';
    return `${resend ? 'the resend was answered' : 'the transfer was answered'} ${answer}; ${why}`;
  }
  // TransportError messages already say what happened ("no answer from api.example.ng within 30 s").
  return `no answer to the transfer (${error instanceof Error ? error.message : String(error)})`;
}

/**
 * Journals an outcome; a failure to do so is reported but never hides the outcome itself. Every record
 * written here follows a POST that left (or a lookup of one): the warning says so, and never repeats a
 * store error's "nothing was sent", which is true of the store and false of the transfer.
 */
async function recordOutcome(ctx: Context, journal: Journal, entry: JournalRecord): Promise<void> {
  try {
    await journal.append(entry);
  } catch (error) {
    ctx.io.note(`warning: ${unrecordedOutcome(entry, journal.file, error)}`);
  }
}

/** What happened to the transfer, that its record could not say, and how it gets settled. */
/** The labels of an intent, left out when there are none (most intents: no MCP client, no sudo). */
function withVia(via: ReturnType<typeof viaJson>): { via?: NonNullable<ReturnType<typeof viaJson>> } {
  return via ? { via } : {};
}

export function unrecordedOutcome(entry: JournalRecord, file: string, error: unknown): string {
  const { reference } = entry;
  const cause = withoutNothingDone(error instanceof Error ? error.message : String(error));
  const happened =
    entry.type === 'accepted'
      ? `transfer ${reference} was sent and the API took it (${entry.status})`
      : entry.type === 'rejected'
        ? `transfer ${reference} was sent and the API refused it`
        : entry.type === 'reconciled'
          ? `transfer ${reference} was sent and the lookup found it (${entry.status})`
          : entry.type === 'status-checked'
            ? `transfer ${reference} was looked up${entry.status ? ` (${entry.status})` : ''}`
            : `transfer ${reference} was sent; its outcome is not known yet`;
  return (
    `${happened}, but this could not be written to the journal ${file} (${cause}); ` +
    `the journal keeps it as sent, outcome unknown (the daily maximum and the duplicate guard count it); ` +
    `once the journal can be written, fsapi transfer status ${reference} records what became of it`
  );
}

/** A store error's own "nothing was sent or changed" (true of the store), left out where a transfer did leave. */
export function withoutNothingDone(message: string): string {
  return message.replace(/;\s*(a reference pays once, so )?nothing (was|were) [^;]*$/, '');
}

// ---- reconciliation -----------------------------------------------------------------------------------

/**
 * The lookups after a lost answer: LOST_ANSWER_LOOKUPS (at once, then after 1, 2, 4, 8 and 15 s), or
 * FSAPI_RECONCILE_SCHEDULE_MS (comma-separated milliseconds before each lookup, e.g. `0,200,400`), which
 * exists for tests and for networks known to be slow. Bounded: at most 20 lookups, each delay at most 5
 * minutes.
 */
export function reconcileSchedule(env: Readonly<Record<string, string | undefined>>): RetrySchedule {
  const text = env.FSAPI_RECONCILE_SCHEDULE_MS?.trim();
  if (!text) return LOST_ANSWER_LOOKUPS;
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length > 20 || parts.some((part) => !/^[0-9]{1,6}$/.test(part) || Number(part) > 300_000)) {
    throw new UsageError(
      `FSAPI_RECONCILE_SCHEDULE_MS must be up to 20 comma-separated delays in milliseconds (each at most 300000), not ${JSON.stringify(text)}`,
    );
  }
  const [first, ...waits] = parts.map(Number);
  return { firstWaitMs: first!, waitsMs: waits };
}

/** How long a schedule's waits take in all: the lookups' part of a team store's in-flight window. */
function scheduleSpanMs(schedule: RetrySchedule): number {
  return (schedule.firstWaitMs ?? 0) + schedule.waitsMs.reduce((sum, ms) => sum + ms, 0);
}

export { lookUpOnce, type SingleLookup, type TransferIntent } from './lookup.js';

/** What a journalled transfer was meant to be, for checking what the API says of it (src/transfers/lookup.ts). */
export function intentOf(t: Pick<TransferState, 'reference' | 'amountKobo' | 'accountNumber' | 'bankCode'>): TransferIntent {
  return { reference: t.reference, amountKobo: t.amountKobo, accountNumber: t.accountNumber, bankCode: t.bankCode };
}

export type LookupResult =
  | { found: TransactionRecord; detail?: undefined; absent?: undefined }
  /** `absent`: the last lookup was answered by the API's refusal (it holds no such reference), not a failure. */
  | { found: undefined; detail: string; absent: boolean };

export interface LookupOptions {
  /** Stop at the first definite answer, found or not: the lookup after a 429 (src/transfers/refusal-proof.ts). */
  untilAnswered?: boolean;
}

/**
 * Looks a reference up (GET /v1/transactions/reference/{ref}) after each delay of the schedule until it
 * is found. A refusal (HTTP 400) only means "not there (yet)"; a transport failure means "ask again"; a
 * record that does not match the intent (src/transfers/lookup.ts) is not this transfer: asked again too, and
 * named in the detail when nothing better was found. A lookup still rate limited (429) after the HTTP
 * layer's own bounded waits ends the lookups: asking again on the schedule would only wait as long again.
 */
export async function lookUpReference(
  ctx: Context,
  target: string | TransferIntent,
  schedule: RetrySchedule,
  onLookup?: (attempt: number, of: number) => void | Promise<void>,
  options: LookupOptions = {},
): Promise<LookupResult> {
  const api = await ctx.api();
  const intent = typeof target === 'string' ? { reference: target } : target;
  const { reference } = intent;
  let last = 'no lookup was made';
  let absent = false;
  // On the run's clock: the schedule's delays and the waits of lookups the API answered 429 (src/api/http.ts).
  const started = ctx.clock.now();
  let made = 0;
  const backoff = new Backoff(schedule, { clock: ctx.clock });
  await backoff.start();
  for (let attempt = 1; ; attempt += 1) {
    made = attempt;
    await onLookup?.(attempt, backoff.tries);
    absent = false;
    try {
      const transaction = await api.getTransaction(reference);
      const verdict = checkObservation(intent, transaction);
      if (verdict.matches) return { found: transaction };
      last = `not found: the lookup was answered, but ${verdict.detail}`;
    } catch (error) {
      if (error instanceof AuthError) {
        last = `the lookup was refused: ${error.message}`;
        break; // asking again with the same refusal cannot help
      }
      if (isRateLimitAnswer(error)) {
        last = `the lookup was answered HTTP 429 (rate limited)${error.apiMessage ? `: ${error.apiMessage}` : ''}, wait after wait`;
        break;
      }
      if (error instanceof TransportError) last = error.message;
      else if (isRefusal(error)) {
        last = 'not found';
        absent = true;
        if (options.untilAnswered) break;
      } else last = error instanceof Error ? error.message : String(error);
    }
    if (!(await backoff.wait())) break;
  }
  const seconds = Math.max(0, Math.round((ctx.clock.now() - started) / 1000));
  const lookups = `${made} lookup${made === 1 ? '' : 's'}`;
  return { found: undefined, absent, detail: `the lookup by reference found nothing in ${seconds} s (${lookups}; last: ${last})` };
}

// ---- status ----------------------------------------------------------------------------------------------

export interface StatusCheck {
  transaction: TransactionRecord;
  /** The journal's state of this reference before the check, when it is one of ours. */
  journalled: TransferState | undefined;
}

/** The journalled transfer with this reference in this scope, if any (references compared as typed). */
export async function journalledTransfer(_ctx: Context, journal: Journal, scope: TransferScope, reference: string): Promise<TransferState | undefined> {
  return journal.transfer({ profile: scope.profile, baseUrl: scope.baseUrl, reference });
}

/**
 * One lookup by reference. When the reference is ours, the journal learns the result: `reconciled` if
 * its outcome was unknown, else `status-checked`. A "not found" is recorded too and then thrown.
 */
export async function checkTransferStatus(ctx: Context, journal: Journal, scope: TransferScope, reference: string, reasonOf: ReasonOf): Promise<StatusCheck> {
  const journalled = await journalledTransfer(ctx, journal, scope, reference);
  const api = await ctx.api();
  const stamp = () => ({ reference, profile: scope.profile, baseUrl: scope.baseUrl, time: new Date(ctx.clock.now()).toISOString() });
  let transaction: TransactionRecord;
  try {
    transaction = await api.getTransaction(reference);
  } catch (error) {
    if (isRefusal(error)) {
      if (journalled) await recordOutcome(ctx, journal, { type: 'status-checked', ...stamp(), found: false });
      throw new ApiError(`no transaction with reference ${reference} was found (HTTP ${error.status}${error.apiMessage ? `: ${error.apiMessage}` : ''})`, {
        status: error.status,
        apiMessage: error.apiMessage,
        hint:
          journalled?.state === 'unknown'
            ? 'it has not arrived (yet); check again in a few minutes, and do not resend while it may still arrive'
            : 'check the reference; fsapi transfer log lists the ones sent from here',
        code: 'not_found',
      });
    }
    throw error;
  }
  const verdict = checkObservation(journalled ? intentOf(journalled) : { reference }, transaction);
  if (!verdict.matches) {
    // Not this transfer's record: what happened to ours is still not known. Nothing is journalled.
    const detail = `the lookup of ${reference} was answered, but ${verdict.detail}; it is not taken as this transfer's outcome`;
    if (journalled && journalled.state !== 'rejected') throw new OutcomeUnknownError(reference, detail);
    throw new ApiError(`no transaction with reference ${reference} was found: ${detail}`, {
      hint: 'check the reference; fsapi transfer log lists the ones sent from here',
      code: 'not_found',
    });
  }
  if (journalled) await recordStatusSeen(ctx, journal, scope, journalled, transaction, await reasonOf(transaction));
  return { transaction, journalled };
}

/**
 * Why a looked-up transfer failed or was reversed, in words, when the API said (undefined otherwise): the
 * record's own reason, or a verified payout notification's (src/notifications/failure-reason.ts,
 * reasonInWords). The notifications room reads the event log; it sits above this one, so it is handed in.
 */
export type ReasonOf = (transaction: TransactionRecord) => Promise<string | undefined>;

/**
 * Tells the journal what a lookup found for one of our transfers: `reconciled` when its outcome was not
 * known (found means it went through), else `status-checked` with the status. `reason`: why it failed or
 * was reversed (ReasonOf), kept for `transfer log`.
 */
export async function recordStatusSeen(
  ctx: Context,
  journal: Journal,
  scope: TransferScope,
  journalled: Pick<TransferState, 'reference' | 'state'>,
  transaction: TransactionRecord,
  reason: string | undefined,
): Promise<void> {
  const stamp = { reference: journalled.reference, profile: scope.profile, baseUrl: scope.baseUrl, time: new Date(ctx.clock.now()).toISOString() };
  // A refused transfer that a lookup finds anyway went through too: the journal must not keep saying "refused".
  if (journalled.state === 'unknown' || journalled.state === 'rejected') {
    await recordOutcome(ctx, journal, { type: 'reconciled', ...stamp, status: transaction.status, ...(reason ? { reason } : {}) });
    return;
  }
  const known = await readableTransfer(journal, stamp);
  // Only what is new: a re-run or a reconcile that finds every status (and reason) as journalled writes nothing.
  if (known?.status !== transaction.status || (reason !== undefined && known.reason !== reason)) {
    await recordOutcome(ctx, journal, { type: 'status-checked', ...stamp, found: true, status: transaction.status, ...(reason ? { reason } : {}) });
  }
}

/** The journal's state of a transfer; undefined when the journal cannot be read now (the write says why). */
async function readableTransfer(journal: Journal, scope: { profile: string; baseUrl: string; reference: string }): Promise<TransferState | undefined> {
  try {
    return await journal.transfer(scope);
  } catch {
    return undefined;
  }
}

// ---- waiting -------------------------------------------------------------------------------------------

export interface WaitResult {
  /** The last record seen, if any lookup succeeded. */
  transaction: TransactionRecord | undefined;
  /** True when it reached `successful`. */
  settled: boolean;
  /** Why the wait ended without success: still pending at the deadline, a final status, lookups failing. */
  reason: string | undefined;
}

/**
 * Polls the status until `successful`, a status that will not change by waiting (anything other than
 * pending), or the deadline (--wait-timeout, default 5 minutes). Lookup failures are tolerated until the deadline.
 */
export async function waitForSettlement(
  ctx: Context,
  reference: string,
  options: {
    timeoutMs?: number;
    intervalMs?: number;
    onStatus?: (status: string) => void;
    initial?: TransactionRecord;
    /** What the transfer was meant to be: a record that does not match it counts as a failed lookup. */
    intent?: TransferIntent;
  } = {},
): Promise<WaitResult> {
  const api = await ctx.api();
  const intent = options.intent ?? { reference };
  const timeoutMs = options.timeoutMs ?? WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? WAIT_INTERVAL_MS;
  const deadline = ctx.clock.now() + timeoutMs;
  const maxPolls = Math.ceil(timeoutMs / intervalMs) + 1;
  let transaction = options.initial;
  let lastError: string | undefined;
  for (let poll = 0; ; poll += 1) {
    if (transaction) {
      options.onStatus?.(transaction.status);
      // Compared without case; failed, reversed and any other final status end the wait (src/transfers/outcome.ts).
      const kind = statusKind(transaction.status);
      if (kind === 'successful') return { transaction, settled: true, reason: undefined };
      if (kind === 'final') return { transaction, settled: false, reason: `the transfer ended as ${transaction.status}` };
    }
    const left = deadline - ctx.clock.now();
    if (left <= 0 || poll >= maxPolls) break;
    if (transaction || poll > 0) await ctx.clock.sleep(Math.min(intervalMs, left));
    try {
      const seen = await api.getTransaction(reference);
      const verdict = checkObservation(intent, seen);
      if (verdict.matches) {
        transaction = seen;
        lastError = undefined;
      } else lastError = `the lookup was answered, but ${verdict.detail}`;
    } catch (error) {
      if (error instanceof AuthError) throw error;
      lastError = error instanceof Error ? error.message : String(error);
    }
  }
  const waited = describeWait(timeoutMs);
  if (transaction)
    return { transaction, settled: false, reason: `still ${transaction.status} after ${waited}${lastError ? ` (last lookup failed: ${lastError})` : ''}` };
  return { transaction: undefined, settled: false, reason: `no lookup succeeded in ${waited}${lastError ? ` (last: ${lastError})` : ''}` };
}
