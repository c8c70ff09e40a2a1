// transfer_receipt with `pdf: true`: the receipt as a PDF in the result itself (an embedded resource,
// base64 application/pdf), since an agent has no file of the server's user to read. It is the same
// receipt as `fsapi transfer receipt --pdf` writes (receiptOf, then writeReceiptPdf): written in a
// directory made for it inside the data dir (the server's own, private: src/agents/private-dirs.ts), read
// back, and removed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../context.js';
import type { CommandModule } from '../commands/types.js';
import { parseReferenceArgument } from '../books/transactions.js';
import { receiptJson, type Receipt } from '../books/receipt.js';
import type { ToolCall } from './tools.js';

export async function receiptForAgent(ctx: Context, module: CommandModule, options: Record<string, unknown>, args: string[], call: ToolCall): Promise<void> {
  if (call.extras.pdf !== true) return module.default(ctx, options, args);
  const reference = parseReferenceArgument(args[0], 'reference');
  const facts = await (module as unknown as { receiptOf(ctx: Context, reference: string): Promise<Receipt> }).receiptOf(ctx, reference);
  const { writeReceiptPdf } = await import('../documents/receipt-pdf.js');
  const dir = await mkdtemp(path.join(ctx.paths.dataDir, '.receipt-'));
  let pdf: Buffer;
  try {
    const file = path.join(dir, 'receipt.pdf');
    await writeReceiptPdf(file, facts);
    pdf = await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  call.attach({
    type: 'resource',
    resource: { uri: `fsapi://receipts/${encodeURIComponent(facts.reference)}.pdf`, mimeType: 'application/pdf', blob: pdf.toString('base64') },
  });
  ctx.io.note(`the receipt of ${facts.reference} is attached as a PDF (${pdf.length} bytes)`);
  ctx.io.out(`${JSON.stringify(receiptJson(facts), null, 2)}\n`);
}
