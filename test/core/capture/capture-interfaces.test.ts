/**
 * `capture` on every interface: MCP (the real SDK client), HTTP (`POST /v1/memories`), the CLI
 * (`remember --capture`, from dist/) and the hooks' turn ingestion (which always captures). Real SQLite.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { createHttpApp } from '../../../src/interfaces/http/index.js';
import { ingestTurns } from '../../../src/interfaces/hooks/handlers.js';
import { binBuilt, json, runCli } from '../../helpers/cli.js';
import { callOk, inMemoryClient, textOf, call } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/temp.js';
import { enginesPerTest } from './engines.js';

const SCOPE = 'acme/projects/web';
const { open, later: closeAfter } = enginesPerTest();

async function claimContents(engram: Engram): Promise<string[]> {
  return (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 20 })).map((r) => r.content).sort();
}

describe('capture on the interfaces', () => {
  it('MCP memory_remember takes capture and returns the claims', async () => {
    const engram = await open();
    const { client, close } = await inMemoryClient(engram, [SCOPE]);
    closeAfter(close);
    const result = await callOk<{ id: string; claims: { id: string; action: string }[] }>(client, 'memory_remember', {
      content: 'user: We deploy with GitHub Actions. Could you add a cache step?',
      capture: true,
    });
    expect(result.claims).toEqual([{ id: expect.any(String), action: 'created' }]);
    expect(await claimContents(engram)).toEqual(['We deploy with GitHub Actions.']);
    const later = await call(client, 'memory_remember', { content: 'user: We moved CI from GitHub Actions to Buildkite.', capture: true });
    expect(textOf(later)).toMatch(/Claims: \S+ superseded \(supersedes /);
  });

  it('MCP refuses a userScope the server may not write, and writes nothing', async () => {
    const engram = await open();
    const { client, close } = await inMemoryClient(engram, [SCOPE]);
    closeAfter(close);
    const refused = await call(client, 'memory_remember', { content: 'user: bun', capture: true, userScope: 'acme/users/mallory' });
    expect(refused.isError).toBe(true);
    expect(await engram.store.listMemories({ scopes: [SCOPE, 'acme/users/mallory'], limit: 5 })).toEqual([]);
  });

  it('HTTP POST /v1/memories takes capture and returns the claims', async () => {
    const engram = await open();
    const app = createHttpApp({ engram, auth: 'open' });
    const response = await app.request('/v1/memories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        scope: SCOPE,
        content: 'user: Lena owns the payments service. Maybe we should try Stripe Radar.',
        capture: true,
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ action: 'created', claims: [{ action: 'created' }] });
    expect(await claimContents(engram)).toEqual(['Lena owns the payments service.']);
    const bad = await app.request('/v1/memories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scope: SCOPE, content: 'We use pnpm.', layer: 'procedural', capture: true }),
    });
    expect(bad.status).toBe(400);
  });

  it('the hooks capture every turn they ingest', async () => {
    const engram = await open();
    await ingestTurns(engram, {
      scope: SCOPE,
      sessionId: 's1',
      turns: [
        { uuid: 'u1', role: 'user', text: 'We use pnpm for this repo.' },
        { uuid: 'u2', role: 'assistant', text: 'You could use pnpm workspaces for this layout.' },
      ],
    });
    expect(await claimContents(engram)).toEqual(['We use pnpm for this repo.']);
    const [claim] = await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 1 });
    expect(claim?.provenance.sources).toEqual([{ system: 'claude-code', conversationId: 's1', messageId: 'u1' }]);
  });

  it.skipIf(!binBuilt)('CLI remember --capture prints and returns the claims', () => {
    const { dir, cleanup } = tempDir();
    closeAfter(cleanup);
    const db = join(dir, 'engram.db');
    const base = ['--db', db, '--embedder', 'hash', '--scope', SCOPE];
    const text = runCli(['remember', 'user: Standup is at 9:15 every weekday. Who runs it?', '--capture', ...base]);
    expect(text.status).toBe(0);
    expect(text.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/claim \S+: created/);
    const result = json<{ claims: { action: string }[] }>(
      runCli(['remember', 'user: Standup moved to 10:00 every weekday.', '--capture', '--json', ...base]),
    );
    expect(result.claims).toEqual([{ id: expect.any(String), action: 'superseded', superseded: [expect.any(String)] }]);
  });
});
