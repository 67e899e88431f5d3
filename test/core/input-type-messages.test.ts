/** A value of the wrong type is refused with a message that says, in words, what the field takes. */
import { describe, expect, it } from 'vitest';
import { tempEngram } from '../helpers/temp.js';

describe('messages for values of the wrong type', () => {
  it('say "a whole number", "a number, not NaN", "a string", "true or false" and "must not be empty", and change nothing', async () => {
    const { engram, cleanup } = await tempEngram();
    try {
      await engram.remember({ scope: 't/a', content: 'Alice takes her coffee black' });
      const cases: [() => Promise<unknown>, RegExp][] = [
        [() => engram.recall('coffee', { scopes: ['t/a'], k: 2.5 }), /k must be a whole number/],
        [() => engram.recall('coffee', { scopes: ['t/a'], k: Number.NaN }), /k must be a number, not NaN/],
        [() => engram.remember({ scope: 't/a', content: 42 as never }), /content must be a string/],
        [() => engram.remember({ scope: 't/a', content: 'a note', pinned: 'yes' as never }), /pinned must be true or false/],
        [() => engram.remember({ scope: 't/a', content: 'a note', tags: [''] }), /tags\.0 must not be empty/],
        [() => engram.recall('coffee', { scopes: ['t/a'], k: 0 }), /k is too small \(minimum 1\)/],
        // a problem of the whole input names it once
        [() => engram.remember(null as never), /Invalid input: memory: must be an object, not null$/],
      ];
      for (const [call, message] of cases) {
        await expect(call()).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(message) });
      }
      expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(1);
    } finally {
      await cleanup();
    }
  });

  it('a union (a date, persona, one scope or a list) says what it takes and what it got, not "Invalid input"', async () => {
    const { engram, cleanup } = await tempEngram();
    try {
      const { id } = await engram.remember({ scope: 't/a', content: 'Alice takes her coffee black' });
      const date = 'must be a date: ISO 8601 text like 2024-05-01T12:00:00Z or epoch milliseconds';
      const cases: [() => Promise<unknown>, string][] = [
        [() => engram.remember({ scope: 't/a', content: 'a note', validTo: null as never }), `memory: validTo ${date}, not null`],
        [() => engram.remember({ scope: 't/a', content: 'a note', validFrom: true as never }), `memory: validFrom ${date}, not true`],
        [() => engram.remember({ scope: 't/a', content: 'a note', occurredAt: {} as never }), `memory: occurredAt ${date}, not an object`],
        [() => engram.update(id, { validTo: [] as never }, { scope: 't/a' }), `update: validTo ${date}, not a list`],
        [() => engram.recall('coffee', { scopes: ['t/a'], asOf: new Date() as never }), `asOf ${date}, not a Date object`],
        // an object given to `true | false | persona` is told what the persona lacks
        [
          () => engram.recall('coffee', { scopes: ['t/a'], persona: {} as never }),
          'recall options: persona.dispositions must be an object',
        ],
        [
          () => engram.recall('coffee', { scopes: ['t/a'], persona: 5 as never }),
          'persona must be true, false or an object, not the number 5',
        ],
        [() => engram.activate(id, { scopes: {} as never }), 'activate options: scopes must be a string or a list, not an object'],
      ];
      for (const [call, message] of cases) {
        const error = await call().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(message) });
        expect((error as Error).message).not.toMatch(/Invalid input(;|$)/);
      }
      expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(1);
      expect((await engram.get(id, { scopes: ['t/a'] })).validTo).toBeNull();
    } finally {
      await cleanup();
    }
  });

  it('an unpaired UTF-16 surrogate anywhere in text is refused naming the field; emoji (paired) are stored as sent', async () => {
    const { engram, cleanup } = await tempEngram();
    try {
      const { id } = await engram.remember({ scope: 't/a', content: 'a plain note' });
      const lone = /contains an unpaired UTF-16 surrogate .* cannot be stored as UTF-8; send valid UTF-16\/UTF-8 text/;
      const cases: [() => Promise<unknown>, string][] = [
        [() => engram.remember({ scope: 't/a', content: 'lone \ud800 here' }), 'memory: content contains'],
        [() => engram.remember({ scope: 't/a', content: 'cut emoji \ude00' }), 'memory: content contains'],
        [() => engram.remember({ scope: 't/a', content: 'ok', tags: ['fine', 'end\ud83d'] }), 'memory: tags.1 contains'],
        [
          () => engram.remember({ scope: 't/a', layer: 'semantic', content: 'ok', properties: { 'k\udc00': 1 } }),
          'properties.k\\udc00 contains',
        ],
        [() => engram.update(id, { content: 'edited \ud800' }, { scope: 't/a' }), 'update: content contains'],
        [() => engram.recall('lone \udbff', { scopes: ['t/a'] }), 'query: contains'],
      ];
      for (const [call, message] of cases) {
        await expect(call()).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(lone),
        });
        await expect(call()).rejects.toThrow(message);
      }
      expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(1);
      expect((await engram.get(id, { scopes: ['t/a'] })).content).toBe('a plain note');
      const emoji = 'Alice sent 😀 and 👍🏽 and 𝄞';
      const written = await engram.remember({ scope: 't/a', content: emoji, tags: ['😀'] });
      expect((await engram.get(written.id, { scopes: ['t/a'] })).content).toBe(emoji);
    } finally {
      await cleanup();
    }
  });
});

