// fsapi mcp: the Model Context Protocol server (src/agents/server.ts). This file is its allow-list: which
// commands are tools, what each may be given, and what MCP is told each does. Everything not here is no
// tool: no approving or rejecting (withdrawing a request of its own is the one decision an agent makes), no
// policy or payee changes, no login or logout, no token, no raw API request, no batch file (a path an agent
// names would reach the server user's files).
// The server and the SDK are loaded only here, when `fsapi mcp` runs: never by --help or other commands.
import type { Context } from '../context.js';
import { ExitCode, FsapiError } from '../errors.js';
import { colors, printJson } from '../ui/output.js';
import { wrapText } from '../ui/table-layout.js';
import { run } from '../commands/run.js';
import { mcpSpec } from '../commands/top/mcp.spec.js';
import type { AgentTool, ToolAnnotations } from './tools.js';
import { accountSpec } from '../commands/top/account.spec.js';
import { banksSpec } from '../commands/top/banks.spec.js';
import { enquirySpec } from '../commands/top/enquiry.spec.js';
import { tsqSpec } from '../commands/top/tsq.spec.js';
import { statementSpec } from '../commands/top/statement.spec.js';
import { collectionsSpec } from '../commands/top/collections.spec.js';
import { reconcileSpec } from '../commands/top/reconcile.spec.js';
import { listSpec as txListSpec } from '../commands/tx/list.spec.js';
import { getSpec as txGetSpec } from '../commands/tx/get.spec.js';
import { statusSpec as transferStatusSpec } from '../commands/transfer/status.spec.js';
import { logSpec as transferLogSpec } from '../commands/transfer/log.spec.js';
import { receiptSpec as transferReceiptSpec } from '../commands/transfer/receipt.spec.js';
import { sendSpec as transferSendSpec } from '../commands/transfer/send.spec.js';
import { listSpec as clientsListSpec } from '../commands/clients/list.spec.js';
import { getSpec as clientsGetSpec } from '../commands/clients/get.spec.js';
import { listSpec as payeesListSpec } from '../commands/payees/list.spec.js';
import { showSpec as policyShowSpec } from '../commands/policy/show.spec.js';
import { listSpec as approvalsListSpec } from '../commands/approvals/list.spec.js';
import { showSpec as approvalsShowSpec } from '../commands/approvals/show.spec.js';
import { withdrawSpec as approvalsWithdrawSpec } from '../commands/approvals/withdraw.spec.js';

/** Asks the bank's API and changes nothing (what it learns may be recorded in fsapi's own journal). */
const readsApi: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** Reads fsapi's own records on this machine only. */
const readsRecords: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Output formats other than --json, files written, other profiles: never a tool's input. */
const CSV = ['csv'];

export const agentTools: readonly AgentTool[] = [
  { spec: accountSpec, annotations: readsApi, load: () => import('../commands/account.js') },
  { spec: banksSpec, annotations: readsApi, load: () => import('../commands/banks.js'), withheld: CSV, list: true },
  { spec: enquirySpec, annotations: readsApi, load: () => import('../commands/enquiry.js'), required: ['accountNumber', 'bank'] },
  // One page of the API's a call (`all` would collect every page): `nextPage` goes on.
  {
    spec: txListSpec,
    annotations: readsApi,
    load: () => import('../commands/tx/list.js'),
    withheld: ['csv', 'all'],
    list: true,
    run: async (ctx, module, options) => (await import('./pages.js')).transactionsPage(ctx, module, options),
  },
  { spec: txGetSpec, annotations: readsApi, load: () => import('../commands/tx/get.js') },
  // Every call answers at once (clients time a call out after about a minute, and calls take turns):
  // an agent follows a transfer by asking again, not with --wait.
  { spec: transferStatusSpec, annotations: readsApi, load: () => import('../commands/transfer/status.js'), withheld: ['wait', 'waitTimeout'] },
  // --refresh asks the API; without it the log is local.
  { spec: transferLogSpec, annotations: readsApi, load: () => import('../commands/transfer/log.js'), withheld: ['csv', 'jsonl', 'allProfiles'], list: true },
  // No file written on the server's disk: with `pdf: true` the receipt's PDF is in the result itself.
  {
    spec: transferReceiptSpec,
    annotations: readsApi,
    load: () => import('../commands/transfer/receipt.js'),
    withheld: ['pdf'],
    inputs: { pdf: { schema: { type: 'boolean', description: 'also give the receipt as a PDF document (application/pdf, base64) in the result' } } },
    run: async (ctx, module, options, args, call) => (await import('./receipt.js')).receiptForAgent(ctx, module, options, args, call),
  },
  { spec: tsqSpec, annotations: readsApi, load: () => import('../commands/tsq.js') },
  { spec: statementSpec, annotations: readsApi, load: () => import('../commands/statement.js'), withheld: ['csv', 'transactions', 'pdf'] },
  { spec: collectionsSpec, annotations: readsApi, load: () => import('../commands/collections.js'), withheld: CSV, list: true },
  { spec: reconcileSpec, annotations: readsApi, load: () => import('../commands/reconcile.js') },
  {
    spec: clientsListSpec,
    annotations: readsApi,
    load: () => import('../commands/clients/list.js'),
    withheld: ['csv', 'all'],
    list: true,
    run: async (ctx, module, options) => (await import('./pages.js')).clientsPage(ctx, module, options),
  },
  { spec: clientsGetSpec, annotations: readsApi, load: () => import('../commands/clients/get.js') },
  { spec: payeesListSpec, annotations: readsRecords, load: () => import('../commands/payees/list.js'), withheld: CSV, list: true },
  { spec: policyShowSpec, annotations: readsRecords, load: () => import('../commands/policy/show.js') },
  { spec: approvalsListSpec, annotations: readsRecords, load: () => import('../commands/approvals/list.js'), list: true },
  { spec: approvalsShowSpec, annotations: readsRecords, load: () => import('../commands/approvals/show.js') },
  // The agent takes back a request it asked for (the same actor: this server's user), while it is held.
  // It only narrows what may be paid: a withdrawn request is never approved or sent. Again is no failure.
  {
    spec: approvalsWithdrawSpec,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    load: () => import('../commands/approvals/withdraw.js'),
    description: 'withdraw a request held for approval that this server asked for (transfer_send held it): it is then never approved or sent',
    note:
      "Only while it is held, and only a request made by this server's user (the same OS user, or the same database login on a team store); " +
      'the result is the request, status withdrawn. Withdrawing it again answers the same',
  },
  {
    name: 'transfer_preview',
    spec: transferSendSpec,
    // It asks the API (the account, the bank list, the name enquiry) and records nothing.
    annotations: readsApi,
    load: () => import('../commands/transfer/send.js'),
    withheld: ['yes', 'allowDuplicate', 'wait', 'waitTimeout'],
    required: ['amount'],
    requiredOneOf: [['accountNumber', 'bank'], ['to']],
    description:
      'what transfer_send would do with these arguments, and nothing sent: the verified name (name enquiry), the bank, ' +
      'the amount, the charge if known, whether the payment policy would send it, hold it for a person or refuse it and why, ' +
      'and what is left of the day',
    note: 'Give it what you would give transfer_send (reference and narration may be left out). It sends nothing, holds nothing and records nothing',
    run: async (ctx, module, options, args) => (await import('./preview.js')).previewForAgent(ctx, module, options, args),
  },
  {
    spec: transferSendSpec,
    // Money leaves and does not come back; the same reference again pays nothing more (idempotent).
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    load: () => import('../commands/transfer/send.js'),
    // No terminal to confirm on: the policy is the confirmation. The duplicate guard stays on (a second
    // payment of the same amount to the same account within 10 minutes is refused); no --wait, as for
    // transfer_status.
    implied: { yes: true },
    withheld: ['allowDuplicate', 'wait', 'waitTimeout'],
    required: ['amount', 'narration', 'reference'],
    requiredOneOf: [['accountNumber', 'bank'], ['to']],
    description: 'verify the receiver by name enquiry, then send one transfer exactly once, within the payment policy',
    note:
      'Pays only within the payment policy the owner set; beyond it the transfer is held for a person and ' +
      'the result names the request (nothing is sent). Needs a reference of your own (PREFIX-...): the same ' +
      'reference again never pays twice and answers with what became of the first call',
    run: async (ctx, module, options, args) => (await import('./send.js')).sendForAgent(ctx, module, options, args),
  },
];

