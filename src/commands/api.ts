// fsapi api <METHOD> <path> [--data JSON|@file|-] [--query key=value ...] [--include]: any endpoint, with
// the profile's authentication and token renewal, for what the commands do not cover (bill payment, new
// endpoints). Everything is checked before the client is even created, so bad input sends nothing (not
// even a token request). The answer's body goes to stdout whatever the status, so scripts can read the
// API's message; the exit code says whether it was a success.
//
// POST /v1/transfer through here skips everything `transfer send` does to pay the right person exactly
// once (name check, confirmation, reference, journal), so it is refused unless --allow-transfer is given,
// and always while the profile has a payment policy. Both are decided on the URL the transport will send,
// not on the path as typed (src/api/target.ts): `/v1/./transfer` is the transfer endpoint too, and a path
// that leaves the base address is refused. With --allow-transfer the request is sent once (never repeated
// after a 401/403 renewal), and what its answer proves is decided as for every transfer
// (src/transfers/refusal-proof.ts): an answer that does not prove a refusal is settled by looking the body's
// reference up; found is exit 0 with the record, else exit 5. Nothing here knows whether the reference
// was sent before, so no 400 counts as proof; nor does a 429, which a gateway may answer after the API
// took the transfer.
import { readFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import { run } from './run.js';
import { apiSpec } from './top/api.spec.js';
import type { OptionsOf } from './spec.js';
import { readPolicy } from '../transfers/limits.js';
import { lookUpReference, reconcileSchedule, transferScope, type TransferIntent } from '../transfers/transfer.js';
import { reachesTransfer, resolveApiTarget } from '../api/target.js';
import { rawAnswerProvesNothingMoved } from '../transfers/refusal-proof.js';
import { parseApiAmount, type Kobo } from '../money/kobo.js';
import { shownText } from '../common/shown.js';
import { ApiError, ExitCode, FsapiError, TransportError, UsageError } from '../errors.js';
import { colors } from '../ui/output.js';
import { terminalText } from '../common/sanitize.js';
import { isRecord } from '../common/is-record.js';
import type { RawResponse } from '../api/types.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** A body read with --data - or @file is capped: this is a command line, not an upload tool. */
const MAX_BODY_BYTES = 1024 * 1024;

interface ApiRequest {
  method: Method;
  path: string;
  searchParams: URLSearchParams | undefined;
  json: unknown;
  hasBody: boolean;
}

export default run(apiSpec, async (ctx, opts, args) => {
  const request = await parseRequest(ctx, opts, args);
  const target = resolveApiTarget((await ctx.profile()).baseUrl, request.path, request.searchParams);
  // Any method but GET: a server may route PUT or PATCH (or an override of the method) to the same handler.
  const isTransfer = request.method !== 'GET' && reachesTransfer(target);
  const spelled =
    isTransfer && (request.method !== 'POST' || request.path !== '/v1/transfer')
      ? ` (${request.method} ${request.path} goes to ${target.url.pathname}: the transfer endpoint)`
      : '';
  if (isTransfer && !opts.allowTransfer) {
    throw new UsageError(
      `fsapi api does not send POST /v1/transfer${spelled}: it would skip the name check, the confirmation and the journal that stop double payments`,
      'use fsapi transfer send; to send it raw anyway, add --allow-transfer',
    );
  }
  if (isTransfer && (await readPolicy(ctx, await transferScope(ctx)))) {
    // The payment policy binds fsapi: a raw transfer would pass round its limits and approvals.
    throw new UsageError(
      `this profile has a payment policy: fsapi api does not send POST /v1/transfer${spelled} round it; nothing was sent`,
      'use fsapi transfer send (within the policy, or held for approval); see docs/policy.md',
    );
  }
  if (isTransfer) {
    ctx.io.note(
      `${colors(ctx, 'stderr').yellow('warning:')} raw transfer: not name-checked, not journalled, never retried. If the outcome is unclear, look the reference up (fsapi transfer status <reference>) before sending again.`,
    );
  }

  const client = await ctx.api();
  let response: RawResponse;
  try {
    response = await client.raw(request.method, request.path, {
      json: request.hasBody ? request.json : undefined,
      searchParams: request.searchParams,
    });
  } catch (error) {
    if (isTransfer && error instanceof TransportError) return settleByLookup(ctx, request, `no answer to the transfer (${error.message})`);
    throw error;
  }

  if (opts.include) writeStatusAndHeaders(ctx, response);
  const what = `${request.method} ${request.path}`;
  const refused = isRecord(response.body) && response.body.success === false;
  const succeeded = response.status >= 200 && response.status < 300 && !refused;
  if (isTransfer && !succeeded && !rawAnswerProvesNothingMoved(response, { firstSend: false })) {
    const apiSaid = isRecord(response.body) && typeof response.body.message === 'string' ? shownText(response.body.message) : '';
    const said = apiSaid ? `: ${apiSaid}` : '';
    return settleByLookup(ctx, request, `the transfer was answered HTTP ${response.status}${said}, which does not prove it was refused`);
  }
  printBody(ctx, response.body);
  if (succeeded) return;
  const message = isRecord(response.body) && typeof response.body.message === 'string' ? response.body.message.trim() : '';
  const failure =
    response.status >= 200 && response.status < 300
      ? `the API refused ${what} (HTTP ${response.status}, success: false)`
      : `HTTP ${response.status} from ${what}`;
  throw new ApiError(`${failure}${message ? `: ${message}` : ''}`, { status: response.status, apiMessage: message || undefined });
});

// ---- input -------------------------------------------------------------------------------------------

async function parseRequest(ctx: Context, opts: OptionsOf<typeof apiSpec>, args: string[]): Promise<ApiRequest> {
  const [methodText = '', pathText = ''] = args;
  const method = methodText.trim().toUpperCase();
  if (!isMethod(method)) {
    throw new UsageError(`unknown HTTP method ${JSON.stringify(methodText)}`, `use one of ${METHODS.join(', ')}`);
  }
  const { path, searchParams } = parsePath(pathText, queryOption(opts.query));
  const data = opts.data;
  if (data === undefined) return { method, path, searchParams, json: undefined, hasBody: false };
  if (method === 'GET') throw new UsageError('a GET request has no body', 'give its parameters with --query key=value');
  return { method, path, searchParams, json: await readData(ctx, String(data)), hasBody: true };
}

function isMethod(text: string): text is Method {
  return (METHODS as readonly string[]).includes(text);
}

/** The path below the base address; a query string written into it is merged with --query. */
function parsePath(text: string, query: Array<[string, string]>): { path: string; searchParams: URLSearchParams | undefined } {
  if (!text.startsWith('/')) {
    throw new UsageError(
      `the path must start with / (got ${JSON.stringify(text)})`,
      'paths are below the base address, for example: fsapi api GET /v1/account',
    );
  }
  if (/[\s\u0000-\u001f\u007f#]/.test(text))
    throw new UsageError(`the path ${JSON.stringify(text)} contains spaces, control characters or #`, 'encode them, e.g. %20 for a space');
  const at = text.indexOf('?');
  const path = at === -1 ? text : text.slice(0, at);
  const params = new URLSearchParams(at === -1 ? '' : text.slice(at + 1));
  for (const [key, value] of query) params.append(key, value);
  return { path, searchParams: params.size > 0 ? params : undefined };
}

function queryOption(raw: unknown): Array<[string, string]> {
  if (raw === undefined) return [];
  const items = Array.isArray(raw) ? raw.map(String) : [String(raw)];
  return items.map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`--query ${JSON.stringify(item)} is not key=value`, 'for example: --query page=2 --query limit=50');
    return [item.slice(0, at), item.slice(at + 1)];
  });
}