describe('a refusal stays short whatever the input holds', () => {
  it('lists ten unknown fields of 30,000, cuts a 100,000-character key and a 100-deep path, and changes nothing', async () => {
    const { engram, cleanup } = await tempEngram();
    try {
      const weights = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`field${i}`, 1]));
      const many = await engram.recall('x', { scopes: ['t/a'], weights: weights as never }).catch((error: unknown) => error);
      expect(many).toMatchObject({ code: 'INVALID_INPUT' });
      const { message, details } = many as { message: string; details: unknown };
      expect(message).toContain(
        'weights has unknown field(s) field0, field1, field2, field3, field4, field5, field6, field7, field8, field9 and 29990 more',
      );
      expect(JSON.stringify(details).length).toBeLessThan(2_000);

      const key = 'k'.repeat(100_000);
      const long = await engram.remember({ scope: 't/a', content: 'a note', [key]: 1 } as never).catch((error: unknown) => error);
      expect((long as Error).message).toMatch(/has unknown field\(s\) k{63}…$/);
      expect(JSON.stringify((long as { details: unknown }).details).length).toBeLessThan(2_000);

      let deep: unknown = 'bad\u0000text';
      for (let i = 0; i < 100; i++) deep = { [`${'p'.repeat(300)}${i}`]: deep };
      const nested = await engram
        .remember({ scope: 't/a', content: 'a note', layer: 'semantic', properties: deep as never })
        .catch((error: unknown) => error);
      expect(nested).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('NUL character') });
      expect((nested as Error).message.length).toBeLessThan(1_500);
      expect((nested as { details: { issues: { path: string[] }[] } }).details.issues[0]?.path).toContain('…');
      expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(0);
    } finally {
      await cleanup();
    }
  });
});

