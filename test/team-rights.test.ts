// Rights on a team store (src/store/team-rights.ts) against a real PostgreSQL (test/helpers/postgres.ts),
// one login role per member, made by the server's superuser as a database administrator would: the
// member who first opens the empty database it owns becomes its owner and grants the others their
// rights; PostgreSQL itself refuses what a right does not allow, to fsapi and to a client of the member's
// own login alike; who acted is the login of the session, whatever FSAPI_OPERATOR says. Each member's
// password reaches its runs as PGPASSWORD, never in a URL.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { errorObject, makeHome, stripAnsi, type KeyAnswer, type RunResult } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { connectTo, postgresForThisFile } from './helpers/postgres.js';
import { sendArgs as send, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { teamRoleNames } from '../src/store/team-rights.js';
import { POSTGRES_SCHEMA_VERSION } from '../src/store/postgres-schema.js';

const postgres = postgresForThisFile('rights');
const secretTyped: KeyAnswer[] = [['Consumer secret', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]];

interface Member {
  login: string;
  password: string;
  env: Record<string, string>;
  /** A client of this member's own login, as psql would be. */
  client(): Promise<pg.Client>;
}

interface Team {
  s: TransferSetup;
  database: string;
  ada: Member;
  bola: Member;
  chidi: Member;
  run(member: Member, args: string[], tty?: boolean): Promise<RunResult>;
  close(): Promise<void>;
}

let made = 0;

/**
 * A database owned by ada (who may make roles, as a team lead on a managed PostgreSQL may), and two more
 * members, bola and chidi, with logins of their own and no right yet. The simulator is the one API account.
 */
async function team(): Promise<Team> {
  made += 1;
  const server = postgres.server();
  const database = `rights${made}`;
  const admin = await connectTo(server, server.url);
  const members: Member[] = [];
  try {
    for (const name of ['ada', 'bola', 'chidi']) {
      const login = `${name}_${made}`;
      const password = `pw-${name}-${made}`;
      await admin.query(`CREATE ROLE ${login} LOGIN PASSWORD '${password}'${name === 'ada' ? ' CREATEROLE' : ''}`);
      const url = `postgres://${login}@127.0.0.1:${server.port}/${database}`;
      members.push({
        login,
        password,
        env: { FSAPI_STORE: url, PGPASSWORD: password },
        client: async () => {
          const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: login, password, database });
          await client.connect();
          return client;
        },
      });
    }
    await admin.query(`CREATE DATABASE ${database} OWNER ${members[0]!.login}`);
  } finally {
    await admin.end();
  }
  const s = await setUpTransfers();
  // Each member on a machine of their own (a home: config and data dirs), logged in to the one account.
  const homes = [undefined, makeHome(), makeHome()];
  const account = { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey };
  for (const [i, member] of members.entries()) {
    const home = homes[i];
    const env: Record<string, string> = home ? { ...home.env } : { ...s.env };
    if (home) await logInToSimulator(env, s.server.url);
    Object.assign(member.env, env, account);
  }
  const [ada, bola, chidi] = members as [Member, Member, Member];
  return {
    s,
    database,
    ada,
    bola,
    chidi,
    run: (member, args, tty = false) => s.run(args, tty ? { env: member.env, tty: true, keys: secretTyped } : { env: member.env }),
    close: async () => {
      for (const home of homes) home?.cleanup();
      await s.close();
    },
  };
}

const json = <T>(result: RunResult): T => {
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as T;
};

async function refusedBy(client: pg.Client, sql: string): Promise<string> {
  try {
    await client.query(sql);
  } catch (error) {
    return String((error as { code?: string }).code);
  }
  return 'accepted';
}

