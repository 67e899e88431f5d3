/**
 * The MaxScore candidate pick of the in-memory lexical index against an oracle that scores every row:
 * the same rows with the same scores, to the bit, in the same order (score descending, rowid ascending),
 * on an index whose words follow a skewed law (a few in most rows, most in few), with repeated words,
 * duplicate texts (ties broken by rowid), several scopes, layers and statuses, and rows whose text
 * changed after they were posted or that were removed. The store-level suite
 * (`sqlite-lexical-index.test.ts`) checks whole searches against FTS5; this one sees the candidates,
 * which a search's final top-k rarely shows at the margin.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/consolidation/statistics.js';
import { skewedWords } from '../helpers/skewed-words.js';
import { visibilityBounds, type TimeFilter } from '../../src/core/memory.js';
import { LexicalData, layerIdSet, type SourceRow } from '../../src/storage/sqlite/lexical/lexical-data.js';
import { bestByMaxScore, ftsTf } from '../../src/storage/sqlite/lexical/lexical-pruned.js';
import type { IndexedLexicalQuery } from '../../src/storage/sqlite/lexical/lexical-search.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

describe('lexical index: MaxScore candidates', () => {
  const next = seededRandom(31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const { vocabulary, word } = skewedWords(500, 'q', next);
  const texts: string[] = [];
  const text = (): string => {
    if (texts.length > 0 && next() < 0.05) return pick(texts);
    const words = Array.from({ length: 2 + Math.floor(next() * 25) }, word);
    if (next() < 0.2) words.push(words[0] as string, words[0] as string);
    texts.push(words.join(' '));
    return texts[texts.length - 1] as string;
  };
  const row = (rowid: number): SourceRow => ({
    rowid,
    id: `m${rowid}`,
    scope: pick(['a', 'a', 'a', 'b', 'c']),
    layer: pick(['episodic', 'episodic', 'semantic', 'procedural']),
    status: pick(['active', 'active', 'active', 'active', 'superseded', 'decayed']),
    content: text(),
    tags: next() < 0.2 ? JSON.stringify([word()]) : '[]',
    entities: '[]',
    term_count: null,
    valid_from: T0 + Math.floor(next() * 30) * DAY,
    valid_to: next() < 0.1 ? T0 + Math.floor(next() * 40) * DAY : null,
    recorded_at: T0 + Math.floor(next() * 30) * DAY,
    invalidated_at: null,
  });

  /** Every present row scored phrase by phrase, the visible ones ranked: the first `candidates`. */
  function oracle(data: LexicalData, query: IndexedLexicalQuery, phraseTerms: readonly string[], idf: Map<string, number>, avgdl: number) {
    const scopeSet = data.scopeSet(query.scopes);
    const layers = layerIdSet(query.layers);
    const bounds = visibilityBounds(query.filter, query.now);
    const scored: { row: number; score: number }[] = [];
    for (let d = 0; d < data.present.length; d++) {
      if (!data.rowVisible(d, scopeSet, layers, bounds)) continue;
      let score = 0;
      let holds = false;
      for (let p = 0; p < phraseTerms.length; p++) {
        const term = phraseTerms[p] as string;
        const f = data.ftsFrequency(term, d);
        if (f === 0) continue;
        holds = true;
        const add = (idf.get(term) as number) * ftsTf(f, data.ftsLength[d] as number, avgdl);
        for (let rep = 0; rep < (query.phrases[p]?.repetitions ?? 1); rep++) score += add;
      }
      if (holds) scored.push({ row: d, score });
    }
    return scored.sort((x, y) => y.score - x.score || x.row - y.row).slice(0, query.candidates);
  }

  function check(data: LexicalData, rounds: number): number {
    const usage = { skipped: 0 };
    for (let i = 0; i < rounds; i++) {
      // up to 14 words, one query in ten up to 45 (more lists than a row's bit mask holds), and words
      // no row holds
      const words = Array.from({ length: 1 + Math.floor(next() * (next() < 0.1 ? 45 : 14)) }, word);
      if (next() < 0.2) words.push('zzqnothere');
      const phrases = [...new Set(words)].map((w) => ({ word: w, repetitions: next() < 0.15 ? 2 : 1 }));
      const phraseTerms = phrases.map((phrase) => phrase.word);
      const avgdl = data.tokens / data.rows;
      const idf = new Map<string, number>();
      for (const term of phraseTerms) {
        const n = data.rowsHolding(term, undefined);
        idf.set(term, Math.max(1e-6, Math.log((data.rows - n + 0.5) / (n + 0.5))));
      }
      const filter: TimeFilter = pick([{}, { includeSuperseded: true }, { asOf: T0 + 10 * DAY }]);
      const query: IndexedLexicalQuery = {
        scopes: pick([['a'], ['a', 'b', 'c'], ['b'], ['c', 'zzz']]),
        layers: pick([undefined, ['episodic'], ['semantic', 'procedural']]),
        filter,
        now: T0 + 31 * DAY,
        phrases,
        weights: new Map(),
        surfaces: new Map(),
        candidates: pick([5, 50, 200]),
        limit: 10,
        k1: 1.2,
        b: 0.75,
      };
      const expected = oracle(data, query, phraseTerms, idf, avgdl);
      const actual = bestByMaxScore(data, phraseTerms, idf, avgdl, query, data.scopeSet(query.scopes), usage);
      actual.sort((x, y) => y.score - x.score || x.row - y.row);
      expect(actual, `${words.join(' ')} ${JSON.stringify({ ...query, phrases: undefined })}`).toEqual(expected);
    }
    return usage.skipped;
  }

  it('picks the rows and scores scoring every row picks, before and after text changes and removals', () => {
    const data = new LexicalData();
    const rows = Array.from({ length: 4000 }, (_, i) => row(i + 1));
    data.apply(rows, new Map());
    expect(check(data, 60)).toBeGreaterThan(10_000);
    // rows whose text changed (scored from the delta), removed rows, rows of another scope or status now
    for (let rowid = 1; rowid <= 400; rowid++) {
      const change = next();
      if (change < 0.5) data.apply([{ ...(rows[rowid - 1] as SourceRow), content: text() }], new Map());
      else if (change < 0.7) data.remove(rowid);
      else data.apply([{ ...(rows[rowid - 1] as SourceRow), scope: pick(['a', 'b']), status: pick(['active', 'superseded']) }], new Map());
    }
    data.apply(
      Array.from({ length: 500 }, (_, i) => row(4001 + i)),
      new Map(),
    );
    expect(data.delta.size).toBeGreaterThan(100);
    expect(check(data, 60)).toBeGreaterThan(10_000);
  });

  it('answers exactly after a search that threw part way (its working arrays are cleaned up)', () => {
    const data = new LexicalData();
    data.apply(
      Array.from({ length: 3000 }, (_, i) => row(i + 1)),
      new Map(),
    );
    const phrases = [vocabulary[0], vocabulary[1], vocabulary[7]].map((w) => ({ word: w as string, repetitions: 1 }));
    const query: IndexedLexicalQuery = {
      scopes: ['a', 'b', 'c'],
      layers: undefined,
      filter: {},
      now: T0 + 31 * DAY,
      phrases,
      weights: new Map(),
      surfaces: new Map(),
      // more than the rows that match: every row the search meets is a candidate
      candidates: 5000,
      limit: 10,
      k1: 1.2,
      b: 0.75,
    };
    // a scope check that fails on its 100th row: the search stops inside a window
    const scopes = data.scopeSet(query.scopes);
    let asked = 0;
    const failing = {
      has: (id: number) => {
        if (++asked === 100) throw new Error('scope check failed');
        return scopes.has(id);
      },
    } as unknown as ReadonlySet<number>;
    const terms = phrases.map((p) => p.word);
    const idf = new Map(terms.map((t) => [t, 1] as const));
    const avgdl = data.tokens / data.rows;
    expect(() => bestByMaxScore(data, terms, idf, avgdl, query, failing)).toThrow('scope check failed');
    // another query: rows the failed one left marked hold none of its words
    const others = [vocabulary[2], vocabulary[5]].map((w) => ({ word: w as string, repetitions: 1 }));
    const otherTerms = others.map((p) => p.word);
    const otherIdf = new Map(otherTerms.map((t) => [t, 1] as const));
    const otherQuery = { ...query, phrases: others };
    const answer = bestByMaxScore(data, otherTerms, otherIdf, avgdl, otherQuery, scopes).sort((x, y) => y.score - x.score || x.row - y.row);
    expect(answer).toEqual(oracle(data, otherQuery, otherTerms, otherIdf, avgdl));
    expect(answer.length).toBeGreaterThan(500);
    expect(answer.length).toBeLessThan(5000);
  });
});