/** --data: inline JSON, @file, or - for stdin. Invalid JSON is exit 2 before anything is sent. */
async function readData(ctx: Context, data: string): Promise<unknown> {
  let text: string;
  let source: string;
  if (data === '-') {
    source = 'stdin';
    text = await readStdin(ctx);
  } else if (data.startsWith('@')) {
    const file = data.slice(1);
    source = file;
    if (file === '') throw new UsageError('--data @ needs a file name, e.g. --data @body.json');
    try {
      const bytes = await readFile(file);
      if (bytes.length > MAX_BODY_BYTES) throw new UsageError(`${file} is larger than 1 MiB`);
      text = bytes.toString('utf8');
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot read --data file ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}`);
    }
  } else {
    source = '--data';
    text = data;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${source === '--data' ? '--data' : `the body in ${source}`} is not valid JSON: ${(error as Error).message}`,
      `for example: --data '{"bankCode":"000013","accountNumber":"0123456789"}'`,
    );
  }
  checkNumbersSurvive(value);
  return value;
}

/**
 * The body is sent re-serialised; a number JSON.parse cannot hold exactly (1e400, 12345678901234567890)
 * would silently change on the way, which for an amount or an account number is the worst outcome.
 */
function checkNumbersSurvive(value: unknown): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
      throw new UsageError(`the number ${String(value)} in --data cannot be sent exactly`, 'write it as a string ("...") if the API accepts one');
    }
    return;
  }
  if (Array.isArray(value)) value.forEach(checkNumbersSurvive);
  else if (isRecord(value)) Object.values(value).forEach(checkNumbersSurvive);
}

