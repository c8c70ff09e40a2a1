import { run } from '../run.js';
import { corporateSpec } from './create-corporate.spec.js';
import { bankLabel, clientAccountBank, collectCorporateClient, confirmCreate, corporateFields, requireReviewer, reviewRows } from '../../clients/create.js';
import { printRecord, recordTimeCell } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';
import { writeClientReview } from '../../ui/client-review.js';

/** The form's fields, from this command's spec: its flags are defined once. */
const FIELDS = corporateFields(corporateSpec.options);

export default run(corporateSpec, async (ctx, opts, _args) => {
  // 1. Every field checked (missing ones asked for at a terminal), then whether anyone can review them.
  const yes = opts.yes;
  const body = await collectCorporateClient(ctx, FIELDS, opts);
  requireReviewer(ctx, yes);

  // 2. The review: what will be sent, and where.
  const api = await ctx.api();
  if (!yes) {
    const profile = await ctx.profile();
    const where = `${profile.env} (profile ${profile.name}${api.baseUrl === 'local' ? '' : `, ${api.baseUrl}`})`;
    writeClientReview(ctx, 'Corporate client account', reviewRows(FIELDS, body), where);
    await confirmCreate(ctx, 'corporate');
  }

  // 3. One POST; then the bank the new account receives money at, for the person reading the result.
  const client = await api.createCorporateClient(body);
  const bank = ctx.globals.json ? undefined : await clientAccountBank(ctx);
  printRecord(
    ctx,
    [
      ['Account number', client.accountNumber],
      ['Account name', client.accountName],
      ['Type', client.accountType],
      ['Bank', bankLabel(bank)],
      ['RC number', client.rcNumber],
      ['Incorporated', client.incorporationDate],
      ['External reference', client.externalReference],
      ['Phone', client.mobileNumber],
      ['E-mail', client.emailAddress],
      ['Created', recordTimeCell(client.createdAt, await shownTimeZone(ctx))],
    ],
    client,
  );
});
