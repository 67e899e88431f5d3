import { createRequire } from 'node:module';
import nlp from 'compromise';
import { describe, expect, it } from 'vitest';
import { stem } from '../../../src/core/text/index.js';

/** Examples from Porter's paper and his reference vocabulary. */
const PORTER_EXAMPLES: Record<string, string> = {
  caresses: 'caress',
  ponies: 'poni',
  ties: 'ti',
  caress: 'caress',
  cats: 'cat',
  feed: 'feed',
  agreed: 'agre',
  plastered: 'plaster',
  bled: 'bled',
  motoring: 'motor',
  sing: 'sing',
  conflated: 'conflat',
  troubled: 'troubl',
  sized: 'size',
  hopping: 'hop',
  tanned: 'tan',
  falling: 'fall',
  hissing: 'hiss',
  fizzed: 'fizz',
  failing: 'fail',
  filing: 'file',
  happy: 'happi',
  sky: 'sky',
  relational: 'relat',
  conditional: 'condit',
  rational: 'ration',
  valenci: 'valenc',
  hesitanci: 'hesit',
  digitizer: 'digit',
  conformabli: 'conform',
  radicalli: 'radic',
  differentli: 'differ',
  vileli: 'vile',
  analogousli: 'analog',
  vietnamization: 'vietnam',
  predication: 'predic',
  operator: 'oper',
  feudalism: 'feudal',
  decisiveness: 'decis',
  hopefulness: 'hope',
  callousness: 'callous',
  formaliti: 'formal',
  sensitiviti: 'sensit',
  sensibiliti: 'sensibl',
  triplicate: 'triplic',
  formative: 'form',
  formalize: 'formal',
  electriciti: 'electr',
  electrical: 'electr',
  hopeful: 'hope',
  goodness: 'good',
  revival: 'reviv',
  allowance: 'allow',
  inference: 'infer',
  airliner: 'airlin',
  gyroscopic: 'gyroscop',
  adjustable: 'adjust',
  defensible: 'defens',
  irritant: 'irrit',
  replacement: 'replac',
  adjustment: 'adjust',
  dependent: 'depend',
  adoption: 'adopt',
  homologou: 'homolog',
  communism: 'commun',
  activate: 'activ',
  angulariti: 'angular',
  homologous: 'homolog',
  effective: 'effect',
  bowdlerize: 'bowdler',
  probate: 'probat',
  rate: 'rate',
  cease: 'ceas',
  controll: 'control',
  roll: 'roll',
  generalization: 'gener',
  running: 'run',
  possibly: 'possibl',
  archaeology: 'archaeolog',
};

describe('stem', () => {
  it("reproduces Porter's examples, in the reference (and FTS5) variant", () => {
    for (const [word, expected] of Object.entries(PORTER_EXAMPLES)) expect(stem(word), word).toBe(expected);
  });

  it('leaves words shorter than three characters alone and lowercases', () => {
    expect(stem('is')).toBe('is');
    expect(stem('as')).toBe('as');
    expect(stem('Running')).toBe('run');
  });

  const require = createRequire(import.meta.url);
  let Database:
    | (new (path: string) => {
        exec(sql: string): void;
        prepare(sql: string): { run(...args: unknown[]): void; all(): { doc: number; term: string }[] };
        transaction(body: () => void): () => void;
        close(): void;
      })
    | undefined;
  try {
    Database = require('better-sqlite3');
  } catch {
    Database = undefined;
  }

  it.skipIf(Database === undefined)(
    'agrees with SQLite FTS5 porter on every word of an English lexicon (skipped when better-sqlite3 cannot load)',
    () => {
      const lexicon = (nlp.model() as { one: { lexicon: Record<string, unknown> } }).one.lexicon;
      const words = [...new Set(Object.keys(lexicon).filter((word) => /^[a-z]+$/u.test(word)))];
      expect(words.length).toBeGreaterThan(10_000);
      const db = new (Database as NonNullable<typeof Database>)(':memory:');
      db.exec(
        "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');",
      );
      const insert = db.prepare('INSERT INTO t(rowid, x) VALUES (?, ?)');
      db.transaction(() => words.forEach((word, index) => insert.run(index + 1, word)))();
      const mismatches = db
        .prepare('SELECT doc, term FROM v')
        .all()
        .filter(({ doc, term }) => stem(words[doc - 1] ?? '') !== term)
        .map(({ doc, term }) => `${words[doc - 1]}: ${stem(words[doc - 1] ?? '')} != ${term}`);
      db.close();
      expect(mismatches).toEqual([]);
    },
  );
});
