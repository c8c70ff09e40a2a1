// Saved payees, the payment policy and approvals, end to end: each command run in process (test/helpers/
// in-process.ts) against the simulator over HTTP, the secret typed at a scripted prompt (a prompt the
// script does not expect fails the test: where no answer is given, nothing may be asked), the simulator's
// request log as the proof of what was (not) sent; concurrent sends run as processes. The profile `sim` is logged in from the environment WITHOUT --save-credentials: the
// consumer key it keeps is what a typed secret is checked against.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { errorObject, stripAnsi } from './helpers/cli.js';
import { FakeClock } from './helpers/context.js';
import { sendArgs as send, setPolicy, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { TRANSFER_SPELLINGS } from './helpers/transfer-spellings.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { openDatabase } from '../src/store/sqlite.js';

let setup: TransferSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

const SECRET = SIMULATOR_CREDENTIALS.consumerSecret;
/** The consumer secret typed at its prompt, the one question of the run. */
const secretTyped = (typed: string) => [{ prompt: 'Consumer secret', answer: typed }];

/** Changes the saved records behind fsapi's back, as a changed world would (a holder who is someone else now). */
function changeSaved(s: TransferSetup, sql: string): void {
  const db = openDatabase(path.join(s.home.dataDir, 'fsapi.db'));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

async function requests(
  s: TransferSetup,
  all = true,
): Promise<
  Array<{
    id: string;
    status: string;
    transfers: Array<{ reference: string; amount: string; reasons: string[] }>;
    decisions: Array<{ decision: string; by: string; at: string }>;
  }>
> {
  const result = await s.runInProcess(['approvals', 'list', '--json', ...(all ? ['--all'] : [])]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

describe('payees', () => {
  it('add verifies the name; send --to pays it; an unknown alias is not found (exit 1) with nothing sent', async () => {
    setup = await setUpTransfers();
    const added = await setup.runInProcess(['payees', 'add', 'landlord', '0123456789', '--bank', 'gtb']);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(setup.count('POST', '/v1/transfer/name-enquiry'), 1);
    const listed = JSON.parse((await setup.runInProcess(['payees', 'list', '--json'])).stdout) as Array<Record<string, string>>;
    assert.deepEqual(
      listed.map((p) => [p.alias, p.accountNumber, p.bankCode, p.accountName]),
      [['landlord', '0123456789', '000013', 'OKAFOR CHIAMAKA ADAEZE']],
    );

    const sent = await setup.runInProcess(['transfer', 'send', '--to', 'landlord', '--amount', '5000', '--narration', 'Rent', '-y']);
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(setup.posts(), 1);
    // The name was asked again at the send.
    assert.equal(setup.count('POST', '/v1/transfer/name-enquiry'), 2);

    // The holder changed since the payee was saved (here: the saved name made different): nothing is sent.
    changeSaved(setup, "UPDATE payees SET account_name = 'ADEBAYO TUNDE' WHERE alias = 'landlord'");
    const changed = await setup.runInProcess(['transfer', 'send', '--to', 'landlord', '--amount', '5000', '--narration', 'Rent', '-y']);
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stderr, /belongs to "OKAFOR CHIAMAKA ADAEZE", not "ADEBAYO TUNDE"; nothing was sent/);
    assert.equal(setup.posts(), 1);
    changeSaved(setup, "UPDATE payees SET account_name = 'OKAFOR CHIAMAKA ADAEZE' WHERE alias = 'landlord'");

    const unknown = await setup.runInProcess(['transfer', 'send', '--to', 'landlady', '--amount', '5000', '--narration', 'Rent', '-y']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no saved payee named "landlady"/);
    const clash = await setup.runInProcess(['transfer', 'send', '0123456789', '--to', 'landlord', '--amount', '5000', '--narration', 'Rent', '-y']);
    assert.equal(clash.code, 2);
    assert.equal(setup.posts(), 1);

    const again = await setup.runInProcess(['payees', 'add', 'LANDLORD', '0123456789', '--bank', 'gtb']);
    assert.equal(again.code, 2, 'aliases are compared without case');
    assert.equal((await setup.runInProcess(['payees', 'remove', 'landlord'])).code, 0);
    assert.deepEqual(JSON.parse((await setup.runInProcess(['payees', 'list', '--json'])).stdout), []);
  });
});

describe('policy set', () => {
  it('needs a terminal: exit 2 without one, even with the secret in the environment; nothing changes', async () => {
    setup = await setUpTransfers();
    const result = await setup.runInProcess(['policy', 'set', '--max-per-day', '1000'], {
      env: { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey, FSAPI_CONSUMER_SECRET: SECRET },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /needs a person at a terminal/);
    const shown = JSON.parse((await setup.runInProcess(['policy', 'show', '--json'])).stdout) as Record<string, unknown>;
    assert.equal(shown.maxPerDay, null);
  });

  it('shows the change, then a wrong secret changes nothing (exit 3) and the right one does', async () => {
    setup = await setUpTransfers();
    const wrong = await setup.runInProcess(['policy', 'set', '--max-per-day', '1000'], { tty: true, prompts: secretTyped('not-the-secret') });
    const screen = stripAnsi(wrong.stdout);
    assert.equal(wrong.code, 3, screen);
    assert.match(screen, /Max per day\s+none -> ₦1,000\.00/);
    assert.ok(screen.indexOf('Max per day') < screen.indexOf('Consumer secret'), 'the change is shown before the secret is asked');
    assert.doesNotMatch(screen, /not-the-secret/, 'the secret is not echoed');
    assert.equal(setup.count('POST', '/v1/generate-token'), 1, 'the secret was checked with the API');
    assert.equal((JSON.parse((await setup.runInProcess(['policy', 'show', '--json'])).stdout) as Record<string, unknown>).maxPerDay, null);

    await setPolicy(setup, '--max-per-day', '1000', '--payees-only');
    const shown = JSON.parse((await setup.runInProcess(['policy', 'show', '--json'])).stdout) as Record<string, unknown>;
    assert.equal(shown.maxPerDay, '1000.00');
    assert.equal(shown.payeesOnly, true);
    assert.equal(typeof shown.updatedBy, 'string');
  });

  it('`none` removes a limit and keeps the others', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--max-per-transfer', '500', '--max-per-day', '1000');
    await setPolicy(setup, '--max-per-transfer', 'none');
    const shown = JSON.parse((await setup.runInProcess(['policy', 'show', '--json'])).stdout) as Record<string, unknown>;
    assert.deepEqual([shown.maxPerTransfer, shown.maxPerDay], [null, '1000.00']);
  });
});

describe('auth token under a policy', () => {
  it('without a terminal: exit 2, saying why, nothing printed; at a terminal the token is printed', async () => {
    setup = await setUpTransfers();
    const before = await setup.runInProcess(['auth', 'token']);
    assert.equal(before.code, 0, before.stderr);
    const token = before.stdout.trim();
    assert.ok(token.length > 0);

    await setPolicy(setup, '--max-per-day', '1000');
    const piped = await setup.runInProcess(['auth', 'token']);
    assert.equal(piped.code, 2, piped.stderr);
    assert.equal(piped.stdout, '');
    assert.match(piped.stderr, /has a payment policy.*would let a script pay round it[\s\S]*only at a terminal; nothing was printed/);
    assert.match(piped.stderr, /hint: run it yourself in a terminal/);
    assert.doesNotMatch(piped.stderr, new RegExp(token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const json = await setup.runInProcess(['auth', 'token', '--json']);
    assert.equal(json.code, 2);
    assert.equal(json.stdout, '');

    const atTerminal = await setup.runInProcess(['auth', 'token'], { tty: true });
    assert.equal(atTerminal.code, 0, stripAnsi(atTerminal.stdout));
    assert.ok(stripAnsi(atTerminal.stdout).includes(token), 'a person at a terminal still gets it');
  });
});

describe('policy show', () => {
  it("says what counts toward today's maximum, in the outcome words, on a terminal, piped and in --json", async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--max-per-day', '100000');
    assert.equal((await setup.runInProcess(send('30000'))).code, 0);
    const screen = stripAnsi((await setup.runInProcess(['policy', 'show'], { tty: true, columns: 80 })).stdout);
    // Its words continue under themselves at 80 columns.
    assert.match(
      screen.replace(/\r?\n {32}/g, ' '),
      /^Counted toward today's maximum {2}₦30,000\.00 \(today's transfers in flight, pending, successful, failed, reversed or unknown; not refused\)\r?$/m,
    );
    assert.match(screen, /^Left today +₦70,000\.00\r?$/m);
    assert.doesNotMatch(screen, /Sent today/);
    assert.ok(
      screen.split(/\r?\n/).every((line) => line.length <= 80),
      screen,
    );
    const piped = (await setup.runInProcess(['policy', 'show'])).stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.equal(piped[1]![piped[0]!.indexOf("Counted toward today's maximum")], '30000.00');
    const shown = JSON.parse((await setup.runInProcess(['policy', 'show', '--json'])).stdout) as Record<string, unknown>;
    assert.equal(shown.countedToday, '30000.00');
    assert.deepEqual(shown.countedOutcomes, ['in flight', 'pending', 'successful', 'failed', 'reversed', 'unknown']);
  });
});

describe('the policy at send time', () => {
  it('over the per-transfer maximum: exit 1, nothing sent, naming the limit and what is left today', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--max-per-transfer', '50000', '--max-per-day', '100000');
    assert.equal((await setup.runInProcess(send('30000'))).code, 0);
    const result = await setup.runInProcess(send('60000'));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /₦60,000\.00 is over the per-transfer maximum of ₦50,000\.00/);
    assert.match(result.stderr, /₦70,000\.00 is left of today's maximum of ₦100,000\.00/);
    assert.equal(setup.posts(), 1);
    // fsapi's raw door is shut too while there is a policy.
    const raw = await setup.runInProcess([
      'api',
      'POST',
      '/v1/transfer',
      '--allow-transfer',
      '--data',
      '{"beneficiaryBankCode":"000013","beneficiaryAccountNumber":"0123456789","narration":"x","amount":600000,"reference":"ACME-RAW1"}',
    ]);
    assert.equal(raw.code, 2, raw.stderr);
    assert.match(raw.stderr, /payment policy/);
    assert.equal(setup.posts(), 1);
  });

  it('over the daily maximum: exit 1, nothing sent, naming what was sent and what is left', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--max-per-day', '20000');
    assert.equal((await setup.runInProcess(send('15000'))).code, 0);
    const result = await setup.runInProcess(send('6000', '--allow-duplicate'));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /would pass the daily maximum of ₦20,000\.00.*₦15,000\.00 counts toward it.*₦5,000\.00 is left; nothing was sent/);
    assert.equal(setup.posts(), 1);
  });

  it('above the approval threshold: held (exit 7), no POST, recorded under its reference, the message says how to approve', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '20000');
    const result = await setup.runInProcess(send('25000'));
    assert.equal(result.code, 7, result.stderr);
    assert.equal(setup.posts(), 0);
    assert.deepEqual(setup.journalLines(), []);
    const [request] = await requests(setup);
    assert.ok(request);
    assert.equal(request.status, 'held');
    // Not an error: the payment waits for a person, said with `held:` as a batch says its held rows.
    assert.match(
      result.stderr,
      new RegExp(`^held: for approval as request ${request.id}: .*above the approval threshold of ₦20,000\\.00; nothing was sent$`, 'm'),
    );
    assert.match(result.stderr, new RegExp(`^hint: .*fsapi approvals approve ${request.id}$`, 'm'));
    assert.doesNotMatch(result.stderr, /^error:/m);
    // The reference shown in the summary is the one held.
    const reference = /Reference\s+(ACME-\S+)/.exec(result.stderr)?.[1];
    assert.equal(request.transfers[0]!.reference, reference);
    assert.equal(request.transfers[0]!.amount, '25000.00');
    // With --json the held request's record is on stdout, for scripts and agents.
    const json = await setup.runInProcess(['--json', ...send('30000')]);
    assert.equal(json.code, 7, json.stderr);
    const printed = JSON.parse(json.stdout) as { id: string; status: string; transfers: unknown[] };
    assert.equal(printed.status, 'held');
    assert.match(printed.id, /^AP-[0-9A-Z]{8}$/);
    // The --json run says so on stderr as well, as the error object, and keeps stdout for the record alone.
    const held = errorObject(json.stderr);
    assert.equal(held.code, 'held_for_approval');
    assert.equal(held.exitCode, 7);
    assert.match(held.message, new RegExp(`^for approval as request ${printed.id}: `));
    // At a terminal, in yellow, like a batch's held rows; no red error line.
    const shown = await setup.runInProcess(send('26000'), { tty: true, env: { FORCE_COLOR: '1' } });
    assert.equal(shown.code, 7, stripAnsi(shown.stdout));
    assert.match(shown.stdout, /\u001b\[33mheld:\u001b\[39m for approval as request AP-/);
    assert.doesNotMatch(stripAnsi(shown.stdout), /^error:/m);
    // Below the threshold goes.
    assert.equal((await setup.runInProcess(send('20000'))).code, 0);
    assert.equal(setup.posts(), 1);
  });

  it('payees only: an account that is not a saved payee is held (exit 7, no POST); a payee is paid', async () => {
    setup = await setUpTransfers();
    assert.equal((await setup.runInProcess(['payees', 'add', 'ada', '0123456789', '--bank', 'gtb'])).code, 0);
    await setPolicy(setup, '--payees-only');
    const other = await setup.runInProcess(['transfer', 'send', '0234567891', '--bank', 'gtb', '--amount', '100', '--narration', 'x', '-y']);
    assert.equal(other.code, 7, other.stderr);
    assert.match(other.stderr, /not a saved payee/);
    assert.equal(setup.posts(), 0);
    // Without a terminal no new payee can be added under payees-only: an agent cannot widen the list.
    const add = await setup.runInProcess(['payees', 'add', 'bob', '0234567891', '--bank', 'gtb']);
    assert.equal(add.code, 2, add.stderr);
    // A person at a terminal with the secret can.
    const person = await setup.runInProcess(['payees', 'add', 'bob', '0234567891', '--bank', 'gtb'], { tty: true, prompts: secretTyped(SECRET) });
    assert.equal(person.code, 0, stripAnsi(person.stdout));
    assert.equal((JSON.parse((await setup.runInProcess(['payees', 'list', '--json'])).stdout) as unknown[]).length, 2);
    assert.equal((await setup.runInProcess(['transfer', 'send', '--to', 'ada', '--amount', '100', '--narration', 'x', '-y'])).code, 0);
    // The same account typed out is a payee too (its verified name is still the saved one).
    assert.equal((await setup.runInProcess(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '101', '--narration', 'x', '-y'])).code, 0);
    assert.equal(setup.posts(), 2);
  });
});

