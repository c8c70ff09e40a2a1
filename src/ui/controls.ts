// What the payee, policy and approval commands show: lists and records on stdout (through src/ui/output.ts,
// so the output rules hold), and the review a person reads on stderr before typing the secret. Times are
// on the business's clock `timeZone` (src/controls/business-clock.ts), the zone named in a column's header
// or beside a record's time.
import type { Context } from '../context.js';
import type { ApprovalRequest, HeldTransfer, Payee, Policy } from '../store/controls.js';
import { formatNaira, koboToDecimal, sumKobo, type Kobo } from '../money/kobo.js';
import { colors, isoTimeCell, koboCell, printList, printRecord, statusCell, timeColumn, type Cell, type Column } from './output.js';
import { terminalText } from '../common/sanitize.js';
import { DEFAULT_POLICY_TIME_ZONE } from '../common/time-zone.js';
import { viaWords } from '../transfers/asker.js';
import { mayNotApprove } from '../controls/policy.js';
import type { Actor } from '../common/actor.js';

export const payeeColumns = (timeZone: string, nowMs: number): Column<Payee>[] => [
  { header: 'ALIAS', cell: (p) => p.alias },
  { header: 'ACCOUNT', cell: (p) => p.accountNumber, identifier: true },
  { header: 'BANK', cell: (p) => p.bankName, flex: true, minWidth: 10, priority: 1 },
  { header: 'BANK CODE', cell: (p) => p.bankCode, priority: 2, identifier: true },
  { header: 'VERIFIED NAME', cell: (p) => p.accountName, flex: true, minWidth: 12 },
  timeColumn('ADDED', timeZone, nowMs, (p) => isoTimeCell(p.addedAt, timeZone), { priority: 3 }),
];

export function printPayee(ctx: Context, payee: Payee, timeZone: string): void {
  printRecord(
    ctx,
    [
      ['Alias', payee.alias],
      ['Account', payee.accountNumber],
      ['Bank', `${payee.bankName} (${payee.bankCode})`],
      ['Verified name', payee.accountName],
      ['Added', isoTimeCell(payee.addedAt, timeZone, { zone: true })],
      ['Added by', payee.addedBy],
    ],
    payee,
  );
}

const limitCell = (kobo: Kobo | undefined): Cell => (kobo === undefined ? { text: 'none', plain: '' } : koboCell(kobo));

/** The policy's lines, as a person reads them (and as TSV writes them: amounts plain, no limit empty). */
export function policyLines(policy: Policy | undefined): Array<[string, Cell]> {
  return [
    ['Max per transfer', limitCell(policy?.maxPerTransferKobo)],
    ['Max per day', limitCell(policy?.maxPerDayKobo)],
    ['Approval above', limitCell(policy?.approvalAboveKobo)],
    ['Payees only', yesNo(policy?.payeesOnly)],
    // Scripts and agents name the holder of an account that is not a saved payee (src/controls/policy.ts).
    ['Require name', yesNo(policy?.requireName)],
    // A held request is approved only by an actor other than who asked (src/store/controls.ts decide).
    ['Four eyes', yesNo(policy?.fourEyes)],
    // The zone whose calendar day "today" is for the daily maximum (src/controls/policy.ts), and
    // The business's clock of every time shown, too; without a policy, that clock is Africa/Lagos.
    [
      "Day's time zone",
      policy ? { text: policy.timeZone, plain: policy.timeZone } : { text: `${DEFAULT_POLICY_TIME_ZONE} (the default: no policy)`, plain: '' },
    ],
  ];
}

function yesNo(value: boolean | undefined): Cell {
  return { text: value ? 'yes' : 'no', plain: value ? 'yes' : 'no' };
}

/** Who this run acts as, as the store tells it: `ada (database login)`, `alice (OS user)`. */
export function actorWords(actor: Actor): string {
  return `${actor.name} (${actor.kind})`;
}

