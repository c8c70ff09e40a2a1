import { defineCommand, flag } from '../spec.js';

export const mcpSpec = defineCommand({
  path: 'mcp',
  // The MCP server's command lives beside the server it starts (an allow-list of tools: docs/agents.md).
  module: 'agents/command',
  summary: 'serve the Model Context Protocol over stdio: fsapi as tools for an AI agent',
  description:
    'Serve the Model Context Protocol on stdin and stdout, for an AI agent host (Claude Desktop, Claude ' +
    'Code, any MCP client). The tools are commands: account, banks, tx_list, transfer_status, ' +
    'transfer_preview, transfer_send and more; each answers with the JSON of the command. Reading is open; transfer_send pays ' +
    'only under the payment policy the owner set (fsapi policy set) and holds what is beyond it for a ' +
    'person. No tool approves, changes the policy or the payees, logs in or out, or shows the token.',
  options: {
    check: flag('--check', "check this user's set-up for serving (Node, dirs, policy, token), then print the sudoers line and host configuration"),
  },
  helpText:
    'Run it as its own OS user, whose config and data dirs the agent cannot read (docs/agents.md): it ' +
    'refuses to serve when either dir is open to its group or to others, or is not its own. Name Node and ' +
    'fsapi by absolute paths under sudo (its secure_path replaces PATH); --check, run as that user, says ' +
    'what is missing and prints the sudoers line and host configuration for these paths.',
  exitCodes: [0, 1, 2],
  exitCodeMeanings: {
    0: 'the client closed the connection; --check: nothing to fix',
    1: "a dir is not this user's alone, or the server failed; --check: a problem",
  },
  examples: ['fsapi mcp', 'fsapi --profile live mcp --check'],
});