/**
 * A zone whose day ends at an instant (`midnight`) when neither UTC's, Lagos's (the zone a claim without
 * one would count in) nor this machine's does, within ten minutes either side: zones a quarter or half an
 * hour off the whole hours, on a fixed date.
 */
function dayThatEndsOnlyIn(): { zone: string; midnight: number } {
  const others = ['UTC', 'Africa/Lagos', Intl.DateTimeFormat().resolvedOptions().timeZone];
  const dateIn = (zone: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(ms);
  for (const [zone, midnightUtc] of [
    ['Asia/Kathmandu', '2025-03-10T18:15:00Z'],
    ['Asia/Kolkata', '2025-03-10T18:30:00Z'],
    ['Asia/Tehran', '2025-03-10T20:30:00Z'],
    ['Australia/Eucla', '2025-03-10T15:15:00Z'],
  ] as const) {
    const midnight = Date.parse(midnightUtc);
    const [early, late] = [midnight - 10 * 60_000, midnight + 10 * 60_000];
    if (dateIn(zone, early) !== dateIn(zone, late) && others.every((other) => dateIn(other, early) === dateIn(other, late))) return { zone, midnight };
  }
  throw new Error(`no zone whose day ends apart from ${others.join(', ')}`);
}

/** An Etc zone whose wall clock reads `hour`:xx at `ms` (whole hours east of UTC, -12 .. +14). */
function zoneAtHour(ms: number, hour: number): string {
  let east = (((hour - new Date(ms).getUTCHours()) % 24) + 24) % 24;
  if (east > 14) east -= 24;
  return east === 0 ? 'UTC' : east > 0 ? `Etc/GMT-${east}` : `Etc/GMT+${-east}`;
}

/** Moves every journalled transfer `ms` earlier, as if sent then (the clock cannot be set for a process). */
function sentEarlier(s: TransferSetup, ms: number): void {
  const db = openDatabase(path.join(s.home.dataDir, 'fsapi.db'));
  try {
    for (const row of db.prepare('SELECT first_seq, sent_ms, doc FROM transfers').all()) {
      const at = Number(row.sent_ms) - ms;
      const doc = { ...(JSON.parse(String(row.doc)) as Record<string, unknown>), sentAt: new Date(at).toISOString() };
      db.prepare('UPDATE transfers SET sent_ms = ?, doc = ? WHERE first_seq = ?').run(at, JSON.stringify(doc), Number(row.first_seq));
    }
  } finally {
    db.close();
  }
}

describe("the daily maximum counts the policy's day, not the caller's", () => {
  it('a caller whose own day began after the earlier sends (TZ=Etc/GMT+7 at 07:00 UTC) starts no new one', async () => {
    setup = await setUpTransfers();
    const now = Date.now();
    // The policy's zone reads about noon: its midnight is hours away, before and after the sends.
    const zone = zoneAtHour(now, 12);
    // The caller's zone reads 00:xx: its day began less than an hour ago, after the first send below.
    const fresh = zoneAtHour(now, 0);
    await setPolicy(setup, '--max-per-day', '100000', '--time-zone', zone);
    const under = (tz: string, amount: string, ...more: string[]) => setup!.runInProcess(send(amount, ...more), { env: { TZ: tz } });

    assert.equal((await under('Etc/GMT-14', '60000')).code, 0);
    sentEarlier(setup, 90 * 60_000);
    const second = await under(fresh, '60000', '--allow-duplicate');
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, /would pass the daily maximum of ₦100,000\.00.*₦60,000\.00 counts toward it/);
    assert.ok(second.stderr.includes(`starts again at midnight (${zone})`), second.stderr);
    // UTC-12 and UTC+14 are always on different dates: neither is a day of its own either.
    assert.equal((await under('Etc/GMT+12', '40000')).code, 0, 'reaching the maximum exactly is allowed');
    const last = await under('Etc/GMT-14', '1');
    assert.equal(last.code, 1, last.stderr);
    assert.equal(setup.posts(), 2, 'only the two within the maximum reached the API');

    for (const tz of ['Etc/GMT+12', 'Etc/GMT-14', fresh]) {
      const shown = JSON.parse((await setup.runInProcess(['policy', 'show', '--json'], { env: { TZ: tz } })).stdout) as Record<string, unknown>;
      assert.deepEqual([shown.timeZone, shown.countedToday, shown.leftToday], [zone, '100000.00', '0.00'], `policy show under TZ=${tz}`);
    }
  });

  it("the claim counts the policy's day: two sends either side of its midnight both go, though UTC's, Lagos's and this machine's day is one", async () => {
    setup = await setUpTransfers();
    const { zone, midnight } = dayThatEndsOnlyIn();
    await setPolicy(setup, '--max-per-day', '1000', '--time-zone', zone);
    // Each run on a clock of its own (the intent's time and the claim's "today" are the run's clock's).
    const at = (ms: number, amount: string) => setup!.runInProcess(send(amount, '--allow-duplicate', '--json'), { clock: new FakeClock(ms) });
    const before = await at(midnight - 5 * 60_000, '700');
    assert.equal(before.code, 0, before.stderr);
    // ₦700 + ₦700 passes ₦1,000 in one day: the claim must count the policy's day, which began between them.
    const after = await at(midnight + 5 * 60_000, '700');
    assert.equal(after.code, 0, after.stderr);
    // Within that new day the maximum holds.
    const again = await at(midnight + 6 * 60_000, '400');
    assert.equal(again.code, 1, again.stderr);
    assert.equal(errorObject(again.stderr).code, 'policy_limit');
    assert.equal(setup.posts(), 2);
  });

  it("the zone defaults to the business's (Africa/Lagos) whatever TZ the setter has, is kept by later changes, and an unknown one is exit 2", async () => {
    setup = await setUpTransfers();
    const set = (env: Record<string, string>, ...options: string[]) =>
      setup!.runInProcess(['policy', 'set', ...options], { tty: true, prompts: secretTyped(SECRET), env });
    const shown = async () => JSON.parse((await setup!.runInProcess(['policy', 'show', '--json'])).stdout) as Record<string, unknown>;

    const first = await set({ TZ: 'Asia/Tokyo' }, '--max-per-day', '1000');
    assert.equal(first.code, 0, stripAnsi(first.stdout));
    assert.match(stripAnsi(first.stdout), /Day's time zone\s+Africa\/Lagos \(the default: no policy\) -> Africa\/Lagos/, 'shown before the secret is asked');
    assert.equal((await shown()).timeZone, 'Africa/Lagos');
    assert.equal((await set({ TZ: 'Europe/London' }, '--max-per-day', '2000')).code, 0);
    assert.deepEqual([(await shown()).timeZone, (await shown()).maxPerDay], ['Africa/Lagos', '2000.00']);
    assert.equal((await set({}, '--time-zone', 'america/new_york')).code, 0);
    assert.equal((await shown()).timeZone, 'America/New_York');

    const tokens = setup.count('POST', '/v1/generate-token');
    const unknown = await setup.runInProcess(['policy', 'set', '--time-zone', 'Mars/Olympus']);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /--time-zone: unknown time zone "Mars\/Olympus"/);
    assert.equal((await shown()).timeZone, 'America/New_York');
    assert.equal(setup.count('POST', '/v1/generate-token'), tokens, 'no secret was asked or checked');
  });
});