describe('team store rights: one login per member, enforced by PostgreSQL', { timeout: 180_000 }, () => {
  it('the first member becomes owner; a sender cannot change the policy or payees, with psql or fsapi; its sends carry its login', async () => {
    const t = await team();
    try {
      // Ada opens the empty database she owns first: the store is made, the rights set up, ada its owner.
      const used = await t.run(t.ada, ['store', 'use', t.ada.env.FSAPI_STORE!], true);
      assert.equal(used.code, 0, stripAnsi(used.stdout));
      assert.match(stripAnsi(used.stdout), new RegExp(`you act there as ${t.ada.login}, with the owner right`));
      const status = json<{ login: string; right: string; rightsSetUp: boolean; schemaVersion: number }>(await t.run(t.ada, ['store', 'status', '--json']));
      assert.deepEqual([status.login, status.right, status.rightsSetUp, status.schemaVersion], [t.ada.login, 'owner', true, POSTGRES_SCHEMA_VERSION]);

      // Bola has a login and no right: the store refuses her, naming the right and who grants it.
      const none = await t.run(t.bola, ['transfer', 'log', '--json']);
      assert.equal(none.code, 1, none.stderr);
      assert.equal(errorObject(none.stderr).code, 'store_permission_denied');
      assert.match(errorObject(none.stderr).hint ?? '', new RegExp(`fsapi store grant ${t.bola.login} viewer`));

      const granted = json<{ role: string; right: string; before: string | null }>(await t.run(t.ada, ['store', 'grant', t.bola.login, 'sender', '--json']));
      assert.deepEqual([granted.role, granted.right, granted.before], [t.bola.login, 'sender', null]);
      const bolaStatus = json<{ login: string; right: string }>(await t.run(t.bola, ['store', 'status', '--json']));
      assert.deepEqual([bolaStatus.login, bolaStatus.right], [t.bola.login, 'sender']);

      // PostgreSQL refuses bola's own login what a sender may not do (SQLSTATE 42501), whoever asks.
      const bola = await t.bola.client();
      try {
        assert.equal(await refusedBy(bola, 'UPDATE policies SET max_per_day_kobo = 1'), '42501');
        assert.equal(
          await refusedBy(
            bola,
            `INSERT INTO payees (profile, base_url, alias_key, alias, account_number, bank_code, bank_name, account_name, added_at, added_by)
             VALUES ('p', 'b', 'x', 'x', '0123456789', '000013', 'GTB', 'X', 'now', 'bola')`,
          ),
          '42501',
        );
        assert.equal(await refusedBy(bola, 'DELETE FROM journal'), '42501');
        assert.equal(await refusedBy(bola, `UPDATE store_identity SET id = 'ts-mine'`), '42501');
        assert.equal(await refusedBy(bola, `GRANT ${teamRoleNames(t.database).owner} TO ${t.bola.login}`), '42501');
      } finally {
        await bola.end();
      }
      // And through fsapi: refused before anything is asked, with the documented code.
      const policy = await t.run(t.bola, ['policy', 'set', '--max-per-day', '5000', '--json']);
      assert.equal(policy.code, 1, policy.stderr);
      const refusal = errorObject(policy.stderr);
      assert.equal(refusal.code, 'store_permission_denied');
      assert.match(refusal.message, /changing the payment policy needs the owner right/);
      assert.match(refusal.hint ?? '', new RegExp(`fsapi store grant ${t.bola.login} owner`));
      const grant = await t.run(t.bola, ['store', 'grant', t.chidi.login, 'owner', '--json']);
      assert.equal(grant.code, 1, grant.stderr);
      assert.equal(errorObject(grant.stderr).code, 'store_permission_denied');

      // The owner sets the policy; bola sends under it, her FSAPI_OPERATOR a lie: the record names her login.
      const set = await t.run(t.ada, ['policy', 'set', '--approval-above', '1000'], true);
      assert.equal(set.code, 0, stripAnsi(set.stdout));
      const lie = { ...t.bola, env: { ...t.bola.env, FSAPI_OPERATOR: t.ada.login } };
      const sent = await t.run(lie, send('500'));
      assert.equal(sent.code, 0, sent.stderr);
      const held = await t.run(lie, [...send('5000'), '--json']);
      assert.equal(held.code, 7, held.stderr);
      assert.equal(t.s.posts(), 1);

      const log = json<Array<{ amount: string; operator: string; actor: string }>>(await t.run(t.ada, ['transfer', 'log', '--json']));
      assert.deepEqual(
        log.map((x) => [x.amount, x.actor, x.operator]),
        [['500.00', t.bola.login, `${t.bola.login} (${t.ada.login})`]],
      );
      const owner = await connectTo(postgres.server(), postgres.server().url.replace(/\/fsapi$/, `/${t.database}`));
      try {
        const intents = await owner.query("SELECT actor FROM journal WHERE type = 'intent'");
        assert.deepEqual(
          intents.rows.map((r) => r.actor),
          [t.bola.login],
        );
        const policyRow = await owner.query('SELECT actor FROM policies');
        assert.deepEqual(
          policyRow.rows.map((r) => r.actor),
          [t.ada.login],
        );
      } finally {
        await owner.end();
      }
      const requests = json<Array<{ id: string; createdBy: string; actor: string }>>(await t.run(t.ada, ['approvals', 'list', '--json']));
      assert.deepEqual(
        requests.map((r) => [r.actor, r.createdBy]),
        [[t.bola.login, `${t.bola.login} (${t.ada.login})`]],
      );
      const shown = json<{ updatedBy: string; actor: string }>(await t.run(t.bola, ['policy', 'show', '--json']));
      assert.equal(shown.actor, t.ada.login);
      assert.ok(shown.updatedBy.startsWith(`${t.ada.login} (`), shown.updatedBy);

      // A sender approves nothing: not through fsapi, not with its own login (row-level security).
      const approve = await t.run(t.bola, ['approvals', 'approve', requests[0]!.id, '--json']);
      assert.equal(approve.code, 1, approve.stderr);
      assert.equal(errorObject(approve.stderr).code, 'store_permission_denied');
      const bolaAgain = await t.bola.client();
      try {
        assert.equal(await refusedBy(bolaAgain, `UPDATE approval_requests SET status = 'approved' WHERE id = '${requests[0]!.id}'`), '42501');
      } finally {
        await bolaAgain.end();
      }
      assert.equal(t.s.posts(), 1);
    } finally {
      await t.close();
    }
  });

  it('a viewer cannot send; an approver approves, recorded as itself; revoke takes the right back', async () => {
    const t = await team();
    try {
      const first = await t.run(t.ada, ['transfer', 'log', '--json']);
      assert.equal(first.code, 0, first.stderr);
      assert.equal((await t.run(t.ada, ['store', 'grant', t.bola.login, 'sender'])).code, 0);
      assert.equal((await t.run(t.ada, ['store', 'grant', t.chidi.login, 'viewer'])).code, 0);
      assert.equal((await t.run(t.ada, ['policy', 'set', '--approval-above', '1000'], true)).code, 0);

      // The viewer reads, and is refused the send before anything leaves: the intent is refused by the store.
      assert.equal((await t.run(t.chidi, ['transfer', 'log', '--json'])).code, 0);
      const viewerSend = await t.run(t.chidi, [...send('300'), '--json']);
      assert.equal(viewerSend.code, 1, viewerSend.stderr);
      assert.equal(errorObject(viewerSend.stderr).code, 'store_permission_denied');
      assert.match(errorObject(viewerSend.stderr).message, /recording a transfer needs the sender right/);
      assert.equal(t.s.posts(), 0, 'nothing sent');

      const held = await t.run(t.bola, [...send('5000'), '--json']);
      assert.equal(held.code, 7, held.stderr);
      const id = json<Array<{ id: string }>>(await t.run(t.chidi, ['approvals', 'list', '--json']))[0]!.id;

      // Chidi made approver: his approval sends it, and the decision and the intent are his.
      const upgraded = json<{ before: string }>(await t.run(t.ada, ['store', 'grant', t.chidi.login, 'approver', '--json']));
      assert.equal(upgraded.before, 'viewer');
      const approved = await t.run(t.chidi, ['approvals', 'approve', id], true);
      assert.equal(approved.code, 0, stripAnsi(approved.stdout));
      assert.equal(t.s.posts(), 1);
      const request = json<{ actor: string; decisions: Array<{ actor: string }> }>(await t.run(t.bola, ['approvals', 'show', id, '--json']));
      assert.equal(request.actor, t.bola.login);
      assert.deepEqual(
        request.decisions.map((d) => d.actor),
        [t.chidi.login],
      );
      const log = json<Array<{ actor: string }>>(await t.run(t.bola, ['transfer', 'log', '--json']));
      assert.deepEqual(
        log.map((x) => x.actor),
        [t.chidi.login],
      );

      // Revoked: bola's login reads nothing more; the last owner is never revoked.
      const revoked = json<{ before: string }>(await t.run(t.ada, ['store', 'revoke', t.bola.login, '--json']));
      assert.equal(revoked.before, 'sender');
      const after = await t.run(t.bola, ['transfer', 'log', '--json']);
      assert.equal(after.code, 1, after.stderr);
      assert.equal(errorObject(after.stderr).code, 'store_permission_denied');
      const last = await t.run(t.ada, ['store', 'revoke', t.ada.login, '--json']);
      assert.equal(last.code, 1, last.stderr);
      assert.match(errorObject(last.stderr).message, /only owner/);
    } finally {
      await t.close();
    }
  });
});
