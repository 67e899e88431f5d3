/**
 * The one date schema on every interface: HTTP bodies and query parameters, MCP tool arguments and
 * CLI flags refuse impossible dates, out-of-range and fractional epoch ms as bad input (400, a tool
 * error, exit code 2), and store nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import type { Engram } from '../../src/index.js';
import { call, inMemoryClient, textOf } from '../helpers/mcp.js';
import { runCli } from '../helpers/cli.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/dates';
const BAD = [1e300, 9e15, -9e15, 1.5, '2024-02-30', '10000-01-01'] as const;

let engram: Engram;
let path: string;
let cleanup: () => Promise<void>;
let app: HttpApp;
let client: Client;
let closeClient: () => Promise<void>;

beforeAll(async () => {
  ({ engram, path, cleanup } = await tempEngram());
  app = createHttpApp({ engram, auth: 'open' });
  ({ client, close: closeClient } = await inMemoryClient(engram, [SCOPE]));
  await engram.remember({ scope: SCOPE, content: 'The Leeds office opens at nine.' });
});
afterAll(async () => {
  await closeClient();
  await cleanup();
});

async function post(path: string, body: unknown): Promise<{ status: number; code: string | undefined }> {
  const response = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: json.error?.code };
}

describe('HTTP', () => {
  it.each(BAD)('refuses %j as a body date with 400', async (bad) => {
    expect(await post('/v1/memories', { scope: SCOPE, content: 'an event', occurredAt: bad })).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
    });
    expect(await post('/v1/recall', { scopes: [SCOPE], query: 'office', asOf: bad })).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect((await engram.stats({ scopes: [SCOPE] })).total).toBe(1);
  });

  it.each(['99999999999999999999', '9000000000000000', '2024-02-30', '1.5'])(
    'refuses %j as an asOf query parameter with 400',
    async (bad) => {
      const [hit] = (await engram.recall('office', { scopes: [SCOPE] })).hits;
      const response = await app.request(`/v1/memories/${hit?.id ?? ''}/edges?scopes=${SCOPE}&asOf=${bad}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/asOf/);
      const fine = await app.request(`/v1/memories/${hit?.id ?? ''}/edges?scopes=${SCOPE}&asOf=2024-01-01`);
      expect(fine.status).toBe(200);
    },
  );
});

describe('MCP', () => {
  it.each(BAD)('refuses %j as a tool date with a tool error', async (bad) => {
    const remembered = await call(client, 'memory_remember', { content: 'an event', occurredAt: bad });
    expect(remembered.isError).toBe(true);
    expect(textOf(remembered)).toMatch(/INVALID_INPUT|Invalid/);
    const recalled = await call(client, 'memory_recall', { query: 'office', asOf: bad });
    expect(recalled.isError).toBe(true);
    expect((await engram.stats({ scopes: [SCOPE] })).total).toBe(1);
  });
});

describe('CLI', () => {
  it.each(['2024-02-30', '0000-01-01', '2024-13-01'])('refuses --occurred-at %s with exit code 2', (bad) => {
    const result = runCli(['remember', '--db', path, '--embedder', 'hash', '--scope', SCOPE, '--occurred-at', bad, 'an event']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/not a date/);
  });
});