describe('fsapi api under a policy', () => {
  it('refuses the transfer endpoint in every spelling, even with --allow-transfer: nothing reaches the API', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--max-per-day', '1000');
    setup.server.simulator.clearRequests();
    const body = '{"beneficiaryBankCode":"000013","beneficiaryAccountNumber":"0123456789","narration":"x","amount":600000,"reference":"ACME-RAW2"}';
    for (const [method, spelling] of TRANSFER_SPELLINGS) {
      const result = await setup.runInProcess(['api', method, spelling, '--allow-transfer', '--data', body]);
      assert.equal(result.code, 2, `${method} ${spelling}: ${result.stderr}`);
      assert.match(result.stderr, /this profile has a payment policy: fsapi api does not send POST \/v1\/transfer/);
      assert.deepEqual(setup.server.simulator.requests(), [], `${method} ${spelling}: nothing reached the API`);
    }
  });
});

describe('approvals approve', () => {
  it('without a terminal: exit 2, nothing sent, even with the secret in the environment', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    const [request] = await requests(setup);
    const result = await setup.runInProcess(['approvals', 'approve', request!.id], {
      env: { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey, FSAPI_CONSUMER_SECRET: SECRET },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /needs a person at a terminal/);
    assert.equal(setup.posts(), 0);
    assert.equal((await requests(setup))[0]!.status, 'held');
  });

  it('a wrong secret approves nothing; the right one sends it once under its held reference; again sends nothing', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    const [request] = await requests(setup);
    const id = request!.id;
    const reference = request!.transfers[0]!.reference;

    // A holder who changed since the hold: nothing is approved, and the secret is not even asked.
    changeSaved(setup, "UPDATE approval_transfers SET account_name = 'ADEBAYO TUNDE'");
    const changed = await setup.runInProcess(['approvals', 'approve', id], { tty: true });
    assert.equal(changed.code, 1, stripAnsi(changed.stdout));
    assert.match(stripAnsi(changed.stdout), /is now "OKAFOR CHIAMAKA ADAEZE", not "ADEBAYO TUNDE".*nothing\s+was\s+approved/s);
    assert.doesNotMatch(stripAnsi(changed.stdout), /Consumer secret/);
    assert.equal((await requests(setup))[0]!.status, 'held');
    changeSaved(setup, "UPDATE approval_transfers SET account_name = 'OKAFOR CHIAMAKA ADAEZE'");

    // The right secret in the environment does not stand in for the typed one.
    const wrong = await setup.runInProcess(['approvals', 'approve', id], {
      tty: true,
      prompts: secretTyped('sim-consumer-secreT'),
      env: { FSAPI_CONSUMER_SECRET: SECRET },
    });
    assert.equal(wrong.code, 3, stripAnsi(wrong.stdout));
    assert.match(stripAnsi(wrong.stdout), /did not accept that consumer secret.*nothing was changed/s);
    assert.equal(setup.posts(), 0);
    assert.equal((await requests(setup))[0]!.status, 'held');

    const right = await setup.runInProcess(['approvals', 'approve', id.toLowerCase()], { tty: true, prompts: secretTyped(SECRET) });
    const screen = stripAnsi(right.stdout);
    assert.equal(right.code, 0, screen);
    assert.ok(screen.indexOf('₦5,000.00 to OKAFOR CHIAMAKA ADAEZE') < screen.indexOf('Consumer secret'), 'what will be sent is shown first');
    assert.match(
      screen,
      /^ACME-\S+ +OKAFOR CHIAMAKA ADAEZE +₦5,000\.00 +pending +pending: taken by the API, not settled yet; the API said: Transfer successful/m,
      "the API's words follow fsapi's outcome",
    );
    assert.equal(setup.posts(), 1);
    // The API has it under the reference it was held with.
    const found = await setup.runInProcess(['tx', 'get', reference, '--json']);
    assert.equal(found.code, 0, found.stderr);
    assert.equal((JSON.parse(found.stdout) as { reference: string }).reference, reference);
    const [approved] = await requests(setup);
    assert.equal(approved!.status, 'approved');
    assert.equal(approved!.decisions.length, 1);
    assert.equal(approved!.decisions[0]!.decision, 'approved');
    assert.ok(approved!.decisions[0]!.by.length > 0 && !Number.isNaN(Date.parse(approved!.decisions[0]!.at)));
    const log = JSON.parse((await setup.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ reference: string; origin: string }>;
    assert.deepEqual(
      log.map((t) => t.reference),
      [reference],
    );
    assert.match(log[0]!.origin, new RegExp(`approval ${id}`));

    const twice = await setup.runInProcess(['approvals', 'approve', id], { tty: true });
    assert.equal(twice.code, 0, stripAnsi(twice.stdout));
    assert.match(stripAnsi(twice.stdout), /already approved.*nothing was sent again/);
    assert.equal(setup.posts(), 1);

    // A rejected request is never sent.
    assert.equal((await setup.runInProcess(send('7000'))).code, 7);
    const newest = (await requests(setup, false))[0]!;
    const rejected = await setup.runInProcess(['approvals', 'reject', newest.id, '--reason', 'wrong invoice']);
    assert.equal(rejected.code, 0, rejected.stderr);
    const afterReject = await setup.runInProcess(['approvals', 'approve', newest.id], { tty: true });
    assert.equal(afterReject.code, 1);
    assert.equal(setup.posts(), 1);
  });
});

