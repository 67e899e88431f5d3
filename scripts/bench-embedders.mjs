#!/usr/bin/env node
// Measures the built embedders (run `npm run build` first): load time, single-query latency and
// throughput on 150-character texts, for USE-lite with 0/1/2 workers and for the static table.
// Usage: node scripts/bench-embedders.mjs [--texts 512] [--only use|static] [--workers 0,1,2] [--cache-dir DIR]
// Prints one JSON object on stdout; progress goes to stderr.
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    texts: { type: 'string', default: '512' },
    only: { type: 'string' },
    'cache-dir': { type: 'string' },
    workers: { type: 'string', default: '0,1,2' },
  },
});
const count = Number(values.texts);
const results = {};

function makeTexts(n) {
  const subjects = ['The agent', 'Alice', 'The robot', 'Our deploy job', 'The user', 'Bob from finance'];
  const verbs = ['noted that', 'reported that', 'asked whether', 'remembered that', 'said that'];
  const facts = [
    'the kitchen mug was moved to the second shelf after the cleaning crew left on Tuesday',
    'the staging database migration failed twice because of a missing index on the orders table',
    'quarterly revenue grew five percent while marketing spend stayed flat across all regions',
    'the customer prefers window seats and vegetarian meals on every long-haul flight booked',
    'the build pipeline times out when the integration tests run against the shared cluster',
  ];
  return Array.from({ length: n }, (_, i) => {
    const text = `${i}: ${subjects[i % subjects.length]} ${verbs[i % verbs.length]} ${facts[i % facts.length]} and more ${facts[(i + 2) % facts.length]}`;
    return text.slice(0, 150);
  });
}

async function measure(embedder, texts) {
  const loadStart = performance.now();
  if (typeof embedder.warmUp === 'function') await embedder.warmUp();
  else await embedder.embed(['warm up']);
  const loadMs = performance.now() - loadStart;
  const latencies = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    await embedder.embed([`what did ${i} say about the budget for the kitchen?`]);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  const start = performance.now();
  await embedder.embed(texts);
  const seconds = (performance.now() - start) / 1000;
  return {
    loadMs: Math.round(loadMs),
    queryMedianMs: Number(latencies[10].toFixed(2)),
    queryP90Ms: Number(latencies[18].toFixed(2)),
    texts: texts.length,
    textsPerSecond: Math.round(texts.length / seconds),
  };
}

if (values.only !== 'static') {
  const { UseEmbedder } = await import('../dist/embeddings/use/index.js');
  for (const workers of values.workers.split(',').map(Number)) {
    const embedder = UseEmbedder.create({ workers });
    process.stderr.write(`use-lite, ${workers} workers…\n`);
    results[`use-lite workers=${workers}`] = await measure(embedder, makeTexts(count));
    await embedder.close();
  }
}
if (values.only !== 'use') {
  const { StaticEmbedder } = await import('../dist/embeddings/static/index.js');
  const options = values['cache-dir'] ? { cacheDir: values['cache-dir'] } : {};
  const onProgress = (p) => process.stderr.write(`\r${p.phase} ${p.done}/${p.total}   `);
  const embedder = StaticEmbedder.create({ ...options, onProgress });
  process.stderr.write('static…\n');
  results.static = await measure(embedder, makeTexts(Math.max(count, 20_000)));
  await embedder.close();
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
