#!/usr/bin/env node
// A/B check of the in-memory lexical index against the FTS5 path: `node bench/lexical-ab.mjs [--size 100000]
// [--queries 300] [--path FILE --scope S]` (after `npx tsc -p tsconfig.build.json`). Both stores read the
// same file; every query must return the same ids, scores and coverage. Prints timings of both paths.
// `--baseline full`: the index skipping rows that cannot make the candidates (MaxScore, `lexicalPruneRows:
// 0`) against the index scoring every holder (`Infinity`) instead of FTS5; each query runs on both in
// alternating order (the first run of a word counts its rows for both), and the result goes to
// bench/results/lexical-prune-ab-<size>.json.
import { parseArgs } from 'node:util';
import { log, makeQueries, mulberry32, percentiles, writeResult } from './lib.mjs';
import { MAIN_SCOPE, SMALL_SCOPE, SCALE_SEED, assertBuilt, corpusPaths, dist } from './scale-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    path: { type: 'string' },
    scope: { type: 'string', multiple: true },
    embedder: { type: 'string', default: 'static' },
    baseline: { type: 'string', default: 'fts' },
  },
});
if (args.baseline !== 'fts' && args.baseline !== 'full') throw new Error('--baseline is fts or full');
const pruning = args.baseline === 'full';
assertBuilt();
const size = Number(args.size);
const path = args.path ?? corpusPaths(size).path;
const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
const { contentTerms, extractEntities } = await import(dist('core/text/index.js'));
const Database = (await import('better-sqlite3')).default;

const raw = new Database(path, { readonly: true });
const meta = Object.fromEntries(
  /** @type {{ key: string, value: string }[]} */ (raw.prepare('SELECT key, value FROM meta').all()).map((r) => [r.key, r.value]),
);
const embedding = { name: meta['embedding.name'], dimension: Number(meta['embedding.dimension']) };
const scopes =
  args.scope ??
  (args.path
    ? /** @type {{ scope: string }[]} */ (raw.prepare('SELECT DISTINCT scope FROM memories').all()).map((r) => r.scope)
    : [MAIN_SCOPE, SMALL_SCOPE]);
const maxRowid = /** @type {{ r: number }} */ (raw.prepare('SELECT max(rowid) AS r FROM memories').get()).r;
const random = mulberry32(12345);
const sample = (n) => {
  /** @type {{ content: string, scope: string, recorded_at: number, valid_from: number }[]} */
  const out = [];
  while (out.length < n) {
    const row = raw
      .prepare('SELECT content, scope, recorded_at, valid_from FROM memories WHERE rowid >= ? LIMIT 1')
      .get(1 + Math.floor(random() * maxRowid));
    if (row) out.push(/** @type {any} */ (row));
  }
  return out;
};

const texts = [];
if (!args.path)
  texts.push(
    ...makeQueries({ seed: 4242, count: Math.floor(Number(args.queries) / 2), corpusSeed: SCALE_SEED, corpusSize: size }).map(
      (q) => q.text,
    ),
  );
for (const row of sample(Number(args.queries) - texts.length)) {
  const words = contentTerms(row.content);
  const start = Math.floor(random() * words.length);
  texts.push(words.slice(start, start + 1 + Math.floor(random() * 6)).join(' ') || row.content);
}

raw.close();
const logger = { info: () => undefined, warn: log };
const fts = await openSqliteStore({
  path,
  embedding,
  logger,
  lexicalIndexThreshold: pruning ? 0 : Infinity,
  lexicalPruneRows: Infinity,
  vectorIndex: 'exact',
  memoryIndexThreshold: Infinity,
});
const indexed = await openSqliteStore({
  path,
  embedding,
  logger,
  vectorIndex: 'exact',
  memoryIndexThreshold: Infinity,
  lexicalIndexThreshold: 0,
  ...(pruning ? { lexicalPruneRows: 0 } : {}),
});
let t = performance.now();
if (pruning) await fts.prepareLexicalIndex();
await indexed.prepareLexicalIndex();
const buildMs = performance.now() - t;
const rss = process.memoryUsage().rss / 2 ** 20;
log(`index built in ${buildMs.toFixed(0)} ms (rss ${rss.toFixed(0)} MB)`);

const now = Date.now();
const variants = [
  (s) => ({ scopes: [s[0]] }),
  (s) => ({ scopes: s }),
  (s) => ({ scopes: [s[s.length - 1]] }),
  (s) => ({ scopes: [s[0]], layers: ['semantic'] }),
  (s) => ({ scopes: [s[0]], includeSuperseded: true }),
  (s) => ({ scopes: [s[0]], asOf: now - 30 * 86_400_000 }),
  (s) => ({ scopes: [s[0]], knownAt: now - 10 * 86_400_000 }),
];
let mismatches = 0;
let compared = 0;
const ftsTimes = [];
const indexTimes = [];
for (const [i, text] of texts.entries()) {
  for (const [v, variant] of variants.entries()) {
    if (v > 0 && i % 3 !== 0) continue;
    const base = { now, limit: 100, ...variant(scopes) };
    for (const terms of [contentTerms(text).map((term) => ({ term })), extractEntities(text).map((term) => ({ term }))]) {
      if (terms.length === 0) continue;
      const query = { ...base, terms };
      const timed = async (store, times) => {
        const started = performance.now();
        const hits = await store.lexicalSearch(query);
        times.push(performance.now() - started);
        return hits;
      };
      // FTS5 first always (its page reads warm nothing the index reads); the two indexes alternately
      const indexFirst = pruning && compared % 2 === 1;
      const b0 = indexFirst ? await timed(indexed, indexTimes) : undefined;
      const a = await timed(fts, ftsTimes);
      const b = b0 ?? (await timed(indexed, indexTimes));
      compared++;
      const same = a.length === b.length && a.every((h, j) => h.id === b[j].id && h.score === b[j].score && h.coverage === b[j].coverage);
      if (!same) {
        mismatches++;
        if (mismatches <= 5) {
          log(`MISMATCH for ${JSON.stringify(text)} ${JSON.stringify(variant(scopes))}: fts ${a.length} hits, index ${b.length}`);
          for (let j = 0; j < Math.max(a.length, b.length); j++) {
            if (a[j]?.id !== b[j]?.id || a[j]?.score !== b[j]?.score || a[j]?.coverage !== b[j]?.coverage) {
              log(`  #${j}: fts ${JSON.stringify(a[j])} index ${JSON.stringify(b[j])}`);
              break;
            }
          }
        }
      }
    }
  }
}
log(`compared ${compared} searches: ${mismatches} mismatches; index usage ${JSON.stringify(indexed.lexicalIndexUsage)}`);
const baselineName = pruning ? 'every holder scored' : 'fts';
const candidateName = pruning ? 'MaxScore' : 'index';
console.log(baselineName.padEnd(20), percentiles(ftsTimes));
console.log(candidateName.padEnd(20), percentiles(indexTimes));
if (pruning) {
  const file = writeResult(`lexical-prune-ab-${size}`, {
    options: { size, queries: Number(args.queries), limit: 100 },
    compared,
    mismatches,
    usage: indexed.lexicalIndexUsage,
    full: percentiles(ftsTimes),
    maxScore: percentiles(indexTimes),
  });
  log(`wrote ${file}`);
}
await fts.close();
await indexed.close();
process.exit(mismatches === 0 ? 0 : 1);
