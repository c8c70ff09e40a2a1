// The output schema of every tool: what its structured content is, so a client can check it (the SDK's
// Client does, on every call) and a model knows the fields before it calls. Every result has
// `environment`; a failed call is `{error: {code, message, hint, exitCode}}`; a list is `items` and
// `nextCursor`. The API's data is described by the one schema module (src/api/schemas.ts, the tolerant
// "as read" shapes: its objects stay open, since the API may add fields), as the agent gets it
// (src/agents/results.ts): money as text, no identity numbers. fsapi's own records are described here,
// by the fields the commands write (the commands' --json, docs/scripting.md).
import * as z from 'zod/mini';
import {
  bankAsRead,
  clientEnquiryAsRead,
  clientListItemAsRead,
  nameEnquiryResultAsRead,
  primaryAccountAsRead,
  transactionRecordAsRead,
  transferResultAsRead,
  tsqResultAsRead,
} from '../api/schemas.js';
import { isIdentityKey, isMoneyKey } from './results.js';
import { toolName, type AgentTool, type JsonSchema } from './tools.js';

const text: JsonSchema = { type: 'string' };
const textOrNull: JsonSchema = { type: ['string', 'null'] };
const money: JsonSchema = { type: 'string', description: 'naira as two-decimal text, e.g. "1500.00"' };
const moneyOrNull: JsonSchema = { type: ['string', 'null'], description: 'naira as two-decimal text, or null' };
const integer: JsonSchema = { type: 'integer' };
const boolean: JsonSchema = { type: 'boolean' };

/** An object with these fields (others may be there too: fsapi adds fields, never takes them away). */
const object = (required: readonly string[], properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required: [...required], properties });

/** An API shape as the agent gets it: money text (or null where the API may leave it out), no identity numbers. */
function fromApi(schema: z.ZodMiniType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return asAgentGetsIt(json);
}

function asAgentGetsIt(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties) return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (isIdentityKey(key)) continue;
    if (isMoneyKey(key)) {
      const types = ([] as unknown[]).concat(property.type ?? []);
      kept[key] = types.includes('null') || !(schema.required as string[] | undefined)?.includes(key) ? moneyOrNull : money;
    } else {
      kept[key] = asAgentGetsIt(property);
    }
  }
  const required = (schema.required as string[] | undefined)?.filter((key) => !isIdentityKey(key));
  return { ...schema, properties: kept, ...(required ? { required } : {}) };
}

/** A list: its items, and where the next page starts. */
const list = (item: JsonSchema, more: Record<string, JsonSchema> = {}, moreRequired: readonly string[] = []): JsonSchema =>
  object(['items', 'nextCursor', ...moreRequired], { items: { type: 'array', items: item }, nextCursor: textOrNull, ...more });

/** One page of the API's (tx_list, clients_list: src/agents/pages.ts). */
const apiPage = (item: JsonSchema) =>
  list(item, { page: integer, limit: integer, received: integer, nextPage: { type: ['integer', 'null'] } }, ['page', 'limit', 'received', 'nextPage']);

const heldTransfer = object(['reference', 'accountNumber', 'bankCode', 'accountName', 'amount', 'reasons'], {
  reference: text,
  accountNumber: text,
  bankCode: text,
  bankName: text,
  accountName: text,
  amount: money,
  narration: text,
  reasons: { type: 'array', items: text },
});

/** The labels an act came with (src/transfers/asker.ts viaJson): the MCP client, the person behind sudo. Not proof. */
const via: JsonSchema = {
  type: ['object', 'null'],
  description: 'labels, not proof: the MCP client and the person behind sudo it came through',
  properties: {
    client: { type: ['object', 'null'], properties: { name: text, version: text } },
    sudoUser: textOrNull,
    sudoUid: { type: ['integer', 'null'] },
  },
};

/** One decision on a request. */
const decision = object(['decision', 'by', 'at'], {
  decision: { type: 'string', enum: ['approved', 'rejected', 'withdrawn'] },
  by: text,
  actor: { ...textOrNull, description: 'who decided as the store tells: the database login on a team store, the OS user here' },
  at: text,
  reason: textOrNull,
  via,
});

