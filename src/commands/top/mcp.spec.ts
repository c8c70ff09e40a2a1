import { defineCommand } from '../spec.js';

export const mcpSpec = defineCommand({
  path: 'mcp',
  summary: 'serve the Model Context Protocol over stdio: fsapi as tools for an AI agent',
  description:
    'Serve the Model Context Protocol on stdin and stdout, for an AI agent host (Claude Desktop, Claude ' +
    'Code, any MCP client). The tools are commands: account, banks, tx_list, transfer_status, ' +
    'transfer_send and more; each answers with the JSON of the command. Reading is open; transfer_send pays ' +
    'only under the payment policy the owner set (fsapi policy set) and holds what is beyond it for a ' +
    'person. No tool approves, changes the policy or the payees, logs in or out, or shows the token.',
  options: {},
  helpText:
    'Run it as its own OS user, whose config and data dirs the agent cannot read (docs/agents.md): it ' +
    'refuses to serve when either dir is open to its group or to others, or is not its own.',
  exitCodes: [0, 1, 2],
  exitCodeMeanings: { 0: 'the client closed the connection', 1: 'the config or data dir is not private to this user, or the server failed' },
  examples: ['fsapi mcp', 'sudo -u fsapi-agent fsapi --profile live mcp'],
});