describe('approvals approve after another member decided', () => {
  // While this member reads the review and types the secret, another member (another process, here named
  // by FSAPI_OPERATOR) decides the same request. The approval reads the request again inside the
  // transaction that would record it: it sends nothing from here and says who decided.
  const bola = { FSAPI_OPERATOR: 'bola (finance)' };
  const cases: Array<[string, (s: TransferSetup, id: string) => Promise<void>, RegExp, number]> = [
    [
      'approved it (and sent it)',
      async (s, id) => {
        const other = await s.run(['approvals', 'approve', id], { env: bola, tty: true, keys: [['Consumer secret', `${SECRET}\r`]] });
        assert.equal(other.code, 0, stripAnsi(other.stdout));
      },
      /was approved by bola \(finance\)/,
      1,
    ],
    [
      'rejected it',
      async (s, id) => {
        const other = await s.run(['approvals', 'reject', id, '--reason', 'paid by cheque'], { env: bola });
        assert.equal(other.code, 0, other.stderr);
      },
      /was rejected by bola \(finance\) acting as \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} WAT \(paid\s+by\s+cheque\)/,
      0,
    ],
    [
      'withdrew it (who asked)',
      async (s, id) => {
        const other = await s.run(['approvals', 'withdraw', id], { env: bola });
        assert.equal(other.code, 0, other.stderr);
      },
      /was withdrawn by bola \(finance\)/,
      0,
    ],
  ];
  for (const [what, decide, says, posts] of cases) {
    it(`another member ${what} while this one typed the secret: nothing is sent from here, and it names who decided`, async () => {
      setup = await setUpTransfers();
      await setPolicy(setup, '--approval-above', '1000');
      assert.equal((await setup.runInProcess(send('5000'))).code, 7);
      const [request] = await requests(setup);
      const s = setup;
      const result = await setup.runInProcess(['approvals', 'approve', request!.id], {
        tty: true,
        columns: 120,
        prompts: [{ prompt: 'Consumer secret', answer: SECRET, meanwhile: () => decide(s, request!.id) }],
      });
      const screen = stripAnsi(result.stdout);
      assert.equal(result.code, 1, screen);
      assert.match(screen, says);
      assert.match(screen, /nothing\s+was\s+sent\s+from\s+here/);
      assert.equal(setup.posts(), posts, 'only what the other member sent');
      assert.equal(setup.journalLines().filter((line) => line.includes('"type":"intent"')).length, posts);
      const [after] = await requests(setup);
      assert.equal(after!.decisions.length, 1, 'only the other decision is recorded');
    });
  }
});