async function readStdin(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new UsageError('the body on stdin is larger than 1 MiB');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A raw transfer whose answer proves nothing: its reference looked up on the reconciliation schedule,
 * checked against the body that was sent (reference, amount, account, bank). Found: the record on stdout,
 * exit 0. Otherwise exit 5: it may have gone through.
 */
async function settleByLookup(ctx: Context, request: ApiRequest, why: string): Promise<void> {
  const intent = intentOfBody(request.json);
  if (!intent) throw outcomeUnknown(request, `${why}; the body names no reference, amount and account to look up`);
  ctx.io.note(`${why}; not sending it again: looking ${intent.reference} up`);
  const lookup = await lookUpReference(ctx, intent, reconcileSchedule(ctx.env));
  if (!lookup.found) throw outcomeUnknown(request, `${why}; ${lookup.detail}`);
  ctx.io.note(
    `the lookup by reference found ${intent.reference} (${shownText(lookup.found.status)}): it went through; stdout has the looked-up transaction record`,
  );
  printBody(ctx, lookup.found);
}

/** What the raw body meant to pay, when it says so fully: a lookup is proof only when all of it matches. */
function intentOfBody(json: unknown): TransferIntent | undefined {
  if (!isRecord(json) || typeof json.reference !== 'string' || json.reference.trim() === '') return undefined;
  const account = json.beneficiaryAccountNumber;
  const amount = json.amount;
  if ((typeof account !== 'string' && typeof account !== 'number') || (typeof amount !== 'string' && typeof amount !== 'number')) return undefined;
  let amountKobo: Kobo;
  try {
    amountKobo = parseApiAmount(amount);
  } catch {
    return undefined;
  }
  const bank = json.beneficiaryBankCode;
  return {
    reference: json.reference,
    amountKobo,
    accountNumber: String(account),
    bankCode: typeof bank === 'string' || typeof bank === 'number' ? String(bank) : undefined,
  };
}

function outcomeUnknown(request: ApiRequest, detail: string): FsapiError {
  const reference = isRecord(request.json) && typeof request.json.reference === 'string' ? request.json.reference : undefined;
  return new FsapiError(`the transfer was sent and its outcome is unknown: ${detail}`, {
    exitCode: ExitCode.outcomeUnknown,
    hint: reference
      ? `do not resend; run fsapi transfer status ${reference}`
      : 'do not resend; find it in fsapi tx list (no reference was given, so the API made one)',
  });
}

// ---- output ------------------------------------------------------------------------------------------

function writeStatusAndHeaders(ctx: Context, response: RawResponse): void {
  const lines = [`HTTP ${response.status}`];
  for (const [name, value] of Object.entries(response.headers).sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`${name}: ${value}`);
  ctx.io.note(`${lines.join('\n')}\n`);
}

function printBody(ctx: Context, body: unknown): void {
  if (body === '' || body === undefined) return;
  if (typeof body === 'string') {
    // A text answer goes out as it came to a pipe or file; on a terminal it is shown, never obeyed:
    // line breaks kept, every other control character as U+FFFD (src/common/sanitize.ts).
    const shown = ctx.io.stdoutIsTTY ? body.split('\n').map(terminalText).join('\n') : body;
    ctx.io.out(shown.endsWith('\n') ? shown : `${shown}\n`);
    return;
  }
  const text = JSON.stringify(body, null, 2);
  ctx.io.out(`${ctx.io.colorStdout ? colorJson(ctx, text) : text}\n`);
}

/** Keys, strings, numbers and literals in distinct colours, for a person reading the answer. */
function colorJson(ctx: Context, json: string): string {
  const c = colors(ctx);
  return json.replace(
    /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g,
    (match, string?: string, colon?: string, literal?: string) => {
      if (string !== undefined) return colon ? `${c.cyan(string)}${colon}` : c.green(string);
      if (literal !== undefined) return c.magenta(literal);
      return c.yellow(match);
    },
  );
}
