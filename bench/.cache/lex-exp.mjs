import { openSqliteStore } from '/work/main/dist/storage/sqlite/index.js';
import { contentTerms } from '/work/main/dist/core/text/index.js';
import { buildFtsQuery } from '/work/main/dist/storage/sqlite/fts-query.js';
import { makeQueries } from '/work/main/bench/corpus.mjs';
import Database from 'better-sqlite3';
const path = '/work/main/bench/.cache/corpus-100000-static-g1-s1d917510.db';
const store = await openSqliteStore({ path, embedding: { name: 'static-use-lite:512:v1', dimension: 512 } });
const db = new Database(path, { readonly: true });
const qs = makeQueries({ seed: 7777, count: 200, corpusSeed: 20240501, corpusSize: 100000 });
const byKind = {};
for (const q of qs) {
  const terms = contentTerms(q.text).map((term) => ({ term }));
  if (!terms.length) continue;
  const base = { scopes: ['bench/agents/main'], limit: 50, now: Date.now(), terms };
  await store.lexicalSearch(base);
  const t = performance.now(); await store.lexicalSearch(base); const ms = performance.now() - t;
  const fts = buildFtsQuery(terms);
  const matches = db.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?').get(fts.match).n;
  (byKind[q.kind] ??= []).push({ ms, terms: terms.length, matches });
}
for (const [k, list] of Object.entries(byKind)) {
  list.sort((a, b) => a.ms - b.ms);
  const avg = (f) => (list.reduce((s, x) => s + f(x), 0) / list.length).toFixed(0);
  console.log(k.padEnd(12), 'n', list.length, 'p50 ms', list[list.length >> 1].ms.toFixed(1), 'max', list[list.length - 1].ms.toFixed(1), 'avg terms', avg((x) => x.terms), 'avg matches', avg((x) => x.matches));
}
const all = Object.values(byKind).flat();
const corr = all.sort((a, b) => a.matches - b.matches);
console.log('ms per 1k matches ≈', (all.reduce((s, x) => s + x.ms, 0) / all.reduce((s, x) => s + x.matches, 0) * 1000).toFixed(2));
await store.close();
