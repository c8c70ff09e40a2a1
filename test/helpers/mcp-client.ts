// `fsapi mcp` driven by a real MCP client: the official SDK's Client over stdio, spawning the server as an
// agent host does. test/mcp.test.ts and test/mcp-agents.test.ts use it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { childEnv, cliPath, repoRoot } from './cli.js';

export interface Served {
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Protocol errors the client met (a line on stdout that is no protocol message would be one). */
  errors: Error[];
  /** Every result this client got, in order. */
  results: CallToolResult[];
  /** The tool of each of those results. */
  names: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The connection has closed (the server ended, or close was called). */
  closed(): boolean;
  close(): Promise<void>;
}

/** The server as an agent host starts it: `command args...` over stdio, the client of the SDK on the other end. */
export async function serveMcp(
  env: Record<string, string | undefined>,
  command: string[] = [process.execPath, cliPath, 'mcp'],
  /** The client's own name and version, as it gives them in `initialize`. */
  clientInfo: { name: string; version: string } = { name: 'fsapi-test', version: '1.0.0' },
): Promise<Served> {
  const transport = new StdioClientTransport({
    command: command[0]!,
    args: command.slice(1),
    env: childEnv(env) as Record<string, string>,
    cwd: repoRoot,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(clientInfo);
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  const results: CallToolResult[] = [];
  const names: string[] = [];
  return {
    client,
    stderr: () => stderr,
    errors,
    results,
    names,
    call: async (name, args = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      results.push(result);
      names.push(name);
      return result;
    },
    closed: () => closed,
    close: () => client.close(),
  };
}

/** The text parts of a result, joined by newlines. */
export const resultText = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
export const structuredOf = (result: CallToolResult) => result.structuredContent as Record<string, any>;

/** `transfer_send` of `amount` naira to the simulator's test account at GTBank under `reference`. */
export const mcpPayment = (amount: string, reference: string, more: Record<string, unknown> = {}) => ({
  accountNumber: '0123456789',
  bank: 'gtb',
  amount,
  narration: 'Invoice 42',
  reference,
  ...more,
});
