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
        [() => engram.remember(null as never), /Invalid input: memory: must be an object$/],
      ];
      for (const [call, message] of cases) {
        await expect(call()).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(message) });
      }
      expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(1);
    } finally {
      await cleanup();
    }
  });
});
