/**
 * `redact` on a store written without redaction also cleans what the sleep cycle derived from a secret
 * before it ran: a concept's name or a statistic holds the token lower-cased and with other separators
 * ("ghp wm4tq8…" for "ghp_Wm4Tq8…"), which no detector finds on its own. The secrets of the whole scope
 * are collected first, and their copies replaced in every record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databaseText } from '../../helpers/database-bytes.js';
import { tempEngram } from '../../helpers/temp.js';

const SCOPE = 't/derived';
const GITHUB = 'ghp_Wm4Tq8Zr2Xv6Bn0Lk3Hj7Gf5Ds9Pa1Qe4Ru8';
/** Long pieces of the token, in any case: none may stay anywhere in the file. */
const PIECES = ['Wm4Tq8Zr2Xv6Bn0Lk3Hj7', 'Gf5Ds9Pa1Qe4Ru8', 'wm4tq8zr2xv6'];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('redact after the sleep cycle derived from a secret', () => {
  it('leaves no copy of the token in concepts, statistics or reflections', async () => {
    const raw = await tempEngram({ redaction: { enabled: false } });
    cleanups.push(raw.cleanup);
    await raw.engram.remember(
      Array.from({ length: 12 }, (_, i) => ({
        scope: SCOPE,
        capture: true,
        content: `user: My GitHub token is ${GITHUB} and I use it to push the shop repo (try ${i}).`,
        importance: 0.9,
        action: { tool: 'git_push', args: { token: GITHUB } },
        outcome: { success: i % 2 === 0 },
      })),
    );
    await raw.engram.processJobs();
    await raw.engram.consolidate({ scope: SCOPE });
    const derived = (await raw.engram.store.listMemories({ scopes: [SCOPE], limit: 1000 })).filter((r) => r.layer !== 'episodic');
    // the cycle made copies no detector reads as a token (lower case, separators changed)
    expect(derived.some((r) => r.content.toLowerCase().includes('wm4tq8zr2xv6') && !r.content.includes(GITHUB))).toBe(true);
    await raw.engram.redact({ scopes: [SCOPE] });
    await raw.engram.close();
    const bytes = databaseText(raw.path).toLowerCase();
    for (const piece of PIECES) expect(bytes).not.toContain(piece.toLowerCase());
  });
});
