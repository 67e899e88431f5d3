/** A read that names no scopes fails with INVALID_INPUT and a message saying how to pass one. */
import { afterEach, describe, expect, it } from 'vitest';
import { tempEngram } from '../helpers/temp.js';

describe('reads without scopes', () => {
  let done: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await done?.();
    done = undefined;
  });

  it('recall, context and activate say to pass a scope when scopes are missing or empty', async () => {
    const { engram, cleanup } = await tempEngram();
    done = cleanup;
    const calls: (() => Promise<unknown>)[] = [
      () => engram.recall('anything', {} as never),
      () => engram.recall('anything', { scopes: [] }),
      () => engram.context({ message: 'hi' } as never),
      () => engram.activate('01ARZ3NDEKTSV4RRFFQ69G5FAV', {} as never),
    ];
    for (const call of calls) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'INVALID_INPUT' });
      expect(String((error as Error).message)).toMatch(/pass at least one scope/);
    }
  });

  it('recall, context and stats refuse more than 1,000 scopes in one read, as list and browse do', async () => {
    const { engram, cleanup } = await tempEngram();
    done = cleanup;
    const scopes = Array.from({ length: 1001 }, (_, i) => `acme/u${i}`);
    const calls: (() => Promise<unknown>)[] = [
      () => engram.recall('anything', { scopes }),
      () => engram.context({ message: 'hi', scopes }),
      () => engram.stats({ scopes }),
    ];
    for (const call of calls) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'INVALID_INPUT' });
      expect(String((error as Error).message)).toMatch(/scopes must have at most 1000 items/);
    }
    await expect(engram.recall('anything', { scopes: scopes.slice(0, 1000) })).resolves.toMatchObject({ hits: [] });
  });
});