/** The policy as --json gives it: limits as the API writes money (two-decimal naira text), null for none. */
export function policyJson(policy: Policy | undefined): Record<string, unknown> {
  return {
    maxPerTransfer: nairaOrNull(policy?.maxPerTransferKobo),
    maxPerDay: nairaOrNull(policy?.maxPerDayKobo),
    approvalAbove: nairaOrNull(policy?.approvalAboveKobo),
    payeesOnly: policy?.payeesOnly ?? false,
    requireName: policy?.requireName ?? false,
    fourEyes: policy?.fourEyes ?? false,
    timeZone: policy?.timeZone ?? null,
    updatedAt: policy?.updatedAt ?? null,
    updatedBy: policy?.updatedBy ?? null,
    // Who the store says set it: a team store's login (src/common/actor.ts).
    actor: policy?.actor ?? null,
  };
}

/** Before and after, on stderr, for `policy set`: the person sees what typing the secret changes. */
export function writePolicyChange(ctx: Context, profile: string, before: Policy | undefined, after: Policy | undefined): void {
  const c = colors(ctx, 'stderr');
  const old = policyLines(before);
  const next = policyLines(after);
  ctx.io.note(c.bold(`Payment policy of profile "${profile}"`));
  const width = Math.max(...old.map(([label]) => label.length));
  old.forEach(([label, value], i) => {
    const after = next[i]![1].text;
    const changed = value.text !== after;
    ctx.io.note(`  ${c.dim(label.padEnd(width))}  ${changed ? `${value.text} -> ${c.bold(after)}` : `${value.text} (unchanged)`}`);
  });
}

const total = (transfers: readonly HeldTransfer[]) => sumKobo(transfers.map((t) => t.amountKobo));

export const requestColumns = (timeZone: string, nowMs: number): Column<ApprovalRequest>[] => [
  { header: 'ID', cell: (r) => r.id },
  { header: 'STATUS', cell: (r) => statusCell(r.status) },
  timeColumn('CREATED', timeZone, nowMs, (r) => isoTimeCell(r.createdAt, timeZone), { priority: 2 }),
  { header: 'TRANSFERS', cell: (r) => r.transfers.length, align: 'right', priority: 4 },
  { header: 'TOTAL', cell: (r) => koboCell(total(r.transfers)), align: 'right' },
  {
    header: 'TO',
    cell: (r) => (r.transfers.length === 1 ? r.transfers[0]!.accountName : `${r.transfers.length} accounts`),
    flex: true,
    minWidth: 16,
    priority: 1,
  },
  // Who asked, as the store tells (the actor), else the operator's name of a request held before actors were.
  { header: 'ASKED BY', cell: (r) => r.actor ?? r.createdBy, flex: true, wrap: true, minWidth: 8, priority: 2 },
  { header: 'ORIGIN', cell: (r) => r.origin, flex: true, priority: 3 },
];

export const heldTransferColumns: Column<HeldTransfer>[] = [
  { header: 'REFERENCE', cell: (t) => t.reference },
  { header: 'ACCOUNT', cell: (t) => t.accountNumber },
  { header: 'BANK', cell: (t) => t.bankName, flex: true, minWidth: 8, priority: 2 },
  { header: 'NAME', cell: (t) => t.accountName, flex: true, minWidth: 22 },
  { header: 'AMOUNT', cell: (t) => koboCell(t.amountKobo), align: 'right' },
  { header: 'WHY HELD', cell: (t) => t.reasons.join('; '), flex: true, minWidth: 10, priority: 1 },
];

/**
 * `approvals show`: the request, then its transfers, each with what became of it (`outcomes`, by reference:
 * the journal's outcome once sent, else `held` or `not-sent`), in the same words as `transfer log` and a
 * batch's report. OUTCOME has no priority: it is never dropped for width.
 */
