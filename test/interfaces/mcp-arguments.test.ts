/**
 * Tool arguments that are not an object (an array, a string, a number, null) are bad input like any
 * other: every tool answers a tool error that says what to send, never a JSON-RPC protocol error.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from '../../src/interfaces/mcp/index.js';
import { inMemoryClient, textOf } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';

const NOT_OBJECTS: readonly [string, unknown][] = [
  ['an array', ['t/a', 'hello']],
  ['an empty array', []],
  ['a string', 'remember this'],
  ['a number', 42],
  ['a boolean', true],
  ['null', null],
];

let close: () => Promise<void>;
let client: Client;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempEngram();
  cleanup = temp.cleanup;
  ({ client, close } = await inMemoryClient(temp.engram, ['acme/a']));
});

afterAll(async () => {
  await close();
  await cleanup();
});

/** Sends tools/call with raw arguments, bypassing the client's typing. */
async function callRaw(name: string, args: unknown): Promise<CallToolResult> {
  return (await client.request(
    { method: 'tools/call', params: { name, arguments: args } } as never,
    CallToolResultSchema,
  )) as CallToolResult;
}

describe('MCP tool arguments that are not an object', () => {
  for (const name of MCP_TOOL_NAMES) {
    for (const [what, args] of NOT_OBJECTS) {
      it(`${name} with ${what} answers a tool error`, async () => {
        const result = await callRaw(name, args);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^\[INVALID_INPUT\] .*arguments must be a JSON object/);
        expect((result.structuredContent as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
      });
    }
  }

  it('still names an unknown tool', async () => {
    const result = await callRaw('memory_nope', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/memory_nope not found/);
  });

  it('still runs a tool given an object', async () => {
    const result = await callRaw('memory_stats', {});
    expect(result.isError).not.toBe(true);
  });
});
