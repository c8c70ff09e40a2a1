// What a tool's result becomes before the agent reads it (src/agents/server.ts). The command's `--json` is
// the API's data as it came; an agent is not a script, so its copy differs in five ways, each for a reason:
//   - the bank's text defanged (agentText, src/common/sanitize.ts): every string, key and note, so a payee
//     name or narration cannot move a terminal, hide text, or start a line that reads as an instruction;
//   - no identity numbers: a BVN or NIN (at any depth, whatever the case or spelling of its key) is dropped;
//     the agent never needs one to pay, and a model's context is copied to places a BVN must not go;
//   - money as naira text: an amount the API sent as a JSON number is given as two-decimal text, as fsapi's
//     own records always are (a model reading 327853.75 as a float is one rounding away from a wrong sum);
//   - the environment named: `environment` is simulator, sandbox or production on every result;
//   - bounded: a list is given a page at a time (`nextCursor` goes on), and no result is over 256 KB; one
//     that would be, and is no list, is refused in words that say what to ask for instead.
// The CLI's `--json` keeps the API's data exactly: none of this happens there.
import { createHash } from 'node:crypto';
import { agentText } from '../common/sanitize.js';
import { koboToDecimal, parseApiAmount } from '../money/kobo.js';
import type { Environment } from '../auth/types.js';
import { ExitCode, FsapiError, UsageError } from '../errors.js';

/** What a result says it came from: the profile's environment, the local one called what it is. */
export type AgentEnvironment = 'simulator' | 'sandbox' | 'production';

export function agentEnvironment(env: Environment): AgentEnvironment {
  return env === 'local' ? 'simulator' : env;
}

/** The most a tool's whole result may be, in bytes of its JSON (structured content and text together). */
export const MAX_RESULT_BYTES = 256 * 1024;
/** The most items a page of a list holds (fewer when MAX_RESULT_BYTES would be passed). */
export const PAGE_ITEMS = 100;

/**
 * Keys of the API's money fields (docs/api-spec.md sections 2 and 6), any case. fsapi's own records write
 * money as text already (docs/scripting.md).
 */
const MONEY_KEYS = new Set(['amount', 'netamount', 'charge', 'stampduty', 'availablebalance', 'ledgerbalance', 'transactionfee', 'amountreceived', 'fee']);

export const isMoneyKey = (key: string) => MONEY_KEYS.has(key.toLowerCase());

/**
 * An identity number's key: BVN (bvn, bankVerificationNumber, customer_bvn, ...) or NIN (nin, ninNumber,
 * nationalIdentityNumber, ...), in any case and spelling.
 */
export function isIdentityKey(key: string): boolean {
  const plain = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (plain.includes('bvn') || plain.includes('bankverificationnumber') || plain.includes('nationalidentit')) return true;
  // NIN as a word of the key: `nin`, `ninNumber`, `customerNin`, `customer_nin`; not `opening`, `running`.
  return /(^|[^a-zA-Z]|[a-z](?=N))(nin|NIN|Nin)([^a-z]|$)/.test(key);
}

/** Money as text: a JSON number under a money key becomes two-decimal naira text, exactly (never a float sum). */
function moneyText(value: number): string {
  try {
    return koboToDecimal(parseApiAmount(value));
  } catch {
    return String(value);
  }
}

/** The value as an agent may read it: strings and keys defanged, identity numbers dropped, money as text. */
export function forAgent(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return agentText(value);
  if (typeof value === 'number') return key !== undefined && isMoneyKey(key) ? moneyText(value) : value;
  if (Array.isArray(value)) return value.map((item) => forAgent(item, key));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value)) {
      if (isIdentityKey(name)) continue;
      out[agentText(name)] = forAgent(inner, name);
    }
    return out;
  }
  return value;
}

/** A part of a result's content besides its texts: a document (the receipt PDF). */
export interface EmbeddedResource {
  type: 'resource';
  resource: { uri: string; mimeType: string; blob: string };
}