describe('arguments of the wrong kind are INVALID_INPUT, never a TypeError, and change nothing', () => {
  it('an id that is not a string names the method, what an id is and what was given', async () => {
    const { engram, cleanup } = await tempEngram();
    try {
      const { id } = await engram.remember({ scope: 't/a', content: 'Robot grasped the mug', importance: 0.3 });
      const scope = { scope: 't/a' };
      const scopes = { scopes: ['t/a'] };
      const cases: [() => Promise<unknown>, string][] = [
        [() => engram.update(123 as never, { importance: 0.9 }, scope), 'update: id must be a string, not the number 123'],
        [() => engram.update(undefined as never, { importance: 0.9 }, scope), 'update: id must be a string (it is missing)'],
        [() => engram.forget(123 as never, scope), 'forget: id must be a string, not the number 123'],
        [() => engram.restore(null as never, scope), 'restore: id must be a string, not null'],
        [() => engram.unsupersede({} as never, scope), 'unsupersede: id must be a string, not an object'],
        [() => engram.get(123 as never, scopes), 'get: id must be a string, not the number 123'],
        [() => engram.get('', scopes), 'get: id must not be empty'],
        [() => engram.history(123 as never, scopes), 'history: id must be a string'],
        [() => engram.edges(123 as never, scopes), 'edges: id must be a string'],
        [() => engram.versions(123 as never, scopes), 'versions: id must be a string'],
        [() => engram.provenance(123 as never, scopes), 'provenance: id must be a string'],
        [() => engram.activate(null as never, scopes), 'activate: id must be a string or a list, not null'],
        [() => engram.activate(42 as never, scopes), 'activate: id must be a string or a list, not the number 42'],
        [() => engram.activate([id, 7] as never, scopes), 'activate: id.1 must be a string, not the number 7'],
      ];
      for (const [call, message] of cases) {
        await expect(call()).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(message) });
      }
      expect(await engram.get(id, scopes)).toMatchObject({ importance: 0.3, status: 'active' });
    } finally {
      await cleanup();
    }
  });

  it('an options argument given null or of the wrong shape is refused before anything is read or written', async () => {
    const { engram, cleanup } = await tempEngram();
    try {
      const { id } = await engram.remember({ scope: 't/a', content: 'Robot grasped the mug', perception: { objects: ['mug'] } });
      const before = await engram.stats({ scopes: ['t/a'] });
      const drain = async (batches: AsyncIterable<unknown>): Promise<void> => {
        for await (const _ of batches) break;
      };
      const cases: [() => Promise<unknown>, string][] = [
        [() => engram.purge({ scope: 't/a', ids: [id], confirm: true }, null as never), 'purge options: must be an object, not null'],
        [() => engram.expire({ scope: 't/a', dryRun: false }, null as never), 'expire options: must be an object, not null'],
        [
          () => drain(engram.rememberBatches([{ scope: 't/a', content: 'x' }], null as never)),
          'rememberBatches options: must be an object, not null',
        ],
        [() => drain(engram.rememberBatches([{ scope: 't/a', content: 'x' }], { batchSize: 0 })), 'batchSize is too small (minimum 1)'],
        [() => engram.processJobs(null as never), 'processJobs options: must be an object, not null'],
        [() => engram.processJobs({ lease: 5 } as never), 'processJobs options: has unknown field(s) lease'],
        [() => engram.edges(id, { scopes: ['t/a'], types: 'IS_A' as never }), 'edges options: types must be a list, not a string'],
        [() => engram.edges(id, { scopes: ['t/a'], types: null as never }), 'edges options: types must be a list, not null'],
        [() => engram.importJsonl(undefined as never), 'importJsonl source must be chunks of text or bytes'],
        [() => engram.importJsonl([null] as never), 'importJsonl source: chunk #1 must be a string or bytes (a Uint8Array), not null'],
        [() => engram.importJsonl([], null as never), 'importJsonl options: must be an object, not null'],
        [
          () => engram.importMarkdown({ 'semantic.md': 42 } as never, { scope: 't/a' }),
          'importMarkdown files: semantic.md must be a string, not the number 42',
        ],
        [() => engram.importMarkdown(null as never, { scope: 't/a' }), 'importMarkdown files: must be an object, not null'],
        [async () => engram.startBackground(null as never), 'startBackground options: must be an object, not null'],
        [async () => engram.startBackground({ duty: 0 }), 'startBackground options: duty must be greater than 0'],
      ];
      for (const [call, message] of cases) {
        await expect(call()).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(message) });
      }
      expect(await engram.stats({ scopes: ['t/a'] })).toEqual(before);
      expect((await engram.get(id, { scopes: ['t/a'] })).status).toBe('active');
    } finally {
      await cleanup();
    }
  });
});
