/**
 * MCP over HTTP in `engram serve` (`/mcp` of the serve app, in process): an API key only ever sees its
 * own tenant's scopes, in answers and refusals alike (also on /hooks); the request body limit of the
 * API (--max-body-bytes, 413 PAYLOAD_TOO_LARGE) holds for /mcp; a request the transport cannot read as
 * JSON-RPC still gets an answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { createServeApp, type ServeAppOptions } from '../../src/interfaces/cli/serve/serve-app.js';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import { tempEngram } from '../helpers/temp.js';

const SECRET = 'x/secret-project-titan';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let engram: Engram;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ engram, cleanup } = await tempEngram());
});
afterEach(async () => cleanup());

type App = ReturnType<typeof createServeApp>;

function app(options: Partial<ServeAppOptions>): App {
  return createServeApp({ engram, scopes: [], auth: 'open', ...options });
}

async function post(
  to: App,
  path: string,
  body: unknown,
  key?: string,
): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
  const response = await to.request(`http://127.0.0.1${path}`, {
    method: 'POST',
    headers: { ...HEADERS, ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
}

const toolCall = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('/mcp with an API key', () => {
  let served: App;
  let keyOfA: string;
  let keyOfZ: string;

  beforeEach(async () => {
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    keyOfA = (await keys.create({ tenant: 'a' })).key;
    keyOfZ = (await keys.create({ tenant: 'z' })).key;
    served = createServeApp({ engram, scopes: ['a/b', SECRET], auth: 'auto', keys });
  });

  it("never names another tenant's scope in a refusal", async () => {
    const outside = await post(served, '/mcp?scope=a/zzz', toolCall('memory_stats', {}), keyOfA);
    expect(outside.status).toBe(403);
    expect(outside.json).toMatchObject({ error: { code: 'SCOPE_DENIED' } });
    expect(outside.text).toContain('a/b');
    expect(outside.text).not.toMatch(/secret|x\//);

    const noneOfItsTenant = await post(served, '/mcp', toolCall('memory_stats', {}), keyOfZ);
    expect(noneOfItsTenant.status).toBe(403);
    expect(noneOfItsTenant.json).toMatchObject({ error: { code: 'SCOPE_DENIED' } });
    expect(noneOfItsTenant.text).not.toMatch(/secret|x\/|a\/b/);

    const hook = await post(served, '/hooks/session-context', { scopes: ['a/zzz'] }, keyOfA);
    expect(hook.status).toBe(403);
    expect(hook.text).not.toMatch(/secret|x\//);
  });

  it("serves a key that names no scope its own tenant's scopes of the server, to the SDK's client", async () => {
    const client = new Client({ name: 'engram-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (url, init) => Promise.resolve(served.request(String(url), init)),
        requestInit: { headers: { authorization: `Bearer ${keyOfA}` } },
      }),
    );
    try {
      const result = (await client.callTool({ name: 'memory_stats', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { scopes: string[] }).scopes).toEqual(['a/b']);
      expect(JSON.stringify(await client.listResources())).not.toMatch(/secret/);
    } finally {
      await client.close();
    }
  });
});

describe('/mcp request body limit', () => {
  it('refuses a body past --max-body-bytes with 413 PAYLOAD_TOO_LARGE, as /v1 does, and stores nothing', async () => {
    const served = app({ scopes: ['h/one'], maxBodyBytes: 100_000 });
    const big = 'word '.repeat(39_000); // 195 KB, under the content limit
    const api = await post(served, '/v1/memories', { scope: 'h/one', content: big });
    const mcp = await post(served, '/mcp', toolCall('memory_remember', { content: big }));
    expect(mcp.status).toBe(413);
    expect(mcp.json).toEqual(api.json);
    expect(mcp.json).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringMatching(/limit of 100000 bytes/) } });
    const small = await post(served, '/mcp', toolCall('memory_remember', { content: 'A short note.' }));
    expect(small.status).toBe(200);
    expect((await engram.stats({ scopes: ['h/one'] })).total).toBe(1);
  });

  it('holds the default limit of 1 MiB when none is given', async () => {
    const served = app({ scopes: ['h/one'] });
    const answer = await post(served, '/mcp', toolCall('memory_stats', { pad: 'x'.repeat(2_000_000) }));
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const answer = await post(app({ scopes: ['h/one'] }), '/mcp', '{"jsonrpc": "2.0", "id": 1,');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error: /) },
    });
  });
});

describe('/mcp requests the transport cannot read as JSON-RPC', () => {
  it('answers "params": null with -32602 Invalid params and the request id', async () => {
    const answer = await post(app({ scopes: ['h/one'] }), '/mcp', '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":null}');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      jsonrpc: '2.0',
      id: 21,
      error: { code: -32602, message: 'Invalid params for tools/call: params must be an object or left out, not null.' },
    });
  });
});