export function printRequest(
  ctx: Context,
  request: ApprovalRequest,
  json: unknown,
  outcomes: ReadonlyMap<string, string>,
  policy: Pick<Policy, 'fourEyes'> | undefined,
  timeZone: string,
): void {
  const columns: Column<HeldTransfer>[] = [...heldTransferColumns, { header: 'OUTCOME', cell: (t) => statusCell(outcomes.get(t.reference)) }];
  if (ctx.globals.json) return printList(ctx, columns, request.transfers, json);
  const last = request.decisions.at(-1);
  const barred = mayNotApprove(request, policy);
  printRecord(
    ctx,
    [
      ['Request', request.id],
      ['Status', statusCell(request.status)],
      ['Created', isoTimeCell(request.createdAt, timeZone, { zone: true })],
      ['Created by', request.createdBy],
      // The actor (the store's login, or the OS user) and the labels that came with it: who asked.
      ['Asked by', request.actor ?? { text: 'not recorded', plain: '' }],
      ['Asked via', viaWords(request.via) || { text: 'directly (no MCP client, no sudo)', plain: '' }],
      ['Four eyes', policy?.fourEyes ? (barred ? `on: ${barred} may not approve` : 'on') : 'off'],
      ['Origin', request.origin],
      ['Transfers', request.transfers.length],
      ['Total', koboCell(total(request.transfers))],
      ['Decided', last ? decidedCell(last, timeZone) : ''],
    ],
    json,
  );
  ctx.io.out('\n');
  printList(ctx, columns, request.transfers);
}

/** The last decision: its time as every other time on a terminal, ISO when piped (as isoTimeCell does). */
function decidedCell(decision: ApprovalRequest['decisions'][number], timeZone: string): Cell {
  const reason = decision.reason ? ` (${decision.reason})` : '';
  const time = isoTimeCell(decision.at, timeZone, { zone: true });
  const who = decidedBy(decision);
  return { text: `${decision.decision} by ${who} at ${time.text}${reason}`, plain: `${decision.decision} by ${who} at ${time.plain}${reason}` };
}

/** Who decided, in words: the operator's name, with the actor when it says more (`ada (finance) acting as ada`), and the labels. */
export function decidedBy(decision: Pick<ApprovalRequest['decisions'][number], 'by' | 'actor' | 'via'>): string {
  // A team store's `by` names its login already (src/common/actor.ts shownActor); a data dir's actor is
  // user@host, the same as the operator's name unless FSAPI_OPERATOR or sudo made them differ.
  const actor = decision.actor && !decision.by.includes(decision.actor) && !decision.by.startsWith(`${decision.actor}@`) ? ` acting as ${decision.actor}` : '';
  const via = viaWords(decision.via);
  return `${decision.by}${actor}${via ? `, ${via}` : ''}`;
}

/** The review before the secret is asked for: every transfer that typing it sends, and the total. */
export function writeApprovalReview(ctx: Context, request: ApprovalRequest, env: string, timeZone: string): void {
  const c = colors(ctx, 'stderr');
  if (env === 'production') ctx.io.note(c.alarm(' PRODUCTION ') + c.red(' real money moves from this account'));
  const held = isoTimeCell(request.createdAt, timeZone, { zone: true }).text;
  ctx.io.note(c.bold(`Request ${request.id}`) + c.dim(` held ${held} by ${request.createdBy} (${request.origin})`));
  for (const t of request.transfers) {
    ctx.io.note(`  ${c.bold(formatNaira(t.amountKobo))} to ${c.bold(terminalText(t.accountName))}`);
    ctx.io.note(`    ${c.dim('account  ')} ${t.accountNumber} at ${terminalText(t.bankName)} (${t.bankCode})`);
    ctx.io.note(`    ${c.dim('narration')} ${terminalText(t.narration)}`);
    ctx.io.note(`    ${c.dim('reference')} ${t.reference}`);
    ctx.io.note(`    ${c.dim('held     ')} ${t.reasons.join('; ')}`);
  }
  ctx.io.note(
    `  ${c.bold(`Total ${formatNaira(total(request.transfers))}`)} in ${request.transfers.length} transfer${request.transfers.length === 1 ? '' : 's'}; names verified again just now`,
  );
}

/** An amount of fsapi's own records in --json: "100000.00", or null where there is none. */
export function nairaOrNull(kobo: Kobo | undefined): string | null {
  return kobo === undefined ? null : koboToDecimal(kobo);
}
