import { contentTerms } from '/work/main/dist/core/text/index.js';
import { buildFtsQuery } from '/work/main/dist/storage/sqlite/fts-query.js';
import { makeQueries } from '/work/main/bench/corpus.mjs';
import Database from 'better-sqlite3';
const db = new Database('/work/main/bench/.cache/corpus-100000-static-g1-s1d917510.db', { readonly: true });
const qs = makeQueries({ seed: 7777, count: 200, corpusSeed: 20240501, corpusSize: 100000 }).filter((q) => contentTerms(q.text).length > 0);
const ftsOnly = db.prepare('SELECT rowid, bm25(memories_fts) AS s FROM memories_fts WHERE memories_fts MATCH ? ORDER BY s LIMIT 200');
const ftsRank = db.prepare('SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT 200');
const countAll = db.prepare('SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?');
const time = (label, stmt, kinds) => { const t = []; for (const q of qs) { if (kinds && !kinds.includes(q.kind)) continue; const m = buildFtsQuery(contentTerms(q.text).map((term) => ({ term }))).match; const s = performance.now(); stmt.all(m); t.push(performance.now() - s); } t.sort((a, b) => a - b); console.log(label.padEnd(40), 'p50', t[t.length >> 1].toFixed(1), 'p95', t[Math.floor(t.length * 0.95)].toFixed(1)); };
for (const kinds of [null, ['long']]) {
  console.log('--', kinds ?? 'all');
  time('FTS only, bm25 ORDER BY LIMIT 200', ftsOnly, kinds);
  time('FTS only, rank ORDER BY LIMIT 200', ftsRank, kinds);
  time('count matches (no scoring)', countAll, kinds);
}