export interface AgentResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string } | EmbeddedResource>;
  structuredContent: Record<string, unknown>;
  isError?: true;
}

/**
 * The result: the short text (its lines defanged), then the structured content again as JSON text (the
 * protocol asks for it, for clients that show the model text only), then any document.
 */
export function agentResult(
  lines: readonly string[],
  structured: Record<string, unknown>,
  isError: boolean,
  attached: readonly EmbeddedResource[] = [],
): AgentResult {
  return {
    content: [{ type: 'text', text: lines.map(agentText).join('\n') }, { type: 'text', text: JSON.stringify(structured) }, ...attached],
    structuredContent: structured,
    ...(isError ? { isError: true as const } : {}),
  };
}

export const resultBytes = (result: AgentResult) => Buffer.byteLength(JSON.stringify(result), 'utf8');

/** A result over MAX_RESULT_BYTES that cannot be cut into a page: refused, never cut silently. */
export class ResultTooLargeError extends FsapiError {
  constructor(bytes: number, what: string) {
    super(`the result is ${Math.ceil(bytes / 1024)} KB, more than the ${MAX_RESULT_BYTES / 1024} KB a tool may answer; nothing of it is given`, {
      exitCode: ExitCode.failed,
      hint: what,
      code: 'result_too_large',
    });
  }
}

// ---- pages of a list ------------------------------------------------------------------------------------

/** Where a page starts, bound to the call it came from: a cursor of one call is no cursor of another. */
interface Cursor {
  offset: number;
  call: string;
}

/** The call a cursor belongs to: the tool and its other arguments. */
export function callKey(tool: string, input: Readonly<Record<string, unknown>>): string {
  const rest = Object.keys(input)
    .filter((key) => key !== 'cursor')
    .sort()
    .map((key) => [key, input[key]]);
  return createHash('sha256')
    .update(JSON.stringify([tool, rest]))
    .digest('base64url')
    .slice(0, 12);
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.offset}.${cursor.call}`, 'utf8').toString('base64url');
}

/** The offset a `cursor` argument stands for; exit 2 when it is no cursor, or one of another call. */
export function readCursor(given: unknown, call: string): number {
  if (given === undefined || given === null) return 0;
  const match = typeof given === 'string' ? /^([0-9]{1,9})\.([A-Za-z0-9_-]{12})$/.exec(Buffer.from(given, 'base64url').toString('utf8')) : null;
  if (!match)
    throw new UsageError(
      `cursor ${JSON.stringify(given)} is not a cursor this server gave`,
      'give the nextCursor of the previous result, or leave cursor out for the first page',
    );
  if (match[2] !== call)
    throw new UsageError(
      'cursor belongs to a call with other arguments',
      'call again with the same arguments as the call that gave this cursor, or leave cursor out',
    );
  return Number(match[1]);
}

/**
 * The page of `items` from `offset`: at most PAGE_ITEMS, and fewer when the result would pass
 * MAX_RESULT_BYTES (`build` makes the result of a page, so it is measured whole). One item too large for
 * a result on its own is refused.
 */
export function pageOf(
  items: readonly unknown[],
  offset: number,
  call: string,
  build: (page: unknown[], nextCursor: string | null) => AgentResult,
): AgentResult {
  const start = Math.min(offset, items.length);
  const resultWith = (count: number) => {
    const next = start + count < items.length ? encodeCursor({ offset: start + count, call }) : null;
    return build(items.slice(start, start + count), next);
  };
  let count = Math.min(PAGE_ITEMS, items.length - start);
  let result = resultWith(count);
  if (resultBytes(result) <= MAX_RESULT_BYTES) return result;
  // The largest page that fits, by halving then stepping: pages are at most PAGE_ITEMS long.
  let low = 0;
  let high = count;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (resultBytes(resultWith(middle)) <= MAX_RESULT_BYTES) low = middle;
    else high = middle;
  }
  count = low;
  if (count === 0) throw new ResultTooLargeError(resultBytes(resultWith(1)), 'one item of this list is larger than a result may be');
  result = resultWith(count);
  return result;
}