describe('approvals withdraw', () => {
  it('who asked withdraws a held request: it is shown withdrawn, and approving it then sends nothing', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    const [request] = await requests(setup);
    const withdrawn = await setup.runInProcess(['approvals', 'withdraw', request!.id]);
    assert.equal(withdrawn.code, 0, withdrawn.stderr);
    assert.match(withdrawn.stderr, new RegExp(`withdrew ${request!.id} \\(by \\S+\\): its 1 transfer will not be sent`));
    // Again: the same answer, nothing more.
    const again = await setup.runInProcess(['approvals', 'withdraw', request!.id, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal((JSON.parse(again.stdout) as { status: string }).status, 'withdrawn');

    const approve = await setup.runInProcess(['approvals', 'approve', request!.id], { tty: true, columns: 120 });
    assert.equal(approve.code, 1, stripAnsi(approve.stdout));
    assert.match(stripAnsi(approve.stdout), /was withdrawn by \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} WAT; nothing was sent/);
    assert.doesNotMatch(stripAnsi(approve.stdout), /Consumer secret/, 'the secret is not even asked');
    assert.equal(setup.posts(), 0);

    assert.deepEqual(await requests(setup, false), [], 'a withdrawn request waits for nobody');
    const [shown] = await requests(setup);
    assert.equal(shown!.status, 'withdrawn');
    assert.deepEqual(
      shown!.decisions.map((d) => d.decision),
      ['withdrawn'],
    );
    const screen = stripAnsi((await setup.runInProcess(['approvals', 'list', '--all'], { tty: true, columns: 80 })).stdout);
    assert.match(screen, new RegExp(`${request!.id} +withdrawn`));
    const show = stripAnsi((await setup.runInProcess(['approvals', 'show', request!.id], { tty: true, columns: 80 })).stdout);
    assert.match(show, /^Decided +withdrawn by \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2}/m);
    assert.match(show, /^ACME-\S+ .* not-sent$/m);
  });

  it('someone other than who asked cannot withdraw (the OS user behind sudo is who acts): exit 1, nothing changed', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    const [request] = await requests(setup);
    const other = await setup.runInProcess(['approvals', 'withdraw', request!.id, '--json'], { env: { SUDO_USER: 'bola', SUDO_UID: '4242' } });
    assert.equal(other.code, 1);
    const error = errorObject(other.stderr);
    assert.equal(error.code, 'not_requester');
    assert.match(error.message, /you act as bola@\S+ \(OS user\): only who asked withdraws a request; nothing was changed/);
    assert.equal((await requests(setup))[0]!.status, 'held');
  });
});

