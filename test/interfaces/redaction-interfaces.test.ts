/**
 * Secrets pasted through the HTTP API and the MCP tools are redacted by the engine before storage:
 * remember (one and a batch) and update, each saying how many it replaced. In-process: Hono's
 * `app.request()` and the MCP SDK client over a linked in-memory transport, on a real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import type { Engram } from '../../src/index.js';
import { callOk, inMemoryClient } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/projects/shop';
const TOKEN = 'ghp_Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4';
const ANTHROPIC = `sk-ant-api03-${'Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4'.repeat(2)}AA`;

let engram: Engram;
let cleanup: () => Promise<void>;
let app: HttpApp;

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
  app = createHttpApp({ engram, auth: 'open' });
});
afterAll(async () => cleanup());

async function http(
  method: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> & Record<string, unknown>[] }> {
  const response = await app.request(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> & Record<string, unknown>[] };
}

async function storedText(): Promise<string> {
  const { items } = await engram.list({ scopes: [SCOPE], limit: 200 });
  return JSON.stringify(items).toLowerCase();
}

describe('redaction through the interfaces', () => {
  it('HTTP: POST /v1/memories (one and a batch) and PATCH /v1/memories/:id redact and count', async () => {
    const one = await http('POST', '/v1/memories', { scope: SCOPE, content: `The CI uses GITHUB_TOKEN=${TOKEN} to push tags.` });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ action: 'created', redacted: 1 });
    const batch = await http('POST', '/v1/memories', [
      { scope: SCOPE, content: `export ANTHROPIC_API_KEY=${ANTHROPIC}` },
      { scope: SCOPE, content: 'Deploys go out on Tuesdays.' },
    ]);
    expect(batch.json[0]).toMatchObject({ redacted: 1 });
    expect(batch.json[1]).not.toHaveProperty('redacted');
    const updated = await http('PATCH', `/v1/memories/${String(batch.json[1]?.id)}?scope=${SCOPE}`, {
      content: `Deploys use the password=${'Hq7#mZ2pLw9x'}`,
    });
    expect(updated.status).toBe(200);
    expect(updated.json.content).toBe('Deploys use the password=[redacted:password]');
    const text = await storedText();
    for (const secret of [TOKEN, ANTHROPIC, 'Hq7#mZ2pLw9x']) expect(text).not.toContain(secret.toLowerCase());
    expect(text).toContain('[redacted:github-token]');
    expect(text).toContain('[redacted:anthropic-key]');
  });

  it('MCP: memory_remember and memory_update redact and count', async () => {
    const { client, close } = await inMemoryClient(engram, [SCOPE]);
    try {
      const stored = await callOk<{ id: string; redacted?: number }>(client, 'memory_remember', {
        content: `Slack bot token xoxb-${'1'.repeat(12)}-${'2'.repeat(13)}-Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6 posts to #ops.`,
      });
      expect(stored.redacted).toBe(1);
      const { memory } = await callOk<{ memory: { content: string } }>(client, 'memory_update', {
        id: stored.id,
        content: `Alerts use the Stripe key sk_live_Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd now.`,
      });
      expect(memory.content).toBe('Alerts use the Stripe key [redacted:stripe-key] now.');
      const text = await storedText();
      expect(text).not.toContain('zr4tq9wm2xc7vb5nk8lp3hs6jd');
      expect(text).toContain('[redacted:slack-token]');
    } finally {
      await close();
    }
  });
});
