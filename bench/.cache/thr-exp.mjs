import { openSqliteStore } from '/work/main/dist/storage/sqlite/index.js';
import { StaticEmbedder } from '/work/main/dist/embeddings/static/index.js';
import { makeQueries } from '/work/main/bench/corpus.mjs';
const path = '/work/main/bench/.cache/corpus-10000-static-g1-s1b6d19ba.db';
const st = StaticEmbedder.create();
const qs = makeQueries({ seed: 7777, count: 60, corpusSeed: 20240501, corpusSize: 10000 });
const vs = []; for (const q of qs) vs.push((await st.embed([q.text]))[0]);
for (const threshold of [20000, 0]) {
  const store = await openSqliteStore({ path, embedding: { name: 'static-use-lite:512:v1', dimension: 512 }, memoryIndexThreshold: threshold, vectorIndex: 'exact' });
  const base = { scopes: ['bench/agents/main'], now: Date.now() };
  for (const limit of [3, 100]) {
    for (let i = 0; i < 5; i++) await store.vectorSearch({ ...base, limit, vector: vs[i] });
    const t = []; for (const v of vs) { const s = performance.now(); await store.vectorSearch({ ...base, limit, vector: v }); t.push(performance.now() - s); }
    t.sort((a, b) => a - b); console.log(`threshold ${threshold} limit ${limit}: p50 ${t[30].toFixed(1)} ms p90 ${t[54].toFixed(1)} ms`);
  }
  await store.close();
}
