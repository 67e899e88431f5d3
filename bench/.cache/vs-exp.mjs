import { openSqliteStore } from '/work/main/dist/storage/sqlite/index.js';
import { UseEmbedder } from '/work/main/dist/embeddings/use/index.js';
import { StaticEmbedder } from '/work/main/dist/embeddings/static/index.js';
import { makeQueries } from '/work/main/bench/corpus.mjs';
const path = '/work/main/bench/.cache/corpus-100000-static-g1-s1d917510.db';
const loadUse = process.argv[2] === 'use';
const store = await openSqliteStore({ path, embedding: { name: 'static-use-lite:512:v1', dimension: 512 } });
const st = StaticEmbedder.create();
const qs = makeQueries({ seed: 7777, count: 60, corpusSeed: 20240501, corpusSize: 100000 });
const sv = []; for (const q of qs) sv.push((await st.embed([q.text]))[0]);
let uv = sv;
if (loadUse) { const u = UseEmbedder.create({ workers: 0 }); await u.warmUp(); uv = []; for (const q of qs) uv.push((await u.embed([q.text]))[0]); }
const base = { scopes: ['bench/agents/main'], limit: 50 };
for (let i = 0; i < 5; i++) await store.vectorSearch({ ...base, now: Date.now(), vector: sv[i] });
const run = async (label, vs) => { const t = []; for (const v of vs) { const s = performance.now(); await store.vectorSearch({ ...base, now: Date.now(), vector: v }); t.push(performance.now() - s); } t.sort((a, b) => a - b); console.log(label, 'p50', t[t.length >> 1].toFixed(1), 'p90', t[Math.floor(t.length * 0.9)].toFixed(1)); };
for (let r = 0; r < 2; r++) { await run('static vecs', sv); await run('use vecs   ', uv); }
console.log('rss', (process.memoryUsage.rss() / 1e6).toFixed(0));
await store.close();
