/** MCP test helpers: an in-memory client for a server over an engine, and result accessors. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engram } from '../../src/index.js';
import { createMcpServer } from '../../src/interfaces/mcp/index.js';

/** The SDK's own client linked to a fresh server over `engram`, limited to `scopes`. */
export async function inMemoryClient(engram: Engram, scopes: string[]): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer({ engram, scopes });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Calls a tool and returns the raw result. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Calls a tool that must succeed and returns its structured content. */
export async function callOk<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError === true) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** The text content of a result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