describe('four eyes on a data dir (actors of one machine)', () => {
  it('who asked cannot approve, even under another FSAPI_OPERATOR; the person behind sudo may; approvals show says who may not', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000', '--four-eyes');
    const policy = JSON.parse((await setup.runInProcess(['policy', 'show', '--json'])).stdout) as {
      fourEyes: boolean;
      actingAs: { name: string; kind: string };
    };
    assert.equal(policy.fourEyes, true);
    assert.equal(policy.actingAs.kind, 'OS user');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    const [request] = await requests(setup);
    const shown = JSON.parse((await setup.runInProcess(['approvals', 'show', request!.id, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(shown.fourEyes, true);
    assert.equal(shown.actor, policy.actingAs.name);
    assert.equal(shown.mayNotApprove, policy.actingAs.name);

    const self = await setup.runInProcess(['approvals', 'approve', request!.id], { tty: true, columns: 120, env: { FSAPI_OPERATOR: 'not me' } });
    assert.equal(self.code, 1, stripAnsi(self.stdout));
    assert.match(
      stripAnsi(self.stdout),
      /four eyes: request AP-\S+ was asked by \S+, and you act as \S+ \(OS user\): another member approves\s+it;\s+nothing\s+was\s+approved\s+or\s+sent/,
    );
    assert.doesNotMatch(stripAnsi(self.stdout), /Consumer secret/, 'refused before the secret is asked');
    assert.equal(setup.posts(), 0);

    const other = await setup.runInProcess(['approvals', 'approve', request!.id], {
      tty: true,
      prompts: secretTyped(SECRET),
      env: { SUDO_USER: 'bola', SUDO_UID: '4242' },
    });
    assert.equal(other.code, 0, stripAnsi(other.stdout));
    assert.match(stripAnsi(other.stdout), /approved AP-\S+ \(by \S+ acting as bola@\S+\)/);
    assert.equal(setup.posts(), 1);
    const [approved] = await requests(setup);
    assert.deepEqual(
      approved!.decisions.map((d) => [d.decision, (d as { actor?: string }).actor]),
      [['approved', `bola@${hostname()}`]],
    );
  });
});

describe('policy set --require-name', () => {
  it('a script (--yes) names the holder of an account that is not a saved payee: without it, or after a wrong name, nothing is sent', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--max-per-day', '1000000', '--require-name');
    assert.equal((JSON.parse((await setup.runInProcess(['policy', 'show', '--json'])).stdout) as { requireName: boolean }).requireName, true);

    const unnamed = await setup.runInProcess([...send('5000'), '--json']);
    assert.equal(unnamed.code, 2, unnamed.stderr);
    const error = errorObject(unnamed.stderr);
    assert.equal(error.code, 'name_required');
    assert.match(error.message, /needs the expected name \(--expect-name\) for account 0123456789, which is not a saved payee; nothing was sent/);
    assert.equal(setup.posts(), 0);

    // A wrong name: refused (exit 1); the same reference again without a name: refused (exit 2).
    const wrong = await setup.runInProcess(send('5000', '--reference', 'ACME-NAMED-1', '--expect-name', 'Ada Obi'));
    assert.equal(wrong.code, 1, wrong.stderr);
    assert.match(wrong.stderr, /belongs to "OKAFOR CHIAMAKA ADAEZE", not "Ada Obi"; nothing was sent/);
    const retry = await setup.runInProcess(send('5000', '--reference', 'ACME-NAMED-1'));
    assert.equal(retry.code, 2, retry.stderr);
    assert.match(retry.stderr, /reference ACME-NAMED-1 failed its name check at .* \(expected "Ada Obi", the bank says "OKAFOR CHIAMAKA ADAEZE"\)/);
    // Even with the policy's requirement removed, that reference goes only with a name.
    await setPolicy(setup, '--no-require-name');
    const stillRefused = await setup.runInProcess(send('5000', '--reference', 'acme-named-1'));
    assert.equal(stillRefused.code, 2, stillRefused.stderr);
    assert.equal(setup.posts(), 0);
    const named = await setup.runInProcess(send('5000', '--reference', 'ACME-NAMED-1', '--expect-name', 'okafor, chiamaka adaeze'));
    assert.equal(named.code, 0, named.stderr);
    assert.equal(setup.posts(), 1);

    // A saved payee's saved name is the check: by alias, or by its account and bank.
    await setPolicy(setup, '--require-name');
    assert.equal((await setup.runInProcess(['payees', 'add', 'landlord', '0123456789', '--bank', 'gtb'])).code, 0);
    const byAlias = await setup.runInProcess(['transfer', 'send', '--to', 'landlord', '--amount', '6000', '--narration', 'Rent', '-y']);
    assert.equal(byAlias.code, 0, byAlias.stderr);
    const byAccount = await setup.runInProcess(send('7000'));
    assert.equal(byAccount.code, 0, byAccount.stderr);
    assert.equal(setup.posts(), 3);
  });

  it('at a terminal the person confirming the shown name is the check', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--require-name');
    const args = send('5000').filter((arg) => arg !== '-y');
    const result = await setup.runInProcess(args, { tty: true, prompts: [{ prompt: /Send ₦5,000\.00 to OKAFOR CHIAMAKA ADAEZE/, answer: true }] });
    assert.equal(result.code, 0, stripAnsi(result.stdout));
    assert.equal(setup.posts(), 1);
  });

  it('a batch under --yes needs expect_name on rows that are not saved payees: none is sent without', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--require-name');
    const dir = setup.home.root;
    const unnamed = path.join(dir, 'unnamed.csv');
    writeFileSync(unnamed, 'account_number,bank,amount,narration\n0123456789,gtb,1000,Invoice 1\n0123456789,gtb,2000,Invoice 2\n');
    const refused = await setup.runInProcess(['transfer', 'batch', unnamed, '--yes', '--json']);
    assert.equal(refused.code, 2, refused.stderr);
    const error = errorObject(refused.stderr);
    assert.equal(error.code, 'name_required');
    assert.match(error.message, /^lines 2, 3: the payment policy needs the expected name \(an expect_name column\)/);
    assert.equal(setup.posts(), 0);
    const named = path.join(dir, 'named.csv');
    writeFileSync(
      named,
      'account_number,bank,amount,narration,expect_name\n0123456789,gtb,1000,Invoice 1,Okafor Chiamaka Adaeze\n0123456789,gtb,2000,Invoice 2,OKAFOR CHIAMAKA ADAEZE\n',
    );
    const sent = await setup.runInProcess(['transfer', 'batch', named, '--yes']);
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(setup.posts(), 2);
  });
});

