/**
 * MCP end to end with the SDK's own Client against the built bin: over stdio (`engram mcp`) and over
 * Streamable HTTP (`engram serve` on a loopback port): remember → recall → context → consolidate →
 * predict, a bad input, a request the stdio transport cannot parse, and API keys on the HTTP endpoint.
 */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, ListToolsResultSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOL_NAMES } from '../../src/interfaces/mcp/index.js';
import { BIN, binBuilt, json, runCli } from '../helpers/cli.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'robot/arm';

async function flow(client: Client): Promise<void> {
  const ok = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  };
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const stored = await ok('memory_remember', {
      content: `Attempt ${i + 1} to grasp the mug on the table.`,
      perception: { objects: ['mug'] },
      context: { goal: 'grasp mug' },
      action: { tool: 'grasp' },
      outcome: { success: i !== 5 },
    });
    ids.push(String(stored.id));
  }
  await ok('memory_remember', { content: 'The arm must never exceed 2 N of grip force on ceramics.', layer: 'procedural' });
  const recalled = await ok('memory_recall', { query: 'grip force on the mug', k: 3 });
  expect((recalled.hits as { content: string }[]).map((h) => h.content)).toContain(
    'The arm must never exceed 2 N of grip force on ceramics.',
  );
  const context = await ok('memory_context', {
    message: 'grasp the mug',
    percept: { objects: ['mug'], goal: 'grasp mug' },
    budgetMs: 1000,
  });
  expect(String(context.markdown)).toContain('2 N of grip force');
  const report = await ok('memory_consolidate', {});
  expect(Array.isArray(report.phases)).toBe(true);
  const predicted = await ok('memory_predict', { episode: { perception: { objects: ['mug'] }, context: { goal: 'grasp mug' } } });
  const top = (predicted.predictions as { successProbability: number; supportingEpisodeIds: string[] }[])[0];
  expect(top?.successProbability).toBeCloseTo(0.875, 2);
  expect([...(top?.supportingEpisodeIds ?? [])].sort()).toEqual([...ids].sort());

  const bad = (await client.callTool({ name: 'memory_recall', arguments: { query: 'x', scopes: ['other/tenant'] } })) as CallToolResult;
  expect(bad.isError).toBe(true);
  expect(JSON.stringify(bad.content)).toContain('SCOPE_DENIED');
}

/** The SDK's client over stdio to a new `engram mcp` on a fresh database. */
async function stdioClient(): Promise<{ client: Client; cleanup: () => void }> {
  const { dir, cleanup } = tempDir();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--db', join(dir, 'engram.db'), '--scope', SCOPE, '--embedder', 'hash'],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, cleanup };
}

describe.skipIf(!binBuilt)('engram mcp over stdio', () => {
  it('serves the tools to the SDK client: remember → recall → context → consolidate → predict', async () => {
    const { client, cleanup } = await stdioClient();
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(MCP_TOOL_NAMES.length);
      await flow(client);
    } finally {
      await client.close();
      cleanup();
    }
  });

  it('answers a request its transport cannot parse ("params": null) instead of leaving the client waiting', async () => {
    const { client, cleanup } = await stdioClient();
    try {
      for (const method of ['tools/call', 'tools/list', 'resources/read']) {
        const error = await client.request({ method, params: null } as never, ListToolsResultSchema, { timeout: 10_000 }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
        expect((error as McpError).message).toMatch(/params must be an object or left out, not null/);
      }
      expect((await client.listTools()).tools).toHaveLength(MCP_TOOL_NAMES.length);
    } finally {
      await client.close();
      cleanup();
    }
  });

  it('refuses to start without a scope', () => {
    const { dir, cleanup } = tempDir();
    const result = runCli(['mcp', '--db', join(dir, 'engram.db')], { env: { ENGRAM_SCOPES: '' } });
    cleanup();
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/needs the scopes it may use/);
  });
});

describe.skipIf(!binBuilt)('engram serve: MCP over Streamable HTTP', () => {
  let server: RunningServer;
  let dir: string;
  let cleanup: () => void;
  let db: string;

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    db = join(dir, 'engram.db');
    server = await startServe(['--db', db, '--scope', SCOPE, '--embedder', 'hash']);
  });
  afterAll(async () => {
    await server?.stop();
    cleanup?.();
  });

  it('prints where it listens, the database and the Claude Code config; writes the discovery file', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.output()).toContain(`database: ${db}`);
    expect(server.output()).toContain(`"url": "${server.url}/mcp?scope=${SCOPE}"`);
    expect(existsSync(`${db}.serve.json`)).toBe(true);
  });

  it('answers /health and serves the tools to the SDK client', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const client = new Client({ name: 'e2e-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      await flow(client);
    } finally {
      await client.close();
    }
  });

  it('limits a connection to the scopes it names and the server serves', async () => {
    const response = await fetch(`${server.url}/mcp?scope=other/tenant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('SCOPE_DENIED');
  });

  it('requires an API key once one exists, and keeps a key to its tenant', async () => {
    const created = json<{ key: string }>(runCli(['keys', 'create', '--tenant', 'robot', '--db', db, '--json']));
    const other = json<{ key: string }>(runCli(['keys', 'create', '--tenant', 'acme', '--db', db, '--json']));
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(list),
      });
    // the server caches "no key exists yet" for up to a second (ApiKeys presenceTtlMs): the new keys
    // take effect within that, so ask again until they do (bounded)
    let anonymous = await post({});
    for (let tries = 0; anonymous.status !== 401 && tries < 30; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      anonymous = await post({});
    }
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect((await post({ authorization: `Bearer ${other.key}` })).status).toBe(403);

    const hookBody = JSON.stringify({ scopes: [SCOPE], prompt: 'grip force' });
    const hookPost = (headers: Record<string, string>) =>
      fetch(`${server.url}/hooks/prompt-context`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: hookBody,
      });
    expect((await hookPost({})).status).toBe(401);
    const hooked = await hookPost({ authorization: `Bearer ${created.key}` });
    expect(hooked.status).toBe(200);
    expect(((await hooked.json()) as { text: string }).text).toContain('grip force');

    const client = new Client({ name: 'e2e-key', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${created.key}` } },
      }),
    );
    try {
      const result = (await client.callTool({ name: 'memory_stats', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { scopes: string[] }).scopes).toEqual([SCOPE]);
    } finally {
      await client.close();
    }
  });
});
