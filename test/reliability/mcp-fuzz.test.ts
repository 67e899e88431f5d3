/**
 * Property-based fuzzing of every MCP tool through the SDK's own client: hostile argument values,
 * spoiled fields, and arguments that are not an object at all (sent as raw JSON-RPC). Every call must
 * end in a tool error the model can act on (or an invalid-params protocol error), never an internal
 * error (-32603) or a crash, and a rejected call must leave the store exactly as it was.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOL_NAMES } from '../../src/interfaces/mcp/index.js';
import { inMemoryClient, textOf } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';
import { count, printFigures } from './figures.js';
import { hostileValue, mutateField, PROTOTYPE_NAMES } from './hostile-values.js';
import { openSqliteDigest } from './store-digest.js';

const SCOPE = 'acme/users/alice';
const SHARED = 'acme/shared';
const READ_ONLY = new Set([
  'memory_recall',
  'memory_context',
  'memory_get',
  'memory_predict',
  'memory_stats',
  'memory_list',
  'memory_surface',
]);

function examples(a: string, b: string): Record<(typeof MCP_TOOL_NAMES)[number], Record<string, unknown>> {
  return {
    memory_remember: { content: 'Alice prefers dark mode in every editor.', layer: 'semantic', tags: ['pref'], importance: 0.6 },
    memory_recall: { query: 'editor preferences', k: 5, scopes: [SCOPE] },
    memory_context: { message: 'set up my editor', maxTokens: 400 },
    memory_get: { id: a },
    memory_update: { id: a, importance: 0.8 },
    memory_forget: { id: b },
    memory_relate: { from: a, type: 'RELATED_TO', to: b, weight: 0.5 },
    memory_consolidate: { phases: ['dedup'] },
    memory_predict: { episode: { content: 'opening the editor' }, limit: 3 },
    memory_stats: { scope: SCOPE },
    memory_list: { scope: SCOPE, layers: ['semantic'], limit: 5 },
    memory_surface: { context: 'editor', limit: 3 },
    memory_decay: { dryRun: true },
    memory_expire: { dryRun: true },
  };
}

/** Arguments that are not an object: the SDK client would refuse to send them, so they go as raw requests. */
const NOT_OBJECTS: unknown[] = [null, 5, 'text', true, [], [1, 2], ['__proto__']];

let env: Awaited<ReturnType<typeof tempEngram>>;
let client: Client;
let close: () => Promise<void>;
let example: ReturnType<typeof examples>;
let reader: ReturnType<typeof openSqliteDigest>;

beforeAll(async () => {
  env = await tempEngram();
  const [a, b] = await env.engram.remember([
    { scope: SCOPE, content: 'Alice prefers dark mode in every editor.', layer: 'semantic' },
    { scope: SCOPE, content: 'Alice opened the editor on Monday morning.' },
  ]);
  await env.engram.remember({ scope: 'globex/x', content: 'Another tenant keeps this.' });
  example = examples(a?.id ?? 'x', b?.id ?? 'y');
  ({ client, close } = await inMemoryClient(env.engram, [SCOPE, SHARED]));
  reader = openSqliteDigest(env.path);
});
afterAll(async () => {
  await close();
  reader.close();
  await env.cleanup();
  printFigures('MCP fuzzing');
});

/** Calls a tool with any `args`; a protocol error comes back as `{ protocolError }`. */
async function rawCall(name: string, args: unknown): Promise<{ result?: CallToolResult; protocolError?: McpError }> {
  try {
    const result = await client.request(
      { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
      CallToolResultSchema,
    );
    return { result };
  } catch (error) {
    if (error instanceof McpError) return { protocolError: error };
    throw error;
  }
}

/** The outcome must be a success, a tool error with a code and message, or an invalid-params error. */
function assertClear(name: string, outcome: Awaited<ReturnType<typeof rawCall>>, described: string): boolean {
  if (outcome.protocolError !== undefined) {
    expect(outcome.protocolError.code, `${name} ${described}: protocol error ${outcome.protocolError.message}`).toBe(
      ErrorCode.InvalidParams,
    );
    expect(outcome.protocolError.message.length).toBeGreaterThan(15);
    return true;
  }
  const result = outcome.result as CallToolResult;
  if (result.isError === true) {
    const text = textOf(result);
    expect(text, `${name} ${described}`).not.toMatch(/^\[INTERNAL\]/);
    // Ours are "[CODE] message"; the SDK's own schema check answers "MCP error -32602: ...".
    expect(text, `${name} ${described}: ${text}`).toMatch(/^(\[[A-Z_]+\] |MCP error -32602: ).{15,}/s);
    return true;
  }
  return false;
}

describe('MCP fuzzing (SQLite file)', () => {
  for (const [index, name] of MCP_TOOL_NAMES.entries()) {
    it(`${name}: hostile arguments get a clear tool error, never -32603, and leave the store as it was`, async () => {
      const base = example[name];
      const keys = [...Object.keys(base), 'scope', 'scopes', ...PROTOTYPE_NAMES];
      const args = fc.record({ key: fc.constantFrom(...keys), value: hostileValue }).map(({ key, value }) => mutateField(base, key, value));
      await fc.assert(
        fc.asyncProperty(args, async (value) => {
          const before = reader.digest();
          const outcome = await rawCall(name, value);
          count('tool calls tried');
          const rejected = assertClear(name, outcome, JSON.stringify(value)?.slice(0, 200) ?? String(value));
          if (rejected) count('tool calls rejected (store verified unchanged)');
          if (rejected || READ_ONLY.has(name)) expect(reader.digest(), `${name} changed the store`).toEqual(before);
        }),
        { seed: 20_261_202 + index, numRuns: 40, endOnFailure: true },
      );
      const { tools } = await client.listTools();
      expect(tools.length).toBe(MCP_TOOL_NAMES.length);
    }, 120_000);
  }

  it('arguments that are not an object get invalid params (-32602) or a tool error, on every tool', async () => {
    const wrong: string[] = [];
    for (const name of MCP_TOOL_NAMES) {
      for (const value of NOT_OBJECTS) {
        const before = reader.digest();
        const outcome = await rawCall(name, value);
        count('tool calls tried');
        count('tool calls rejected (store verified unchanged)');
        const code = outcome.protocolError?.code;
        if (outcome.result !== undefined ? outcome.result.isError !== true : code !== ErrorCode.InvalidParams) {
          wrong.push(`${name}(${JSON.stringify(value)}) → ${code ?? 'success'}`);
        }
        expect(reader.digest()).toEqual(before);
      }
    }
    expect(wrong, 'calls answered with something other than invalid params').toEqual([]);
  });

  it('an unknown tool and a missing arguments member are answered clearly', async () => {
    const unknown = await rawCall('memory_nothing', {});
    expect(unknown.protocolError?.code ?? (unknown.result?.isError === true ? ErrorCode.InvalidParams : 0)).toBe(ErrorCode.InvalidParams);
    for (const name of MCP_TOOL_NAMES) {
      const outcome = await rawCall(name, undefined);
      count('tool calls tried');
      if (outcome.protocolError !== undefined) expect(outcome.protocolError.code).not.toBe(ErrorCode.InternalError);
      else if (outcome.result?.isError === true) expect(textOf(outcome.result)).not.toMatch(/^\[INTERNAL\]/);
    }
  });
});
