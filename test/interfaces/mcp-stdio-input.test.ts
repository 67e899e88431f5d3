/**
 * `engram mcp` over stdio answers every request: one its transport would drop because the JSON-RPC
 * schema refuses it (`"params": null`, params that are not an object) gets -32602 Invalid params with
 * its id, a line that is not UTF-8 gets -32700 Parse error rather than being read with U+FFFD, and
 * everything else reaches the SDK's own StdioServerTransport unchanged. In process, over
 * streams, as the command wires it.
 */
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/interfaces/mcp/index.js';
import { answerInvalidLines } from '../../src/interfaces/mcp/stdio-input.js';
import { tempEngram } from '../helpers/temp.js';

type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

let env: Awaited<ReturnType<typeof tempEngram>>;
let stdin: PassThrough;
let stdout: PassThrough;
let close: () => Promise<void>;
const received: Message[] = [];

beforeEach(async () => {
  env = await tempEngram();
  stdin = new PassThrough();
  stdout = new PassThrough();
  received.length = 0;
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      received.push(JSON.parse(buffer.slice(0, newline)) as Message);
      buffer = buffer.slice(newline + 1);
    }
  });
  const server = createMcpServer({ engram: env.engram, scopes: ['acme/a'] });
  await server.connect(new StdioServerTransport(answerInvalidLines(stdin, stdout), stdout));
  close = () => server.close();
  await request({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
});
afterEach(async () => {
  await close();
  await env.cleanup();
});

/** Waits for the answer with `id`. */
async function answerTo(id: unknown): Promise<Message> {
  for (let waited = 0; waited < 5_000; waited += 10) {
    const answer = received.find((m) => m.id === id);
    if (answer !== undefined) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no answer to ${String(id)}`);
}

/** Writes one line (or the pieces given) and waits for the answer with the line's id. */
async function request(message: Record<string, unknown> | string, pieces = 1): Promise<Message> {
  const line = `${typeof message === 'string' ? message : JSON.stringify(message)}\n`;
  const id = typeof message === 'string' ? (JSON.parse(message) as { id: unknown }).id : message.id;
  const size = Math.ceil(line.length / pieces);
  for (let at = 0; at < line.length; at += size) stdin.write(line.slice(at, at + size));
  return answerTo(id);
}

describe('engram mcp stdio input', () => {
  for (const method of ['tools/call', 'tools/list', 'resources/read']) {
    it(`answers ${method} with "params": null with -32602 and its id`, async () => {
      const answer = await request(`{"jsonrpc":"2.0","id":21,"method":"${method}","params":null}`);
      expect(answer.error).toEqual({
        code: -32602,
        message: `Invalid params for ${method}: params must be an object or left out, not null.`,
      });
      // the server goes on serving
      expect((await request({ jsonrpc: '2.0', id: 22, method: 'ping' })).result).toEqual({});
    });
  }

  it('answers params that are not an object, with a string id too', async () => {
    const answer = await request({ jsonrpc: '2.0', id: 'x-1', method: 'tools/list', params: [1, 2] });
    expect(answer.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params must be an object or left out, not an array/),
    });
  });

  it('answers -32600 for a request the JSON-RPC schema refuses outside its params', async () => {
    const answer = await request({ jsonrpc: '2.0', id: 31, method: 'tools/list', colour: 'red' });
    expect(answer.error).toMatchObject({ code: -32600, message: expect.stringMatching(/^Invalid request: .*colour/) });
  });

  it('answers a message that is not UTF-8 with -32700 Parse error (its id when the rest shows one) instead of reading U+FFFD', async () => {
    const remember = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'memory_remember', arguments: { content: 'bad @@ bytes' } },
      });
    const withBadBytes = (text: string) => {
      const line = Buffer.from(`${text}\n`);
      const at = line.indexOf('@@');
      line[at] = 0xff;
      line[at + 1] = 0xfe;
      return { line, at };
    };
    const { line, at } = withBadBytes(remember(51));
    stdin.write(line.subarray(0, at + 1)); // cut inside the bad bytes: the line is judged whole
    stdin.write(line.subarray(at + 1));
    const answer = await answerTo(51);
    expect(answer.error).toEqual({
      code: -32700,
      message: expect.stringContaining(`not valid UTF-8: byte ${at} (0xff) is not part of a UTF-8 character`),
    });
    // with no id to be read, the answer has id null, as JSON-RPC says
    stdin.write(withBadBytes('{"jsonrpc":"2.0","id":52,"method":"tools/call","params":{"name":"@@').line);
    await expect.poll(() => received.filter((m) => m.id === null && m.error?.code === -32700).length).toBe(1);
    expect((await request({ jsonrpc: '2.0', id: 53, method: 'ping' })).result).toEqual({});
    expect(await env.engram.store.listMemories({ scopes: ['acme/a'], limit: 10 })).toEqual([]);
    // the same request in UTF-8 is served
    const served = await request(JSON.parse(remember(54).replace('@@', 'é')) as Record<string, unknown>);
    expect(served.result?.isError).toBeUndefined();
    expect((await env.engram.store.listMemories({ scopes: ['acme/a'], limit: 10 })).map((r) => r.content)).toEqual(['bad é bytes']);
  });

  it('passes well-formed messages through unchanged, also when a line arrives in pieces', async () => {
    const listed = await request({ jsonrpc: '2.0', id: 41, method: 'tools/list', params: {} }, 7);
    expect((listed.result?.tools as unknown[]).length).toBeGreaterThan(10);
    const called = await request({ jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'memory_stats', arguments: {} } }, 3);
    expect(called.result?.isError).toBeUndefined();
    // a malformed request without params is the server's to answer (-32602 too), not the filter's
    expect((await request({ jsonrpc: '2.0', id: 43, method: 'tools/call' })).error?.code).toBe(-32602);
  });
});
