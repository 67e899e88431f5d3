/**
 * Prompts longer than a query may be (10,000 characters): the prompt hook still surfaces memories,
 * searching with the prompt's beginning and end cut at word boundaries; in-process (the server's hook
 * route and the local path) and through the built bin. A prompt holding what the engine refuses (a
 * NUL from pasted binary output, a broken emoji) is searched without it.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { MAX_PROMPT_QUERY_CHARS, promptQuery } from '../../src/interfaces/hooks/prompt-query.js';
import { runHook } from '../../src/interfaces/hooks/run-hook.js';
import { runHookOperation } from '../../src/interfaces/hooks/server-routes.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { SESSION_ID } from '../helpers/claude-code.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';
const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ';
/** A pasted log of ~50,000 characters between the task and the question about the deploy target. */
const LONG_PROMPT = `Please help me with the release. ${FILLER.repeat(560)}Where does the shop deploy to now?`;

describe('promptQuery', () => {
  it('keeps a prompt that fits as it is (trimmed)', () => {
    expect(promptQuery('  Where do we deploy?  ')).toBe('Where do we deploy?');
  });

  it('cuts a long prompt to its beginning and end, within the limit, at word boundaries', () => {
    expect(LONG_PROMPT.length).toBeGreaterThan(40_000);
    const query = promptQuery(LONG_PROMPT);
    expect(query.length).toBeLessThanOrEqual(MAX_PROMPT_QUERY_CHARS);
    expect(query.length).toBeGreaterThan(MAX_PROMPT_QUERY_CHARS - 200);
    expect(query.startsWith('Please help me with the release.')).toBe(true);
    expect(query.endsWith('Where does the shop deploy to now?')).toBe(true);
    const words = new Set(LONG_PROMPT.split(/\s+/));
    for (const word of query.split(/\s+/)) {
      if (word !== '…') expect(words.has(word), `"${word}" is a cut word`).toBe(true);
    }
  });

  it('stays within the limit for one huge token, without splitting a surrogate pair', () => {
    expect(promptQuery('x'.repeat(30_000)).length).toBeLessThanOrEqual(MAX_PROMPT_QUERY_CHARS);
    const emoji = promptQuery('😀'.repeat(20_000), 101);
    expect(emoji.length).toBeLessThanOrEqual(101);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it('drops NUL characters and replaces unpaired surrogates by U+FFFD', () => {
    expect(promptQuery('xxd says \u0000\u0001 here; broken \ud83d emoji')).toBe('xxd says \u0001 here; broken \ufffd emoji');
    expect(promptQuery('\u0000')).toBe('');
  });
});

describe('a prompt over 10,000 characters, or holding a NUL', () => {
  let dir: string;
  let cleanup: () => void;
  let db: string;

  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    db = join(dir, 'engram.db');
    const engram = await Engram.open({ path: db, embedder: 'hash' });
    await engram.remember({ scope: SCOPE, content: 'The shop deploys to production at prod:/srv/shop.', layer: 'semantic' });
    await engram.close();
  });
  afterEach(() => cleanup());

  it('the server hook route answers with the memory context instead of refusing the prompt', async () => {
    const engram = await Engram.open({ path: db, embedder: 'hash' });
    try {
      const result = await runHookOperation(
        engram,
        'prompt-context',
        { scopes: [SCOPE], prompt: LONG_PROMPT, budgetMs: 5_000 },
        () => undefined,
      );
      expect(result.text).toContain('The shop deploys to production at prod:/srv/shop.');
    } finally {
      await engram.close();
    }
  });

  it('the hook prints the memory context for a prompt holding a NUL or a broken emoji', async () => {
    const prompt = 'xxd says \u0000\u0001 here \ud83d; where does the shop deploy to now?';
    const stdin = JSON.stringify({ session_id: SESSION_ID, hook_event_name: 'UserPromptSubmit', prompt });
    const outcome = await runHook('user-prompt-submit', stdin, {
      scopes: [SCOPE],
      db,
      budgetMs: 5_000,
      openEngine: () => Engram.open({ path: db, embedder: 'hash' }),
    });
    expect(outcome.stdout).toContain('The shop deploys to production at prod:/srv/shop.');
  });

  it('the hook without a server prints the memory context', async () => {
    const stdin = JSON.stringify({ session_id: SESSION_ID, hook_event_name: 'UserPromptSubmit', prompt: LONG_PROMPT });
    const outcome = await runHook('user-prompt-submit', stdin, {
      scopes: [SCOPE],
      db,
      budgetMs: 5_000,
      openEngine: () => Engram.open({ path: db, embedder: 'hash' }),
    });
    expect(outcome.stdout).toContain('The shop deploys to production at prod:/srv/shop.');
  });

  it.skipIf(!binBuilt)(
    'engram hooks user-prompt-submit exits 0 and prints the context (a 250,000-character prompt too)',
    { timeout: 60_000 },
    () => {
      const huge = `${LONG_PROMPT} ${FILLER.repeat(2_500)}Where does the shop deploy to now?`;
      expect(huge.length).toBeGreaterThan(200_000);
      for (const prompt of [LONG_PROMPT, huge]) {
        const stdin = JSON.stringify({ session_id: SESSION_ID, hook_event_name: 'UserPromptSubmit', prompt });
        const result = runCli(['hooks', 'user-prompt-submit', '--scope', SCOPE, '--db', db, '--budget-ms', '5000'], {
          input: stdin,
          env: { ENGRAM_URL: '' },
        });
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain('The shop deploys to production at prod:/srv/shop.');
      }
    },
  );
});
