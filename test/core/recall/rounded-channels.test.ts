/**
 * Channel explanations: fusion keeps each channel's score as the channel gave it and rounds only the
 * hits a recall returns (scores to 6 decimals, lexical coverage to 4), both fusion modes alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundedChannels, type ChannelExplanation } from '../../../src/core/recall/fusion.js';
import { hitRelevance } from '../../../src/core/recall/hit-relevance.js';
import { analyzeQuery } from '../../../src/core/recall/query-analysis.js';
import { Engram } from '../../../src/index.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'test/rounding';

/** How many decimals the number has as JSON writes it (exponent notation counts as unbounded). */
function decimals(value: number): number {
  const text = String(value);
  if (text.includes('e')) return Number.POSITIVE_INFINITY;
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

describe('roundedChannels', () => {
  it('rounds scores to 6 decimals and coverage to 4, keeps ranks and other fields, and leaves its input alone', () => {
    const input: Record<string, ChannelExplanation> = {
      lexical: { rank: 3, score: 7.123456789, coverage: 0.666666666 },
      semantic: { rank: 1, score: 0.8000000000000002 },
      graph: { rank: 2, score: 0.25 },
    };
    const copy = structuredClone(input);
    expect(roundedChannels(input)).toEqual({
      lexical: { rank: 3, score: 7.123457, coverage: 0.6667 },
      semantic: { rank: 1, score: 0.8 },
      graph: { rank: 2, score: 0.25 },
    });
    expect(input).toEqual(copy);
    expect(roundedChannels({})).toEqual({});
  });
});

describe('recall hits report rounded channel explanations', () => {
  let t: Awaited<ReturnType<typeof tempEngram>>;
  beforeAll(async () => {
    t = await tempEngram();
    const notes = [
      'Caroline went to the LGBTQ support group on Tuesday and found it powerful.',
      'Melanie painted a sunrise over the lake last weekend.',
      'The quarterly budget review moved to Thursday at 3pm.',
      'Caroline is researching adoption agencies for next year.',
      'Melanie signed her kids up for pottery classes.',
      'The deployment failed because the database migration timed out.',
    ];
    for (const [i, content] of notes.entries()) await t.engram.remember({ scope: S, content, occurredAt: Date.UTC(2024, 4, 1 + i) });
  }, 60_000);
  afterAll(async () => t.cleanup());

  for (const fusion of ['score', 'rrf'] as const)
    it(`${fusion} fusion: every channel score has at most 6 decimals, coverage at most 4, relevance from them`, async () => {
      // a second handle on the same file for reciprocal-rank fusion
      const engram = fusion === 'score' ? t.engram : await Engram.open({ path: t.path, embedder: 'hash', recall: { fusion: 'rrf' } });
      try {
        let seen = 0;
        for (const query of ['What did Caroline research?', 'budget review Thursday', 'painting the lake', 'why did the deployment fail']) {
          const { hits } = await engram.recall(query, { scopes: [S], k: 5, trackAccess: false });
          for (const hit of hits) {
            for (const explanation of Object.values(hit.why.channels)) {
              seen += 1;
              expect(decimals(explanation.score)).toBeLessThanOrEqual(6);
              if (explanation.coverage !== undefined) expect(decimals(explanation.coverage)).toBeLessThanOrEqual(4);
            }
            const { terms, windowOnly } = analyzeQuery(query, { referenceTime: Date.now() });
            expect(hit.relevance).toBe(hitRelevance(hit.why.channels, undefined, { terms: terms.length, windowOnly }));
          }
        }
        expect(seen).toBeGreaterThan(10);
      } finally {
        if (engram !== t.engram) await engram.close();
      }
    });
});
