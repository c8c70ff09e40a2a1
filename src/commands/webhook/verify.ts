// fsapi webhook verify <file|->: the listener's verification of one saved notification (a file, or stdin
// with `-`): a collection, payout or reversal. Exit 0 when verified, 1 when not (or when it could not be
// checked, or the event is of a kind fsapi cannot verify), 2 when the input is not a notification.
import { open } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { verifySpec } from './verify.spec.js';
import { ExitCode, FsapiError, UsageError } from '../../errors.js';
import { formatNaira, koboToDecimal } from '../../money/kobo.js';
import { MAX_NOTIFICATION_BYTES, parseNotification, VERIFY_ONCE_POLICY, verifyNotification, type VerificationState } from '../../notifications/verify.js';
import { printRecord, type Cell } from '../../ui/output.js';
import { verifyOutflow, type OutflowEvent } from '../../notifications/payout-event.js';
import { readAmount } from '../../notifications/verify.js';
import { stateStyle } from '../../ui/webhook-events.js';

export default run(verifySpec, async (ctx, _opts, args) => {
  const source = args[0] ?? '';
  if (source === '') throw new UsageError('give a notification file, or - to read it from stdin');
  const text = await readSource(ctx, source);
  const parsed = parseNotification(text);
  if (!parsed.ok) throw new UsageError(`${describeSource(source)}: ${parsed.detail}`, 'give the JSON body of a collection notification, as it was POSTed');
  if (parsed.kind === 'other') {
    const detail = `not verified: unknown kind ${JSON.stringify(parsed.event)}; fsapi verifies collections, payouts and reversals`;
    printRecord(
      ctx,
      [
        ['Reference', parsed.reference],
        ['State', 'unknown-kind'],
        ['Detail', detail],
      ],
      {
        reference: parsed.reference,
        event: parsed.event,
        state: 'unknown-kind',
        detail,
      },
    );
    throw new FsapiError(`${parsed.reference || 'the event'} is not verified: unknown kind ${JSON.stringify(parsed.event)}`, {
      exitCode: ExitCode.failed,
      hint: 'look the reference up with fsapi tx get <reference> before acting on it',
    });
  }
  if (parsed.kind === 'payout' || parsed.kind === 'reversal') return verifyOutflowEvent(ctx, parsed);
  const { notification, amount } = parsed;

  const api = await ctx.api();
  const verification = await verifyNotification({ api, clock: ctx.clock }, notification, VERIFY_ONCE_POLICY);

  const stateCell: Cell = { text: verification.state, plain: verification.state, style: (t, c) => stateStyle(t, c) };
  printRecord(
    ctx,
    [
      ['Reference', notification.reference],
      ['Account', notification.virtualAccount],
      ['Amount', { text: formatNaira(amount), plain: koboToDecimal(amount) }],
      [
        'Payer',
        [notification.sourceAccountName, notification.sourceAccountNumber, notification.sourceBankName].filter((p) => p && p.trim() !== '').join(' · '),
      ],
      ['State', stateCell],
      ['Field', verification.field ?? ''],
      ['Detail', verification.detail],
    ],
    {
      reference: notification.reference,
      virtualAccount: notification.virtualAccount,
      amount: koboToDecimal(amount),
      payer: notification.sourceAccountName ?? '',
      state: verification.state,
      field: verification.field ?? null,
      detail: verification.detail,
      transaction: verification.transaction ?? null,
      account: verification.account ?? null,
    },
  );
  if (verification.state !== 'verified') {
    throw new FsapiError(`${notification.reference} is not verified: ${verification.state}`, {
      exitCode: ExitCode.failed,
      hint: HINTS[verification.state],
      code: 'not_verified',
    });
  }
});

/** A payout or reversal, checked against the transfer it names (and for a reversal, its credit). */
async function verifyOutflowEvent(ctx: Context, event: OutflowEvent): Promise<void> {
  const api = await ctx.api();
  const verification = await verifyOutflow({ api, clock: ctx.clock }, event, VERIFY_ONCE_POLICY);
  const n = event.notification;
  const amount = verification.transaction ? readAmount(verification.transaction.amount) : n.amount;
  const status = event.kind === 'payout' ? event.notification.status : null;
  const stateCell: Cell = { text: verification.state, plain: verification.state, style: (t, c) => stateStyle(t, c) };
  printRecord(
    ctx,
    [
      ['Reference', n.reference],
      ['Kind', event.kind],
      ...(event.kind === 'payout' ? ([['Status', event.notification.status]] as const) : ([['Reverses', event.notification.originalReference]] as const)),
      ['Amount', amount === undefined ? '' : { text: formatNaira(amount), plain: koboToDecimal(amount) }],
      ['State', stateCell],
      ['Field', verification.field ?? ''],
      ['Detail', verification.detail],
    ],
    {
      reference: n.reference,
      kind: event.kind,
      event: n.event,
      status,
      amount: amount === undefined ? null : koboToDecimal(amount),
      state: verification.state,
      field: verification.field ?? null,
      detail: verification.detail,
      transaction: verification.transaction ?? null,
    },
  );
  if (verification.state !== 'verified') {
    throw new FsapiError(`${n.reference} is not verified: ${verification.state}`, { exitCode: ExitCode.failed, hint: HINTS[verification.state] });
  }
}

const HINTS: Record<Exclude<VerificationState, 'verified'>, string> = {
  mismatch: 'the API holds different facts for this reference: do not act on this notification',
  'not-found': 'the API knows no such transaction: do not act on this notification',
  pending: 'the transaction is not successful yet; verify again in a minute',
  stale: 'the transaction is older than the age limit',
  unverifiable: 'the API could not be asked; check fsapi auth status and try again',
};

/** The whole file or stdin, refused (exit 2) past the listener's body limit. */
async function readSource(ctx: Context, source: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_NOTIFICATION_BYTES)
      throw new UsageError(`${describeSource(source)} is over ${MAX_NOTIFICATION_BYTES} bytes; a notification is much smaller`);
    chunks.push(bytes);
  };
  if (source === '-') {
    for await (const chunk of ctx.io.stdin) take(chunk as Buffer | string);
  } else {
    let file;
    try {
      file = await open(source, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(code === 'ENOENT' ? `no such file: ${source}` : `cannot read ${source}: ${(error as Error).message}`);
    }
    try {
      for await (const chunk of file.createReadStream()) take(chunk as Buffer);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    } finally {
      await file.close().catch(() => undefined);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new UsageError(`${describeSource(source)} is not UTF-8 text`);
  }
}

function describeSource(source: string): string {
  return source === '-' ? 'stdin' : source;
}
