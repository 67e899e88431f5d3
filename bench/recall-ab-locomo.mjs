#!/usr/bin/env node
// Engine recall with and without the in-memory lexical index, on the LoCoMo cache (or any copy of it):
// `node bench/recall-ab-locomo.mjs [DB] [QUESTIONS_PER_CONVERSATION]` after `npm run bench:locomo` built
// bench/.cache/locomo-use-v4.db and `npx tsc -p tsconfig.build.json`. Same fixed clock for both engines;
// every recall (default weights and BM25 alone, k 20) must return the same ids and scores.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, REPO_DIR, newEngineCore } from './lib.mjs';
const dist = (p) => join(REPO_DIR, 'dist', p);
const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
const { UseEmbedder } = await import(dist('embeddings/use/index.js'));
const path = process.argv[2] ?? join(CACHE_DIR, 'locomo-use-v4.db');
const samples = JSON.parse(readFileSync(join(REPO_DIR, '../shared/datasets/locomo/locomo10.json'), 'utf8'));
const embedder = UseEmbedder.create({ workers: 0 });
await embedder.warmUp();
const embedding = { name: 'use-lite:512', dimension: 512 };
const clock = { now: () => 1_800_000_000_000 };
const a = await newEngineCore({ store: await openSqliteStore({ path, embedding, lexicalIndexThreshold: Infinity }), embedder, clock });
const storeB = await openSqliteStore({ path, embedding, lexicalIndexThreshold: 0 });
await storeB.prepareLexicalIndex();
const b = await newEngineCore({ store: storeB, embedder, clock });
let n = 0,
  diff = 0;
for (const s of samples) {
  const scope = `locomo/${s.sample_id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  for (const qa of s.qa.slice(0, Number(process.argv[3] ?? 60))) {
    const opts = { scopes: [scope], k: 20, trackAccess: false, referenceTime: '2023-10-01T00:00:00Z' };
    for (const weights of [undefined, { semantic: 0 }]) {
      const o = weights ? { ...opts, weights } : opts;
      const ra = (await a.recall(qa.question, o)).hits.map((h) => `${h.id}:${h.score}`);
      const rb = (await b.recall(qa.question, o)).hits.map((h) => `${h.id}:${h.score}`);
      n++;
      if (ra.join() !== rb.join()) {
        diff++;
        if (diff < 4) console.log('DIFF', qa.question, ra.slice(0, 3), rb.slice(0, 3));
      }
    }
  }
}
console.log(`recalls compared ${n}, different ${diff}, index usage`, storeB.lexicalIndexUsage);
process.exit(diff === 0 ? 0 : 1);