describe('an approval stopped before its transfers left', () => {
  it('approving again sends only what the journal has never seen, once; --off removes the policy', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    const [request] = await requests(setup);
    // As if the process died right after recording the decision.
    changeSaved(setup, `UPDATE approval_requests SET status = 'approved' WHERE id = '${request!.id}'`);
    const resumed = await setup.runInProcess(['approvals', 'approve', request!.id], { tty: true, prompts: secretTyped(SECRET) });
    assert.equal(resumed.code, 0, stripAnsi(resumed.stdout));
    assert.match(stripAnsi(resumed.stdout), /approved earlier but 1 of its transfers never left/);
    assert.equal(setup.posts(), 1);
    assert.equal((await requests(setup))[0]!.decisions.length, 1, 'the person who finished it is recorded');
    const again = await setup.runInProcess(['approvals', 'approve', request!.id], { tty: true });
    assert.equal(again.code, 0);
    assert.equal(setup.posts(), 1);

    await setPolicy(setup, '--off');
    assert.equal((await setup.runInProcess(send('5000', '--allow-duplicate'))).code, 0);
    assert.equal(setup.posts(), 2);
  });
});

describe('approving within the hard limits', () => {
  it('a held transfer that would now pass the daily maximum is not approved, and the secret is not asked', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000', '--max-per-day', '10000');
    assert.equal((await setup.runInProcess(send('9000'))).code, 7);
    assert.equal((await setup.runInProcess(send('900'))).code, 0);
    assert.equal((await setup.runInProcess(send('900', '--allow-duplicate'))).code, 0);
    const [request] = await requests(setup);
    const result = await setup.runInProcess(['approvals', 'approve', request!.id], { tty: true });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 1, screen);
    assert.match(screen, /would pass the daily maximum of ₦10,000\.00.*₦1,800\.00 counts toward it.*₦8,200\.00 is left;\s+nothing\s+was\s+approved/s);
    assert.doesNotMatch(screen, /Consumer secret/);
    assert.equal(setup.posts(), 2);
    assert.equal((await requests(setup))[0]!.status, 'held');
  });
});

describe('the daily maximum across processes', () => {
  it('three concurrent sends that together pass it never all go', async () => {
    setup = await setUpTransfers({ latencyMs: 150 });
    await setPolicy(setup, '--max-per-day', '25000');
    const s = setup;
    const accounts = ['0123456789', '0234567891', '0345678912'];
    const results = await Promise.all(
      accounts.map((account) => s.runInProcess(['transfer', 'send', account, '--bank', 'gtb', '--amount', '10000', '--narration', 'race', '-y'])),
    );
    const codes = results.map((r) => r.code).sort();
    assert.deepEqual(codes, [0, 0, 1], results.map((r) => r.stderr).join('\n'));
    assert.equal(setup.posts(), 2);
    const refused = results.find((r) => r.code === 1)!;
    assert.match(refused.stderr, /daily maximum of ₦25,000\.00.*₦20,000\.00 counts toward it.*₦5,000\.00 is left/);
  });
});

