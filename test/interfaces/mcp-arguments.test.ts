/**
 * Tool arguments that are not an object (an array, a string, a number, null), or that the advertised
 * schema refuses (a bound, an enum, a missing or unknown field), are bad input like any other: every
 * tool answers an `[INVALID_INPUT]` tool error that says what to send, never a JSON-RPC protocol error.
 * A request whose params are malformed (no tool name, no uri) is JSON-RPC -32602 with a plain message.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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

/** Arguments each tool takes, to which one bad field is added. */
const VALID: Record<(typeof MCP_TOOL_NAMES)[number], Record<string, unknown>> = {
  memory_remember: { content: 'x' },
  memory_recall: { query: 'x' },
  memory_context: { message: 'x' },
  memory_get: { id: '01NOPE' },
  memory_update: { id: '01NOPE', content: 'x' },
  memory_forget: { id: '01NOPE' },
  memory_relate: { from: '01NOPE1', type: 'CAUSES', to: '01NOPE2' },
  memory_consolidate: {},
  memory_predict: { episode: { content: 'x' } },
  memory_stats: {},
  memory_list: {},
  memory_surface: {},
  memory_decay: { dryRun: true },
  memory_expire: {},
};

function expectInvalidInput(result: CallToolResult, message: RegExp): void {
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/^\[INVALID_INPUT\] Invalid input: /);
  expect(textOf(result)).toMatch(message);
  expect(textOf(result)).not.toMatch(/MCP error|Input validation error/);
  expect(result.structuredContent).toMatchObject({ error: { code: 'INVALID_INPUT', clientFault: true } });
}

describe('MCP tool arguments the advertised schema refuses', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['memory_recall', { query: 'x', k: 0 }, /memory_recall: k is too small \(minimum 1\)$/],
    ['memory_recall', { query: 'x', k: 2.5 }, /memory_recall: k must be a whole number/],
    ['memory_recall', {}, /memory_recall: query must be a string/],
    ['memory_recall', { query: 'x', layers: ['dreams'] }, /memory_recall: layers\.0 must be one of "episodic"/],
    ['memory_recall', { query: 'x', scopes: ['a//b'] }, /memory_recall: scopes\.0 is not a valid scope \("a\/\/b": /],
    ['memory_surface', { limit: 0 }, /memory_surface: limit is too small \(minimum 1\)$/],
    ['memory_list', { limit: 0 }, /memory_list: limit is too small \(minimum 1\)$/],
    ['memory_list', { limit: 201 }, /memory_list: limit is too large \(maximum 200\)$/],
    ['memory_list', { sort: 'colour' }, /memory_list: sort must be one of /],
    ['memory_get', {}, /memory_get: id must be a string/],
    ['memory_consolidate', { phases: ['nap'] }, /memory_consolidate: phases\.0 must be one of /],
    ['memory_remember', { content: 5 }, /memory_remember: content must be a string/],
    ['memory_remember', { content: 'x', episode: { mood: 'odd' } }, /memory_remember: episode has unknown field\(s\) mood/],
    ['memory_decay', { dryRun: 'yes' }, /memory_decay: dryRun must be true or false/],
  ];
  it.each(cases)('%s %j is an [INVALID_INPUT] tool error in the library wording', async (name, args, message) => {
    expectInvalidInput(await callRaw(name, args), message);
  });

  for (const name of MCP_TOOL_NAMES) {
    it(`${name} refuses an unknown field with an [INVALID_INPUT] tool error`, async () => {
      expectInvalidInput(await callRaw(name, { ...VALID[name], colour: 'red' }), /has unknown field\(s\) colour/);
    });
  }

  it('still advertises the fields, types and bounds in tools/list', async () => {
    const { tools } = await client.listTools();
    const recall = tools.find((t) => t.name === 'memory_recall');
    expect(recall?.inputSchema.properties?.k).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(recall?.inputSchema.required).toEqual(['query']);
    expect(recall?.inputSchema.additionalProperties).toBe(false);
    const list = tools.find((t) => t.name === 'memory_list');
    expect(list?.inputSchema.properties?.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
  });
});

describe('MCP requests with malformed params', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['tools/call', 'no params', undefined, /^Invalid params for tools\/call: params is missing \(it must be an object\)\.$/],
    [
      'tools/call',
      'no tool name',
      { arguments: {} },
      /^Invalid params for tools\/call: params\.name is missing \(it must be a string\)\.$/,
    ],
    [
      'tools/call',
      'a tool name that is a number',
      { name: 5 },
      /^Invalid params for tools\/call: params\.name must be a string, not a number\.$/,
    ],
    ['resources/read', 'no uri', {}, /^Invalid params for resources\/read: params\.uri is missing \(it must be a string\)\.$/],
    ['resources/read', 'no params', undefined, /^Invalid params for resources\/read: params is missing/],
  ];
  it.each(cases)('%s with %s answers -32602 Invalid params with a plain message', async (method, _what, params, message) => {
    const error = await client.request({ method, ...(params !== undefined ? { params } : {}) } as never, CallToolResultSchema).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message.replace(/^MCP error -32602: /, '')).toMatch(message);
  });

  it('still answers a well-formed request afterwards', async () => {
    const result = await callRaw('memory_stats', {});
    expect(result.isError).not.toBe(true);
  });
});