/** An approval request (src/controls/policy.ts requestJson). */
const request = object(['id', 'status', 'createdAt', 'createdBy', 'total', 'transfers', 'decisions'], {
  id: text,
  status: { type: 'string', enum: ['held', 'approved', 'rejected', 'withdrawn'] },
  profile: text,
  createdAt: text,
  createdBy: text,
  actor: { ...textOrNull, description: 'who asked as the store tells: the database login on a team store, the OS user and host here' },
  via,
  fourEyes: { ...boolean, description: 'approvals_show: the policy approves only by someone other than who asked' },
  mayNotApprove: { ...textOrNull, description: 'approvals_show: under four eyes, who may not approve it' },
  origin: text,
  total: money,
  transfers: { type: 'array', items: heldTransfer },
  decisions: { type: 'array', items: decision },
});

/** transfer_send called again with a reference it sent before (src/agents/send.ts answerSent). */
const repeated = object(['reference', 'repeated', 'outcome', 'amount', 'accountNumber', 'bankCode', 'accountName'], {
  reference: text,
  repeated: { const: true },
  outcome: text,
  status: textOrNull,
  amount: money,
  accountNumber: text,
  bankCode: text,
  bankName: text,
  accountName: text,
  narration: text,
  sentAt: text,
  message: textOrNull,
});

const countAndTotal = object(['count', 'total'], { count: integer, total: money });

