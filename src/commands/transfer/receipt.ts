import type { Context } from '../../context.js';
import { run } from '../run.js';
import { receiptSpec } from './receipt.spec.js';
import { ExitCode, FsapiError, NotFoundError, UsageError } from '../../errors.js';
import { checkTransferStatus, openJournal, sourceAccount, transferScope } from '../../transfers/transfer.js';
import { parseReferenceArgument } from '../../books/transactions.js';
import { makeReceipt, notSuccessful, receiptFields, receiptIntentMismatches, receiptJson, type Receipt } from '../../books/receipt.js';
import { requestHolding } from '../../controls/approvals.js';
import { parsePdfPath } from '../../documents/output-file.js';
import { koboCell, printRecord } from '../../ui/output.js';
import type { Kobo } from '../../money/kobo.js';
import { businessTimeZone } from '../../transfers/limits.js';
import { documentEnvironment, originMark } from '../../common/document-origin.js';
import { reasonInWords } from '../../notifications/failure-reason.js';

/** No receipt of success: the transfer is not successful, or not what was sent. Exit 1. */
class NoReceiptError extends FsapiError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.failed, hint, code: 'no_receipt' });
  }
}

export default run(receiptSpec, async (ctx, opts, args) => {
  const reference = parseReferenceArgument(args[0], 'the reference');
  const pdf = opts.pdf === undefined ? undefined : parsePdfPath(opts.pdf);
  if (pdf !== undefined && ctx.globals.json) throw new UsageError('--pdf writes a file; it cannot be used with --json', 'run it twice');
  const facts = await receiptOf(ctx, reference);
  if (pdf !== undefined) {
    const { writeReceiptPdf } = await import('../../documents/receipt-pdf.js');
    await writeReceiptPdf(pdf, facts);
    ctx.io.note(`wrote ${pdf}: receipt of ${facts.reference}`);
    return;
  }
  printReceipt(ctx, facts);
});

/**
 * The receipt of a transfer sent from here, checked: what was meant (the journal's intent), what happened
 * (the API's record, which must match it and be successful). A reference held for approval, or rejected,
 * was never sent: said so, with its request. The MCP tool makes its PDF from the same (src/agents/receipt.ts).
 */
export async function receiptOf(ctx: Context, reference: string): Promise<Receipt> {
  // 1. What was meant: the journal's intent for this reference, in this profile and base address.
  const journal = openJournal(ctx);
  const scope = await transferScope(ctx);
  // By the journal's index; the reference compared without regard to case.
  const intent = await journal.stateOf({ ...scope, reference });
  if (!intent) {
    const held = await requestHolding(ctx, scope, reference);
    if (held) throw heldNotSent(held.transfer.reference, held.request.id, held.request.status);
    throw new NotFoundError(
      `${reference} was not sent from here (profile ${scope.profile}): there is no verified payee to put on a receipt`,
      'fsapi transfer log lists the transfers sent from here; fsapi transfer status shows any transfer by reference',
    );
  }

  // 2. What happened: the API's record, checked against the intent.
  const readAtMs = ctx.clock.now();
  const { transaction } = await checkTransferStatus(ctx, journal, scope, intent.reference, reasonInWords(ctx));
  const mismatches = receiptIntentMismatches(intent, transaction);
  if (mismatches.length > 0) {
    throw new NoReceiptError(
      `the API's record of ${intent.reference} is not what was sent (${mismatches.join('; ')}): no receipt`,
      'ask the bank about this transfer',
    );
  }
  const refusal = notSuccessful(transaction);
  if (refusal) throw new NoReceiptError(refusal);

  // 3. The receipt: its times on the business's clock, and where it comes from.
  const business = await sourceAccount(ctx);
  return makeReceipt(intent, transaction, { name: business.accountName, accountNumber: business.accountNumber }, readAtMs, {
    timeZone: await businessTimeZone(ctx, scope),
    environment: documentEnvironment(scope.env),
  });
}

/** A reference the payment policy held: nothing was sent, so there is nothing to prove. Exit 1. */
function heldNotSent(reference: string, request: string, status: string): FsapiError {
  if (status === 'rejected') {
    return new FsapiError(`${reference} was held for approval in request ${request}, and a person rejected it: nothing was sent, so there is no receipt`, {
      exitCode: ExitCode.failed,
      hint: `fsapi approvals show ${request} shows who rejected it and why`,
      code: 'rejected',
    });
  }
  if (status === 'withdrawn') {
    return new FsapiError(`${reference} was held for approval in request ${request}, and who asked withdrew it: nothing was sent, so there is no receipt`, {
      exitCode: ExitCode.failed,
      hint: `fsapi approvals show ${request} shows who withdrew it`,
      code: 'withdrawn',
    });
  }
  if (status === 'held') {
    return new FsapiError(`${reference} is held for approval in request ${request}: nothing was sent yet, so there is no receipt`, {
      exitCode: ExitCode.failed,
      hint: `a person approves it at a terminal (fsapi approvals approve ${request}); once it is sent and successful, its receipt can be made`,
      code: 'held_for_approval',
    });
  }
  return new NoReceiptError(
    `${reference} is in request ${request} (${status}), and was not sent from here: no receipt`,
    `fsapi approvals show ${request} shows what became of it`,
  );
}

function printReceipt(ctx: Context, facts: Receipt): void {
  // Shown or copied from a terminal, it is no proof of payment either: said where a person reads it.
  const mark = originMark(facts.environment);
  if (mark !== undefined && !ctx.globals.json) ctx.io.note(mark);
  // Piped, the money is plain (12345.67), as everywhere else fsapi prints for scripts.
  const money: Record<string, Kobo> = { Amount: facts.amountKobo, Charge: facts.chargeKobo };
  printRecord(
    ctx,
    receiptFields(facts).map(([label, value]) => [label, label in money ? koboCell(money[label]!) : value] as const),
    receiptJson(facts),
  );
}
