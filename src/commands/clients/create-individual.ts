import { run } from '../run.js';
import { individualSpec } from './create-individual.spec.js';
import { bankLabel, clientAccountBank, collectIndividualClient, confirmCreate, individualFields, requireReviewer, reviewRows } from '../../clients/create.js';
import { printRecord, recordTimeCell } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';
import { writeClientReview } from '../../ui/client-review.js';

/** The form's fields, from this command's spec: its flags are defined once. */
const FIELDS = individualFields(individualSpec.options);

export default run(individualSpec, async (ctx, opts, _args) => {
  // 1. Every field checked (missing ones asked for at a terminal), then whether anyone can review them.
  const yes = opts.yes;
  const body = await collectIndividualClient(ctx, FIELDS, opts);
  requireReviewer(ctx, yes);

  // 2. The review: what will be sent, and where.
  const api = await ctx.api();
  if (!yes) {
    const profile = await ctx.profile();
    const where = `${profile.env} (profile ${profile.name}${api.baseUrl === 'local' ? '' : `, ${api.baseUrl}`})`;
    writeClientReview(ctx, 'Individual client account', reviewRows(FIELDS, body), where);
    await confirmCreate(ctx, 'individual');
  }

  // 3. One POST; then the bank the new account receives money at, for the person reading the result.
  const client = await api.createIndividualClient(body);
  const bank = ctx.globals.json ? undefined : await clientAccountBank(ctx);
  printRecord(
    ctx,
    [
      ['Account number', client.accountNumber],
      ['Account name', client.accountName],
      ['Type', client.accountType],
      ['Bank', bankLabel(bank)],
      ['External reference', client.externalReference],
      ['Phone', client.mobileNumber],
      ['E-mail', client.emailAddress],
      ['Gender', client.gender],
      ['Date of birth', client.dateOfBirth],
      ['Created', recordTimeCell(client.createdAt, await shownTimeZone(ctx))],
    ],
    client,
  );
});