export default run(mcpSpec, async (ctx, opts) => {
  if (opts.check) return printCheck(ctx);
  const { serveMcp } = await import('./server.js');
  await serveMcp(ctx, agentTools, ctx.env.FSAPI_VERSION_OVERRIDE ?? '0.1.0');
});

/** `fsapi mcp --check`: each check on a line, then the sudoers line and the host configuration. */
async function printCheck(ctx: Context): Promise<void> {
  const { checkSetUp } = await import('./check.js');
  const report = await checkSetUp(ctx, process.argv[1] ?? '');
  const problems = report.checks.filter((check) => check.level === 'problem');
  if (ctx.globals.json) printJson(ctx, report);
  else {
    const width = ctx.io.columns ?? 80;
    const c = colors(ctx, 'stdout');
    const mark = { ok: c.green('ok'), warning: c.yellow('warning'), problem: c.red('problem') };
    const lines = [`fsapi mcp --check, as ${report.user} (profile ${report.profile})`, ''];
    for (const check of report.checks) {
      const [first = '', ...rest] = wrapText(`${check.name}: ${check.detail}`, width - 10);
      lines.push(`${mark[check.level]}${' '.repeat(10 - check.level.length)}${first}`, ...rest.map((line) => `${' '.repeat(10)}${line}`));
    }
    // Copied as they are: never cut in two where a newline would break them. On a terminal the sudoers
    // line and the command are split at spaces with a backslash ending each line but the last, which sudoers
    // and the shell both read as one line; piped, each is one line.
    const copied = (text: string) => (ctx.io.stdoutIsTTY ? continuedLines(text, width) : text);
    lines.push(
      '',
      'The sudoers rule (sudo visudo -f /etc/sudoers.d/fsapi-agent; AGENT_USER: the',
      "agent's user):",
      copied(report.sudoers),
      '',
      'Claude Desktop (claude_desktop_config.json):',
      JSON.stringify(report.claudeDesktop, null, 2),
      '',
      'Claude Code:',
      copied(report.claudeCode),
    );
    ctx.io.out(`${lines.join('\n')}\n`);
  }
  if (problems.length > 0) {
    throw new FsapiError(
      `${problems.length === 1 ? 'a problem' : `${problems.length} problems`} to fix before an agent is served: ${problems.map((p) => p.name).join(', ')}`,
      {
        exitCode: ExitCode.failed,
        hint: 'docs/agents.md sets the server up step by step',
        code: 'set_up',
      },
    );
  }
}

/**
 * `text` on lines of at most `width` columns, split at spaces, each line but the last ending in ` \`
 * and the ones after the first indented: one line to sudoers and to a shell. A word longer than a line
 * (a path) stays whole on its own line.
 */
function continuedLines(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line === '') line = lines.length === 0 ? word : `    ${word}`;
    else if (line.length + 1 + word.length + 2 <= width) line += ` ${word}`;
    else {
      lines.push(`${line} \\`);
      line = `    ${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}