const SUCCESS: Record<string, () => JsonSchema> = {
  account: () => fromApi(primaryAccountAsRead),
  banks: () => list(fromApi(bankAsRead)),
  enquiry: () => fromApi(nameEnquiryResultAsRead),
  tx_list: () => apiPage(fromApi(transactionRecordAsRead)),
  tx_get: () => fromApi(transactionRecordAsRead),
  transfer_status: () => fromApi(transactionRecordAsRead),
  transfer_log: () =>
    list(
      object(['reference', 'sentAt', 'accountNumber', 'accountName', 'bankCode', 'amount', 'outcome'], {
        sentAt: text,
        reference: text,
        accountNumber: text,
        accountName: text,
        bankCode: text,
        bankName: text,
        amount: money,
        narration: text,
        operator: textOrNull,
        via,
        outcome: text,
        status: textOrNull,
        message: textOrNull,
      }),
    ),
  transfer_receipt: () =>
    object(['reference', 'status', 'sessionId', 'amount', 'amountInWords', 'charge', 'payer', 'payee'], {
      reference: text,
      status: text,
      sessionId: text,
      amount: money,
      amountInWords: text,
      charge: money,
      payer: object(['name', 'accountNumber'], { name: text, accountNumber: text, bankName: text }),
      payee: object(['name', 'accountNumber', 'bankCode', 'verified'], { name: text, accountNumber: text, bankName: text, bankCode: text, verified: boolean }),
      narration: text,
      time: textOrNull,
      readAt: text,
    }),
  tsq: () => fromApi(tsqResultAsRead),
  statement: () =>
    object(['since', 'until', 'openingBalance', 'closingBalance', 'credits', 'debits', 'days'], {
      since: text,
      until: text,
      openingBalance: money,
      closingBalance: money,
      credits: countAndTotal,
      debits: countAndTotal,
      charges: money,
      stampDuty: money,
      net: money,
      days: {
        type: 'array',
        items: object(['date', 'credits', 'debits', 'balance'], { date: text, credits: countAndTotal, debits: countAndTotal, net: money, balance: money }),
      },
    }),
  collections: () =>
    list(
      object(['accountNumber', 'accountName', 'count', 'total'], {
        accountNumber: text,
        accountName: text,
        count: integer,
        total: money,
        first: text,
        last: text,
      }),
    ),
  reconcile: () =>
    object(['since', 'until', 'journal', 'api', 'agrees', 'findings'], {
      since: text,
      until: text,
      journal: countAndTotal,
      api: countAndTotal,
      agrees: boolean,
      findings: { type: 'array', items: object(['kind'], { kind: text, reference: text }) },
    }),
  clients_list: () => apiPage(fromApi(clientListItemAsRead)),
  clients_get: () => fromApi(clientEnquiryAsRead),
  payees_list: () =>
    list(
      object(['alias', 'accountNumber', 'bankCode', 'accountName'], {
        alias: text,
        accountNumber: text,
        bankCode: text,
        bankName: text,
        accountName: text,
        addedAt: text,
        addedBy: text,
      }),
    ),
  policy_show: () =>
    object(['maxPerTransfer', 'maxPerDay', 'approvalAbove', 'payeesOnly', 'countedToday', 'leftToday'], {
      profile: text,
      maxPerTransfer: moneyOrNull,
      maxPerDay: moneyOrNull,
      approvalAbove: moneyOrNull,
      payeesOnly: boolean,
      requireName: { ...boolean, description: 'transfer_send needs expectName for an account that is not a saved payee' },
      fourEyes: { ...boolean, description: 'a held request is approved only by someone other than who asked' },
      timeZone: textOrNull,
      countedToday: money,
      leftToday: moneyOrNull,
      actingAs: object(['name', 'kind'], { name: text, kind: { type: 'string', enum: ['database login', 'OS user'] } }),
    }),
  approvals_list: () => list(request),
  approvals_show: () => request,
  approvals_withdraw: () => request,
  transfer_preview: () =>
    object(['decision', 'wouldSend', 'reasons', 'accountNumber', 'accountName', 'bankCode', 'bankName', 'amount', 'charge', 'policy', 'today', 'sent'], {
      decision: { type: 'string', enum: ['send', 'hold', 'refuse', 'repeat'] },
      wouldSend: boolean,
      reasons: { type: 'array', items: text },
      accountNumber: text,
      accountName: { ...text, description: 'the name the name enquiry verified' },
      bankCode: text,
      bankName: text,
      amount: money,
      charge: { ...moneyOrNull, description: 'null: the API states the charge only in its answer to the transfer (chargeNote)' },
      chargeNote: text,
      availableBalance: moneyOrNull,
      nameCheck: { type: ['object', 'null'] },
      duplicates: { type: 'array' },
      reference: { type: ['object', 'null'] },
      policy: {
        type: ['object', 'null'],
        properties: {
          maxPerTransfer: moneyOrNull,
          maxPerDay: moneyOrNull,
          approvalAbove: moneyOrNull,
          payeesOnly: boolean,
          requireName: boolean,
          fourEyes: boolean,
          timeZone: text,
        },
      },
      today: {
        type: ['object', 'null'],
        properties: { countedToday: money, maxPerDay: moneyOrNull, leftToday: moneyOrNull, leftAfterThis: moneyOrNull },
      },
      sent: { const: false },
    }),
  // Sent: the API's answer to the transfer (or, when that answer was lost, the transaction found by
  // reference); held: the request; sent before under this reference: what became of it.
  transfer_send: () => ({ anyOf: [fromApi(transferResultAsRead), fromApi(transactionRecordAsRead), request, repeated] }),
};

const ENVIRONMENT: JsonSchema = { type: 'string', enum: ['simulator', 'sandbox', 'production'], description: 'only production moves real money' };

/** A failed call: the CLI's `--json` error object, in the tool's words. */
const FAILED = object(['error'], {
  error: object(['code', 'message', 'hint', 'exitCode'], { code: text, message: text, hint: textOrNull, exitCode: integer }),
  output: { type: 'object' },
});

const built = new Map<string, JsonSchema>();

/** The tool's output schema: its success, or a failure, each with the environment. */
export function outputSchemaOf(tool: AgentTool): JsonSchema {
  const name = toolName(tool);
  const kept = built.get(name);
  if (kept) return kept;
  const success = SUCCESS[name];
  if (!success) throw new Error(`no output schema for the tool ${name}`);
  const schema = { type: 'object', required: ['environment'], properties: { environment: ENVIRONMENT }, anyOf: [success(), FAILED] };
  built.set(name, schema);
  return schema;
}