describe('transfer batch under a policy', () => {
  it('sends the rows within it and holds the rest as one request (exit 7); a second run holds nothing again', async () => {
    setup = await setUpTransfers();
    assert.equal((await setup.runInProcess(['payees', 'add', 'ada', '0123456789', '--bank', 'gtb'])).code, 0);
    await setPolicy(setup, '--approval-above', '20000');
    const file = path.join(setup.home.root, 'pay.csv');
    writeFileSync(
      file,
      'payee,account_number,bank,amount,narration\nada,,,5000,Rent\n,0234567891,gtb,25000,Big\n,0345678912,gtb,1000,Small\n,0345678912,gtb,30000,Bigger\n',
    );
    const first = await setup.runInProcess(['transfer', 'batch', file, '--yes']);
    assert.equal(first.code, 7, first.stderr);
    assert.match(first.stderr, /^held: 2 of 4 transfers held for approval/m);
    assert.doesNotMatch(first.stderr, /^error:/m);
    assert.equal(setup.posts(), 2);
    const held = await requests(setup);
    assert.equal(held.length, 1, 'one request for the batch');
    assert.deepEqual(
      held[0]!.transfers.map((t) => t.amount),
      ['25000.00', '30000.00'],
    );
    const report = readFileSync(`${file}.report.csv`, 'utf8');
    assert.equal(report.split('\n').filter((line) => /,held,/.test(line)).length, 2, report);

    const second = await setup.runInProcess(['transfer', 'batch', file, '--yes']);
    assert.equal(second.code, 7, second.stderr);
    assert.equal(setup.posts(), 2);
    assert.equal((await requests(setup)).length, 1);

    const approved = await setup.runInProcess(['approvals', 'approve', held[0]!.id], { tty: true, prompts: secretTyped(SECRET) });
    assert.equal(approved.code, 0, stripAnsi(approved.stdout));
    assert.equal(setup.posts(), 4);
    // The file's third run finds every row paid.
    const third = await setup.runInProcess(['transfer', 'batch', file, '--yes']);
    assert.equal(third.code, 0, third.stderr);
    assert.equal(setup.posts(), 4);
  });
});

describe('approvals show: the decision as a person reads it', () => {
  it('the decision time reads like every other time at a terminal, ISO when piped', async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    const [request] = await requests(setup);
    assert.equal((await setup.runInProcess(['approvals', 'reject', request!.id, '--reason', 'wrong invoice'])).code, 0);
    const [decision] = (await requests(setup))[0]!.decisions;

    const screen = stripAnsi((await setup.runInProcess(['approvals', 'show', request!.id], { tty: true, columns: 80 })).stdout);
    assert.match(screen, /^Decided +rejected by \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} WAT \(wrong invoice\)\s*$/m, screen);
    assert.doesNotMatch(screen, /\d{2}:\d{2}:\d{2}\.\d{3}Z/, 'no raw ISO time at a terminal');
    const piped = await setup.runInProcess(['approvals', 'show', request!.id]);
    assert.match(piped.stdout, new RegExp(`rejected by \\S+ at ${decision!.at.replaceAll('.', '\\.')} \\(wrong invoice\\)`));

    // The messages about an earlier decision give its time the same way.
    const again = await setup.runInProcess(['approvals', 'reject', request!.id]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /was rejected by \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} WAT \(wrong invoice\); nothing was changed/);
    const approve = await setup.runInProcess(['approvals', 'approve', request!.id], { tty: true, columns: 80 });
    assert.equal(approve.code, 1);
    // At 80 columns the error wraps at a space (src/ui/error-lines.ts).
    assert.match(stripAnsi(approve.stdout), /was rejected by \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+WAT\s+\(wrong\s+invoice\);\s+nothing\s+was\s+sent/);
  });
});

describe('approvals show: what became of each transfer', () => {
  type Shown = { status: string; transfers: Array<{ reference: string; outcome: string }> };
  const shownJson = async (s: TransferSetup, id: string): Promise<Shown> => {
    const result = await s.runInProcess(['approvals', 'show', id, '--json']);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as Shown;
  };
  /** The OUTCOME of each transfer line of the piped view (the table after the record's two lines). */
  const shownTsv = async (s: TransferSetup, id: string): Promise<string[]> => {
    const result = await s.runInProcess(['approvals', 'show', id]);
    assert.equal(result.code, 0, result.stderr);
    const [header, ...rows] = result.stdout.trimEnd().split('\n\n')[1]!.split('\n');
    const at = header!.split('\t').indexOf('OUTCOME');
    assert.ok(at >= 0, header);
    return rows.map((row) => row.split('\t')[at]!);
  };

  it("held while waiting, then the journal's outcome once sent (as transfer log says it); not-sent when rejected", async () => {
    setup = await setUpTransfers();
    await setPolicy(setup, '--approval-above', '1000');
    assert.equal((await setup.runInProcess(send('5000'))).code, 7);
    assert.equal((await setup.runInProcess(send('6000'))).code, 7);
    const [first, second] = await requests(setup);

    assert.deepEqual(
      (await shownJson(setup, first!.id)).transfers.map((t) => t.outcome),
      ['held'],
    );
    assert.deepEqual(await shownTsv(setup, first!.id), ['held']);
    const screen = stripAnsi((await setup.runInProcess(['approvals', 'show', first!.id], { tty: true, columns: 80 })).stdout);
    assert.match(screen, /^REFERENCE .*OUTCOME$/m, 'never dropped for width');

    const approved = await setup.runInProcess(['approvals', 'approve', first!.id], { tty: true, prompts: secretTyped(SECRET) });
    assert.equal(approved.code, 0, stripAnsi(approved.stdout));
    const log = JSON.parse((await setup.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ reference: string; outcome: string }>;
    const logged = log.find((t) => t.reference === first!.transfers[0]!.reference);
    assert.ok(logged && ['pending', 'successful'].includes(logged.outcome), JSON.stringify(log));
    assert.deepEqual(
      (await shownJson(setup, first!.id)).transfers.map((t) => t.outcome),
      [logged!.outcome],
    );
    assert.deepEqual(await shownTsv(setup, first!.id), [logged!.outcome]);

    assert.equal((await setup.runInProcess(['approvals', 'reject', second!.id])).code, 0);
    // The batch report's word for a transfer that never left, not "not sent".
    assert.deepEqual(
      (await shownJson(setup, second!.id)).transfers.map((t) => t.outcome),
      ['not-sent'],
    );
    assert.deepEqual(await shownTsv(setup, second!.id), ['not-sent']);
    assert.equal(setup.posts(), 1);
  });
});
