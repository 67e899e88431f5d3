/**
 * The Claude Code hooks on PostgreSQL, end to end: every turn they store carries a source (session id
 * + message uuid), so this is the path a source key PostgreSQL cannot hold would break. In-process on
 * PGlite and on the server, and as the built bin against a server URL.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { runHook, type HookEvent } from '../../src/interfaces/hooks/run-hook.js';
import { openPgliteStore } from '../../src/storage/postgres/index.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { hookStdin, placeTranscript, SESSION_ID } from '../helpers/claude-code.js';
import { closeSharedPglite, freshPgSchema, pgTestUrl, PG_SKIP_REASON, sharedPglite, uniqueSchema } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';

beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

/** The stop, prompt and session-end hooks over `openEngine`, as Claude Code fires them through a session. */
async function hookSession(db: string, openEngine: () => Promise<Engram>): Promise<void> {
  const hook = (event: HookEvent, stdin: string) => runHook(event, stdin, { scopes: [SCOPE], db, openEngine });
  const transcript = placeTranscript(dir);
  expect((await hook('stop', hookStdin('stop', transcript))).detail).toMatchObject({ stored: 3, unchanged: 0 });
  expect((await hook('stop', hookStdin('stop', transcript))).detail).toMatchObject({ stored: 0 });
  placeTranscript(dir, 'transcript-more.jsonl');
  expect((await hook('stop', hookStdin('stop', transcript))).detail).toMatchObject({ stored: 2, unchanged: 0 });
  const prompt = await hook('user-prompt-submit', hookStdin('user-prompt-submit', transcript));
  expect(prompt.stdout).toContain('<engram-memory>');
  expect(prompt.stdout).toContain('production');
  const end = await hook('session-end', hookStdin('session-end', transcript));
  expect(end.detail).toMatchObject({ stored: 0, report: { scope: SCOPE, trigger: 'session-end' } });

  const engram = await openEngine();
  try {
    const episodes = await engram.store.listMemories({ scopes: [SCOPE], layers: ['episodic'], limit: 100 });
    const messages = new Set(episodes.flatMap((e) => e.provenance.sources.map((s) => s.messageId)));
    expect(messages.size).toBe(5);
    expect(episodes[0]?.provenance.sources[0]).toEqual({
      system: 'claude-code',
      conversationId: SESSION_ID,
      messageId: 'a0000000-0000-4000-8000-000000000001',
    });
  } finally {
    await engram.close();
  }
}

describe('Claude Code hooks on PGlite (in-process)', () => {
  it('store each turn once, give context for a prompt, and end the session', async () => {
    const pglite = await sharedPglite();
    const schema = uniqueSchema('h');
    const embedder = new HashEmbedder();
    const open = async () =>
      new Engram({
        store: await openPgliteStore({ pglite, schema, embedding: { name: embedder.name, dimension: embedder.dimension } }),
        embedder,
      });
    try {
      await hookSession(`pglite:${schema}`, open);
    } finally {
      await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  it('a turn with a NUL character in it (pasted binary output) is stored without it, not refused', async () => {
    const pglite = await sharedPglite();
    const schema = uniqueSchema('h');
    const embedder = new HashEmbedder();
    const open = async () =>
      new Engram({
        store: await openPgliteStore({ pglite, schema, embedding: { name: embedder.name, dimension: embedder.dimension } }),
        embedder,
      });
    const transcript = join(dir, 'transcript.jsonl');
    const turn = {
      type: 'user',
      uuid: 'b0000000-0000-4000-8000-000000000001',
      message: { role: 'user', content: 'the log said ERR\u0000\u0000 then stopped' },
    };
    writeFileSync(transcript, `${JSON.stringify(turn)}\n`);
    try {
      const outcome = await runHook('stop', hookStdin('stop', transcript), { scopes: [SCOPE], db: `pglite:${schema}`, openEngine: open });
      expect(outcome.detail).toMatchObject({ stored: 1 });
      const engram = await open();
      const [episode] = await engram.store.listMemories({ scopes: [SCOPE], limit: 10 });
      await engram.close();
      expect(episode?.content).toBe('user: the log said ERR then stopped');
    } finally {
      await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});

const url = pgTestUrl();
describe.skipIf(url === undefined)(`Claude Code hooks on the PostgreSQL server${url === undefined ? ` (${PG_SKIP_REASON})` : ''}`, () => {
  it('store each turn once, give context for a prompt, and end the session (in-process)', async () => {
    const { url: target, drop } = freshPgSchema('h');
    try {
      await hookSession(target, () => Engram.open({ path: target, embedder: 'hash' }));
    } finally {
      await drop();
    }
  });

  it.skipIf(!binBuilt)(
    `the hook commands of the built bin store each turn once and print context${binBuilt ? '' : ' (skipped: run npm run build first)'}`,
    async () => {
      const { url: target, drop } = freshPgSchema('h');
      const hook = (event: string, stdin: string) =>
        runCli(['hooks', event, '--scope', SCOPE, '--db', target, '--embedder', 'hash', '--verbose'], {
          input: stdin,
          env: { ENGRAM_URL: '' },
        });
      try {
        const transcript = placeTranscript(dir);
        const stop = hook('stop', hookStdin('stop', transcript));
        expect(stop.status, stop.stderr).toBe(0);
        expect(stop.stderr).toMatch(/"stored":3/);
        expect(hook('stop', hookStdin('stop', transcript)).stderr).toMatch(/"stored":0/);
        placeTranscript(dir, 'transcript-more.jsonl');
        expect(hook('stop', hookStdin('stop', transcript)).stderr).toMatch(/"stored":2/);
        const prompt = hook('user-prompt-submit', hookStdin('user-prompt-submit', transcript));
        expect(prompt.status, prompt.stderr).toBe(0);
        expect(prompt.stdout).toContain('production');
        const end = hook('session-end', hookStdin('session-end', transcript));
        expect(end.status, end.stderr).toBe(0);
      } finally {
        await drop();
      }
    },
    180_000,
  ); // six bin starts, each loading the engine and connecting
});
