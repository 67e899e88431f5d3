/**
 * A correction inside one captured turn ("…. Oh wait, actually …", "Sorry, I mean …"): the later
 * sentence supersedes the earlier claim of the same slot in the same write, with the hash embedder and
 * with the real default model; a correction marker alone supersedes nothing of another slot.
 */
import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import { tempEngram } from '../../helpers/temp.js';

const BGE = 'bge-small-en-v1.5';
const installed = hasModelFiles(resolveModelCacheDir(process.env, homedir()), BGE);
const SCOPE = 'me/users/ana';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function engramWith(embedder: typeof BGE | 'hash'): Promise<Engram> {
  const ctx = await tempEngram({ embedder, workers: 1 });
  cleanups.push(ctx.cleanup);
  return ctx.engram;
}

/** The contents of the claims a read sees now, and those it sees superseded. */
async function claimsOf(engram: Engram): Promise<{ current: string[]; superseded: string[] }> {
  const items = (await engram.list({ scopes: [SCOPE], layers: ['semantic'], statuses: ['active', 'superseded'], limit: 50 })).items;
  return {
    current: items.filter((i) => i.status === 'active').map((i) => i.content),
    superseded: items.filter((i) => i.status === 'superseded').map((i) => i.content),
  };
}

async function capture(engram: Engram, text: string) {
  const [result] = await engram.remember([{ scope: SCOPE, content: `user: ${text}`, capture: true, tags: ['user'] }]);
  return result?.claims ?? [];
}

for (const embedder of ['hash', BGE] as const) {
  describe.skipIf(embedder === BGE && !installed && process.env.CI !== 'true')(
    `a correction within one captured turn (${embedder})`,
    () => {
      it('"oh wait, actually" supersedes the earlier claim of the same slot in the same write', async () => {
        const engram = await engramWith(embedder);
        const claims = await capture(engram, 'I live in Lisbon. Oh wait, actually I moved to Porto last month.');
        expect(claims).toHaveLength(2);
        expect(claims[1]).toMatchObject({ action: 'superseded', superseded: [claims[0]?.id] });
        const { current, superseded } = await claimsOf(engram);
        expect(superseded.some((c) => c.includes('Lisbon'))).toBe(true);
        expect(current.some((c) => c.includes('Lisbon'))).toBe(false);
        expect(current.some((c) => c.includes('Porto'))).toBe(true);
      }, 120_000);

      it('"sorry, I mean" replaces the value just given', async () => {
        const engram = await engramWith(embedder);
        const claims = await capture(engram, 'I work at Google. Sorry, I mean I work at Microsoft.');
        expect(claims[1]).toMatchObject({ action: 'superseded', superseded: [claims[0]?.id] });
        expect((await claimsOf(engram)).current.some((c) => c.includes('Google'))).toBe(false);
      }, 120_000);

      it('a correction marker supersedes nothing of another slot', async () => {
        const engram = await engramWith(embedder);
        for (const text of ['I live in Lisbon. Actually, I love it there.', 'I live in Lisbon. Oh wait, actually I have two cats.']) {
          const claims = await capture(engram, text);
          expect(
            claims.every((c) => c.action !== 'superseded'),
            JSON.stringify(claims),
          ).toBe(true);
        }
        expect((await claimsOf(engram)).superseded).toEqual([]);
      }, 120_000);
    },
  );
}
