/**
 * The engine's text handling over each backend: sourced writes (the hooks' path) stay idempotent,
 * unicode and long texts come back as written, and a NUL character (which PostgreSQL text and jsonb
 * cannot hold) is refused as INVALID_INPUT by every backend alike, writing nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram, RememberInput } from '../../src/index.js';
import type { EngineContractOptions } from './engine.contract.js';
import { HARD_TEXTS, LONG_TEXT } from './store-text.contract.js';

const SCOPE = 't/text';

async function invalidInput(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isEngramError(error) ? error.code : error).toBe('INVALID_INPUT');
  return (error as Error).message;
}

export function runEngineTextContract(options: EngineContractOptions): void {
  describe(`Engine text over ${options.name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      while (cleanups.length > 0) await cleanups.pop()?.();
    });
    const open = async (): Promise<Engram> => {
      const opened = await options.open(new ManualClock(Date.parse('2024-01-10T12:00:00Z')));
      cleanups.push(opened.cleanup);
      return opened.engram;
    };

    it('sourced turns with unicode ids are stored once; sending them again leaves them unchanged', async () => {
      const engram = await open();
      const turns: RememberInput[] = [
        {
          scope: SCOPE,
          content: 'user: which port does the API use?',
          source: { system: 'claude-code', conversationId: 'session-1', messageId: 'uuid-1' },
        },
        {
          scope: SCOPE,
          content: 'assistant: port 8080.',
          source: { system: 'claude-code', conversationId: 'session-1', messageId: 'uuid-2' },
        },
        { scope: SCOPE, content: HARD_TEXTS[1]!, source: { conversationId: '会話 "🚀"', messageId: 'مرحبا' } },
        {
          scope: SCOPE,
          layer: 'semantic',
          content: 'The API listens on port 8080.',
          source: { uri: 'file:///notes/ä.md', messageId: 'L1' },
        },
      ];
      const first = await engram.remember(turns);
      expect(first.map((r) => r.action)).toEqual(['created', 'created', 'created', 'created']);
      const again = await engram.remember(turns.map((t) => ({ ...t, content: `${t.content} (resent)` })));
      expect(again).toEqual(first.map((r) => ({ id: r.id, action: 'unchanged' })));
      const stats = await engram.stats({ scopes: [SCOPE] });
      expect(stats.total).toBe(4);
    });

    it('unicode and long content, tags and metadata come back as written', async () => {
      const engram = await open();
      const hard = await engram.remember({
        scope: SCOPE,
        content: HARD_TEXTS.join('\n'),
        summary: HARD_TEXTS[2]!,
        tags: ['漢字', 'عربي', '🏷️'],
        entities: ['Zoë', '東京'],
        action: { tool: 'search', args: { q: HARD_TEXTS[0], nested: { 'ключ 🔑': HARD_TEXTS[3] } } },
        source: { conversationId: 'c-ü', messageId: 'm-🚀' },
      });
      const long = await engram.remember({ scope: SCOPE, content: LONG_TEXT, source: { conversationId: 'c-ü', messageId: 'm-long' } });
      const got = await engram.get(hard.id, { scopes: [SCOPE] });
      expect(got).toMatchObject({ content: HARD_TEXTS.join('\n'), summary: HARD_TEXTS[2], tags: ['漢字', 'عربي', '🏷️'] });
      expect((await engram.get(long.id, { scopes: [SCOPE] })).content).toBe(LONG_TEXT);
      const { hits } = await engram.recall('zanzibarite', { scopes: [SCOPE] });
      expect(hits.length).toBeGreaterThan(0);
    });

    it('a NUL character anywhere in a write is INVALID_INPUT naming the field, and nothing is written', async () => {
      const engram = await open();
      const base = { scope: SCOPE, content: 'a plain note' };
      const cases: [RememberInput, string][] = [
        [{ ...base, content: 'before\u0000after' }, 'content'],
        [{ ...base, summary: 'x\u0000' }, 'summary'],
        [{ ...base, tags: ['ok', 'bad\u0000tag'] }, 'tags.1'],
        [{ ...base, source: { conversationId: 'c-1', messageId: 'm\u00001' } }, 'source.messageId'],
        [{ ...base, action: { tool: 't', args: { nested: { deep: ['\u0000'] } } } }, 'action.args.nested.deep.0'],
        [{ ...base, layer: 'semantic', properties: { 'key\u0000': 1 } }, 'properties.key\\0'],
      ];
      for (const [input, path] of cases) {
        const message = await invalidInput(engram.remember(input));
        expect(message).toContain(`${path} contains a NUL character`);
      }
      await invalidInput(engram.remember([base, { ...base, content: 'second\u0000' }]));
      expect((await engram.stats({ scopes: [SCOPE] })).total).toBe(0);
    });

    it('a NUL character in a query, an update or edge metadata is INVALID_INPUT, and the record is unchanged', async () => {
      const engram = await open();
      const one = await engram.remember({ scope: SCOPE, content: 'the first note' });
      const two = await engram.remember({ scope: SCOPE, content: 'the second note' });
      await invalidInput(engram.recall('first\u0000note', { scopes: [SCOPE] }));
      await invalidInput(engram.update(one.id, { content: 'changed\u0000' }, { scope: SCOPE }));
      await invalidInput(engram.update(one.id, { tags: ['\u0000'] }, { scope: SCOPE }));
      await invalidInput(engram.relate({ scope: SCOPE, from: one.id, type: 'RELATED_TO', to: two.id, metadata: { why: 'because\u0000' } }));
      expect((await engram.get(one.id, { scopes: [SCOPE] })).content).toBe('the first note');
      expect(await engram.edges(one.id, { scopes: [SCOPE] })).toEqual([]);
    });
  });
}
